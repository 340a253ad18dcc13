"""The components a game pushes on: printed money, and whether the bills can pay the table.

components.yaml prints each money as bills of a few denominations (`kind: money`, one set per
asset under `for_each: asset`, times `copies`). At any moment each player holds some amount;
the bank holds every other printed bill and makes change whenever asked. So the table is short
of money only when the printed bills cannot be shared out so that every player holds exactly
his amount (`Bills.payable`: a change-making model over the printed denominations, exact): not
when a greedy count of each hand, largest bill first, needs more of one denomination than is
printed (the players then hold it in other bills), nor ever for an amount the bank can change.

When a moment cannot be paid, `Bills.to_add` says how to fix it: for each denomination a table
could add (the printed ones, and the game's smallest amount, `unit`, even if no bill of it is
printed: a spec without its 1-bills), the fewest extra bills of it alone that make the moment
payable, or `CANNOT` when no number of them does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Iterable, Sequence

from pnp.spec.model import Game, Money

HANDS_KEPT = 10_000  # per currency: what `Bills` keeps of the hands it has judged (a few MB)
CANNOT = 1_000_000  # `to_add`: no number of bills of that denomination alone pays the hands


@dataclass(frozen=True)
class Bills:
    """One currency's printed bills: denominations largest first, and how many of each; `unit`
    the least amount a player can hold (1, or ½ where money is kept in halves)."""

    currency: str  # its key in the game's probe: a code, or "" for a game's one money
    name: str  # as printed: the code, else the money component's name
    values: tuple[Fraction, ...]
    counts: tuple[int, ...]
    unit: Fraction = Fraction(1)
    _judged: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def total(self) -> Fraction:
        return sum((v * n for v, n in zip(self.values, self.counts, strict=True)), Fraction(0))

    @cached_property
    def denominations(self) -> tuple[Fraction, ...]:
        """What a table could add, largest first: every printed value, and `unit` if none is it."""
        return tuple(sorted({*self.values, self.unit}, reverse=True))

    @cached_property
    def printed(self) -> tuple[int, ...]:
        """The printed count of each of `denominations` (0 for an unprinted unit)."""
        count = dict(zip(self.values, self.counts, strict=True))
        return tuple(count.get(value, 0) for value in self.denominations)

    def payable(self, amounts: Iterable[Any]) -> bool:
        """Whether the printed bills can be shared out so that each player holds exactly his
        amount (the bank holding the rest)."""
        return not any(self.to_add(amounts))

    def to_add(self, amounts: Iterable[Any]) -> tuple[int, ...]:
        """Per denomination of `denominations`: 0 when the printed bills pay `amounts`; else the
        fewest bills of that denomination alone that, added to the printed ones, would, or
        `CANNOT`. Kept for the hands judged before (up to `HANDS_KEPT`): a simulation meets the
        same ones game after game."""
        scale = self._scale
        held = tuple(sorted((_units(amount, scale) for amount in amounts if amount), reverse=True))
        found = self._judged.get(held)  # whole numbers hash in no time; fractions do not
        if found is None:
            if len(self._judged) >= HANDS_KEPT:
                self._judged.clear()
            found = self._judged[held] = self._fixes(held)
        return found

    @cached_property
    def _scale(self) -> int:
        """The whole number of units a value of 1 is: 2 when the smallest amount is ½."""
        return math.lcm(*(Fraction(v).denominator for v in (*self.denominations, self.unit)))

    @cached_property
    def _values(self) -> tuple[int, ...]:
        """`denominations` in whole units."""
        return tuple(int(v * self._scale) for v in self.denominations)

    def _fixes(self, held: tuple[int, ...]) -> tuple[int, ...]:
        values, printed = self._values, self.printed
        if any(amount < 0 for amount in held) or fits(held, values, printed):
            return (0,) * len(values)
        fixes = []
        for j, value in enumerate(values):
            most = sum(amount // value for amount in held)  # more of this bill than that cannot be handed out

            def fits_with(extra: int, j: int = j) -> bool:
                return fits(held, values, tuple(c + extra * (k == j) for k, c in enumerate(printed)))

            if most == 0 or not fits_with(most):
                fixes.append(CANNOT)
                continue
            low, high = 0, most  # fits_with(low) is false, fits_with(high) true
            while high - low > 1:
                middle = (low + high) // 2
                low, high = (low, middle) if fits_with(middle) else (middle, high)
            fixes.append(high)
        return tuple(fixes)


def _units(amount: Any, scale: int) -> int:
    """An amount in whole units of 1/scale (an amount between units: rounded up, never met)."""
    if type(amount) is int:
        return amount * scale
    if type(amount) is float:  # a playout's halves: exact in binary
        return math.ceil(amount * scale)
    exact = amount if isinstance(amount, Fraction) else Fraction(amount)
    return -(-exact.numerator * scale // exact.denominator)


def fits(amounts: Sequence[int], values: Sequence[int], counts: Sequence[int]) -> bool:
    """Whether bills of `values` (largest first), `counts` of each, can be shared out so that
    each of `amounts` (largest first, all in whole units) is paid exactly.

    First the table's greedy count (`_greedy`), which nearly always pays; else a depth-first
    search, player by player, each amount's ways of paying tried largest bills first, a state that
    failed never tried twice; it prunes a way of paying whose rest the smaller bills cannot
    cover in value or in divisibility, and a position where the rest of the players need more
    of the smallest bill than is left (each needs at least his amount's remainder modulo the
    larger bills' common divisor)."""
    if _greedy(amounts, values, counts):
        return True
    if sum(amounts) > sum(v * c for v, c in zip(values, counts, strict=True)):
        return False
    n = len(values)
    below = [math.gcd(*values[j + 1:]) if j + 1 < n else 0 for j in range(n)]  # 0: nothing below
    coarse = math.gcd(*values[:-1]) if n > 1 else 0  # the larger bills' common divisor
    failed: set[tuple[int, tuple[int, ...]]] = set()

    def smallest_enough(i: int, left: tuple[int, ...]) -> bool:
        if not coarse:
            return True
        need = sum((amount % coarse) // values[-1] for amount in amounts[i:])
        return need <= left[-1]

    def place(i: int, left: tuple[int, ...]) -> bool:
        if i == len(amounts):
            return True
        if (i, left) in failed or not smallest_enough(i, left):
            return False
        for used in _ways(amounts[i], values, left, below):
            if place(i + 1, tuple(c - u for c, u in zip(left, used, strict=True))):
                return True
        failed.add((i, left))
        return False

    return place(0, tuple(counts))


def _greedy(amounts: Sequence[int], values: Sequence[int], counts: Sequence[int]) -> bool:
    """The table's count: each amount in turn, largest bills first, from what is left. When it
    pays every amount, they can be paid (nearly always: it is `fits`'s fast path)."""
    left = list(counts)
    for amount in amounts:
        for j, value in enumerate(values):
            count = min(amount // value, left[j])
            amount -= count * value
            left[j] -= count
        if amount:
            return False
    return True


def _ways(amount: int, values: Sequence[int], left: Sequence[int], below: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """The ways of paying `amount` with at most `left` of each bill, most large bills first."""
    n = len(values)
    room = [sum(values[k] * left[k] for k in range(j + 1, n)) for j in range(n)]  # value of the smaller bills
    used = [0] * n

    def walk(j: int, rest: int) -> Iterable[tuple[int, ...]]:
        if rest == 0:
            yield tuple(used[:j]) + (0,) * (n - j)
            return
        if j == n:
            return
        value = values[j]
        for count in range(min(left[j], rest // value), -1, -1):
            after = rest - count * value
            if after > room[j]:
                break  # fewer of this bill only leaves more for the smaller ones
            if after and (not below[j] or after % below[j]):
                continue
            used[j] = count
            yield from walk(j + 1, after)
        used[j] = 0

    return walk(0, amount)


def printed_money(game: Game, units: dict[str, Fraction] | None = None) -> dict[str, Bills]:
    """Each currency's bills as components.yaml prints them (every money component, times its
    copies), keyed as the probes key money: the asset id under `for_each: asset`, else "" (the
    game's one money); `units`: the least amount a player can hold, per key (default 1)."""
    names: dict[str, str] = {}
    printed: dict[str, dict[Fraction, int]] = {}
    for money in game.components:
        if not isinstance(money, Money):
            continue
        for key, name in _currencies(game, money):
            names.setdefault(key, name)
            bills = printed.setdefault(key, {})
            for bill in money.bills:
                value = Fraction(bill.value).limit_denominator(1000)
                bills[value] = bills.get(value, 0) + bill.count * money.copies
    return {
        key: Bills(key, names[key], tuple(sorted(bills, reverse=True)), tuple(bills[v] for v in sorted(bills, reverse=True)),
                   (units or {}).get(key, Fraction(1)))
        for key, bills in printed.items()
    }


def _currencies(game: Game, money: Money) -> list[tuple[str, str]]:
    """The currencies a money component prints, each as (key, name): one per asset, keyed by
    its id, under `for_each: asset`; else the game's one money, keyed "" and named as printed."""
    if money.for_each == "asset":
        return [(asset.id, asset.id) for asset in game.assets]
    return [("", money.name_en or money.name)]
