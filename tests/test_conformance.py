"""Every registered game keeps the engine contract (pnp.rules.base.Engine).

Random legal games, 2 (or the game's minimum) to the maximum number of players, under random
house rules, drawn only from `legal_actions` with the one shared sampler: after every step the
game's own invariants hold (money conserved, cards counted, bounds kept), every event's rule is
in the rules file and its sentence and data read, applying without events gives the same
position (and makes none), and `to_move`, `legal_actions` and `outcome` agree; every finished game is written as
a record, replayed by the referee, and ends in the same position as the engine's. Adding a
game to `GAMES` adds it here; it then needs an entry in each table below (its invariants and
its house rules).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pnp.rules import load_spec
from pnp.referee import record as records
from pnp.referee import check, reads_record
from pnp.referee.replay import referee_for
from pnp.rules import GAMES, text
from pnp.rules import aktsioner as akt
from pnp.rules import bolsa, forex
from pnp.rules.base import Violation
from pnp.rules.legal import play

SPEC = load_spec(None)
NAMES = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")


def choice_options(game: str) -> dict[str, Any]:
    """Every house rule that is a choice among a few values (or true/false), at random."""
    found: dict[str, Any] = {}
    for option in GAMES[game].rulebook.options:
        if option.choices is not None:
            found[option.name] = st.sampled_from(option.choices)
        elif isinstance(option.default, bool):
            found[option.name] = st.booleans()
    return found


# The numeric house rules, in ranges that keep a random game short; the choices come from the
# rulebook itself, so a new option is played as soon as it exists.
OPTIONS: dict[str, Any] = {
    "bolsa": st.fixed_dictionaries({"rounds": st.integers(1, 4)}, optional={
        **choice_options("bolsa"), "start_cash": st.integers(0, 80)}),
    "aktsioner": st.fixed_dictionaries({}, optional={
        **choice_options("aktsioner"), "formula": st.sampled_from(["3+5", "4+6", "1+2", "0+3"]),
        "start_cash": st.sampled_from([0, 100]), "min_undealt": st.integers(0, 2)}),
    "forex": st.fixed_dictionaries({}, optional={
        **choice_options("forex"), "removed_certificates": st.sampled_from([0, 6, 30]),
        "cert_cap": st.integers(1, 4), "certificate_price": st.integers(0, 3), "loan_interest": st.integers(0, 2),
        "contract_max": st.integers(1, 10)}),
}


# --- each game's invariants: (params, state before, state after, events) -----------------------


def bolsa_invariants(p: bolsa.Params, before: bolsa.State, state: bolsa.State, events: Any) -> None:
    n = len(state.players)
    assert sum(x.cash for x in state.players) == sum(x.cash for x in before.players)  # payments only move money
    assert all(x.cash >= 0 for x in state.players)
    for c, code in enumerate(p.companies):
        assert all(x.zones[c].cards == bolsa.CARDS_EACH for x in state.players), code  # BOLSA-2.6
        assert sum(x.zones[c].owned + x.zones[c].offered for x in state.players) == n, code
        assert p.price_min <= state.prices[c] and (p.price_max is None or state.prices[c] <= p.price_max)
        for i, player in enumerate(state.players):  # zones 3 and 4 hold cards only while declared and unsettled
            if state.phase == bolsa.DECLARE:
                pending = i in state.declared
            elif state.phase == bolsa.TRADE:
                pending = c >= (state.trade.company if state.trade else state.next_company)
            else:
                pending = False
            assert pending or not (player.zones[c].offered or player.zones[c].requested), (player.name, code)
    if state.over:  # BOLSA-7.1: the bank buys every owned share at its final quote
        scores = bolsa.outcome(state, p).scores
        assert sum(scores.values()) == sum(x.cash for x in state.players) + n * sum(state.prices)


def aktsioner_invariants(p: akt.Params, before: akt.State, state: akt.State, events: Any) -> None:
    """Prices on the board's grid; nothing negative; every change of cash and shares is an
    event's amount; no card lost or made."""
    assert all(price in p.cells for price in state.prices)
    for seat, name in enumerate(state.players):
        old, new = before.accounts[seat], state.accounts[seat]
        assert new.cash >= 0 and all(n >= 0 for n in new.shares)
        mine = [e.data for e in events if e.data.get("player") == name]
        assert new.cash - old.cash == sum(d["amount"] for d in mine if "amount" in d)
        for i, colour in enumerate(p.colours):
            moved = sum(d.get("shares", 0) - d.get("lost", 0) for d in mine if d.get("colour") == colour)
            assert new.shares[i] - old.shares[i] == moved
    if state.hands is not None:
        assert sum(map(len, state.hands)) + len(state.plays) == sum(map(len, before.hands)) + len(before.plays)
    if state.over and not state.out:  # AKT-9.1: every card of every hand was played
        assert len(state.plays) == len(state.players) * (p.big + p.small)


