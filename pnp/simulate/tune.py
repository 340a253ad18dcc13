"""`pnp tune`: which house-rule values bring the simulated game to the designer's targets.

    pnp tune bolsa --vary rules.start_cash=20..80 --target winner=120±3

Each `--vary rules.KEY=LOW..HIGH` (or `=A,B,C`) gives candidate values (every whole number of
the range up to `MOST_VALUES` of them, else that many spread evenly; nine for a range of
decimals); several `--vary` make the candidates' combinations, `MOST_ARMS` of them at most
(drawn from the seed). Each `--target` is a metric (`METRICS`, `ends.REASON` with a reason the
game's engine declares, `bot.NAME` with a bot that plays) and what it should be: `=V±T` (`+-`
for `±`), `<V`, `>V` (`<=`, `>=` too). A name the game does not have is a usage error naming
the ones it has: a misspelled end reason never searches for a share that is always 0.

The search has three steps, all on the same seeds (common random numbers: the candidates'
differences are the rules', not the dice's):

1. coarse: successive halving over the candidates — every one plays a first share of half the
   budget (`--games`), the better half by the targets a second share, and so on;
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
target's centre. The answer lists every value tried with each target's estimate, its 95 %
interval and whether the target is met (the interval inside it), likely (the estimate inside)
or missed; then every value that meets every target; and for a target no value meets, the
closest values tried on either side of it.
"""

from __future__ import annotations

import json
import math
import random
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from pnp.errors import UsageError
from pnp.i18n import N_, _, ngettext
from pnp.rules import GAMES, load_spec, rulebook
from pnp.simulate import command
from pnp.simulate.metrics import Estimate, jsonable, rate
from pnp.simulate.runner import CHUNK_GAMES, Setup, chunks, run_each
from pnp.simulate.simulation import Run, finish
from pnp.simulate.tally import Tally
from pnp.simulate.words import percent

DEFAULT_BUDGET = 30_000
MOST_BUDGET = 100_000_000
MOST_VALUES = 16  # candidates of one --vary
MOST_ARMS = 27  # candidates in all
DECIMAL_VALUES = 9
CENTRE_WEIGHT = 0.01
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
        if self.metric.startswith("ends."):
            reason = self.metric[len("ends."):]
            return summary["ends"].get(reason, rate(0, summary["length"]["mean"].n))
        if self.metric.startswith("bot."):
            return summary["bot_win_rate"][self.metric[len("bot."):]]["win_rate"]
        return METRICS[self.metric][1](summary)

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


@dataclass(frozen=True)
class Asked:
    """`pnp tune`'s command line as typed (None: not given), before any check."""

    game: str
    vary: tuple[str, ...] = ()
    target: tuple[str, ...] = ()
    games: str | None = None
    players: str | None = None
    bots: str | None = None
    seed: str | None = None
    spec: str | None = None
    set: tuple[str, ...] = ()
    workers: str | None = None
    json: bool = False
    report: str | None = None
    lang: str | None = None


# --- the command line -------------------------------------------------------------------------------


def command_line_targets(texts: Sequence[str], game: str, bots: Sequence[str]) -> list[Target]:
    if not texts:
        raise UsageError("--target: give at least one, e.g. --target length=5±0.5 or --target seat_gap<0.03")
    return [parse_target(text, game, bots) for text in texts]


def parse_target(text: str, game: str | None = None, bots: Sequence[str] = ()) -> Target:
    """A target as written on the command line; its metric checked against `game`'s end
    reasons and the bots that play (UsageError naming the valid names)."""
    found = re.fullmatch(r"\s*([A-Za-z_][\w.]*)\s*(<=|>=|<|>|=)\s*([-+]?\d+(?:\.\d+)?)\s*"
                         r"(?:(?:±|\+-|\+/-)\s*(\d+(?:\.\d+)?))?\s*", text)
    if found is None:
        raise UsageError(f"--target {command.shown(text)}: write METRIC=VALUE±TOLERANCE or METRIC<VALUE, "
                         "e.g. length=5±0.5 or seat_gap<0.03")
    metric, op, value, tolerance = found[1], found[2].rstrip("="), float(found[3]), found[4]
    op = op or "="
    _check_metric(text, metric, game, bots)
    if op == "=" and tolerance is None:
        raise UsageError(f"--target {command.shown(text)}: give a tolerance, e.g. {metric}={value:g}±0.5")
    if op != "=" and tolerance is not None:
        raise UsageError(f"--target {command.shown(text)}: a bound takes no tolerance")
    if op == "=" and float(tolerance or 0) <= 0:
        raise UsageError(f"--target {command.shown(text)}: the tolerance must be above 0")
    return Target(metric, op, value, float(tolerance or 0))


