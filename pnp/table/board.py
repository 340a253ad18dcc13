"""The position as the table's page draws it: the referee's JSON state (`state_json`) laid on
the game's printed components, from the spec — the quote or price board's strips with their
tokens, each player's mat with its zones, money as bills, pair counters on their tracks — with
the spec's names, colours and symbols, and words for everything else (`looks`).

What `pnp referee check --json` answers is what the page shows: every value drawn carries the
place (or places) in the state it comes from (`Drawn.state`, the page's `data-state`), so a
test reads the page back and compares it with the referee's answer, value by value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from pnp.i18n import _
from pnp.spec.model import Game
from pnp.spec.model import Mat as MatSpec
from pnp.spec.model import Money as MoneySpec
from pnp.table.looks import DEFAULT, LOOKS, NOTHING, Look, heading, step_word
from pnp.table.looks import label as label_of

Checks = tuple[tuple[str, str], ...]  # (place in the state, the value there as JSON)


@dataclass(frozen=True)
class Ident:
    """An asset as its components show it: code, name, colour, the ink that reads on that
    colour, and its symbol."""

    id: str
    name: str
    colour: str
    ink: str
    symbol: str


@dataclass(frozen=True)
class Token:
    """A token or counter on a strip: its cell, what it reads, whose colour it wears."""

    cell: int
    label: str
    ident: Ident | None
    title: str  # said on hover and to screen readers
    state: Checks
    flipped: bool = False  # past the track's last cell: the token's back, on the cell it reads from


@dataclass(frozen=True)
class Row:
    label: str
    ident: Ident | None
    tokens: tuple[Token, ...]
    cells: tuple[tuple[Token, ...], ...] = ()  # the tokens on each cell, in the track's order


def _row(label: str, ident: Ident | None, tokens: Sequence[Token], size: int) -> Row:
    return Row(label, ident, tuple(tokens), tuple(tuple(t for t in tokens if t.cell == i) for i in range(size)))


@dataclass(frozen=True)
class Strip:
    """A track of the spec, a row per asset (or one), its tokens on their cells."""

    title: str
    cells: tuple[str, ...]
    start: int  # the start cell, marked as the board marks it
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Bill:
    label: str
    count: int
    colour: str
    ink: str


@dataclass(frozen=True)
class Count:
    """So many of an asset (cards in a zone, certificates, shares; money, as bills)."""

    ident: Ident | None
    label: str
    count: str
    state: Checks
    bills: tuple[Bill, ...] = ()


@dataclass(frozen=True)
class Zone:
    label: str  # "1", as printed on the mat ("" for holdings that are not a mat's)
    title: str
    counts: tuple[Count, ...]


@dataclass(frozen=True)
class Money:
    total: str
    bills: tuple[Bill, ...]
    state: Checks


@dataclass(frozen=True)
class Fact:
    label: str
    text: str
    ident: Ident | None
    state: Checks


@dataclass(frozen=True)
class Mat:
    """A player's side of the table."""

    name: str
    acting: bool
    held: tuple[Token, ...]  # tokens the player holds (Bolsa's auction token)
    money: tuple[Money, ...]  # in one currency
    zones: tuple[Zone, ...]  # a row per zone of the mat, per holding, per currency's money: a count per asset
    facts: tuple[Fact, ...]


@dataclass(frozen=True)
class Panel:
    title: str
    facts: tuple[Fact, ...]
    counts: tuple[Count, ...] = ()
    items: tuple[Fact, ...] = ()  # an ordered list (the queue), front first
    listed: Checks = ()  # where the list is in the state (the list as a whole)


@dataclass(frozen=True)
class Board:
    strips: tuple[Strip, ...]
    panels: tuple[Panel, ...]
    mats: tuple[Mat, ...]
    idents: Mapping[str, Ident]  # every asset, by id (the forms' rows show them too)


SKIPPED = ("over", "scores", "winners")  # the page's banner says how the game ended


def board(state: Mapping[str, Any], game: Game, game_id: str, players: Sequence[str],
          acting: Sequence[str] = (), options: Mapping[str, Any] | None = None) -> Board:
    """The drawing of a `state_json` of `game` for these players, under the house rules
    `options` (a track a house rule ends early, Bolsa's rounds, ends there)."""
    look = LOOKS.get(game_id, DEFAULT)
    idents = {a.id: ident(a) for a in game.assets}
    strips: list[Strip] = []
    panels = _Panels()
    mats: tuple[Mat, ...] = ()
    for key, value in state.items():
        if _drawn_apart(key, state, look):
            continue
        if key in look.tracks:
            last = (options or {}).get(look.limits.get(key, ""))
            strips.append(_strip(game, look.tracks[key], key, value, idents, last))
        elif key in look.counters:
            strips.append(_counters(game, look.counters[key], key, value, idents))
        elif key in look.holders:
            continue  # drawn on the holder's mat
        elif _per_player(value, players):
            mats = _mats(game, look, key, value, state, players, acting, idents)
        else:
            panels.add(key, value, look, idents)
    return Board(tuple(strips), panels.panels(), mats, idents)


