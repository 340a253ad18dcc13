"""The referee's answers: a short verdict, a step-by-step explanation, or JSON (REFEREE.md)."""

from __future__ import annotations

import json
from typing import Any

from pnp.referee.replay import Outcome, referee_for
from pnp.rules.base import Event


def as_json(outcome: Outcome) -> str:
    referee = referee_for(outcome.game)
    answer: dict[str, Any] = {
        "game": outcome.game,
        "ok": outcome.ok,
        "checked": outcome.checked,
        "violation": None,
        "state": referee.state_json(outcome.state) if outcome.state is not None else None,
        "events": [event.as_json() for _, event in outcome.events],
    }
    if outcome.violation:
        v = outcome.violation
        answer["violation"] = {"at": v.at, "line": v.line, "rule": v.rule, "message": v.message}
    return json.dumps(answer, ensure_ascii=False, indent=2)


def event_line(event: Event) -> str:
    """`BOLSA-4.5.2  FER: 3 buyers want 5, 2 offered → auction`"""
    return f"{event.rule}  {event.text}"


def verdict(outcome: Outcome, record_name: str) -> str:
    if outcome.violation:
        v = outcome.violation
        return f"{record_name}:{v.line}: {v.at}: illegal — {v.rule}: {v.message} ({outcome.checked} actions legal before it)"
    state = referee_for(outcome.game).state_json(outcome.state) if outcome.state is not None else {}
    text = f"{record_name}: all {outcome.checked} actions legal"
    if state.get("over"):
        scores = ", ".join(f"{name} {_number(score)}" for name, score in state.get("scores", {}).items())
        winners = ", ".join(state.get("winners", []))
        text += f"; game over — scores: {scores}; winner: {winners}"
    return text


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
