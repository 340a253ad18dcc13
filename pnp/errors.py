"""Error kinds the user can act on.

Everything raised from here is caught by the CLI and printed as plain lines — never a
traceback. Each kind carries its exit status so the CLI has one place that decides it.
"""

from __future__ import annotations

from dataclasses import dataclass


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


class LocatedError(PnpError):
    """A list of located issues in one input file, reported all at once."""

    exit_code = 2

    def __init__(self, issues: list[Issue] | tuple[Issue, ...]):
        self.issues = tuple(issues)
        super().__init__("\n".join(str(issue) for issue in self.issues))

    def lines(self) -> list[str]:
        return [str(issue) for issue in self.issues]


class SpecError(LocatedError):
    """components.yaml is unreadable or invalid."""


class RecordError(LocatedError):
    """A referee game record is unreadable or invalid (not an illegal move: that is a violation)."""


class UsageError(PnpError):
    """A command-line value pnp cannot use (an unknown game, format or player list)."""

    exit_code = 2


class BuildError(PnpError):
    """The spec is valid but cannot be printed as asked (text that does not fit, a missing glyph)."""

    exit_code = 1
