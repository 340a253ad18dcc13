"""The Акционер referee: reads `start`, `deal` and `turns` of a record (REFEREE.md) and drives
the engine (`pnp.rules.aktsioner`).

`reading` turns the record into steps, one a turn, this module replays them, `writing` writes
records. A turn's stages are applied in order, a violation located at its stage
(`turns[3].then`); a trade of nothing (`{}`) ends the stage's trading. The record's last turn
may stop before its card (`player` alone, or with its `trade`): the position is the table's at
that moment.
"""

from __future__ import annotations

from typing import Sequence

from pnp.referee.aktsioner.reading import Stage, line, start, steps
from pnp.referee.aktsioner.writing import record, starter
from pnp.referee.record import Record
from pnp.referee.replay import Step, StepViolation
from pnp.rules.aktsioner import engine as rules
from pnp.rules.base import Event, Violation

KEYS = ("deal", "turns")

__all__ = ["KEYS", "actions", "apply", "record", "setup", "starter", "steps"]


def setup(record: Record, params: rules.Params) -> tuple[rules.State, Sequence[Event]]:
    """The standard setup (AKT-2) with the record's `start` and `deal` laid over it; a setup
    rule broken is located at the key of the part that breaks it (`deal:` or `start:`)."""
    overlay = start(record, params)
    try:
        return rules.setup(params, record.players, overlay)
    except Violation as violation:
        at = "deal" if violation.scope == "deal" else "start"
        raise StepViolation(violation, at, line(record, (at,))) from None


def apply(state: rules.State, step: Step, params: rules.Params) -> tuple[rules.State, Sequence[Event]]:
    """Apply the stages of one turn; a violation is located at its stage (`turns[3].then`)."""
    events: list[Event] = []
    stages: tuple[Stage, ...] = step.action
    for key, at_line, action in stages:
        try:
            state, applied = rules.apply(state, action, params)
        except Violation as violation:
            raise StepViolation(violation, f"{step.at}.{key}", at_line, state, events) from None
        events += applied
    return state, events


def actions(step: Step) -> tuple[rules.Action, ...]:
    """The engine actions of one turn: its stages, in order."""
    return tuple(action for _, _, action in step.action)


