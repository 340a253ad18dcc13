"""Reading the game-specific parts of a record with located, collected errors.

Every game's referee reads the same kinds of fields — mappings of asset to count, player names,
whole amounts, halves — so they share these readers. Each returns the value (or a safe
fallback) and records an issue instead of raising, so one run reports every problem.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable

from pnp.errors import Issue, RecordError, brief
from pnp.referee.limits import MAX_AMOUNT
from pnp.referee.record import Record
from pnp.spec.options import unknown_key_message
from pnp.spec.source import PathKey

__all__ = ["MAX_AMOUNT", "Reader"]


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

    # --- shapes ---------------------------------------------------------------------------

    def mapping(self, path: PathKey, allowed: Iterable[str] | None = None, *, required: bool = False) -> dict[Any, Any]:
        value = self.get(path)
        if value is None:
            if required:
                self.fail(path[:-1], f'missing "{path[-1]}"')
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

    def sequence(self, path: PathKey, *, required: bool = False) -> tuple[Any, ...]:
        value = self.get(path)
        if value is None:
            if required:
                self.fail(path[:-1], f'missing "{path[-1]}"')
            return ()
        if not isinstance(value, tuple):
            self.fail(path, "expected a list")
            return ()
        return value

    # --- values ---------------------------------------------------------------------------

    def count(self, path: PathKey, *, minimum: int = 0) -> int:
        """A whole number from `minimum` to MAX_AMOUNT (a negative count is a record error,
        REFEREE.md; one beyond any table, too)."""
        value = self.get(path)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"expected a whole number, got {brief(value)}")
            return minimum
        if value < minimum:
            self.fail(path, f"must be at least {minimum}, got {value}")
            return minimum
        if value > MAX_AMOUNT:
            self.fail(path, f"must be at most {MAX_AMOUNT:,}, got {brief(value)}")
            return minimum
        return value

    def amount(self, path: PathKey, *, halves: bool = False) -> Fraction:
        """A non-negative amount of money up to MAX_AMOUNT; with `halves`, 4.5 is allowed
        (For-Ex)."""
        value = self.get(path)
        example = "3 or 4.5" if halves else "30"
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(path, f"expected an amount such as {example}, got {brief(value)}")
            return Fraction(0)
        if value < 0:
            self.fail(path, f"an amount cannot be negative, got {brief(value)}")
            return Fraction(0)
        if value > MAX_AMOUNT:
            self.fail(path, f"an amount is at most {MAX_AMOUNT:,}, got {brief(value)}")
            return Fraction(0)
        exact = Fraction(value).limit_denominator(1000)
        if exact.denominator > (2 if halves else 1):
            self.fail(path, f"expected {'a whole or half' if halves else 'a whole'} amount, got {value}")
            return Fraction(0)
        return exact

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
        """{asset: count} with known keys and whole counts ≥ 0, e.g. {IBE: 1, SAN: 2}."""
        known = list(known)
        result = {}
        for key in self.mapping(path):
            if self.choice(path + (key,), key, known, what, key=True) is not None:
                result[key] = self.count(path + (key,))
        return result
