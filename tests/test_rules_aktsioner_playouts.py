"""Hypothesis playouts: random legal games of Акционер, checking after every action that
prices stay on the board's grid, cash and shares never go negative, and every change of cash
and shares is accounted for by an event with its amount; then that the referee, fed the same
game as a record, agrees with the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.cli import load_spec
from pnp.referee import record as records
from pnp.referee.aktsioner import record_text, state_json, Position
from pnp.referee.replay import replay
from pnp.rules import aktsioner as A
from pnp.rules.aktsioner.playout import random_deal, random_game, random_turn


@pytest.fixture(scope="module")
def game():
    return load_spec(None).games["aktsioner"]


tables = st.sampled_from([("3+5", 2, 6), ("4+6", 2, 4), ("1+2", 2, 6), ("0+3", 2, 6)])
options = st.fixed_dictionaries(
    {
        "rounding": st.sampled_from(["up", "down"]),
        "hundred_split": st.sampled_from(["permutation", "free"]),
        "equal_penalty_order": st.sampled_from(["higher_old_first", "lower_old_first"]),
        "eliminate_broke": st.booleans(),
    }
)


def check_step(p, before, after, events, mover):
    assert all(price in p.cells for price in after.prices)
    for seat, name in enumerate(after.players):
        old, new = before.accounts[seat], after.accounts[seat]
        assert new.cash >= 0 and all(n >= 0 for n in new.shares)
        mine = [e.data for e in events if e.data.get("player") == name]
        assert new.cash - old.cash == sum(d["amount"] for d in mine if "amount" in d)
        for i, colour in enumerate(p.colours):
            moved = sum(d.get("shares", 0) - d.get("lost", 0) for d in mine if d.get("colour") == colour)
            assert new.shares[i] - old.shares[i] == moved
        if seat == mover:
            assert not [e for e in events if e.rule in ("AKT-7.2", "AKT-7.4") and e.data["player"] == name]
    if after.hands is not None:
        assert sum(map(len, after.hands)) + len(after.plays) == sum(map(len, before.hands)) + len(before.plays)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables, count=st.integers(2, 6), chosen=options, dealt=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_play_keeps_the_invariants(game, table, count, chosen, dealt, seed):
    formula, low, high = table
    count = max(low, min(count, high))
    p = A.params(game, {"formula": formula, **chosen})
    rng = random.Random(seed)
    players = [f"P{k}" for k in range(count)]
    hands = random_deal(p, players, rng) if dealt else None
    state, _ = A.setup(p, players, hands=hands)
    turns = 0
    while not state.over:
        actions, _, _ = random_turn(p, state, rng)
        for action in actions:
            after, events = A.apply(state, action, p)
            check_step(p, state, after, events, after.turn.mover)
            state = after
        turns += 1
    if not state.out:
        assert turns == count * (p.big + p.small)
        assert all(A.cards_left(p, state, seat) == 0 for seat in range(count))
    scores = A.final_scores(p, state)
    assert A.winners(scores) == [name for name in players if scores[name] == max(scores.values())]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(count=st.integers(2, 6), chosen=options, dealt=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_the_referee_agrees_with_the_engine(game, count, chosen, dealt, seed):
    p = A.params(game, chosen)
    players = [f"P{k}" for k in range(count)]
    deal, turns, final = random_game(p, players, random.Random(seed), dealt=dealt)
    text = record_text(players, turns, options=chosen, deal=deal)
    outcome = replay(records.reads(text, {"aktsioner": ("deal", "turns")}), game)
    assert outcome.ok and outcome.checked == len(turns)
    assert state_json(outcome.state) == state_json(Position(p, final))
    assert state_json(outcome.state)["over"] is True
