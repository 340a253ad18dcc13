"""The shape of a For-Ex record's `start` and `turns` (REFEREE.md), as pydantic models read by
`pnp.referee.shape`: keys, counts, and amounts as the record writes them (3, 4.5, or "5/4" as
text). The currencies, players, contract sets and rate boxes they name, the queue's items and a
turn's one action are the reader's (`pnp.referee.forex.reading`: they are the spec's or the
record's), whether the moves are legal the engine's."""

from __future__ import annotations

from typing import Annotated, Optional

from pydantic import AfterValidator, BeforeValidator, Field

from pnp.referee.forex.amounts import problem
from pnp.referee.limits import MAX_AMOUNT
from pnp.referee.shape import Count, Shape, worded


def _amount(value: object) -> object:
    wrong = problem(value)
    if wrong is not None:
        raise ValueError(wrong)
    return value


Amount = Annotated[object, AfterValidator(_amount)]
Counts = Optional[dict[str, Count]]  # {GBP: 2, EUR: 1}
Amounts = Optional[dict[str, Amount]]  # {GBP: 3, EUR: 4.5}


def _one(value: object) -> object:
    if isinstance(value, dict) and len(value) != 1:
        raise ValueError("expected one currency and its amount, e.g. {GBP: 1}")
    return value


OneAmount = Annotated[dict[str, Amount], AfterValidator(_one)]


def _letters(value: object) -> object:
    """A contract letter, or a list of them."""
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, tuple):
        raise ValueError("expected a contract letter or a list of them, e.g. [B]")
    return value


class Spot(Shape):
    with_: str = Field(alias="with")  # the other player
    give: OneAmount
    get: OneAmount


class Contract(Shape):
    pay: str
    receive: str
    amount: Amount  # of the stronger currency


class Divest(Shape):
    currency: str
    count: Count  # certificates the active player sells
    others: Counts = None  # what each other player sells with him


class Resolve(Shape):
    strengthen: Optional[str] = None  # a dividend tie's choice
    strongest: Optional[str] = None  # the final strongest currency's, when tied
    default: Optional[Annotated[tuple[str, ...], BeforeValidator(_letters)]] = None


def _written(example: str) -> BeforeValidator:
    """A turn's part written with nothing (`contract:`): an error, as leaving it out is not."""
    return worded(example, lambda value: value is not None)


class Turn(Shape):
    """A turn: its player, an optional spot, and its one action (the reader counts them); only
    `resolve` may be written with nothing."""

    player: str
    spot: Annotated[Optional[Spot], _written("a spot such as {with: Ben, give: {GBP: 1}, get: {EUR: 1.5}}")] = None
    contract: Annotated[Optional[Contract], _written("a contract such as {pay: GBP, receive: EUR, amount: 3}")] = None
    invest: Annotated[Optional[tuple[str, ...]], worded("a list of one or two currencies, in buying order, e.g. [GBP, USD]",
                                                        lambda codes: isinstance(codes, tuple))] = None
    divest: Annotated[Optional[Divest], _written("a sale such as {currency: GBP, count: 2}")] = None
    resolve: Optional[Resolve] = None


class Pair(Shape):
    stronger: str
    position: Annotated[int, Field(ge=1, le=MAX_AMOUNT)]  # on the stronger's track (its boxes: the spec's)


class Holding(Shape):
    money: Amounts = None
    certificates: Counts = None


class Start(Shape):
    pairs: Optional[dict[str, Pair]] = None  # "GBP/EUR": the spec's currency order
    supply: Counts = None
    players: Optional[dict[str, Optional[Holding]]] = None
    queue: Optional[tuple[object, ...]] = None  # "dividend N" or a contract's or loan's terms: the reader's


FIELDS: dict[str, object] = {"start": Start, "turns": tuple[Turn, ...]}
