"""What a game's referee reads a record into and keeps (`GameReferee`): its steps, the
violation found inside one, and the player count checked first. Below `replay`, which drives
them, so that a referee (the generic one too) and the loop import these without a circle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Protocol, Sequence

from pnp.referee.record import Record
from pnp.rules.base import Event, Violation

if TYPE_CHECKING:
    from pnp.spec.model import Game


@dataclass(frozen=True)
class Step:
    """One action of the record: where it is, and what the game's referee will apply."""

    at: str  # path in the record, e.g. "rounds[2].declare.Ben"
    line: int
    action: Any


class StepViolation(Exception):
    """A violation found inside a step at a more precise place (e.g. one bid of an auction)."""

    def __init__(self, violation: Violation, at: str, line: int, state: Any = None, events: Iterable[Event] = ()):
        self.violation, self.at, self.line = violation, at, line
        self.state = state  # the position in which the illegal action was tried, if not the step's
        self.events = tuple(events)  # events applied inside the step before the violation
        super().__init__(str(violation))


class GameReferee(Protocol):
    """What a game's referee package provides, each in the same layout (`__init__` replays,
    `reading` reads, `writing` writes). `params` is the engine's, for the record's
    options; states are the engine's."""

    KEYS: tuple[str, ...]  # record keys beyond the common ones, e.g. ("rounds",)

    def setup(self, record: Record, params: Any) -> tuple[Any, Sequence[Event]]:
        """The starting position (standard setup overlaid with `start`/`deal`).
        Raises RecordError for unreadable parts; Violation (at "start") or StepViolation
        (at "deal", say) for a setup that breaks a rule."""

    def steps(self, record: Record, params: Any) -> list[Step]:
        """Every action in record order. Raises RecordError (all issues at once); names in the
        record must match the assets and decks the params were read from. Checks the player
        count first (`seated`): StepViolation at "players"."""

    def apply(self, state: Any, step: Step, params: Any) -> tuple[Any, Sequence[Event]]:
        """Apply one step. Raises Violation (or StepViolation), or RecordError when the record
        lacks something only replay reveals (an auction with no bids)."""

    def actions(self, step: Step) -> tuple[Any, ...]:
        """The engine actions the step applies, in order: with `setup`, what a program needs
        to go on from a record (the inverse of `record`)."""

    def starter(self, game: Game, players: list[str], start: Any = None) -> str:
        """A starter record (YAML text) with the setup written out: the standard one laid over
        with `start`, the engine's deal, as far as the game's records state it."""

    def record(self, params: Any, players: Sequence[str], actions: Iterable[Any],
               options: Mapping[str, Any] | None = None, start: Any = None) -> dict[str, Any]:
        """A record (plain data for `record.dump`) of engine actions played from `start` (a
        position, written out as the record's `start`; None: the standard setup)."""


def seated(record: Record, check: Callable[[Any, int], None], params: Any) -> None:
    """The record's player count against the game's limits (`check(params, count)`, the
    engine's, raises Violation) before anything else of it is read, so that a record seating
    thousands is answered at once: StepViolation at "players"."""
    try:
        check(params, len(record.players))
    except Violation as violation:
        raise StepViolation(violation, "players", record.line(("players",))) from None
