"""What stands in front of the table's routes (ASGI middleware), outermost first:

- `Speaking`: the language of the answer — `?lang=` (then kept in a cookie), else the cookie's,
  else the best the browser's `Accept-Language` names among the game's (`words.Languages`),
  else the game's own; everything the request makes, refusals included, is worded in it.
- Starlette's `TrustedHostMiddleware` (in `web.create_app`): on loopback, only the server's own
  host names, so a page of another site rebound to 127.0.0.1 by its DNS is refused.
- `Guard`: the token, naming the actor (`access`); each actor's page under its own address,
  its token in a cookie bound there; posts from the table's own page only; bodies limited in
  size and in time; and the headers every answer carries (no framing, no referrer).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pnp import i18n
from pnp.i18n import _
from pnp.table import words
from pnp.table.access import KEPT, Access, post_origin
from pnp.table.steps import HOST, Actor

MAX_BODY = 32 * 1024  # bytes: the largest form (a For-Ex position) is a few kilobytes
BODY_SECONDS = 10.0  # a body that takes longer to arrive is cut (408): a phone sends a form in milliseconds
HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
                                "base-uri 'none'; form-action 'self'"),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
LANGUAGE_COOKIE = "pnp_lang"  # the language a browser chose with the page's switch (any table's)
LANGUAGE_KEPT = 365 * 24 * 3600  # seconds


def with_headers(send: Send, extra: list[tuple[bytes, bytes]]) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return sending


class Speaking:
    """The language of each answer, and the headers every answer carries."""

    def __init__(self, app: ASGIApp, languages: words.Languages):
        self.app, self.languages = app, languages

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        asked = request.query_params.get("lang")
        language = self.languages.choose(asked or request.cookies.get(LANGUAGE_COOKIE),
                                         request.headers.get("accept-language", ""))
        extra = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
        extra += [(b"content-language", language.code.encode()), (b"vary", b"Accept-Language, Cookie")]
        if asked == language.code:  # a code the game offers, so safe to write back
            extra.append((b"set-cookie", f"{LANGUAGE_COOKIE}={language.code}; Path=/; HttpOnly; SameSite=Lax; "
                                         f"Max-Age={LANGUAGE_KEPT}".encode()))
        with i18n.speaking(language):
            await self.app(scope, receive, with_headers(send, extra))


class Guard:
    """The token (naming the actor), each page at its own address, posts from the page's own
    site, bodies limited. What it finds is in `scope["state"]`: `actor`, `token` (what the
    actor's forms are bound to), `page` (its address, "" for a bearer at the root), `held` (the
    pages this browser holds) and `unchecked` (a post whose browser said nothing of its
    origin: the form's own token must hold, `routes`)."""

    def __init__(self, app: ASGIApp, access: Access, max_body: int = MAX_BODY, body_seconds: float = BODY_SECONDS):
        self.app, self.access, self.max_body, self.body_seconds = app, access, max_body, body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/"):  # the package's CSS and script
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        given = request.query_params.get("t")
        if given is not None:
            await self._link(request, given, scope, receive, send)
            return
        actor, token, page, bearer = self._actor(request, scope["path"])
        if actor is None:
            await PlainTextResponse(_(words.NO_TOKEN), status_code=403)(scope, receive, send)
            return
        if page:
            scope["root_path"] = scope.get("root_path", "") + f"/{page}"
        state = scope.setdefault("state", {})
        state.update(actor=actor, token=token, page=page, held=self.access.held(request.cookies))
        if request.method == "POST":
            refused = self._refused_post(request, state, bearer)
            if refused is not None:
                await refused(scope, receive, send)
                return
            receive = _limited(receive, self.max_body, self.body_seconds)
        await self.app(scope, receive, send)

    def _actor(self, request: Request, path: str) -> tuple[Actor | None, str, str, bool]:
        """Who asks, with which token, from which page's address ("": a bearer at the root),
        and whether by a bearer token. A cookie's token opens its own page, or the board's."""
        page = path.lstrip("/").partition("/")[0]
        bearer = request.headers.get("authorization", "")
        if bearer[:7].lower() == "bearer ":
            return self.access.actor_for(bearer[7:]), bearer[7:], "", True
        if self.access.open:  # a table on one device: the host's, or the board at its address
            owner = self.access.actor_at(page)
            return owner or HOST, "", page if owner is not None else "", False
        token = request.cookies.get(self.access.cookie, "")
        actor = self.access.actor_for(token)
        if actor is None or not self.access.may_open(page, actor):
            return None, token, page, False
        return self.access.actor_at(page), token, page, False  # (the board's page, opened by a seat: the board's)

    def _refused_post(self, request: Request, state: dict[str, Any], bearer: bool) -> Response | None:
        """A post from another site (403), or too large (413); else None, the post marked
        `unchecked` when its browser said nothing of its origin."""
        origin = post_origin(request.headers, request.headers.get("host", ""))
        if origin is False:
            return PlainTextResponse(_(words.OTHER_SITE), status_code=403)
        state["unchecked"] = origin is None and not bearer and not self.access.open
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return PlainTextResponse(_(words.TOO_LARGE), status_code=413)
        return None

    async def _link(self, request: Request, given: str, scope: Scope, receive: Receive, send: Send) -> None:
        """A link's token: into a cookie bound to the actor's page, and out of the address (a
        GET), the page's address added to those this browser holds; or the request answered
        as the token's actor (a POST)."""
        actor = self.access.actor_for(given)
        if actor is None:
            await PlainTextResponse(_(words.NO_TOKEN), status_code=403)(scope, receive, send)
            return
        if request.method != "GET":
            scope.setdefault("state", {}).update(actor=actor, token=given, page="", held=(), unchecked=False)
            await self.app(scope, receive, send)
            return
        page = "board" if request.query_params.get("view") == "board" else self.access.page_of(actor)
        held = tuple(dict.fromkeys((*self.access.held(request.cookies), page)))
        cookies = [f"{self.access.cookie}={given}; Path=/{page}/; HttpOnly; SameSite=Strict; Max-Age={KEPT}",
                   f"{self.access.held_cookie}={'.'.join(held)}; Path=/; HttpOnly; SameSite=Strict; Max-Age={KEPT}"]
        answer = RedirectResponse(f"/{page}/", status_code=303)
        for cookie in cookies:
            answer.raw_headers.append((b"set-cookie", cookie.encode()))
        await answer(scope, receive, send)


def _limited(receive: Receive, limit: int, seconds: float) -> Callable[[], Awaitable[Message]]:
    """`receive` that stops a body (of any transfer encoding) once it passes `limit` bytes, or
    once it has taken `seconds` to arrive (a slow client holds no server for long)."""
    seen = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds

    async def limited() -> Message:
        nonlocal seen
        try:
            message: Message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
        except asyncio.TimeoutError:
            raise HTTPException(408, _(words.TOO_SLOW)) from None
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise HTTPException(413, _(words.TOO_LARGE))
        return message

    return limited
