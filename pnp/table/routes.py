"""The table's routes: the page's (forms that post and reload: every one works without
JavaScript) and the JSON API's (what the page's script, a bot or another client uses). Both
make the same changes through the same checks; they differ only in how they answer.

Every change carries the version its form was drawn on and a key (`steps.Asked`): a form posted
twice — a retry after a lost answer, a double tap, a replay after an undo — is made once. A post
whose browser says nothing of its origin must carry its page's host-bound token (`access`).
Closing a sealed phase early and correcting the record are asked again before they are made
(`confirm`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from pnp import i18n
from pnp.bots import roster
from pnp.i18n import _
from pnp.rules import text
from pnp.table import api, files, forms, seats, words
from pnp.table.access import KEPT, form_token_holds
from pnp.table.api import EventStream, Hub
from pnp.table.bot import Bots
from pnp.table.files import Tokens, reissue
from pnp.table.game import TableGame
from pnp.table.page import Notice
from pnp.table.steps import BOARD, HOST, Actor, Asked, BadEntry, Entry, Forbidden, NeedsChoice, Repeated
from pnp.table.views import REFUSALS, Views, actor_of, template

TOKEN = "_token"  # a change's answer: the host's own new token, for its page's cookie (never in the JSON)
PATIENCE = 30.0  # seconds an event stream waits for a client to take one message before it is cut
Change = Callable[[Request, Asked], Awaitable[dict[str, Any]]]  # makes one change (what its answer says), or refuses


class Routes:
    """The handlers of one table's app."""

    def __init__(self, table: TableGame, views: Views, hub: Hub, bots: Bots, on_reissue: Callable[[Tokens], None]):
        self.table, self.views, self.hub, self.bots, self.on_reissue = table, views, hub, bots, on_reissue

    def routes(self) -> list[BaseRoute]:
        folder = resources.files("pnp.table")
        return [
            Route("/", self.home),
            Route("/enter", self.page_change(self.step, step=True), methods=["POST"]),
            Route("/undo", self.page_change(self.undo), methods=["POST"]),
            Route("/correct", self.page_change(self.correct), methods=["POST"]),
            Route("/start", self.page_change(self.start), methods=["POST"]),
            Route("/reissue", self.page_change(self.reissue), methods=["POST"]),
            Route("/bot", self.page_change(self.seat_bot), methods=["POST"]),
            Route("/rule/{rule_id}", self.rule),
            Route("/api/state", self.api_state),
            Route("/api/step", self.api_change(self.step, step=True), methods=["POST"]),
            Route("/api/undo", self.api_change(self.undo), methods=["POST"]),
            Route("/api/correct", self.api_change(self.correct), methods=["POST"]),
            Route("/api/reissue", self.api_change(self.reissue), methods=["POST"]),
            Route("/api/events", self.api_events),
            Mount("/static", app=StaticFiles(directory=str(folder / "static")), name="static"),
        ]

    # --- the changes ---------------------------------------------------------------------------------

    async def step(self, request: Request, asked: Asked) -> dict[str, Any]:
        if asked.close and not asked.confirm:
            raise Unconfirmed("close")
        assert asked.submission is not None
        entry = self.table.enter(actor_of(request), asked.version, asked.submission, close=asked.close, key=asked.key)
        return {"entry": api.entry_json(entry)}

    async def undo(self, request: Request, asked: Asked) -> dict[str, Any]:
        return _undone(self.table.undo(actor_of(request), asked.version, key=asked.key))

    async def correct(self, request: Request, asked: Asked) -> dict[str, Any]:
        seats.correction_target(self.table, actor_of(request))  # before asking: a seat is refused at once
        if not asked.confirm:
            raise Unconfirmed("correct")
        return _undone(self.table.correct(actor_of(request), asked.version, key=asked.key))

    async def start(self, request: Request, asked: Asked) -> dict[str, Any]:
        seats.check_host(actor_of(request))  # before the position is read: a seat learns nothing of it
        posted = await _form(request)
        self.table.start_from(actor_of(request), asked.version, forms.position_data(posted, self.table.start_form()),
                              key=asked.key)
        return {}

    async def reissue(self, request: Request, asked: Asked) -> dict[str, Any]:
        """The host: a new link for a seat, the board or the host (the old one stops at once,
        its open streams ended); the host's own page keeps working with the new one."""
        seats.check_host(actor_of(request))
        who = (await _fields(request)).get("who", "")
        tokens = self.views.access.tokens
        if tokens is None or who not in ("host", "board", *self.table.players):
            raise BadEntry("who: a player's name, host or board")
        if asked.key in self.table.keys:
            raise Repeated(self.table.keys[asked.key], True)
        old = self.views.access.token_of(HOST if who == "host" else BOARD if who == "board" else Actor(who))
        made = reissue(self.table.path, tokens, who)
        self.table.keys[asked.key] = self.table.change
        self.on_reissue(made)
        self.hub.close(old)
        return {"reissued": who, **({TOKEN: made.host} if who == "host" else {})}

    async def seat_bot(self, request: Request, asked: Asked) -> dict[str, Any]:
        """The host: a bot takes a seat (`bot`: its name), or gives it back (`bot` empty)."""
        seats.check_host(actor_of(request))
        posted = await _fields(request)
        who, name = posted.get("seat", ""), posted.get("bot", "")
        try:
            self.bots.seat(who, name or None)
        except ValueError:
            raise BadEntry(f"bot: one of {', '.join(roster.names(self.table.game_id))}") from None
        if self.views.access.tokens is not None:
            self.on_reissue(_with_bots(self.table, self.bots.seated))
        return {"bots": dict(self.bots.seated)}

    # --- the page: forms that post, and a page in answer -----------------------------------------------

    async def home(self, request: Request) -> Response:
        return self.html(request)

    def html(self, request: Request, status: int = 200, notice: Notice | None = None,
             choice: dict[str, Any] | None = None) -> HTMLResponse:
        return HTMLResponse(self.views.page(request, status, notice, choice), status_code=status,
                            headers={"Cache-Control": "no-store"})

    def page_change(self, change: Change, step: bool = False) -> Callable[[Request], Any]:
        async def handle(request: Request) -> Response:
            posted = await _form(request)
            try:
                asked = forms.asked(posted, step)
                _check_form_token(request, posted)
                made = await change(request, asked)
            except Unconfirmed as question:
                return self.html(request, 200, *self.views.confirm(question.what, posted))
            except NeedsChoice as needed:
                return self.html(request, 200, *self.views.choice(needed, posted))
            except Repeated as repeated:
                if not repeated.latest:
                    return self.html(request, *self.views.refusal(repeated))
                made = {}  # made already, and nothing since: answered as it was
            except REFUSALS as error:
                return self.html(request, *self.views.refusal(error))
            answer = RedirectResponse("./", status_code=303)
            if TOKEN in made:  # the host's own new token: this page keeps working
                answer.raw_headers.append((b"set-cookie", self.cookie(request, made[TOKEN])))
            return answer

        return handle

    def cookie(self, request: Request, token: str) -> bytes:
        """The cookie that carries the actor's new token to its own page."""
        page = request.scope.get("state", {}).get("page", "")
        return (f"{self.views.access.cookie}={token}; Path=/{page}/; HttpOnly; SameSite=Strict; "
                f"Max-Age={KEPT}").encode()

    async def rule(self, request: Request) -> Response:
        rule_id = request.path_params["rule_id"][:40]
        try:
            found = text.rule(rule_id, self.table.game_id)
        except KeyError:
            near = text.nearest(rule_id, game=self.table.game_id)
            return PlainTextResponse(_("unknown rule ID {rule} (nearest: {near})").format(rule=rule_id, near=", ".join(near)),
                                     status_code=404)
        code = i18n.current().code
        game = self.views.languages.game(code)
        said, spoken = self.views.languages.rule_words(code, found)
        return HTMLResponse(template("rule.html").render(rule=found, words=said, spoken=spoken,
                                                         house=self.views.house(found.id), lang=code,
                                                         title=game.title_en or game.title))

    # --- the API ---------------------------------------------------------------------------------------

    async def api_state(self, request: Request) -> Response:
        body = json.dumps(self.views.state(request), ensure_ascii=False).encode()
        tag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers={"ETag": tag, "Cache-Control": "no-cache"})
        return Response(body, media_type="application/json", headers={"ETag": tag, "Cache-Control": "no-cache"})

    def api_change(self, change: Change, step: bool = False) -> Callable[[Request], Any]:
        async def handle(request: Request) -> Response:
            posted: dict[str, str] = {}
            try:
                if _is_form(request):
                    posted = await _form(request)
                    asked = forms.asked(posted, step)
                    _check_form_token(request, posted)
                else:
                    if request.scope.get("state", {}).get("unchecked"):
                        raise Forbidden(_(words.OTHER_SITE))
                    asked = api.asked(api.json_body(await request.body()), step)
                    request.scope["state"]["json"] = True
                made = await change(request, asked)
            except Unconfirmed as question:
                notice, confirm = self.views.confirm(question.what, posted)
                return _json({"error": "confirm", "what": question.what, "message": notice.message,
                              **self.views.notice_parts(request, notice, confirm)}, 409)
            except NeedsChoice as needed:
                notice, choice = self.views.choice(needed, posted)
                return _json({"error": "choice", "what": needed.needed.what, "rule": needed.needed.rule,
                              "message": needed.needed.message, "options": [str(o) for o in needed.needed.options],
                              **self.views.notice_parts(request, notice, choice)}, 422)
            except Repeated as repeated:
                if not repeated.latest:
                    return self.api_refusal(request, repeated)
                return _json({"ok": True, "repeated": repeated.change, "state": self.views.state(request)})
            except REFUSALS as error:
                return self.api_refusal(request, error)
            answer = _json({"ok": True, **{k: v for k, v in made.items() if k != TOKEN}, "state": self.views.state(request)})
            if TOKEN in made:
                answer.raw_headers.append((b"set-cookie", self.cookie(request, made[TOKEN])))
            return answer

        return handle

    def api_refusal(self, request: Request, error: Exception) -> Response:
        status, notice = self.views.refusal(error)
        answer: dict[str, Any] = {"error": notice.kind, "message": notice.message}
        if notice.kind == "refused":
            answer.update(rule=notice.rule, rule_text=notice.rule_text, house=list(notice.house))
        if notice.kind in ("stale", "repeated"):
            answer["state"] = self.views.state(request, notice)
        return _json({**answer, **self.views.notice_parts(request, notice)}, status)

    async def api_events(self, request: Request) -> Response:
        token = request.scope.get("state", {}).get("token", "")
        return _Stream(EventStream(self.hub, token, self.table.change, PATIENCE))


