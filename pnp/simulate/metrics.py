"""Estimates with 95 % confidence intervals, and the summary of many games.

A rate (a win rate, a share of games) gets a Wilson score interval, which stays inside [0, 1]
and keeps its coverage near 0 and 1 where the normal approximation fails; a shared win counts
as 1/k of a win for each of the k winners. A mean (a length, a margin) gets the normal
interval mean ± 1.96 standard errors. Two runs are compared metric by metric (`difference`):
for rates the Agresti–Caffo interval (one success and one failure added to each side), for
means the standard errors combined, with the p-value of "no change" that Holm's correction
(`holm`) reads when many metrics are compared at once.

Seat balance is judged by one method (`seat_balance`): the gap between the best and the worst
seat, with an interval that holds for every pair of seats at once, so picking the extremes
after the fact does not make it exclude 0 more often; the verdict's sentence and the table
read the same interval. A fair game raises the alarm at most 5 % of the time, not a third of it.

`summarise` turns a `Tally` of the games (`pnp.simulate.tally`) into the nested mapping the
JSON answer, the text table and the report are made from; its leaves are `Estimate`s or plain
numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any, Iterator, Mapping, Sequence

from pnp.bots.probe import Probe
from pnp.simulate.pressure import CANNOT, Bills
from pnp.simulate.tally import Distribution, Tally

Z = 1.959963984540054  # the normal quantile of 97.5 %
ALPHA = 0.05  # every test's false-alarm rate, and 1 − every interval's coverage


@dataclass(frozen=True)
class Estimate:
    """A rate, a mean or a difference, its 95 % interval, and what a comparison needs."""

    value: float
    low: float
    high: float
    n: int
    spread: float  # a rate: its successes; a mean: the sample's standard deviation; a difference: its se
    kind: str  # "rate", "mean" or "difference"
    p_value: float = 1.0  # a difference of two runs: the chance of one this large were nothing changed

    @property
    def se(self) -> float:
        if self.kind == "rate":
            return math.sqrt(self.value * (1 - self.value) / self.n) if self.n else 0.0
        if self.kind == "mean":
            return self.spread / math.sqrt(self.n) if self.n else 0.0
        return self.spread

    def as_json(self) -> dict[str, Any]:
        return {"value": _round(self.value), "ci95": [_round(self.low), _round(self.high)]}


def rate(successes: float | Fraction, n: int) -> Estimate:
    """The Wilson score interval of successes / n (n = 0: no information, [0, 1])."""
    if n == 0:
        return Estimate(0.0, 0.0, 1.0, 0, 0.0, "rate")
    successes = float(successes)
    p = successes / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return Estimate(p, low, high, n, successes, "rate")


def mean(values: Sequence[float]) -> Estimate:
    """The mean and its normal 95 % interval (a single value: no spread known, the value)."""
    distribution = Distribution()
    for value in values:
        distribution.add(value)
    return mean_of(distribution)


def mean_of(distribution: Distribution) -> Estimate:
    """`mean` of a tally's distribution (exact sums, rounded once)."""
    n = distribution.n
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0, 0.0, "mean")
    average, sd = distribution.mean_and_sd()
    half = Z * sd / math.sqrt(n)
    return Estimate(average, average - half, average + half, n, sd, "mean")


def difference(a: Estimate, b: Estimate) -> Estimate:
    """b − a with its 95 % interval, treating the two as independent samples."""
    if a.kind == "rate" and b.kind == "rate":
        pa, pb = (a.spread + 1) / (a.n + 2), (b.spread + 1) / (b.n + 2)
        se = math.sqrt(pa * (1 - pa) / (a.n + 2) + pb * (1 - pb) / (b.n + 2))
        centre = pb - pa
    else:
        se = math.sqrt(a.se**2 + b.se**2)
        centre = b.value - a.value
    low, high = centre - Z * se, centre + Z * se
    if a.kind == "rate" and b.kind == "rate":  # two rates differ by at most 1 either way
        low, high = max(-1.0, low), min(1.0, high)
    if se > 0:
        p = math.erfc(abs(centre) / se / math.sqrt(2))
    else:  # no spread on either side (a length fixed by the rules): a change is certain, or none
        p = 0.0 if b.value != a.value else 1.0
    return Estimate(b.value - a.value, low, high, min(a.n, b.n), se, "difference", p)


