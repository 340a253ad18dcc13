"""`pnp tune`: which house-rule values bring the simulated game to the designer's targets.

    pnp tune bolsa --vary rules.rounds=3..9 --target length=5±0.5 --target seat_gap<0.03

Each `--vary rules.KEY=LOW..HIGH` (or `=A,B,C`) gives candidate values (every whole number of
the range up to `MOST_VALUES` of them, else that many spread evenly; nine for a range of
decimals); several `--vary` make the candidates' combinations, `MOST_ARMS` of them at most
(drawn from the seed). Each `--target` is a metric (`METRICS`) and what it should be: `=V±T`
(`+-` for `±`), `<V`, `>V` (`<=`, `>=` too).

The search is successive halving, not a grid: every candidate plays a first share of the
budget (`--games`, the whole budget), the better half by the targets plays a second share, and
so on until one is left, which has then played the most games. How far a candidate is from
the targets (`Target.miss`) is the sum over targets of the distance outside each target, in
units of its tolerance (or of its bound), plus a hundredth of the distance from a target's
centre (so of two that both meet it the more central wins). All candidates play the same seeds
(common random numbers): their differences are the rules', not the dice's. The answer is the
best values with every target's measured value, its 95 % interval and whether the target is
met (the interval inside it), likely (the estimate inside it) or missed.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from pnp.errors import UsageError
from pnp.rules import load_spec, rulebook
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


def _largest(estimates: Sequence[Estimate]) -> Estimate:
    return max(estimates, key=lambda e: e.value) if estimates else rate(0, 0)


def _shortage(summary: dict[str, Any]) -> Estimate:
    """The share of games short of the money (or bills, or supply) that runs out most often."""
    components = summary["components"]
    found = [m["short"] for m in components["money"]]
    found += [d["short"] for m in components["money"] for d in m["denominations"]]
    found += [s["exhausted"] for s in components["supplies"].values()]
    return _largest(found)


METRICS: dict[str, tuple[str, Callable[[dict[str, Any]], Estimate]]] = {
    "length": ("the mean game length, in the game's unit (rounds, turns)", lambda s: s["length"]["mean"]),
    "steps": ("the mean number of actions a game", lambda s: s["length"]["steps"]["mean"]),
    "seat_gap": ("the best seat's win rate minus the worst's", lambda s: s["balance_gap"]["gap"]),
    "first_seat": ("the first seat's win rate", lambda s: s["seat_win_rate"][0]["win_rate"]),
    "margin": ("the winner's mean lead over the runner-up", lambda s: s["scores"]["margin"]),
    "winner": ("the mean winning score", lambda s: s["scores"]["winner"]),
    "gini": ("the mean inequality of the final scores (Gini)", lambda s: s["scores"]["gini"]),
    "leader": ("the share of games the mid-game leader wins", lambda s: s["scores"]["mid_game_leader_wins"]),
    "short": ("the share of games short of the money, bills or supply that runs out most", _shortage),
}
PREFIXED = {"ends.": "the share of games ending so (ends.bankruptcy)", "bot.": "a bot's win rate per seat (bot.greedy)"}


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

    def status(self, estimate: Estimate) -> str:
        """"met" (the interval inside the target), "likely" (the estimate inside), or "missed"."""
        def inside(x: float) -> bool:
            if self.op == "=":
                return abs(x - self.value) <= self.tolerance
            return x <= self.value if self.op == "<" else x >= self.value

        if inside(estimate.low) and inside(estimate.high):
            return "met"
        return "likely" if inside(estimate.value) else "missed"

    def __str__(self) -> str:
        return f"{self.metric}{'=' if self.op == '=' else self.op}{self.value:g}" + \
            (f"±{self.tolerance:g}" if self.op == "=" else "")


@dataclass(frozen=True)
class Vary:
    key: str
    values: tuple[Any, ...]


@dataclass
class Arm:
    """One candidate: its house rules, its setup and the games it has played so far."""

    values: dict[str, Any]
    setup: Setup
    tally: Tally
    run: Run | None = None
    out_in_round: int | None = None  # the round after which it was dropped (None: still in)
    miss: float = math.inf


# --- the command line -------------------------------------------------------------------------------


def command_line_targets(texts: Sequence[str], bots: Sequence[str]) -> list[Target]:
    if not texts:
        raise UsageError("--target: give at least one, e.g. --target length=5±0.5 or --target seat_gap<0.03")
    return [parse_target(text, bots) for text in texts]


def parse_target(text: str, bots: Sequence[str] = ()) -> Target:
    found = re.fullmatch(r"\s*([A-Za-z_][\w.]*)\s*(<=|>=|<|>|=)\s*([-+]?\d+(?:\.\d+)?)\s*"
                         r"(?:(?:±|\+-|\+/-)\s*(\d+(?:\.\d+)?))?\s*", text)
    if found is None:
        raise UsageError(f"--target {command.shown(text)}: write METRIC=VALUE±TOLERANCE or METRIC<VALUE, "
                         "e.g. length=5±0.5 or seat_gap<0.03")
    metric, op, value, tolerance = found[1], found[2].rstrip("="), float(found[3]), found[4]
    op = op or "="
    known = metric in METRICS or metric.startswith("ends.") or (metric.startswith("bot.") and metric[4:] in bots)
    if not known:
        names = ", ".join([*METRICS, *(f"{prefix}…" for prefix in PREFIXED)])
        raise UsageError(f"--target {command.shown(text)}: no metric {command.shown(metric)} (metrics: {names})")
    if op == "=" and tolerance is None:
        raise UsageError(f"--target {command.shown(text)}: give a tolerance, e.g. {metric}={value:g}±0.5")
    if op != "=" and tolerance is not None:
        raise UsageError(f"--target {command.shown(text)}: a bound takes no tolerance")
    if op == "=" and float(tolerance or 0) <= 0:
        raise UsageError(f"--target {command.shown(text)}: the tolerance must be above 0")
    return Target(metric, op, value, float(tolerance or 0))


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
    if span is not None:
        low, high = span[1], span[2]
        if float(low) >= float(high):
            raise UsageError(f"--vary {command.shown(text)}: LOW must be below HIGH")
        candidates: list[Any] = _spread(int(low), int(high)) if "." not in low + high else \
            sorted({round(float(low) + (float(high) - float(low)) * k / (DECIMAL_VALUES - 1), 6)
                    for k in range(DECIMAL_VALUES)})
    else:
        candidates = [part.strip() for part in values.split(",") if part.strip()]
        if len(candidates) < 2:
            raise UsageError(f"--vary {command.shown(text)}: give a range LOW..HIGH or two values or more, A,B")
        if len(candidates) > MOST_VALUES:
            raise UsageError(f"--vary {command.shown(text)}: at most {MOST_VALUES} values")
    checked = [command.house_rules(game, [f"rules.{name}={value}"], "--vary")[name] for value in candidates]
    return Vary(name, tuple(dict.fromkeys(checked)))


def _spread(low: int, high: int) -> list[int]:
    """Every whole number of low…high, or `MOST_VALUES` of them spread evenly, both ends kept."""
    if high - low + 1 <= MOST_VALUES:
        return list(range(low, high + 1))
    return sorted({round(low + (high - low) * k / (MOST_VALUES - 1)) for k in range(MOST_VALUES)})


def tune_command(args: argparse.Namespace) -> int:
    """`pnp tune`: every option checked, then the search, its answer and its report."""
    started = time.perf_counter()
    game = command.game_option(args.game)
    budget = command.whole(args.games, "--games", CHUNK_GAMES, MOST_BUDGET, default=DEFAULT_BUDGET)
    seed = command.whole(args.seed, "--seed", -10**command.MAX_SEED_DIGITS, 10**command.MAX_SEED_DIGITS, default=1)
    workers = command.workers_option(args.workers)
    report = command.report_option(args.report)
    bots = command.bots_option(game, args.bots)
    targets = command_line_targets(args.target, bots)
    if not args.vary:
        raise UsageError("--vary: give at least one house rule to search, e.g. --vary rules.rounds=3..9")
    spec_path = command.spec_option(args.spec, "--spec")
    spec = load_spec(str(spec_path))
    if game not in spec.games:
        raise UsageError(f"{spec_path}: the spec has no game {game!r}")
    players = command.player_counts(args.players, spec.games[game].players)
    if len(players) > 1:
        raise UsageError(f"--players {args.players}: tune one player count at a time")
    fixed = command.house_rules(game, args.set, "--set")
    varies = [parse_vary(game, text, fixed) for text in args.vary]
    if len({vary.key for vary in varies}) < len(varies):
        raise UsageError("--vary: each house rule once")
    arms = make_arms(game, spec_path, fixed, players[0], bots, varies, seed)
    if budget < len(arms) * CHUNK_GAMES:
        raise UsageError(f"--games {budget:,}: {len(arms)} candidates need at least {len(arms) * CHUNK_GAMES:,} games "
                         f"({CHUNK_GAMES} each)")
    result = search(arms, targets, budget, seed, workers=workers)
    answer = {**result, "game": game, "players": players[0], "bots": list(bots), "seed": seed, "budget": budget,
              "spec": str(spec_path), "fixed": fixed, "vary": [{"key": v.key, "values": list(v.values)} for v in varies],
              "targets": [str(t) for t in targets], "elapsed_s": round(time.perf_counter() - started, 3)}
    print(json.dumps(answer, ensure_ascii=False, indent=1) if args.json else text(answer))
    if report is not None:
        from pnp.simulate.report import write_tune_report

        write_tune_report(report, answer, arms, targets)
        print(f"report: {args.report}", file=sys.stderr)
    return 0


def make_arms(game: str, spec: Path, fixed: dict[str, Any], players: int, bots: tuple[str, ...],
              varies: Sequence[Vary], seed: int) -> list[Arm]:
    """The candidates: the varied values' combinations (a seeded sample of `MOST_ARMS` when
    there are more), each a setup the engine accepts (those it refuses are left out)."""
    sizes = [len(vary.values) for vary in varies]
    total = math.prod(sizes)
    picked = range(total) if total <= MOST_ARMS else sorted(random.Random(f"tune/{seed}").sample(range(total), MOST_ARMS))
    arms, refused = [], []
    for index in picked:
        values, rest = {}, index
        for vary, size in zip(reversed(varies), reversed(sizes), strict=True):
            values[vary.key] = vary.values[rest % size]
            rest //= size
        values = {vary.key: values[vary.key] for vary in varies}
        try:
            setup = command.checked_setup(game, spec, {**fixed, **values}, players, bots)
        except UsageError as error:
            refused.append(str(error))
            continue
        arms.append(Arm(values, setup, Tally()))
    if not arms:
        raise UsageError(f"--vary: the engine refuses every candidate ({refused[0]})")
    return arms


def search(arms: list[Arm], targets: Sequence[Target], budget: int, seed: int, *, workers: int = 0) -> dict[str, Any]:
    """Successive halving over the arms (see the module's docstring); the answer's data."""
    rounds = math.ceil(math.log2(len(arms))) + 1 if len(arms) > 1 else 1
    alive, spent, played, history = list(arms), 0, 0, []
    for round_number in range(rounds):
        share = max(1, (budget - spent) // (rounds - round_number) // len(alive) // CHUNK_GAMES) * CHUNK_GAMES
        if spent + share * len(alive) > budget and round_number:
            break
        first, played = played // CHUNK_GAMES, played + share
        jobs = (chunk for arm in alive for chunk in chunks(arm.setup, played, seed,
                                                           numbers=range(first, played // CHUNK_GAMES)))
        tallies = run_each(jobs, workers=workers)
        spent += share * len(alive)
        for arm in alive:
            arm.tally.merge(tallies[arm.setup])
            arm.run = finish(arm.setup, arm.tally.games, seed, arm.tally)
            arm.miss = sum(target.miss(target.measure(arm.run.summary).value) for target in targets)
        history.append({"candidates": len(alive), "games_each": share})
        alive.sort(key=lambda arm: arm.miss)
        if round_number < rounds - 1 and len(alive) > 1:
            for arm in alive[(len(alive) + 1) // 2:]:
                arm.out_in_round = round_number + 1
            alive = alive[:(len(alive) + 1) // 2]
    best = alive[0]
    assert best.run is not None
    return {"verdict": jsonable(verdict(best, targets, arms)), "best": _arm_json(best, targets, full=True),
            "games_played": spent, "rounds": history,
            "candidates": [_arm_json(arm, targets) for arm in sorted(arms, key=lambda arm: arm.miss)]}


def _arm_json(arm: Arm, targets: Sequence[Target], full: bool = False) -> dict[str, Any]:
    assert arm.run is not None
    measured = {str(target): {**target.measure(arm.run.summary).as_json(),
                              **({"status": target.status(target.measure(arm.run.summary))} if full else {})}
                for target in targets}
    return {"rules": dict(arm.values), "games": arm.tally.games, "miss": jsonable(arm.miss),
            "dropped_after_round": arm.out_in_round, "targets": measured}


def verdict(best: Arm, targets: Sequence[Target], arms: Sequence[Arm]) -> list[dict[str, Any]]:
    assert best.run is not None
    values = ", ".join(f"rules.{key} = {value}" for key, value in best.values.items())
    parts, statuses = [], []
    for target in targets:
        estimate = target.measure(best.run.summary)
        status = target.status(estimate)
        statuses.append(status)
        parts.append(f"{target.metric} {_num(estimate.value)} [{_num(estimate.low)}, {_num(estimate.high)}] "
                     f"(target {target}: {status})")
    if all(status == "met" for status in statuses):
        head = f"{values} brings the game to every target"
    elif "missed" not in statuses:
        head = f"{values} is the best found; every target is within reach of its estimate, not yet of its interval " \
               "(more --games would tell)"
    else:
        head = f"{values} comes closest, but misses a target"
    items: list[dict[str, Any]] = [{"kind": "best", "rules": dict(best.values), "statuses": statuses,
                                    "text": f"{head}: {'; '.join(parts)} — over {best.tally.games:,} games."}]
    for key in best.values:
        tried = sorted({arm.values[key] for arm in arms}, key=_order)
        if len(tried) > 2 and best.values[key] in (tried[0], tried[-1]) and isinstance(best.values[key], (int, float)):
            edge = "lowest" if best.values[key] == tried[0] else "highest"
            items.append({"kind": "edge", "rule": key, "text": f"rules.{key} = {best.values[key]} is the {edge} value "
                                                              "searched: the best may lie beyond; widen the range."})
    return items


def _order(value: Any) -> Any:
    return (0, value) if isinstance(value, (int, float)) else (1, str(value))


def text(answer: dict[str, Any]) -> str:
    lines = [f"{answer['game']} · {answer['players']} players · bots {', '.join(answer['bots'])} · seed {answer['seed']} "
             f"· {answer['games_played']:,} of {answer['budget']:,} games · {answer['elapsed_s']:.1f} s"]
    lines += [f"  • {item['text']}" for item in answer["verdict"]]
    lines += ["", "  candidates, closest first (games played; each target's estimate):"]
    for arm in answer["candidates"]:
        values = ", ".join(f"{key}={value}" for key, value in arm["rules"].items())
        measured = "; ".join(f"{t.split('=')[0].split('<')[0].split('>')[0]} {_num(m['value'])}"
                             for t, m in arm["targets"].items())
        lines.append(f"  {values:<32} {arm['games']:>7,}  {measured}")
    lines += ["", "glossary:", "  met: the 95 % interval lies inside the target; likely: the estimate does; missed: "
              "it does not. The search plays every candidate a little, then the better half more, and so on "
              f"(successive halving); {percent(CENTRE_WEIGHT)} of a target's distance from its centre breaks ties."]
    return "\n".join(lines)


def _num(value: float) -> str:
    return f"{value:.4g}"

