"""Expanding card and token entries into concrete pieces, and filling text templates.

An entry such as `{for_each: asset, count: 18, value: "{id}"}` stands for 18 cards per
company. Generators draw the expanded pieces and rules engines count them, so a deck's
composition is read from one place.

Every printed text is a Python format template, so every number it prints can come from the
spec instead of being typed twice. Each may name the game (`game_context`): its tracks
(`{tracks[quote].last}`), house rules (`{rules[certificate_price]}`), free `vars`, the asset
codes (`{assets}`), each component's piece count (`{counts[pair_counters]}`) and any
component's values (`{components[dividends].pays}` lists every card's `pays`, "0, 2, 2, 2,
3"; `{components[money].value}` the bills). A card or token face also names its asset (`{id}`,
`{name}`, `{initial}`), its pair (`{a.id}`, `{b.name}`), its entry's `data` (`{pays}`) and its
own fields filled before it, in the order value, other, title, subtitle, text, corner, so small
print can repeat its card's numbers (`text: "{other} to another colour"`). A number followed by
its noun takes the form the current language's plural rule picks: `{rules[rounds]:plural:#
round|# rounds}` ("1 round", "5 rounds"; in Russian "1 раунд", "3 раунда", "5 раундов").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from string import Formatter
from typing import Any, Iterator, Mapping, Sequence, TypeVar

from pnp.errors import shorten
from pnp.i18n import _
from pnp.spec.elements import named_fonts
from pnp.spec.model import (
    AidSection,
    AnyComponent,
    Asset,
    Back,
    BoardSection,
    CardBack,
    CardEntry,
    Component,
    Deck,
    Element,
    Face,
    Game,
    Mat,
    Money,
    TokenEntry,
    Tokens,
)
from pnp.spec.options import unknown_key_message
from pnp.spec.source import PathKey
from pnp.spec.templates import ElsewhereError, TemplateError, Values, check_visible, fill, plain, shown

__all__ = ["ElsewhereError", "TemplateError", "Values", "fill", "shown"]  # the templates' own, used from here too

TEXT_FIELDS = ("value", "other", "title", "subtitle", "text", "corner")  # filled in this order


@dataclass(frozen=True)
class Side:
    """One printed side with every template filled in."""

    asset: Asset | None
    value: str = ""
    other: str = ""
    title: str = ""
    subtitle: str = ""
    text: str = ""
    corner: str = ""
    image: str = ""  # an illustration file, relative to the spec's folder
    image_bleed: str = "cover"  # how it fills the bleed (`Picture.bleed`)
    elements: tuple[Element, ...] = ()  # `layout: free`: what is drawn, its templates filled (none: the kind's layout)


@dataclass(frozen=True)
class Piece:
    """One physical card or token: its front, its own back — a face (a token's, or a card's
    `back: {face: …}`), a card's own back design (`Back`, the deck's with what the card's
    `back` changes), or None: the deck's common back (a token's: its plain back)."""

    front: Side
    back: Side | Back | None
    data: Mapping[str, Any] = field(default_factory=dict)
    entry: int = 0  # index of the entry it came from, for error messages
    asset: Asset | None = None  # the asset of `for_each: asset`, if any


# Every name a template may use: (name, where, what it is, an example). docs/spec.md lists them
# (`template_names`), and a test checks them against the contexts built here.
EVERYWHERE = "every text"
FACE = "a card or token"  # its fields, its free layout's elements, a card's own back
BY_ASSET = "`for_each: asset`"
_TEMPLATE_NAMES: tuple[tuple[str, str, str, str], ...] = (
    ("game", EVERYWHERE, "the game's fields", "`{game.title}`, `{game.players.max}`"),
    ("tracks", EVERYWHERE, "a track's cells: `.first`, `.last`, `.start`, `.size`, `.cells`, `.labels[13]`",
     "`{tracks[quote].last}`"),
    ("rules", EVERYWHERE, "a house rule's value as the spec writes it (in a booklet: every house rule in effect)",
     "`{rules[start_cash]}`"),
    ("vars", EVERYWHERE, "a free value of the game's `vars`", "`{vars[start_guilders]}`"),
    ("assets", EVERYWHERE, "every asset's code, in order", "`{assets}` → IBE, SAN, TEF"),
    ("icon", EVERYWHERE, "an asset's icon in text (its logo, else its badge), as `:ID:` writes it", "`{icon[SA]}`"),
    ("counts", EVERYWHERE, "how many pieces a component makes, copies counted", "`{counts[shares]}` → 90"),
    ("components", EVERYWHERE, "a component's values: `.count`, a field, or each card's face field or data "
                               "(once per kind of card) as a list", "`{components[dividends].pays: / }` → 0 / 2 / 3"),
    ("index", FACE, "which expansion of `for_each` this is: the asset's place, the pair's, or 1", "`No. {index}`"),
    ("asset", BY_ASSET, "the asset, as a group", "`{asset.name}`"),
    ("a", "`for_each: pair`", "the pair's first asset", "`{a.id}/{b.id}` → EUR/USD"),
    ("b", "`for_each: pair`", "the pair's second asset", "`{b.name}`"),
    ("NAME", FACE, "a key of the entry's `data` (a table of cards' rows: of each card's)", "`Pays {pays}`"),
    ("player", "a form column's title", "with `for_each: player`: the player's number", "`Player {player}`"),
    ("params", "a booklet's lines", "the rules engine's parameters, read from the game", "`{params.rounds}`"),
    ("house", "a booklet's lines", "a house rule's value in the words of the booklet's `rules_words`",
     "`{house[tiebreak]}`"),
    ("value", "a house rule's words", "in `rules_words` under `\"*\"`: the value in effect", "`{value} rounds`"),
)


def template_names() -> list[tuple[str, str, str, str]]:
    """Every name a template may use, as (`{name}`, where, what it is, an example): the game's
    (`game_context`), a face's (`contexts` and `side`: the asset's fields, from the model; the
    face's own fields; its data), and those of a few texts only."""
    rows = [(f"`{{{name}}}`", where, meaning, example) for name, where, meaning, example in _TEMPLATE_NAMES]
    sample = Asset(id="BLU", name="Azul", name_en="Blue", color="#0072b2", symbol="circle", pattern="hstripes",
                   initial="С", sign="$", image="art/blue.svg")  # what each field's example prints
    fields = [(f"`{{{name}}}`", BY_ASSET, f"the asset's `{name}`: {info.description}",
               f"`{{{name}}}` → {getattr(sample, name)}") for name, info in Asset.model_fields.items()]
    faces = [(", ".join(f"`{{{name}}}`" for name in TEXT_FIELDS), FACE,
              "the face's own fields, filled in this order, each seeing those before it (a free element sees them "
              "all; a table of cards' rows, each card's)", "`text: \"{other} to another colour\"`")]
    at = next(i for i, row in enumerate(rows) if row[1] == BY_ASSET) + 1
    return rows[:at] + fields + faces + rows[at:]


