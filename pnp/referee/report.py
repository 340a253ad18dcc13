"""The referee's answers as values: a short verdict, the step-by-step explanation, and the JSON
answer (REFEREE.md). Printing them is the command line's job."""

from __future__ import annotations

import json
from typing import Any

from pnp.i18n import _
from pnp.referee.replay import Answer, state_json
from pnp.rules import rulebook
from pnp.rules.base import Event, plain


def to_json(answer: Answer) -> dict[str, Any]:
    """The `--json` answer: ok, checked, violation (where, the rule, its sentence and its
    numbers: who, what, how much, the limit), state, and every event with its numbers; the spec
    and the house rules it was computed with."""
    state = state_json(answer.game, answer.state, answer.params) if answer.state is not None else None
    violation = answer.violation
    return {
        "game": answer.game,
        "ok": answer.ok,
        "checked": answer.checked,
        "violation": None if violation is None else {
            "at": violation.at, "line": violation.line, "rule": violation.rule, "message": violation.message,
            "data": plain(violation.data)},
        "state": state,
        "events": [event.as_json() for _, event in answer.events],
        "spec": None if answer.spec is None else {"path": answer.spec.path, "sha256": answer.spec.sha256},
        "options": options(answer),
    }


def options(answer: Answer) -> dict[str, Any]:
    """Every house rule in effect, by its name in the rules file: the rulebook's defaults, the
    spec's `rules` and the record's `options` as the engine's parameters hold them."""
    return {option.name: plain(getattr(answer.params, option.name)) for option in rulebook(answer.game).options}


def rules_line(answer: Answer) -> str:
    """`explain`'s first line: the spec (file and hash) and the house rules in effect."""
    spec = _("none (parameters given)") if answer.spec is None else _("{path} (sha256 {digest})").format(
        path=answer.spec.path, digest=answer.spec.sha256[:12])
    values = ", ".join(f"{name} {_short(value)}" for name, value in options(answer).items())
    return _("rules: spec {spec}; options: {options}").format(spec=spec, options=values)


def _short(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list) and len(value) > 6:
        return _("({n} entries, as --json lists them)").format(n=len(value))
    return json.dumps(value, ensure_ascii=False) if isinstance(value, list) else str(value)


def explain(answer: Answer) -> list[str]:
    """The rules applied (spec and house rules), then every step with the rule behind it: a
    `── at` line for each place in the record, then its events as
    `BOLSA-4.5.2  FER: 3 buyers want 5, 2 offered → auction`, worded in the language being
    spoken (`pnp.i18n.speaking`), the rule IDs as they are."""
    lines, last = [rules_line(answer)], None
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
        return _("{record}:{line}: {at}: illegal — {rule}: {message} ({checked} actions legal before it)").format(
            record=record_name, line=v.line, at=v.at, rule=v.rule, message=v.message, checked=answer.checked)
    text = _("{record}: all {checked} actions legal").format(record=record_name, checked=answer.checked)
    result = state_json(answer.game, answer.state, answer.params) if answer.state is not None else {}
    if result.get("over"):
        scores = ", ".join(f"{name} {_number(score)}" for name, score in result.get("scores", {}).items())
        winners = ", ".join(result.get("winners", []))
        text += _("; game over — scores: {scores}; winner: {winners}").format(scores=scores, winners=winners)
    return text


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
