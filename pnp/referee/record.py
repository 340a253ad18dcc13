"""Game records: the YAML a table writes down, checked for what every game shares.

Common keys (REFEREE.md): `game`, `players`, `options`, `start`, then `rounds` or `turns`
(and `deal` for aktsioner). A record that cannot be read — bad YAML, an unknown key, player or
option, a negative count — is a `RecordError` (exit 2) with file:line:col. Whether the moves
are *legal* is not decided here: that is the engine's job.

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

from pnp.errors import Issue, RecordError, brief
from pnp.rules import GAMES, rulebook
from pnp.spec.options import Choice, check_values, unknown_key_message
from pnp.spec.source import PathKey, Source, SourceError, format_path, load_file, load_text

COMMON_KEYS = ("game", "players", "options", "start")
MAX_BYTES = 2_000_000  # a whole game is tens of kilobytes; more could not be answered at once
MAX_NAME = 60  # letters in a player's name
MAX_NODES = 50_000  # values, aliases expanded: a whole game holds a few thousand


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
    return parse(source, game_keys)


def reads(text: str, game_keys: Mapping[str, tuple[str, ...]], file: str = "<record>") -> Record:
    try:
        source = load_text(text, file, nfc=True, max_nodes=MAX_NODES)
    except SourceError as error:
        raise RecordError(error.issues) from None
    return parse(source, game_keys)


def parse(source: Source, game_keys: Mapping[str, tuple[str, ...]]) -> Record:
    data = source.data
    if not isinstance(data, dict):
        raise RecordError([source.issue((), "a record is a mapping with `game`, `players` and the moves")])
    game = data.get("game")
    if game is None:
        raise RecordError([source.issue((), f'missing "game" (one of: {", ".join(GAMES)})')])
    if not isinstance(game, str) or game not in GAMES:
        raise UnknownGame([source.issue(("game",), unknown_key_message(game, list(GAMES), "game"))], game)
    issues = list(_unknown_keys(source, data, COMMON_KEYS + game_keys.get(game, ())))
    players, player_issues = _players(source, data.get("players"))
    options, option_issues = _options(source, data.get("options", {}), game)
    issues += player_issues + option_issues
    if issues:
        raise RecordError(sorted(issues, key=lambda i: (i.line, i.col)))
    return Record(game, players, options, source)


def _unknown_keys(source: Source, data: dict[Any, Any], allowed: Iterable[str]) -> Iterable[Issue]:
    allowed = list(allowed)
    for key in data:
        if key not in allowed:
            yield source.issue((key,), unknown_key_message(key, allowed, "key"), key=True)


def _options(source: Source, value: object, game: str) -> tuple[dict[str, Any], list[Issue]]:
    """The record's house rules, checked against the game's rulebook (none written: none)."""
    if value is None:
        value = {}
    if not isinstance(value, dict):
        return {}, [source.issue(("options",), "expected a mapping of house rules, e.g. {rounds: 5}")]
    options, problems = check_values(value, rulebook(game), in_spec=False)
    unknown = [(k, m) for k, m in problems if m.startswith("unknown")]
    return options, [source.issue(("options", k), m, key=(k, m) in unknown) for k, m in problems]


def _players(source: Source, value: Any) -> tuple[tuple[str, ...], list[Issue]]:
    if value is None:
        return (), [source.issue((), 'missing "players" (seating order, e.g. [Ana, Ben, Cris])')]
    if not isinstance(value, tuple) or not value:
        return (), [source.issue(("players",), "expected a list of names in seating order, e.g. [Ana, Ben, Cris]")]
    issues, seen = [], set()
    for index, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            issues.append(source.issue(("players", index), f"a player name must be text, got {brief(name)}"))
        elif len(name) > MAX_NAME:
            issues.append(source.issue(("players", index), f"a player name has at most {MAX_NAME} letters, "
                                                           f"{brief(name)} has {len(name):,}"))
        elif name in seen:
            issues.append(source.issue(("players", index), f'"{name}" is listed twice; names must be unique'))
        else:
            seen.add(name)
    return tuple(str(name) for name in value), issues


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
