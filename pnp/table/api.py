"""The table's JSON API, which its own page uses and a bot or another client can sit at the
table with (docs/table.md): the answers' shapes, what a step's body may hold, and the stream
of changes (server-sent events).

Every answer is made from the asking seat's view (`seats.view`): the position with the other
seats' secrets left out, and the steps this seat may take, each as a template (the engine's
`pnp.rules.legal.Template`, its options numbered). A step names one of those templates by
`player` and `n` and gives each field a number (an option's number for a choice, a list of
option numbers for several), exactly what the page's forms post.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from typing import Any

from pnp.rules.base import Event, plain
from pnp.rules.legal import AtMostOne, Budget, Different
from pnp.table import forms
from pnp.table.game import TableGame
from pnp.table.seats import Offer, SeatView
from pnp.table.steps import BadEntry, Change, Entry, Submission


def state_answer(table: TableGame, seen: SeatView) -> dict[str, Any]:
    """`GET /api/state`: the game as this seat may see it."""
    who = seen.to_move
    position = table.state_json(seen.state)
    return {
        "game": table.game_id,
        "title": table.game.title_en or table.game.title,
        "players": list(table.players),
        "you": seen.actor.as_json(),
        "version": seen.version,
        "change": table.change,
        "steps": len(table.entries),
        "to_move": None if who is None else {"phase": who.phase, "players": list(who.players), "sealed": who.sealed},
        "entered_in_secret": list(seen.hidden),
        "position": position,
        "yours_in_secret": [entry_json(e) for e in seen.own],
        "templates": [template_json(o) for o in seen.offers],
        "close": None if seen.closing is None else {**_key(seen.closing), "waiting": list(who.players) if who else []},
        "undo": None if seen.undo is None else {"player": seen.undo.player, "kind": seen.undo.kind,
                                                "sealed": seen.undo.sealed},
        "last": entry_json(seen.public[-1]) if seen.public else None,
    }


def template_json(offer: Offer) -> dict[str, Any]:
    template = offer.template
    return {
        **_key(offer),
        "kind": template.kind,
        "rule": template.rule,
        "fixed": {k: _value(v) for k, v in template.fixed.items() if k != "player"},
        "fields": [_field(f) for f in template.fields],
        "constraints": [c for c in (_constraint(c) for c in template.constraints) if c is not None],
    }


def _key(offer: Offer) -> dict[str, Any]:
    return {"player": offer.player, "n": offer.n}


def _field(f: Any) -> dict[str, Any]:
    if f.kind == "number":
        return {"name": f.name, "kind": "number", "low": f.low, "high": f.high}
    labels = list(f.labels) if len(f.labels) == len(f.options) else [str(_value(o)) for o in f.options]
    found: dict[str, Any] = {"name": f.name, "kind": f.kind, "options": labels}
    if f.kind == "several":
        found.update(low=f.low, high=f.high)
    return found


def _constraint(constraint: Any) -> dict[str, Any] | None:
    if isinstance(constraint, Budget):
        return {"budget": {"weights": {name: plain(w) for name, w in constraint.weights}, "limit": plain(constraint.limit)}}
    if isinstance(constraint, AtMostOne):
        return {"at_most_one": list(constraint.names)}
    if isinstance(constraint, Different):
        return {"different": list(constraint.names)}
    return None


def _value(value: Any) -> Any:
    found = plain(value)
    return found if isinstance(found, (str, int, float, bool, list, dict)) or found is None else str(found)


def entry_json(entry: Entry) -> dict[str, Any]:
    return {"player": entry.player, "kind": entry.kind, "by": entry.by, "at": entry.at, "sealed": entry.sealed,
            "closed": list(entry.closed), "events": [event_json(e) for e in entry.events]}


def event_json(event: Event) -> dict[str, Any]:
    return event.as_json()


# --- what a client posts --------------------------------------------------------------------------------


def step_body(body: Any) -> tuple[str, Submission, bool]:
    """`POST /api/step`'s JSON: `{"version", "player", "n", "values", "choices", "close"}` →
    the version, the submission, and whether the host closes a sealed phase. BadEntry for
    anything else."""
    if not isinstance(body, Mapping):
        raise BadEntry("the body is a JSON object: {\"version\": …, \"player\": …, \"n\": …, \"values\": {…}}")
    version = body.get("version", "")
    player = body.get("player")
    n = body.get("n")
    values = body.get("values", {})
    choices = body.get("choices", {})
    close = body.get("close", False)
    if not isinstance(version, str) or not (player is None or isinstance(player, str)):
        raise BadEntry("version is text, player a player's name or null (the table's step)")
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= forms.LARGEST:
        raise BadEntry("n is the number of the step among its player's, from 0")
    if not isinstance(values, Mapping) or not isinstance(choices, Mapping) or not isinstance(close, bool):
        raise BadEntry("values and choices are objects, close true or false")
    picks: dict[str, int | tuple[int, ...]] = {}
    for name, value in values.items():
        if isinstance(value, list) and all(_whole(v) for v in value):
            picks[str(name)] = tuple(value)
        elif _whole(value):
            picks[str(name)] = value
        else:
            raise BadEntry(f"{str(name)[:40]}: a whole number, or a list of option numbers")
    if not all(_whole(v) for v in choices.values()):
        raise BadEntry("choices are option numbers")
    return version, Submission(player, n, picks, {str(k): v for k, v in choices.items()}), close


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= forms.LARGEST


def version_of(body: Any) -> str:
    """`POST /api/undo`'s JSON: `{"version"}`."""
    if not isinstance(body, Mapping) or not isinstance(body.get("version", ""), str):
        raise BadEntry("the body is a JSON object: {\"version\": …}")
    return str(body.get("version", ""))


# --- the stream of changes ------------------------------------------------------------------------------


KEEP_ALIVE = Change(0, "", "", None, "", False)  # not a change: an idle stream's comment, so proxies keep it open


class Hub:
    """Every open `GET /api/events` stream, told of each change as soon as it is written (from
    any thread). A change says what happened and to whose step, never what a sealed entry
    holds; each page then asks for its own view."""

    def __init__(self) -> None:
        self._queues: dict[asyncio.Queue[Change | None], asyncio.AbstractEventLoop] = {}  # each stream's, and its loop

    def subscribe(self) -> asyncio.Queue[Change | None]:
        queue: asyncio.Queue[Change | None] = asyncio.Queue()
        self._queues[queue] = asyncio.get_running_loop()
        return queue

    def unsubscribe(self, queue: asyncio.Queue[Change | None]) -> None:
        self._queues.pop(queue, None)

    def publish(self, change: Change | None) -> None:
        for queue, loop in list(self._queues.items()):
            try:
                loop.call_soon_threadsafe(queue.put_nowait, change)
            except RuntimeError:  # the loop has closed
                self._queues.pop(queue, None)

    async def keep_alive(self, every: float) -> None:
        """A comment down every stream every `every` seconds."""
        while True:
            await asyncio.sleep(every)
            self.publish(KEEP_ALIVE)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self.publish(None)


def sse(event: str, data: Mapping[str, Any], ident: int | None = None) -> str:
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
