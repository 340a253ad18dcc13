"""The table's links — one per seat, the host's and the board's (the room's screen) — each
with its QR code, made from the address the phones reach and the tokens beside the record;
made again when the host reissues one."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from pnp.table.files import Tokens


@dataclass(frozen=True)
class Link:
    """A seat's link (or the host's, or the board's), with its QR code as SVG."""

    name: str  # the player's name, "host" or "board"
    url: str
    qr: str
    bot: str = ""  # the bot that plays this seat, if one does


@dataclass(frozen=True)
class Links:
    host: Link
    board: Link
    seats: tuple[Link, ...]

    def of(self, seat: str | None) -> Link:
        return self.host if seat is None else next(link for link in self.seats if link.name == seat)


def make(base: str, tokens: Tokens) -> Links:
    """Every link of a table served at `base` ("http://192.168.1.20:8000/")."""
    bots = dict(tokens.bots)
    return Links(_link("host", f"{base}?t={tokens.host}"), _link("board", f"{base}?view=board&t={tokens.board}"),
                 tuple(_link(name, f"{base}?t={token}", bots.get(name, "")) for name, token in tokens.seats))


def _link(name: str, url: str, bot: str = "") -> Link:
    return Link(name, url, qr_svg(url), bot)


@lru_cache(maxsize=64)
def qr_svg(url: str) -> str:
    import segno

    return str(segno.make(url, error="m").svg_inline(scale=3, dark="#1b1b1b"))


def terminal_qr(url: str) -> str:
    """The QR code of `url` in the terminal's characters."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out, compact=True)
    return out.getvalue()
