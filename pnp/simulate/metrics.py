"""Estimates with 95 % confidence intervals, and the summary of many games.

A rate (a win rate, a share of games) gets a Wilson score interval, which stays inside [0, 1]
and keeps its coverage near 0 and 1 where the normal approximation fails; a shared win counts
as 1/k of a win for each of the k winners. A mean (a length, a margin) gets the normal
interval mean ± 1.96 standard errors. Two runs are compared metric by metric (`difference`):
for rates the Agresti–Caffo interval (one success and one failure added to each side), for
means the standard errors combined; a difference is significant when its interval excludes 0.

`summarise` turns a list of `GameResult`s into the nested mapping the JSON answer, the text
table and the report are made from; its leaves are `Estimate`s or plain numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from pnp.simulate.play import GameResult
from pnp.simulate.pressure import Bills
from pnp.simulate.probe import Probe

Z = 1.959963984540054  # the normal quantile of 97.5 %


@dataclass(frozen=True)
class Estimate:
    """A rate, a mean or a difference, its 95 % interval, and what a comparison needs."""

    value: float
    low: float
    high: float
    n: int
    spread: float  # a rate: its successes; a mean: the sample's standard deviation; a difference: its se
    kind: str  # "rate", "mean" or "difference"

    @property
    def se(self) -> float:
        if self.kind == "rate":
            return math.sqrt(self.value * (1 - self.value) / self.n) if self.n else 0.0
        if self.kind == "mean":
            return self.spread / math.sqrt(self.n) if self.n else 0.0
        return self.spread

    def as_json(self) -> dict[str, Any]:
        return {"value": _round(self.value), "ci95": [_round(self.low), _round(self.high)]}


def rate(successes: float, n: int) -> Estimate:
    """The Wilson score interval of successes / n (n = 0: no information, [0, 1])."""
    if n == 0:
        return Estimate(0.0, 0.0, 1.0, 0, 0.0, "rate")
    p = successes / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return Estimate(p, low, high, n, successes, "rate")


def mean(values: Sequence[float]) -> Estimate:
    """The mean and its normal 95 % interval (a single value: no spread known, the value)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0, 0.0, "mean")
    average = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - average) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
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
    return Estimate(b.value - a.value, low, high, min(a.n, b.n), se, "difference")


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile with linear interpolation between order statistics (numpy's default)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def gini(values: Sequence[float]) -> float:
    """The Gini coefficient: 0 when everyone ends equal, towards 1 when one holds all."""
    n, total = len(values), math.fsum(values)
    if n == 0 or total <= 0:
        return 0.0
    ordered = sorted(values)
    weighted = math.fsum((2 * (i + 1) - n - 1) * v for i, v in enumerate(ordered))
    return weighted / (n * total)


# --- the summary of a simulation ---------------------------------------------------------------


def summarise(results: Sequence[GameResult], bots: Sequence[str], probe: Probe, money: Sequence[Bills]) -> dict[str, Any]:
    """Every metric of the JSON answer, from the games' results (in order)."""
    n = len(results)
    seats = len(results[0].scores) if results else 0
    shares = [_win_shares(result) for result in results]
    seat_rates = [rate(sum(share.get(seat, 0.0) for share in shares), n) for seat in range(seats)]
    return {
        "seat_win_rate": [{"seat": seat + 1, "win_rate": estimate} for seat, estimate in enumerate(seat_rates)],
        "balance_gap": _gap(seat_rates),
        "bot_win_rate": _bot_rates(results, shares, bots),
        "length": _lengths(results, probe.unit),
        "ends": {reason: rate(count, n) for reason, count in sorted(Counter(r.reason for r in results).items())},
        "scores": _scores(results),
        "components": {
            "money": [_money(results, k, bills) for k, bills in enumerate(money)],
            "track": _track(results, probe),
            "supplies": {name: {"exhausted": rate(sum(r.supplies[k] <= 0 for r in results), n),
                                "lowest": min((r.supplies[k] for r in results), default=0)}
                         for k, name in enumerate(probe.supply_names)},
        },
    }


def _win_shares(result: GameResult) -> dict[int, float]:
    return {seat: 1 / len(result.winners) for seat in result.winners}


def _gap(seat_rates: Sequence[Estimate]) -> dict[str, Any]:
    """The largest difference between two seats' win rates: the best seat against the worst
    (its interval is the pair's, not corrected for having picked the extremes)."""
    if len(seat_rates) < 2:
        return {"seats": [], "gap": rate(0, 0)}
    best = max(range(len(seat_rates)), key=lambda s: seat_rates[s].value)
    worst = min(range(len(seat_rates)), key=lambda s: seat_rates[s].value)
    return {"seats": [best + 1, worst + 1], "gap": difference(seat_rates[worst], seat_rates[best])}


def _bot_rates(results: Sequence[GameResult], shares: Sequence[dict[int, float]], bots: Sequence[str]) -> dict[str, Any]:
    """Per bot, the win rate of a seat it plays (a bot in two seats of a game is two tries)."""
    tries, wins = Counter[int](), dict.fromkeys(range(len(bots)), 0.0)
    for result, share in zip(results, shares):
        for seat, bot in enumerate(result.bots):
            tries[bot] += 1
            wins[bot] += share.get(seat, 0.0)
    return {name: {"seats": tries[k], "win_rate": rate(wins[k], tries[k])} for k, name in enumerate(bots)}


def _lengths(results: Sequence[GameResult], unit: str) -> dict[str, Any]:
    lengths = [r.length for r in results]
    steps = [r.steps for r in results]
    return {
        "unit": unit,
        "mean": mean(lengths),
        "histogram": {str(k): v for k, v in sorted(Counter(lengths).items())},
        "percentiles": {f"p{q}": quantile(lengths, q / 100) for q in (5, 50, 95)},
        "steps": {"mean": mean(steps), "min": min(steps, default=0), "max": max(steps, default=0)},
    }


def _scores(results: Sequence[GameResult]) -> dict[str, Any]:
    """The winner's score and margin over the runner-up, the Gini of final scores, and how
    often a player ahead at mid-game (by the probe's worth) is among the winners."""
    best = [max(r.scores) for r in results]
    margins = [ordered[-1] - ordered[-2] for ordered in (sorted(r.scores) for r in results) if len(ordered) > 1]
    judged = [r for r in results if r.mid_leaders]
    return {
        "winner": mean(best),
        "margin": mean(margins),
        "gini": mean([gini(r.scores) for r in results]),
        "mid_game_leader_wins": rate(sum(bool(set(r.mid_leaders) & set(r.winners)) for r in judged), len(judged)),
    }


def _money(results: Sequence[GameResult], k: int, bills: Bills) -> dict[str, Any]:
    """One currency: the peak money in players' hands per game against the printed total,
    and per denomination the peak bills needed against the printed count."""
    n = len(results)
    totals = [r.money[k][0] for r in results]
    printed = float(bills.total)
    denominations = []
    for d, (value, count) in enumerate(zip(bills.values, bills.counts)):
        needed = [r.money[k][1][d] for r in results]
        denominations.append({
            "value": _number(value), "printed": count, "p99_in_hands": quantile(needed, 0.99),
            "max_in_hands": max(needed, default=0), "short": rate(sum(x > count for x in needed), n),
        })
    return {
        "currency": bills.currency or bills.name, "printed": _number(printed),
        "p99_in_hands": quantile(totals, 0.99), "max_in_hands": max(totals, default=0.0),
        "short": rate(sum(total > printed for total in totals), n),
        "denominations": denominations,
    }


def _track(results: Sequence[GameResult], probe: Probe) -> dict[str, Any]:
    """How often the track reaches each mark: the share of games where it does at all, and
    the mean number of times per game."""
    n = len(results)
    return {
        "name": probe.track_name,
        "marks": {name: {"games": rate(sum(r.marks[k] > 0 for r in results), n),
                         "per_game": mean([r.marks[k] for r in results])}
                  for k, name in enumerate(probe.mark_names)},
    }


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
