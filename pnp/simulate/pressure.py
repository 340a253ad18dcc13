"""The components a game pushes on: printed money, and bills counted out of amounts in hand.

components.yaml prints each money as bills of a few denominations (`kind: money`, one set per
asset under `for_each: asset`, times `copies`). An amount in a player's hand is counted in
bills the way a table pays it: the largest bill first. Summed over the players, that is how
many bills of each denomination the table needs at that moment; the bank is short when the
money in hands exceeds what is printed, or a denomination's bills run out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable

from pnp.spec.model import Game, Money

HANDS_KEPT = 10_000  # per currency: what `Bills.in_hands` keeps at most (a few MB)


@dataclass(frozen=True)
class Bills:
    """One currency's printed bills: denominations largest first, and how many of each."""

    currency: str  # its key in the game's probe: a code, or "" for a game's one money
    name: str  # as printed: the code, else the money component's name
    values: tuple[Fraction, ...]
    counts: tuple[int, ...]
    _cache: dict[Any, tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    _hands: dict[tuple[Any, ...], tuple[Any, tuple[int, ...]]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def total(self) -> Fraction:
        return sum((v * n for v, n in zip(self.values, self.counts, strict=True)), Fraction(0))

    def count_out(self, amount: Any) -> tuple[int, ...]:
        """The bills of each denomination that pay `amount`, largest first (what cannot be
        paid in the smallest bill is left out)."""
        found = self._cache.get(amount)
        if found is None:
            left, bills = Fraction(amount), []
            for value in self.values:
                n = int(left // value) if left > 0 else 0
                bills.append(n)
                left -= n * value
            found = self._cache[amount] = tuple(bills)
        return found

    def in_hands(self, amounts: Iterable[Any]) -> tuple[Any, tuple[int, ...]]:
        """The total of the players' amounts and the bills of each denomination they hold.

        Kept for the hands met before (up to `HANDS_KEPT`): a simulation reads the hands
        after every step, and meets the same ones game after game."""
        amounts = tuple(amounts)
        found = self._hands.get(amounts)
        if found is None:
            if len(self._hands) >= HANDS_KEPT:
                self._hands.clear()
            each = [self.count_out(amount) for amount in amounts]
            bills = tuple(map(sum, zip(*each, strict=True))) if amounts else (0,) * len(self.values)
            found = self._hands[amounts] = (sum(amounts), bills)
        return found


def printed_money(game: Game) -> dict[str, Bills]:
    """Each currency's bills as components.yaml prints them (every money component, times its
    copies), keyed as the probes key money: the asset id under `for_each: asset`, else "" (the
    game's one money)."""
    names: dict[str, str] = {}
    printed: dict[str, dict[Fraction, int]] = {}
    for money in game.components:
        if not isinstance(money, Money):
            continue
        for asset in game.assets if money.for_each == "asset" else (None,):
            key = "" if asset is None else asset.id
            names.setdefault(key, (money.name_en or money.name) if asset is None else asset.id)
            bills = printed.setdefault(key, {})
            for bill in money.bills:
                value = Fraction(bill.value).limit_denominator(1000)
                bills[value] = bills.get(value, 0) + bill.count * money.copies
    return {
        key: Bills(key, names[key], tuple(sorted(bills, reverse=True)), tuple(bills[v] for v in sorted(bills, reverse=True)))
        for key, bills in printed.items()
    }
