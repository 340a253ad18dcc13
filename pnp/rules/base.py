"""What every rules engine shares: events, violations, and option resolution.

Engines are pure: immutable state in, new state and events out, no I/O. A step that breaks a
rule raises `Violation` carrying the rule ID and one sentence with the numbers, so the referee
can cite it verbatim.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Callable, Iterable, Mapping

from pnp.spec.model import Game
from pnp.spec.options import Rulebook, check_values


@dataclass(frozen=True)
class Event:
    """One applied step, e.g. Event("BOLSA-4.2", "SAN: 2 offered, none wanted: 10 → 8")."""

    rule: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)  # amounts, for tests and JSON

    def as_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text}


class Violation(Exception):
    """An illegal action: the rule it breaks and a sentence with who, what, how much."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")


def resolve_options(
    rulebook: Rulebook, game: Game, derived: Mapping[str, Any], overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """House-rule values: rulebook defaults < values derived from the spec (tracks, decks)
    < the spec's `rules` < `overrides` (a referee record's `options`, already checked)."""
    values = rulebook.defaults()
    values.update(derived)
    values.update(check_values(game.rules, rulebook, in_spec=True, game=game)[0])
    values.update(overrides or {})
    return values


@dataclass(frozen=True)
class Table:
    """A table computed by a rules module for printing (an aid, a setup diagram).

    Printed components read numbers from the engine instead of retyping them, so an aid can
    never disagree with the referee.
    """

    header: tuple[str, ...]  # column headings; header[0] heads the row labels
    rows: tuple[tuple[str, ...], ...]  # each row: its label, then one cell per other column
    caption: str = ""  # a short note printed under the table


# Small notes on board cells, keyed by (asset id, 0-based cell index): e.g. which pair
# counters start on that box of a currency's track.
Marks = Mapping[tuple[str, int], tuple[str, ...]]


def lazy_exports(package: str, exports: Mapping[str, Iterable[str]]) -> Callable[[str], Any]:
    """A module `__getattr__` that imports each exported name from its submodule on first use.

    The spec layer reads every game's `RULEBOOK` on each load; a game package that imports only
    its rulebook eagerly spares `pnp validate`, builds and the other games' referees the cost of
    its engine (about 12 ms each), which counts against the referee's start-up.
    """
    home = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        if name not in home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{home[name]}"), name)
        setattr(sys.modules[package], name, value)  # later look-ups skip this function
        return value

    return __getattr__
