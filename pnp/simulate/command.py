"""`pnp simulate`: the command line, checked before a single game is played.

Everything the user can get wrong — an unknown game or bot, a number of games or a player range
out of bounds, more workers than cores, a Dask address that is not one, a house rule that does
not exist or takes no such value, a report that is neither HTML nor PDF, a shard that is not
one of N — is a `UsageError` (exit 2), one line naming the option, raised before any work
starts (numbers are compared before anything is built of them). The options are read into an
`Options` first (`read`), then the spec and the rule sets are checked (`checked_setups`), then
the games run.

`--shard I/N` plays the I-th of N equal parts of the chunks and prints its tallies as JSON;
`pnp simulate merge FILE…` adds the N shards up and answers as one run would, byte for byte
(but the timings): so a long sweep runs as a job array on a cluster.

The command line arrives as an `Asked` (its values as typed, `pnp.cli` fills it from argparse);
nothing below reads argparse.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from pnp import __version__
from pnp.bots import roster
from pnp.errors import UsageError
from pnp.i18n import _
from pnp.rules import GAMES, load_spec, rulebook
from pnp.rules.base import Violation
from pnp.simulate import judge
from pnp.simulate.runner import Progress, Setup, chunk_count, context, seating, shard_numbers
from pnp.simulate.shards import FORMAT as SHARD_FORMAT
from pnp.simulate.shards import check_together, checked_tally, read_shard, setup_of
from pnp.simulate.simulation import (
    Run,
    answer,
    combined,
    compare,
    finish,
    glossary_lines,
    heading,
    play,
    spec_sha256,
    table,
    verdict_lines,
)
from pnp.simulate.tally import Tally
from pnp.simulate.words import rotation
from pnp.spec.options import check_values
from pnp.spec.source import SourceError, load_text

if TYPE_CHECKING:
    from pnp.spec.model import Spec

MAX_GAMES = 1_000_000_000  # per player count and rule set: ten million chunks, days on a large cluster
MAX_SEED_DIGITS = 30
DASK_SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")


@dataclass(frozen=True)
class Asked:
    """`pnp simulate`'s command line as typed (None: not given), before any check."""

    game: str
    files: tuple[str, ...] = ()
    games: str | None = None
    players: str | None = None
    bots: str | None = None
    seed: str | None = None
    spec: str | None = None
    set: tuple[str, ...] = ()
    vs: str | None = None
    vs_set: tuple[str, ...] = ()
    ladder: bool = False
    workers: str | None = None
    dask: str | None = None
    shard: str | None = None
    json: bool = False
    report: str | None = None
    save_records: str | None = None
    records: str | None = None
    margin: tuple[str, ...] = ()
    lang: str | None = None


@dataclass(frozen=True)
class Options:
    """The simulate command's options, each checked on its own (no spec read yet)."""

    game: str
    games: int
    players: str | None
    bots: tuple[str, ...]
    seed: int
    workers: int
    dask: str | None
    shard: tuple[int, int] | None
    report: Path | None
    records: int | None  # with --save-records: how many games to write (None: all)
    margins: dict[str, judge.Margin] = field(default_factory=judge.margins)


def run(asked: Asked) -> int:
    if asked.game == "merge":
        return merge(asked)
    if asked.files:
        raise UsageError(f"simulate {asked.game}: unexpected {' '.join(asked.files)} (only `simulate merge` takes files)")
    options = read(asked)
    pairs = checked_setups(asked, options)
    with speaking_as(asked.lang, options.game, asked.spec):
        if asked.ladder:
            from pnp.simulate.ladder import ladder_command

            return ladder_command(asked, options, pairs)
        if options.shard is not None:
            shard, shards = options.shard
            print(json.dumps(_shard_document(asked, options, pairs, shard, shards), ensure_ascii=False, sort_keys=True))
            return 0
        runs = []
        for first, second in pairs:
            runs.append((_simulate(options, first, _spec_name(asked), records=asked.save_records),
                         _simulate(options, second, _spec_name(asked, vs=True)) if second is not None else None))
        return respond(asked, runs, options.margins)


