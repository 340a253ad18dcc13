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
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from pnp.errors import UsageError
from pnp.rules import GAMES, load_spec, rulebook
from pnp.rules.base import Violation
from pnp.simulate import roster
from pnp.simulate.runner import Setup, chunk_count, context, seating, shard_numbers
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

MAX_GAMES = 1_000_000_000  # per player count and rule set: ten million chunks, days on a large cluster
MAX_SEED_DIGITS = 30
DASK_SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")
SHARD_FORMAT = "pnp-simulate-shard/1"


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


def run(args: argparse.Namespace) -> int:
    if args.game == "merge":
        return merge(args)
    if args.files:
        raise UsageError(f"simulate {args.game}: unexpected {' '.join(args.files)} (only `simulate merge` takes files)")
    options = read(args)
    counts, pairs = checked_setups(args, options)
    if args.ladder:
        from pnp.simulate.ladder import ladder_command

        return ladder_command(args, options, counts, pairs)
    if options.shard is not None:
        shard, shards = options.shard
        print(json.dumps(_shard_document(args, options, pairs, shard, shards), ensure_ascii=False, sort_keys=True))
        return 0
    runs = []
    for first, second in pairs:
        runs.append((_simulate(args, options, first, _spec_name(args), records=args.save_records),
                     _simulate(args, options, second, _spec_name(args, vs=True)) if second is not None else None))
    return respond(args, runs)


def respond(args: argparse.Namespace, runs: Sequence[tuple[Run, Run | None]]) -> int:
    """Print the answer (JSON or text) and write the report asked for."""
    answers = [compare(first, second) if second is not None else answer(first) for first, second in runs]
    result = answers[0] if len(answers) == 1 else combined(answers)
    print(json.dumps(result, ensure_ascii=False, indent=1) if args.json else text(runs))
    if args.report:
        from pnp.simulate.report import write_report

        write_report(Path(args.report), runs)
        print(f"report: {args.report}", file=sys.stderr)
    return 0


# --- checking the command line ----------------------------------------------------------------------


def read(args: argparse.Namespace) -> Options:
    """Every option that can be checked without the spec, in the order a reader meets them."""
    game = game_option(args.game)
    games = whole(args.games, "--games", 1, MAX_GAMES, default=1000)
    seed = whole(args.seed, "--seed", -10**MAX_SEED_DIGITS, 10**MAX_SEED_DIGITS, default=1)
    workers = workers_option(args.workers)
    dask = _dask(args.dask)
    shard = _shard(args.shard, games) if getattr(args, "shard", None) else None
    report = report_option(args.report)
    if args.records is not None and not args.save_records:
        raise UsageError("--records K needs --save-records DIR")
    records = whole(args.records, "--records", 1, MAX_GAMES) if args.records is not None else None
    if shard is not None and (args.report or args.save_records):
        raise UsageError(f"--shard {args.shard}: a shard prints its tallies; write the report or records from "
                         "`pnp simulate merge`, or play without --shard")
    if getattr(args, "ladder", False) and (args.vs or args.vs_set or shard is not None or args.save_records):
        raise UsageError("--ladder plays the bots against each other under one rule set: no --vs, --vs-set, --shard "
                         "or --save-records with it")
    return Options(game, games, args.players, bots_option(game, args.bots), seed, workers, dask, shard, report, records)


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


def checked_setups(args: argparse.Namespace, options: Options) -> tuple[list[int], list[tuple[Setup, Setup | None]]]:
    """The spec, the player counts, the house rules and the comparison, each checked; per player
    count the rule set to play and the one to compare it with (one setup of each tried here)."""
    game = options.game
    spec_path = spec_option(args.spec, "--spec")
    spec = load_spec(str(spec_path))
    if game not in spec.games:
        raise UsageError(f"{spec_path}: the spec has no game {game!r}")
    counts = player_counts(args.players, spec.games[game].players)
    house = house_rules(game, args.set, "--set")
    other_spec = other_house = None
    if args.vs or args.vs_set:
        other_spec = spec_option(args.vs, "--vs") if args.vs else spec_path
        if game not in load_spec(str(other_spec)).games:
            raise UsageError(f"{other_spec}: the spec has no game {game!r}")
        other_house = {**house, **house_rules(game, args.vs_set, "--vs-set")}
    if args.save_records:
        try:
            Path(args.save_records).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"--save-records {shown(args.save_records)}: {error.strerror}") from None
    pairs = []
    for count in counts:
        setup = checked_setup(game, spec_path, house, count, options.bots)
        other = checked_setup(game, other_spec, other_house or {}, count, options.bots) if other_spec else None
        pairs.append((setup, other))
    return counts, pairs


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


