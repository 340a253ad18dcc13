"""The shape of an Акционер record's `start`, `deal` and `turns` (REFEREE.md), as pydantic
models read by `pnp.referee.shape`; the players and colours they name, the cards' notation and
which stages a turn may leave out are the reader's (`pnp.referee.aktsioner.reading`), whether
the moves are legal the engine's."""

from __future__ import annotations

from typing import Annotated, Optional

from pydantic import BeforeValidator

from pnp.referee.shape import Count, Shape, worded

Counts = Optional[dict[str, Count]]  # {blue: 1, red: 2}


class Account(Shape):
    cash: Optional[Count] = None
    shares: Counts = None  # a colour left out keeps the standard holding


class Start(Shape):
    prices: Counts = None
    players: Optional[dict[str, Optional[Account]]] = None


class Trade(Shape):
    sell: Counts = None
    buy: Counts = None


def _listed(value: object) -> object:
    """A stage's trades: one trade is written as itself, several as a list in order."""
    return (value,) if isinstance(value, dict) else value


Trades = Annotated[tuple[Trade, ...], BeforeValidator(_listed)]


class Turn(Shape):
    player: str  # who moves
    trade: Optional[Trades] = None  # stage 1
    play: object = None  # stage 2: the card and its choices, "+30 red -60 blue" (the notation's to read)
    then: Optional[Trades] = None  # stage 3


FIELDS: dict[str, object] = {
    "start": Start,
    "deal": dict[str, tuple[object, ...]],  # each player's cards, "+30 red" (the notation's to read)
    "turns": tuple[Annotated[Turn, worded('a turn such as {player: Ana, play: "+30 red -60 blue"}',
                                          lambda turn: isinstance(turn, dict))], ...],
}