def speaking_as(code: str | None, game: str, spec: str | None) -> ExitStack:
    """Every sentence inside the block in language `code` (the game's catalog beside the spec,
    as the referee reads it: a code it has no catalog of is a usage error); English without."""
    stack = ExitStack()
    if code:
        from pnp.i18n import speaking
        from pnp.referee import language

        stack.enter_context(speaking(language(code, game, spec)))
    return stack


def respond(asked: Asked, runs: Sequence[tuple[Run, Run | None]], margins: dict[str, judge.Margin] | None = None) -> int:
    """Print the answer (JSON or text) and write the report asked for."""
    answers = [compare(first, second, margins) if second is not None else answer(first) for first, second in runs]
    result = answers[0] if len(answers) == 1 else combined(answers)
    print(json.dumps(result, ensure_ascii=False, indent=1) if asked.json else text(runs, margins))
    if asked.report:
        from pnp.simulate.report import write_report

        write_report(Path(asked.report), runs, margins)
        print(f"report: {asked.report}", file=sys.stderr)
    return 0


# --- checking the command line ----------------------------------------------------------------------


def read(asked: Asked) -> Options:
    """Every option that can be checked without the spec, in the order a reader meets them."""
    game = game_option(asked.game)
    games = whole(asked.games, "--games", 1, MAX_GAMES, default=1000)
    seed = whole(asked.seed, "--seed", -10**MAX_SEED_DIGITS, 10**MAX_SEED_DIGITS, default=1)
    workers = workers_option(asked.workers)
    dask = _dask(asked.dask)
    shard = _shard(asked.shard, games) if asked.shard else None
    report = report_option(asked.report)
    if asked.records is not None and not asked.save_records:
        raise UsageError("--records K needs --save-records DIR")
    records = whole(asked.records, "--records", 1, MAX_GAMES) if asked.records is not None else None
    _check_exclusive(asked, shard is not None)
    return Options(game, games, asked.players, bots_option(game, asked.bots), seed, workers, dask, shard, report, records,
                   margins_option(asked.margin))


def _check_exclusive(asked: Asked, sharded: bool) -> None:
    """A shard writes no report nor records (the merge does), and a ladder plays one rule set,
    whole, without saving records."""
    if sharded and (asked.report or asked.save_records):
        raise UsageError(f"--shard {asked.shard}: a shard prints its tallies; write the report or records from "
                         "`pnp simulate merge`, or play without --shard")
    if asked.ladder and (asked.vs or asked.vs_set or sharded or asked.save_records):
        raise UsageError("--ladder plays the bots against each other under one rule set: no --vs, --vs-set, --shard "
                         "or --save-records with it")


def margins_option(settings: Sequence[str]) -> dict[str, judge.Margin]:
    """`--margin FAMILY=SIZE` (repeatable): a family's margin of practical equivalence."""
    given = {}
    for setting in settings:
        family, equals, size = setting.partition("=")
        if not equals:
            raise UsageError(f"--margin {shown(setting)}: write FAMILY=SIZE, e.g. --margin length=5% or "
                             "--margin seats=0.01")
        given[family.strip()] = size
    try:
        return judge.margins(given)
    except ValueError as error:
        raise UsageError(f"--margin: {error}") from None


def whole(text: Any, option: str, low: int, high: int, *, default: int | None = None) -> int:
    """A whole number from the command line within [low, high] (compared before it is used)."""
    if text is None and default is not None:
        return default
    value = str(text).strip().replace("_", "")
    if not re.fullmatch(r"[+-]?\d{1,40}", value):
        raise UsageError(f"{option} {shown(text)}: give a whole number from {low:,} to {high:,}")
    number = int(value)
    if not low <= number <= high:
        raise UsageError(f"{option} {shown(text)}: give a whole number from {low:,} to {high:,}")
    return number