def game_context(game: Game) -> dict[str, Any]:
    """What every template may name, as plain values (`pnp.spec.templates`): the game, its
    tracks (`{tracks[quote].last}`), its rules, the designer's free `vars` (`{vars[start_cash]}`,
    with or without a rules engine), the assets' icons (`{icon[IBE]}`, the `:IBE:` markup that
    draws the logo or badge in text) and codes (`{assets}`: "IBE, SAN, …", each as the language
    being spoken names it: Акционер's colours are words), and every component:
    its piece count (`{counts[shares]}`) and its values (`{components[dividends].pays}`, see
    `ComponentValues`). Groups of values are `Record` views, read as a template names them: a
    fresh context costs little."""
    return {"game": plain(game), "tracks": plain(game.tracks), "rules": plain(game.rules), "vars": plain(game.vars),
            "icon": plain({a.id: f":{a.id}:" for a in game.assets}), "assets": ", ".join(_(a.id) for a in game.assets),
            "counts": plain(_Components(game, counted=True)), "components": plain(_Components(game))}


class ComponentValues(Mapping[str, Any]):
    """A component seen from a template: `.count` its physical pieces, `.id`, `.name`, and any
    other name the values of its faces or bills: a face field filled in (`.value`) or a `data`
    key (`.pays`) of every card or token, once per kind of card (copies left out), or a bill
    field (`.value`, `.count` of each bill) of money; for other kinds, the component's field.
    A component's own templates cannot name its values (they would need themselves)."""

    _busy: set[tuple[int, str]] = set()  # (game, component) being worked out: a loop is an error

    def __init__(self, game: Game, component: AnyComponent):
        self._game, self._component = game, component

    def __getitem__(self, name: Any) -> Any:
        if not isinstance(name, str) or name.startswith("_"):
            raise KeyError(name)
        if name == "count":  # counted from the entries, no template filled: even its own cards may print it
            return piece_count(self._game, self._component)
        return self._guarded(lambda: self._values(name))

    def __iter__(self) -> Iterator[str]:
        names = ["count", *type(self._component).model_fields]
        if isinstance(self._component, (Deck, Tokens)):
            names += TEXT_FIELDS
        return iter(dict.fromkeys(names))

    def __len__(self) -> int:
        return len(list(iter(self)))

    def _values(self, name: str) -> Any:
        component = self._component
        if isinstance(component, (Deck, Tokens)):
            values = _face_values(_faces(self._game, component), name)
            if values is not None:
                return values
        bills = getattr(component, "bills", None)
        if bills is not None and name in type(bills[0]).model_fields:
            return Values(getattr(bill, name) for bill in bills)
        if name in type(component).model_fields:
            return getattr(component, name)
        raise KeyError(name)

    def _guarded(self, work: Any) -> Any:
        mark = (id(self._game), self._component.id)
        if mark in self._busy:
            raise TemplateError("text", f"{self._component.id} names its own values")
        self._busy.add(mark)
        try:
            return work()
        except ElsewhereError:
            raise
        except TemplateError as error:  # the component named has a broken template of its own
            raise ElsewhereError(error.field, f"{self._component.id}: {error}") from None
        finally:
            self._busy.discard(mark)