def _check_metric(text: str, metric: str, game: str | None, bots: Sequence[str]) -> None:
    """The metric is one the game has: a named one, an end reason its engine declares, a bot
    that plays."""
    where = f"--target {command.shown(text)}"
    if metric.startswith("ends."):
        reasons = GAMES[game].ends if game in GAMES else ()
        if game is not None and metric[len("ends."):] not in reasons:
            raise UsageError(f"{where}: {game} has no end reason {command.shown(metric[len('ends.'):])} (its games "
                             f"end: {', '.join(f'ends.{r}' for r in reasons)})")
    elif metric.startswith("bot."):
        if metric[len("bot."):] not in bots:
            raise UsageError(f"{where}: no bot {command.shown(metric[len('bot.'):])} plays (--bots: "
                             f"{', '.join(f'bot.{b}' for b in bots)})")
    elif metric not in METRICS:
        names = ", ".join([*METRICS, *(f"{prefix}…" for prefix in PREFIXED)])
        raise UsageError(f"{where}: no metric {command.shown(metric)} (metrics: {names})")


def parse_vary(game: str, text: str, fixed: dict[str, Any]) -> Vary:
    """`rules.KEY=LOW..HIGH` or `rules.KEY=A,B,C`: the candidate values, each checked by the
    game's rulebook as a `--set` would be."""
    key, equals, values = text.partition("=")
    name = key[len("rules."):] if key.startswith("rules.") else ""
    if not equals or not name:
        raise UsageError(f"--vary {command.shown(text)}: write rules.KEY=LOW..HIGH, e.g. --vary rules.rounds=3..9")
    if name in fixed:
        raise UsageError(f"--vary {command.shown(text)}: rules.{name} is also fixed by --set")
    if rulebook(game).option(name) is None:
        command.house_rules(game, [f"rules.{name}=0"], "--vary")  # the rulebook's own message, with a suggestion
    span = re.fullmatch(r"\s*([-+]?\d+(?:\.\d+)?)\s*\.\.\s*([-+]?\d+(?:\.\d+)?)\s*", values)
    whole, ends = True, None
    if span is not None:
        low, high = span[1], span[2]
        if float(low) >= float(high):
            raise UsageError(f"--vary {command.shown(text)}: LOW must be below HIGH")
        whole, ends = "." not in low + high, (float(low), float(high))
        candidates: list[Any] = _spread(int(low), int(high)) if whole else \
            sorted({round(float(low) + (float(high) - float(low)) * k / (DECIMAL_VALUES - 1), 6)
                    for k in range(DECIMAL_VALUES)})
    else:
        candidates = [part.strip() for part in values.split(",") if part.strip()]
        if len(candidates) < 2:
            raise UsageError(f"--vary {command.shown(text)}: give a range LOW..HIGH or two values or more, A,B")
        if len(candidates) > MOST_VALUES:
            raise UsageError(f"--vary {command.shown(text)}: at most {MOST_VALUES} values")
    checked = [command.house_rules(game, [f"rules.{name}={value}"], "--vary")[name] for value in candidates]
    return Vary(name, tuple(dict.fromkeys(checked)), ends, whole)


def _spread(low: int, high: int) -> list[int]:
    """Every whole number of low…high, or `MOST_VALUES` of them spread evenly, both ends kept."""
    if high - low + 1 <= MOST_VALUES:
        return list(range(low, high + 1))
    return sorted({round(low + (high - low) * k / (MOST_VALUES - 1)) for k in range(MOST_VALUES)})


