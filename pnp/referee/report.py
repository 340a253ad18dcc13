"""The referee's answers as values: a short verdict, the step-by-step explanation, and the JSON
answer (REFEREE.md). Printing them is the command line's job."""

from __future__ import annotations

from typing import Any

from pnp.referee.replay import Answer, referee_for
from pnp.rules.base import Event


def to_json(answer: Answer) -> dict[str, Any]:
    """The `--json` answer: ok, checked, violation, state, and every event with its numbers."""
    state = referee_for(answer.game).state_json(answer.state, answer.params) if answer.state is not None else None
    violation = answer.violation
    return {
        "game": answer.game,
        "ok": answer.ok,
        "checked": answer.checked,
        "violation": None if violation is None else {
            "at": violation.at, "line": violation.line, "rule": violation.rule, "message": violation.message},
        "state": state,
        "events": [event.as_json() for _, event in answer.events],
    }


def explain(answer: Answer) -> list[str]:
    """Every step with the rule behind it: a `── at` line for each place in the record, then
    its events as `BOLSA-4.5.2  FER: 3 buyers want 5, 2 offered → auction`."""
    lines, last = [], None
    for at, event in answer.events:
        if at != last:
            lines.append(f"── {at}")
            last = at
        lines.append(event_line(event))
    return lines


def event_line(event: Event) -> str:
    return f"{event.rule}  {event.text}"


def verdict(answer: Answer, record_name: str) -> str:
    """One line: all legal (with the final scores when the record ends the game), or where and
    why the first illegal action is."""
    if answer.violation:
        v = answer.violation
        return f"{record_name}:{v.line}: {v.at}: illegal — {v.rule}: {v.message} ({answer.checked} actions legal before it)"
    text = f"{record_name}: all {answer.checked} actions legal"
    result = referee_for(answer.game).state_json(answer.state, answer.params) if answer.state is not None else {}
    if result.get("over"):
        scores = ", ".join(f"{name} {_number(score)}" for name, score in result.get("scores", {}).items())
        winners = ", ".join(result.get("winners", []))
        text += f"; game over — scores: {scores}; winner: {winners}"
    return text


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
