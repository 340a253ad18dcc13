"""Random legal games (hypothesis chooses every declaration, bid and withdrawal, under random
house rules): the invariants of BOLSA-2.6 hold after every step, and the game's record, written
out and replayed by the referee, ends in the same position."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.cli import load_spec
from pnp.referee import bolsa as referee
from pnp.referee.record import reads
from pnp.referee.replay import replay
from pnp.rules import bolsa
from pnp.rules.bolsa.playout import play

GAME = load_spec(None).games["bolsa"]
NAMES = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")
RULE_ID = re.compile(r"^BOLSA-\d+(\.\d+)*$")

OPTIONS = st.fixed_dictionaries(
    {"rounds": st.integers(1, 5)},
    optional={
        option.name: st.sampled_from(option.choices)
        for option in bolsa.RULEBOOK.options
        if option.choices is not None
    },
)


def check_invariants(state: bolsa.State, p: bolsa.Params, money: int) -> None:
    n = len(state.players)
    assert sum(player.cash for player in state.players) == money  # conserved until final scoring
    assert all(player.cash >= 0 for player in state.players)
    for c, code in enumerate(p.companies):
        assert all(player.zones[c].cards == bolsa.CARDS_EACH for player in state.players), code
        assert sum(player.zones[c].owned + player.zones[c].offered for player in state.players) == n, code
        assert p.price_min <= state.prices[c] and (p.price_max is None or state.prices[c] <= p.price_max)
        for i, player in enumerate(state.players):  # zones 3 and 4 hold cards only while declared and unsettled
            zones = player.zones[c]
            if state.phase == bolsa.DECLARE:
                pending = i in state.declared
            elif state.phase == bolsa.TRADE:
                pending = c >= (state.trade.company if state.trade else state.next_company)
            else:
                pending = False
            assert pending or not (zones.offered or zones.requested), (player.name, code, state.phase)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_legal_games_keep_the_invariants_and_replay_identically(data):
    options = data.draw(OPTIONS, label="options")
    names = NAMES[: data.draw(st.integers(3, 6), label="players")]
    p = bolsa.params(GAME, options)
    state, _ = bolsa.setup(p, names)
    money = sum(player.cash for player in state.players)
    actions = []
    for action, state, events in play(state, p, lambda low, high: data.draw(st.integers(low, high))):
        actions.append(action)
        check_invariants(state, p, money)
        assert all(RULE_ID.match(event.rule) for event in events)
        assert events or isinstance(action, bolsa.Resolve)
    assert state.over and state.round == p.rounds
    scores = bolsa.final_scores(state, p)
    assert sum(scores.values()) == money + len(names) * sum(state.prices)  # the bank buys every owned share
    assert set(bolsa.winners(state, p)) <= {name for name, score in scores.items() if score == max(scores.values())}

    record = reads(referee.record_text(p, names, actions, options), {"bolsa": referee.KEYS})
    outcome = replay(record, GAME)
    assert outcome.ok and outcome.checked > 0
    assert referee.state_json(outcome.state) == referee.state_json(referee.Position(p, state))