def shown(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def game_option(name: str) -> str:
    if name not in GAMES:
        raise UsageError(f'unknown game "{shown(name)}" (games with a rules engine: {", ".join(GAMES)}; another '
                         "game's engine is installed, or given with pnp --engine FILE.py; or `pnp simulate merge FILE…`)")
    return name


def cores() -> int:
    """The cores this process may run on (a container's share, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers_option(text: Any) -> int:
    """0 (every core), or 1 … the cores: more processes than cores only wait for each other."""
    available = cores()
    if text is None:
        return 0
    try:
        return whole(text, "--workers", 0, available)
    except UsageError:
        raise UsageError(f"--workers {shown(text)}: give 1 to {available} (this machine has {available} "
                         f"core{'s' if available > 1 else ''}), or 0 for all of them") from None


def _dask(address: str | None) -> str | None:
    """`local`, or a scheduler's address: [tcp|tls|…://]HOST:PORT."""
    if address is None or address == "local":
        return address
    found = re.fullmatch(r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})",
                         address)
    if (found is None or (found["scheme"] or "tcp") not in DASK_SCHEMES or not 0 < int(found["port"]) < 65536):
        raise UsageError(f"--dask {shown(address)!s}: a Dask scheduler's address is tcp://HOST:PORT "
                         f"(schemes {', '.join(DASK_SCHEMES)}), or local")
    return address


def _shard(text: str, games: int) -> tuple[int, int]:
    found = re.fullmatch(r"\s*(\d{1,9})\s*/\s*(\d{1,9})\s*", text)
    most = chunk_count(games)
    if found is None or not 1 <= int(found[1]) <= int(found[2]) or int(found[2]) > most:
        raise UsageError(f"--shard {shown(text)}: give I/N with 1 ≤ I ≤ N ≤ {most:,} (the chunks of "
                         f"{games:,} games)")
    return int(found[1]), int(found[2])


def report_option(text: str | None) -> Path | None:
    if not text:
        return None
    path = Path(text)
    if path.suffix.lower() not in (".html", ".pdf"):
        raise UsageError(f"--report {shown(text)}: the report is FILE.html or FILE.pdf")
    if not path.resolve().parent.is_dir():
        raise UsageError(f"--report {shown(text)}: there is no folder {shown(path.resolve().parent)}")
    if path.is_dir():
        raise UsageError(f"--report {shown(text)}: that is a folder")
    return path


def _shown_path(path: Path) -> Path:
    """The default spec as the user sees it: relative to the current folder when inside it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def spec_option(text: str | None, option: str) -> Path:
    from pnp.spec.source import default_spec_path

    path = Path(text) if text else _shown_path(default_spec_path())
    if not path.is_file():
        raise UsageError(f"{option} {shown(path)}: no such file")
    return path


def game_spec(text: str | None, option: str, game: str) -> tuple[Path, Spec]:
    """The spec file an option names (`spec_option`), read; it must hold `game`."""
    path = spec_option(text, option)
    spec = load_spec(str(path))
    if game not in spec.games:
        raise UsageError(f"{path}: the spec has no game {game!r}")
    return path, spec


def checked_setups(asked: Asked, options: Options) -> list[tuple[Setup, Setup | None]]:
    """The spec, the player counts, the house rules and the comparison, each checked; per player
    count the rule set to play and the one to compare it with (one setup of each tried here)."""
    game = options.game
    spec_path, spec = game_spec(asked.spec, "--spec", game)
    counts = player_counts(asked.players, spec.games[game].players)
    house = house_rules(game, asked.set, "--set")
    other_spec = other_house = None
    if asked.vs or asked.vs_set:
        other_spec = game_spec(asked.vs, "--vs", game)[0] if asked.vs else spec_path
        other_house = {**house, **house_rules(game, asked.vs_set, "--vs-set")}
    if asked.save_records:
        try:
            Path(asked.save_records).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"--save-records {shown(asked.save_records)}: {error.strerror}") from None
    pairs = []
    for count in counts:
        setup = checked_setup(game, spec_path, house, count, options.bots)
        other = checked_setup(game, other_spec, other_house or {}, count, options.bots) if other_spec else None
        pairs.append((setup, other))
    return pairs


def player_counts(text: str | None, seats: Any) -> list[int]:
    """`4` or `3-6`, within what the spec seats (default 4, or the nearest count it seats); the
    bounds are compared before the range is made."""
    if text is None:
        return [min(max(4, seats.min), seats.max)]
    found = re.fullmatch(r"\s*(\d{1,40})\s*(?:-\s*(\d{1,40})\s*)?", text)
    if found is None:
        raise UsageError(f"--players {shown(text)}: give a count or a range, e.g. 4 or 3-6")
    low, high = int(found[1]), int(found[2] or found[1])
    if low > high or low < seats.min or high > seats.max:
        raise UsageError(f"--players {shown(text)}: the game seats {seats.min}–{seats.max} players")
    return list(range(low, high + 1))


def bots_option(game: str, text: str | None) -> tuple[str, ...]:
    text = text if text is not None else "random"
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if roster.bot_named(game, name) is None]
    if unknown or not names:
        raise UsageError(f"--bots {shown(text)}: unknown bot {shown(', '.join(unknown)) or '(none given)'} "
                         f"(bots for {game}: {', '.join(roster.names(game))}; search:N iterations or search:Xs a "
                         "decision)")
    return names


def house_rules(game: str, settings: Sequence[str], flag: str) -> dict[str, Any]:
    """`rules.KEY=VALUE` settings, each value read as YAML by the spec layer's reader (bounded
    nesting, aliases and sizes, as a spec is) and checked by the game's rulebook."""
    raw: dict[str, Any] = {}
    for setting in settings:
        key, equals, value = setting.partition("=")
        if not equals or not key.startswith("rules.") or not key[len("rules."):]:
            raise UsageError(f"{flag} {shown(setting)}: write rules.KEY=VALUE, e.g. {flag} rules.rounds=6")
        if not value.strip():
            raise UsageError(f"{flag} {shown(setting)}: give a value after =")
        try:
            raw[key[len("rules."):]] = load_text(value, f"{flag} {key}").data
        except SourceError as error:
            raise UsageError(f"{flag} {shown(key)}: {error.issues[0].message}") from None
    checked, problems = check_values(raw, rulebook(game), in_spec=False)
    if problems:
        key, message = problems[0]
        raise UsageError(f"{flag} rules.{shown(key)}: {message}")
    return checked


