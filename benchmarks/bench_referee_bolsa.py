"""Referee speed for bolsa (issue 7).

- `pnp referee check` on a 10-round, 6-player record in a fresh process, start-up included
  (target: under 0.3 s wall on 2 cores), with the two costs it cannot avoid measured apart:
  the interpreter's start-up and loading the spec (pydantic imports and validation).
- Full random games (5 rounds, 3–6 players, standard rules) replayed per second in-process:
  record parsing plus the referee's replay; and the same games played by the engine alone.

Run it alone with `python benchmarks/bench_referee_bolsa.py`; `main()` returns
(name, value, unit) rows for `benchmarks/run.py`.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing
NAMES = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")
REPEATS = 7


def random_game(game, options: dict, players: tuple[str, ...], seed: int) -> str:
    """The record of one random legal game from the standard setup."""
    from pnp.referee.bolsa import record_text
    from pnp.rules import bolsa
    from pnp.rules.bolsa.playout import play

    p = bolsa.params(game, options)
    state, _ = bolsa.setup(p, players)
    actions = [action for action, _, _ in play(state, p, random.Random(seed).randint)]
    return record_text(p, players, actions, options)


def _wall(command: list[str]) -> float:
    """Median wall time of a command over REPEATS runs (after one warm-up run)."""
    times = []
    for _ in range(REPEATS + 1):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])


def _per_second(work, minimum: float = 1.0) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < minimum:
        work(count)
        count += 1
    return count / elapsed


def main() -> list[tuple[str, float, str]]:
    from pnp.cli import load_spec
    from pnp.referee.bolsa import KEYS
    from pnp.referee.record import reads
    from pnp.referee.replay import replay
    from pnp.rules import bolsa
    from pnp.rules.bolsa.playout import play

    game = load_spec(None).games["bolsa"]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bolsa_10_rounds_6_players.yaml"
        path.write_text(random_game(game, {"rounds": 10}, NAMES, seed=7), encoding="utf-8")
        check = _wall([sys.executable, "-m", "pnp", "referee", "check", str(path)])
    python = _wall([sys.executable, "-c", "pass"])
    spec = _wall([sys.executable, "-c", "from pnp.cli import load_spec; load_spec(None)"])

    games = [random_game(game, {}, NAMES[: 3 + seed % 4], seed) for seed in range(50)]
    records = [reads(text, {"bolsa": KEYS}) for text in games]

    def replay_one(k: int) -> None:
        assert replay(reads(games[k % len(games)], {"bolsa": KEYS}), game).ok

    p = bolsa.params(game)

    def play_one(k: int) -> None:
        state, _ = bolsa.setup(p, NAMES[: 3 + k % 4])
        for _ in play(state, p, random.Random(k).randint):
            pass

    steps = sum(replay(record, game).checked for record in records) / len(records)
    return [
        ("bolsa: referee check, 10 rounds × 6 players (fresh process, median wall)", check, "s"),
        ("bolsa:   of which python start-up", python, "s"),
        ("bolsa:   of which spec load (imports + validation)", spec - python, "s"),
        (f"bolsa: random games replayed (parse + referee, 5 rounds, ~{steps:.0f} steps each)", _per_second(replay_one), "games/s"),
        ("bolsa: random games played by the engine alone", _per_second(play_one), "games/s"),
    ]


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<80} {value:10.3f} {unit}")
