"""Replaying a record through a rules engine, stopping at the first violation.

Each game's referee (a package its rules name, `About.referee`: `reading` the record into steps,
replaying them, `writing` records; else `generic`, which reads any engine's templates) drives
its engine; this module is the loop they share, and the one
writer of a position (`state_json`, from the engine's `position`), so the answer has one shape
for all games (REFEREE.md): ok, checked, violation, state, events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Mapping, Sequence

from pnp.referee.record import Record
from pnp.referee.steps import GameReferee, Step, StepViolation, seated
from pnp.rules import GAMES
from pnp.rules.base import Event, Violation, plain

__all__ = ["Answer", "GameReferee", "SpecFile", "Step", "StepViolation", "Verdict", "referee_for", "replay", "seated",
           "state_json"]


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
    """The record reader and writer of `game`: the package its rules name (`About.referee`),
    else the generic one (`pnp.referee.generic`), which reads any engine's templates."""
    own = GAMES[game].about.referee
    if own is None:
        from pnp.referee.generic import Generic

        return Generic(game)
    referee: GameReferee = import_module(own)
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
        state, applied = _set_up(referee, record, params)
    except StepViolation as stop:  # the player count (read before the rest), or the setup's broken rule
        return answer(None, 0, _verdict(stop.at, stop.line, stop.violation))
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


def _set_up(referee: GameReferee, record: Record, params: object) -> tuple[object, Sequence[Event]]:
    """The record's starting position and its events; a setup that breaks a rule raises a
    StepViolation where the referee places it (e.g. at "deal", or "players"), else at "start"."""
    try:
        return referee.setup(record, params)
    except Violation as violation:
        raise StepViolation(violation, "start", record.line(("start",))) from None


def _verdict(at: str, line: int, violation: Violation) -> Verdict:
    return Verdict(at, line, violation)