def checked_setup(game: str, spec: Path | None, options: dict[str, Any], players: int, bots: tuple[str, ...]) -> Setup:
    """A setup whose game can be played: the params accept the house rules and the engine
    seats this many players (one setup tried here, before any worker starts)."""
    setup = Setup(game, str(Path(spec or "").resolve()), tuple(sorted(options.items())), players, bots)
    try:
        ctx = context(setup)
        _, names = seating(setup, 0)
        ctx.engine.setup(ctx.params, names, ctx.engine.deal(ctx.params, names, random.Random(0)))
    except Violation as violation:
        raise UsageError(f"{game} with {players} players: {violation.rule}: {violation.message}") from None
    except ValueError as error:
        raise UsageError(f"{game}: {error}") from None
    return setup


def _spec_name(asked: Asked, vs: bool = False) -> str:
    """The spec file of a run as the user named it (the default one relative to here)."""
    return str(Path(asked.vs)) if vs and asked.vs else str(spec_option(asked.spec, "--spec"))


def _simulate(options: Options, setup: Setup, spec_name: str | Path, records: str | None = None) -> Run:
    started = time.perf_counter()
    with Progress(options.games, f"{setup.game} {setup.players}p") as step:
        played = play(setup, options.games, options.seed, workers=options.workers, dask=options.dask, records=records,
                      record_limit=options.records, progress=step)
    return finish(setup, options.games, options.seed, played, spec_name=str(spec_name),
                  elapsed_s=time.perf_counter() - started)


# --- shards and their merge ---------------------------------------------------------------------------


def _shard_document(asked: Asked, options: Options, pairs: Sequence[tuple[Setup, Setup | None]],
                    shard: int, shards: int) -> dict[str, Any]:
    """Shard `shard` of `shards`: what was asked (so the merge can check the shards belong
    together) and the tally of its chunks of every rule set."""
    numbers = shard_numbers(options.games, shard, shards)
    started = time.perf_counter()
    runs = []
    for first, second in pairs:
        played = [play(setup, options.games, options.seed, workers=options.workers, dask=options.dask,
                       numbers=numbers).as_json() if setup is not None else None for setup in (first, second)]
        runs.append({"setups": [_setup_json(first, _spec_name(asked)),
                                _setup_json(second, _spec_name(asked, vs=True)) if second is not None else None],
                     "tallies": played})
    played_as = {"game": options.game, "games": options.games, "seed": options.seed, "bots": list(options.bots),
                 "players": [first.players for first, _ in pairs]}
    return {"format": SHARD_FORMAT, "pnp": __version__, "shard": [shard, shards], "asked": played_as, "runs": runs,
            "elapsed_s": round(time.perf_counter() - started, 3)}