def _spec_name(args: argparse.Namespace, vs: bool = False) -> str:
    """The spec file of a run as the user named it (the default one relative to here)."""
    return str(Path(args.vs)) if vs and args.vs else str(spec_option(args.spec, "--spec"))


def _simulate(args: argparse.Namespace, options: Options, setup: Setup, spec_name: str | Path,
              records: str | None = None) -> Run:
    bar = _progress(options.games, f"{setup.game} {setup.players}p")
    started = time.perf_counter()
    try:
        played = play(setup, options.games, options.seed, workers=options.workers, dask=options.dask, records=records,
                      record_limit=options.records, progress=bar.update if bar else None)
    finally:
        if bar is not None:
            bar.close()
    return finish(setup, options.games, options.seed, played, spec_name=str(spec_name),
                  elapsed_s=time.perf_counter() - started)


def _progress(total: int, label: str) -> Any:
    """A progress bar (tqdm) on a terminal's stderr; none in a pipe, CI or a test."""
    if not sys.stderr.isatty() or os.environ.get("CI"):
        return None
    from tqdm import tqdm  # no type hints: ignored in pyproject's mypy overrides

    return tqdm(total=total, desc=label, unit="game", file=sys.stderr, leave=False)


# --- shards and their merge ---------------------------------------------------------------------------


def _shard_document(args: argparse.Namespace, options: Options, pairs: Sequence[tuple[Setup, Setup | None]],
                    shard: int, shards: int) -> dict[str, Any]:
    """Shard `shard` of `shards`: what was asked (so the merge can check the shards belong
    together) and the tally of its chunks of every rule set."""
    numbers = shard_numbers(options.games, shard, shards)
    started = time.perf_counter()
    runs = []
    for first, second in pairs:
        played = [play(setup, options.games, options.seed, workers=options.workers, dask=options.dask,
                       numbers=numbers).as_json() if setup is not None else None for setup in (first, second)]
        runs.append({"setups": [_setup_json(first, _spec_name(args)),
                                _setup_json(second, _spec_name(args, vs=True)) if second is not None else None],
                     "tallies": played})
    asked = {"game": options.game, "games": options.games, "seed": options.seed, "bots": list(options.bots),
             "players": [first.players for first, _ in pairs]}
    return {"format": SHARD_FORMAT, "shard": [shard, shards], "asked": asked, "runs": runs,
            "elapsed_s": round(time.perf_counter() - started, 3)}


def _setup_json(setup: Setup, spec_name: str) -> dict[str, Any]:
    return {"game": setup.game, "spec": setup.spec, "spec_name": spec_name, "sha256": spec_sha256(setup.spec),
            "options": [[key, value] for key, value in setup.options], "players": setup.players, "bots": list(setup.bots)}


def merge(args: argparse.Namespace) -> int:
    """`pnp simulate merge SHARD.json…`: the shards of one simulation added up, answered as the
    simulation played at once would be (report included)."""
    _check_merge_options(args)
    documents = [_read_shard(Path(name)) for name in args.files]
    _check_one_simulation(args.files, documents)
    first = documents[0]
    asked, elapsed = first["asked"], sum(document["elapsed_s"] for document in documents)
    runs = []
    for k, entry in enumerate(first["runs"]):
        made: list[Run | None] = []
        for side, setup_json in enumerate(entry["setups"]):
            if setup_json is None:
                made.append(None)
                continue
            setup = _setup_of(setup_json)
            total = Tally()
            for document in documents:
                total.merge(Tally.from_json(document["runs"][k]["tallies"][side]))
            made.append(finish(setup, asked["games"], asked["seed"], total, spec_name=setup_json["spec_name"],
                               elapsed_s=elapsed / max(1, 2 * len(first["runs"]))))
        assert made[0] is not None, "a shard's first rule set is always played"
        runs.append((made[0], made[1]))
    return respond(args, runs)


