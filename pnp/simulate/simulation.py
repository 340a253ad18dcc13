"""A simulation as one call, its JSON answer, and the comparison of two rule sets.

`simulate(setup, games, seed)` plays the games (see `runner`) into a `Tally` and summarises it
(see `metrics`) into a `Run`; `answer(run)` is the JSON answer of `pnp simulate --json`, the
verdict first (`words`); `compare(a, b)` sets two runs with the same seeds side by side, metric
by metric, with the difference b − a, its 95 % interval, its p-value and its judgement
(`judge`: changed, unchanged within a margin, chance, or too few games to tell), which the
verdict's sentences and the table's column both read.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from pnp.i18n import _
from pnp.simulate import judge, words
from pnp.simulate.metrics import difference, estimates, jsonable, summarise
from pnp.simulate.runner import Setup, chunks, context, run
from pnp.simulate.tally import Tally

TRACKS_KEPT = 40  # games whose track is kept after every step, for the report's trajectories


@dataclass(frozen=True)
class Run:
    """One simulated rule set: what was played, its tally and summary."""

    setup: Setup
    spec_name: str  # the spec as the user named it (or the default that was used)
    games: int
    seed: int
    tally: Tally
    summary: dict[str, Any]
    elapsed_s: float

    @property
    def label(self) -> str:
        options = ", ".join(f"{key}={value}" for key, value in self.setup.options)
        return f"{Path(self.spec_name).name}{f' ({options})' if options else ''}"

    @property
    def tracks(self) -> tuple[tuple[tuple[float, ...], ...], ...]:
        """The series of the track after every step, per kept game (the first `TRACKS_KEPT`)."""
        return tuple(track for _, track in self.tally.tracks)

    @property
    def unit(self) -> str:
        return str(self.summary["length"]["unit"])


def play(setup: Setup, games: int, seed: int, *, workers: int = 0, dask: str | None = None,
         records: str | None = None, record_limit: int | None = None, numbers: range | None = None,
         progress: Callable[[int], None] | None = None) -> Tally:
    """The tally of `games` games of `setup` (of chunks `numbers` only: a shard's)."""
    limit = games if record_limit is None else record_limit
    jobs = chunks(setup, games, seed, records=records, record_limit=limit, tracks=TRACKS_KEPT, numbers=numbers)
    return run(jobs, workers=workers, dask=dask, progress=progress)


def finish(setup: Setup, games: int, seed: int, tally: Tally, *, spec_name: str = "", elapsed_s: float = 0.0) -> Run:
    """A `Run` from the tally of all its games."""
    ctx = context(setup)
    summary = summarise(tally, setup.bots, ctx.probe, ctx.printed, setup.players)
    return Run(setup, spec_name or setup.spec, games, seed, tally, summary, elapsed_s)


def simulate(setup: Setup, games: int, seed: int, *, spec_name: str = "", workers: int = 0, dask: str | None = None,
             records: str | None = None, record_limit: int | None = None,
             progress: Callable[[int], None] | None = None) -> Run:
    """Play `games` games of `setup` and summarise them (deterministic in `seed`)."""
    started = time.perf_counter()
    played = play(setup, games, seed, workers=workers, dask=dask, records=records, record_limit=record_limit,
                  progress=progress)
    return finish(setup, games, seed, played, spec_name=spec_name, elapsed_s=time.perf_counter() - started)


def spec_json(run: Run) -> dict[str, str]:
    """The spec file as named and the SHA-256 of its bytes, so an answer says what was played."""
    return {"path": run.spec_name, "sha256": spec_sha256(run.setup.spec)}


def spec_sha256(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def answer(run: Run) -> dict[str, Any]:
    """The JSON answer of one run (REFEREE-style: plain data, rounded numbers), the verdict first."""
    setup = run.setup
    return {
        "verdict": jsonable(words.verdict(run.summary, setup.players, setup.bots)),
        "game": setup.game,
        "games": run.games,
        "players": setup.players,
        "seed": run.seed,
        "bots": list(setup.bots),
        "rotation": words.rotation(setup.players, setup.bots),
        "options": dict(setup.options),
        "spec": spec_json(run),
        **jsonable(run.summary),
        "glossary": words.glossary(path for path, _estimate in estimates(run.summary)),
        "elapsed_s": round(run.elapsed_s, 3),
    }


def differences(a: Run, b: Run, margins: Mapping[str, judge.Margin] | None = None) -> list[dict[str, Any]]:
    """Every estimate both runs have, side by side: a, b, b − a with its interval and p-value,
    whether the change stands after Holm's correction (`significant`), and the row's judgement
    (`judged`, see `judge`) under `margins` (default: `judge.MARGINS`). Seeds are shared, so a
    rule change that does nothing gives the very same games and no change."""
    theirs = dict(estimates(b.summary))
    paired = [(path, mine, theirs[path], difference(mine, theirs[path]))
              for path, mine in estimates(a.summary) if path in theirs]
    rows = []
    for (path, mine, other, delta), judged in zip(paired, judge.judge(paired, margins), strict=True):
        rows.append({"metric": path, "name": words.name(path, a.unit), "kind": mine.kind, "a": mine.as_json(),
                     "b": other.as_json(), "difference": delta.as_json(), "p_value": jsonable(delta.p_value),
                     "significant": judged.kind in (judge.CHANGED, judge.SMALL),
                     "judged": {"kind": judged.kind, "margin": jsonable(judged.margin), "compared": judged.compared,
                                "more": judged.more}})
    return rows


def compare(a: Run, b: Run, margins: Mapping[str, judge.Margin] | None = None) -> dict[str, Any]:
    """The JSON answer of `--vs` / `--vs-set`: the verdict, both answers and the metric-by-metric
    differences."""
    rows = differences(a, b, margins)
    return {
        "verdict": jsonable(words.comparison(rows, a.unit)),
        "game": a.setup.game, "games": a.games, "players": a.setup.players, "seed": a.seed, "bots": list(a.setup.bots),
        "margins": {family: str(margin) for family, margin in (margins or judge.margins()).items()},
        "a": answer(a), "b": answer(b), "differences": rows,
        "elapsed_s": round(a.elapsed_s + b.elapsed_s, 3),
    }


def combined(answers: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Several player counts (`--players 3-6`): the shared keys once, each count's answer in `runs`."""
    first = answers[0]
    shared: dict[str, Any] = {key: first[key] for key in ("game", "games", "seed", "bots")}
    return {"verdict": [{"players": a["players"], "verdict": a["verdict"]} for a in answers], **shared,
            "players": [a["players"] for a in answers], "runs": list(answers),
            "elapsed_s": round(sum(a["elapsed_s"] for a in answers), 3)}


def verdict_lines(a: Run, b: Run | None, margins: Mapping[str, judge.Margin] | None = None) -> list[str]:
    """The verdict's sentences, for people."""
    items = words.comparison(differences(a, b, margins), a.unit) if b is not None else \
        words.verdict(a.summary, a.setup.players, a.setup.bots)
    return [item["text"] for item in items]


def table(a: Run, b: Run | None, margins: Mapping[str, judge.Margin] | None = None) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The estimates as text rows for people (the text answer, the report): metric, value and
    interval; with a comparison a, b, b − a, its interval and the row's judgement, worded as
    the verdict words it."""
    if b is None:
        return (_("metric"), _("value"), _("95 % interval")), [
            (words.name(path, a.unit), _num(e.value), f"[{_num(e.low)}, {_num(e.high)}]")
            for path, e in estimates(a.summary)]
    rows: list[tuple[str, ...]] = []
    for row in differences(a, b, margins):
        low, high = row["difference"]["ci95"]
        rows.append((row["name"], _num(row["a"]["value"]), _num(row["b"]["value"]), _num(row["difference"]["value"]),
                     f"[{_num(low)}, {_num(high)}]", _(words.JUDGED[row["judged"]["kind"]])))
    return (_("metric"), "a", "b", "b − a", _("95 % interval"), _("judgement")), rows


def glossary_lines(a: Run, compared: bool = False) -> list[str]:
    return list(words.glossary((path for path, _estimate in estimates(a.summary)), compared).values())


def heading(a: Run, b: Run | None) -> str:
    setup = a.setup
    head = _("{game} · {players} players · {games} games · bots {bots} · seed {seed}").format(
        game=setup.game, players=setup.players, games=a.games, bots=", ".join(setup.bots), seed=a.seed)
    return head + (f" — a: {a.label}; b: {b.label}" if b is not None else f" — {a.label}")


def _num(value: float) -> str:
    return f"{value:.4g}" if abs(value) < 1e5 else f"{value:.0f}"