def forex_invariants(p: forex.Params, before: forex.State, state: forex.State, events: Any) -> None:
    pairs = len(p.currencies) * (len(p.currencies) - 1) // 2
    assert len({pair.key for pair in state.pairs}) == pairs and sum(forex.strengths(state.pairs, p).values()) == pairs
    assert all(1 <= pair.position <= p.boxes for pair in state.pairs)
    for index, currency in enumerate(p.currencies):  # certificates conserved, the cap kept
        held = sum(h.certificates[index] for h in state.holdings)
        assert state.supply[index] + held + state.removed[index] == p.certificates[index], currency
    for holding in state.holdings:
        assert all(0 <= n <= p.cert_cap for n in holding.certificates)
        assert all(isinstance(m, Fraction) and m >= 0 for m in holding.money)
        if p.spot_unit == "stronger_one":
            assert all((2 * m).denominator == 1 for m in holding.money)  # halves only
    letters = [item.set for item in state.queue if not isinstance(item, forex.Dividend)]
    assert len(letters) == len(set(letters)) and set(letters) <= set(p.sets)
    owners = [item.owner for item in state.queue if isinstance(item, forex.Loan)]
    assert len(owners) == len(set(owners))  # one Loan per player (FOREX-10.2.2)
    if state.over:
        assert state.bankrupt is not None or not state.queue  # FOREX-10.5.5: the queue was emptied
        result = forex.outcome(state, p)
        if state.bankrupt is not None and p.bankrupt_player == "last":  # FOREX-12.4
            assert state.bankrupt not in result.winners and result.scores[state.bankrupt] == 0
        with pytest.raises(Violation, match="game is over"):
            forex.apply(state, forex.Resolve(state.players[0]), p)


INVARIANTS: dict[str, Callable[[Any, Any, Any, Any], None]] = {
    "bolsa": bolsa_invariants, "aktsioner": aktsioner_invariants, "forex": forex_invariants,
}


def random_start(game: str, p: Any, players: tuple[str, ...], rng: random.Random, dealt: bool) -> Any:
    """Half the games start from the engine's deal (Акционер's hands known, For-Ex's
    certificates removed at random), the others from the standard setup."""
    return GAMES[game].engine.deal(p, players, rng) if dealt else None


def test_every_registered_game_is_tested():
    assert set(GAMES) == set(OPTIONS) == set(INVARIANTS)


@pytest.mark.parametrize("game", list(GAMES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_legal_games_keep_the_contract_and_replay_identically(game, data):
    engine, referee = GAMES[game].engine, referee_for(game)
    spec_game = SPEC.games[game]
    options = data.draw(OPTIONS[game], label="options")
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
        INVARIANTS[game](p, state, after, events)
        assert {event.rule for event in events} <= known  # every rule cited is in the game's rules file
        json.dumps([event.as_json() for event in events])  # every kind words its data; the data is JSON
        check_who_moves(engine, after, p)
        assert engine.apply(state, action, p, events=False) == (after, ())  # the same position, no events made
        actions.append(action)
        state = after

    result = engine.outcome(state, p)
    assert result is not None and list(result.scores) == list(players)
    assert result.winners and set(result.winners) <= set(players)
    if result.reason != "bankruptcy":  # a bankrupt player may be scored last whatever he holds
        best = max(result.scores.values())
        assert all(result.scores[name] == best for name in result.winners)

    written = referee.record(p, players, actions, options, start=first if start is not None else None)
    read = reads_record(records.dump(written))
    answer = check(read, SPEC)
    assert answer.ok, answer.violation
    assert [a for step in referee.steps(read, answer.params) for a in referee.actions(step)] == actions  # record → actions
    final = referee.state_json(state, p)
    assert referee.state_json(answer.state, answer.params) == final and final["over"] is True


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
        for _, state, _ in play(engine, state, p, random.Random(seed)):
            pass
        ends.add(engine.outcome(state, p).reason)
    assert ends == {"bankruptcy", "last_dividend"}
