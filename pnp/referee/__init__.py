"""The referee: settle disputes by replaying a game record through the rules engine.

An API of values (the command line in `pnp.cli` prints them):

    record = read_record("tonight.yaml")            # RecordError (exit 2) if unreadable; or reads_record(text)
    answer = check(record, load_spec())             # Answer: ok, checked, violation, state, events
    explain(answer), verdict(answer, "tonight.yaml"), to_json(answer)
    starter(spec, "bolsa", ["Ana", "Ben", "Cris"])  # a record to start from, as YAML text

`check` reads the engine's parameters from the spec; `replay(record, params)` is the same with
parameters already at hand. Never imports the rendering stack: an answer must be quick at the
table.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from pnp.errors import RecordError
from pnp.referee import record as records
from pnp.referee.replay import Answer, referee_for, replay
from pnp.referee.report import explain, to_json, verdict
from pnp.rules import GAMES

if TYPE_CHECKING:
    from pnp.spec.model import Game, Spec

__all__ = ["Answer", "check", "explain", "game_params", "read_record", "reads_record", "replay", "starter", "to_json",
           "verdict"]


def read_record(path: str | Path) -> records.Record:
    """A record file, its common keys and its game's own keys checked (RecordError if not)."""
    return records.read(path, _GameKeys())


def reads_record(text: str, file: str = "<record>") -> records.Record:
    """Record text (a test's, a tool's), read as `read_record` reads a file."""
    return records.reads(text, _GameKeys(), file)


def check(record: records.Record, spec: Spec) -> Answer:
    """Replay `record` with the rules `spec` gives its game (RecordError for options that make
    no playable game, KeyError for a game the spec lacks)."""
    return replay(record, game_params(spec.games[record.game], record))


def game_params(game: Game, record: records.Record) -> Any:
    """The engine's parameters for the record's game and options. The spec was checked when it
    was loaded, so a ValueError here is the options' (a start price off the track they draw)."""
    from pnp.spec.contract import Mismatch

    try:
        return GAMES[record.game].engine.params(game, record.options)
    except ValueError as error:
        path = ("options",) + (error.path[1:] if isinstance(error, Mismatch) and error.path[:1] == ("rules",) else ())
        raise RecordError([record.issue(path, str(error))]) from None


def starter(spec: Spec, game: str, players: list[str]) -> str:
    """A record of `game` with the standard setup written out, for `players` in seating order."""
    return referee_for(game).starter(spec.games[game], players)


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