# --- the summary of a simulation ---------------------------------------------------------------


def summarise(tally: Tally, bots: Sequence[str], probe: Probe, money: Sequence[Bills], seats: int) -> dict[str, Any]:
    """Every metric of the JSON answer, from the tally of the games."""
    n = tally.games
    wins = tally.seat_wins(seats)
    seat_rates = [rate(wins[seat], n) for seat in range(seats)]
    return {
        "seat_win_rate": [{"seat": seat + 1, "win_rate": estimate} for seat, estimate in enumerate(seat_rates)],
        "seat_balance": seat_balance(tally, seat_rates),
        "bot_win_rate": _bot_rates(tally, bots),
        "length": _lengths(tally, probe.unit),
        "ends": {reason: rate(count, n) for reason, count in sorted(tally.ends.items())},
        "scores": {
            "winner": mean_of(tally.winner),
            "margin": mean_of(tally.margin),
            "gini": mean_of(tally.gini),
            "mid_game_leader_wins": rate(tally.leader_won, tally.judged),
        },
        "components": {
            "money": [_money(tally, k, bills) for k, bills in enumerate(money)],
            "track": {"name": probe.track_name,
                      "marks": {name: {"games": rate(tally.marks_hit[k], n), "per_game": mean_of(tally.marks[k])}
                                for k, name in enumerate(probe.mark_names)}},
            "supplies": {name: {"exhausted": rate(tally.exhausted[k], n), "lowest": tally.lowest[k] or 0}
                         for k, name in enumerate(probe.supply_names)},
        },
    }


def seat_balance(tally: Tally, seat_rates: Sequence[Estimate]) -> dict[str, Any]:
    """The best seat's win rate minus the worst's, with an interval that holds for every pair
    of seats at once (Bonferroni over the k(k − 1)/2 pairs), kept within [0, 1] like every share
    (the gap of the best over the worst is never below 0): the seats are `equal` unless the
    interval, before that bound, lies above 0. Picking the extremes after the fact does not make
    it alarm more often than 5 % of the time when the seats are equal; shared wins and bots
    rotating through the seats only make it more cautious."""
    seats, n = len(seat_rates), tally.games
    if seats < 2 or n == 0:
        return {"seats": [], "gap": Estimate(0.0, 0.0, 0.0, n, 0.0, "difference"), "pairs": 0, "equal": True}
    best = max(range(seats), key=lambda s: seat_rates[s].value)
    worst = min((s for s in range(seats) if s != best), key=lambda s: seat_rates[s].value)
    pairs = seats * (seats - 1) // 2
    gap = seat_rates[best].value - seat_rates[worst].value
    squares = tally.seat_pairs(seats)[(min(best, worst), max(best, worst))]
    se = math.sqrt(max(float(squares) / n - gap * gap, 0.0) / n)
    half = NormalDist().inv_cdf(1 - ALPHA / 2 / pairs) * se
    return {"seats": [best + 1, worst + 1], "pairs": pairs, "equal": gap - half <= 0,
            "gap": Estimate(gap, max(0.0, gap - half), min(1.0, gap + half), n, se, "difference")}


def _bot_rates(tally: Tally, bots: Sequence[str]) -> dict[str, Any]:
    """Per bot, the win rate of a seat it plays (a bot in two seats of a game is two tries)."""
    tries, wins = tally.bot_seats(len(bots))
    return {name: {"seats": tries[k], "win_rate": rate(wins[k], tries[k])} for k, name in enumerate(bots)}


def _lengths(tally: Tally, unit: str) -> dict[str, Any]:
    lengths, steps = tally.length, tally.steps
    return {
        "unit": unit,
        "mean": mean_of(lengths),
        "histogram": {str(k): v for k, v in lengths.ordered()},
        "percentiles": {f"p{q}": lengths.quantile(q / 100) for q in (5, 50, 95)},
        "steps": {"mean": mean_of(steps), "min": steps.low or 0, "max": steps.high or 0},
    }