def _setup_json(setup: Setup, spec_name: str) -> dict[str, Any]:
    return {"game": setup.game, "spec": setup.spec, "spec_name": spec_name, "sha256": spec_sha256(setup.spec),
            "options": [[key, value] for key, value in setup.options], "players": setup.players, "bots": list(setup.bots)}


def merge(asked: Asked) -> int:
    """`pnp simulate merge SHARD.json…`: the shards of one simulation added up, answered as the
    simulation played at once would be (report included); each shard checked on its own and
    against the others first (`pnp.simulate.shards`)."""
    _check_merge_options(asked)
    margins = margins_option(asked.margin)
    documents = [read_shard(name) for name in asked.files]
    check_together(asked.files, documents)
    first = documents[0]
    played, elapsed = first["asked"], sum(document["elapsed_s"] for document in documents)
    runs = []
    for k, entry in enumerate(first["runs"]):
        made: list[Run | None] = []
        for side, setup_json in enumerate(entry["setups"]):
            if setup_json is None:
                made.append(None)
                continue
            setup = setup_of(asked.files[0], setup_json)
            total = Tally()
            for name, document in zip(asked.files, documents, strict=True):
                total.merge(checked_tally(name, document["runs"][k]["tallies"][side], setup, f"runs[{k}].tallies[{side}]"))
            made.append(finish(setup, played["games"], played["seed"], total, spec_name=setup_json["spec_name"],
                               elapsed_s=elapsed / max(1, 2 * len(first["runs"]))))
        assert made[0] is not None, "a shard's first rule set is always played"
        runs.append((made[0], made[1]))
    with speaking_as(asked.lang, str(played["game"]), runs[0][0].setup.spec):
        return respond(asked, runs, margins)


def _check_merge_options(asked: Asked) -> None:
    """A merge takes the shards' files and the answer's options, none of the run's own (they
    are in the shards)."""
    played_options = [flag for flag, value in (("--games", asked.games), ("--players", asked.players),
                                               ("--bots", asked.bots), ("--seed", asked.seed), ("--spec", asked.spec),
                                               ("--set", asked.set), ("--vs", asked.vs), ("--vs-set", asked.vs_set),
                                               ("--shard", asked.shard), ("--save-records", asked.save_records),
                                               ("--ladder", asked.ladder)) if value]
    if played_options:
        raise UsageError(f"simulate merge: {', '.join(played_options)} belong to the shards' own run")
    report_option(asked.report)
    if not asked.files:
        raise UsageError("simulate merge: give the shards' files, e.g. pnp simulate merge shard-*.json")


# --- the text answer ----------------------------------------------------------------------------------


def text(runs: Sequence[tuple[Run, Run | None]], margins: dict[str, judge.Margin] | None = None) -> str:
    """Per player count: the verdict, then each estimate on a line (value and 95 % interval; with
    a comparison both runs, the difference, its interval and its judgement), then the glossary."""
    lines = []
    for first, second in runs:
        header, rows = table(first, second, margins)
        lines.append(f"{heading(first, second)} · {first.elapsed_s + (second.elapsed_s if second else 0):.1f} s")
        lines += [f"  • {sentence}" for sentence in verdict_lines(first, second, margins)]
        note = rotation(first.setup.players, first.setup.bots)
        lines += [f"  ({note})"] if note and second is not None else []  # one run's verdict says it already
        lines.append("")
        lines += _aligned([header, *rows])
        lines.append("")
    lines.append(_("glossary:"))
    lines += [f"  {entry}" for entry in glossary_lines(runs[0][0], compared=runs[0][1] is not None)]
    return "\n".join(lines).rstrip()


def _aligned(rows: Sequence[Sequence[str]]) -> list[str]:
    """A table's rows in columns: the first column to the left, the last as it is (a judgement
    in words), the numbers between to the right."""
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    return ["  " + "  ".join([row[0].ljust(widths[0]),
                              *(cell.rjust(width) for cell, width in zip(row[1:-1], widths[1:-1], strict=True)), row[-1]])
            for row in rows]