class _Components(Mapping[str, Any]):
    """The game's components by id, as `ComponentValues` (or, `counted`, their piece counts),
    worked out only when a template names one."""

    def __init__(self, game: Game, counted: bool = False):
        self._game, self._counted = game, counted
        self._ids = tuple(c.id for c in game.components)

    def __getitem__(self, component_id: Any) -> Any:
        if component_id not in self._ids:
            raise TemplateError("text", unknown_key_message(component_id, list(self._ids), "component"))
        values = ComponentValues(self._game, self._game.component(component_id))
        return values["count"] if self._counted else values

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


def _face_values(faces: Sequence[tuple[Side, Mapping[str, object]]], name: str) -> Values | None:
    """Each face's `name`: its entry's data key, else its printed field; None when no face has one."""
    if not any(name in data or name in TEXT_FIELDS for _, data in faces):
        return None
    return Values(data[name] if name in data else getattr(side, name) for side, data in faces)


def _faces(game: Game, component: Deck | Tokens) -> list[tuple[Side, Mapping[str, Any]]]:
    """Each kind of card or token front once (copies left out), with its entry's data."""
    entries: list[tuple[CardEntry | TokenEntry, Face]] = (
        [(entry, entry) for entry in component.cards] if isinstance(component, Deck)
        else [(entry, entry.front) for entry in component.tokens])
    faces: list[tuple[Side, Mapping[str, Any]]] = []
    for entry, face in entries:
        for context, asset in contexts(game, entry):
            faces.append((side(game, face, context, asset), entry.data))
    return faces


def contexts(game: Game, entry: CardEntry | TokenEntry) -> Iterator[tuple[dict[str, Any], Asset | None]]:
    """One template context per expansion of `for_each` (once when it is not set)."""
    base = {**game_context(game), **entry.data}
    if entry.for_each == "asset":
        for index, asset in enumerate(game.assets, 1):
            values = plain(asset)
            yield {**base, **values, "asset": values, "index": index}, asset
    elif entry.for_each == "pair":
        for index, (a, b) in enumerate(combinations(game.assets, 2), 1):
            yield {**base, "a": plain(a), "b": plain(b), "index": index}, None
    else:
        yield {**base, "index": 1}, None


