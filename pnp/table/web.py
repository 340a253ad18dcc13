"""The table's web app (Starlette, Jinja2): a page per seat, the JSON API the page uses, and
the guard in front of both.

Pages and API answers are made for the actor a request's token names (`seats.view`): a seat's
link shows that seat's forms and secrets only; the host's link shows every seat's forms, and
the seats' links. The page works without JavaScript (forms post to `/enter`, `/undo`); with
it, it follows the game through `GET /api/events` and updates itself in place from `GET
/api/state`, keeping a form being filled in, and posts through `POST /api/step` and `/api/undo`.

Requests are handled on the server's one event loop, one at a time (a step takes a few
milliseconds), so every answer is made from one consistent position.

The guard (`Guard`) words each answer in the language the browser chose (the page's switch,
`?lang=`, kept in a cookie) or accepts, and wants a token on every request (`?t=TOKEN` once,
as the links carry it, then a cookie; or `Authorization: Bearer TOKEN`), compared in constant
time against every seat's; without one, 403, the same bytes whatever token was sent. On
loopback, only the server's own host names are answered (a DNS-rebinding page cannot reach it). Bodies are limited, posts from
another site refused, every page forbids framing (CSP `frame-ancestors 'none'`). Nothing
posted is used as a path.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pnp import i18n
from pnp.i18n import _
from pnp.rules import text
from pnp.rules.lookup import governed, house_rules
from pnp.table import api, forms, seats, words
from pnp.table.files import Tokens
from pnp.table.game import TableGame
from pnp.table.page import FILTERS, Links, Notice, context, drawn_board
from pnp.table.steps import HOST, Actor, BadEntry, Forbidden, NeedsChoice, Refused, Stale, Submission

MAX_BODY = 32 * 1024  # bytes: the largest form (a For-Ex position) is a few kilobytes
KEEP_ALIVE = 15.0  # seconds between comments on an idle event stream
SECTIONS = ("status", "notice", "next", "position", "last", "history", "tools")  # the parts a live page replaces
HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
                                "base-uri 'none'; form-action 'self'"),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
REFUSALS = (Stale, Refused, Forbidden, BadEntry)
LANGUAGE_COOKIE = "pnp_lang"  # the language a browser chose with the page's switch (any table's)
LANGUAGE_KEPT = 365 * 24 * 3600  # seconds


@functools.cache
def _templates() -> Environment:
    """The pages' templates, compiled once a process (a tenth of a second: every app, a test's
    table or a restarted server's, asks for the same)."""
    folder = resources.files("pnp.table")
    env = Environment(loader=FileSystemLoader(str(folder / "templates")), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(FILTERS)
    env.globals.update(_=_say, ngettext=_say_plural)
    return env


def create_app(table: TableGame, tokens: Tokens | None = None, links: Links | None = None,
               hosts: Iterable[str] | None = None) -> ASGIApp:
    """The app serving `table`. With `tokens`, every request must carry the host's or a seat's
    (without, every request is the host's: a table on one device). `links`: the seats' links
    and QR codes, for the host's page. `hosts`: the Host names answered (None: any)."""
    env = _templates()
    folder = resources.files("pnp.table")
    languages = words.Languages(table.game_id, table.game, table.spec)
    page_template = env.get_template("page.html")
    rule_template = env.get_template("rule.html")
    parts = {name: env.get_template(f"{name}.html") for name in SECTIONS}
    hub = api.Hub()
    table.listeners.append(hub.publish)

    def actor(request: Request) -> Actor:
        return request.scope.get("state", {}).get("actor", HOST)

    def values_for(seen: seats.SeatView, notice: Notice | None = None, choice: dict[str, Any] | None = None
                   ) -> dict[str, Any]:
        """The page's values in the request's language (the guard's choice, `i18n.current`)."""
        code = i18n.current().code
        return {**context(table, seen, links, notice, choice, languages.game(code)),
                "lang": code, "languages": languages.names()}

    def page_values(request: Request, notice: Notice | None = None, choice: dict[str, Any] | None = None
                    ) -> dict[str, Any]:
        return values_for(seats.view(table, actor(request)), notice, choice)

    drawn = Drawn()

    def render(request: Request, status: int = 200, notice: Notice | None = None,
               choice: dict[str, Any] | None = None) -> HTMLResponse:
        values = page_values(request, notice, choice)
        html = page_template.render(**values, **{f"drawn_{name}": Markup(text)
                                                  for name, text in fragments(values, SHARED).items()})
        return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})

    def fragments(values: dict[str, Any], only: Iterable[str] = SECTIONS) -> dict[str, str]:
        """The page's parts for one seat; those every seat seeing the same draws alike, drawn once."""
        found = {}
        for name in only:
            if name in SHARED:
                key, anchor = shared_key(name, values)
                found[name] = drawn.get(key, anchor, functools.partial(draw_shared, name, values))
            else:
                found[name] = parts[name].render(**values)
        return found

    def draw_shared(name: str, values: dict[str, Any]) -> str:
        extra = {"board": drawn_board(table, values, languages.game(values["lang"]))} if name == "position" else {}
        return parts[name].render(**values, **extra)

    def state(request: Request, notice: Notice | None = None, choice: dict[str, Any] | None = None) -> dict[str, Any]:
        """The seat's `/api/state` answer, and the page's parts drawn from it when asked."""
        seen = seats.view(table, actor(request))
        answer = api.state_answer(table, seen)
        if request.query_params.get("fragments"):
            answer["fragments"] = fragments(values_for(seen, notice, choice))
        return answer

    # --- the page ----------------------------------------------------------------------------------

    async def home(request: Request) -> Response:
        return render(request)

    async def enter(request: Request) -> Response:
        posted = await _form(request)
        try:
            submission = forms.submission(posted)
            table.enter(actor(request), posted.get("v", ""), submission, close=posted.get("close") == "1")
        except NeedsChoice as needed:
            notice, choice = _choice(table, needed, posted, languages)
            return render(request, 200, notice, choice)
        except REFUSALS as error:
            return render(request, *_refusal(table, error, languages))
        return RedirectResponse("/", status_code=303)

    async def undo(request: Request) -> Response:
        posted = await _form(request)
        try:
            table.undo(actor(request), posted.get("v", ""))
        except REFUSALS as error:
            return render(request, *_refusal(table, error, languages))
        return RedirectResponse("/", status_code=303)

    async def start(request: Request) -> Response:
        posted = await _form(request)
        try:
            seats.check_host(actor(request))  # before the position is read: a seat learns nothing of it
            table.start_from(actor(request), posted.get("v", ""), forms.position_data(posted, table.start_form()))
        except REFUSALS as error:
            return render(request, *_refusal(table, error, languages))
        return RedirectResponse("/", status_code=303)

    async def rule(request: Request) -> Response:
        rule_id = request.path_params["rule_id"][:40]
        try:
            found = text.rule(rule_id, table.game_id)
        except KeyError:
            near = text.nearest(rule_id, game=table.game_id)
            return PlainTextResponse(_("unknown rule ID {rule} (nearest: {near})").format(rule=rule_id, near=", ".join(near)),
                                     status_code=404)
        code = i18n.current().code
        game = languages.game(code)
        said, spoken = languages.rule_words(code, found)
        return HTMLResponse(rule_template.render(rule=found, words=said, spoken=spoken, house=_house(table, found.id),
                                                 lang=code,
                                                 title=game.title_en or game.title))

    # --- the API ------------------------------------------------------------------------------------

    async def api_state(request: Request) -> Response:
        body = json.dumps(state(request), ensure_ascii=False).encode()
        tag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers={"ETag": tag, "Cache-Control": "no-cache"})
        return Response(body, media_type="application/json", headers={"ETag": tag, "Cache-Control": "no-cache"})

    async def api_step(request: Request) -> Response:
        try:
            version, submission, close = await _step(request)
            entry = table.enter(actor(request), version, submission, close=close)
        except NeedsChoice as needed:
            notice, choice = _choice(table, needed, await _form(request) if _is_form(request) else {}, languages)
            return _json({"error": "choice", "what": needed.needed.what, "rule": needed.needed.rule,
                          "message": needed.needed.message, "options": [str(o) for o in needed.needed.options],
                          **_parts(request, notice, choice)}, 422)
        except REFUSALS as error:
            return _api_refusal(request, error)
        return _json({"ok": True, "entry": api.entry_json(entry), "state": state(request)})

    async def api_undo(request: Request) -> Response:
        try:
            if _is_form(request):
                version = (await _form(request)).get("v", "")
            else:
                version = api.version_of(await _json_body(request))
            entry = table.undo(actor(request), version)
        except REFUSALS as error:
            return _api_refusal(request, error)
        return _json({"ok": True, "undone": {"player": entry.player, "kind": entry.kind, "sealed": entry.sealed},
                      "state": state(request)})

    async def api_events(request: Request) -> Response:
        queue = hub.subscribe()

        async def stream() -> AsyncIterator[str]:
            try:
                yield "retry: 1000\n" + api.sse("hello", {"change": table.change})
                while True:
                    change = await queue.get()  # straight from the hub: no timer between a change and its news
                    if change is None:
                        return
                    yield ": still here\n\n" if change is api.KEEP_ALIVE else api.sse("change", change.as_json(),
                                                                                         change.number)
            finally:
                hub.unsubscribe(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def _step(request: Request) -> tuple[str, Submission, bool]:
        if _is_form(request):
            posted = await _form(request)
            return posted.get("v", ""), forms.submission(posted), posted.get("close") == "1"
        return api.step_body(await _json_body(request))

    def _parts(request: Request, notice: Notice, choice: dict[str, Any] | None = None) -> dict[str, Any]:
        if not request.query_params.get("fragments"):
            return {}
        return {"fragments": fragments(page_values(request, notice, choice), ("notice",))}

    def _api_refusal(request: Request, error: Exception) -> Response:
        status, notice = _refusal(table, error, languages)
        answer: dict[str, Any] = {"error": notice.kind, "message": notice.message}
        if isinstance(error, Refused):
            answer.update(rule=error.rule, rule_text=notice.rule_text, house=list(notice.house))
        if isinstance(error, Stale):
            answer["state"] = state(request, notice)
        return _json({**answer, **_parts(request, notice)}, status)

    routes = [
        Route("/", home),
        Route("/enter", enter, methods=["POST"]),
        Route("/undo", undo, methods=["POST"]),
        Route("/start", start, methods=["POST"]),
        Route("/rule/{rule_id}", rule),
        Route("/api/state", api_state),
        Route("/api/step", api_step, methods=["POST"]),
        Route("/api/undo", api_undo, methods=["POST"]),
        Route("/api/events", api_events),
        Mount("/static", app=StaticFiles(directory=str(folder / "static")), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        beat = asyncio.create_task(hub.keep_alive(KEEP_ALIVE))
        yield
        beat.cancel()
        hub.close()  # the open event streams end with the server

    app = Starlette(routes=routes, lifespan=lifespan)
    return Guard(app, tokens, _cookie_name(table), hosts, languages)


SHARED = ("position", "last", "history")  # parts the same for every seat that sees the same: drawn once


def shared_key(name: str, values: dict[str, Any]) -> tuple[str, Any]:
    """What a shared part is drawn from, and an object it is anchored to: for the board, the
    position with who acts and the phase; for the last steps, the record's entries (immutable:
    the same last entry, the same steps); each in the page's language."""
    if name == "position":
        seen = [values["position"], values["acting"], values["sealed"], bool(values["own"]), values["lang"]]
        return name + hashlib.sha256(json.dumps(seen, default=str).encode()).hexdigest(), None
    public = values["public"]
    return f"{name}:{values['lang']}:{len(public)}:{id(public[-1]) if public else 0}:{len(values['setup_events'])}", \
        public[-1] if public else None


class Drawn:
    """Shared parts as drawn, by what they were drawn from (the latest few). An entry anchored
    to an object is used for that object only (kept, so its id is not another's meanwhile)."""

    KEPT = 32

    def __init__(self) -> None:
        self._kept: dict[str, tuple[Any, str]] = {}

    def get(self, key: str, anchor: Any, draw: Callable[[], str]) -> str:
        found = self._kept.pop(key, None)
        if found is None or found[0] is not anchor:
            found = (anchor, draw())
        self._kept[key] = found  # the latest last
        while len(self._kept) > self.KEPT:
            del self._kept[next(iter(self._kept))]
        return found[1]


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


def _is_form(request: Request) -> bool:
    return request.headers.get("content-type", "").startswith(("application/x-www-form-urlencoded",
                                                                  "multipart/form-data"))


async def _json_body(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise BadEntry("the body is not JSON") from None


async def _form(request: Request) -> dict[str, str]:
    """The posted fields (a body no form sends is BadEntry). Read once per request and kept."""
    kept = request.scope.setdefault("state", {}).get("posted")
    if kept is not None:
        return kept
    try:
        if request.headers.get("content-type", "").startswith("multipart/form-data"):
            form = await request.form(max_files=0, max_fields=2000)
            posted = {key: value for key, value in form.items() if isinstance(value, str)}
        else:
            raw = (await request.body()).decode("utf-8", errors="replace")
            posted = dict(parse_qsl(raw, keep_blank_values=True, max_num_fields=2000))
    except HTTPException:
        raise
    except Exception:  # a malformed multipart body, too many fields: the client's, never a 500
        raise BadEntry("the form's data cannot be read") from None
    request.scope["state"]["posted"] = posted
    return posted


def _refusal(table: TableGame, error: Exception, languages: words.Languages) -> tuple[int, Notice]:
    if isinstance(error, Stale):
        return 409, Notice("stale", _(words.STALE_TITLE), _(words.STALE))
    if isinstance(error, Forbidden):
        return 403, Notice("forbidden", _(words.FORBIDDEN_TITLE), error.message)
    if isinstance(error, Refused):
        return 422, Notice("refused", words.refused_title(error.rule), error.message, error.rule,
                           _rule_text(table, error.rule, languages), _house(table, error.rule))
    return 400, Notice("error", _(words.NOT_UNDERSTOOD), str(error))


def _choice(table: TableGame, needed: NeedsChoice, posted: dict[str, str], languages: words.Languages
            ) -> tuple[Notice, dict[str, Any]]:
    choice = {"posted": [(k, v) for k, v in posted.items() if not k.startswith("c.")], "what": needed.needed.what,
              "options": [str(o) for o in needed.needed.options]}
    notice = Notice("choice", _(words.CHOICE_TITLE), needed.needed.message, needed.needed.rule,
                    _rule_text(table, needed.needed.rule, languages))
    return notice, choice


def _rule_text(table: TableGame, rule_id: str, languages: words.Languages) -> str:
    """The rule's words for players, in the request's language where its booklet words them."""
    if not rule_id:
        return ""
    try:
        found = text.rule(rule_id, table.game_id)
    except KeyError:
        return ""
    return languages.rule_words(i18n.current().code, found)[0]


def _say(msgid: str, /, **values: Any) -> str:
    """A template's `_("…", name=value)`: the text in the request's language, its placeholders
    filled (the values are escaped with the rest, as the template's output)."""
    said = i18n._(msgid)
    return said.format(**values) if values else said


def _say_plural(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """A template's `ngettext("{n} choice", "{n} choices", n)`: the form for `n`, filled."""
    return i18n.ngettext(singular, plural, n).format(n=n, **values)


def _house(table: TableGame, rule_id: str) -> tuple[str, ...]:
    try:
        found = text.rule(rule_id, table.game_id)
    except KeyError:
        return ()
    return tuple(h.line() for h in governed(found, house_rules(table.game_id, table.game, table.options)))


def _cookie_name(table: TableGame) -> str:
    """A cookie per record: tables on other ports of the same computer keep their own."""
    return "pnp_table_" + hashlib.sha256(str(table.path.resolve()).encode()).hexdigest()[:10]


# --- the guard ---------------------------------------------------------------------------------------


class Guard:
    """ASGI middleware: the language of the answer, the Host name, the token (naming the
    actor), the body size, posts from this page only, and the headers every answer carries.

    The language (`languages.choose`) is the one `?lang=` asks for (then kept in a cookie, so
    the live page's requests speak it too), else the cookie's, else the best the browser's
    `Accept-Language` names among the game's, else the game's own. Only a code the game offers
    is ever used or written back; everything the request makes, refusals included, is worded
    in it (`i18n.speaking`)."""

    def __init__(self, app: ASGIApp, tokens: Tokens | None, cookie: str, hosts: Iterable[str] | None = None,
                 languages: words.Languages | None = None, max_body: int = MAX_BODY):
        self.app, self.cookie, self.max_body, self.languages = app, cookie, max_body, languages
        self.hosts = None if hosts is None else {h.lower() for h in hosts}
        self.tokens: tuple[tuple[Actor, bytes], ...] | None = None
        if tokens is not None:
            self.tokens = ((HOST, tokens.host.encode()),
                           *((Actor(seat), token.encode()) for seat, token in tokens.seats))

    def actor_for(self, given: str) -> Actor | None:
        """The actor whose token this is, compared in constant time with every token (no early
        answer: the time says nothing of which seats exist or how much of a token was right)."""
        if self.tokens is None:
            return HOST
        data = given.encode("utf-8", errors="replace")
        found: Actor | None = None
        for actor, token in self.tokens:
            if hmac.compare_digest(data, token):
                found = actor
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        extra = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
        language = None
        if self.languages is not None:
            asked = request.query_params.get("lang")
            language = self.languages.choose(asked or request.cookies.get(LANGUAGE_COOKIE),
                                             request.headers.get("accept-language", ""))
            extra += [(b"content-language", language.code.encode()), (b"vary", b"Accept-Language, Cookie")]
            if asked == language.code:  # a code the game offers, so safe to write back
                extra.append((b"set-cookie", f"{LANGUAGE_COOKIE}={language.code}; Path=/; HttpOnly; SameSite=Lax; "
                                             f"Max-Age={LANGUAGE_KEPT}".encode()))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        with i18n.speaking(language):
            await self._guarded(request, scope, receive, send_with_headers)

    async def _guarded(self, request: Request, scope: Scope, receive: Receive, send_with_headers: Send) -> None:
        host = request.headers.get("host", "").lower()
        if self.hosts is not None and host not in self.hosts:
            await PlainTextResponse(_(words.WRONG_HOST), status_code=403)(scope, receive, send_with_headers)
            return
        given = request.query_params.get("t")
        if given is None:
            bearer = request.headers.get("authorization", "")
            found = self.actor_for(bearer[7:] if bearer[:7].lower() == "bearer " else request.cookies.get(self.cookie, ""))
        else:
            found = self.actor_for(given)
            if found is not None and request.method == "GET":  # the link's token: into a cookie, out of the address
                cookie = f"{self.cookie}={given}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000"
                await RedirectResponse(scope["path"] if scope["path"].startswith("/") else "/", status_code=303,
                                       headers={"set-cookie": cookie})(scope, receive, send_with_headers)
                return
        if found is None:
            await PlainTextResponse(_(words.NO_TOKEN), status_code=403)(scope, receive, send_with_headers)
            return
        scope.setdefault("state", {})["actor"] = found
        if request.method == "POST":
            origin = request.headers.get("origin")
            if origin is not None and origin.split("://", 1)[-1].lower() != host:
                await PlainTextResponse(_(words.OTHER_SITE), status_code=403)(scope, receive, send_with_headers)
                return
            length = request.headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > self.max_body):
                await PlainTextResponse(_(words.TOO_LARGE), status_code=413)(scope, receive, send_with_headers)
                return
            receive = _limited(receive, self.max_body)
        await self.app(scope, receive, send_with_headers)


def _limited(receive: Receive, limit: int) -> Callable[[], Awaitable[Message]]:
    """`receive` that stops a body (of any transfer encoding) once it passes `limit` bytes."""
    seen = 0

    async def limited() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise HTTPException(413, _(words.TOO_LARGE))
        return message

    return limited
