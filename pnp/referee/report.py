"""The referee's answers: a short verdict, a step-by-step explanation, or JSON (REFEREE.md)."""

from __future__ import annotations

import json
from typing import Any

from pnp.referee.replay import Answer, referee_for
from pnp.rules.base import Event


def as_json(answer: Answer) -> str:
    referee = referee_for(answer.game)
    data: dict[str, Any] = {
        "game": answer.game,
        "ok": answer.ok,
        "checked": answer.checked,
        "violation": None,
        "state": referee.state_json(answer.state) if answer.state is not None else None,
        "events": [event.as_json() for _, event in answer.events],
    }
    if answer.violation:
        v = answer.violation
        data["violation"] = {"at": v.at, "line": v.line, "rule": v.rule, "message": v.message}
    return json.dumps(data, ensure_ascii=False, indent=2)


def event_line(event: Event) -> str:
    """`BOLSA-4.5.2  FER: 3 buyers want 5, 2 offered → auction`"""
    return f"{event.rule}  {event.text}"


def verdict(answer: Answer, record_name: str) -> str:
    if answer.violation:
        v = answer.violation
        return f"{record_name}:{v.line}: {v.at}: illegal — {v.rule}: {v.message} ({answer.checked} actions legal before it)"
    state = referee_for(answer.game).state_json(answer.state) if answer.state is not None else {}
    text = f"{record_name}: all {answer.checked} actions legal"
    if state.get("over"):
        scores = ", ".join(f"{name} {_number(score)}" for name, score in state.get("scores", {}).items())
        winners = ", ".join(state.get("winners", []))
        text += f"; game over — scores: {scores}; winner: {winners}"
    return text


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
