"""Replaying a record through a rules engine, stopping at the first violation.

Each game's referee package (`GAMES[game].referee`: `reading` the record into steps, replaying
them, `writing` records) drives its engine; this module is the loop they share, and the one
writer of a position (`state_json`, from the engine's `position`), so the answer has one shape
for all games (REFEREE.md): ok, checked, violation, state, events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Protocol, Sequence

from pnp.referee.record import Record
from pnp.rules import GAMES
from pnp.rules.base import Event, Violation, plain

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


@dataclass(frozen=True)
class Verdict:
    """Where a record's first illegal action is, and the violation: its rule, its data and its
    sentence, worded when read (in the language being spoken then, as events are)."""

    at: str
    line: int
    violation: Violation = field(repr=False, compare=False)

    @property
    def rule(self) -> str:
        return self.violation.rule

    @property
    def data(self) -> Mapping[str, Any]:
        return self.violation.data

    @property
    def message(self) -> str:
        return self.violation.message


@dataclass(frozen=True)
class SpecFile:
    """The spec an answer was computed with: its file as messages name it, and the SHA-256 of
    its bytes, so that two answers can be told apart when a components.yaml differs."""

    path: str
    sha256: str


@dataclass(frozen=True)
class Answer:
    """What the referee says about a record: every action legal, or the first that is not."""

    game: str
    ok: bool
    checked: int  # actions applied before the stop (all of them when ok)
    violation: Verdict | None
    params: Any  # the engine's, for the record's options
    state: Any  # the position after the last legal action; None if the setup itself broke a rule
    events: tuple[tuple[str, Event], ...]  # (step `at`, event), in order
    spec: SpecFile | None = None  # set by `check`; None when replayed from parameters at hand


def referee_for(game: str) -> GameReferee:
    """The referee package the registry names for `game`."""
    referee: GameReferee = import_module(GAMES[game].referee)
    return referee


def state_json(game: str, state: Any, params: Any) -> dict[str, Any]:
    """The position as REFEREE.md writes it, for every game: the engine's `position`, and
    `over`, `scores` and `winners` once the game has ended (`outcome`)."""
    engine = GAMES[game].engine
    answer = engine.position(state, params)
    result = engine.outcome(state, params)
    if result is not None:
        answer.update(over=True, scores={name: plain(score) for name, score in result.scores.items()},
                      winners=list(result.winners))
    return answer


def replay(record: Record, params: Any) -> Answer:
    """Apply every step of `record` with the engine's `params`; on the first violation stop and
    say where, which rule and why."""
    referee = referee_for(record.game)
    events: list[tuple[str, Event]] = []

    def answer(state: Any, checked: int, stop: Verdict | None = None) -> Answer:
        return Answer(record.game, stop is None, checked, stop, params, state, tuple(events))

    try:
        steps = referee.steps(record, params)  # record errors surface before anything is applied
    except StepViolation as stop:  # the player count, checked before the rest is read
        return answer(None, 0, _verdict(stop.at, stop.line, stop.violation))
    try:
        state, applied = referee.setup(record, params)
    except StepViolation as stop:  # e.g. at "deal", or "players"
        return answer(None, 0, _verdict(stop.at, stop.line, stop.violation))
    except Violation as violation:
        return answer(None, 0, _verdict("start", record.line(("start",)), violation))
    events += (("start", event) for event in applied)
    for checked, step in enumerate(steps):
        try:
            after, applied = referee.apply(state, step, params)
        except StepViolation as stop:
            events.extend((stop.at, event) for event in stop.events)
            where = state if stop.state is None else stop.state
            return answer(where, checked, _verdict(stop.at, stop.line, stop.violation))
        except Violation as violation:
            return answer(state, checked, _verdict(step.at, step.line, violation))
        state = after
        events.extend((step.at, event) for event in applied)
    return answer(state, len(steps))


def seated(record: Record, check: Callable[[Any, int], None], params: Any) -> None:
    """The record's player count against the game's limits (`check(params, count)`, the
    engine's, raises Violation) before anything else of it is read, so that a record seating
    thousands is answered at once: StepViolation at "players"."""
    try:
        check(params, len(record.players))
    except Violation as violation:
        raise StepViolation(violation, "players", record.line(("players",))) from None


def _verdict(at: str, line: int, violation: Violation) -> Verdict:
    return Verdict(at, line, violation)
