"""Legality from one source, tested both ways, for every game.

`apply` accepts an action exactly when a template of its position admits it
(`Template.admits`, `legal.judge`); the engines' own checks only word a refusal. So:

- every action of every record under `tests/records/` is admitted by a template of its
  position exactly when the engine applies it (the record's violation, if it has one, is
  neither);
- around the templates' edges — a number one more or one less, 0, a field's lowest and highest
  and one past each, as many options as a field allows and one more, another player, another
  company, colour or currency, another option — `admits` and `apply` agree on every action, on
  random positions under a random combination of every house rule, no refusal is left
  unworded (`legal.Unlisted`: the listing withholds nothing it can say why), and every
  refusal of what no template admits is worded by the statement it breaks — a template's
  bound, option or constraint, or the listing's condition (`Violation.origin`), never an
  engine's second copy of a rule;
- every action the sampler draws is admitted (the draws of `tests/test_conformance.py` are
  also applied).
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import conform
from pnp.errors import RecordError
from pnp.referee import read_record
from pnp.referee.replay import StepViolation, referee_for
from pnp.rules import GAMES, load_spec
from pnp.rules.base import ChoiceNeeded, Malformed, Violation
from pnp.rules.contract import play
from pnp.rules.legal import Template, Unlisted, admitted, draw

SPEC = load_spec(None)
RECORDS = sorted((Path(__file__).parent / "records").rglob("*.yaml"))
NAMES = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")


def applied(engine: Any, state: Any, action: Any, params: Any) -> str:
    """What `apply` does with the action: "ok", "tie" (a tie the action must break), "refused"."""
    return judged(engine, state, action, params)[0]


def judged(engine: Any, state: Any, action: Any, params: Any) -> tuple[str, str | None]:
    """What `apply` does with the action, and which statement refused it (`Violation.origin`:
    "template", "listing" or "engine"; None for a malformed action, or none refused)."""
    try:
        engine.apply(state, action, params, events=False)
    except Unlisted:
        raise
    except ChoiceNeeded:
        return "tie", None
    except Violation as violation:
        return "refused", violation.origin
    except Malformed:
        return "refused", None
    return "ok", None


# --- every recorded action ----------------------------------------------------------------------


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_recorded_action_is_admitted_exactly_when_the_engine_applies_it(path):
    try:
        record = read_record(path)
        game = record.game
        engine, referee = GAMES[game].engine, referee_for(game)
        params = engine.params(SPEC.games[game], record.options)
        steps = referee.steps(record, params)
        state, _ = referee.setup(record, params)
    except (RecordError, StepViolation, Violation, ValueError):
        return  # a record refused before its first action (unreadable, or an impossible start)
    for step in steps:
        for action in referee.actions(step):
            listed = engine.legal_actions(state, params)
            verdict = applied(engine, state, action, params)
            assert admitted(listed, action) == (verdict == "ok") or verdict == "tie", (step.at, action)
            if verdict != "ok":
                return
            state, _ = engine.apply(state, action, params)


def test_the_records_hold_actions_of_every_kind_and_refusals():
    kinds: set[tuple[str, str]] = set()
    refused = 0
    for path in RECORDS:
        try:
            record = read_record(path)
            engine, referee = GAMES[record.game].engine, referee_for(record.game)
            params = engine.params(SPEC.games[record.game], record.options)
            steps, (state, _) = referee.steps(record, params), referee.setup(record, params)
        except (RecordError, StepViolation, Violation, ValueError):
            continue
        for action in (action for step in steps for action in referee.actions(step)):
            if applied(engine, state, action, params) != "ok":
                refused += 1
                break
            kinds.add((record.game, type(action).__name__))
            state, _ = engine.apply(state, action, params)
    assert refused >= 5 and {game for game, _ in kinds} == set(GAMES) and len(kinds) >= 11


# --- around the templates' edges -----------------------------------------------------------------


def assets(params: Any) -> tuple[str, ...]:
    """The game's companies, colours or currencies: what a key or an option may name."""
    for name in ("companies", "colours", "currencies"):
        if hasattr(params, name):
            return tuple(getattr(params, name))
    return ()


def nearby(option: Any, names: tuple[str, ...]) -> Iterator[Any]:
    """Options of the same shape as `option`: each name in it swapped for another, each amount
    in it half a unit more or less (a spot deal with another player, in other currencies, at
    another rate)."""
    if isinstance(option, str):
        yield from (name for name in names if name != option)
    elif isinstance(option, tuple):
        for k, part in enumerate(option):
            for other in nearby(part, names):
                yield (*option[:k], other, *option[k + 1:])
    elif isinstance(option, (int, Fraction)) and not isinstance(option, bool):
        yield from (option + Fraction(1, 2), option - Fraction(1, 2))


