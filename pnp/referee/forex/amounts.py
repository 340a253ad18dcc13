"""For-Ex amounts as a record writes them: exact, 3, 4.5, or a fraction as text, "5/4" (a
spec's own rates may make quarters) — read by the record's shape (`forex.shape`) and its reader."""

from __future__ import annotations

import re
from fractions import Fraction

from pnp.errors import brief
from pnp.referee.limits import MAX_AMOUNT

_FRACTION = re.compile(r"\s*\d{1,9}\s*/\s*[1-9]\d{0,8}\s*$")


def exact(value: object) -> Fraction | None:
    """The amount, or None for what is none up to MAX_AMOUNT. Text is read only in the short
    form, so no conversion runs long ("1e100000000" is refused, not computed)."""
    if isinstance(value, str) and _FRACTION.match(value):
        return Fraction(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) <= MAX_AMOUNT:
        return Fraction(value).limit_denominator(1000)
    return None


def problem(value: object) -> str | None:
    """What is wrong with `value` as an amount, or None: the one wording of the shape's and
    the reader's (the start queue's terms, which the shape leaves to it)."""
    amount = exact(value)
    if amount is None:
        return f"expected an amount such as 3, 4.5 or \"5/4\" up to {MAX_AMOUNT:,}, got {brief(value)}"
    if amount < 0:
        return f"an amount cannot be negative, got {brief(value)}"
    return None
