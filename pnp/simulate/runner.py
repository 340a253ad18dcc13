"""Games in chunks, on one core, a process pool or a Dask cluster, with the same results.

A simulation of N games is cut into chunks of `CHUNK_GAMES` games. Each chunk draws from its
own random generator, seeded from the simulation's seed and the chunk's number, and the
chunks' tallies are merged (`pnp.simulate.tally`: exactly, so in any order): the answer
depends on the seed alone, never on how many workers played it, in which order they finished,
or how the chunks were split into shards. Game i seats bot (i + seat) mod
k in each seat, so every bot sits in every seat equally often over k games.

A worker rebuilds the game from the `Setup` once (spec file, house rules, players, bots) and
keeps it for the chunks that follow; it sends back one `Tally` per chunk, never a result per
game, and the coordinator keeps one tally, so its memory does not grow with the games played.
A worker that dies is replaced and its chunks played again, once (`WorkerLost` the second
time); a worker dies with the run (`pnp.workers`), so a killed simulation leaves none playing.
`--dask ADDRESS` sends the same chunks to a running Dask
cluster (`--dask local` starts a LocalCluster): past one machine that is the path, not a
scheduler of our own.
"""

from __future__ import annotations

import itertools
import os
import random
import sys
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from pnp.bots import games, roster
from pnp.bots.common import Bot
from pnp.bots.probe import Probe
from pnp.errors import PnpError, UsageError
from pnp.rules import GAMES, load_spec
from pnp.simulate.play import GameResult, play_game
from pnp.simulate.pressure import Bills, printed_money
from pnp.simulate.tally import Tally, tally
from pnp.workers import die_with_parent

CHUNK_GAMES = 100
CONNECT_SECONDS = 5  # to reach a Dask scheduler before --dask is answered as unreachable


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


@lru_cache(maxsize=64)  # a tune's candidates (up to 27) and a ladder's pairs each have their own
def context(setup: Setup) -> Context:
    """The game of `setup`, built once per process (the spec is read once)."""
    game = load_spec(setup.spec).games[setup.game]
    engine = GAMES[setup.game].engine
    params = engine.params(game, dict(setup.options))
    probe = games.probe(setup.game, params)
    bills = printed_money(game, {currency: probe.money_unit for currency in probe.currencies})
    return Context(engine, params, probe, tuple(bills.get(c) for c in probe.currencies),
                   tuple(_bot(setup.game, name) for name in setup.bots))


def _bot(game: str, name: str) -> Bot:
    found = roster.bot_named(game, name)
    if found is None:
        raise ValueError(f"no bot {name!r} (bots: {', '.join(roster.names(game))})")
    return found