def variants(template: Template, values: dict[str, Any], names: tuple[str, ...],
             kinds: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
    """Actions near one of the template's draws: each number one more and one less, another
    player (or a fixed player), each keyed count moved to another asset, each fixed or chosen
    asset swapped, an option of the same shape outside the field and an option left out."""
    player = template.fixed.get("player", template.player)

    def build(label: str, changes: dict[str, Any], drop: tuple[str, ...] = (), who: Any = player) -> Iterator[tuple[str, Any]]:
        chosen = {**template.fixed, **values, **changes, "player": who}
        for name in drop:
            chosen.pop(name, None)
        try:
            yield label, template.build(chosen)
        except (KeyError, TypeError, ValueError, AttributeError):
            return  # no action of this shape can be built

    for f in template.fields:
        if f.kind == "number":  # one more, one less, and the field's edges: 0, lowest, highest, one past each
            edges = {"+1": values[f.name] + 1, "-1": values[f.name] - 1, "=0": 0, "=low": f.low,
                     "=low-1": f.low - 1, "=high": f.high, "=high+1": f.high + 1}
            for label, value in edges.items():
                yield from build(f"{f.name}{label}", {f.name: value})
        elif f.kind == "choice":
            for k, option in enumerate(nearby(values[f.name], (*kinds, *names))):
                if k < 12:
                    yield from build(f"{f.name}={option}", {f.name: option})
            yield from build(f"{f.name} left out", {}, drop=(f.name,))
        else:
            for asset in kinds:
                yield from build(f"{f.name}+{asset}", {f.name: (*values[f.name], asset)})
                yield from build(f"{f.name}={asset}", {f.name: (asset,)})
            yield from build(f"{f.name} empty", {f.name: ()})
            options = tuple(f.options)  # as many as the field allows, and one more (or a repeat)
            yield from build(f"{f.name} at high", {f.name: options[:f.high]})
            yield from build(f"{f.name} at high+1", {f.name: (options + options[:1])[:f.high + 1]})
        if "." in f.name:  # a count keyed by its company, colour or currency
            side, _, key = f.name.partition(".")
            for other in (*kinds, *names):
                if other != key and f.kind == "number":
                    yield from build(f"{f.name}→{side}.{other}", {f"{side}.{other}": values[f.name] or 1, f.name: 0})
    for other in names:
        if other != player:
            yield from build(f"player={other}", {}, who=other)
    for key, value in template.fixed.items():
        if key != "player" and value in kinds:
            for asset in kinds:
                if asset != value:
                    yield from build(f"{key}={asset}", {key: asset})


AROUND = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("games", [8, pytest.param(25, marks=pytest.mark.slow)])
def test_admits_and_apply_agree_around_every_templates_edges(game, games):
    """Eight random games of each game in the fast lane; twenty-five: slow."""
    settings(max_examples=games, **AROUND)(given(data=st.data())(lambda data: agree_around_edges(game, data)))()


def agree_around_edges(game: str, data: Any) -> None:
    engine, spec_game = GAMES[game].engine, SPEC.games[game]
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    players = NAMES[:data.draw(st.integers(max(2, spec_game.players.min), spec_game.players.max), label="players")]
    options = conform.house_rules(game, rng)  # every house rule at once, drawn from the seed
    p = engine.params(spec_game, options)
    try:
        state, _ = engine.setup(p, players, engine.deal(p, players, rng))
    except Violation:  # these house rules seat fewer (AKT-2.4)
        return
    positions = [state] + [after for _, after, _ in play(engine, state, p, rng)]
    kinds = assets(p)
    checked = 0
    for state in positions[::max(1, len(positions) // 6)][:6]:
        listed = engine.legal_actions(state, p)
        for template in listed:
            values = draw(template, rng)
            assert template.admits(template.action(values))  # every draw is admitted …
            assert applied(engine, state, template.action(values), p) in ("ok", "tie")  # … and applied
            for label, action in variants(template, values, players, kinds):
                verdict, origin = judged(engine, state, action, p)
                if verdict != "tie":
                    admits = admitted(listed, action)
                    assert admits == (verdict == "ok"), (template.kind, label, action, options)
                    # a refusal is worded by the statement the action breaks: a template's or the
                    # listing's for what no template admits, the engine's only beyond the templates
                    assert origin in ((None, "engine") if admits else (None, "template", "listing")), (label, action)
                checked += 1
    assert checked or not positions
