"""Random legal For-Ex games, to the end, under every house rule: the invariants hold after
every step, and a game written out as a record replays through the referee to the same place."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.cli import load_spec
from pnp.referee import forex as referee
from pnp.referee import record as records
from pnp.referee.replay import replay
from pnp.rules import forex
from pnp.rules.base import Violation
from pnp.rules.forex.playout import random_game, random_turn

NAMES = ("Ana", "Ben", "Cris", "Dan", "Eve", "Fay")

OPTIONS = st.fixed_dictionaries({}, optional={
    "removed_certificates": st.sampled_from([0, 6, 30]),
    "cert_cap": st.integers(1, 4),
    "certificate_price": st.integers(0, 3),
    "loan_interest": st.integers(0, 2),
    "contract_max": st.integers(1, 10),
    "no_dividend_side": st.sampled_from(["weaker", "both"]),
    "spot_unit": st.sampled_from(["stronger_one", "any_one"]),
    "voluntary_default": st.booleans(),
    "conversion_rounding": st.sampled_from(["per_holding", "bga", "total"]),
    "bankrupt_player": st.sampled_from(["last", "scored_normally"]),
})


@pytest.fixture(scope="module")
def game():
    return load_spec(None).games["forex"]


def check_invariants(state: forex.State, p: forex.Params) -> None:
    assert len(state.pairs) == len({pair.key for pair in state.pairs}) == 21
    for pair in state.pairs:  # one stronger side, a position on the track
        assert pair.stronger in (pair.a, pair.b) and pair.weaker in (pair.a, pair.b) and pair.a != pair.b
        assert 1 <= pair.position <= p.boxes
    assert sum(forex.strengths(state.pairs, p).values()) == 21
    for index, currency in enumerate(p.currencies):  # certificates conserved
        held = sum(h.certificates[index] for h in state.holdings)
        assert state.supply[index] + held + state.removed[index] == p.certificates[index], currency
        assert state.supply[index] >= 0 and state.removed[index] >= 0
    for holding in state.holdings:
        assert all(0 <= n <= p.cert_cap for n in holding.certificates)  # the cap
        assert all(m >= 0 for m in holding.money)  # no negative money
        assert all(isinstance(m, Fraction) for m in holding.money)  # exact
        if p.spot_unit == "stronger_one":
            assert all((2 * m).denominator == 1 for m in holding.money)  # halves only
    letters = [item.set for item in state.queue if not isinstance(item, forex.Dividend)]
    assert len(letters) == len(set(letters)) and set(letters) <= set(p.sets)
    owners = [item.owner for item in state.queue if isinstance(item, forex.Loan)]
    assert len(owners) == len(set(owners))  # one Loan per player (FOREX-10.2.2)
    if not state.over:
        assert sum(isinstance(item, forex.Dividend) for item in state.queue) == 1


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rng=st.randoms(use_true_random=False), count=st.integers(2, 6), options=OPTIONS)
def test_random_games_keep_the_invariants_to_the_end(game, rng, count, options):
    p = forex.params(game, options)
    state = forex.setup(p, NAMES[:count])
    check_invariants(state, p)
    turns = 0
    while not state.over:
        mover = forex.to_move(state)
        actions, after, events = random_turn(state, p, rng)
        assert mover in (None, actions[-1].player)
        assert events and all(event.rule.startswith("FOREX-") for event in events)
        for action in actions:  # step by step: the spot, then the action
            state, _ = forex.apply(state, action, p)
            check_invariants(state, p)
        assert state == after
        turns += 1
        assert turns < 2000
    result = state.result
    assert len(result.scores) == count and result.winners
    assert result.strongest in p.currencies and all(score >= 0 for score in result.scores)
    if state.bankrupt is None:
        assert not state.queue  # FOREX-11.1: the queue was emptied after the last dividend
    if p.bankrupt_player == "last" and state.bankrupt is not None:
        assert state.bankrupt not in result.winners
        assert result.scores[state.seat(state.bankrupt)] == 0
    best = max(score for name, score in zip(state.players, result.scores) if name in result.winners)
    assert all(result.scores[state.seat(w)] == best for w in result.winners)
    with pytest.raises(Violation, match="game is over"):
        forex.apply(state, forex.Resolve(state.players[0]), p)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), count=st.integers(2, 6), options=OPTIONS)
def test_a_random_game_written_as_a_record_replays_to_the_same_end(game, seed, count, options):
    p = forex.params(game, options)
    players = NAMES[:count]
    turns = random_game(p, players, random.Random(seed))
    state = forex.setup(p, players)
    for actions in turns:
        for action in actions:
            state, _ = forex.apply(state, action, p)
    text = referee.record_text(players, turns, options)
    outcome = replay(records.reads(text, {"forex": referee.KEYS}), game)
    assert outcome.ok and outcome.checked == len(turns)
    assert referee.state_json(outcome.state) == referee.state_json(referee.Play(p, state))
    assert referee.state_json(outcome.state)["over"] is True


def test_playouts_reach_both_ends_of_the_game(game):
    """The sampler is fair enough to test both ways a game ends (FOREX-11.1)."""
    p = forex.params(game)
    ends = set()
    for seed in range(40):
        rng, state = random.Random(seed), forex.setup(p, NAMES[:3])
        while not state.over:
            _, state, _ = random_turn(state, p, rng)
        ends.add("bankrupt" if state.bankrupt else "dividends")
    assert ends == {"bankrupt", "dividends"}
