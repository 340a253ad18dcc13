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

from pnp.i18n import _
from pnp.spec.model import Game
from pnp.table import forms, words
from pnp.table.board import Checks, Ident, board, ident
from pnp.table.game import TableGame
from pnp.table.looks import word
from pnp.table.seats import SeatView
from pnp.table.steps import Change, Entry

HISTORY = 20  # earlier steps listed on the page: the page costs the same late in a game as early
GROUP = 3  # more forms than this of one player and kind fold under one heading


@dataclass(frozen=True)
class Link:
    """A seat's link (or the host's), with its QR code as SVG."""

    name: str
    url: str
    qr: str


@dataclass(frozen=True)
class Links:
    host: Link
    seats: tuple[Link, ...]

    def of(self, seat: str | None) -> Link:
        return self.host if seat is None else next(link for link in self.seats if link.name == seat)


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
    who = seen.to_move
    position = table.state_json(seen.state)
    assets = [a.id for a in table.game.assets]
    colours = {a.id: str(a.color) for a in table.game.assets}
    history = _history(seen.public)
    actor = seen.actor
    return {
        "title": game.title_en or game.title,
        "game": table.game_id,
        "seat": actor.seat,
        "host": actor.host,
        "colours": colours,
        "record": table.path.name,
        "check": _check_command(table),
        "version": seen.version,
        "change": table.change,
        "step": len(table.entries),
        "phase": word(who.phase) if who else None,
        "acting": list(who.players) if who else [],
        "sealed": bool(who and who.sealed),
        "my_turn": bool(who and actor.seat in who.players),
        "waiting_for_table": bool(who and not who.players),
        "hidden": list(seen.hidden),
        "own": [{"kind": word(e.kind), "events": e.events} for e in seen.own],
        "groups": _groups(forms.forms(seen.offers, assets)),
        "closing": seen.closing is not None and {"player": seen.closing.player, "n": seen.closing.n,
                                                  "waiting": list(who.players) if who else []},
        "idents": idents(game),
        "position": position,  # drawn as the board by `drawn_board`, only where the position part is drawn
        "over": position.get("over", False),
        "scores": position.get("scores", {}),
        "winners": position.get("winners", []),
        "setup_events": table.setup_events,
        "public": seen.public,  # (what the last steps are drawn from: `web.shared_key`)
        "last": history[-1] if history else None,
        "history": list(reversed(history[:-1])),
        "said": _said(table.last_change),
        "undo": seen.undo and {"who": seen.undo.player or _(words.THE_TABLE), "kind": word(seen.undo.kind),
                               "secret": seen.undo.sealed},
        "position_form": (forms.position_form(table.start_form(), table.players, assets)
                          if actor.host and not table.entries else []),
        "links": links and (list(links.seats) if actor.host else [links.of(actor.seat)]),
        "notice": notice,
        "choice": choice,
    }


def drawn_board(table: TableGame, values: dict[str, Any], game: Game | None = None) -> Any:
    """The board of a context's position (what the position part draws), on `game`'s
    components (default: the spec's, as written)."""
    return board(values["position"], game or table.game, table.game_id, table.players, values["acting"])


def idents(game: Game) -> dict[str, Ident]:
    """Every asset as its components show it, by id."""
    return {a.id: ident(a) for a in game.assets}


def _check_command(table: TableGame) -> str:
    """The command that checks this table's record, with the rules file the game was given by."""
    from pnp.rules import GAMES

    given = GAMES[table.game_id].file
    return f"pnp {'--engine ' + shlex.quote(given) + ' ' if given else ''}referee check {shlex.quote(table.path.name)}"


def _history(public: Sequence[Entry]) -> list[dict[str, Any]]:
    """The last steps as the page lists them, newest last: a sealed phase's entries, once
    revealed, join the entry that revealed them, so "Last" shows every declaration with the
    reveal."""
    window = public[-HISTORY * 8:]  # enough entries for HISTORY steps, sealed phases merged
    merged: list[Entry] = []
    waiting: list[Entry] = []
    for entry in window:
        if entry.sealed:
            waiting.append(entry)
            continue
        if waiting:
            who = ", ".join(e.player or _(words.THE_TABLE) for e in (*waiting, entry))
            entry = replace(entry, player=who, events=tuple(ev for e in waiting for ev in e.events) + entry.events)
            waiting = []
        merged.append(entry)
    return [{"who": e.player or _(words.THE_TABLE), "kind": word(e.kind), "events": e.events, "by": e.by, "at": e.at,
             "closed": list(e.closed)} for e in merged[-HISTORY:]]


def _groups(found: list[forms.Form]) -> list[dict[str, Any]]:
    """Forms of one player and kind together (Aktsioner's dozens of cards to play under one
    "Ana play"), in the engine's order."""
    groups: dict[tuple[str | None, str], list[forms.Form]] = {}
    for form in found:
        groups.setdefault((form.player, form.kind), []).append(form)
    return [{"player": player, "kind": word(kind), "name": kind, "forms": members, "folded": len(members) > GROUP}
            for (player, kind), members in groups.items()]


def _said(change: Change | None) -> dict[str, Any] | None:
    """What the page says of the last change when it was not an entry: who undid what, the
    host closing a sealed phase."""
    if change is None or change.op not in ("undo", "close"):
        return None
    return {"op": change.op, "by": change.by, "player": change.player or _(words.THE_TABLE), "kind": word(change.kind)}



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


FILTERS: dict[str, Callable[..., Markup]] = {"checks": checks, "sym": sym, "badge": badge, "chip": chip}
