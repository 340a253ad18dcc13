"""Every registered game keeps the engine contract (pnp.rules.contract.Engine).

Random legal games, 2 (or the game's minimum) to the maximum number of players, under random
house rules, drawn only from `legal_actions` with the one shared sampler: after every step the
game's own invariants hold (money conserved, cards counted, bounds kept), every event's rule is
in the rules file and its sentence and data read, applying without events gives the same
position (and makes none), and `to_move`, `legal_actions` and `outcome` agree; every finished
game is written as a record, replayed by the referee, and ends in the same position as the
engine's. Adding a
game to `GAMES` adds it here, with no edit of this file; its invariants and the numbers its
random games vary live in `tests/conform/<game>.py`.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import conform
from pnp.referee import check, reads_record
from pnp.referee import record as records
from pnp.referee.replay import referee_for, state_json
from pnp.rules import GAMES, end_reasons, load_spec, text
from pnp.rules.base import Violation
from pnp.rules.contract import play

SPEC = load_spec(None)
NAMES = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")


def house_rules(game: str) -> Any:
    """Every house rule that is a choice among a few values (or true/false), at random, and the
    numbers the game's conformance module varies (`conform.numbers`): a new option is played
    as soon as it exists, and a new game as soon as it is registered."""
    found: dict[str, Any] = {}
    for option in GAMES[game].rulebook.options:
        if option.choices is not None:
            found[option.name] = st.sampled_from(option.choices)
        elif isinstance(option.default, bool):
            found[option.name] = st.booleans()
    numbers, required = conform.numbers(game)
    found.update({name: st.sampled_from(values) for name, values in numbers.items() if name not in required})
    return st.fixed_dictionaries({name: st.sampled_from(numbers[name]) for name in required}, optional=found)


def random_start(game: str, p: Any, players: tuple[str, ...], rng: random.Random, dealt: bool) -> Any:
    """Half the games start from the engine's deal (Акционер's hands known, For-Ex's
    certificates removed at random), the others from the standard setup."""
    return GAMES[game].engine.deal(p, players, rng) if dealt else None


CONTRACT = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("games", [12, pytest.param(40, marks=pytest.mark.slow)])
def test_random_legal_games_keep_the_contract_and_replay_identically(game, games):
    """Twelve random games of each game in the fast lane; forty: slow."""
    settings(max_examples=games, **CONTRACT)(given(data=st.data())(lambda data: keep_the_contract(game, data)))()


def keep_the_contract(game: str, data: Any) -> None:
    engine, referee, invariants = GAMES[game].engine, referee_for(game), conform.invariants(game)
    spec_game = SPEC.games[game]
    options = data.draw(house_rules(game), label="options")
    count = data.draw(st.integers(max(2, spec_game.players.min), spec_game.players.max), label="players")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    p = engine.params(spec_game, options)
    players = NAMES[:count]
    start = random_start(game, p, players, rng, data.draw(st.booleans(), label="dealt"))
    try:
        state, _ = engine.setup(p, players, start)
    except Violation:  # a house rule that seats fewer players (AKT-2.4)
        assume(False)
    known = text.ids(game)
    first, actions = state, []
    for action, after, events in play(engine, state, p, rng):
        invariants(p, state, after, events)
        assert {event.rule for event in events} <= known  # every rule cited is in the game's rules file
        json.dumps([event.as_json() for event in events])  # every kind words its data; the data is JSON
        check_who_moves(engine, after, p)
        assert engine.apply(state, action, p, events=False) == (after, ())  # the same position, no events made
        actions.append(action)
        state = after

    result = engine.outcome(state, p)
    assert result is not None and list(result.scores) == list(players)
    assert result.reason in GAMES[game].about.end_reasons  # a way the registry lists
    assert result.winners and set(result.winners) <= set(players)
    assert result.reason in end_reasons(game)  # one of the ways the registry says the game can end
    if result.reason != "bankruptcy":  # a bankrupt player may be scored last whatever he holds
        best = max(result.scores.values())
        assert all(result.scores[name] == best for name in result.winners)

    written = referee.record(p, players, actions, options, start=first if start is not None else None)
    read = reads_record(records.dump(written))
    answer = check(read, SPEC)
    assert answer.ok, answer.violation
    assert [a for step in referee.steps(read, answer.params) for a in referee.actions(step)] == actions  # record → actions
    final = state_json(game, state, p)
    assert state_json(game, answer.state, answer.params) == final and final["over"] is True


def check_who_moves(engine: Any, state: Any, p: Any) -> None:
    """`to_move` names exactly the players with a legal action; none once the game is over."""
    templates, who = engine.legal_actions(state, p), engine.to_move(state, p)
    assert (who is None) == (not templates) == (engine.outcome(state, p) is not None)
    if who is not None:
        acting = list(dict.fromkeys(t.player for t in templates if t.player is not None))
        assert sorted(acting) == sorted(who.players) and len(set(who.players)) == len(who.players)


def test_random_forex_games_reach_both_ends():
    """The sampler reaches both ways For-Ex ends (FOREX-11.1), so the final resolution after
    the last dividend is played too, not only bankruptcies."""
    engine, game = GAMES["forex"].engine, SPEC.games["forex"]
    p = engine.params(game, {"contract_max": 1})
    ends = set()
    for seed in range(40):
        state, _ = engine.setup(p, NAMES[:3])
        for _, after, _ in play(engine, state, p, random.Random(seed)):
            state = after
        ends.add(engine.outcome(state, p).reason)
    assert ends == {"bankruptcy", "last_dividend"} == set(end_reasons("forex"))