def _drawn_apart(key: str, state: Mapping[str, object], look: Look) -> bool:
    """A state entry the board draws in no strip or panel of its own: how the game ended (the
    page's banner says it), the players' hands (each on its player's mat)."""
    return key in SKIPPED or (bool(look.hands) and key == look.hands and isinstance(state.get(key), Mapping))


def _mats(game: Game, look: Look, key: str, value: Mapping[str, Mapping[str, Any]], state: Mapping[str, object],
          players: Sequence[str], acting: Sequence[str], idents: Mapping[str, Ident]) -> tuple[Mat, ...]:
    """Each player's mat from the state's entry `key` (by player), with the player's hand when
    the state holds hands (`look.hands`)."""
    mats = tuple(_mat(game, look, name, value[name], f"{key}.{name}", idents, state, name in acting)
                 for name in players if name in value)
    hands = state.get(look.hands) if look.hands else None
    if not isinstance(hands, Mapping):
        return mats
    return tuple(replace(mat, facts=mat.facts + tuple(_facts(look.hands, hands[mat.name], f"{look.hands}.{mat.name}",
                                                             idents, look=look)))
                 if mat.name in hands else mat for mat in mats)


@dataclass
class _Panels:
    """The side panels as the state's other entries fill them, by title: facts, counts (a
    count per asset), list items (with where the list is in the state), in the order first
    seen."""

    facts: dict[str, list[Fact]] = field(default_factory=dict)
    counted: dict[str, list[Count]] = field(default_factory=dict)
    listed: dict[str, list[Fact]] = field(default_factory=dict)
    places: dict[str, Checks] = field(default_factory=dict)

    def add(self, key: str, value: Any, look: Look, idents: Mapping[str, Ident]) -> None:
        """A state entry on its panel: a count per asset, a list, or facts."""
        title = heading(look, key)
        if isinstance(value, Mapping) and value and set(value) <= set(idents):
            self.counted.setdefault(title, []).extend(_counts(value, key, idents))
        elif isinstance(value, list) and value:
            self.listed.setdefault(title, []).extend(Fact("", _text(item, idents), _asset(item, idents), ())
                                                     for item in value)
            self.places[title] = ((key, _raw(value)),)
        else:
            own_heading = key in look.panels and isinstance(value, Mapping)  # the heading names it
            self.facts.setdefault(title, []).extend(_facts(key, value, key, idents, "" if own_heading else None, look))

    def panels(self) -> tuple[Panel, ...]:
        """The panels, in the order their titles first came."""
        titles = list(dict.fromkeys([*self.facts, *self.counted, *self.listed]))
        return tuple(Panel(t, tuple(self.facts.get(t, ())), tuple(self.counted.get(t, ())),
                           tuple(self.listed.get(t, ())), self.places.get(t, ())) for t in titles)


# --- strips ------------------------------------------------------------------------------------------


def _strip(game: Game, track_id: str, key: str, value: Any, idents: Mapping[str, Ident], last: Any = None) -> Strip:
    """A track with a token per asset (or the one token of a single value) on its cell; a value
    past the last cell shows the token's back (+size) on the cell it is counted from. `last`:
    the last cell in play (a house rule's, such as the number of rounds), the rest left off."""
    track = game.tracks[track_id]
    kept = _in_play(track.cells, last)
    cells = tuple(_number(c) for c in kept)
    values = value.items() if isinstance(value, Mapping) else [(None, value)]
    rows = []
    for asset, number in values:
        path = f"{key}.{asset}" if asset is not None else key
        cell, flipped = _cell(kept, number)
        ident = idents.get(str(asset)) if asset is not None else None
        label = f"+{track.size}" if flipped else (ident.id if ident else _number(number))
        name = ident.name if ident else _strip_title(game, track_id, key)
        token = Token(cell, label, ident, f"{name}: {_number(number)}", ((path, _raw(number)),), flipped)
        rows.append(_row(ident.id if ident else "", ident, (token,), len(cells)))
    return Strip(_strip_title(game, track_id, key), cells, _start(kept, track.start), tuple(rows))


def _in_play(cells: Sequence[float], last: object) -> list[float]:
    """A track's cells up to `last` (a house rule's last cell); all of them where that would
    leave none."""
    return [c for c in cells if not _beyond(c, last)] or list(cells)