def tune_command(asked: Asked) -> int:
    """`pnp tune`: every option checked, then the search, its answer and its report."""
    started = time.perf_counter()
    game = command.game_option(asked.game)
    budget = command.whole(asked.games, "--games", CHUNK_GAMES, MOST_BUDGET, default=DEFAULT_BUDGET)
    seed = command.whole(asked.seed, "--seed", -10**command.MAX_SEED_DIGITS, 10**command.MAX_SEED_DIGITS, default=1)
    workers = command.workers_option(asked.workers)
    report = command.report_option(asked.report)
    bots = command.bots_option(game, asked.bots)
    targets = command_line_targets(asked.target, game, bots)
    if not asked.vary:
        raise UsageError("--vary: give at least one house rule to search, e.g. --vary rules.rounds=3..9")
    spec_path = command.spec_option(asked.spec, "--spec")
    spec = load_spec(str(spec_path))
    if game not in spec.games:
        raise UsageError(f"{spec_path}: the spec has no game {game!r}")
    players = command.player_counts(asked.players, spec.games[game].players)
    if len(players) > 1:
        raise UsageError(f"--players {asked.players}: tune one player count at a time")
    fixed = command.house_rules(game, asked.set, "--set")
    varies = [parse_vary(game, text, fixed) for text in asked.vary]
    if len({vary.key for vary in varies}) < len(varies):
        raise UsageError("--vary: each house rule once")

    def make(values: dict[str, Any]) -> Arm:
        return Arm(values, command.checked_setup(game, spec_path, {**fixed, **values}, players[0], bots), Tally())

    arms = make_arms(make, varies, seed)
    if budget < len(arms) * CHUNK_GAMES:
        raise UsageError(f"--games {budget:,}: {len(arms)} candidates need at least {len(arms) * CHUNK_GAMES:,} games "
                         f"({CHUNK_GAMES} each)")
    with command.speaking_as(asked.lang, game, asked.spec), command.Progress(budget, f"tune {game}") as step:
        result, tried = search(arms, targets, budget, seed, workers=workers, varies=varies, make=make, progress=step)
        answer = {**result, "game": game, "players": players[0], "bots": list(bots), "seed": seed, "budget": budget,
                  "spec": str(spec_path), "fixed": fixed, "targets": [str(t) for t in targets],
                  "vary": [{"key": v.key, "values": list(v.values)} for v in varies],
                  "elapsed_s": round(time.perf_counter() - started, 3)}
        print(json.dumps(answer, ensure_ascii=False, indent=1) if asked.json else text(answer))
        if report is not None:
            from pnp.simulate.report import write_tune_report

            write_tune_report(report, answer, tried, targets)
            print(f"report: {asked.report}", file=sys.stderr)
    return 0


def make_arms(make: Callable[[dict[str, Any]], Arm], varies: Sequence[Vary], seed: int) -> list[Arm]:
    """The coarse candidates: the varied values' combinations (a seeded sample of `MOST_ARMS`
    when there are more), each a setup the engine accepts (those it refuses are left out)."""
    sizes = [len(vary.values) for vary in varies]
    total = math.prod(sizes)
    picked = range(total) if total <= MOST_ARMS else sorted(random.Random(f"tune/{seed}").sample(range(total), MOST_ARMS))
    arms, refused = [], []
    for index in picked:
        values, rest = {}, index
        for vary, size in zip(reversed(varies), reversed(sizes), strict=True):
            values[vary.key] = vary.values[rest % size]
            rest //= size
        try:
            arms.append(make({vary.key: values[vary.key] for vary in varies}))
        except UsageError as error:
            refused.append(str(error))
    if not arms:
        raise UsageError(f"--vary: the engine refuses every candidate ({refused[0]})")
    return arms


