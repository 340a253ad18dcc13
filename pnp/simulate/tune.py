"""`pnp tune`: which house-rule values bring the simulated game to the designer's targets.

    pnp tune bolsa --vary rules.start_cash=20..80 --target winner=120±3

Each `--vary rules.KEY=LOW..HIGH` (or `=A,B,C`) gives candidate values (every whole number of
the range up to `MOST_VALUES` of them, else that many spread evenly; nine for a range of
decimals); several `--vary` make the candidates' combinations, `MOST_ARMS` of them at most
(drawn from the seed). Each `--target` is a metric (`METRICS`, `ends.REASON` with a reason the
game's engine declares, `bot.NAME` with a bot that plays) and what it should be: `=V±T` (`+-`
for `±`), `<V`, `>V` (`<=`, `>=` too). A name the game does not have is a usage error naming
the ones it has: a misspelled end reason never searches for a share that is always 0.

The search (`pnp.simulate.tuning`: coarse successive halving, then refinement to a step of 1,
then the edges of what meets) answers with every value tried, each target's estimate, its 95 %
interval and whether the target is met (the interval inside it), likely (the estimate inside)
or missed; then every value that meets every target; and for a target no value meets, the
closest values tried on either side of it. The answer's words are made here.
"""

from __future__ import annotations

import json
import math
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from pnp.errors import UsageError
from pnp.i18n import _, ngettext
from pnp.rules import GAMES, end_reasons, rulebook
from pnp.simulate import command
from pnp.simulate.metrics import Estimate, jsonable
from pnp.simulate.runner import CHUNK_GAMES, Progress
from pnp.simulate.tally import Tally
from pnp.simulate.tuning import (
    CENTRE_WEIGHT,
    METRICS,
    MOST_VALUES,
    PREFIXED,
    STATUSES,
    Arm,
    Make,
    Search,
    Target,
    Vary,
    search,
)
from pnp.simulate.words import percent

DEFAULT_BUDGET = 30_000
MOST_BUDGET = 100_000_000
MOST_ARMS = 27  # candidates in all
DECIMAL_VALUES = 9


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
        _check_end_reason(where, metric[len("ends."):], game)
    elif metric.startswith("bot."):
        if metric[len("bot."):] not in bots:
            raise UsageError(f"{where}: no bot {command.shown(metric[len('bot.'):])} plays (--bots: "
                             f"{', '.join(f'bot.{b}' for b in bots)})")
    elif metric not in METRICS:
        names = ", ".join([*METRICS, *(f"{prefix}…" for prefix in PREFIXED)])
        raise UsageError(f"{where}: no metric {command.shown(metric)} (metrics: {names})")


def _check_end_reason(where: str, reason: str, game: str | None) -> None:
    """`ends.REASON` names a way `game`'s engine declares its games end (any, with no game)."""
    reasons = end_reasons(game) if game is not None and game in GAMES else ()
    if game is not None and reason not in reasons:
        raise UsageError(f"{where}: {game} has no end reason {command.shown(reason)} (its games "
                         f"end: {', '.join(f'ends.{r}' for r in reasons)})")


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
        candidates: list[Any] = _spread(int(low), int(high)) if whole else _decimals(float(low), float(high))
    else:
        candidates = _listed(text, values)
    checked = [command.house_rules(game, [f"rules.{name}={value}"], "--vary")[name] for value in candidates]
    return Vary(name, tuple(dict.fromkeys(checked)), ends, whole)


def _listed(text: str, values: str) -> list[str]:
    """The values of `rules.KEY=A,B,C`: two or more, at most `MOST_VALUES`."""
    candidates = [part.strip() for part in values.split(",") if part.strip()]
    if len(candidates) < 2:
        raise UsageError(f"--vary {command.shown(text)}: give a range LOW..HIGH or two values or more, A,B")
    if len(candidates) > MOST_VALUES:
        raise UsageError(f"--vary {command.shown(text)}: at most {MOST_VALUES} values")
    return candidates


def _decimals(low: float, high: float) -> list[float]:
    """`DECIMAL_VALUES` values spread evenly over low…high, both ends kept (to 6 decimals)."""
    return sorted({round(low + (high - low) * k / (DECIMAL_VALUES - 1), 6) for k in range(DECIMAL_VALUES)})


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
    spec_path, players = _spec_and_players(asked, game)
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
    with command.speaking_as(asked.lang, game, asked.spec), Progress(budget, f"tune {game}") as step:
        found = search(arms, targets, budget, seed, workers=workers, varies=varies, make=make, progress=step)
        answer = {**answered(found, varies), "game": game, "players": players[0], "bots": list(bots), "seed": seed, "budget": budget,
                  "spec": str(spec_path), "fixed": fixed, "targets": [str(t) for t in targets],
                  "vary": [{"key": v.key, "values": list(v.values)} for v in varies],
                  "elapsed_s": round(time.perf_counter() - started, 3)}
        print(json.dumps(answer, ensure_ascii=False, indent=1) if asked.json else text(answer))
        if report is not None:
            from pnp.simulate.report import write_tune_report

            write_tune_report(report, answer, found.arms, targets)
            print(f"report: {asked.report}", file=sys.stderr)
    return 0


def _spec_and_players(asked: Asked, game: str) -> tuple[Path, list[int]]:
    """`--spec`, which must hold the game, and `--players`: one player count."""
    spec_path, spec = command.game_spec(asked.spec, "--spec", game)
    players = command.player_counts(asked.players, spec.games[game].players)
    if len(players) > 1:
        raise UsageError(f"--players {asked.players}: tune one player count at a time")
    return spec_path, players


def make_arms(make: Make, varies: Sequence[Vary], seed: int) -> list[Arm]:
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


# --- the answer -------------------------------------------------------------------------------------


def answered(found: Search, varies: Sequence[Vary] = ()) -> dict[str, Any]:
    """The search's answer as data: every value that meets every target (`met`), the closest
    (`best`), every value tried (`candidates`, closest first), and the verdict."""
    targets, best = found.targets, found.best()
    ranked = sorted(found.arms, key=lambda arm: arm.miss)
    meeting = [arm for arm in ranked if found.meets(arm)]
    return {"verdict": jsonable(verdict(best, targets, found.arms, meeting, varies)),
            "best": _arm_json(best, targets, full=True), "met": [_arm_json(arm, targets, full=True) for arm in meeting],
            "games_played": found.spent, "rounds": found.history,
            "candidates": [_arm_json(arm, targets) for arm in ranked]}


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


def _closest_sides(target: Target, measured: list[tuple[Estimate, Arm]]) -> list[str]:
    """The value tried closest below a target no value meets and the closest above it, each
    with its estimate; or that none lands on a side."""
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
    return sides


def _sides(targets: Sequence[Target], arms: Sequence[Arm]) -> list[dict[str, Any]]:
    """For each target no value tried meets, the closest values tried below it and above it."""
    items = []
    for target in targets:
        measured = [(target.measure(arm.run.summary), arm) for arm in arms if arm.run is not None]
        if any(target.status(estimate) == "met" for estimate, _arm in measured):
            continue
        items.append({"kind": "sides", "target": str(target),
                      "text": _("No value tried meets {target}; the closest {sides}.").format(
                          target=target, sides="; ".join(_closest_sides(target, measured)))})
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
