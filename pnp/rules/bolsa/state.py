"""Bolsa's position and actions: plain immutable values."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping, Union

from pnp.errors import brief
from pnp.rules.base import Malformed, evolve, fast_init
from pnp.rules.bolsa.params import ORDERS_AT_SETUP, OWNED_AT_SETUP

DECLARE, TRADE, OVER = "declare", "trade", "over"  # the phases of a round, and the end


# --- the position ------------------------------------------------------------------------


@fast_init
@dataclass(frozen=True)
class Zones:
    """One player's cards of one company, by zone of his mat (BOLSA-1.6)."""

    owned: int = OWNED_AT_SETUP  # zone 1
    orders: int = ORDERS_AT_SETUP  # zone 2
    offered: int = 0  # zone 3: for sale this round
    requested: int = 0  # zone 4: to buy this round

    @property
    def cards(self) -> int:
        return self.owned + self.orders + self.offered + self.requested


@fast_init
@dataclass(frozen=True)
class Player:
    name: str
    cash: int
    zones: tuple[Zones, ...]  # one per company, board order

    def with_zones(self, company: int, zones: Zones) -> "Player":
        return evolve(self, zones=self.zones[:company] + (zones,) + self.zones[company + 1 :])


@fast_init
@dataclass(frozen=True)
class Auction:
    """An auction in progress or just finished (BOLSA-5.2–5.5)."""

    ascending: bool  # buyers bid up (case 5); sellers bid down (case 6)
    order: tuple[int, ...]  # participants, in bidding order from the token holder
    turn: int = 0  # index into `order` of the participant to act
    passed: tuple[int, ...] = ()  # in order of passing
    best: int | None = None  # the high (or low) bid so far
    bidder: int | None = None  # who made it

    @property
    def over(self) -> bool:
        return len(self.order) - len(self.passed) <= 1

    @property
    def to_act(self) -> int:
        return self.order[self.turn]

    @property
    def ranking(self) -> tuple[int, ...]:
        """BOLSA-5.5: the winner, then the others from the last to pass to the first."""
        winner = tuple(i for i in self.order if i not in self.passed)
        return winner + tuple(reversed(self.passed))

    def price(self, quote: int) -> int:
        return quote if self.best is None else self.best


@fast_init
@dataclass(frozen=True)
class Trade:
    """The company being resolved: classified (case 1–6), maybe auctioned, not yet settled."""

    company: int
    case: int
    quote: int  # Q when the company came up
    auction: Auction | None = None


@dataclass(frozen=True)
class State:
    """The table: quotes, mats and money, and where the round stands."""

    players: tuple[Player, ...]  # seating order, clockwise
    prices: tuple[int, ...]  # Q per company, board order
    round: int = 1
    token: int = 0  # holder of the auction-order token
    phase: str = DECLARE
    declared: frozenset[int] = frozenset()  # who has declared this round
    next_company: int = 0  # in the trade phase: the company to resolve next
    trade: Trade | None = None

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def index(self, name: str) -> int:
        for i, player in enumerate(self.players):
            if player.name == name:
                return i
        raise Malformed(f"unknown player {brief(name)}")

    def seating(self) -> tuple[int, ...]:
        """Everyone clockwise from the token holder (BOLSA-4.8, 5.2)."""
        return _seating(self.token, len(self.players))

    def with_player(self, index: int, player: Player) -> "State":
        return evolve(self, players=self.players[:index] + (player,) + self.players[index + 1 :])


@lru_cache(maxsize=64)
def _seating(token: int, n: int) -> tuple[int, ...]:
    return tuple((token + k) % n for k in range(n))


# --- actions -----------------------------------------------------------------------------


def _frozen(counts: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(counts))


@fast_init
@dataclass(frozen=True)
class Declare:
    """BOLSA-3.2: sealed declaration — cards to offer (zone 1 → 3) and request (2 → 4)."""

    player: str
    sell: Mapping[str, int] = field(default_factory=dict)
    buy: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sell", _frozen(self.sell))
        object.__setattr__(self, "buy", _frozen(self.buy))


@dataclass(frozen=True)
class Resolve:
    """BOLSA-3.3.2: bring up the next company in board order (solvency, classification)."""


@fast_init
@dataclass(frozen=True)
class Bid:
    """One turn of an auction: a bid, or a pass (amount None)."""

    player: str
    amount: int | None


@dataclass(frozen=True)
class Withdraw:
    """BOLSA-5.7 under `may_withdraw`: a losing participant takes back his cards."""

    player: str


@dataclass(frozen=True)
class Pair:
    buyer: str
    seller: str
    shares: int


@dataclass(frozen=True)
class Settle:
    """Finish the company: trades, payments (paired as chosen, or BOLSA-4.8's automatic
    pairing), quote, provisioning — and the end of the round after the last company."""

    pairing: tuple[Pair, ...] | None = None


Action = Union[Declare, Resolve, Bid, Withdraw, Settle]