def side(game: Game, face: Face, context: Mapping[str, Any], default_asset: Asset | None,
         elements: tuple[Element, ...] = ()) -> Side:
    """One face with its templates filled; each field may name the fields filled before it, and
    its free layout's elements (its own, else `elements`: a free deck's) every field."""
    texts: dict[str, str] = {}
    for name in TEXT_FIELDS:
        texts[name] = fill(getattr(face, name) or "", {**context, **texts}, name)
        try:
            check_visible(texts[name])
        except ValueError as error:
            raise TemplateError(name, str(error)) from None
    asset = default_asset
    if face.asset is not None:
        asset_id = fill(face.asset, context, "asset")
        asset = next((a for a in game.assets if a.id == asset_id), None)
        if asset is None:
            known = ", ".join(a.id for a in game.assets)
            raise TemplateError("asset", f'unknown asset "{shorten(asset_id)}" (known: {known})')
    if not texts["corner"] and face.corner is None:
        texts["corner"] = texts["value"]
    placed = _filled_elements(face.elements, {**context, **texts}) if face.elements else \
        _filled_elements(elements, {**context, **texts}, own=False)
    image = getattr(face, "image", None)  # cards have illustrations; tokens do not
    if image is None:
        return Side(asset=asset, elements=placed, **texts)
    return Side(asset=asset, image=fill(image.file, context, "image"), image_bleed=image.bleed, elements=placed,
                **texts)


class DeckElementError(TemplateError):
    """A template of a free deck's `elements` a card cannot fill: reported at the element."""


def _filled_elements(elements: tuple[Element, ...], context: Mapping[str, Any], own: bool = True) -> tuple[Element, ...]:
    """The elements with their text, value and image templates filled; a TemplateError at the
    element (a `DeckElementError` for the deck's, `own` False)."""
    filled_in = []
    for index, element in enumerate(elements):
        kind = element.kind
        if kind not in ("text", "value", "image"):
            filled_in.append(element)
            continue
        try:
            text = fill(getattr(element, kind), context, kind)
            if kind != "image":
                check_visible(text)
        except ValueError as error:  # a TemplateError, or text that prints nothing
            raise (TemplateError if own else DeckElementError)(kind, str(error), ("elements", index)) from None
        filled_in.append(element.model_copy(update={kind: text}))
    return tuple(filled_in)


def currency(game: Game, money: Money, asset: Asset | None) -> str:
    """What a bill prints as its currency: `money.currency` filled for the asset of `for_each`
    (by default the asset's id), or once for the bank's money."""
    if not money.currency:
        return asset.id if asset is not None else ""
    context = game_context(game)
    if asset is not None:
        values = plain(asset)
        context |= {**values, "asset": values}
    return fill(money.currency, context, "currency")


def game_texts(component: Component) -> list[tuple[PathKey, str]]:
    """The texts of a board, mat, aid or booklet that are templates over the game (`game_context`),
    each with its path inside the component: section titles and headings, a map's cell labels,
    zone titles, notes, lines, a setup drawing's money and hands."""
    texts: list[tuple[PathKey, str]] = []
    for index, section in enumerate(getattr(component, "sections", ())):
        texts += [(("sections", index, *path), text) for path, text in _section_texts(section)]
    if isinstance(component, Mat):
        texts += _mat_texts(component)
    return texts


def _section_texts(section: BoardSection | AidSection) -> list[tuple[PathKey, str]]:
    """A section's templates over the game, each with its path inside the section: its titles
    and headings, an aid's or booklet's lines, a map's cell labels, a setup drawing's money and hands."""
    texts: list[tuple[PathKey, str]] = [((name,), getattr(section, name))
                                        for name in ("title", "title_en", "heading", "heading_en")
                                        if getattr(section, name, "")]
    if isinstance(section, AidSection):  # a booklet's sections too
        texts += [(("lines", j), line) for j, line in enumerate(section.lines)]
    texts += [(("cells", j, "label"), cell.label) for j, cell in enumerate(getattr(section, "cells", ())) if cell.label]
    setup = getattr(section, "setup", None)
    if setup is not None:
        texts += [(("setup", "money", "amount"), setup.money.amount)] if setup.money else []
        texts += [(("setup", "hands", j, "count"), hand.count) for j, hand in enumerate(setup.hands)]
    return texts


