"""The search bot against greedy, every registered game (`--bots search,greedy`, 4 players).

Per game, `GAMES` games with the search bot at its default budget (`search`) in seats 1 and 3
and greedy in 2 and 4, then the other way round (the runner's rotation), on two workers:
- the search bot's share of the wins with its 95 % interval (the target: ≥ 60 %, the interval
  above the fair half);
- games per second per core: the games over the workers' CPU time (so the load of a shared
  machine does not count; the target: ≥ 0.5).

It takes a while (For-Ex's searched games take about 1.5 s of CPU each): run it alone with
`python benchmarks/bench_search.py`, or `benchmarks/run.py bench_search`.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's pnp, not an installed one

import resource

from pnp.rules import GAMES as REGISTERED
from pnp.simulate.metrics import rate
from pnp.simulate.runner import Setup, chunks, run
from pnp.spec.source import default_spec_path

SPEC = str(default_spec_path().resolve())
GAMES = 2_000
WORKERS = 2


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> list[tuple[str, float, str]]:
    rows = []
    for game in REGISTERED:
        before = children_cpu()
        played = run(chunks(Setup(game, SPEC, (), 4, ("search", "greedy")), GAMES, seed=26), workers=WORKERS)
        cpu = children_cpu() - before
        _, wins = played.bot_seats(2)
        share = rate(float(wins[0]), GAMES)
        rows += [
            (f"{game} search vs greedy: the search bot's share of the wins, {GAMES:,} games", share.value, ""),
            (f"{game} search vs greedy: its 95 % interval, low end", share.low, ""),
            (f"{game} search vs greedy: its 95 % interval, high end", share.high, ""),
            (f"{game} search vs greedy: games per second per core (workers' CPU time)", GAMES / cpu, "games/s"),
        ]
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<78} {value:10.3f} {unit}", flush=True)
