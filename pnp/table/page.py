"""What a page shows one actor, as the values its templates draw: the forms of the steps it
may enter, the board, the last steps, its undo, and (for the host) the seats' links. Made
from the actor's `SeatView` alone, so a page never holds what the actor may not see."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from pnp.i18n import _, named
from pnp.spec.model import Game
from pnp.table import forms, words
from pnp.table.board import Checks, Ident, board, ident
from pnp.table.game import TableGame
from pnp.table.links import Links
from pnp.table.looks import DEFAULT, LOOKS, NOTHING, Look, action, step_word
from pnp.table.seats import SeatView
from pnp.table.steps import Actor, Change, Entry

HISTORY = 20  # earlier steps listed on the page: the page costs the same late in a game as early
GROUP = 1  # more forms than this of one player and kind fold under one heading (but a hand of cards)


@dataclass(frozen=True)
class Notice:
    kind: str  # "refused", "stale", "choice", "forbidden", "error"
    title: str
    message: str = ""
    rule: str = ""
    rule_text: str = ""
    house: tuple[str, ...] = ()


def context(table: TableGame, seen: SeatView, links: Links | None = None, notice: Notice | None = None,
            choice: dict[str, Any] | None = None, game: Game | None = None) -> dict[str, Any]:
    """Everything the page templates need, for one actor; `game`: the spec's game as the page's
    language words it (`pnp.spec.translation.translated`; default: as written)."""
    game = game or table.game
    position = table.state_json(seen.state)
    assets = [a.id for a in table.game.assets]
    colours = {a.id: str(a.color) for a in table.game.assets}
    actor = seen.actor
    look = LOOKS.get(table.game_id, DEFAULT)
    said = {**_scalars(position), **table.options, "front": _front(position)}
    hand = _hand(position, look, actor.seat)
    return {
        "title": game.title_en or game.title,
        "game": table.game_id,
        "seat": actor.seat,
        "host": actor.host,
        "board_view": actor.board,
        "colours": colours,
        "record": table.path.name,
        "check": _check_command(table),
        "version": seen.version,
        "change": table.change,
        "step": len(table.entries),
        **_turn(seen, look),
        "own": [{"kind": step_word(look, e.kind), "events": e.events} for e in seen.own],
        "groups": _groups(forms.forms(seen.offers, assets), look, said, hand),
        "hand": [named(card) for card in hand],  # in the page's language
        "idents": idents(game),
        "position": position,  # drawn as the board by `drawn_board`, only where the position part is drawn
        "options": table.options,
        "over": position.get("over", False),
        "scores": position.get("scores", {}),
        "winners": position.get("winners", []),
        "setup_events": table.setup_events,
        "public": seen.public,  # (what the last steps are drawn from: `views.shared_key`)
        **_last_and_history(_history(seen.public, look)),
        "said": _said(table.last_change, look),
        "undo": seen.undo and _undoing(seen.undo, actor, look, said),
        "correct": seen.correct and _undoing(seen.correct, actor, look, said),
        "position_form": _position_form(table, actor, assets),
        "links": _links(links, actor),
        "notice": notice,
        "choice": choice,
    }


def _last_and_history(history: Sequence[object]) -> dict[str, object]:
    """The last step, drawn apart, and the steps before it, the latest first."""
    return {"last": history[-1] if history else None, "history": list(reversed(history[:-1]))}


def _position_form(table: TableGame, actor: Actor, assets: list[str]) -> list[forms.Entry]:
    """The host's form to set the starting position, offered until the first step."""
    return forms.position_form(table.start_form(), table.players, assets) if actor.host and not table.entries else []


def _turn(seen: SeatView, look: Look) -> dict[str, Any]:
    """Whose turn it is and in which phase, as the actor's page says it."""
    who, actor = seen.to_move, seen.actor
    return {
        "phase": step_word(look, who.phase) if who else None,
        "acting": list(who.players) if who else [],
        "sealed": bool(who and who.sealed),
        "my_turn": bool(who and actor.seat in who.players),
        "waiting_for_table": bool(who and not who.players),
        "hidden": list(seen.hidden),
        "closing": seen.closing is not None and {"player": seen.closing.player, "n": seen.closing.n,
                                                  "waiting": list(who.players) if who else []},
    }


