"""The table's web app (Starlette, Jinja2): one page everyone shares, plain forms that post.

Every form carries the record's version; an entry made on an older position is refused with
the new one ("the position changed"), so no step is entered twice. The page works without
JavaScript; with it, it checks the version every second or two and updates itself when
another phone has entered a step (or says so, when a form has been started).

Requests are handled on the server's one event loop, one at a time (a step takes tens of
milliseconds), so a page is always rendered from one consistent position; `TableGame`'s lock
guards any other caller.

Access: with a token (any address but the local one), a request must bring it once as
`?t=TOKEN` (the link and the QR code do) and then carries it as a cookie; without it, 403.
Bodies are limited in size, posts from another site are refused, and nothing posted is used as
a path: the record's path is the command line's.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pnp.rules import text
from pnp.rules.lookup import governed, house_rules
from pnp.table import forms
from pnp.table.board import board
from pnp.table.game import BadEntry, Entry, NeedsChoice, Refused, Stale, TableGame

REFUSALS = (Stale, Refused, BadEntry)  # what a post can meet; each is answered with the page
MAX_BODY = 32 * 1024  # bytes: the largest form (a For-Ex position) is a few kilobytes
COOKIE = "pnp_table"
POLL_MS = 1500


@dataclass(frozen=True)
class Notice:
    kind: str  # "refused", "stale", "choice", "error"
    title: str
    message: str = ""
    rule: str = ""
    rule_text: str = ""
    house: tuple[str, ...] = ()


def create_app(table: TableGame, token: str | None = None, share: dict[str, str] | None = None) -> Starlette:
    """The app serving `table`; with `token`, every request must carry it. `share`: the link
    and its QR code (SVG) that the page shows, when the table is open to other devices."""
    folder = resources.files("pnp.table")
    env = Environment(loader=FileSystemLoader(str(folder / "templates")), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    page_template = env.get_template("page.html")
    rule_template = env.get_template("rule.html")

    def render(request: Request, status: int = 200, notice: Notice | None = None,
               choice: dict[str, Any] | None = None) -> HTMLResponse:
        html = page_template.render(**page(table, notice, choice), poll_ms=POLL_MS, share=share)
        return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})

    async def home(request: Request) -> Response:
        return render(request)

    async def version(request: Request) -> Response:
        return JSONResponse({"version": table.version}, headers={"Cache-Control": "no-store"})

    async def enter(request: Request) -> Response:
        posted = await _form(request)
        try:
            submission = forms.submission(posted, len(table.templates()))
            table.enter(posted.get("v", ""), submission)
        except NeedsChoice as needed:
            choice = {"posted": [(k, v) for k, v in posted.items() if not k.startswith("c.")], "what": needed.needed.what,
                      "options": [str(o) for o in needed.needed.options]}
            notice = Notice("choice", "The rules leave a choice", needed.needed.message, needed.needed.rule,
                            _rule_text(table, needed.needed.rule))
            return render(request, 200, notice, choice)
        except REFUSALS as error:
            return _refusal(request, error)
        return RedirectResponse("/", status_code=303)

    async def undo(request: Request) -> Response:
        posted = await _form(request)
        try:
            table.undo(posted.get("v", ""))
        except REFUSALS as error:
            return _refusal(request, error)
        return RedirectResponse("/", status_code=303)

    async def start(request: Request) -> Response:
        posted = await _form(request)
        try:
            if posted.get("v", "") != table.version:
                raise Stale()
            table.start_from(posted.get("v", ""), forms.position_data(posted, table.start_form()))
        except REFUSALS as error:
            return _refusal(request, error)
        return RedirectResponse("/", status_code=303)

    def _refusal(request: Request, error: Exception) -> Response:
        if isinstance(error, Stale):
            notice = Notice("stale", "The position changed",
                            "Another device entered a step first. Nothing of yours was entered: here is the new "
                            "position.")
            return render(request, 409, notice)
        if isinstance(error, Refused):
            title = f"Refused: {error.rule}" if error.rule else "Refused"
            house = _house(table, error.rule)
            notice = Notice("refused", title, error.message, error.rule, _rule_text(table, error.rule), house)
            return render(request, 422, notice)
        return render(request, 400, Notice("error", "Not understood", str(error)))

    async def rule(request: Request) -> Response:
        rule_id = request.path_params["rule_id"][:40]
        try:
            found = text.rule(rule_id, table.game_id)
        except KeyError:
            near = text.nearest(rule_id, game=table.game_id)
            return PlainTextResponse(f"unknown rule ID {rule_id} (nearest: {', '.join(near)})", status_code=404)
        return HTMLResponse(rule_template.render(rule=found, house=_house(table, found.id), title=table.game.title))

    routes = [
        Route("/", home),
        Route("/version", version),
        Route("/enter", enter, methods=["POST"]),
        Route("/undo", undo, methods=["POST"]),
        Route("/start", start, methods=["POST"]),
        Route("/rule/{rule_id}", rule),
        Mount("/static", app=StaticFiles(directory=str(folder / "static")), name="static"),
    ]
    app = Starlette(routes=routes)
    return Guard(app, token)  # type: ignore[return-value]


async def _form(request: Request) -> dict[str, str]:
    form = await request.form(max_files=0, max_fields=2000)
    return {key: value for key, value in form.items() if isinstance(value, str)}


def _rule_text(table: TableGame, rule_id: str) -> str:
    if not rule_id:
        return ""
    try:
        return text.rule(rule_id, table.game_id).plain
    except KeyError:
        return ""


def _house(table: TableGame, rule_id: str) -> tuple[str, ...]:
    try:
        found = text.rule(rule_id, table.game_id)
    except KeyError:
        return ()
    return tuple(h.line() for h in governed(found, house_rules(table.game_id, table.game, table.options)))


# --- what the page shows ---------------------------------------------------------------------


def page(table: TableGame, notice: Notice | None = None, choice: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the page template needs, from the game alone."""
    who = table.to_move()
    sealed = bool(who and who.sealed)
    state, entries = table.shown()
    position = table.state_json(state)
    assets = [a.id for a in table.game.assets]
    colours = {a.id: str(a.color) for a in table.game.assets}
    hidden = table.entries[len(entries):]
    history = [{"who": e.player or "the table", "kind": e.kind, "events": e.events} for e in _revealed(entries)]
    return {
        "title": table.game.title,
        "game": table.game_id,
        "colours": colours,
        "record": table.path.name,
        "version": table.version,
        "step": len(table.entries),
        "phase": who.phase if who else None,
        "acting": list(who.players) if who else [],
        "sealed": sealed,
        "waiting_for_table": bool(who and not who.players),
        "hidden": [{"who": e.player, "kind": e.kind} for e in hidden],
        "groups": _groups(forms.forms(table.templates(), assets, sealed)) if who else [],
        "board": board(position, table.players, colours, who.players if who else ()),
        "over": position.get("over", False),
        "scores": position.get("scores", {}),
        "winners": position.get("winners", []),
        "setup_events": table.setup_events,
        "last": history[-1] if history else None,
        "history": list(reversed(history[:-1])),
        "can_undo": bool(table.entries),
        "undo_label": _undo_label(table),
        "position_form": forms.position_form(table.start_form(), table.players, assets) if not table.entries else [],
        "notice": notice,
        "choice": choice,
    }


