"""Game records: the YAML a table writes down, checked for what every game shares.

Common keys (REFEREE.md): `game`, `players`, `options`, `start`, then `rounds` or `turns`
(and `deal` for aktsioner). A record that cannot be read — bad YAML, an unknown key, player or
option, a negative count — is a `RecordError` (exit 2) with file:line:col. Its shape (keys,
types, bounds) is checked by pydantic models (`pnp.referee.shape`), once for each content of
a file: a record file read sound before is not checked again (the user's cache, `pnp.cache`),
so a referee asked again about the same record — `check`, then `explain` — loads no pydantic. Whether the
moves are *legal* is not decided here: that is the engine's job.

A record is read in Unicode's composed form (NFC), so a name is the same name however a
keyboard typed its accents; a file is read up to MAX_BYTES and MAX_NODES values, and a name
up to MAX_NAME letters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml

from pnp.cache import Cache, FolderStore, code_version, key, user_folder
from pnp.errors import Issue, RecordError
from pnp.referee.limits import MAX_BYTES, MAX_NAME, MAX_NODES
from pnp.rules import GAMES, rulebook
from pnp.spec.options import Choice, check_values, unknown_key_message
from pnp.spec.source import PathKey, Source, SourceError, format_path, load_file, load_text

__all__ = ["MAX_BYTES", "MAX_NAME", "MAX_NODES", "Record", "RecordError", "UnknownGame", "dump", "parse", "read",
           "reads", "scalar", "where"]

KEEP = 500  # records whose sound shape the user's cache remembers; the oldest go first


class UnknownGame(RecordError):
    """The record names a game no rules engine plays (the spec may still print it)."""

    def __init__(self, issues: list[Issue], game: Any):
        self.game = game
        super().__init__(issues)


@dataclass(frozen=True)
class Record:
    """A parsed record: the common keys checked, the rest left to the game's referee."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]  # only the options the record sets, checked and normalised
    source: Source = field(repr=False)

    def issue(self, path: PathKey, message: str, *, key: bool = False) -> Issue:
        return self.source.issue(path, message, key=key)

    def line(self, path: PathKey) -> int:
        return self.source.position(path)[0]

    def get(self, path: PathKey, default: Any = None) -> Any:
        return self.source.get(path, default)

    @cached_property
    def seats(self) -> dict[str, int]:
        """Each player's seat, for lookups that stay quick however long the list."""
        return {name: seat for seat, name in enumerate(self.players)}


def read(path: str | Path, game_keys: Mapping[str, tuple[str, ...]]) -> Record:
    """Load a record file. `game_keys` gives, per game, the keys allowed beyond the common ones."""
    try:
        source = load_file(path, max_bytes=MAX_BYTES, nfc=True, max_nodes=MAX_NODES)
    except SourceError as error:
        raise RecordError(error.issues) from None
    return parse(source, game_keys, remember=True)


def reads(text: str, game_keys: Mapping[str, tuple[str, ...]], file: str = "<record>") -> Record:
    try:
        source = load_text(text, file, nfc=True, max_nodes=MAX_NODES)
    except SourceError as error:
        raise RecordError(error.issues) from None
    return parse(source, game_keys)


def parse(source: Source, game_keys: Mapping[str, tuple[str, ...]], *, remember: bool = False) -> Record:
    """The record in `source`, its game's own keys given by `game_keys`; with `remember`, a
    sound shape is kept in the user's cache (a file's: the table's journal, read after every
    move, would only fill it)."""
    data = source.data
    if not isinstance(data, dict):
        raise RecordError([source.issue((), "a record is a mapping with `game`, `players` and the moves")])
    game = data.get("game")
    if game is None:
        raise RecordError([source.issue((), f'missing "game" (one of: {", ".join(GAMES)})')])
    if not isinstance(game, str) or game not in GAMES:
        raise UnknownGame([source.issue(("game",), unknown_key_message(game, list(GAMES), "game"))], game)
    issues = _shape_issues(source, game, tuple(game_keys.get(game, ())), remember)
    options: dict[str, Any] = {}
    if isinstance(data.get("options"), dict):
        options, problems = check_values(data["options"], rulebook(game), in_spec=False)
        issues += [source.issue(("options", k), m, key=m.startswith("unknown")) for k, m in problems]
    players: tuple[str, ...] = data["players"] if isinstance(data.get("players"), tuple) else ()
    issues += _twice(source, players)
    if issues:
        raise RecordError(sorted(issues, key=lambda i: (i.line, i.col)))
    return Record(game, players, options, source)


def _shape_issues(source: Source, game: str, keys: tuple[str, ...], remember: bool) -> list[Issue]:
    """`pnp.referee.shape.issues`, unless the user's cache knows this content of `game`'s
    record to be sound with this code (then pydantic is not even loaded)."""
    folder = user_folder() if remember else None
    cache = Cache(FolderStore(folder, KEEP)) if folder is not None else None
    name = key(source.sha256, keys, code_version("referee"))
    if cache is not None and cache.get(game, "shape", name) is True:
        return []
    from pnp.referee.shape import issues

    found = issues(source, game, keys)
    if not found and cache is not None:
        cache.put(game, "shape", name, True)
    return found


def _twice(source: Source, players: tuple[Any, ...]) -> Iterable[Issue]:
    """A name listed again, where it is listed again (pydantic locates no item of a list
    it checks whole, so uniqueness is read here, as the spec reads duplicate ids)."""
    seen: set[str] = set()
    for index, name in enumerate(players):
        if isinstance(name, str) and name in seen:
            yield source.issue(("players", index), f'"{name}" is listed twice; names must be unique')
        elif isinstance(name, str):
            seen.add(name)


def where(path: PathKey) -> str:
    """The `at` of the JSON answer: 'rounds[2].declare.Ben'."""
    return format_path(path)


# --- writing ------------------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """`yaml.SafeDumper`, with text that holds a line break (\\n, NEL, LS, PS) double-quoted
    and escaped: written plain or single-quoted, a reader folds the break into a space."""


def _text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = '"' if any(mark in text for mark in _BREAKS) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_BREAKS = ("\n", "\r", "\x85", "\u2028", "\u2029")
_Dumper.add_representer(str, _text)
_Dumper.add_multi_representer(Choice, lambda dumper, value: _text(dumper, str(value)))  # a house rule's value: its text


def dump(data: Mapping[str, Any]) -> str:
    """A record as YAML: the one writer of every record a program writes (starters, played
    games). Plain data in (names, numbers, lists, mappings); `yaml.safe_dump` quotes whatever
    would read back as something else (`yes`, `null`, `1`, `Zoë: x`), and innermost lists and
    mappings stay on one line, as people write them."""
    return yaml.dump(dict(data), Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None,
                     width=100)


def scalar(value: Any) -> str:
    """One value as YAML reads it back, on one line (it may sit in a comment: the example turns
    a starter shows), e.g. `Ana`, `'yes'`, `"two\\nlines"`."""
    text = yaml.dump(value, Dumper=_Dumper, allow_unicode=True, default_flow_style=True, width=1_000_000)
    return text.removesuffix("\n...\n").strip()
