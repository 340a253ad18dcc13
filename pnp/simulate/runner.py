"""Games in chunks, on one core, a process pool or a Dask cluster, with the same results.

A simulation of N games is cut into chunks of `CHUNK_GAMES` games. Each chunk draws from its
own random generator, seeded from the simulation's seed and the chunk's number, and the
chunks' results are merged in chunk order: so the answer depends on the seed alone, never on
how many workers played it or in which order they finished. Game i seats bot (i + seat) mod
k in each seat, so every bot sits in every seat equally often over k games.

A worker rebuilds the game from the `Setup` once (spec file, house rules, players, bots) and
keeps it for the chunks that follow. `--dask ADDRESS` sends the same chunks to a running Dask
cluster (`--dask local` starts a LocalCluster): past one machine that is the path, not a
scheduler of our own.
"""

from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from pnp.errors import UsageError
from pnp.rules import GAMES, load_spec
from pnp.simulate import games
from pnp.simulate.bots import Bot
from pnp.simulate.play import GameResult, play_game
from pnp.simulate.pressure import Bills, printed_money
from pnp.simulate.probe import Probe

CHUNK_GAMES = 100


@dataclass(frozen=True)
class Setup:
    """One rule set to simulate: everything a worker needs to rebuild the game."""

    game: str
    spec: str  # the spec file's absolute path (workers on other machines need it too)
    options: tuple[tuple[str, Any], ...]  # house rules set on the command line, already checked
    players: int
    bots: tuple[str, ...]


@dataclass(frozen=True)
class Chunk:
    """Games `first` … `first + count − 1` of a simulation, played with one generator."""

    setup: Setup
    seed: int
    number: int
    first: int
    count: int
    records: str | None = None  # a folder for the records of games numbered below `record_limit`
    record_limit: int = 0
    tracks: int = 0  # games numbered below this keep their track after every step (for plots)


@dataclass(frozen=True)
class Context:
    """A `Setup` made playable: the engine, its params, the probe, the printed money, bots."""

    engine: Any
    params: Any
    probe: Probe
    money: tuple[Bills | None, ...]  # per probe currency
    bots: tuple[Bot, ...]

    @property
    def printed(self) -> tuple[Bills, ...]:
        return tuple(bills for bills in self.money if bills is not None)


@lru_cache(maxsize=8)
def context(setup: Setup) -> Context:
    """The game of `setup`, built once per process (the spec is read once)."""
    game = load_spec(setup.spec).games[setup.game]
    engine = GAMES[setup.game].engine
    params = engine.params(game, dict(setup.options))
    probe = games.probe(setup.game, params)
    bills = printed_money(game)
    known = games.bots(setup.game)
    return Context(engine, params, probe, tuple(bills.get(c) for c in probe.currencies),
                   tuple(known[name] for name in setup.bots))


def chunks(setup: Setup, count: int, seed: int, *, records: str | None = None, record_limit: int = 0,
           tracks: int = 0) -> list[Chunk]:
    return [Chunk(setup, seed, number, first, min(CHUNK_GAMES, count - first), records, record_limit, tracks)
            for number, first in enumerate(range(0, count, CHUNK_GAMES))]


def seating(setup: Setup, index: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Game `index`'s bot per seat (rotated one seat per game) and the seats' names, which say
    who plays them: "random1", "value2", …"""
    bots = tuple((index + seat) % len(setup.bots) for seat in range(setup.players))
    return bots, tuple(f"{setup.bots[bot]}{seat + 1}" for seat, bot in enumerate(bots))


def run_chunk(chunk: Chunk) -> list[GameResult]:
    """Play one chunk's games in order; write the records asked for."""
    setup, ctx = chunk.setup, context(chunk.setup)
    rng = random.Random(f"{chunk.seed}/{chunk.number}")
    results = []
    for index in range(chunk.first, chunk.first + chunk.count):
        ids, names = seating(setup, index)
        recorded = chunk.records is not None and index < chunk.record_limit
        result = play_game(ctx.engine, ctx.params, ctx.probe, ctx.money, [ctx.bots[b] for b in ids], names, rng,
                           index=index, bot_ids=ids, keep_actions=recorded, keep_track=index < chunk.tracks)
        if recorded:
            _write_record(chunk, ctx, names, result)
            result = replace(result, actions=None, start=None)
        results.append(result)
    return results


def _write_record(chunk: Chunk, ctx: Context, names: Sequence[str], result: GameResult) -> None:
    from pnp.referee import record as records
    from pnp.referee.replay import referee_for

    data = referee_for(chunk.setup.game).record(ctx.params, names, result.actions or (), dict(chunk.setup.options),
                                                start=result.start)
    path = Path(chunk.records or ".") / f"{chunk.setup.game}-{chunk.setup.players}p-{result.index + 1:06d}.yaml"
    path.write_text(records.dump(data), encoding="utf-8")


# --- where the chunks run ---------------------------------------------------------------------------


def run(jobs: Sequence[Chunk], *, workers: int = 0, dask: str | None = None,
        progress: Callable[[int], None] | None = None) -> list[GameResult]:
    """Every chunk's results, merged in chunk order. `workers` 0: every core; 1: this process."""
    workers = workers or os.cpu_count() or 1
    if dask is not None:
        done = _on_dask(jobs, dask, workers, progress)
    elif workers == 1 or len(jobs) <= 1:
        done = (_reported(run_chunk(job), progress) for job in jobs)
    else:
        with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
            done = [_reported(results, progress) for results in pool.map(run_chunk, jobs)]
    return [result for results in done for result in results]


def _reported(results: list[GameResult], progress: Callable[[int], None] | None) -> list[GameResult]:
    if progress is not None:
        progress(len(results))
    return results


def _on_dask(jobs: Sequence[Chunk], address: str, workers: int,
             progress: Callable[[int], None] | None) -> Iterable[list[GameResult]]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UsageError('--dask needs Dask: pip install ".[dask]"') from None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) if address == "local" else None
    try:
        with Client(cluster if cluster is not None else address, timeout=10) as client:
            futures = client.map(run_chunk, jobs, pure=False)
            for future in as_completed(futures):
                _reported(future.result(), progress)
            return client.gather(futures)  # type: ignore[no-any-return]
    except OSError as error:
        raise UsageError(f"--dask {address}: cannot reach the Dask scheduler ({error})") from None
    finally:
        if cluster is not None:
            cluster.close()
