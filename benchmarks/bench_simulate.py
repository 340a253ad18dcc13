"""Simulator speed and memory for every registered game (`pnp simulate`, random bots, 4 players).

Per game:
- games per second on one core (the best of five one-second windows): the simulator's own
  path (driver, probe, the chunk's tally) in this process, by CPU time (so other processes on a
  shared machine do not count), the figure the issue's targets are about (bolsa ≥ 2,000,
  aktsioner and For-Ex ≥ 1,000); with every seat random that is the engine's fast `playout`;
- the same on the general path (`play_game(..., fast=False)`: legal_actions, the sampler,
  apply), what any other bot goes through, and the ratio of the two;
- `SPEEDUP_GAMES` games with one worker and with two, wall time (pool start-up included) and
  the speed-up, with the machine's load average beside it (a speed-up read on a loaded machine
  says little); the same tally either way (checked, not timed);
and for bolsa, the coordinator's peak resident memory after `MEMORY_GAMES` games: flat,
because workers send back tallies, never a result per game.

Run it alone with `python benchmarks/bench_simulate.py`; `benchmarks/run.py` finds `main()`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's pnp, not an installed one

import os
import random
import resource
import time

from pnp.rules import GAMES
from pnp.simulate.play import play_game
from pnp.simulate.runner import Setup, chunks, context, run, run_chunk, seating
from pnp.spec.source import default_spec_path

SPEC = str(default_spec_path().resolve())
ONE_CORE_SECONDS = 1.0
WINDOWS = 5
SPEEDUP_GAMES = 100_000
MEMORY_GAMES = (10_000, 100_000, 1_000_000)


def setup(game: str) -> Setup:
    return Setup(game, SPEC, (), 4, ("random",))


def games_per_second_on_one_core(game: str) -> float:
    """Chunks played in this process, in `WINDOWS` windows of `ONE_CORE_SECONDS` of CPU time
    each: the best window's rate. A shared virtual machine swings by half within a minute
    (other tenants, frequency), and CPU time does not hide that; the best window is what the
    code does when the machine lets it."""
    jobs = chunks(setup(game), 100_000_000, seed=1)  # made as they are asked for: no list to slow the collector
    run_chunk(next(jobs))  # the spec read and the engine imported before timing
    rates = []
    for _ in range(WINDOWS):
        played, start = 0, time.process_time()
        while time.process_time() - start < ONE_CORE_SECONDS:
            played += run_chunk(next(jobs)).games
        rates.append(played / (time.process_time() - start))
    return max(rates)


def general_path_games_per_second(game: str) -> float:
    """Games played on the general path, every seat random: the best of `WINDOWS` windows."""
    ctx, rng, rates, played = context(setup(game)), random.Random(3), [], 0
    for _ in range(WINDOWS):
        done, start = played, time.process_time()
        while time.process_time() - start < ONE_CORE_SECONDS:
            ids, names = seating(setup(game), played)
            play_game(ctx.engine, ctx.params, ctx.probe, ctx.money, [ctx.bots[b] for b in ids], names, rng, fast=False)
            played += 1
        rates.append((played - done) / (time.process_time() - start))
    return max(rates)


def wall(game: str, count: int, workers: int) -> tuple[float, object]:
    start = time.perf_counter()
    tally = run(chunks(setup(game), count, seed=2), workers=workers)
    return time.perf_counter() - start, tally


def coordinator_peak(count: int) -> float:
    """The coordinator's peak resident memory (MB, this process alone: the workers are others)
    after two workers played `count` bolsa games. The peak only grows over a process's life, so
    the counts are played smallest first: a flat figure is memory that does not grow with the
    games (what the parent holds is a few chunks in flight and one tally)."""
    run(chunks(setup("bolsa"), count, seed=5), workers=2)
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> list[tuple[str, float, str]]:
    rows = []
    for game in GAMES:
        one_core = games_per_second_on_one_core(game)
        general = general_path_games_per_second(game)
        load = os.getloadavg()[0]
        one_wall, one = wall(game, SPEEDUP_GAMES, 1)
        two_wall, two = wall(game, SPEEDUP_GAMES, 2)
        assert one == two, f"{game}: one and two workers disagree"
        rows += [
            (f"{game} simulate: random bots, 4 players, one core (CPU time)", one_core, "games/s"),
            (f"{game} simulate: the same on the general path (any bot)", general, "games/s"),
            (f"{game} simulate: fast playout over the general path", one_core / general, "×"),
            (f"{game} simulate: {SPEEDUP_GAMES:,} games, --workers 2 (wall, pool start-up included)", two_wall, "s"),
            (f"{game} simulate: speed-up from 1 to 2 workers on {SPEEDUP_GAMES:,} games", one_wall / two_wall, "×"),
            (f"{game} simulate: load average (1 min) when the speed-up was read", load, "processes"),
        ]
    for count in MEMORY_GAMES:
        rows.append((f"bolsa simulate: coordinator's peak resident memory after {count:,} games, 2 workers",
                     coordinator_peak(count), "MB"))
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<80} {value:10.2f} {unit}")