def _mat_texts(mat: Mat) -> list[tuple[PathKey, str]]:
    """A mat's templates over the game: its zones' titles, its notes' title and notes."""
    texts: list[tuple[PathKey, str]] = [(("zones", r, c, name), getattr(zone, name)) for r, row in enumerate(mat.zones)
                                        for c, zone in enumerate(row) for name in ("title", "title_en")
                                        if getattr(zone, name)]
    texts += [(("notes_title",), mat.notes_title)] if mat.notes_title else []
    texts += [(("notes", j), note) for j, note in enumerate(mat.notes)]
    return texts


Filled = TypeVar("Filled", bound=Component)  # a component comes back filled as the same kind


def filled(game: Game, component: Filled) -> Filled:
    """`component` with every text of `game_texts` filled in (generators draw this)."""
    texts = game_texts(component)
    if not texts:
        return component
    context = game_context(game)
    for path, text in texts:
        component = _replaced(component, path, fill(text, context, str(path[-2] if isinstance(path[-1], int) else path[-1])))
    return component


def _replaced(node: Any, path: PathKey, value: Any) -> Any:
    """`node` (a model or a tuple) with the value at `path` replaced, nothing validated again:
    a filled text may be longer than its template's bound (`{assets}` names every asset)."""
    step, rest = path[0], path[1:]
    if isinstance(node, tuple):
        return node[:step] + (_replaced(node[step], rest, value) if rest else value,) + node[step + 1:]
    return node.model_copy(update={step: _replaced(getattr(node, step), rest, value) if rest else value})


def deck_pieces(game: Game, deck: Deck) -> tuple[Piece, ...]:
    """Every card of the deck, in entry order (copies adjacent), with its own back if it has one."""
    pieces = []
    for index, entry in enumerate(deck.cards):
        for context, asset in contexts(game, entry):
            try:
                front = side(game, entry, context, asset, deck.elements)
                back = None if entry.back is None else card_back(game, deck, entry.back, context, asset)
            except DeckElementError as error:  # the deck's element, at the element, naming the card
                raise TemplateError(error.field, f"card entry {index + 1}: {error}", error.location) from None
            except TemplateError as error:
                raise error.at("cards", index) from None
            pieces += [Piece(front, back, entry.data, index, asset)] * entry.count
    return tuple(pieces)


def card_back(game: Game, deck: Deck, back: CardBack, context: Mapping[str, Any], asset: Asset | None) -> Side | Back:
    """A card's own back with its templates filled: a face (drawn as the deck draws its fronts),
    or the deck's back with the fields the card's `back` gives."""
    if back.face is not None:
        try:
            return side(game, back.face, context, asset, deck.elements)
        except DeckElementError:
            raise
        except TemplateError as error:
            raise error.at("back", "face") from None
    changes: dict[str, Any] = {}
    for name in ("title", "subtitle"):
        if getattr(back, name) is not None:
            changes[name] = _filled_field(getattr(back, name), context, name)
    changes |= {name: getattr(back, name) for name in ("color", "pattern") if getattr(back, name) is not None}
    if back.image is not None:
        try:
            changes["image"] = back.image.model_copy(update={"file": fill(back.image.file, context, "file")})
        except TemplateError as error:
            raise error.at("back", "image") from None
    return deck.back.model_copy(update=changes)


def _filled_field(template: str, context: Mapping[str, Any], name: str) -> str:
    try:
        text = fill(template, context, name)
        check_visible(text)
    except TemplateError as error:
        raise error.at("back") from None
    except ValueError as error:
        raise TemplateError(name, str(error), ("back",)) from None
    return text


def token_pieces(game: Game, tokens: Tokens) -> tuple[Piece, ...]:
    pieces = []
    for index, entry in enumerate(tokens.tokens):
        for context, asset in contexts(game, entry):
            try:
                front = side(game, entry.front, context, asset)
            except TemplateError as error:
                raise error.at("tokens", index, "front") from None
            try:
                back = side(game, entry.back, context, asset) if entry.back else None
            except TemplateError as error:
                raise error.at("tokens", index, "back") from None
            pieces += [Piece(front, back, entry.data, index, asset)] * entry.count
    return tuple(pieces)