def _links(links: Links | None, actor: Any) -> Any:
    """The links a page lists: all of them on the host's, a seat's own on its page, none on the board."""
    if links is None:
        return None
    return links if actor.host else [links.of(actor.seat)] if actor.seat else []


def _undoing(entry: Entry, actor: Any, look: Look, said: dict[str, Any]) -> dict[str, Any]:
    """What an undo (or a correction) takes back, in the players' words: whose step, the kind of
    step, and what it did where the actor has seen it (its own secret, or a public step)."""
    name, _line = action(look, entry.kind, said)
    seen = not entry.waiting or entry.player == actor.seat
    return {"who": entry.player or _(words.THE_TABLE), "mine": entry.player == actor.seat and actor.seat is not None,
            "kind": name, "secret": entry.waiting, "events": entry.events[:3] if seen else ()}


def _scalars(data: Any, found: dict[str, Any] | None = None) -> dict[str, Any]:
    """The position's single values by their own key (`company`, `quote`, `best`), for an
    action's line to name; the players' own are left out."""
    found = {} if found is None else found
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "players":
                continue
            if isinstance(value, dict):
                _scalars(value, found)
            elif not isinstance(value, list):
                found.setdefault(str(key), NOTHING if value is None else value)
    return found


def _front(position: dict[str, Any]) -> str:
    queue = position.get("queue")
    return str(queue[0]) if isinstance(queue, list) and queue else NOTHING


def _hand(position: dict[str, Any], look: Look, seat: str | None) -> list[str]:
    """The seat's own cards, as the position holds them (nobody else's is ever in its view)."""
    hands = position.get(look.hands) if look.hands else None
    if seat is None or not isinstance(hands, dict) or not isinstance(hands.get(seat), list):
        return []
    return [str(card) for card in hands[seat]]


def drawn_board(table: TableGame, values: dict[str, Any], game: Game | None = None) -> Any:
    """The board of a context's position (what the position part draws), on `game`'s
    components (default: the spec's, as written)."""
    return board(values["position"], game or table.game, table.game_id, table.players, values["acting"],
                 values["options"])


def idents(game: Game) -> dict[str, Ident]:
    """Every asset as its components show it, by id."""
    return {a.id: ident(a) for a in game.assets}


def _check_command(table: TableGame) -> str:
    """The command that checks this table's record, with the rules file the game was given by."""
    from pnp.rules import GAMES

    given = GAMES[table.game_id].file
    return f"pnp {'--engine ' + shlex.quote(given) + ' ' if given else ''}referee check {shlex.quote(table.path.name)}"


def _history(public: Sequence[Entry], look: Look) -> list[dict[str, Any]]:
    """The last steps as the page lists them, newest last: a sealed phase's entries, once
    revealed, join the entry that revealed them, so "Last" shows every declaration with the
    reveal (those a correction left open are listed each as itself: everyone has seen them)."""
    window = public[-HISTORY * 8:]  # enough entries for HISTORY steps, sealed phases merged
    merged: list[Entry] = []
    waiting: list[Entry] = []
    for entry in window:
        if entry.sealed:
            waiting.append(entry)
            continue
        merged.append(_joined([*waiting, entry]) if waiting else entry)
        waiting = []
    if waiting:  # a phase a correction opened again: what everyone has seen of it, together
        merged.append(_joined(waiting))
    return [{"who": e.player or _(words.THE_TABLE), "kind": action(look, e.kind, {})[0], "events": e.events,
             "by": e.by, "at": e.at, "closed": list(e.closed)} for e in merged[-HISTORY:]]


def _joined(entries: Sequence[Entry]) -> Entry:
    """Entries listed as one, the last: every player named, every event in order."""
    who = ", ".join(e.player or _(words.THE_TABLE) for e in entries)
    return replace(entries[-1], player=who, events=tuple(ev for e in entries for ev in e.events))


