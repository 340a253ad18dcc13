"""`pnp simulate GAME --ladder`: how much skill matters, from a round robin of the bots.

Every pair of bots plays the same games (the same seeds): bot A in seats 1, 3, … and B in seats
2, 4, … of one game, the other way round in the next (the runner's rotation with two bots), so
each sits in every seat equally often and two equal bots share the wins half and half. A's
share of the wins has a Wilson interval; a pair whose interval excludes ½ has a stronger bot.

From all the pairs, Bradley–Terry strengths (fitted by the minorisation–maximisation iteration) are
given as Elo points above `random` (400 · log10 of the odds). The skill depth is how far the
strongest bot is above `random`: its head-to-head share of the wins against random, with its
interval, and the same in Elo points (bots need not be transitive: the strongest against random
may lose to a third). A rule change that makes the game more a matter of luck
brings it down; `random` joins the ladder if `--bots` leaves it out.
"""

from __future__ import annotations

import json
import math
import time
from itertools import combinations
from typing import Any, Callable, Sequence

from pnp.bots import roster
from pnp.simulate.metrics import Estimate, jsonable, rate
from pnp.simulate.runner import Progress, Setup, chunks, run_each
from pnp.simulate.tally import Tally
from pnp.simulate.words import percent

BASELINE = "random"
ELO = 400 / math.log(10)  # Elo points per unit of log-odds
MOST_ELO = 1000.0  # an interval at 0 or 1 of the wins is capped here rather than infinite
FIT_ROUNDS = 500


def ladder_command(asked: Any, options: Any, pairs: Sequence[tuple[Setup, Setup | None]]) -> int:
    """The ladder of every player count asked for (`command.Asked`, `command.Options`), printed
    as JSON or text, with a progress bar on a terminal."""
    bots = list(options.bots) if asked.bots is not None else roster.names(options.game)
    if BASELINE not in bots:
        bots.insert(0, BASELINE)
    answers = []
    for setup, _ in pairs:
        started = time.perf_counter()
        games = options.games * len(bots) * (len(bots) - 1) // 2
        with Progress(games, f"ladder {setup.game} {setup.players}p") as step:
            found = ladder(setup, bots, options.games, options.seed, workers=options.workers, progress=step)
        answers.append({**found, "elapsed_s": round(time.perf_counter() - started, 3)})
    result = answers[0] if len(answers) == 1 else {"runs": answers}
    print(json.dumps(result, ensure_ascii=False, indent=1) if asked.json else "\n\n".join(map(text, answers)))
    return 0


