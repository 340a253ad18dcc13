"""`pnp simulate`: the command line, checked before a single game is played.

Everything the user can get wrong — an unknown game or bot, a player count the game does not
seat, a house rule that does not exist or takes no such value, a report that is neither HTML
nor PDF — is a `UsageError` (exit 2) naming the option, raised before any work starts.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any, Sequence

import yaml

from pnp.errors import UsageError
from pnp.rules import GAMES, load_spec, rulebook
from pnp.rules.base import Violation
from pnp.simulate import games as game_modules
from pnp.simulate.runner import Setup, context, seating
from pnp.simulate.simulation import Run, answer, combined, compare, heading, simulate, table
from pnp.spec.options import check_values


def run(args: argparse.Namespace) -> int:
    from pnp.spec import default_spec_path

    game = _game(args.game)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.report and Path(args.report).suffix.lower() not in (".html", ".pdf"):
        raise UsageError(f"--report {args.report}: the report is FILE.html or FILE.pdf")
    if args.report and not Path(args.report).resolve().parent.is_dir():
        raise UsageError(f"--report {args.report}: there is no folder {Path(args.report).resolve().parent}")
    if args.records is not None and not args.save_records:
        raise UsageError("--records K needs --save-records DIR")
    spec_path = Path(args.spec) if args.spec else _shown(default_spec_path())
    spec = load_spec(str(spec_path))
    if game not in spec.games:
        raise UsageError(f"{spec_path}: the spec has no game {game!r}")
    counts = _player_counts(args.players, spec.games[game].players)
    bots = _bots(game, args.bots)
    options = _options(game, args.set, "--set")
    other_spec = other_options = None
    if args.vs or args.vs_set:
        other_spec = Path(args.vs) if args.vs else spec_path
        if game not in load_spec(str(other_spec)).games:
            raise UsageError(f"{other_spec}: the spec has no game {game!r}")
        other_options = {**options, **_options(game, args.vs_set, "--vs-set")}
    if args.save_records:
        try:
            Path(args.save_records).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"--save-records {args.save_records}: {error.strerror}") from None
    answers: list[dict[str, Any]] = []
    runs: list[tuple[Run, Run | None]] = []
    for count in counts:
        setup = _setup(game, spec_path, options, count, bots)
        other = _setup(game, other_spec, other_options, count, bots) if other_spec is not None else None
        first = _simulate(args, setup, str(spec_path), records=args.save_records)
        second = _simulate(args, other, str(other_spec)) if other is not None else None
        runs.append((first, second))
        answers.append(compare(first, second) if second is not None else answer(first))
    result = answers[0] if len(answers) == 1 else combined(answers)
    print(json.dumps(result, ensure_ascii=False, indent=1) if args.json else text(runs))
    if args.report:
        from pnp.simulate.report import write_report

        write_report(Path(args.report), runs)
        print(f"report: {args.report}", file=sys.stderr)
    return 0


# --- checking the command line ----------------------------------------------------------------------


def _shown(path: Path) -> Path:
    """The default spec as the user sees it: relative to the current folder when inside it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def _game(name: str) -> str:
    if name not in GAMES:
        raise UsageError(f'unknown game "{name}" (games with a rules engine: {", ".join(GAMES)})')
    return name


def _player_counts(text: str | None, seats: Any) -> list[int]:
    """`4` or `3-6`, within what the spec seats (default 4, or the nearest count it seats)."""
    if text is None:
        return [min(max(4, seats.min), seats.max)]
    low, _, high = text.partition("-")
    try:
        counts = list(range(int(low), int(high or low) + 1))
    except ValueError:
        raise UsageError(f"--players {text}: give a count or a range, e.g. 4 or 3-6") from None
    if not counts or counts[0] < seats.min or counts[-1] > seats.max:
        raise UsageError(f"--players {text}: the game seats {seats.min}–{seats.max} players")
    return counts


def _bots(game: str, text: str) -> tuple[str, ...]:
    known = game_modules.bots(game)
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise UsageError(f"--bots {text}: unknown bot {', '.join(unknown) or '(none given)'} "
                         f"(bots for {game}: {', '.join(known)})")
    return names


def _options(game: str, settings: Sequence[str], flag: str) -> dict[str, Any]:
    """`rules.KEY=VALUE` settings, each value read as YAML and checked by the game's rulebook."""
    raw: dict[str, Any] = {}
    for setting in settings:
        key, equals, value = setting.partition("=")
        if not equals or not key.startswith("rules.") or not key[len("rules."):]:
            raise UsageError(f"{flag} {setting}: write rules.KEY=VALUE, e.g. {flag} rules.rounds=6")
        try:
            raw[key[len("rules."):]] = yaml.safe_load(value)
        except yaml.YAMLError:
            raw[key[len("rules."):]] = value
    checked, problems = check_values(raw, rulebook(game), in_spec=False)
    if problems:
        key, message = problems[0]
        raise UsageError(f"{flag} rules.{key}: {message}")
    return checked


def _setup(game: str, spec: Path | None, options: dict[str, Any] | None, players: int, bots: tuple[str, ...]) -> Setup:
    """A setup whose game can be played: the params accept the house rules and the engine
    seats this many players (one setup tried here, before any worker starts)."""
    setup = Setup(game, str(Path(spec or "").resolve()), tuple(sorted((options or {}).items())), players, bots)
    try:
        ctx = context(setup)
        _, names = seating(setup, 0)
        ctx.engine.setup(ctx.params, names, ctx.engine.deal(ctx.params, names, random.Random(0)))
    except Violation as violation:
        raise UsageError(f"{game} with {players} players: {violation.rule}: {violation.message}") from None
    except ValueError as error:
        raise UsageError(f"{game}: {error}") from None
    return setup


def _simulate(args: argparse.Namespace, setup: Setup, spec_name: str, records: str | None = None) -> Run:
    bar = _progress(args.games, f"{setup.game} {setup.players}p")
    try:
        return simulate(setup, args.games, args.seed, spec_name=spec_name, workers=args.workers, dask=args.dask,
                        records=records, record_limit=args.records, progress=bar.update if bar else None)
    finally:
        if bar is not None:
            bar.close()


def _progress(total: int, label: str) -> Any:
    """A progress bar (tqdm) on a terminal's stderr; none in a pipe, CI or a test."""
    if not sys.stderr.isatty() or os.environ.get("CI"):
        return None
    from tqdm import tqdm

    return tqdm(total=total, desc=label, unit="game", file=sys.stderr, leave=False)


# --- the text answer ----------------------------------------------------------------------------------


def text(runs: Sequence[tuple[Run, Run | None]]) -> str:
    """Each estimate on a line (value and 95 % interval); with a comparison, both runs, the
    difference and a star where its interval excludes zero."""
    lines = []
    for first, second in runs:
        header, rows = table(first, second)
        widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
        lines.append(f"{heading(first, second)} · {first.elapsed_s + (second.elapsed_s if second else 0):.1f} s")
        for row in [header, *rows]:
            cells = [row[0].ljust(widths[0]), *(cell.rjust(width) for cell, width in zip(row[1:-1], widths[1:-1])),
                     row[-1]]
            lines.append("  " + "  ".join(cells))
        lines.append("")
    return "\n".join(lines).rstrip()
