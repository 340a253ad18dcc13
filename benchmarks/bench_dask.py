"""What Dask and a second worker cost and give: `pnp simulate bolsa --games 20000` as a user runs it.

Issue 41's two ratios, each command run whole as a user runs it (start-up, cluster and imports
included), its CPU counted over every process it starts (the worker processes, a local
cluster's nannies and workers: each reaped, so each is in this process's children's usage):

- `--dask local --workers 2` over `--workers 1`, by CPU: the price of running on Dask (the
  target: at most 1.15×);
- `--workers 1` over `--workers 2`, and over `--dask local --workers 2`, by wall time: what a
  second core gives (the target: at least 1.7× on an idle 2-core machine).

A ratio of wall times says little on a loaded machine: the load average is printed beside them,
before and after. Every answer is checked equal to the one worker's, but its timings.

    python benchmarks/bench_dask.py [GAMES]
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = 20_000
RUNS = {"one worker": ["--workers", "1"], "two workers": ["--workers", "2"],
        "dask local, two workers": ["--dask", "local", "--workers", "2"]}


def timed(games: int, extra: list[str]) -> tuple[float, float, dict]:
    """CPU seconds (this command and every process it started) and wall seconds of one
    `pnp simulate bolsa` run, and its answer without its timings."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pnp", "simulate", "bolsa", "--games", str(games), "--json", *extra],
                          check=True, capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    answer = json.loads(done.stdout)
    answer.pop("elapsed_s")
    return cpu, wall, answer


def main(games: int = GAMES) -> list[tuple[str, float, str]]:
    load = os.getloadavg()[0]
    measured = {name: timed(games, extra) for name, extra in RUNS.items()}
    answers = [answer for _, _, answer in measured.values()]
    assert all(answer == answers[0] for answer in answers), "the runs disagree"
    cpu = {name: found[0] for name, found in measured.items()}
    wall = {name: found[1] for name, found in measured.items()}
    rows = [(f"bolsa simulate {games:,} games, {name}: CPU (every process)", cpu[name], "s") for name in RUNS]
    rows += [(f"bolsa simulate {games:,} games, {name}: wall", wall[name], "s") for name in RUNS]
    rows += [
        ("dask local (2 workers) over one worker, CPU (target ≤ 1.15)", cpu["dask local, two workers"] / cpu["one worker"],
         "×"),
        ("speed-up, two workers over one, wall (target ≥ 1.7 idle)", wall["one worker"] / wall["two workers"], "×"),
        ("speed-up, dask local (2 workers) over one worker, wall", wall["one worker"] / wall["dask local, two workers"],
         "×"),
        ("load average (1 min) before", load, "processes"),
        ("load average (1 min) after", os.getloadavg()[0], "processes"),
    ]
    return rows


if __name__ == "__main__":
    for name, value, unit in main(int(sys.argv[1]) if len(sys.argv) > 1 else GAMES):
        print(f"{name:<72} {value:10.2f} {unit}")