def ladder(setup: Setup, bots: Sequence[str], games: int, seed: int, *, workers: int = 0,
           progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """The round robin of `bots` under `setup`'s rules: each pair's share of the wins, ratings
    and the skill depth (see the module's docstring)."""
    matches = {(a, b): Setup(setup.game, setup.spec, setup.options, setup.players, (a, b))
               for a, b in combinations(bots, 2)}
    played = run_each((chunk for match in matches.values() for chunk in chunks(match, games, seed)), workers=workers,
                      progress=progress)
    shares = {pair: _share(played[match]) for pair, match in matches.items()}
    ratings = strengths(bots, {pair: (share.value, share.n) for pair, share in shares.items()})
    against_random = {bot: _against(shares, bot, BASELINE) for bot in bots if bot != BASELINE}
    best = max(against_random, key=lambda bot: against_random[bot].value, default=BASELINE)
    depth = against_random.get(best, rate(0.5, 1))
    summary = {
        "game": setup.game, "players": setup.players, "games": games, "seed": seed, "bots": list(bots),
        "options": dict(setup.options),
        "pairs": [{"a": a, "b": b, "a_wins": share.as_json(), "games": share.n,
                   "stronger": _stronger(a, b, share)}
                  for (a, b), share in shares.items()],
        "ratings": {bot: round(ratings[bot], 1) for bot in sorted(bots, key=lambda bot: -ratings[bot])},
        "skill_depth": {"best": best, "vs_random": depth.as_json(), "elo": round(elo(depth.value), 1),
                        "elo_ci95": [round(elo(depth.low), 1), round(elo(depth.high), 1)]},
    }
    return {"verdict": jsonable(verdict(summary, depth)), **summary}


def _share(played: Tally) -> Estimate:
    """The first bot's share of the wins of a match of two."""
    _, wins = played.bot_seats(2)
    decided = float(wins[0] + wins[1])  # games with a winner among the two (every game, in these games)
    return rate(float(wins[0]), round(decided)) if decided else rate(0, 0)


def _stronger(a: str, b: str, share: Estimate) -> str | None:
    """The bot of a pair that wins more than half of their games beyond chance; None if neither
    does (`share`: a's)."""
    return a if share.low > 0.5 else b if share.high < 0.5 else None


def _against(shares: dict[tuple[str, str], Estimate], bot: str, other: str) -> Estimate:
    """`bot`'s share of the wins against `other`, whichever way round the pair was listed."""
    if (bot, other) in shares:
        return shares[(bot, other)]
    mine = shares[(other, bot)]
    return Estimate(1 - mine.value, 1 - mine.high, 1 - mine.low, mine.n, mine.n - mine.spread, "rate")


def elo(share: float) -> float:
    """The Elo difference that makes `share` the expected score (capped at ±`MOST_ELO`)."""
    if share <= 0 or share >= 1:
        return math.copysign(MOST_ELO, share - 0.5)
    return max(-MOST_ELO, min(MOST_ELO, ELO * math.log(share / (1 - share))))


def strengths(bots: Sequence[str], results: dict[tuple[str, str], tuple[float, int]]) -> dict[str, float]:
    """Bradley–Terry ratings in Elo points, `random` (else the first bot) at 0, from each pair's
    share of the wins of its first bot and its games (a little of a draw added to every pair,
    so a bot that never loses still gets a finite rating)."""
    wins = {bot: 0.0 for bot in bots}
    games: dict[tuple[str, str], float] = {}
    for (a, b), (share, n) in results.items():
        wins[a] += share * n + 0.5
        wins[b] += (1 - share) * n + 0.5
        games[(a, b)] = n + 1.0
    strength = {bot: 1.0 for bot in bots}
    for _ in range(FIT_ROUNDS):
        strength = _fitted(bots, wins, games, strength)
    return {bot: ELO * math.log(value) for bot, value in strength.items()}


def _fitted(bots: Sequence[str], wins: dict[str, float], games: dict[tuple[str, str], float],
            strength: dict[str, float]) -> dict[str, float]:
    """One step of the Bradley–Terry fit (Zermelo's iteration): each bot's wins over its
    expected games, scaled so `random` (else the first bot) is 1."""
    fitted = {}
    for bot in bots:
        against = sum(n / (strength[a] + strength[b]) for (a, b), n in games.items() if bot in (a, b))
        fitted[bot] = wins[bot] / against if against else strength[bot]
    scale = fitted[BASELINE if BASELINE in fitted else bots[0]]
    return {bot: value / scale for bot, value in fitted.items()}


def verdict(summary: dict[str, Any], depth: Estimate) -> list[dict[str, Any]]:
    """The skill depth in words, then each pair with a stronger bot."""
    best = summary["skill_depth"]["best"]
    low, high = depth.low, depth.high
    if low > 0.5:
        words = f"Skill matters: {best}, the strongest bot, wins {percent(depth.value)} of its games against random " \
                f"({percent(low)}–{percent(high)}; {summary['skill_depth']['elo']:+.0f} Elo)."
    else:
        words = f"No bot beats random beyond chance: the best, {best}, wins {percent(depth.value)} against it " \
                f"({percent(low)}–{percent(high)}): these bots find little skill in the game."
    items: list[dict[str, Any]] = [{"kind": "skill_depth", "best": best, "value": depth.value, "ci95": [low, high],
                                    "text": words}]
    for pair in summary["pairs"]:
        if pair["stronger"]:
            weaker = pair["b"] if pair["stronger"] == pair["a"] else pair["a"]
            share = pair["a_wins"]["value"] if pair["stronger"] == pair["a"] else 1 - pair["a_wins"]["value"]
            items.append({"kind": "stronger", "stronger": pair["stronger"], "weaker": weaker, "value": share,
                          "text": f"{pair['stronger']} beats {weaker}: {percent(share)} of the wins."})
    return items


def text(answer: dict[str, Any]) -> str:
    lines = [f"{answer['game']} · {answer['players']} players · ladder of {', '.join(answer['bots'])} · "
             f"{answer['games']} games a pair · seed {answer['seed']}"]
    lines += [f"  • {item['text']}" for item in answer["verdict"]]
    lines += ["", "  pair                          first bot's share of the wins   95 % interval"]
    for pair in answer["pairs"]:
        low, high = pair["a_wins"]["ci95"]
        lines.append(f"  {pair['a'] + ' vs ' + pair['b']:<30}{pair['a_wins']['value']:>31.3f}   [{low:.3f}, {high:.3f}]"
                     + (" *" if pair["stronger"] else ""))
    lines += ["", "  ratings (Elo points above random): "
              + ", ".join(f"{bot} {value:+.0f}" for bot, value in answer["ratings"].items())]
    lines += ["", "glossary:", "  A pair's share of the wins: the wins of the first bot's seats over all the pair's "
              "games (its seats alternate with the other's, game by game); ½ when they are equally good. A star: "
              "the interval excludes ½.", "  Skill depth: the strongest bot's share against random, and the same "
              "in Elo points (+200: it scores 76 %)."]
    return "\n".join(lines)