# --- the search -------------------------------------------------------------------------------------


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
           varies: Sequence[Vary] = (), make: Callable[[dict[str, Any]], Arm] | None = None,
           progress: Callable[[int], None] | None = None) -> tuple[dict[str, Any], list[Arm]]:
    """The three steps of the module's docstring: the answer's data, and every candidate
    tried (for the report)."""
    found = Search(targets, budget, seed, workers, progress)
    ranges = [vary for vary in varies if vary.span is not None and _finer(vary)] if make is not None else []
    coarse(found, arms, int(budget * COARSE_SHARE) if ranges else budget)
    if make is not None and ranges:
        refine(found, ranges, make)
        for _ in range(SETTLE_ROUNDS):
            edges(found, ranges, make)
            if not settle(found):
                break
    best = found.best()
    ranked = sorted(found.arms, key=lambda arm: arm.miss)
    meeting = [arm for arm in ranked if found.meets(arm)]
    return {"verdict": jsonable(verdict(best, targets, found.arms, meeting, varies)),
            "best": _arm_json(best, targets, full=True), "met": [_arm_json(arm, targets, full=True) for arm in meeting],
            "games_played": found.spent, "rounds": found.history,
            "candidates": [_arm_json(arm, targets) for arm in ranked]}, found.arms


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
    likely = [arm for arm in found.arms if arm.run is not None and not found.meets(arm)
              and all(t.status(t.measure(arm.run.summary)) != "missed" for t in found.targets)]
    if not likely:
        return False
    extra = min(min(arm.tally.games for arm in likely), found.left // len(likely)) // CHUNK_GAMES * CHUNK_GAMES
    if extra < CHUNK_GAMES:
        return False
    for games in sorted({arm.tally.games for arm in likely}):
        found.play([arm for arm in likely if arm.tally.games == games], games + extra, "settle")
    return True


def _tried(found: Search, values: dict[str, Any]) -> bool:
    return any(arm.values == values for arm in found.arms)


def _neighbours(found: Search, centre: dict[str, Any], vary: Vary, step: float,
                make: Callable[[dict[str, Any]], Arm]) -> list[Arm]:
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


def refine(found: Search, ranges: Sequence[Vary], make: Callable[[dict[str, Any]], Arm]) -> None:
    """Around the best, along each range, halfway to the nearest value tried, again and again
    (see the module's docstring)."""
    for vary in ranges:
        assert vary.span is not None
        step = _gap(found, found.best().values, vary) / 2
        finest = (vary.span[1] - vary.span[0]) / FINEST
        while (step >= 1 if vary.whole else step >= finest):
            if vary.whole:
                step = math.floor(step)
            each = _each(found)
            centre = found.best()
            new = _neighbours(found, centre.values, vary, step, make)
            if each < CHUNK_GAMES:
                return
            if new:
                found.play(new, each, "refine")
                for arm in new:
                    arm.step = "refine"
                if not vary.whole and all(_indistinct(found.targets, centre, arm) for arm in new):
                    break  # the interval cannot tell values this close apart
            step /= 2


def _indistinct(targets: Sequence[Target], centre: Arm, other: Arm) -> bool:
    """Every target's estimate of `other` lies within `centre`'s interval."""
    assert centre.run is not None and other.run is not None
    for target in targets:
        mine, theirs = target.measure(centre.run.summary), target.measure(other.run.summary)
        if not mine.low <= theirs.value <= mine.high:
            return False
    return True


def edges(found: Search, ranges: Sequence[Vary], make: Callable[[dict[str, Any]], Arm]) -> None:
    """From each value that meets every target, its neighbours one step along each range,
    until the values that meet are surrounded (or the budget or `MOST_EDGES` is spent)."""
    added = 0
    while added < MOST_EDGES:
        new: list[Arm] = []
        for arm in [arm for arm in found.arms if found.meets(arm)]:
            for vary in ranges:
                assert vary.span is not None
                step = 1 if vary.whole else _gap(found, arm.values, vary)
                new += [n for n in _neighbours(found, arm.values, vary, step, make)
                        if not any(other.values == n.values for other in new)]
        each = _each(found)
        if not new or each < CHUNK_GAMES:
            return
        new = new[:MOST_EDGES - added]
        found.play(new, each, "edge")
        for arm in new:
            arm.step = "edge"
        added += len(new)


# --- the answer -------------------------------------------------------------------------------------


def _arm_json(arm: Arm, targets: Sequence[Target], full: bool = False) -> dict[str, Any]:
    assert arm.run is not None
    measured = {str(target): {**target.measure(arm.run.summary).as_json(),
                              **({"status": target.status(target.measure(arm.run.summary))} if full else {})}
                for target in targets}
    return {"rules": dict(arm.values), "games": arm.tally.games, "miss": jsonable(arm.miss), "step": arm.step,
            "dropped_after_round": arm.out_in_round, "targets": measured}


def _rules(values: dict[str, Any]) -> str:
    return ", ".join(f"rules.{key} = {value}" for key, value in values.items())


def _measured(target: Target, arm: Arm) -> str:
    assert arm.run is not None
    estimate = target.measure(arm.run.summary)
    return f"{target.metric} {_num(estimate.value)} [{_num(estimate.low)}, {_num(estimate.high)}]"


def verdict(best: Arm, targets: Sequence[Target], arms: Sequence[Arm], meeting: Sequence[Arm],
            varies: Sequence[Vary] = ()) -> list[dict[str, Any]]:
    """Every value tried that meets every target, with its intervals; else the closest, and
    per target no value meets, the closest values tried on either side of it."""
    assert best.run is not None
    if meeting:
        shown = "; ".join(f"{_rules(arm.values)}: " + ", ".join(_measured(t, arm) for t in targets)
                          + " " + _("over {games} games").format(games=f"{arm.tally.games:,}") for arm in meeting)
        text = ngettext("{count} value tried meets every target (its 95 % interval inside it): {values}.",
                        "{count} values tried meet every target (their 95 % intervals inside it): {values}.",
                        len(meeting)).format(count=len(meeting), values=shown)
        return [{"kind": "met", "rules": [dict(arm.values) for arm in meeting], "text": text}]
    statuses = [t.status(t.measure(best.run.summary)) for t in targets]
    parts = "; ".join(_("{measured} (target {target}: {status})").format(
        measured=_measured(t, best), target=t, status=_(STATUSES[status])) for t, status in zip(targets, statuses, strict=True))
    if "missed" not in statuses:
        head = _("No value tried meets every target with its whole interval; {rules} comes closest, every estimate "
                 "within its target (more --games would tell)")
    else:
        head = _("No value tried meets every target; {rules} comes closest, but misses")
    items: list[dict[str, Any]] = [{"kind": "best", "rules": dict(best.values), "statuses": statuses,
                                    "text": head.format(rules=_rules(best.values)) + f": {parts} — "
                                    + _("over {games} games").format(games=f"{best.tally.games:,}") + "."}]
    items += _sides(targets, arms)
    items += _edge(best, varies, arms)
    return items


def _sides(targets: Sequence[Target], arms: Sequence[Arm]) -> list[dict[str, Any]]:
    """For each target no value tried meets, the closest values tried below it and above it."""
    items = []
    for target in targets:
        measured = [(target.measure(arm.run.summary), arm) for arm in arms if arm.run is not None]
        if any(target.status(estimate) == "met" for estimate, _arm in measured):
            continue
        below = [(e, a) for e, a in measured if target.side(e.value) < 0]
        above = [(e, a) for e, a in measured if target.side(e.value) > 0]
        sides = []
        if below:
            estimate, arm = max(below, key=lambda found: found[0].value)
            sides.append(_("below it {rules}: {value} [{low}, {high}]").format(
                rules=_rules(arm.values), value=_num(estimate.value), low=_num(estimate.low), high=_num(estimate.high)))
        if above:
            estimate, arm = min(above, key=lambda found: found[0].value)
            sides.append(_("above it {rules}: {value} [{low}, {high}]").format(
                rules=_rules(arm.values), value=_num(estimate.value), low=_num(estimate.low), high=_num(estimate.high)))
        if not below or not above:
            sides.append(_("no value tried lands {side} it").format(side=_("below") if not below else _("above")))
        items.append({"kind": "sides", "target": str(target),
                      "text": _("No value tried meets {target}; the closest {sides}.").format(
                          target=target, sides="; ".join(sides))})
    return items


def _edge(best: Arm, varies: Sequence[Vary], arms: Sequence[Arm]) -> list[dict[str, Any]]:
    """The closest value at an end of its range: the best may lie beyond."""
    items = []
    for key, value in best.values.items():
        tried = sorted({arm.values[key] for arm in arms}, key=_order)
        if len(tried) > 2 and value in (tried[0], tried[-1]) and isinstance(value, (int, float)):
            text = _("rules.{key} = {value} is the lowest value searched: the best may lie beyond; widen the range.") \
                if value == tried[0] else \
                _("rules.{key} = {value} is the highest value searched: the best may lie beyond; widen the range.")
            items.append({"kind": "edge", "rule": key, "text": text.format(key=key, value=value)})
    return items


def _order(value: Any) -> Any:
    return (0, value) if isinstance(value, (int, float)) else (1, str(value))


def text(answer: dict[str, Any]) -> str:
    lines = [_("{game} · {players} players · bots {bots} · seed {seed} · {played} of {budget} games · {seconds} s").format(
        game=answer["game"], players=answer["players"], bots=", ".join(answer["bots"]), seed=answer["seed"],
        played=f"{answer['games_played']:,}", budget=f"{answer['budget']:,}", seconds=f"{answer['elapsed_s']:.1f}")]
    lines += [f"  • {item['text']}" for item in answer["verdict"]]
    lines += ["", "  " + _("every value tried, closest first (games played; each target's estimate and interval; "
                            "how it was found):")]
    for arm in answer["candidates"]:
        values = ", ".join(f"{key}={value}" for key, value in arm["rules"].items())
        measured = "; ".join(f"{re.split('[=<>]', t)[0]} {_num(m['value'])} [{_num(m['ci95'][0])}, {_num(m['ci95'][1])}]"
                             for t, m in arm["targets"].items())
        lines.append(f"  {values:<32} {arm['games']:>7,}  {measured}  ({arm['step']})")
    lines += ["", _("glossary:"), "  " + _(
        "met: the 95 % interval lies inside the target; likely: the estimate does; missed: it does not. The search "
        "plays every candidate a little, then the better half more, and so on (successive halving); then values "
        "halfway between the best and its neighbours, until the step is 1 (or the interval cannot tell values apart); "
        "then the neighbours of every value that meets the targets. {weight} of a target's distance from its centre "
        "breaks ties.").format(weight=percent(CENTRE_WEIGHT))]
    return "\n".join(lines)


def _num(value: float) -> str:
    return f"{value:.4g}"
