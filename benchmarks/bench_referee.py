"""Referee and engine speed for every registered game (`pnp.rules.GAMES`).

Per game:
- `pnp referee check` on a long record in a fresh process (start-up included), median and best
  of several runs, beside the same command on the starter record (the start-up alone), and its
  ratio to `python -c "import yaml"` (issue 12's start-up target: at most 4×), with the engine
  parameters cached and without;
- whole random games, played with the engine's `legal_actions` and the shared sampler, then
  read back from record text and replayed through the referee, per second;
- the same random play through the engine alone (what a simulator pays per game).

Run it alone with `python benchmarks/bench_referee.py`; `benchmarks/run.py` finds `main()`,
which returns (name, value, unit) rows.
"""

from __future__ import annotations

import random
import statistics
import time

from timing import check_walls, start_up_ratios

from pnp.referee import reads_record, replay
from pnp.referee import record as records
from pnp.referee.replay import referee_for
from pnp.rules import GAMES, load_spec
from pnp.rules.contract import play

PLAYERS = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")
# A long game of each: the most players, and the house rules that make it last.
LONG = {"bolsa": {"rounds": 10}, "aktsioner": {}, "forex": {"contract_max": 1}}


def random_game(game_id: str, game, options: dict, players: tuple[str, ...], seed: int) -> tuple[str, int]:
    """One random legal game from the standard setup, as record text, and its length."""
    engine, referee = GAMES[game_id].engine, referee_for(game_id)
    p = engine.params(game, options)
    state, _ = engine.setup(p, players)
    actions = [action for action, _, _ in play(engine, state, p, random.Random(seed))]
    return records.dump(referee.record(p, players, actions, options)), len(actions)


def long_record(game_id: str, game) -> tuple[str, int]:
    """The longest of ten random games with every seat taken."""
    seats = PLAYERS[: game.players.max]
    return max((random_game(game_id, game, LONG[game_id], seats, seed) for seed in range(10)), key=lambda g: g[1])


def replays_per_second(game_id: str, game, count: int = 40) -> tuple[float, float]:
    """Whole random games (every player count the game seats) read from text and replayed:
    games/s and actions/s."""
    low, high = game.players.min, game.players.max
    played = [random_game(game_id, game, {}, PLAYERS[: low + seed % (high - low + 1)], seed) for seed in range(count)]
    engine = GAMES[game_id].engine
    start = time.perf_counter()
    for text, _ in played:
        answer = replay(reads_record(text), engine.params(game))
        assert answer.ok and engine.outcome(answer.state, answer.params) is not None
    elapsed = time.perf_counter() - start
    return count / elapsed, sum(length for _, length in played) / elapsed


def engine_games_per_second(game_id: str, game, count: int = 40) -> float:
    """Random legal games of 4 players played by the engine and the sampler alone."""
    engine = GAMES[game_id].engine
    p = engine.params(game)
    start = time.perf_counter()
    for seed in range(count):
        state, _ = engine.setup(p, PLAYERS[:4])
        for _ in play(engine, state, p, random.Random(seed)):
            pass
    return count / (time.perf_counter() - start)


def main() -> list[tuple[str, float, str]]:
    spec = load_spec(None)
    rows = []
    for game_id, game in spec.games.items():
        if game_id not in GAMES:
            continue
        text, length = long_record(game_id, game)
        starter = referee_for(game_id).starter(game, list(PLAYERS[: game.players.max]))
        times = check_walls({"long": text, "starter": starter})
        warm, cold = start_up_ratios(text)
        games, actions = replays_per_second(game_id, game)
        rows += [
            (f"{game_id} referee check: {game.players.max} players, {length} actions (fresh process, median wall)",
             statistics.median(times["long"]), "s"),
            (f"{game_id} referee check: the same, best run", min(times["long"]), "s"),
            (f"{game_id} referee check: starter record (fresh process: start-up)",
             statistics.median(times["starter"]), "s"),
            (f"{game_id} referee check on the long record ÷ python -c 'import yaml' (median of interleaved runs)",
             warm, "×"),
            (f"{game_id}   the same with no parameter cache (the first answer for a spec)", cold, "×"),
            (f"{game_id} random games read and replayed", games, "games/s"),
            (f"{game_id} actions replayed", actions, "actions/s"),
            (f"{game_id} random games, engine and sampler alone (4 players)", engine_games_per_second(game_id, game),
             "games/s"),
        ]
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<84} {value:10.3f} {unit}")
