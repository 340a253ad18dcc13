"""The search of `pnp tune`: which candidate house-rule values meet the targets, and which come
closest, within a budget of games.

Three steps, all on the same seeds (common random numbers: the candidates' differences are the
rules', not the dice's):

1. coarse: successive halving over the candidates — every one plays a first share of half the
   budget (all of it when no range has values between its candidates), the better half by the
   targets a second share, and so on;
2. refinement: around the best, along each range, the values halfway to its neighbours, then
   halfway again around the new best, until the step is 1 for whole numbers, or for decimals
   until the neighbours' estimates lie within the best's interval (the simulation cannot tell
   them apart any finer);
3. the edges: from every value that meets every target, its neighbours one step away, until
   the values that meet are surrounded by values that do not; and the values whose estimates
   lie inside the targets but not yet their intervals ("likely") play more games, so that a
   value that meets the targets is found to (a few times over, within the budget).

How far a candidate is from the targets (`Target.miss`) is the sum over targets of its distance
outside each, in units of its tolerance (or its bound), plus a hundredth of its distance from a
target's centre (of two that both meet it, the more central is closer).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from pnp.errors import UsageError
from pnp.i18n import N_
from pnp.simulate.metrics import Estimate, rate
from pnp.simulate.runner import CHUNK_GAMES, Setup, chunks, run_each
from pnp.simulate.simulation import Run, finish
from pnp.simulate.tally import Tally

MOST_VALUES = 16  # candidates of one --vary
CENTRE_WEIGHT = 0.01  # of a target's distance from its centre, added to break ties
COARSE_SHARE = 0.5  # of the budget, for the coarse search when there is a range to refine
PLANNED = 8  # refinement and edge candidates the rest of the budget is shared among, at first
FINEST = 256  # a range of decimals is refined to at most 1/FINEST of its width
MOST_EDGES = 3 * MOST_VALUES  # candidates the edges may add
SETTLE_ROUNDS = 4  # times the likely values play more, and the edges of what meets are looked at again


def _largest(estimates: Sequence[Estimate]) -> Estimate:
    return max(estimates, key=lambda e: e.value) if estimates else rate(0, 0)


def _shortage(summary: dict[str, Any]) -> Estimate:
    """The share of games the printed money cannot pay, for the currency it happens most to."""
    return _largest([m["short"] for m in summary["components"]["money"]])


METRICS: dict[str, tuple[str, Callable[[dict[str, Any]], Estimate]]] = {
    "length": ("the mean game length, in the game's unit (rounds, turns)", lambda s: s["length"]["mean"]),
    "steps": ("the mean number of actions a game", lambda s: s["length"]["steps"]["mean"]),
    "seat_gap": ("the best seat's win rate minus the worst's", lambda s: s["seat_balance"]["gap"]),
    "first_seat": ("the first seat's win rate", lambda s: s["seat_win_rate"][0]["win_rate"]),
    "margin": ("the winner's mean lead over the runner-up", lambda s: s["scores"]["margin"]),
    "winner": ("the mean winning score", lambda s: s["scores"]["winner"]),
    "gini": ("the mean inequality of the final scores (Gini)", lambda s: s["scores"]["gini"]),
    "leader": ("the share of games the mid-game leader wins", lambda s: s["scores"]["mid_game_leader_wins"]),
    "short": ("the share of games the printed money cannot pay (the currency it happens most to)", _shortage),
}
STATUSES = {"met": N_("met"), "likely": N_("likely"), "missed": N_("missed")}  # a target's, as the verdict says it
PREFIXED = {"ends.": "the share of games ending so (ends.REASON)", "bot.": "a bot's win rate per seat (bot.NAME)"}


@dataclass(frozen=True)
class Target:
    """What one metric should come to: `op` "=" (within `tolerance` of `value`), "<" or ">"."""

    metric: str
    op: str
    value: float
    tolerance: float = 0.0

    def measure(self, summary: dict[str, Any]) -> Estimate:
        estimate: Estimate
        if self.metric.startswith("ends."):
            reason = self.metric[len("ends."):]
            estimate = summary["ends"].get(reason, rate(0, summary["length"]["mean"].n))
        elif self.metric.startswith("bot."):
            estimate = summary["bot_win_rate"][self.metric[len("bot."):]]["win_rate"]
        else:
            estimate = METRICS[self.metric][1](summary)
        return estimate

    @property
    def unit(self) -> float:
        return self.tolerance if self.op == "=" else abs(self.value) or 1.0

    def miss(self, measured: float) -> float:
        """How far `measured` is from the target, in units of its tolerance (or its bound): 0
        inside it, plus a small pull towards its centre (or away from its bound)."""
        if self.op == "=":
            off = abs(measured - self.value)
            return max(0.0, off - self.tolerance) / self.unit + CENTRE_WEIGHT * off / self.unit
        beyond = measured - self.value if self.op == "<" else self.value - measured
        return max(0.0, beyond) / self.unit + CENTRE_WEIGHT * beyond / self.unit

    def inside(self, x: float) -> bool:
        if self.op == "=":
            return abs(x - self.value) <= self.tolerance
        return x <= self.value if self.op == "<" else x >= self.value

    def side(self, x: float) -> int:
        """-1 below the target's band (its value for a bound), 1 above it, 0 on it."""
        if x < self.value - self.tolerance:
            return -1
        return 1 if x > self.value + self.tolerance else 0

    def status(self, estimate: Estimate) -> str:
        """"met" (the interval inside the target), "likely" (the estimate inside), or "missed"."""
        if self.inside(estimate.low) and self.inside(estimate.high):
            return "met"
        return "likely" if self.inside(estimate.value) else "missed"

    def __str__(self) -> str:
        return f"{self.metric}{'=' if self.op == '=' else self.op}{self.value:g}" + \
            (f"±{self.tolerance:g}" if self.op == "=" else "")