class Unconfirmed(Exception):
    """A change asked again before it is made (`what`: "close", "correct")."""

    def __init__(self, what: str):
        self.what = what
        super().__init__(what)


class _Stream(Response):
    """An ASGI app as a route's answer."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)


def _with_bots(table: TableGame, seated: dict[str, str]) -> Tokens:
    """The tokens with the bots now seated, kept beside the record (a restart seats them again)."""
    return files.seat_tokens(table.path, table.players, bots=seated)


def _undone(entry: Entry) -> dict[str, Any]:
    return {"undone": {"player": entry.player, "kind": entry.kind, "sealed": entry.waiting}}


def _check_form_token(request: Request, posted: dict[str, str]) -> None:
    """A post whose browser said nothing of its origin holds only with its page's own token."""
    state = request.scope.get("state", {})
    if state.get("unchecked") and not form_token_holds(posted.get("h", ""), state.get("token", ""),
                                                       request.headers.get("host", "")):
        raise Forbidden(_(words.OTHER_SITE))


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


def _is_form(request: Request) -> bool:
    return request.headers.get("content-type", "").startswith(("application/x-www-form-urlencoded",
                                                                  "multipart/form-data"))


async def _fields(request: Request) -> dict[str, str]:
    """A post's fields: the form's, or a JSON object's text values."""
    if _is_form(request):
        return await _form(request)
    try:
        body = api.json_body(await request.body())
    except BadEntry:
        return {}
    return {str(k): v for k, v in body.items() if isinstance(v, str)} if isinstance(body, dict) else {}


async def _form(request: Request) -> dict[str, str]:
    """The posted fields (a body no form sends is BadEntry). Read once per request and kept."""
    kept = request.scope.setdefault("state", {}).get("posted")
    if kept is not None:
        return dict(kept)
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
    return dict(posted)
