"""Replaying a record through a rules engine, stopping at the first violation.

Each game's referee module (`pnp.referee.<game>`) turns its part of the record into steps and
drives its engine; this module is the loop they share, so the answer has one shape for all
games (REFEREE.md): ok, checked, violation, state, events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from pnp.referee.record import Record
from pnp.rules import GAMES
from pnp.rules.base import Event, Violation
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
    """What `pnp.referee.<game>` provides."""

    KEYS: tuple[str, ...]  # record keys beyond the common ones, e.g. ("rounds",)

    def setup(self, record: Record, game: Game) -> tuple[Any, list[Event]]:
        """The starting position (standard setup overlaid with `start`/`deal`).
        Raises RecordError for unreadable parts; Violation (at "start") or StepViolation
        (at "deal", say) for a setup that breaks a rule."""

    def steps(self, record: Record, game: Game) -> list[Step]:
        """Every action in record order. Raises RecordError (all issues at once); `game` gives
        the asset ids and decks that names in the record must match."""

    def apply(self, state: Any, step: Step) -> tuple[Any, list[Event]]:
        """Apply one step. Raises Violation (or StepViolation), or RecordError when the record
        lacks something only replay reveals (an auction with no bids)."""

    def actions(self, step: Step) -> tuple[Any, ...]:
        """The engine actions the step applies, in order: with `setup`, what a program needs
        to go on from a record (the inverse of `record`)."""

    def state_json(self, state: Any) -> dict[str, Any]: ...

    def starter(self, game: Game, players: list[str]) -> str:
        """A starter record (YAML text) with the standard setup written out."""

    def record(self, params: Any, players: Sequence[str], actions: Iterable[Any],
               options: Mapping[str, Any] | None = None, start: Any = None) -> dict[str, Any]:
        """A record (plain data for `record.dump`) of engine actions played from `start` (a
        position, written out as the record's `start`; None: the standard setup)."""


@dataclass(frozen=True)
class Verdict:
    at: str
    line: int
    rule: str
    message: str


@dataclass
class Answer:
    game: str
    ok: bool = True
    checked: int = 0
    violation: Verdict | None = None
    state: Any = None
    events: list[tuple[str, Event]] = field(default_factory=list)  # (step `at`, event)


def referee_for(game: str) -> GameReferee:
    """The referee module the registry names for `game`."""
    return import_module(GAMES[game].referee)  # type: ignore[return-value]


def replay(record: Record, game: Game, on_event: Callable[[str, Event], None] | None = None) -> Answer:
    """Apply every step; on the first violation stop and say where, which rule and why."""
    referee = referee_for(record.game)
    answer = Answer(record.game)

    def emit(at: str, events: Iterable[Event]) -> None:
        for event in events:
            answer.events.append((at, event))
            if on_event:
                on_event(at, event)

    steps = referee.steps(record, game)  # record errors surface before anything is applied
    try:
        state, events = referee.setup(record, game)
    except StepViolation as stop:  # e.g. at "deal", or "start.players.Ana"
        return _stopped(answer, stop.at, stop.line, stop.violation)
    except Violation as violation:
        return _stopped(answer, "start", record.line(("start",)), violation)
    answer.state = state
    emit("start", events)
    for step in steps:
        try:
            state, events = referee.apply(state, step)
        except StepViolation as stop:
            emit(stop.at, stop.events)
            if stop.state is not None:
                answer.state = stop.state
            return _stopped(answer, stop.at, stop.line, stop.violation)
        except Violation as violation:
            return _stopped(answer, step.at, step.line, violation)
        answer.state = state
        answer.checked += 1
        emit(step.at, events)
    return answer


def _stopped(answer: Answer, at: str, line: int, violation: Violation) -> Answer:
    answer.ok = False
    answer.violation = Verdict(at, line, violation.rule, violation.message)
    return answer
