"""The referee: settle disputes by replaying a game record through the rules engine.

An API of values (the command line in `pnp.cli` prints them):

    record = read_record("tonight.yaml")            # RecordError (exit 2) if unreadable; or reads_record(text)
    answer = check(record)                          # Answer: ok, checked, violation, state, events
    explain(answer), verdict(answer, "tonight.yaml"), to_json(answer)
    starter(spec, "bolsa", ["Ana", "Ben", "Cris"])  # a record to start from, as YAML text

`check` takes the rules from a spec file (default: ./components.yaml, else the bundled one),
through the engine-parameter cache (`pnp.referee.params`), or from a `Spec` already loaded;
`replay(record, params)` is the same with the engine's parameters at hand. Never imports the
rendering stack, nor on a warm cache the spec's model: an answer must be quick at the table.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from pnp.errors import Issue, RecordError, UsageError, display_name
from pnp.referee import record as records
from pnp.referee.replay import Answer, SpecFile, referee_for, replay
from pnp.referee.report import explain, to_json, verdict
from pnp.rules import GAMES
from pnp.rules.base import Violation
from pnp.spec.source import default_spec_path, read_input

if TYPE_CHECKING:
    from pnp.i18n import Language
    from pnp.spec.model import Game, Spec

__all__ = ["Answer", "check", "explain", "game_params", "language", "read_record", "reads_record", "replay", "starter",
           "to_json", "verdict"]


def language(code: str, game: str, spec: str | Path | None = None) -> "Language":
    """`game`'s words in language `code`, from its catalog beside the spec file (default:
    ./components.yaml, else the bundled one): what `--lang` words an explanation in, its
    events and sentences translated, its rule IDs as they are. Babel is loaded only here, so a
    referee asked in English starts as it always has."""
    from pnp.i18n.catalogs import CatalogError, available
    from pnp.i18n.catalogs import language as read_language

    folder = (Path(spec) if spec is not None else default_spec_path()).parent
    known = available(folder, game)
    if code not in known:
        raise UsageError(f"--lang {code}: no catalog of {game} in that language beside the spec "
                         f"(languages: {', '.join(known)})")
    try:
        return read_language(folder, game, code)
    except CatalogError as error:
        raise RecordError([Issue(display_name(error.path), error.line, 1 if error.line else 0, "",
                                 f"cannot read the catalog: {error}")]) from None


def read_record(path: str | Path) -> records.Record:
    """A record file, its common keys and its game's own keys checked (RecordError if not)."""
    return records.read(path, _GameKeys())


def reads_record(text: str, file: str = "<record>") -> records.Record:
    """Record text (a test's, a tool's), read as `read_record` reads a file."""
    return records.reads(text, _GameKeys(), file)


def check(record: records.Record, spec: Spec | str | Path | None = None) -> Answer:
    """Replay `record` with the rules its game has in `spec`: a loaded Spec, or the path of a
    spec file (None: the default one). Raises SpecError for a spec that does not load,
    RecordError for options that make no playable game, KeyError for a game the spec lacks."""
    if spec is None or isinstance(spec, (str, Path)):
        from pnp.referee.params import spec_params

        params = _options_checked(record, lambda: spec_params(spec, record.game, record.options))
        used: SpecFile | None = _spec_file(Path(spec) if spec is not None else default_spec_path())
    else:
        params = game_params(spec.games[record.game], record)
        used = SpecFile(*spec.origin) if spec.origin else None
    return replace(replay(record, params), spec=used)


def _spec_file(path: Path) -> SpecFile:
    """The spec file's name and hash, as loading it would give them (it loaded: its params did)."""
    return SpecFile(display_name(path), hashlib.sha256(read_input(path)).hexdigest())


def game_params(game: Game, record: records.Record) -> Any:
    """The engine's parameters for the record's game and options."""
    return _options_checked(record, lambda: GAMES[record.game].engine.params(game, record.options))


def _options_checked(record: records.Record, params: Callable[[], Any]) -> Any:
    """`params()`; the spec was checked when it was loaded, so a ValueError is the record's
    options' (a start price off the track they draw), reported at them."""
    from pnp.spec.contract import Mismatch

    try:
        return params()
    except ValueError as error:
        path = ("options",) + (error.path[1:] if isinstance(error, Mismatch) and error.path[:1] == ("rules",) else ())
        raise RecordError([record.issue(path, str(error))]) from None


def starter(spec: Spec, game: str, players: list[str], seed: int | None = None) -> str:
    """A record of `game` with its setup written out, for `players` in seating order: the
    engine's deal drawn with `random.Random(seed)` (a fresh draw without a seed) where the
    game's referee writes it (For-Ex's supply after the removal, FOREX-4.3). It checks clean,
    or none is made: players the game cannot seat, or names a record cannot hold, are a
    UsageError (exit 2) with the rule or the reason."""
    engine = GAMES[game].engine
    try:
        params = engine.params(spec.games[game])
        engine.check_players(params, len(players))
        start = engine.deal(params, players, random.Random(seed))
        text = referee_for(game).starter(spec.games[game], players, start)
    except Violation as violation:
        raise UsageError(f"{violation.rule}: {violation.message}") from None
    try:
        answer = check(reads_record(text, "--players"), spec)
    except RecordError as error:
        raise UsageError("; ".join(issue.message for issue in error.issues)) from None
    if answer.violation is not None:
        raise UsageError(f"{answer.violation.rule}: {answer.violation.message}")
    return text


class _GameKeys(Mapping[str, tuple[str, ...]]):
    """Each game's record keys, importing only the referee of the game the record names."""

    def __getitem__(self, game: str) -> tuple[str, ...]:
        if not isinstance(game, str) or game not in GAMES:
            raise KeyError(game)
        return referee_for(game).KEYS

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)
