"""Serving the table: uvicorn, with the table's own ends.

- Ctrl-C (or SIGTERM) ends every phone's event stream at once, so the server stops within a
  second, and `pnp table` returns to say how to go on — no traceback (uvicorn would raise the
  signal again once stopped; here it has been answered).
- A connection that has not sent a whole request head within `HEAD_SECONDS` of connecting (or
  of its last answer) is closed: a slow or stalled client holds no connection. Bodies are
  bounded in time by the app (`middleware`), event streams by how long a client takes to
  take a message (`api.EventStream`).
"""

from __future__ import annotations

import asyncio
import signal
from types import FrameType
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from pnp.table.web import TableApp

HEAD_SECONDS = 10.0  # a request's line and headers arrive in milliseconds from any phone on the network


class _Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request head is late."""

    _head: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:  # noqa: D102 - uvicorn's
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head is not None:
            self._head.cancel()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._head is not None:
            self._head.cancel()
        self._head = self.loop.call_later(HEAD_SECONDS, self._late)

    def _late(self) -> None:
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


class _Server(uvicorn.Server):
    """uvicorn's server, ending the table's streams on the first Ctrl-C."""

    def __init__(self, config: uvicorn.Config, app: TableApp):
        super().__init__(config)
        self.table_app = app

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        if sig in (signal.SIGINT, signal.SIGTERM):
            self._captured_signals.clear()  # answered: stopping is what it asked for
        self.table_app.hub.close()


def run(app: TableApp, host: str, port: int) -> None:
    """Serve `app` until Ctrl-C."""
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2,
                            http=_Protocol, lifespan="on")
    _Server(config, app).run()
