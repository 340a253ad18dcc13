"""Reading the game-specific parts of a record with located, collected errors.

A record's shape — its keys, types, counts and amounts — is checked as it is read
(`pnp.referee.shape`, pydantic); what its referee reads after that is what a model cannot know:
the names it uses (its players, the spec's companies, colours, currencies). Every game names
the same kinds of things, so they share this reader. Each method returns the value (or a safe
fallback) and records an issue instead of raising, so one run reports every problem.
"""

from __future__ import annotations

from typing import Any, Iterable

from pnp.errors import Issue, RecordError
from pnp.referee.record import Record
from pnp.spec.options import unknown_key_message
from pnp.spec.source import PathKey


class Reader:
    """Collects issues while reading a record; `done()` raises them all at once."""

    def __init__(self, record: Record):
        self.record = record
        self.issues: list[Issue] = []

    def fail(self, path: PathKey, message: str, *, key: bool = False) -> None:
        self.issues.append(self.record.issue(path, message, key=key))

    def done(self) -> None:
        if self.issues:
            raise RecordError(sorted(self.issues, key=lambda i: (i.line, i.col)))

    def get(self, path: PathKey, default: Any = None) -> Any:
        return self.record.get(path, default)

    # --- what the shape leaves to the reader -----------------------------------------------

    def mapping(self, path: PathKey, allowed: Iterable[str] | None = None) -> dict[Any, Any]:
        """The mapping at `path` ({} for none), its keys among `allowed` when given (a part the
        shape leaves to the reader: For-Ex's start queue, a plug-in game's actions)."""
        value = self.get(path)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.fail(path, "expected a mapping (key: value)")
            return {}
        if allowed is not None:
            allowed = list(allowed)
            for key in value:
                if key not in allowed:
                    self.fail(path + (key,), unknown_key_message(key, allowed, "key"), key=True)
        return value

    def sequence(self, path: PathKey) -> tuple[Any, ...]:
        value = self.get(path)
        if value is None:
            return ()
        if not isinstance(value, tuple):
            self.fail(path, "expected a list")
            return ()
        return value

    # --- names -------------------------------------------------------------------------------

    def player(self, path: PathKey, name: Any, *, key: bool = False) -> str | None:
        if not isinstance(name, str) or name not in self.record.seats:
            self.fail(path, unknown_key_message(name, list(self.record.players), "player"), key=key)
            return None
        return name

    def choice(self, path: PathKey, value: Any, known: Iterable[str], what: str, *, key: bool = False) -> str | None:
        known = list(known)
        if value not in known:
            self.fail(path, unknown_key_message(value, known, what), key=key)
            return None
        return str(value)

    def counts(self, path: PathKey, known: Iterable[str], what: str) -> dict[str, int]:
        """{asset: count} with known keys, e.g. {IBE: 1, SAN: 2} (the counts are the shape's)."""
        known = list(known)
        return {key: count for key, count in self.mapping(path).items()
                if self.choice(path + (key,), key, known, what, key=True) is not None}
