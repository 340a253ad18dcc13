"""Simulator speed for every registered game (`pnp simulate`, random bots, 4 players).

Per game:
- games per second on one core (the best of five one-second windows): the simulator's own path (driver, probe, metrics inputs) in
  this process, by CPU time (so other processes on a shared machine do not count), the figure
  the issue's targets are about (bolsa ≥ 2,000, aktsioner and For-Ex ≥ 1,000); with every
  seat random that is the engine's fast `playout` where it has one;
- the same on the general path (`play_game(..., fast=False)`: legal_actions, the sampler,
  apply), what any other bot goes through, and the ratio of the two;
- 10,000 games with two worker processes, wall time (start-up of the pool included) and the
  speed-up over one worker;
- the same answer either way (checked, not timed).

Run it alone with `python benchmarks/bench_simulate.py`; `benchmarks/run.py` finds `main()`.
"""

from __future__ import annotations

import random
import time

from pnp.rules import GAMES
from pnp.simulate.play import play_game
from pnp.simulate.runner import Setup, chunks, context, run, run_chunk, seating
from pnp.spec import default_spec_path

SPEC = str(default_spec_path().resolve())
ONE_CORE_SECONDS = 1.0
WINDOWS = 5
MANY = 10_000


def setup(game: str) -> Setup:
    return Setup(game, SPEC, (), 4, ("random",))


def games_per_second_on_one_core(game: str) -> float:
    """Chunks played in this process, in `WINDOWS` windows of `ONE_CORE_SECONDS` of CPU time
    each: the best window's rate. A shared virtual machine swings by half within a minute
    (other tenants, frequency), and CPU time does not hide that; the best window is what the
    code does when the machine lets it."""
    jobs = iter(chunks(setup(game), 100_000, seed=1))  # more than the windows play; a far longer list slows the garbage collector
    run_chunk(next(jobs))  # the spec read and the engine imported before timing
    rates = []
    for _ in range(WINDOWS):
        played, start = 0, time.process_time()
        while time.process_time() - start < ONE_CORE_SECONDS:
            played += len(run_chunk(next(jobs)))
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


def wall(game: str, count: int, workers: int) -> tuple[float, list]:
    start = time.perf_counter()
    results = run(chunks(setup(game), count, seed=2), workers=workers)
    return time.perf_counter() - start, results


def main() -> list[tuple[str, float, str]]:
    rows = []
    for game in GAMES:
        one_core = games_per_second_on_one_core(game)
        general = general_path_games_per_second(game)
        two_wall, two = wall(game, MANY, 2)
        one_wall, one = wall(game, 2_000, 1)
        assert one == two[:2_000], f"{game}: one and two workers disagree"
        speedup = (MANY / two_wall) / (2_000 / one_wall)
        rows += [
            (f"{game} simulate: random bots, 4 players, one core (CPU time)", one_core, "games/s"),
            (f"{game} simulate: the same on the general path (any bot)", general, "games/s"),
            (f"{game} simulate: fast playout over the general path", one_core / general, "×"),
            (f"{game} simulate: {MANY:,} games, --workers 2 (wall, pool start-up included)", two_wall, "s"),
            (f"{game} simulate: speed-up from 1 to 2 workers", speedup, "×"),
        ]
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<72} {value:10.2f} {unit}")
