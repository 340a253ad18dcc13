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
from dataclasses import dataclass
from typing import Any, TypeGuard

from pnp.disk import whole
from pnp.rules.base import Event, plain
from pnp.rules.legal import AtMostOne, Budget, Different
from pnp.table import forms
from pnp.table.game import TableGame
from pnp.table.seats import Offer, SeatView
from pnp.table.steps import Asked, BadEntry, Change, Entry, Submission, key_of


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
                                                "sealed": seen.undo.waiting},
        "correct": None if seen.correct is None else {"player": seen.correct.player, "kind": seen.correct.kind},
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

DEEPEST = 8  # levels of nesting a body may have: a step's is 3 (the body, its values, a list of options)
def json_body(raw: bytes) -> Any:
    """A request's JSON, refused (BadEntry, a 400) when it is not JSON or nests deeper than
    `DEEPEST` (counted before parsing: a body of a thousand brackets costs nothing)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadEntry("the body is not JSON") from None
    if _depth(text) > DEEPEST:
        raise BadEntry(f"the body nests deeper than {DEEPEST} levels")
    try:
        return json.loads(text)
    except ValueError:
        raise BadEntry("the body is not JSON") from None


def _depth(text: str) -> int:
    """The deepest nesting of brackets outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def asked(body: Any, step: bool = False) -> Asked:
    """`POST /api/step`'s JSON (`step`: `{"version", "key", "player", "n", "values", "choices",
    "close", "confirm"}`), or `/api/undo`'s and `/api/correct`'s (`{"version", "key",
    "confirm"}`). BadEntry for anything else."""
    if not isinstance(body, Mapping):
        raise BadEntry("the body is a JSON object: {\"version\": …, \"key\": …}")
    version, close, confirm = body.get("version", ""), body.get("close", False), body.get("confirm", False)
    if not isinstance(version, str):
        raise BadEntry("version is text: the state's version")
    if not isinstance(close, bool) or not isinstance(confirm, bool):
        raise BadEntry("close and confirm are true or false")
    return Asked(version, key_of(body.get("key")), submission_of(body) if step else None, close, confirm)


def submission_of(body: Mapping[str, Any]) -> Submission:
    player, n = body.get("player"), body.get("n")
    values, choices = body.get("values", {}), body.get("choices", {})
    if not (player is None or isinstance(player, str)):
        raise BadEntry("player is a player's name, or null (the table's step)")
    if not (_whole(n) and n >= 0):
        raise BadEntry("n is the number of the step among its player's, from 0")
    if not isinstance(values, Mapping) or not isinstance(choices, Mapping):
        raise BadEntry("values and choices are objects")
    picks = _picks(values)
    if not all(_whole(v) for v in choices.values()):
        raise BadEntry("choices are option numbers")
    return Submission(player, n, picks, {str(k): v for k, v in choices.items()})


def _picks(values: Mapping[str, Any]) -> dict[str, int | tuple[int, ...]]:
    """A submission's field values, each a whole number or a list of option numbers."""
    picks: dict[str, int | tuple[int, ...]] = {}
    for name, value in values.items():
        if isinstance(value, list) and all(_whole(v) for v in value):
            picks[str(name)] = tuple(value)
        elif _whole(value):
            picks[str(name)] = value
        else:
            raise BadEntry(f"{str(name)[:40]}: a whole number, or a list of option numbers")
    return picks


def _whole(value: Any) -> TypeGuard[int]:
    """A number a form holds: a whole number (not true or false) no larger than `forms.LARGEST`."""
    return whole(value, -forms.LARGEST, forms.LARGEST)


# --- the stream of changes ------------------------------------------------------------------------------


KEEP_ALIVE = Change(0, "", "", None, "", False)  # not a change: an idle stream's comment, so proxies keep it open


@dataclass(frozen=True)
class Thinking:
    """Not a change: the bots now thinking (their players), for the pages to say."""

    players: tuple[str, ...]


Message = Change | Thinking | None  # what a stream is told; None ends it


class Hub:
    """Every open `GET /api/events` stream, told of each change as soon as it is written (from
    any thread). A change says what happened and to whose step, never what a sealed entry
    holds; each page then asks for its own view. Each stream is opened with a token, and ends
    the moment that token is revoked."""

    def __init__(self) -> None:
        self._queues: dict[asyncio.Queue[Message], tuple[asyncio.AbstractEventLoop, str]] = {}

    def subscribe(self, token: str = "") -> asyncio.Queue[Message]:
        queue: asyncio.Queue[Message] = asyncio.Queue()
        self._queues[queue] = (asyncio.get_running_loop(), token)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[Message]) -> None:
        self._queues.pop(queue, None)

    def publish(self, change: Message, token: str | None = None) -> None:
        """Tell every stream (only those opened with `token`, when given)."""
        for queue, (loop, opened) in list(self._queues.items()):
            if token is not None and opened != token:
                continue
            try:
                loop.call_soon_threadsafe(queue.put_nowait, change)
            except RuntimeError:  # the loop has closed
                self._queues.pop(queue, None)

    async def keep_alive(self, every: float) -> None:
        """A comment down every stream every `every` seconds."""
        while True:
            await asyncio.sleep(every)
            self.publish(KEEP_ALIVE)

    def close(self, token: str | None = None) -> None:
        """End every stream (the server is stopping), or those opened with a revoked `token`."""
        self.publish(None, token)

    @property
    def streams(self) -> int:
        return len(self._queues)


class EventStream:
    """`GET /api/events` as an ASGI answer: `hello` with the change number now, then each
    change as it comes, a comment when idle; it ends when the hub closes it, when the client
    goes, or when the client takes more than `patience` seconds to take one message (a phone
    gone out of reach holds nothing of the server)."""

    def __init__(self, hub: Hub, token: str, change: int, patience: float):
        self.hub, self.token, self.change, self.patience = hub, token, change, patience

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        queue = self.hub.subscribe(self.token)
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            await self._send(send, {"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no")]})
            await self._body(send, "retry: 1000\n" + sse("hello", {"change": self.change}))
            while True:
                got = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({got, gone}, return_when=asyncio.FIRST_COMPLETED)
                if gone in done:
                    got.cancel()
                    return
                change = got.result()
                if change is None:
                    break
                if isinstance(change, Thinking):
                    await self._body(send, sse("thinking", {"players": list(change.players)}))
                else:
                    await self._body(send, ": still here\n\n" if change is KEEP_ALIVE
                                     else sse("change", change.as_json(), change.number))
            await self._send(send, {"type": "http.response.body", "body": b"", "more_body": False})
        except (asyncio.TimeoutError, OSError):
            return  # a client too slow to take its messages, or gone: the stream ends
        finally:
            gone.cancel()
            self.hub.unsubscribe(queue)

    async def _body(self, send: Any, text: str) -> None:
        await self._send(send, {"type": "http.response.body", "body": text.encode(), "more_body": True})

    async def _send(self, send: Any, message: Any) -> None:
        await asyncio.wait_for(send(message), self.patience)


async def _disconnected(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def sse(event: str, data: Mapping[str, Any], ident: int | None = None) -> str:
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