def chunk_count(games: int) -> int:
    """How many chunks `games` games are cut into."""
    return -(-games // CHUNK_GAMES)


def chunks(setup: Setup, count: int, seed: int, *, records: str | None = None, record_limit: int = 0,
           tracks: int = 0, numbers: range | None = None) -> Iterator[Chunk]:
    """The chunks of a simulation of `count` games, made one at a time as they are asked for (a
    billion games is ten million chunks: never a list); `numbers` plays only those chunks (a
    shard's)."""
    for number in numbers if numbers is not None else range(chunk_count(count)):
        first = number * CHUNK_GAMES
        yield Chunk(setup, seed, number, first, min(CHUNK_GAMES, count - first), records, record_limit, tracks)


def shard_numbers(count: int, shard: int, shards: int) -> range:
    """The chunks of shard `shard` (1-based) of `shards`: consecutive blocks as even as can be,
    so the shards of a job array together play every chunk once."""
    total = chunk_count(count)
    return range((shard - 1) * total // shards, shard * total // shards)


def seating(setup: Setup, index: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Game `index`'s bot per seat (rotated one seat per game) and the seats' names, which say
    who plays them: "random1", "value2", …"""
    bots = tuple((index + seat) % len(setup.bots) for seat in range(setup.players))
    return bots, tuple(f"{setup.bots[bot]}{seat + 1}" for seat, bot in enumerate(bots))


def play_chunk(chunk: Chunk) -> Iterator[GameResult]:
    """Play one chunk's games in order, one at a time; write the records asked for."""
    setup, ctx = chunk.setup, context(chunk.setup)
    rng = random.Random(f"{chunk.seed}/{chunk.number}")
    for index in range(chunk.first, chunk.first + chunk.count):
        ids, names = seating(setup, index)
        recorded = chunk.records is not None and index < chunk.record_limit
        result = play_game(ctx.engine, ctx.params, ctx.probe, ctx.money, [ctx.bots[b] for b in ids], names, rng,
                           index=index, bot_ids=ids, keep_actions=recorded, keep_track=index < chunk.tracks)
        if recorded:
            _write_record(chunk, ctx, names, result)
            result = replace(result, actions=None, start=None)
        yield result


def run_chunk(chunk: Chunk) -> Tally:
    """One chunk's games folded into a tally as they are played: what a worker sends back."""
    ctx = context(chunk.setup)
    return tally(play_chunk(chunk), ctx.printed, len(ctx.probe.mark_names), len(ctx.probe.supply_names))


def _write_record(chunk: Chunk, ctx: Context, names: Sequence[str], result: GameResult) -> None:
    from pnp.referee import record as records
    from pnp.referee.replay import referee_for

    data = referee_for(chunk.setup.game).record(ctx.params, names, result.actions or (), dict(chunk.setup.options),
                                                start=result.start)
    path = Path(chunk.records or ".") / f"{chunk.setup.game}-{chunk.setup.players}p-{result.index + 1:06d}.yaml"
    path.write_text(records.dump(data), encoding="utf-8")


# --- where the chunks run ---------------------------------------------------------------------------

IN_FLIGHT = 4  # chunks queued per worker: enough to keep it busy, few enough to hold nothing


class WorkerLost(PnpError):
    """A worker process died twice (killed, out of memory) while playing these chunks."""

    def __init__(self, lost: Sequence[Chunk]):
        self.lost = tuple(sorted(chunk.number for chunk in lost))
        games = ", ".join(f"{c.first + 1}–{c.first + c.count}" for c in sorted(lost, key=lambda c: c.number))
        super().__init__(f"--workers: a worker process died twice, the second time with chunk "
                         f"{', '.join(map(str, self.lost))} (games {games}) unfinished; nothing was reported")


def run(jobs: Iterable[Chunk], *, workers: int = 0, dask: str | None = None,
        progress: Callable[[int], None] | None = None, play: Callable[[Chunk], Tally] = run_chunk) -> Tally:
    """Every chunk's tally, merged (in whatever order they finish: merging is exact). `workers`
    0: every core; 1: this process. `play` is what a worker does with a chunk (`run_chunk`)."""
    total = Tally()
    execute(jobs, lambda chunk, done: total.merge(done), workers=workers, dask=dask, progress=progress, play=play)
    return total


def run_each(jobs: Iterable[Chunk], *, workers: int = 0, progress: Callable[[int], None] | None = None,
             play: Callable[[Chunk], Tally] = run_chunk) -> dict[Setup, Tally]:
    """The chunks of several setups (the arms of a search, the pairs of a ladder) on one pool:
    each setup's tally."""
    totals: dict[Setup, Tally] = {}
    execute(jobs, lambda chunk, done: totals.setdefault(chunk.setup, Tally()).merge(done), workers=workers,
            progress=progress, play=play)
    return totals


def execute(jobs: Iterable[Chunk], take: Callable[[Chunk, Tally], Any], *, workers: int = 0, dask: str | None = None,
            progress: Callable[[int], None] | None = None, play: Callable[[Chunk], Tally] = run_chunk) -> None:
    """Play every chunk where it is asked for and give each chunk's tally to `take` as it comes."""
    workers = workers or os.cpu_count() or 1
    if dask is not None:
        _on_dask(jobs, dask, workers, progress, play, take)
    elif workers == 1:
        for job in jobs:
            take(job, _reported(play(job), progress))
    else:
        _on_pool(jobs, workers, progress, play, take)


def _reported(done: Tally, progress: Callable[[int], None] | None) -> Tally:
    if progress is not None:
        progress(done.games)
    return done


class Progress:
    """A progress bar with the time left (tqdm) on a terminal's stderr, none in a pipe, CI or a
    test: `with Progress(total, label) as step:` gives what to call with the games each finished
    chunk played (None without a bar)."""

    def __init__(self, total: int, label: str):
        self.bar: Any = None
        if sys.stderr.isatty() and not os.environ.get("CI"):
            from tqdm import tqdm  # no type hints: ignored in pyproject's mypy overrides

            self.bar = tqdm(total=total, desc=label, unit="game", file=sys.stderr, leave=False)

    def __enter__(self) -> Callable[[int], None] | None:
        return self.bar.update if self.bar is not None else None

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()


def _on_pool(jobs: Iterable[Chunk], workers: int, progress: Callable[[int], None] | None,
             play: Callable[[Chunk], Tally], take: Callable[[Chunk, Tally], Any]) -> None:
    """The chunks on a process pool, a few per worker in flight. A worker that dies (killed, out
    of memory) breaks the pool and every chunk in flight with it: those are played again on a
    new pool, once; a second death is `WorkerLost`, naming the chunks it took."""
    pending, again = iter(jobs), deque[Chunk]()
    lost_before: set[int] = set()
    while True:
        lost: list[Chunk] = []
        with ProcessPoolExecutor(workers, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
            running: dict[Future[Tally], Chunk] = {}
            while True:
                while len(running) < workers * IN_FLIGHT:
                    job = again.popleft() if again else next(pending, None)
                    if job is None:
                        break
                    running[pool.submit(play, job)] = job
                if not running:
                    return
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    job = running.pop(future)
                    try:
                        take(job, _reported(future.result(), progress))
                    except BrokenProcessPool:
                        lost.append(job)
                if lost:
                    lost += running.values()
                    break
        if lost_before:
            raise WorkerLost([job for job in lost if job.number in lost_before] or lost)
        lost_before = {job.number for job in lost}
        again.extend(sorted(lost, key=lambda job: job.number))


TASK_SECONDS = 0.5  # of a worker's CPU per Dask task: the scheduler's cost per task is then lost in it
MOST_BATCH = 100  # chunks in one Dask task
LOCAL_CLUSTER = {  # a local cluster's servers wake 50 times a second to time their event loops, the
    "distributed.admin.tick.interval": "1s",  # workers sample their own stacks every 10 ms, their memory
    "distributed.worker.profile.enabled": False,  # every 100 ms and the machine every 500 ms, and steal work
    "distributed.worker.memory.monitor-interval": "2s",  # every second: CPU that grows with the wall time, not
    "distributed.admin.system-monitor.interval": "5s",  # with the games (a batch of chunks is one task: there is
    "distributed.admin.system-monitor.gil.enabled": False,  # little to steal). Its workers are forked from this
    "distributed.scheduler.work-stealing": False,  # process, which has imported pnp and read the spec already:
}  # spawned, each imported Dask, pnp and the spec again, 1.5 s of CPU a worker (see `_local_start`)


def _local_start() -> dict[str, str]:
    """Fork where the platform can (Linux, macOS), else Dask's default, spawn."""
    import multiprocessing

    return {"distributed.worker.multiprocessing-method": "fork"} if "fork" in multiprocessing.get_all_start_methods() \
        else {}


def _on_dask(jobs: Iterable[Chunk], address: str, workers: int, progress: Callable[[int], None] | None,
             play: Callable[[Chunk], Tally], take: Callable[[Chunk, Tally], Any]) -> None:
    """The chunks on a Dask cluster, a few tasks per worker in flight; Dask replays the tasks of
    a worker it loses by itself. A task plays a batch of consecutive chunks of one setup (each
    with its own generator, so the tallies are the same as chunk by chunk), as many as take a
    worker about `TASK_SECONDS` of CPU, measured on the tasks done so far: one chunk of quick
    games is a few milliseconds of play, and the scheduler's few milliseconds per task were half
    of `--dask local`'s CPU. A local cluster's workers are forked and quiet (`LOCAL_CLUSTER`)."""
    try:
        import dask
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UsageError('--dask needs Dask: pip install ".[dask]"') from None
    with dask.config.set({**LOCAL_CLUSTER, **_local_start()} if address == "local" else {}):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) if address == "local" \
            else None
        pending = _Batches(iter(jobs))
        try:
            with Client(cluster if cluster is not None else address, timeout=CONNECT_SECONDS) as client:
                width = workers * IN_FLIGHT if cluster is not None else max(1, len(client.nthreads())) * IN_FLIGHT
                batch_of: dict[str, tuple[Chunk, ...]] = {}

                def submit(batch: tuple[Chunk, ...]) -> Any:
                    future = client.submit(play_batch, play, batch, pure=False)
                    batch_of[future.key] = batch
                    return future

                running = as_completed([submit(batch) for batch in itertools.islice(pending, width)])
                for future in running:
                    batch = batch_of.pop(future.key)
                    done, seconds = future.result()
                    future.release()
                    pending.timed(len(batch), seconds)
                    take(batch[0], _reported(done, progress))
                    for more in itertools.islice(pending, 1):
                        running.add(submit(more))
        except OSError as error:
            raise UsageError(f"--dask {address}: cannot reach the Dask scheduler ({error})") from None
        finally:
            if cluster is not None:
                cluster.close()


def play_batch(play: Callable[[Chunk], Tally], batch: Sequence[Chunk]) -> tuple[Tally, float]:
    """A Dask task: the chunks' tallies merged, and the CPU seconds they took."""
    started = time.process_time()
    total = Tally()
    for chunk in batch:
        total.merge(play(chunk))
    return total, time.process_time() - started


class _Batches:
    """Consecutive chunks of one setup in batches sized to `TASK_SECONDS` of play, from the
    seconds per chunk the tasks done so far took (one chunk a batch until one is done)."""

    def __init__(self, jobs: Iterator[Chunk]):
        self.jobs = jobs
        self.waiting: Chunk | None = None
        self.seconds = self.played = 0.0

    def timed(self, chunks: int, seconds: float) -> None:
        self.played += chunks
        self.seconds += seconds

    def __iter__(self) -> Iterator[tuple[Chunk, ...]]:
        return self

    def __next__(self) -> tuple[Chunk, ...]:
        size = 1 if not self.seconds else max(1, min(MOST_BATCH, round(TASK_SECONDS * self.played / self.seconds)))
        batch: list[Chunk] = []
        while len(batch) < size:
            job = self.waiting if self.waiting is not None else next(self.jobs, None)
            self.waiting = None
            if job is None:
                break
            if batch and job.setup != batch[0].setup:
                self.waiting = job  # the next batch's: a batch is one setup's
                break
            batch.append(job)
        if not batch:
            raise StopIteration
        return tuple(batch)