def _beyond(cell: Any, last: Any) -> bool:
    numbers = (int, float)
    return (isinstance(last, numbers) and not isinstance(last, bool) and isinstance(cell, numbers)
            and not isinstance(cell, bool) and cell > last)


def _counters(game: Game, track_id: str, key: str, value: Mapping[str, Any], idents: Mapping[str, Ident]) -> Strip:
    """Pair counters (`"A/B": {stronger, position, rate}`) on the stronger asset's row, at their
    box, each reading the weaker asset (as the printed counter's face up side does)."""
    track = game.tracks[track_id]
    cells = tuple(_number(c) for c in track.cells)
    placed: dict[str, list[Token]] = {asset: [] for asset in idents}
    for pair, counter in value.items():
        stronger = str(counter.get("stronger"))
        placed.setdefault(stronger, []).append(_counter_token(key, str(pair), counter, len(cells), idents))
    rows = tuple(_row(asset, idents.get(asset), tokens, len(cells)) for asset, tokens in placed.items())
    return Strip(_strip_title(game, track_id, key), cells, _start(track.cells, track.start), rows)


def _counter_token(key: str, pair: str, counter: Mapping[str, object], boxes: int, idents: Mapping[str, Ident]) -> Token:
    """A pair counter at its box (the last, for a position off the track), reading the weaker
    asset; its title says which is stronger and the rate."""
    stronger = str(counter.get("stronger"))
    weaker = next((a for a in str(pair).split("/") if a != stronger), "")
    position = counter.get("position")
    cell = int(position) - 1 if isinstance(position, int) and 1 <= position <= boxes else boxes - 1
    rate = counter.get("rate")
    checks = tuple((f"{key}.{pair}.{field}", _raw(v)) for field, v in counter.items())
    title = _("{pair}: {stronger} stronger, box {position}").format(pair=pair, stronger=stronger, position=position)
    if rate is not None:
        title += f", 1 {stronger} = {_number(rate)} {weaker}"
    return Token(cell, weaker, idents.get(weaker), title, checks)


def _start(cells: Sequence[object], start: object) -> int:
    """Where a track's start cell is among `cells`: the first cell when it is not one of them."""
    return list(cells).index(start) if start in cells else 0


def _strip_title(game: Game, track_id: str, key: str) -> str:
    """A strip's title: the printed board section's that shows the track, else the state
    key's words."""
    return _section_title(game, track_id) or label_of(key)


def _cell(cells: Sequence[float], number: Any) -> tuple[int, bool]:
    if not isinstance(number, (int, float)) or isinstance(number, bool):
        return 0, False
    if number in cells:
        return list(cells).index(number), False
    size = len(cells)
    if number > cells[-1] and number - size in cells:
        return list(cells).index(number - size), True
    nearest = min(range(size), key=lambda i: abs(cells[i] - number))
    return nearest, False


def _section_title(game: Game, track_id: str) -> str:
    for component in game.components:
        for section in getattr(component, "sections", ()) or ():
            if getattr(section, "track", None) == track_id:
                return str(getattr(section, "title_en", "") or getattr(section, "title", ""))
    return ""


# --- mats ------------------------------------------------------------------------------------------------


def _mat(game: Game, look: Look, name: str, data: Mapping[str, Any], path: str, idents: Mapping[str, Ident],
         state: Mapping[str, Any], acting: bool) -> Mat:
    zones_spec = _zones(game)
    money: list[Money] = []
    zones: list[Zone] = []
    facts: list[Fact] = []
    for key, value in data.items():
        where = f"{path}.{key}"
        if key in look.money and isinstance(value, Mapping):  # money in each currency: a row of bills
            zones.append(_currencies(game, label_of(key), value, where, idents))
        elif key in look.money:
            money.append(Money(_number(value), _bills(game, value), ((where, _raw(value)),)))
        elif key in look.zones and look.zones[key] in zones_spec:
            zones.append(Zone(look.zones[key], zones_spec[look.zones[key]], tuple(_counts(value, where, idents))))
        elif isinstance(value, Mapping) and value and set(value) <= set(idents):
            zones.append(Zone("", label_of(key), tuple(_counts(value, where, idents))))
        else:
            facts.extend(_facts(key, value, where, idents, look=look))
    zones.sort(key=lambda z: (z.label == "", z.label))
    return Mat(name, acting, _tokens_held(game, look, name, state), tuple(money), tuple(zones), tuple(facts))


def _currencies(game: Game, title: str, money: Mapping[str, object], path: str, idents: Mapping[str, Ident]) -> Zone:
    """Money in each currency, a count and its bills per currency."""
    return Zone("", title, tuple(Count(idents.get(str(c)), str(c), _number(a), ((f"{path}.{c}", _raw(a)),), _bills(game, a))
                                 for c, a in money.items()))


