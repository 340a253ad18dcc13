"""Акционер's actions besides the card (`cards.Play`): beginning a turn and trading with the bank.

Their own module, so that the engine and its fast playout (which writes them into a trace)
both import them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Union

from pnp.rules.aktsioner.cards import Play


@dataclass(frozen=True)
class Begin:
    """A player starts his turn (AKT-3.6)."""

    player: str


@dataclass(frozen=True)
class Trade:
    """Stage 1 or 3: sales to the bank, then purchases, at the board's prices (AKT-3.1, 3.3)."""

    sell: tuple[tuple[str, int], ...] = ()
    buy: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, sell: Mapping[str, int] | None = None, buy: Mapping[str, int] | None = None) -> "Trade":
        return cls(tuple((sell or {}).items()), tuple((buy or {}).items()))


Action = Union[Begin, Trade, Play]
