"""A simulation as one call, its JSON answer, and the comparison of two rule sets.

`simulate(setup, games, seed)` plays the games (see `runner`) and summarises them (see
`metrics`) into a `Run`; `answer(run)` is the JSON answer of `pnp simulate --json`;
`compare(a, b)` sets two runs with the same seeds side by side, metric by metric, with the
difference b − a, its 95 % interval and whether that interval excludes zero.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from pnp.simulate.metrics import difference, estimates, jsonable, summarise
from pnp.simulate.runner import Setup, chunks, context, run

TRACKS_KEPT = 40  # games whose track is kept after every step, for the report's trajectories


@dataclass(frozen=True)
class Run:
    """One simulated rule set: what was played, its summary, and the tracks of its first games."""

    setup: Setup
    spec_name: str  # the spec as the user named it (or the default that was used)
    games: int
    seed: int
    summary: dict[str, Any]
    tracks: tuple[tuple[tuple[float, ...], ...], ...]  # per kept game, the series after every step
    elapsed_s: float

    @property
    def label(self) -> str:
        options = ", ".join(f"{key}={value}" for key, value in self.setup.options)
        return f"{Path(self.spec_name).name}{f' ({options})' if options else ''}"


def simulate(setup: Setup, games: int, seed: int, *, spec_name: str = "", workers: int = 0, dask: str | None = None,
             records: str | None = None, record_limit: int | None = None,
             progress: Callable[[int], None] | None = None) -> Run:
    """Play `games` games of `setup` and summarise them (deterministic in `seed`)."""
    started = time.perf_counter()
    limit = games if record_limit is None else record_limit
    jobs = chunks(setup, games, seed, records=records, record_limit=limit, tracks=TRACKS_KEPT)
    results = run(jobs, workers=workers, dask=dask, progress=progress)
    ctx = context(setup)
    summary = summarise(results, setup.bots, ctx.probe, ctx.printed)
    tracks = tuple(result.track for result in results if result.track)
    return Run(setup, spec_name or setup.spec, games, seed, summary, tracks, time.perf_counter() - started)


def spec_json(run: Run) -> dict[str, str]:
    """The spec file as named and the SHA-256 of its bytes, so an answer says what was played."""
    return {"path": run.spec_name, "sha256": hashlib.sha256(Path(run.setup.spec).read_bytes()).hexdigest()}


def answer(run: Run) -> dict[str, Any]:
    """The JSON answer of one run (REFEREE-style: plain data, rounded numbers)."""
    setup = run.setup
    return {
        "game": setup.game,
        "games": run.games,
        "players": setup.players,
        "seed": run.seed,
        "bots": list(setup.bots),
        "options": dict(setup.options),
        "spec": spec_json(run),
        **jsonable(run.summary),
        "elapsed_s": round(run.elapsed_s, 3),
    }


def differences(a: Run, b: Run) -> list[dict[str, Any]]:
    """Every estimate both runs have, side by side: a, b, b − a with its interval, and whether
    the interval excludes zero (the change made a difference at the 95 % level)."""
    theirs = dict(estimates(b.summary))
    rows = []
    for path, mine in estimates(a.summary):
        other = theirs.get(path)
        if other is None:
            continue
        delta = difference(mine, other)
        rows.append({"metric": path, "a": mine.as_json(), "b": other.as_json(), "difference": delta.as_json(),
                     "significant": delta.low > 0 or delta.high < 0})
    return rows


def compare(a: Run, b: Run) -> dict[str, Any]:
    """The JSON answer of `--vs` / `--vs-set`: both answers and the metric-by-metric differences."""
    return {
        "game": a.setup.game, "games": a.games, "players": a.setup.players, "seed": a.seed, "bots": list(a.setup.bots),
        "a": answer(a), "b": answer(b), "differences": differences(a, b),
        "elapsed_s": round(a.elapsed_s + b.elapsed_s, 3),
    }


def combined(answers: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Several player counts (`--players 3-6`): the shared keys once, each count's answer in `runs`."""
    first = answers[0]
    shared: dict[str, Any] = {key: first[key] for key in ("game", "games", "seed", "bots")}
    return {**shared, "players": [a["players"] for a in answers], "runs": list(answers),
            "elapsed_s": round(sum(a["elapsed_s"] for a in answers), 3)}


def table(a: Run, b: Run | None) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The estimates as text rows for people (the text answer, the report): metric, value and
    interval; with a comparison a, b, b − a and its interval, starred when it excludes zero."""
    if b is None:
        return ("metric", "value", "95 % interval"), [
            (path, _num(e.value), f"[{_num(e.low)}, {_num(e.high)}]") for path, e in estimates(a.summary)]
    rows: list[tuple[str, ...]] = []
    for row in differences(a, b):
        low, high = row["difference"]["ci95"]
        rows.append((row["metric"], _num(row["a"]["value"]), _num(row["b"]["value"]), _num(row["difference"]["value"]),
                     f"[{_num(low)}, {_num(high)}]" + (" *" if row["significant"] else "")))
    return ("metric", "a", "b", "b − a", "95 % interval"), rows


def heading(a: Run, b: Run | None) -> str:
    setup = a.setup
    head = f"{setup.game} · {setup.players} players · {a.games} games · bots {', '.join(setup.bots)} · seed {a.seed}"
    return head + (f" — a: {a.label}; b: {b.label}" if b is not None else f" — {a.label}")


def _num(value: float) -> str:
    return f"{value:.4g}" if abs(value) < 1e5 else f"{value:.0f}"