def _tokens_held(game: Game, look: Look, name: str, state: Mapping[str, object]) -> tuple[Token, ...]:
    """The tokens the state says `name` holds (`look.holders`: the state key naming the holder,
    and the token's face)."""
    return tuple(_held(game, key, face, state) for key, face in look.holders.items() if state.get(key) == name)


def _zones(game: Game) -> dict[str, str]:
    """The player mat's zones, label → title, as printed."""
    for component in game.components:
        if isinstance(component, MatSpec):
            return {z.label: z.title_en or z.title for row in component.zones for z in row}
    return {}


def _held(game: Game, key: str, face: str, state: Mapping[str, Any]) -> Token:
    """The token whose face reads `face`, on its holder's mat, named as the spec names it."""
    title = label_of(key)
    for component in game.components:
        for entry in getattr(component, "tokens", ()) or ():
            front = getattr(entry, "front", None)
            if front is not None and getattr(front, "value", None) == face:
                back = getattr(entry, "back", None)
                words = getattr(back, "subtitle", "") or getattr(front, "subtitle", "")
                title = _("{name} token").format(name=words) if words else title
    return Token(0, face, None, title, ((key, _raw(state.get(key))),))


def _bills(game: Game, amount: Any) -> tuple[Bill, ...]:
    """An amount as the fewest bills of the spec's money, each in its colour."""
    denominations = sorted(((Fraction(str(b.value)), b.label or _number(b.value), b.color)
                            for component in game.components if isinstance(component, MoneySpec)
                            for b in component.bills), reverse=True)
    left = Fraction(str(amount)) if isinstance(amount, (int, float)) and not isinstance(amount, bool) else Fraction(0)
    bills = []
    for worth, label, colour in dict.fromkeys(denominations):
        if worth > 0 and left >= worth:
            count = int(left // worth)
            left -= count * worth
            bills.append(Bill(label, count, colour, _ink(colour)))
    return tuple(bills)


def _counts(value: Mapping[str, Any], path: str, idents: Mapping[str, Ident]) -> list[Count]:
    return [Count(idents.get(str(k)), str(k), _number(v), ((f"{path}.{k}", _raw(v)),)) for k, v in value.items()]


# --- facts ------------------------------------------------------------------------------------------------


def _facts(key: str, value: Any, path: str, idents: Mapping[str, Ident], label: str | None = None,
           look: Look = DEFAULT) -> list[Fact]:
    """Label and value, a mapping inside flattened into its own facts ("Auction · Best bid")."""
    name = label_of(key) if label is None else label
    if isinstance(value, Mapping) and value:  # each inner value under its own words
        return [fact for k, v in value.items() for fact in _facts(str(k), v, f"{path}.{k}", idents, look=look)]
    shown = step_word(look, value) if isinstance(value, str) else _text(value, idents)  # a phase in the page's words
    return [Fact(name, shown, _asset(value, idents), ((path, _raw(value)),))]


def _per_player(value: Any, players: Sequence[str]) -> bool:
    return (isinstance(value, Mapping) and bool(value) and set(value) <= set(players)
            and all(isinstance(v, Mapping) for v in value.values()))


def _asset(value: Any, idents: Mapping[str, Ident]) -> Ident | None:
    return idents.get(value) if isinstance(value, str) else None


def _text(value: Any, idents: Mapping[str, Ident]) -> str:
    if value is None:
        return NOTHING
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, (list, tuple)):
        return _runs([_text(v, idents) for v in value])
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_text(v, idents)}" for k, v in value.items()) or NOTHING
    return str(value)


def _runs(said: Sequence[str]) -> str:
    """A list's texts with like items together, "(big card) ×3", in the order first seen."""
    runs = [(text, said.count(text)) for text in dict.fromkeys(said)]
    return ", ".join(text if n == 1 else f"{text} ×{n}" for text, n in runs) or NOTHING


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _raw(value: Any) -> str:
    """A value as the referee's JSON writes it (what a test compares)."""
    return json.dumps(value, ensure_ascii=False)


def ident(asset: Any) -> Ident:
    colour = str(asset.color)
    return Ident(asset.id, asset.name_en or asset.name, colour, _ink(colour), str(asset.symbol))


def _ink(colour: str) -> str:
    """Black or white text on `colour`, whichever contrasts more (WCAG 2 luminance; the printed
    components choose the same way)."""
    value = colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    channels = [int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    light = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000000" if (light + 0.05) / 0.05 >= 1.05 / (light + 0.05) else "#ffffff"

