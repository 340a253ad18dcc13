"""The For-Ex referee: a game record (REFEREE.md, forex) replayed through `pnp.rules.forex`.

A record lists `turns`; each names its `player` and exactly one action — `contract`, `invest`,
`divest` or `resolve` — optionally preceded by a `spot` (`reading` says how each is read,
`writing` writes records). The
last turn may stop after its spot, before the action: the position is the table's then.
A turn is one step of the replay (`checked` counts turns); a violation's `at` names the part
that broke it: `turns[3].player` (out of turn), `turns[3].spot`, `turns[3].invest[1]`,
`turns[3].divest.others.Ben`, or `turns[3]` for a turn after the end.

The end of the game. After the last dividend there are no more turns (FOREX-10.5.5): the
`resolve` that pays the last dividend also resolves the rest of the queue, front to back
(Loans created meanwhile included), reporting each item as events, and then scores the game.
Every choice those resolutions need is written on that one turn: `strengthen: X` for a tie
after the dividend, `strongest: X` when the final strongest currency is tied (FOREX-12.1: the
player whose Resolve ended the game picks), and, with `voluntary_default`, `default: [B]` for
the contracts whose owners default although they could pay. The same holds for the turn whose
Loan bankrupts its owner. A tie the record leaves unbroken is a record error (exit 2) naming
the tied currencies; a pick outside the tie is a violation. A turn after the end is a
violation of FOREX-11.1.
"""

from __future__ import annotations

from typing import Sequence

from pnp.errors import RecordError
from pnp.referee import record as records
from pnp.referee.forex import reading
from pnp.referee.forex.reading import Path, Turn, steps
from pnp.referee.forex.writing import record, starter
from pnp.referee.replay import Step, StepViolation
from pnp.rules.base import ChoiceNeeded, Event, Violation
from pnp.rules.forex import engine

KEYS = ("turns",)

__all__ = ["KEYS", "actions", "apply", "record", "setup", "starter", "steps"]


def setup(record: records.Record, p: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    """The standard setup (FOREX-4) with the record's `start` laid over it."""
    return engine.setup(p, record.players, reading.start(record, p))


def apply(state: engine.State, step: Step, p: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    """The turn's spot (if any), then its action; a violation names the part that broke."""
    turn: Turn = step.action
    base = ("turns", turn.index)
    events: list[Event] = []
    for part, action in (("spot", turn.spot), (turn.kind, turn.action)):
        if action is None:
            continue
        try:
            state, more = engine.apply(state, action, p)
        except ChoiceNeeded as choice:
            message = (f"{choice.message} ({choice.rule}): write `{choice.what}: {choice.options[0]}` "
                       f"or another of {', '.join(choice.options)}")
            raise RecordError([turn.record.issue(base + (part,), message)]) from None
        except Violation as violation:
            path = _violation_path(base, part, violation)
            line = turn.record.line(path)
            raise StepViolation(violation, records.where(path), line, state, events) from None
        events += more
    return state, events


def actions(step: Step) -> tuple[engine.Action, ...]:
    """The engine actions of one turn: its spot, if any, then its action."""
    turn: Turn = step.action
    return tuple(action for action in (turn.spot, turn.action) if action is not None)


def _violation_path(base: Path, part: str, violation: Violation) -> Path:
    """Where in the turn the violation lies, as its refusal's scope says: the turn's player
    (not his turn), the whole turn (one after the end), or the part of its action."""
    if violation.scope == "player":
        return base + ("player",)
    if violation.scope == "step":
        return base
    return base + (part,) + violation.part
