"""Referee speed for bolsa (issue 7).

- `pnp referee check` on a 10-round, 6-player record in a fresh process, start-up included
  (target: under 0.3 s wall on 2 cores), beside the same command on the starter record (no
  rounds: the start-up alone) and a bare spec load, so the share of each cost shows.
- Whole random games (5 rounds, 3–6 players, standard rules) read from text and replayed per
  second in-process, and the same games played by the engine alone.

Run it alone with `python benchmarks/bench_referee_bolsa.py`; `benchmarks/run.py` finds
`main()`, which returns (name, value, unit) rows.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

from timing import check_walls, walls

from pnp.cli import load_spec
from pnp.referee import bolsa as referee
from pnp.referee.record import reads
from pnp.referee.replay import replay
from pnp.rules import bolsa
from pnp.rules.bolsa.playout import play

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")
RUNS = 7


def random_game(game, options: dict, players: tuple[str, ...], seed: int) -> str:
    """One random legal game from the standard setup, as record text."""
    p = bolsa.params(game, options)
    state, _ = bolsa.setup(p, players)
    actions = [action for action, _, _ in play(state, p, random.Random(seed).randint)]
    return referee.record_text(p, players, actions, options)


def replays_per_second(game, count: int = 60) -> tuple[float, float]:
    """Whole random games read from text and replayed: games/s and steps/s."""
    texts = [random_game(game, {}, PLAYERS[: 3 + seed % 4], seed) for seed in range(count)]
    steps, start = 0, time.perf_counter()
    for text in texts:
        outcome = replay(reads(text, {"bolsa": referee.KEYS}), game)
        assert outcome.ok and referee.state_json(outcome.state)["over"]
        steps += outcome.checked
    elapsed = time.perf_counter() - start
    return count / elapsed, steps / elapsed


def games_per_second(game, count: int = 100) -> float:
    p = bolsa.params(game)
    start = time.perf_counter()
    for seed in range(count):
        state, _ = bolsa.setup(p, PLAYERS[: 3 + seed % 4])
        for _ in play(state, p, random.Random(seed).randint):
            pass
    return count / (time.perf_counter() - start)


def main() -> list[tuple[str, float, str]]:
    game = load_spec(None).games["bolsa"]
    text = random_game(game, {"rounds": 10}, PLAYERS, seed=7)
    steps = replay(reads(text, {"bolsa": referee.KEYS}), game).checked
    times = check_walls({"long": text, "starter": referee.starter(game, list(PLAYERS))})
    long_times, start_up = times["long"], statistics.median(times["starter"])
    spec_load = statistics.median(walls([sys.executable, "-c", "from pnp.cli import load_spec; load_spec(None)"]))
    python = statistics.median(walls([sys.executable, "-c", "pass"]))
    games, rate = replays_per_second(game)
    return [
        (f"bolsa referee check: 10 rounds × 6 players, {steps} steps (fresh process, median wall)",
         statistics.median(long_times), "s"),
        ("bolsa referee check: the same, best run", min(long_times), "s"),
        ("bolsa referee check: starter record, no rounds (fresh process: start-up)", start_up, "s"),
        ("bolsa:   of which a bare spec load (fresh process)", spec_load, "s"),
        ("bolsa:   of which python itself", python, "s"),
        ("bolsa random games replayed (read + replay, 5 rounds, 3-6 players)", games, "games/s"),
        ("bolsa referee steps replayed", rate, "steps/s"),
        ("bolsa random games played by the engine alone", games_per_second(game), "games/s"),
    ]


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<84} {value:10.3f} {unit}")