def _money(tally: Tally, k: int, bills: Bills) -> dict[str, Any]:
    """One currency: the most money in players' hands at once per game against the printed
    total; the share of games the printed bills could not pay (`pressure`); per denomination
    the bills of it to add so that they could (99th percentile and most, over the games), and
    the fix: the denomination that does it with the fewest bills."""
    n, kept = tally.games, tally.money[k]
    denominations: list[dict[str, Any]] = []
    for d, (value, count) in enumerate(zip(bills.denominations, bills.printed, strict=True)):
        added = kept.bills[d]
        denominations.append({"value": _number(value), "printed": count, "add_p99": _added(added, 0.99),
                              "add_max": _added(added, 1.0)})
    return {
        "currency": bills.currency or bills.name, "printed": _number(bills.total),
        "p99_in_hands": kept.total.quantile(0.99), "max_in_hands": kept.total.high or 0.0,
        "short": rate(kept.short, n), "fix": _fix(denominations) if kept.short else None,
        "denominations": denominations,
    }


def _added(counts: Distribution, q: float) -> int | None:
    """The q-quantile of the games' counts of bills to add, or None where it reaches a game no
    number of them would pay (`CANNOT`)."""
    finite = max((value for value in counts.counts if value < CANNOT), default=0)
    found = counts.quantile(q)
    return None if found > finite else math.ceil(found)


def _fix(denominations: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The denomination that pays every game but the 1 % hardest with the fewest added bills
    (the smaller of equals: it makes more change), and how many; where the 99th percentile is
    0 (the short games are fewer than 1 %), what pays every game simulated."""
    def count(d: dict[str, Any]) -> int | None:
        added: int | None = d["add_p99"] or d["add_max"]
        return added

    usable = [d for d in denominations if count(d) is not None]
    if not usable:
        return None
    best = min(usable, key=lambda d: (count(d), d["value"]))
    return {"value": best["value"], "add": count(best), "every_game": not best["add_p99"]}


# --- tests of a summary ------------------------------------------------------------------------


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> list[bool]:
    """Holm's step-down correction: which of several tests stand at a family-wise error rate of
    `alpha` (comparing 30 metrics at 5 % each would star one or two by chance alone)."""
    order = sorted(range(len(p_values)), key=lambda k: p_values[k])
    standing = [False] * len(p_values)
    for rank, k in enumerate(order):
        if p_values[k] > alpha / (len(p_values) - rank):
            break
        standing[k] = True
    return standing


# --- walking a summary ---------------------------------------------------------------------------


def estimates(summary: Any, path: str = "") -> Iterator[tuple[str, Estimate]]:
    """Every estimate in a summary with its path, e.g. ("seat_win_rate[1].win_rate", …)."""
    if isinstance(summary, Estimate):
        yield path, summary
    elif isinstance(summary, Mapping):
        for key, value in summary.items():
            yield from estimates(value, f"{path}.{key}" if path else str(key))
    elif isinstance(summary, list):
        for k, value in enumerate(summary):
            label = next((value[key] for key in ("seat", "currency", "value") if key in value), k) \
                if isinstance(value, Mapping) else k
            yield from estimates(value, f"{path}[{label}]")


def jsonable(summary: Any) -> Any:
    """The summary as plain JSON data: each estimate as {"value", "ci95"}, numbers rounded."""
    if isinstance(summary, Estimate):
        return summary.as_json()
    if isinstance(summary, Mapping):
        return {key: jsonable(value) for key, value in summary.items()}
    if isinstance(summary, (list, tuple)):
        return [jsonable(value) for value in summary]
    if isinstance(summary, float):
        return _round(summary)
    return summary


def _round(value: float) -> float | int:
    rounded = round(value, 4)
    return int(rounded) if rounded == int(rounded) and abs(rounded) < 1e15 else rounded


def _number(value: Any) -> float | int:
    return _round(float(value))