def printed_inputs(game: Game, component: AnyComponent) -> dict[str, Any]:
    """Everything of `game` that `component`'s printed sheets can show, as JSON-able data.

    That is its own fields; the game's title and assets (headers, badges, `for_each`); the
    game's fonts when its elements name one; the game fields its templates name
    (`{tracks[quote].last}` → the tracks, `{vars[…]}` → the vars); the tracks when a section
    shows one; the players when a form has a column per player; and the
    whole game when a component prints what the rules engine computes (`table`, `marks`,
    `house_rules`) or its templates name anything else (`{game}`, `{counts[…]}`, `{params…}`).
    The build cache keys each component by this, so it must never leave out something a
    generator reads: when in doubt, widen it.
    """
    own = component.model_dump(mode="json", by_alias=True)
    scalars, roots = _scan(own)
    parts: dict[str, Any] = {"component": own, "title": [game.title, game.title_en, game.language],
                             "assets": [a.model_dump(mode="json") for a in game.assets]}
    if own.get("kind") == "deck":  # whether its back must print tells it from the game's other decks
        parts["decks"] = [[c.id, c.model_dump(mode="json")["size_mm"], c.back.model_dump(mode="json")]
                          for c in game.components if c.kind == "deck"]
    if named_fonts(component):  # which file each font name is
        parts["fonts"] = _json(game.fonts)
    local = _LOCAL | _data_keys(own)
    fields = set(Game.model_fields) - {"components"}
    if roots - local - fields or any(key in _ENGINE_KEYS and value not in (None, False) for key, value in scalars):
        parts["game"] = game.model_dump(mode="json", by_alias=True)
        return parts
    if any(key == "track" and value is not None for key, value in scalars):
        roots.add("tracks")
    if ("for_each", "player") in scalars:
        roots.add("players")
    for name in sorted(roots & fields):
        parts[name] = _json(getattr(game, name))
    return parts


# names a template has of its own, or that depend on the assets alone (always in the key)
_LOCAL = {"asset", "index", "a", "b", "player", "icon", "assets", *Asset.model_fields, *TEXT_FIELDS}
_ENGINE_KEYS = ("table", "marks", "house_rules", "deck")  # fields read from the whole game (the engine's, a deck's)


def _data_keys(data: Any) -> set[str]:
    """The keys of every `data:` mapping (a card's own values, `{pays}`)."""
    if isinstance(data, dict):
        found = set(data["data"]) if isinstance(data.get("data"), dict) else set()
        return found.union(*(_data_keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_data_keys(v) for v in data))
    return set()


def _scan(data: Any, key: Any = None) -> tuple[set[tuple[Any, Any]], set[str]]:
    """The (key, value) pairs of every scalar in `data`, and the roots of every placeholder
    in its text (`{tracks[quote].last}` → "tracks")."""
    scalars: set[tuple[Any, Any]] = set()
    roots: set[str] = set()
    if isinstance(data, dict):
        for name, value in data.items():
            more, names = _scan(value, name)
            scalars |= more
            roots |= names
    elif isinstance(data, list):
        for value in data:
            more, names = _scan(value, key)
            scalars |= more
            roots |= names
    else:
        scalars.add((key, data))
        if isinstance(data, str) and "{" in data:
            try:
                roots |= {re.split(r"[.\[]", name)[0] for _, name, _, _ in Formatter().parse(data) if name}
            except ValueError:
                pass  # not a template after all; validation reports it
    return scalars, roots


def _json(value: Any) -> Any:
    """A game field (a model, a mapping or tuple of models, a plain value) as JSON-able data."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


def piece_count(game: Game, component: Component) -> int:
    """How many physical pieces a component makes: 90 for a 90-card deck, 6 for six mats.
    Counted from the entries, without filling a template, so it is cheap and known even for a
    deck whose templates are broken."""
    from pnp.spec.model import Form

    if isinstance(component, (Deck, Tokens)):
        entries = component.cards if isinstance(component, Deck) else component.tokens
        count = sum(entry.count * expansions(game, entry.for_each) for entry in entries)
    elif isinstance(component, Money):
        count = sum(b.count for b in component.bills) * (len(game.assets) if component.for_each else 1)
    elif isinstance(component, Form):
        count = max(1, len(component.players))
    else:
        count = 1
    return count * component.copies


def expansions(game: Game, for_each: str | None) -> int:
    """How many faces an entry with `for_each` stands for: one per asset, per pair, or one."""
    assets = len(game.assets)
    return assets if for_each == "asset" else assets * (assets - 1) // 2 if for_each == "pair" else 1
