"""Акционер referee speed: `pnp referee check` on the longest game the rules allow (a
subprocess, start-up included) and whole random games replayed per second, through the
referee's code path (read + replay) and through the engine alone.

Run on its own with `python benchmarks/bench_referee_aktsioner.py`; `benchmarks/run.py` finds
`main()`, which returns (name, value, unit) rows.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from timing import check_walls

from pnp.cli import load_spec
from pnp.referee import aktsioner as referee
from pnp.referee import record as records
from pnp.referee.replay import replay
from pnp.rules import aktsioner
from pnp.rules.aktsioner.playout import random_game

PLAYERS = ("Ana", "Ben", "Cris", "Dan", "Eve", "Fay")
ROOT = Path(__file__).resolve().parents[1]
RUNS = 7


def long_record(game) -> tuple[str, int]:
    """6 players, formula 3+5 (48 turns, the most min_undealt = 2 allows), dealt, with a
    trade in every stage where trading is allowed."""
    p = aktsioner.params(game)
    deal, turns, _ = random_game(p, PLAYERS, random.Random(1), trade_rate=1.0)
    return referee.record_text(PLAYERS, turns, deal=deal), len(turns)


def random_games(game, count: int) -> list[tuple[tuple[str, ...], dict | None, list]]:
    p = aktsioner.params(game)
    games = []
    for seed in range(count):
        players = PLAYERS[: 2 + seed % 5]
        deal, turns, _ = random_game(p, players, random.Random(seed), dealt=seed % 2 == 0)
        games.append((players, deal, turns))
    return games


def replays_per_second(game, games) -> tuple[float, float]:
    """Whole random games read from record text and replayed: games/s and turns/s."""
    texts = [referee.record_text(players, turns, deal=deal) for players, deal, turns in games]
    start = time.perf_counter()
    for text in texts:
        outcome = replay(records.reads(text, {"aktsioner": referee.KEYS}), game)
        assert outcome.ok and referee.state_json(outcome.state)["over"]
    elapsed = time.perf_counter() - start
    return len(texts) / elapsed, sum(len(turns) for _, _, turns in games) / elapsed


def engine_games_per_second(game, games) -> float:
    """The same games applied action by action to the engine, no parsing."""
    p = aktsioner.params(game)
    start = time.perf_counter()
    for players, deal, turns in games:
        state, _ = aktsioner.setup(p, players, hands=deal)
        for actions in turns:
            for action in actions:
                state, _ = aktsioner.apply(state, action, p)
        assert state.over
    return len(games) / (time.perf_counter() - start)


def main() -> list[tuple[str, float, str]]:
    game = load_spec(None).games["aktsioner"]
    text, length = long_record(game)
    times = check_walls({"long": text, "starter": referee.starter(game, list(PLAYERS))})
    long_times, start_up = times["long"], statistics.median(times["starter"])
    games = random_games(game, 60)
    per_second, turns = replays_per_second(game, games)
    return [
        (f"aktsioner referee check: 6 players, {length} turns, dealt (fresh process, median wall)",
         statistics.median(long_times), "s"),
        ("aktsioner referee check: the same, best run", min(long_times), "s"),
        ("aktsioner referee check: starter record, no turns (fresh process: start-up)", start_up, "s"),
        ("aktsioner random games replayed (read + replay, 2-6 players)", per_second, "games/s"),
        ("aktsioner turns replayed", turns, "turns/s"),
        ("aktsioner random games through the engine alone", engine_games_per_second(game, games), "games/s"),
    ]


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<84} {value:10.3f} {unit}")
