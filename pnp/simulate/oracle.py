"""A game's fast playout held to its engine: from the same seed, the simulator's fast path (the
engine's `playout`) and its slow path (the engine's functions, the random bot drawing from the
templates) must play the same game — scores, winners, reason, steps, length, every mark, money
peak and supply low (`GameResult`). `pnp engine check` runs this for a game whose registry
entry offers a playout (`about.playout`), and `tests/test_playout.py` under every house rule.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from pnp.referee.conformance import Failure
from pnp.rules.base import Violation
from pnp.simulate.play import play_game
from pnp.simulate.runner import Setup, context, seating


def differences(setup: Setup, seed: Any, games: int) -> tuple[int, list[tuple[int, str]]]:
    """How many of `games` random games of `setup` (seeded `"{seed}/{index}"`) were played
    both ways (none when the rules cannot seat its players: refused both ways with the same
    rule, else a difference), and (game index, what differs) for each the playout plays
    otherwise than the engine."""
    ctx = context(setup)
    found: list[tuple[int, str]] = []
    for index in range(games):
        ids, names = seating(setup, index)
        seats = [ctx.bots[bot] for bot in ids]
        results: list[Any] = []
        for fast in (True, False):
            try:
                results.append(play_game(ctx.engine, ctx.params, ctx.probe, ctx.money, seats, names,
                                         random.Random(f"{seed}/{index}"), index=index, bot_ids=ids, fast=fast))
            except Violation as error:  # a count these rules cannot seat: refused both ways
                results.append(error.rule)
        fast_result, slow_result = results
        if fast_result != slow_result:
            found.append((index, _differing(fast_result, slow_result)))
        if isinstance(slow_result, str):
            return 0, found
    return games, found


def playout_failures(game: str, spec: str, counts: range, seed: int, games: int) -> list[Failure]:
    """`pnp engine check`'s "playout": game g (seed S+g) played both ways at a player count
    of `counts` taken by its seed, so that `--games 1 --seed S+g` shows it again."""
    found = []
    for number in range(games):
        game_seed = seed + number
        players = counts[game_seed % len(counts)]
        for _, differs in differences(Setup(game, spec, (), players, ("random",)), game_seed, 1)[1]:
            found.append(Failure("playout", game_seed, 0, f"{players} players: the playout's game is not the "
                                                          f"engine's: {differs}"))
    return found


def _differing(fast: Any, slow: Any) -> str:
    """The first fields of two results that differ, as `name: fast ≠ slow`."""
    if isinstance(fast, str) or isinstance(slow, str):
        return f"{fast!r} ≠ {slow!r}"
    shown = [f"{f.name}: {getattr(fast, f.name)!r} ≠ {getattr(slow, f.name)!r}" for f in fields(fast)
             if getattr(fast, f.name) != getattr(slow, f.name)]
    return "; ".join(shown[:3])[:300]
