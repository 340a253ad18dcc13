"""For-Ex's actions: a turn is an optional `Spot`, then exactly one of the others (FOREX-5).

Their own module, so that the engine, the queue's resolution and the fast playout (which
writes them into a trace) all import them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union


@dataclass(frozen=True)
class Spot:
    """FOREX-6: `player` gives `give` to `other` and gets `get` from them, e.g.
    Spot("Ana", "Ben", ("GBP", 1), ("CAD", 2))."""

    player: str
    other: str
    give: tuple[str, Fraction]
    get: tuple[str, Fraction]


@dataclass(frozen=True)
class MakeContract:
    """FOREX-7: pay currency, receive currency, and k, the amount of the pair's stronger one."""

    player: str
    pay: str
    receive: str
    amount: Fraction


@dataclass(frozen=True)
class Invest:
    """FOREX-8: one or two certificates of different currencies, bought in this order."""

    player: str
    currencies: tuple[str, ...]


@dataclass(frozen=True)
class Divest:
    """FOREX-9: the active player sells `count`, then each other player clockwise sells the
    number given in `others` (missing = declines)."""

    player: str
    currency: str
    count: int
    others: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Resolve:
    """FOREX-10: resolve the front item. `strengthen` breaks a dividend tie (10.5.3),
    `strongest` the final tie (12.1) when this action ends the game, and `default` names the
    contract sets whose owners default although they could pay (only with voluntary_default)."""

    player: str
    strengthen: str | None = None
    strongest: str | None = None
    default: tuple[str, ...] = ()


Action = Union[Spot, MakeContract, Invest, Divest, Resolve]

TURN = "FOREX-5.2"  # a turn: at most one Spot, then exactly one of `ENDS_TURN`, which ends it
ENDS_TURN: tuple[type, ...] = (MakeContract, Invest, Divest, Resolve)