def _check_merge_options(args: argparse.Namespace) -> None:
    """A merge takes the shards' files and the answer's options, none of the run's own (they
    are in the shards)."""
    played_options = [flag for flag, value in (("--games", args.games), ("--players", args.players),
                                               ("--bots", args.bots), ("--seed", args.seed), ("--spec", args.spec),
                                               ("--set", args.set), ("--vs", args.vs), ("--vs-set", args.vs_set),
                                               ("--shard", args.shard), ("--save-records", args.save_records),
                                               ("--ladder", args.ladder)) if value]
    if played_options:
        raise UsageError(f"simulate merge: {', '.join(played_options)} belong to the shards' own run")
    report_option(args.report)
    if not args.files:
        raise UsageError("simulate merge: give the shards' files, e.g. pnp simulate merge shard-*.json")


def _check_one_simulation(files: Sequence[str], documents: list[dict[str, Any]]) -> None:
    """The shards are of one simulation (same question, same count of shards, same rule sets)
    and together every shard of it, each once."""
    first = documents[0]
    shards = first["shard"][1]
    for name, document in zip(files, documents, strict=True):
        if document["asked"] != first["asked"] or document["shard"][1] != shards or \
                [r["setups"] for r in document["runs"]] != [r["setups"] for r in first["runs"]]:
            raise UsageError(f"simulate merge: {shown(name)} is a shard of another simulation than {files[0]}")
    numbers = sorted(document["shard"][0] for document in documents)
    if numbers != list(range(1, shards + 1)):
        missing = sorted(set(range(1, shards + 1)) - set(numbers))
        twice = sorted({n for n in numbers if numbers.count(n) > 1})
        raise UsageError(f"simulate merge: {shards} shards make the simulation; "
                         + (f"missing {', '.join(map(str, missing))}" if missing else "")
                         + ("; " if missing and twice else "") + (f"given twice: {', '.join(map(str, twice))}" if twice else ""))


def _read_shard(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"simulate merge: {shown(path)}: {error.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise UsageError(f"simulate merge: {shown(path)}: not a shard (not JSON)") from None
    if not isinstance(document, dict) or document.get("format") != SHARD_FORMAT:
        raise UsageError(f"simulate merge: {shown(path)}: not a shard of pnp simulate --shard")
    return document


def _setup_of(data: dict[str, Any]) -> Setup:
    if not Path(data["spec"]).is_file():
        raise UsageError(f"simulate merge: the shards played {data['spec']}, which is not there")
    if spec_sha256(data["spec"]) != data["sha256"]:
        raise UsageError(f"simulate merge: {data['spec']} changed since the shards played it")
    return Setup(data["game"], data["spec"], tuple((key, value) for key, value in data["options"]), data["players"],
                 tuple(data["bots"]))


# --- the text answer ----------------------------------------------------------------------------------


def text(runs: Sequence[tuple[Run, Run | None]]) -> str:
    """Per player count: the verdict, then each estimate on a line (value and 95 % interval; with
    a comparison both runs, the difference and a star where it stands), then the glossary."""
    lines = []
    for first, second in runs:
        header, rows = table(first, second)
        widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
        lines.append(f"{heading(first, second)} · {first.elapsed_s + (second.elapsed_s if second else 0):.1f} s")
        lines += [f"  • {sentence}" for sentence in verdict_lines(first, second)]
        note = rotation(first.setup.players, first.setup.bots)
        lines += [f"  ({note})"] if note and second is not None else []  # one run's verdict says it already
        lines.append("")
        for row in [header, *rows]:
            cells = [row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(row[1:-1], widths[1:-1], strict=True)),
                     row[-1]]
            lines.append("  " + "  ".join(cells))
        lines.append("")
    lines.append("glossary:")
    lines += [f"  {entry}" for entry in glossary_lines(runs[0][0])]
    return "\n".join(lines).rstrip()

