"""Who a request is, and whether a post comes from the table's own page: the tokens and the
origins, in one place.

Every seat, the host and the board (the room's screen) has a token (`files.Tokens`). A link
carries it once (`?t=TOKEN`); the page then lives under an address of its own — `/host/`,
`/board/`, `/1/` … `/N/` for the seats in order — and the token travels in a cookie bound to
that address (`Path=/2/`). So each tab of one browser keeps the seat of its own address: a
second seat's link opened in the same browser gets a page of its own and never takes over the
first one's (the page says the browser holds both, `HELD`). A client that is no page sends
`Authorization: Bearer TOKEN` to the root's `/api/…`.

A token is compared in constant time with every token (no early answer). Posts from a page are
checked without the referrer (the pages send none): the browser's `Sec-Fetch-Site` must say
`same-origin`; a browser that sends no such header must post the form's host-bound token
(`form_token`: an HMAC of the seat's token and the Host name, which a page of another site can
neither read nor make). A post with a bearer token carries no cookie, so no other site can make
one for a phone.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from pathlib import Path

from pnp.table.files import Tokens
from pnp.table.steps import BOARD, HOST, Actor

HOST_PAGE, BOARD_PAGE = "host", "board"  # the host's and the board's addresses; a seat's is its number from 1
KEPT = 30 * 24 * 3600  # seconds a page's cookie is kept: a month of game evenings


class Access:
    """The tokens of one table, and the actor each names. `tokens` is replaced when the host
    reissues a link, taking effect at the next request."""

    def __init__(self, tokens: Tokens | None, record: Path):
        self.tokens = tokens
        digest = hashlib.sha256(str(record.resolve()).encode()).hexdigest()[:10]
        self.cookie = f"pnp_seat_{digest}"  # one name, a cookie per page's address (tables on other ports keep theirs)
        self.held_cookie = f"pnp_held_{digest}"  # the pages this browser holds, for each page to say so

    @property
    def open(self) -> bool:
        """No tokens at all: every request is the host's (a table on one device, in tests)."""
        return self.tokens is None

    def actor_for(self, given: str) -> Actor | None:
        """The actor whose token this is, compared in constant time with every token (no early
        answer: the time says nothing of which seats exist or how much of a token was right)."""
        if self.tokens is None:
            return HOST
        data = given.encode("utf-8", errors="replace")
        found: Actor | None = None
        for actor, token in self._all():
            if hmac.compare_digest(data, token.encode()):
                found = actor
        return found

    def _all(self) -> list[tuple[Actor, str]]:
        assert self.tokens is not None
        return [(HOST, self.tokens.host), (BOARD, self.tokens.board),
                *((Actor(seat), token) for seat, token in self.tokens.seats)]

    def token_of(self, actor: Actor) -> str:
        """The actor's token now ("" on an open table)."""
        if self.tokens is None:
            return ""
        if actor.board:
            return self.tokens.board
        return self.tokens.host if actor.host else self.tokens.of(str(actor.seat))

    def page_of(self, actor: Actor) -> str:
        """The address of the actor's page: "host", "board" or the seat's number."""
        if actor.board:
            return BOARD_PAGE
        if actor.host or self.tokens is None:
            return HOST_PAGE
        return str([seat for seat, _ in self.tokens.seats].index(str(actor.seat)) + 1)

    def actor_at(self, page: str) -> Actor | None:
        """Whose page `page` is (None: no page of this table)."""
        if page == HOST_PAGE:
            return HOST
        if page == BOARD_PAGE:
            return BOARD
        seats = [seat for seat, _ in self.tokens.seats] if self.tokens is not None else []
        return Actor(seats[int(page) - 1]) if page.isdigit() and 1 <= int(page) <= len(seats) else None

    def may_open(self, page: str, actor: Actor) -> bool:
        """Whether the token of `actor` opens the page at `page`: its own page, or the board
        (anyone at the table may put the room's board on a screen)."""
        owner = self.actor_at(page)
        return owner is not None and (owner == actor or owner.board)

    def held(self, cookies: Mapping[str, str]) -> tuple[str, ...]:
        """The pages this browser holds (as the cookie lists them), each a page of this table."""
        listed = cookies.get(self.held_cookie, "")[:200].split(".")
        return tuple(dict.fromkeys(p for p in listed if self.actor_at(p) is not None))


def form_token(token: str, host: str) -> str:
    """The token a page's forms carry: bound to the seat's token and to the Host name the page
    was served under (22 characters, 128 bits)."""
    digest = hmac.new(token.encode(), b"pnp-table-form\0" + host.lower().encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def form_token_holds(given: str, token: str, host: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", errors="replace"), form_token(token, host).encode())


def post_origin(headers: Mapping[str, str], host: str) -> bool | None:
    """Whether a post comes from the table's own page by what the browser says: True (its
    `Sec-Fetch-Site` is `same-origin`), False (another site: the fetch metadata, or an `Origin`
    naming another host), None (the browser says nothing: the form's own token decides).
    A referrer-less page's forms post `Origin: null`, which says nothing either way."""
    site = headers.get("sec-fetch-site") or None
    origin = headers.get("origin")
    if origin is not None and origin != "null" and origin.split("://", 1)[-1].lower() != host.lower():
        return False
    if site is not None:
        return site == "same-origin"
    return None
