"""Mergeable summaries of many games: what a worker sends back instead of a result per game.

A chunk of games is folded into a `Tally` as it is played: counts (who won from which seat
with which bot, how games ended), and for every number a game leaves (its length, the winner's
margin, the money in hands) a `Distribution` — how many games gave each value, and the exact
sum and sum of squares. Two tallies merge by adding their counts, exactly (whole numbers and
fractions, never rounded floats), so the answer is the same whatever way the chunks are
grouped: one process, a pool, Dask, or shards of a job array merged later
(`pnp simulate merge`). A tally's size depends on how many different values the games give,
not on how many games there were: ten million games take the memory of ten thousand.

Values are counted under a key (`key`): a whole number or a multiple of 1/64 below 100,000 as
itself (lengths, counts of bills, money in halves), anything else to five significant digits,
so a distribution of a continuous value (the Gini of the scores) stays a few thousand keys. The
means come from the exact sums, not from the keys.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Sequence

from pnp.simulate.play import GameResult
from pnp.simulate.pressure import Bills

EXACT_BELOW = 100_000  # |value| below which a whole number or a multiple of 1/64 is its own key
SCALE = 64  # sums are kept in whole numbers of 1/SCALE where they can be
GINI_GRID = 2**20  # a game's Gini is kept to about a millionth, a multiple of 1/GINI_GRID (its exact sum is cheap)
FORMAT = 2  # the version of `Tally.as_json`, which shards carry to the merge (2: bills to add, not bills held)

Key = int | float


def key(value: float) -> Key:
    """The histogram key of a value (see the module's docstring)."""
    if abs(value) < EXACT_BELOW:
        if value == int(value):
            return int(value)
        if (value * SCALE).is_integer():
            return value
    return float(f"{value:.5g}")


class Distribution:
    """The values of one number over many games: a count per key, the exact sum and sum of
    squares, the count, the least and the greatest value. Sums are kept as whole numbers of
    1/64 (`SCALE`) for the values that are such (whole numbers, halves: nearly all), cheap to
    add, and as fractions for the others."""

    __slots__ = ("scale", "counts", "n", "scaled", "scaled_squares", "parts", "part_squares", "low", "high")

    def __init__(self, scale: int = SCALE) -> None:
        self.scale = scale
        self.counts: Counter[Key] = Counter()
        self.n = 0
        self.scaled = self.scaled_squares = 0  # Σ 64·v and Σ (64·v)² over the values that are whole in 1/64
        self.parts = self.part_squares = Fraction(0)  # Σ v and Σ v² over the others
        self.low: float | None = None
        self.high: float | None = None

    def add(self, value: float) -> None:
        self.counts[key(value)] += 1
        self.n += 1
        scaled = value * self.scale
        if scaled == int(scaled):
            whole = int(scaled)
            self.scaled += whole
            self.scaled_squares += whole * whole
        else:
            exact = Fraction(value)
            self.parts += exact
            self.part_squares += exact * exact
        self._reach(value, value)

    def extend(self, values: Sequence[float]) -> None:
        """`add` each of `values`, in bulk: the common case (every value a whole number of 1/64
        below `EXACT_BELOW`) in a few passes of built-in functions, a chunk's values at once."""
        if not values:
            return
        scaled = [value * self.scale for value in values]
        whole = [int(s) for s in scaled]
        low, high = min(values), max(values)
        if whole != scaled or not -EXACT_BELOW < low <= high < EXACT_BELOW:
            for value in values:
                self.add(value)
            return
        self.counts.update([int(v) if v == int(v) else v for v in values])
        self.n += len(values)
        self.scaled += sum(whole)
        self.scaled_squares += sum([w * w for w in whole])
        self._reach(low, high)

    def _reach(self, low: float, high: float) -> None:
        """The least and the greatest value seen widened to take in low…high."""
        if self.low is None or low < self.low:
            self.low = low
        if self.high is None or high > self.high:
            self.high = high

    def merge(self, other: Distribution) -> None:
        if other.scale != self.scale:
            raise ValueError(f"distributions kept in 1/{self.scale} and 1/{other.scale} do not add up")
        self.counts.update(other.counts)
        self.n += other.n
        self.scaled += other.scaled
        self.scaled_squares += other.scaled_squares
        self.parts += other.parts
        self.part_squares += other.part_squares
        if other.low is not None and (self.low is None or other.low < self.low):
            self.low = other.low
        if other.high is not None and (self.high is None or other.high > self.high):
            self.high = other.high

    @property
    def total(self) -> Fraction:
        return Fraction(self.scaled, self.scale) + self.parts

    @property
    def squares(self) -> Fraction:
        return Fraction(self.scaled_squares, self.scale * self.scale) + self.part_squares

    def mean_and_sd(self) -> tuple[float, float]:
        """The mean and the sample standard deviation, computed exactly and rounded once."""
        if self.n == 0:
            return 0.0, 0.0
        average = self.total / self.n
        if self.n == 1:
            return float(average), 0.0
        variance = (self.squares - self.n * average * average) / (self.n - 1)
        return float(average), float(variance) ** 0.5

    def quantile(self, q: float) -> float:
        """The q-quantile with linear interpolation between order statistics (numpy's default),
        read off the counts."""
        if self.n == 0:
            return 0.0
        ordered, position = self.ordered(), q * (self.n - 1)
        below = int(position)
        low, high = _at(ordered, below), _at(ordered, min(below + 1, self.n - 1))
        return low + (high - low) * (position - below)

    def ordered(self) -> list[tuple[Key, int]]:
        return sorted(self.counts.items())

    def at_least(self, threshold: float) -> int:
        """How many games gave a key above `threshold`."""
        return sum(count for value, count in self.counts.items() if value > threshold)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Distribution) and self.as_json() == other.as_json()

    def as_json(self) -> dict[str, Any]:
        return {"scale": self.scale, "counts": [[value, count] for value, count in self.ordered()], "n": self.n,
                "scaled": [self.scaled, self.scaled_squares], "parts": [_fraction(self.parts), _fraction(self.part_squares)],
                "range": [self.low, self.high]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Distribution:
        made = cls(data["scale"])
        made.counts = Counter({value: count for value, count in data["counts"]})
        made.n = data["n"]
        made.scaled, made.scaled_squares = data["scaled"]
        made.parts, made.part_squares = (Fraction(text) for text in data["parts"])
        made.low, made.high = data["range"]
        return made


def _at(ordered: list[tuple[Key, int]], rank: int) -> float:
    """The value of the order statistic `rank` (0-based)."""
    seen = 0
    for value, count in ordered:
        seen += count
        if rank < seen:
            return float(value)
    return float(ordered[-1][0])


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


@dataclass
class Money:
    """One printed currency over many games: each game's peak money in hands, how many games
    the printed bills could not pay, and per denomination (`Bills.denominations`) each game's
    count of bills of it to add so that they could (`pressure.CANNOT`: none would)."""

    total: Distribution = field(default_factory=Distribution)
    short: int = 0
    bills: list[Distribution] = field(default_factory=list)

    def merge(self, other: Money) -> None:
        self.total.merge(other.total)
        self.short += other.short
        for mine, theirs in zip(self.bills, other.bills, strict=True):
            mine.merge(theirs)

    def as_json(self) -> dict[str, object]:
        return {"total": self.total.as_json(), "short": self.short, "bills": [d.as_json() for d in self.bills]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Money:
        return cls(Distribution.from_json(data["total"]), data["short"], [Distribution.from_json(d) for d in data["bills"]])


@dataclass
class Tally:
    """Everything the summary of a simulation needs, for any number of games (see the module's
    docstring). `seats` counts games by (bot per seat, winning seats); the rest by number."""

    games: int = 0
    seats: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=Counter)
    ends: Counter[str] = field(default_factory=Counter)
    length: Distribution = field(default_factory=Distribution)
    steps: Distribution = field(default_factory=Distribution)
    winner: Distribution = field(default_factory=Distribution)  # the winning score
    margin: Distribution = field(default_factory=Distribution)  # over the runner-up
    gini: Distribution = field(default_factory=lambda: Distribution(GINI_GRID))  # of the final scores
    judged: int = 0  # games whose mid-game leader is known
    leader_won: int = 0  # … of which a mid-game leader won
    marks_hit: list[int] = field(default_factory=list)  # per mark: games where the track reached it
    marks: list[Distribution] = field(default_factory=list)  # per mark: times per game
    money: list[Money] = field(default_factory=list)  # per printed currency
    exhausted: list[int] = field(default_factory=list)  # per supply: games that emptied it
    lowest: list[int | None] = field(default_factory=list)  # per supply: the least it fell to
    tracks: list[tuple[int, tuple[tuple[float, ...], ...]]] = field(default_factory=list)  # (game, track), first games

    @classmethod
    def empty(cls, marks: int, printed: Sequence[Bills], supplies: int) -> Tally:
        return cls(marks_hit=[0] * marks, marks=[Distribution() for _ in range(marks)],
                   money=[Money(bills=[Distribution() for _ in bills.denominations]) for bills in printed],
                   exhausted=[0] * supplies, lowest=[None] * supplies)

    def merge(self, other: Tally) -> Tally:
        """Add `other`'s games to this tally (in place; returned for folding)."""
        if not self.games:
            self._shaped_like(other)
        if not other.games:
            return self
        self.games += other.games
        self.seats.update(other.seats)
        self.ends.update(other.ends)
        for mine, theirs in ((self.length, other.length), (self.steps, other.steps), (self.winner, other.winner),
                             (self.margin, other.margin), (self.gini, other.gini)):
            mine.merge(theirs)
        self.judged += other.judged
        self.leader_won += other.leader_won
        for k, distribution in enumerate(other.marks):
            self.marks_hit[k] += other.marks_hit[k]
            self.marks[k].merge(distribution)
        for mine_money, theirs_money in zip(self.money, other.money, strict=True):
            mine_money.merge(theirs_money)
        for k, left in enumerate(other.lowest):
            self.exhausted[k] += other.exhausted[k]
            low = self.lowest[k]
            self.lowest[k] = left if low is None else low if left is None else min(low, left)
        self.tracks = sorted(self.tracks + other.tracks, key=lambda kept: kept[0])
        return self

    def _shaped_like(self, other: Tally) -> None:
        """No games yet: as many marks, currencies, denominations and supplies as `other`
        counts, all empty (a tally made by `Tally()` knows none of them)."""
        self.marks_hit, self.exhausted = [0] * len(other.marks_hit), [0] * len(other.exhausted)
        self.marks = [Distribution() for _ in other.marks]
        self.money = [Money(bills=[Distribution() for _ in m.bills]) for m in other.money]
        self.lowest = [None] * len(other.lowest)

    # --- what the summary reads -------------------------------------------------------------

    def seat_wins(self, seats: int) -> list[Fraction]:
        """Each seat's wins, a shared win counting 1/k to each of its k winners."""
        wins = [Fraction(0)] * seats
        for (_, winners), count in self.seats.items():
            for seat in winners:
                wins[seat] += Fraction(count, len(winners))
        return wins

    def seat_pairs(self, seats: int) -> dict[tuple[int, int], Fraction]:
        """For each pair of seats s < t, the sum over games of (share of s − share of t)²: what
        the variance of the difference of their win rates is estimated from."""
        found = {(s, t): Fraction(0) for s in range(seats) for t in range(s + 1, seats)}
        for (_, winners), count in self.seats.items():
            share = Fraction(1, len(winners)) if winners else Fraction(0)
            for s, t in found:
                gap = share * ((s in winners) - (t in winners))
                if gap:
                    found[(s, t)] += count * gap * gap
        return found

    def bot_seats(self, bots: int) -> tuple[list[int], list[Fraction]]:
        """Per bot, the seats it played over all games and the wins of those seats."""
        tries, wins = [0] * bots, [Fraction(0)] * bots
        for (seated, winners), count in self.seats.items():
            for seat, bot in enumerate(seated):
                tries[bot] += count
                if seat in winners:
                    wins[bot] += Fraction(count, len(winners))
        return tries, wins

    # --- as JSON, for shards ----------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        """Plain JSON data that `from_json` reads back into an equal tally (floats as Python
        writes them, which read back exactly; fractions as "p/q")."""
        return {
            "format": FORMAT, "games": self.games,
            "seats": sorted([list(bots), list(winners), count] for (bots, winners), count in self.seats.items()),
            "ends": dict(sorted(self.ends.items())),
            **{name: getattr(self, name).as_json() for name in ("length", "steps", "winner", "margin", "gini")},
            "leader": [self.judged, self.leader_won],
            "marks": [[hit, distribution.as_json()] for hit, distribution in zip(self.marks_hit, self.marks, strict=True)],
            "money": [m.as_json() for m in self.money],
            "supplies": [[exhausted, low] for exhausted, low in zip(self.exhausted, self.lowest, strict=True)],
            "tracks": [[index, [list(values) for values in track]] for index, track in self.tracks],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        if data.get("format") != FORMAT:
            raise ValueError(f"a tally of format {data.get('format')!r}, not {FORMAT}")
        return cls(
            games=data["games"],
            seats=Counter({(tuple(bots), tuple(winners)): count for bots, winners, count in data["seats"]}),
            ends=Counter(data["ends"]),
            **{name: Distribution.from_json(data[name]) for name in ("length", "steps", "winner", "margin", "gini")},
            judged=data["leader"][0], leader_won=data["leader"][1],
            marks_hit=[hit for hit, _ in data["marks"]], marks=[Distribution.from_json(d) for _, d in data["marks"]],
            money=[Money.from_json(m) for m in data["money"]],
            exhausted=[exhausted for exhausted, _ in data["supplies"]], lowest=[low for _, low in data["supplies"]],
            tracks=[(index, tuple(tuple(values) for values in track)) for index, track in data["tracks"]],
        )


class Fold:
    """A chunk's games folded into a `Tally`: each game's numbers appended to a column as it ends,
    the columns counted at once when the chunk is done (`tally`), with built-in functions: a
    few microseconds a game where adding each number on its own cost ten times that."""

    def __init__(self, printed: Sequence[Bills], marks: int, supplies: int):
        self.made = Tally.empty(marks, printed, supplies)
        self.columns: dict[str, list[float]] = {name: [] for name in ("length", "steps", "winner", "margin", "gini")}
        self.marks: list[list[int]] = [[] for _ in range(marks)]
        self.totals: list[list[float]] = [[] for _ in printed]
        self.bills: list[list[list[int]]] = [[[] for _ in bills.denominations] for bills in printed]

    def add(self, result: GameResult) -> None:
        """Fold one finished game in."""
        made, columns = self.made, self.columns
        made.games += 1
        made.seats[(result.bots, tuple(sorted(result.winners)))] += 1
        made.ends[result.reason] += 1
        columns["length"].append(result.length)
        columns["steps"].append(result.steps)
        self._add_scores(sorted(result.scores))
        if result.mid_leaders:
            made.judged += 1
            made.leader_won += not set(result.mid_leaders).isdisjoint(result.winners)
        for k, times in enumerate(result.marks):
            self.marks[k].append(times)
            if times:
                made.marks_hit[k] += 1
        for c, (peak, to_add) in enumerate(result.money):
            self.totals[c].append(peak)
            made.money[c].short += to_add[0] != 0  # a hand the printed bills could not pay
            for d, count in enumerate(to_add):
                self.bills[c][d].append(count)
        for k, left in enumerate(result.supplies):
            made.exhausted[k] += left <= 0
            low = made.lowest[k]
            made.lowest[k] = left if low is None else min(low, left)
        if result.track:
            made.tracks.append((result.index, result.track))

    def _add_scores(self, scores: Sequence[float]) -> None:
        """A game's final scores, in order: the winner's, their Gini, the margin over the
        runner-up (a game without scores or with one player gives no margin)."""
        if scores:
            self.columns["winner"].append(scores[-1])
            self.columns["gini"].append(round(gini(scores) * GINI_GRID) / GINI_GRID)
        if len(scores) > 1:
            self.columns["margin"].append(scores[-1] - scores[-2])

    def tally(self) -> Tally:
        """The games folded so far, counted (the fold is spent)."""
        made = self.made
        for name, values in self.columns.items():
            getattr(made, name).extend(values)
        for distribution, times in zip(made.marks, self.marks, strict=True):
            distribution.extend(times)
        for money, totals, bills in zip(made.money, self.totals, self.bills, strict=True):
            money.total.extend(totals)
            for distribution, counts in zip(money.bills, bills, strict=True):
                distribution.extend(counts)
        return made


def tally(results: Iterable[GameResult], printed: Sequence[Bills], marks: int = 0, supplies: int = 0) -> Tally:
    """The tally of some games (a chunk in a worker; hand-made results in tests)."""
    fold: Fold | None = None
    for result in results:
        if fold is None:
            fold = Fold(printed, max(marks, len(result.marks)), max(supplies, len(result.supplies)))
        fold.add(result)
    return fold.tally() if fold is not None else Tally.empty(marks, printed, supplies)


def merged(tallies: Iterable[Tally]) -> Tally:
    """The tallies added up, in any order (the sum is exact)."""
    total = Tally()
    for one in tallies:
        total.merge(one)
    return total


def gini(values: Sequence[float]) -> float:
    """The Gini coefficient: 0 when everyone ends equal, towards 1 when one holds all."""
    n, total = len(values), math.fsum(values)
    if n == 0 or total <= 0:
        return 0.0
    ordered = sorted(values)
    weighted = math.fsum((2 * (i + 1) - n - 1) * v for i, v in enumerate(ordered))
    return weighted / (n * total)
