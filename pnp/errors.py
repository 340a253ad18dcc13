"""Error kinds the user can act on.

Everything raised from here is caught by the CLI and printed as plain lines — never a
traceback. Each kind carries its exit status so the CLI has one place that decides it.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from pathlib import Path
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


MAX_LINE = 500  # characters of one printed line of an error: whatever the input, a line stays readable
MAX_MESSAGE = 4000  # characters of everything one error prints


@dataclass(frozen=True)
class Issue:
    """One problem at one place in a YAML file: `file:line:col: path: message`, and for a
    problem of the YAML itself the line as written (`excerpt`), shown under it with a caret."""

    file: str
    line: int
    col: int
    path: str
    message: str
    excerpt: str = ""  # the source line (or, of a long one, the part round `col`), for a message that points into it
    caret: int = 0  # the column of `excerpt` that `col` is (0: the same)

    def __str__(self) -> str:
        where = f"{shorten(self.file, 120)}:{self.line}:{self.col}" if self.line else shorten(self.file, 120)
        text = f"{where}: {shorten(self.path, 100)}: {self.message}" if self.path else f"{where}: {self.message}"
        return shorten(text, MAX_LINE)

    def shown(self) -> list[str]:
        """The issue as printed: its line, then the source line with a caret under the column."""
        if not self.excerpt or not self.line:
            return [str(self)]
        return [str(self), *caret_lines(self.excerpt, self.line, self.caret or self.col)]


def excerpt(text: str, col: int, width: int = 200) -> tuple[str, int]:
    """A source line fit to show: the line, or of a long one `width` characters round column
    `col` marked with "…" where cut; and the column `col` falls on in it."""
    text = text.rstrip("\r\n")
    if len(text) <= width:
        return text, col
    start = max(0, min(col - 1 - width // 2, len(text) - width))
    lead, tail = ("…" if start else ""), ("…" if start + width < len(text) else "")
    return lead + text[start:start + width] + tail, col - start + len(lead)


def caret_lines(text: str, line: int, col: int) -> list[str]:
    """`text` (one source line, see `excerpt`) as `   12 | text` with `^` under column `col`
    (1-based); tabs shown as `→` and control characters as `�`, so the caret stays under them
    and the terminal shows what is there."""
    text = "".join("→" if char == "\t" else "\ufffd" if char < " " or char == "\x7f" else char for char in text)
    gutter = f"{line:>5} | "
    return [gutter + text, " " * (len(gutter) - 2) + "| " + " " * (col - 1) + "^"]


class PnpError(Exception):
    """Base of every error shown to the user as text; `exit_code` is the process status."""

    exit_code = 1

    def lines(self) -> list[str]:
        """The message as printed: each line cut to MAX_LINE, the whole to MAX_MESSAGE, so no
        input (a 100,000-letter name, a text that does not fit) comes back as a flood."""
        return bounded(str(self).splitlines() or [""])


def bounded(lines: list[str], hidden: int = 0, room: int = MAX_MESSAGE) -> list[str]:
    """`lines` each cut to MAX_LINE characters, as many as fit in `room` (MAX_MESSAGE), then a
    count of the rest (`hidden` more left out before)."""
    shown: list[str] = []
    total = 0
    for line in lines:
        line = shorten(line, MAX_LINE)
        if total + len(line) + 1 > room - 40:
            break
        shown.append(line)
        total += len(line) + 1
    left = len(lines) - len(shown) + hidden
    return shown + ([f"… and {left} more"] if left > 0 else [])


MAX_SHOWN = 20  # issues printed from one file


class LocatedError(PnpError):
    """A list of located issues in one input file, reported all at once."""

    exit_code = 2

    def __init__(self, issues: list[Issue] | tuple[Issue, ...]):
        self.issues = tuple(dict.fromkeys(issues))  # once each: pieces of many decks share print.card_mm
        super().__init__("\n".join(str(issue) for issue in self.issues))

    def lines(self) -> list[str]:
        """One line per issue (with its source line and a caret for a YAML mistake), the first
        MAX_SHOWN of them: enough to act on, never a flood."""
        shown = [line for issue in self.issues[:MAX_SHOWN] for line in issue.shown()]
        return bounded(shown, max(0, len(self.issues) - MAX_SHOWN))


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

    def __init__(self, message: str, *, text: str = "", size: bool = False, at: tuple[str | int, ...] = ()):
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


def display_name(path: Path) -> str:
    """How messages name a file: relative under the working folder (symlinks kept as the user
    named them), else as given."""
    try:
        return str(path.absolute().relative_to(Path.cwd().absolute()))
    except ValueError:
        return str(path)