def _groups(found: list[forms.Form], look: Look, said: dict[str, Any], hand: list[str]) -> list[dict[str, Any]]:
    """Forms of one player and kind together (Акционер's cards to play under one "Play a card"),
    in the engine's order, each kind named as the players call it with its line. A kind whose
    every form is one choice is tapped in one (`cards`: each option its own button): a card
    played from the hand in one tap. Many forms fold under their heading, but for a hand."""
    groups: dict[tuple[str | None, str], list[forms.Form]] = {}
    for form in found:
        groups.setdefault((form.player, form.kind), []).append(form)
    shown = []
    said_before: set[str] = set()
    asking = _asking(groups)
    for (player, kind), members in groups.items():
        name, line = action(look, kind, said)
        members = [replace(f, title=f"{name} {f.face}".strip()) for f in members]  # "Divest USD", not "divest USD"
        cards = all(forms.one_choice(f) for f in members)
        in_hand = cards and _all_in_hand(members, hand)
        shown.append({"player": player, "kind": name, "line": "" if kind in said_before else line, "name": kind,
                      "forms": members, "cards": cards, "folded": len(members) > GROUP and not in_hand,
                      "hand": in_hand, "open": asking == [(player, kind)] and len(members) == 1})
        said_before.add(kind)  # the host's page: each kind's line once
    return shown


def _all_in_hand(members: list[forms.Form], hand: list[str]) -> bool:
    """Each form's one choice is a card the seat holds (a card played from the hand)."""
    return bool(hand) and all(f.fixed in hand for f in members)


def _asking(groups: dict[tuple[str | None, str], list[forms.Form]]) -> list[tuple[str | None, str]]:
    """The groups with a value to give (a control or a grid): the only one, of one form, is
    shown open."""
    return [key for key, members in groups.items() if any(f.controls or f.grid for f in members)]


def _said(change: Change | None, look: Look) -> dict[str, Any] | None:
    """What the page says of the last change when it was not an entry: who undid what (and
    what that step had done, which everyone saw), the host closing a sealed phase or correcting
    the record."""
    if change is None or change.op not in ("undo", "close", "correct"):
        return None
    return {"op": change.op, "by": change.by, "player": change.player or _(words.THE_TABLE),
            "kind": action(look, change.kind, {})[0], "events": change.undone[:3]}


# --- what the templates draw often, as filters (a macro call costs more than the drawing) -------------


def checks(state: Checks) -> Markup:
    """` data-state='{"place": "value"}'`: where a drawn value is in the referee's state."""
    return Markup(" data-state='{}'").format(Markup(json.dumps(dict(state), ensure_ascii=False)
                                                    .replace("&", "\\u0026").replace("'", "\\u0027")
                                                    .replace("<", "\\u003c").replace(">", "\\u003e")))


@lru_cache(maxsize=256)
def sym(ident: Ident, size: int = 14) -> Markup:
    """The asset's symbol, in the ink that reads on its colour."""
    return Markup(f'<svg class="sym" width="{size}" height="{size}" viewBox="0 0 20 20" aria-hidden="true">'
                  f'<use href="#sym-{escape(ident.symbol)}" width="20" height="20" fill="{escape(ident.ink)}"/></svg>')


@lru_cache(maxsize=256)
def badge(ident: Ident) -> Markup:
    """The asset's colour and symbol, as on its components."""
    return Markup(f'<span class="badge" style="--c: {escape(ident.colour)}" title="{escape(ident.id)} '
                  f'{escape(ident.name)}">{sym(ident, 12)}</span>')


def chip(ident: Ident | None, text: Any = None) -> Markup:
    """The asset's badge and its code (or `text`): how the page names an asset."""
    if ident is None:
        return Markup('<span class="chip plain">{}</span>').format("" if text is None else text)
    shown = _(ident.id) if text is None else text  # the id as the page's language names it (Акционер's colours)
    return Markup('<span class="chip" style="--c: {}; --i: {}" title="{}"><span class="badge">{}</span>{}</span>'
                  ).format(ident.colour, ident.ink, ident.name, sym(ident, 12), shown)


def notation(text: Any, idents: dict[str, Ident]) -> Markup:
    """An engine's notation ("-30 blue -20 red") as the components show it: each asset as its
    badge (its name said to screen readers), every other word in the page's language."""
    parts = []
    for part in str(text).split(" "):
        found = idents.get(part)
        parts.append(Markup('{}<span class="vh">{}</span>').format(badge(found), _(part)) if found is not None
                     else escape(named(part)))
    return Markup(" ").join(parts)


FILTERS: dict[str, Callable[..., Markup]] = {"checks": checks, "sym": sym, "badge": badge, "chip": chip,
                                             "notation": notation}
