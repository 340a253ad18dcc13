"""The simulator's fast path against a minimal loop: a speed figure a shared machine can keep.

Games per second on one core swing by half on a shared virtual machine within a minute, CPU
time included. A fixed pure-Python loop (a draw, a branch, a list update) run in the same
windows, just before and just after each game's, swings with it; the ratio of the two — random
bot games per second (`bench_simulate.games_per_second_on_one_core`, every seat random, 4
players: the engines' playouts) over minimal loops per second — is what a change of the
engines is held to ("within 10 % of today's", issue 24). `python benchmarks/run.py
bench_simulate_ratio` runs it alone (`bench_simulate` runs it with `bench_simulate`), or
`python benchmarks/bench_simulate_ratio.py`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's pnp, not an installed one

import random
import time

from bench_simulate import games_per_second_on_one_core  # beside this file: its directory leads sys.path

from pnp.rules import GAMES

WINDOWS = 5
SECONDS = 1.0
LOOP = 10_000  # draws a round of the minimal loop


def minimal_loops_per_second() -> float:
    """Rounds of a fixed loop per second of CPU time, the best of `WINDOWS` windows."""
    rates = []
    for _ in range(WINDOWS):
        rng, counts, done, start = random.Random(0), [0] * 10, 0, time.process_time()
        while time.process_time() - start < SECONDS:
            for _ in range(LOOP):
                k = int(rng.random() * 10)
                if k:
                    counts[k] += 1
            done += 1
        rates.append(done / (time.process_time() - start))
    return max(rates)


def main() -> list[tuple[str, float, str]]:
    rows: list[tuple[str, float, str]] = []
    for game in GAMES:
        before = minimal_loops_per_second()
        games = games_per_second_on_one_core(game)
        after = minimal_loops_per_second()
        loop = (before + after) / 2
        rows += [
            (f"{game} simulate: minimal loop, around the games (CPU time)", loop, "rounds/s"),
            (f"{game} simulate: random-bot games over the minimal loop", games / loop, "games/round"),
        ]
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<72} {value:10.3f} {unit}")
