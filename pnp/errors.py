"""Error kinds the user can act on.

Everything raised from here is caught by the CLI and printed as plain lines — never a
traceback. Each kind carries its exit status so the CLI has one place that decides it.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = 60
_REPR.maxlevel, _REPR.maxtuple, _REPR.maxlist, _REPR.maxdict = 3, 6, 6, 6


def brief(value: Any) -> str:
    """`repr(value)`, cut to about 60 characters: a message that quotes what a file holds
    stays one short line whatever the file holds (a name of 200,000 letters, a list of
    thousands)."""
    return _REPR.repr(value)


def shorten(text: str, limit: int = 60) -> str:
    """Text cut to `limit` characters with an ellipsis, for names and keys quoted as written."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class Issue:
    """One problem at one place in a YAML file: `file:line:col: path: message`."""

    file: str
    line: int
    col: int
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.col}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class PnpError(Exception):
    """Base of every error shown to the user as text; `exit_code` is the process status."""

    exit_code = 1

    def lines(self) -> list[str]:
        return [str(self)]


MAX_SHOWN = 20  # issues printed from one file


class LocatedError(PnpError):
    """A list of located issues in one input file, reported all at once."""

    exit_code = 2

    def __init__(self, issues: list[Issue] | tuple[Issue, ...]):
        self.issues = tuple(dict.fromkeys(issues))  # once each: pieces of many decks share print.card_mm
        super().__init__("\n".join(str(issue) for issue in self.issues))

    def lines(self) -> list[str]:
        """One line per issue, the first MAX_SHOWN of them: enough to act on, never a flood."""
        shown = [str(issue) for issue in self.issues[:MAX_SHOWN]]
        hidden = len(self.issues) - MAX_SHOWN
        return shown + ([f"… and {hidden} more"] if hidden > 0 else [])


class SpecError(LocatedError):
    """components.yaml is unreadable or invalid."""


class RecordError(LocatedError):
    """A referee game record is unreadable or invalid (not an illegal move: that is a violation)."""


class UsageError(PnpError):
    """A command-line value pnp cannot use (an unknown game, format or player list)."""

    exit_code = 2


class BuildError(PnpError):
    """The spec is valid but cannot be printed as asked (text that does not fit, a missing glyph,
    pieces larger than the paper). What is at fault, so the error can be placed at the spec field
    that wrote it: `text`, the text as drawn; `size`, the pieces' size; `at`, the path of the
    field inside its component when the generator knows it (`("sections", 2, "lines", 0)`)."""

    exit_code = 1

    def __init__(self, message: str, *, text: str = "", size: bool = False, at: tuple = ()):
        super().__init__(message)
        self.text = text
        self.size = size
        self.at = at


class BuildErrors(BuildError):
    """Several problems of one component found in one pass (a booklet's lines, tables and
    examples), each placed on its own: `pnp validate` reports them all in one run."""

    def __init__(self, errors: list[BuildError] | tuple[BuildError, ...]):
        self.errors = tuple(errors)
        super().__init__("\n".join(str(e) for e in self.errors), text=self.errors[0].text, at=self.errors[0].at)
