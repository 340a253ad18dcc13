"""For-Ex referee speed: `pnp referee check` on a long record (a subprocess, start-up
included) and whole random games replayed per second through the referee's code path.

Run on its own with `python benchmarks/bench_referee_forex.py`; `benchmarks/run.py` finds
`main()`, which returns (name, value, unit) rows.
"""

from __future__ import annotations

import random
import statistics
import time

from timing import check_walls

from pnp.cli import load_spec
from pnp.referee import forex as referee
from pnp.referee import record as records
from pnp.referee.replay import replay
from pnp.rules import forex
from pnp.rules.forex.playout import random_game

PLAYERS = ("Ana", "Ben", "Cris", "Dan", "Eve", "Fay")
LONG_GAME = {"resolve": 1, "contract": 2, "invest": 20, "divest": 20}  # many turns between resolves




def long_record(game) -> tuple[str, int]:
    """The longest of ten random 6-player games, played to its end, as record text."""
    p = forex.params(game)
    turns = max((random_game(p, PLAYERS, random.Random(seed), LONG_GAME) for seed in range(10)), key=len)
    return referee.record_text(PLAYERS, turns), len(turns)


def replays_per_second(game, count: int = 60) -> tuple[float, float]:
    """Whole random games (2–6 players) read from text and replayed: games/s and turns/s."""
    p = forex.params(game)
    texts, turns = [], 0
    for seed in range(count):
        players = PLAYERS[: 2 + seed % 5]
        played = random_game(p, players, random.Random(seed))
        turns += len(played)
        texts.append(referee.record_text(players, played))
    start = time.perf_counter()
    for text in texts:
        outcome = replay(records.reads(text, {"forex": referee.KEYS}), game)
        assert outcome.ok and referee.state_json(outcome.state)["over"]
    elapsed = time.perf_counter() - start
    return count / elapsed, turns / elapsed


def main() -> list[tuple[str, float, str]]:
    game = load_spec(None).games["forex"]
    text, length = long_record(game)
    times = check_walls({"long": text, "starter": referee.starter(game, list(PLAYERS))})
    long_time, start_up = statistics.median(times["long"]), statistics.median(times["starter"])
    games, turns = replays_per_second(game)
    return [
        (f"forex referee check: 6 players, {length} turns to the end (fresh process, median wall)", long_time, "s"),
        ("forex referee check: starter record, no turns (fresh process: start-up)", start_up, "s"),
        ("forex random games replayed (read + replay, 2-6 players)", games, "games/s"),
        ("forex turns replayed", turns, "turns/s"),
    ]


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<72} {value:10.3f} {unit}")