def _revealed(entries: tuple[Entry, ...]) -> list[Entry]:
    """The entries as the page lists them: a sealed phase's entries, once revealed, join the
    entry that revealed them, so "Last" shows every declaration with the reveal."""
    merged: list[Entry] = []
    waiting: list[Entry] = []
    for entry in entries:
        if entry.sealed:
            waiting.append(entry)
            continue
        if waiting:
            who = ", ".join(e.player or "the table" for e in (*waiting, entry))
            entry = replace(entry, player=who, events=tuple(ev for e in waiting for ev in e.events) + entry.events)
            waiting = []
        merged.append(entry)
    return merged + waiting


def _groups(found: list[forms.Form]) -> list[dict[str, Any]]:
    """Forms of one player and kind together (Aktsioner's dozens of cards to play under one
    "Ana play"), in the engine's order."""
    groups: dict[tuple[str | None, str], list[forms.Form]] = {}
    for form in found:
        groups.setdefault((form.player, form.kind), []).append(form)
    return [{"player": player, "kind": kind, "forms": members, "folded": len(members) > GROUP}
            for (player, kind), members in groups.items()]


GROUP = 3  # more forms than this of one player and kind fold under one heading


def _undo_label(table: TableGame) -> str:
    if not table.entries:
        return ""
    last = table.entries[-1]
    return f"{last.player or 'the table'}: {last.kind}"


# --- access and limits ------------------------------------------------------------------------


class Guard:
    """ASGI middleware: the token, the body size, and posts from this page only."""

    def __init__(self, app: ASGIApp, token: str | None, max_body: int = MAX_BODY):
        self.app, self.token, self.max_body = app, token, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        set_cookie = False
        if self.token is not None:
            given = request.query_params.get("t")
            if given is not None and secrets.compare_digest(given, self.token):
                set_cookie = True
            elif not secrets.compare_digest(request.cookies.get(COOKIE, ""), self.token):
                await PlainTextResponse("This table needs its link with the token: scan the QR code or open the "
                                        "URL the laptop shows.", status_code=403)(scope, receive, send)
                return
        if request.method == "POST":
            origin = request.headers.get("origin")
            if origin is not None and origin.split("://", 1)[-1] != request.headers.get("host", ""):
                await PlainTextResponse("posts come from the table's own page", status_code=403)(scope, receive, send)
                return
            length = request.headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > self.max_body):
                await PlainTextResponse("request too large", status_code=413)(scope, receive, send)
                return
            receive = _limited(receive, self.max_body)

        async def send_with_cookie(message: Message) -> None:
            if set_cookie and message["type"] == "http.response.start":
                cookie = f"{COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=86400".encode()
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _limited(receive: Receive, limit: int) -> Callable[[], Awaitable[Message]]:
    """`receive` that stops a body (of any transfer encoding) once it passes `limit` bytes."""
    seen = 0

    async def limited() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise HTTPException(413, "request too large")
        return message

    return limited
