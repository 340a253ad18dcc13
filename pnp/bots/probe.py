"""What the simulator reads off a game's positions, game by game.

The engines say who moves, what is legal and how a game ended; they say nothing about how a
game is going or how hard it pushes its components. A `Probe` reads that off the engine's
immutable positions: each player's worth if the game ended now (the engine's `worth`, for the
mid-game leader and the lookahead bot), how long a game was, the values on the game's track and the marks they
reach (a bound, a flipped token), the money in players' hands per currency, and the supplies
that can run out. Every number comes from the engine's params (so from components.yaml),
never from the bundled spec.

`pnp.bots.games.<game>` subclasses `Probe` for each registered game; a game without one
is still simulated with this base (wins, lengths and scores, no component pressure).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Mapping

Number = float  # what the simulator keeps: engines' exact numbers, converted once


class Probe:
    """The readings of one game under one set of params; the base reads nothing."""

    unit = "steps"  # what `length` counts: "rounds", "turns"
    track_name = ""  # the printed track whose values `track` reads, e.g. "quote"
    series_names: tuple[str, ...] = ()  # one per value `track` returns (companies, colours)
    series_label = ""  # what `series` plots, when it is not the track's values: "strength (pairs won)"
    mark_names: tuple[str, ...] = ()  # what `marks` can report, e.g. ("bottom", "flip", "top")
    supply_names: tuple[str, ...] = ()  # one per value `supplies` returns
    currencies: tuple[str, ...] = ()  # keys of `money`: a currency's code, "" for a game's one money
    money_unit = Fraction(1)  # the least amount of money a player can hold (For-Ex: ½, FOREX-A6)

    def __init__(self, params: Any):
        self.params = params

    def worth(self, state: Any) -> tuple[Number, ...] | None:
        """What each seat would score if the game ended now (the engine's `worth`, as floats);
        None when the game cannot say."""
        return None

    def length(self, state: Any, steps: int, kinds: Mapping[str, int]) -> int:
        """The finished game's length in `unit`, from its last position, its number of steps
        and the number of actions of each kind (by class name: "Begin")."""
        return steps

    def track(self, state: Any) -> tuple[Any, ...]:
        """The values on the track, one per `series_names` (cheap: read after every step)."""
        return ()

    def series(self, reading: tuple[Any, ...]) -> tuple[Number, ...]:
        """A track reading as numbers for plotting (the reading itself by default)."""
        return tuple(float(value) for value in reading)

    def marks(self, old: tuple[Any, ...], new: tuple[Any, ...]) -> Iterable[str]:
        """The `mark_names` reached by going from one reading to a different one."""
        return ()

    def money(self, state: Any) -> tuple[tuple[Any, ...], ...]:
        """Per currency (in `currencies` order), each seat's money in hand."""
        return ()

    def supplies(self, state: Any) -> tuple[int, ...]:
        """What is left of each supply in `supply_names`."""
        return ()


def reached(old: tuple[Any, ...], new: tuple[Any, ...], value: Any) -> bool:
    """A value on the track arrived on `value` (it was not there before)."""
    return any(b == value != a for a, b in zip(old, new, strict=True))
