"""House-rule options: how a rules module declares them and how values are checked.

The spec layer knows no game, so each rules module hands over a `Rulebook` (its options, with
defaults and allowed values, and the names of the tables it can compute for printed aids).
components.yaml and referee records are checked against the same rulebook.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Mapping

from pnp.errors import brief, shorten
from pnp.spec.contract import Need

MAX_NUMBER = 1_000_000_000  # a house-rule number without a maximum of its own: far beyond any game


class Choice(str, Enum):
    """The values of a house rule chosen from a short list, as a game's rulebook declares them
    (`class Rounding(Choice): UP = "up"; DOWN = "down"`): an option's `choices` and its default
    are members, the spec's and a record's text is read into one, and an engine compares
    members, never strings, so a misspelt value cannot pass unnoticed. A member is its text
    (written, shown and serialised as "up")."""

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)


@dataclass(frozen=True)
class Option:
    """One house rule or parameter, named as in rules/<game>.md."""

    name: str
    default: Any
    rule: str  # the rule ID it belongs to, e.g. "BOLSA-3.2.5"
    choices: tuple[Any, ...] | None = None  # the allowed values, when they are a short list
    minimum: float | None = None
    maximum: float | None = None
    parse: Callable[[Any, Any], Any] | None = None  # (value, game or None) -> normalised; raises ValueError
    set_by: str | None = None  # where components.yaml sets it instead (a track, a deck)

    def check(self, value: Any, game: Any = None) -> Any:
        """The normalised value, or ValueError with a sentence a user can act on."""
        if self.parse is not None:
            return self.parse(value, game)
        if self.choices is not None:
            return _one_of(value, self.choices)
        expected = type(self.default)
        if expected is bool:
            if not isinstance(value, bool):
                raise ValueError(f"expected true or false, got {_show(value)}")
        elif expected in (int, float):
            value = self._number_in_bounds(value, whole=expected is int)
        elif expected is str and not isinstance(value, str):
            raise ValueError(f"expected text, got {_show(value)}")
        return value

    def _number_in_bounds(self, value: Any, *, whole: bool) -> Any:
        """`value` as a finite number (an int if `whole`) between the option's bounds; without a
        maximum of its own, MAX_NUMBER keeps a typo of nine zeros out of the engines."""
        if not _finite_number(value):
            raise ValueError(f"expected a number, got {_show(value)}")
        if whole and value != int(value):
            raise ValueError(f"expected a whole number, got {_show(value)}")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"must be at least {_show(self.minimum)}, got {_show(value)}")
        maximum = MAX_NUMBER if self.maximum is None else self.maximum
        if value > maximum:
            raise ValueError(f"must be at most {_show(maximum)}, got {_show(value)}")
        return int(value) if whole else value


@dataclass(frozen=True)
class Rulebook:
    """What a rules module tells the spec and the referee about itself: its house rules, the
    tables it computes for printing, and what it needs from its game in components.yaml."""

    game: str
    options: tuple[Option, ...]
    tables: tuple[str, ...] = ()  # names usable as `table:` / `marks:` in components
    needs: tuple[Need, ...] = ()
    # the deal sets the most players and `players.max` is only a ceiling (Акционер, AKT-1.10:
    # a 4+6 deal seats 2–4 of a box for 6); else every count from min to max must be seated
    deal_limits_players: bool = False

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


def check_values(
    values: Mapping[str, Any], rulebook: Rulebook, *, in_spec: bool, game: Any = None
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Normalised values and a list of (key, message) problems.

    `in_spec` forbids options that components.yaml sets elsewhere (a track's start, a deck):
    the printed components and the refereed rules must read the same number.
    """
    checked: dict[str, Any] = {}
    problems: list[tuple[str, str]] = []
    for key, value in values.items():
        option = rulebook.option(key)
        if option is None:
            problems.append((key, unknown_key_message(key, [o.name for o in rulebook.options], "option")))
            continue
        if in_spec and option.set_by:
            problems.append((key, f"set by {option.set_by} in components.yaml, so the board and the rules agree"))
            continue
        try:
            checked[key] = option.check(value, game)
        except ValueError as error:
            problems.append((key, f"{error} ({option.rule})"))
    return checked, problems


def unknown_key_message(key: Any, known: list[str], what: str = "field") -> str:
    """'unknown field "colr" (did you mean "color"?)', or the list of known names when short."""
    text = shorten(str(key))
    hint = suggestion(text, known)
    return f'unknown {what} "{text}"' + (f" ({hint})" if hint else "")


def suggestion(key: str, known: list[str], *, any_case: bool = False) -> str:
    """'did you mean "color"?' (with `any_case`, letter case aside), or 'known: a, b, c' when
    the list is short, or nothing. A long list is not searched (it would be slow, and no
    help)."""
    if len(known) > 1000:
        return ""
    folded = {(name.casefold() if any_case else name): name for name in known}
    import difflib  # only for a name that is not there: a referee's start-up never pays for it

    close = difflib.get_close_matches(key.casefold() if any_case else key, list(folded), n=1, cutoff=0.6)
    if close:
        return f'did you mean "{folded[close[0]]}"?'
    if known and len(known) <= 12:
        return f'known: {", ".join(known)}'
    return ""


def _one_of(value: Any, choices: tuple[Any, ...]) -> Any:
    """The one of `choices` that `value` is (a `Choice` member for its text): true is not 1
    here, though Python says they are equal."""
    if value not in choices or isinstance(value, bool) != isinstance(choices[0], bool):
        allowed = ", ".join(_show(c) for c in choices)
        raise ValueError(f"expected one of {allowed}; got {_show(value)}")
    return choices[choices.index(value)]


def _finite_number(value: object) -> bool:
    """An int or float that is finite; true and false are not numbers here, though Python counts them."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{shorten(value)}"'
    if isinstance(value, float):
        return f"{int(value):,}" if value.is_integer() else f"{value:g}"
    if isinstance(value, int) and abs(value) < 10**12:
        return f"{value:,}" if value >= 10_000 else str(value)
    return brief(value)
