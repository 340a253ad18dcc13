"""The table's web app (Starlette, Jinja2): a page per seat, the host's and the room's board,
the JSON API the page uses, and what stands in front of both — put together here from their
own modules: `routes` (the page's forms and the API), `views` (the pages as drawn for one
actor), `middleware` (the language, the token, the posts' origin, the bodies' bounds), `access`
(tokens and origins), `links` (the seats' links and QR codes) and `bot` (a bot in an empty seat).

The page works without JavaScript (its forms post and it reloads); with it, it follows the game
through `GET /api/events`, updates itself in place from `GET /api/state`, and posts through
`POST /api/step` and the rest, keeping an entry made while the server is out of reach until it
is back. Requests are handled on the server's one event loop, one at a time (a step takes a few
milliseconds), so every answer is made from one consistent position.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import Any

from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import Receive, Scope, Send

from pnp.table import api, links, words
from pnp.table.access import Access
from pnp.table.bot import THINK, Bots
from pnp.table.files import Tokens
from pnp.table.game import TableGame
from pnp.table.middleware import Guard, Speaking
from pnp.table.routes import Routes
from pnp.table.views import Views

KEEP_ALIVE = 15.0  # seconds between comments on an idle event stream


class TableApp:
    """The ASGI app serving one table, and what its server stops with it: the event streams
    (`hub`) and the bots."""

    def __init__(self, table: TableGame, tokens: Tokens | None = None, base: str | None = None,
                 hosts: Iterable[str] | None = None, think: float = THINK):
        self.table, self.base = table, base
        self.access = Access(tokens, table.path)
        self.languages = words.Languages(table.game_id, table.game, table.spec)
        self.links = links.make(base, tokens) if base and tokens else None
        self.hub = api.Hub()
        table.listeners.append(self.hub.publish)
        self.bots = Bots(table, dict(tokens.bots) if tokens else {},
                         lambda players: self.hub.publish(api.Thinking(players)), think)
        views = Views(table, self.access, self.languages, lambda: self.links, lambda: self.bots.thinking)
        routes = Routes(table, views, self.hub, self.bots, self.reissued)
        app = Starlette(routes=routes.routes(), lifespan=self.lifespan)
        allowed = sorted(hosts) if hosts is not None else ["*"]
        self.app = Speaking(TrustedHostMiddleware(Guard(app, self.access), allowed_hosts=allowed), self.languages)

    def reissued(self, tokens: Tokens) -> None:
        """The tokens as the host has just made them: the old link refused from the next request."""
        self.access.tokens = tokens
        if self.base:
            self.links = links.make(self.base, tokens)

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(self.hub.keep_alive(KEEP_ALIVE)), asyncio.create_task(self.bots.run())]
        yield
        for task in tasks:
            task.cancel()
        self.hub.close()  # the open event streams end with the server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


def create_app(table: TableGame, tokens: Tokens | None = None, base: str | None = None,
               hosts: Iterable[str] | None = None, **options: Any) -> TableApp:
    """The app serving `table`. With `tokens`, every request must carry the host's, the
    board's or a seat's (without, every request is the host's: a table on one device). `base`:
    the address the phones reach, for the links and QR codes on the host's page. `hosts`: the
    Host names answered (None: any)."""
    return TableApp(table, tokens, base, hosts, **options)