@dataclass(frozen=True)
class Vary:
    """One house rule searched: its candidates, and for a range its ends (refined between)."""

    key: str
    values: tuple[Any, ...]
    span: tuple[float, float] | None = None  # a range's ends; None: a list of values
    whole: bool = True  # the range's values are whole numbers


@dataclass
class Arm:
    """One candidate: its house rules, its setup and the games it has played so far."""

    values: dict[str, Any]
    setup: Setup
    tally: Tally
    run: Run | None = None
    out_in_round: int | None = None  # the round after which it was dropped (None: still in)
    miss: float = math.inf
    step: str = "coarse"  # the search step that tried it: coarse, refine or edge


# --- the search -------------------------------------------------------------------------------------


Make = Callable[[dict[str, Any]], Arm]  # the candidate of some house rules' values (UsageError: the engine refuses it)


@dataclass
class Search:
    """The candidates tried so far, the games spent, and how to play more of them."""

    targets: Sequence[Target]
    budget: int
    seed: int
    workers: int
    progress: Callable[[int], None] | None
    arms: list[Arm] = field(default_factory=list)
    spent: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

    def play(self, arms: Sequence[Arm], games: int, step: str) -> None:
        """Each of `arms` played up to `games` games (the same seeds for all: the chunks from
        the first), then measured against the targets."""
        jobs = [chunk for arm in arms for chunk in chunks(arm.setup, games, self.seed,
                                                          numbers=range(arm.tally.games // CHUNK_GAMES,
                                                                        -(-games // CHUNK_GAMES)))]
        tallies = run_each(iter(jobs), workers=self.workers, progress=self.progress)
        for arm in arms:
            before = arm.tally.games
            arm.tally.merge(tallies.get(arm.setup, Tally()))
            self.spent += arm.tally.games - before
            arm.run = finish(arm.setup, arm.tally.games, self.seed, arm.tally)
            arm.miss = sum(target.miss(target.measure(arm.run.summary).value) for target in self.targets)
            if arm not in self.arms:
                self.arms.append(arm)
        self.history.append({"step": step, "candidates": len(arms), "games_each": games})

    @property
    def left(self) -> int:
        return self.budget - self.spent

    def meets(self, arm: Arm) -> bool:
        return arm.run is not None and all(t.status(t.measure(arm.run.summary)) == "met" for t in self.targets)

    def best(self) -> Arm:
        return min(self.arms, key=lambda arm: arm.miss)


def search(arms: list[Arm], targets: Sequence[Target], budget: int, seed: int, *, workers: int = 0,
           varies: Sequence[Vary] = (), make: Make | None = None,
           progress: Callable[[int], None] | None = None) -> Search:
    """The three steps of the module's docstring, from the coarse candidates `arms` (`make`
    makes another from its values): every candidate tried, with its games."""
    found = Search(targets, budget, seed, workers, progress)
    ranges = [vary for vary in varies if vary.span is not None and _finer(vary)] if make is not None else []
    coarse(found, arms, int(budget * COARSE_SHARE) if ranges else budget)
    if make is not None and ranges:
        refine(found, ranges, make)
        for _ in range(SETTLE_ROUNDS):
            edges(found, ranges, make)
            if not settle(found):
                break
    return found


def _finer(vary: Vary) -> bool:
    """A range has values between its candidates: decimals, or whole numbers not all tried."""
    assert vary.span is not None
    return not vary.whole or vary.span[1] - vary.span[0] + 1 > len(vary.values)


def coarse(found: Search, arms: list[Arm], budget: int) -> None:
    """Successive halving: every arm a first share, the better half a second share, …"""
    rounds = math.ceil(math.log2(len(arms))) + 1 if len(arms) > 1 else 1
    alive, spent, played = list(arms), 0, 0
    for round_number in range(rounds):
        share = max(1, (budget - spent) // (rounds - round_number) // len(alive) // CHUNK_GAMES) * CHUNK_GAMES
        if spent + share * len(alive) > budget and round_number:
            break
        played += share
        found.play(alive, played, "coarse")
        spent += share * len(alive)
        alive.sort(key=lambda arm: arm.miss)
        if round_number < rounds - 1 and len(alive) > 1:
            for arm in alive[(len(alive) + 1) // 2:]:
                arm.out_in_round = round_number + 1
            alive = alive[:(len(alive) + 1) // 2]


def _each(found: Search) -> int:
    """Games for each new candidate: as many as the best has played, within the budget left
    shared among `PLANNED` more (none when fewer than a chunk is left)."""
    share = min(found.best().tally.games, found.left // PLANNED, found.left)
    return share // CHUNK_GAMES * CHUNK_GAMES


def settle(found: Search) -> bool:
    """The values whose every estimate lies inside its target but not yet every interval
    ("likely") play more games, up to twice what they have, within the budget left: so that a
    value that meets the targets is found to. False when there is none, or no budget."""
    likely = _likely(found)
    if not likely:
        return False
    extra = min(min(arm.tally.games for arm in likely), found.left // len(likely)) // CHUNK_GAMES * CHUNK_GAMES
    if extra < CHUNK_GAMES:
        return False
    for games in sorted({arm.tally.games for arm in likely}):
        found.play([arm for arm in likely if arm.tally.games == games], games + extra, "settle")
    return True


def _likely(found: Search) -> list[Arm]:
    """The values played whose every estimate lies inside its target but that do not meet
    every target yet (an interval reaches outside)."""
    return [arm for arm in found.arms if arm.run is not None and not found.meets(arm)
            and all(t.status(t.measure(arm.run.summary)) != "missed" for t in found.targets)]


def _tried(found: Search, values: dict[str, Any]) -> bool:
    return any(arm.values == values for arm in found.arms)


def _neighbours(found: Search, centre: dict[str, Any], vary: Vary, step: float,
                make: Make) -> list[Arm]:
    """The candidates `step` either side of `centre` along `vary`, within its range, not tried."""
    assert vary.span is not None
    low, high = vary.span
    made = []
    for sign in (-1, 1):
        value = centre[vary.key] + sign * step
        value = int(value) if vary.whole else round(value, 9)
        moved = {**centre, vary.key: value}
        if low <= value <= high and not _tried(found, moved):
            try:
                made.append(make(moved))
            except UsageError:
                continue  # the engine refuses it: not a candidate
    return made


def _gap(found: Search, centre: dict[str, Any], vary: Vary) -> float:
    """The distance from `centre` to the nearest value tried along `vary` (the others equal)."""
    others = [arm.values[vary.key] for arm in found.arms
              if arm.values[vary.key] != centre[vary.key]
              and all(arm.values[k] == v for k, v in centre.items() if k != vary.key)]
    return min((abs(value - centre[vary.key]) for value in others), default=0.0)


def refine(found: Search, ranges: Sequence[Vary], make: Make) -> None:
    """Around the best, along each range, halfway to the nearest value tried, again and again
    (see the module's docstring)."""
    for vary in ranges:
        step = _gap(found, found.best().values, vary) / 2
        finest = _finest(vary)
        while step >= finest:
            if vary.whole:
                step = math.floor(step)
            each = _each(found)
            centre = found.best()
            new = _neighbours(found, centre.values, vary, step, make)
            if each < CHUNK_GAMES:
                return
            if new:
                _play_new(found, new, each, "refine")
                if not vary.whole and all(_indistinct(found.targets, centre, arm) for arm in new):
                    break  # the interval cannot tell values this close apart
            step /= 2


def _finest(vary: Vary) -> float:
    """The smallest step `refine` takes along a range: 1 for whole numbers, else a
    `FINEST`th of the range."""
    assert vary.span is not None
    return 1 if vary.whole else (vary.span[1] - vary.span[0]) / FINEST


def _play_new(found: Search, new: Sequence[Arm], games: int, step: str) -> None:
    """Candidates played, each marked with the step of the search that found it."""
    found.play(new, games, step)
    for arm in new:
        arm.step = step


def _indistinct(targets: Sequence[Target], centre: Arm, other: Arm) -> bool:
    """Every target's estimate of `other` lies within `centre`'s interval."""
    assert centre.run is not None and other.run is not None
    for target in targets:
        mine, theirs = target.measure(centre.run.summary), target.measure(other.run.summary)
        if not mine.low <= theirs.value <= mine.high:
            return False
    return True


def edges(found: Search, ranges: Sequence[Vary], make: Make) -> None:
    """From each value that meets every target, its neighbours one step along each range,
    until the values that meet are surrounded (or the budget or `MOST_EDGES` is spent)."""
    added = 0
    while added < MOST_EDGES:
        new = _around_met(found, ranges, make)
        each = _each(found)
        if not new or each < CHUNK_GAMES:
            return
        new = new[:MOST_EDGES - added]
        _play_new(found, new, each, "edge")
        added += len(new)


def _around_met(found: Search, ranges: Sequence[Vary], make: Make) -> list[Arm]:
    """The neighbours not tried yet of each value that meets every target, one step along each
    range (a step of 1 for whole numbers, else the gap to the nearest value tried), each once."""
    new: list[Arm] = []
    for arm in [arm for arm in found.arms if found.meets(arm)]:
        for vary in ranges:
            assert vary.span is not None
            step = 1 if vary.whole else _gap(found, arm.values, vary)
            new += [n for n in _neighbours(found, arm.values, vary, step, make)
                    if not any(other.values == n.values for other in new)]
    return new
