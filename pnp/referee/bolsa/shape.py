"""The shape of a Bolsa record's `start` and `rounds` (REFEREE.md), as pydantic models read by
`pnp.referee.shape`; which players and companies they name is the reader's to check
(`pnp.referee.bolsa.reading`), whether the moves are legal the engine's."""

from __future__ import annotations

from typing import Annotated, Optional

from pydantic import AfterValidator, BeforeValidator, Field

from pnp.errors import brief
from pnp.referee.limits import MAX_AMOUNT
from pnp.referee.shape import Count, Shape

Counts = Optional[dict[str, Count]]  # {IBE: 1, SAN: 2}


class Declaration(Shape):
    sell: Counts = None
    buy: Counts = None


def _one_bid(entry: object) -> object:
    """`- Ana: 12` or `- Ben: pass`: one name and its bid."""
    if not isinstance(entry, dict) or len(entry) != 1:
        raise ValueError("a bid is one `Name: amount` or `Name: pass`, e.g. - Ana: 12")
    return entry


def _amount(amount: object) -> object:
    if amount != "pass" and (isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= MAX_AMOUNT):
        raise ValueError(f"a bid is a whole number ≥ 0 or pass, got {brief(amount)}")
    return amount


Bid = Annotated[dict[str, Annotated[object, AfterValidator(_amount)]], BeforeValidator(_one_bid)]


class Pair(Shape):
    buyer: str
    seller: str
    shares: Annotated[int, Field(ge=1, le=MAX_AMOUNT)]


class Round(Shape):
    declare: Optional[dict[str, Optional[Declaration]]] = None
    auctions: Optional[dict[str, tuple[Bid, ...]]] = None
    pairing: Optional[dict[str, tuple[Pair, ...]]] = None
    withdraw: Optional[dict[str, tuple[str, ...]]] = None  # under auction_losers: may_withdraw
    unsettled: Optional[str] = None  # the company the record stops before settling


class Holding(Shape):
    cash: Optional[Count] = None
    owned: Counts = None  # zone 1
    orders: Counts = None  # zone 2


class Start(Shape):
    round: Optional[Annotated[int, Field(ge=1, le=MAX_AMOUNT)]] = None
    token: Optional[str] = None  # the holder of the auction-order token
    prices: Counts = None
    players: Optional[dict[str, Optional[Holding]]] = None


FIELDS: dict[str, object] = {"start": Start, "rounds": tuple[Round, ...]}
