"""For-Ex engine, rule by rule: legal steps give the numbers of rules/forex.md, illegal ones
raise a Violation naming the rule and the amounts."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import pytest

from pnp.rules import load_spec
from pnp.rules.base import ChoiceNeeded, Violation, plain
from pnp.rules.forex import engine as forex
from pnp.rules.forex.board import find
from pnp.rules.forex.engine import Contract, Divest, Dividend, Invest, Loan, MakeContract, Resolve, Spot

P = ("P1", "P2", "P3")


def setup(p, players, **start):
    """The position only: the standard setup with `start`'s parts laid over it."""
    return forex.setup(p, players, forex.Start(**start))[0]


@pytest.fixture(scope="module")
def p():
    return forex.params(load_spec(None).games["forex"])


def play(state, p, *actions):
    events = []
    for action in actions:
        state, more = forex.apply(state, action, p)
        events += more
    return state, events


def money(state, player, currency, p):
    return state.holding(player).money[p.index(currency)]


def violation(state: forex.State, p: forex.Params, action: forex.Action) -> Violation:
    """The violation the action is refused with."""
    with pytest.raises(Violation) as caught:
        forex.apply(state, action, p)
    return caught.value


def illegal(rule, state, p, *actions):
    """Apply all but the last action; the last must break `rule`. Returns the message."""
    state, _ = play(state, p, *actions[:-1])
    with pytest.raises(Violation) as caught:
        forex.apply(state, actions[-1], p)
    assert caught.value.rule == rule, caught.value.message
    return caught.value.message


# --- setup and turns ---------------------------------------------------------------------------


def test_setup_gives_two_of_each_and_a_supply_of_fifty(p):
    """FOREX-4.2, 4.3, 4.5 (X1)."""
    state = setup(p, P)
    assert all(m == 2 for h in state.holdings for m in h.money)
    assert sum(state.supply) == 50 and sum(state.removed) == 6
    assert state.queue == (Dividend(1),) and state.display(p) == ("A", "B", "C", "D", "E", "F")


@pytest.mark.parametrize("count", [1, 7])
def test_two_to_six_players(p, count):
    """FOREX-1.10."""
    with pytest.raises(Violation) as caught:
        setup(p, [f"P{i}" for i in range(count)])
    assert caught.value.rule == "FOREX-1.10" and f"not {count}" in caught.value.message


def test_anyone_starts_then_play_goes_clockwise(p):
    """FOREX-4.6, 5.3."""
    state, _ = play(setup(p, P), p, MakeContract("P2", "GBP", "USD", F(1)))
    assert forex.to_move(state, p).players == ("P3",)
    message = illegal("FOREX-5.3", state, p, MakeContract("P1", "GBP", "USD", F(1)))
    assert message.startswith("it is P3's turn, not P1's")
    state, _ = play(state, p, Resolve("P3", strengthen="GBP"))
    assert forex.to_move(state, p).players == ("P1",)  # wraps around


def test_one_spot_transaction_before_the_action(p):
    """FOREX-5.1: a spot keeps the turn; a second one in the same turn is illegal."""
    spot = Spot("P1", "P2", ("GBP", F(1)), ("CAD", F(2)))
    state, _ = play(setup(p, P), p, spot)
    assert forex.to_move(state, p).players == ("P1",) and state.spot_made
    assert "already made" in illegal("FOREX-5.1", state, p, spot)
    message = illegal("FOREX-5.3", state, p, MakeContract("P2", "GBP", "USD", F(1)))
    assert "P1's turn" in message


# --- spot transactions -----------------------------------------------------------------------


def test_spot_amounts_and_holdings_are_checked(p):
    state = setup(p, P)
    refused = violation(state, p, Spot("P1", "P2", ("GBP", F(1)), ("CAD", F(3, 2))))
    assert refused.rule == "FOREX-6.2" and refused.data["rate"] == 2
    assert refused.data["terms"] == [(("GBP", 1), ("CAD", 2)), (("CAD", 2), ("GBP", 1))]
    refused = violation(state, p, Spot("P1", "P2", ("CNY", F(4)), ("GBP", F(1))))
    assert refused.rule == "FOREX-6.2" and (refused.data["amount"], refused.data["held"]) == (("CNY", 4), 2)
    assert "another player" in illegal("FOREX-6.1", state, p, Spot("P1", "P1", ("GBP", F(1)), ("CAD", F(2))))
    assert "two currencies" in illegal("FOREX-6.2", state, p, Spot("P1", "P2", ("GBP", F(1)), ("GBP", F(1))))
    rich = state.with_holding("P2", replace(state.holding("P2"), money=(F(0),) * 7))
    assert illegal("FOREX-6.2", rich, p, Spot("P1", "P2", ("GBP", F(1)), ("CAD", F(2)))) == "P2 must give 2 CAD but holds 0"


def test_spot_the_weaker_side_may_give_the_rate(p):
    """FOREX-6.2: 1 buck of the stronger for rate bucks of the weaker, either player giving it."""
    state, events = play(setup(p, P), p, Spot("P1", "P2", ("CAD", F(2)), ("GBP", F(1))))
    assert (money(state, "P1", "CAD", p), money(state, "P1", "GBP", p)) == (0, 3)
    assert (money(state, "P2", "CAD", p), money(state, "P2", "GBP", p)) == (4, 1)
    assert events[0].rule == "FOREX-6.2"


# --- contracts -------------------------------------------------------------------------------


def test_contract_amount_is_a_whole_number_of_the_stronger_from_one_to_ten(p):
    """FOREX-7.2 (X2: k = 11 or 2.5 is illegal); FOREX-7.5: no money needed now."""
    state = setup(p, P)
    for k in (F(11), F(5, 2), F(0)):
        message = illegal("FOREX-7.2", state, p, MakeContract("P1", "GBP", "CNY", k))
        assert "whole number from 1 to 10" in message
    assert "two different" in illegal("FOREX-7.2", state, p, MakeContract("P1", "GBP", "GBP", F(1)))
    state, _ = play(state, p, MakeContract("P1", "CNY", "GBP", F(10)))  # 40 CNY, held: 2
    assert state.queue[-1] == Contract("A", "P1", ("CNY", F(40)), ("GBP", F(10)))


def test_contract_takes_the_earliest_free_set_and_needs_one(p):
    """FOREX-7.1, 10.1: a resolved contract's set returns and is taken first again."""
    state = setup(p, ("P1", "P2"))
    actions = [MakeContract(("P1", "P2")[i % 2], "GBP", "USD", F(1)) for i in range(6)]
    state, _ = play(state, p, *actions)
    assert state.display(p) == ()
    message = illegal("FOREX-7.1", state, p, MakeContract("P1", "GBP", "USD", F(1)))
    assert message.startswith("all 6 contract sets are in use")
    state = replace(state, queue=state.queue[1:] + state.queue[:1])  # contract A to the front
    state, _ = play(state, p, Resolve("P1"))
    assert state.display(p) == ("A",)
    state, _ = play(state, p, MakeContract("P2", "EUR", "USD", F(2)))
    assert state.queue[-1].set == "A"


# --- invest and divest -----------------------------------------------------------------------


def test_invest_one_or_two_different_certificates(p):
    """FOREX-8.1."""
    state = setup(p, P)
    for currencies in ((), ("GBP", "GBP"), ("GBP", "EUR", "USD")):
        assert "one or two" in illegal("FOREX-8.1", state, p, Invest("P1", currencies))
    poor = state.with_holding("P1", state.holding("P1").add_money(p.index("EUR"), F(-1, 2)))
    message = illegal("FOREX-8.1", poor, p, Invest("P1", ("GBP", "EUR")))
    assert message == "a EUR certificate costs 2 EUR but P1 holds 1.5"
    empty = replace(state, supply=(0,) * 7)
    assert illegal("FOREX-8.1", empty, p, Invest("P1", ("USD",))) == "no USD certificate is left in the supply for P1"


def test_invest_is_capped_at_four_of_a_currency(p):
    """FOREX-8.2."""
    state = setup(p, P, money={"P1": {"GBP": F(20)}}, certificates={"P1": {"GBP": 4}})
    message = illegal("FOREX-8.2", state, p, Invest("P1", ("GBP",)))
    assert message == "P1 holds 4 GBP certificates already; at most 4 of a currency"
    with pytest.raises(Violation) as caught:
        setup(p, P, certificates={"P2": {"EUR": 5}})
    assert caught.value.rule == "FOREX-8.2"


def test_an_illegal_second_investment_names_its_part(p):
    state = setup(p, P, certificates={"P1": {"EUR": 4}})
    with pytest.raises(Violation) as caught:
        forex.apply(state, Invest("P1", ("GBP", "EUR")), p)
    assert caught.value.part == (1,) and caught.value.rule == "FOREX-8.2"


def test_divest_checks_every_seller(p):
    """FOREX-9.1, 9.2."""
    state = setup(p, P, certificates={"P1": {"JPY": 1}, "P2": {"JPY": 1}})
    assert "sell one or more" in illegal("FOREX-9.1", state, p, Divest("P1", "JPY", 0))
    assert illegal("FOREX-9.1", state, p, Divest("P1", "JPY", 2)) == "P1 sells 2 JPY certificates but holds 1"
    with pytest.raises(Violation) as caught:
        forex.apply(state, Divest("P1", "JPY", 1, (("P3", 1),)), p)
    assert (caught.value.rule, caught.value.part) == ("FOREX-9.2", ("others", "P3"))
    assert caught.value.message == "P3 sells 1 JPY certificates but holds 0"
    assert "not another player" in illegal("FOREX-9.2", state, p, Divest("P1", "JPY", 1, (("P1", 1),)))


def test_divest_others_sell_clockwise_from_the_active_player(p):
    state = setup(p, P, certificates={"P1": {"JPY": 1}, "P2": {"JPY": 1}, "P3": {"JPY": 1}})
    state, events = play(state, p, Divest("P2", "JPY", 1, (("P1", 1), ("P3", 1))))
    sold = [(e.rule, plain(e.data)) for e in events if e.rule in ("FOREX-9.1", "FOREX-9.2")]
    assert sold == [(rule, {"player": name, "currency": "JPY", "count": 1, "proceeds": 2})
                    for rule, name in (("FOREX-9.1", "P2"), ("FOREX-9.2", "P3"), ("FOREX-9.2", "P1"))]
    assert sum(e.rule == "FOREX-9.3" for e in events) == 3 and state.removed[p.index("JPY")] == 1 + 3


# --- resolving -------------------------------------------------------------------------------


def queue_state(p, *items, **holdings):
    return setup(p, P, queue=items, money=holdings or None)


def test_a_second_default_in_the_same_currency_adds_to_the_loan(p):
    """FOREX-10.2.2: 4 GBP + (3 + 1) GBP = 8 GBP in one part; the newer set returns."""
    state = queue_state(p, Contract("B", "P1", ("GBP", F(3)), ("EUR", F(3))), Loan("A", "P1", (("GBP", F(4)),)), Dividend(1),
                        P1={"GBP": F(0)})
    state, events = play(state, p, Resolve("P2"))
    assert state.queue == (Loan("A", "P1", (("GBP", F(8)),)), Dividend(1))
    assert "B" in state.display(p) and "A" not in state.display(p)
    assert money(state, "P1", "EUR", p) == 5


def test_who_can_pay_must_pay(p):
    """FOREX-10.3 (voluntary_default false): naming a default is illegal."""
    state = queue_state(p, Contract("A", "P1", ("GBP", F(1)), ("EUR", F(1))), Dividend(1))
    message = illegal("FOREX-10.3", state, p, Resolve("P2", default=("A",)))
    assert "a player who can pay must pay" in message


def test_loan_bankruptcy_ends_the_game_at_once(p):
    """FOREX-10.4, 11.1: nothing after the loan resolves; the last player picks among ties."""
    state = queue_state(p, Loan("A", "P1", (("GBP", F(3)), ("USD", F(2)))), Contract("B", "P2", ("GBP", F(1)), ("EUR", F(1))),
                        Dividend(1))
    state, events = play(state, p, Resolve("P3"))
    assert state.over and state.bankrupt == "P1" and state.queue[0].set == "B"
    assert money(state, "P1", "GBP", p) == 2  # nothing paid
    assert [e.rule for e in events][:2] == ["FOREX-10.4", "FOREX-11.1"]
    assert "P1" not in state.result.winners
    assert illegal("FOREX-11.1", state, p, Resolve("P1")).startswith("the game is over (P1 went Bankrupt)")


def test_dividend_pays_per_certificate_in_its_currency(p):
    """FOREX-10.5.1: the 5th dividend pays 3 per certificate."""
    state = setup(p, P, certificates={"P1": {"USD": 2, "CHF": 1}}, queue=[Dividend(4), Contract("A", "P2", ("GBP", F(9)), ("EUR", F(9)))])
    state, _ = play(state, p, Resolve("P3"))
    assert (money(state, "P1", "USD", p), money(state, "P1", "CHF", p)) == (6, 4)  # 2nd … 4th pay 2
    assert find(state.pairs, "USD", "GBP").stronger == "USD"  # USD most held → strengthened (flip)
    assert state.queue == (Contract("A", "P2", ("GBP", F(9)), ("EUR", F(9))), Dividend(5))


def test_dividend_tie_needs_the_active_players_choice(p):
    """FOREX-10.5.3 (FOREX-A10): all tie at 0 → ChoiceNeeded; a pick outside the tie or without a
    tie, or on another item, is a violation."""
    state = setup(p, P)
    with pytest.raises(ChoiceNeeded) as caught:
        forex.apply(state, Resolve("P1"), p)
    assert caught.value.what == "strengthen" and len(caught.value.options) == 7
    tied = setup(p, P, certificates={"P1": {"EUR": 1}, "P2": {"USD": 1}})
    message = illegal("FOREX-10.5.3", tied, p, Resolve("P1", strengthen="GBP"))
    assert message == "P1 picks GBP, but the tie is between EUR, USD (1 certificate in hand)"
    clear = setup(p, P, certificates={"P1": {"EUR": 2}, "P2": {"USD": 1}})
    message = illegal("FOREX-10.5.3", clear, p, Resolve("P1", strengthen="USD"))
    assert "EUR leads alone" in message and "no tie to break" in message
    state, _ = play(clear, p, Resolve("P1", strengthen="EUR"))  # naming the leader is fine
    contract = queue_state(p, Contract("A", "P1", ("GBP", F(1)), ("EUR", F(1))), Dividend(1))
    assert "not a dividend" in illegal("FOREX-10.5.3", contract, p, Resolve("P2", strengthen="EUR"))


def test_after_the_last_dividend_loans_made_meanwhile_are_resolved_too(p):
    """FOREX-10.5.5, FOREX-A18: a default during the final resolution goes to the back, and
    failing that Loan is a bankruptcy that still ends in scoring."""
    state = setup(p, ("P1", "P2"), queue=[Dividend(5), Contract("A", "P1", ("GBP", F(3)), ("CNY", F(12)))])
    state, events = play(state, p, Resolve("P2", strengthen="GBP"))
    rules = [e.rule for e in events]
    assert rules[rules.index("FOREX-10.5.5"):rules.index("FOREX-11.1") + 1] == [
        "FOREX-10.5.5", "FOREX-10.2", "FOREX-10.2.1", "FOREX-10.4", "FOREX-11.1"]
    assert state.bankrupt == "P1" and state.result.winners == ("P2",)


def test_strongest_tie_needs_the_choice_of_the_player_who_ended_the_game(p):
    """FOREX-12.1 (FOREX-A15)."""
    pairs = {"GBP/USD": ("USD", 1), "GBP/EUR": ("GBP", 1), "GBP/CHF": ("GBP", 1), "GBP/JPY": ("GBP", 1),
             "GBP/CAD": ("GBP", 2), "GBP/CNY": ("GBP", 6)}
    state = setup(p, P, pairs=pairs, queue=[Loan("A", "P2", (("GBP", F(9)),)), Dividend(1)],
                        certificates={"P1": {"EUR": 1}, "P3": {"USD": 1}})
    with pytest.raises(ChoiceNeeded) as caught:
        forex.apply(state, Resolve("P1"), p)
    assert (caught.value.what, caught.value.options) == ("strongest", ("EUR", "USD"))
    message = illegal("FOREX-12.1", state, p, Resolve("P1", strongest="GBP"))
    assert message.startswith("P1 picks GBP, but the tie is between EUR, USD")
    done, _ = play(state, p, Resolve("P1", strongest="EUR"))
    assert done.result.strongest == "EUR"
    running = setup(p, P, queue=[Contract("A", "P2", ("GBP", F(1)), ("EUR", F(1))), Dividend(1)])
    assert "does not end" in illegal("FOREX-12.1", running, p, Resolve("P1", strongest="GBP"))


def test_winner_ties_go_to_certificates_of_the_strongest_then_shared(p):
    """FOREX-12.3 (FOREX-A14)."""
    loan = [Loan("A", "P3", (("GBP", F(9)),)), Dividend(1)]
    state = setup(p, P, queue=loan, certificates={"P1": {"GBP": 2}, "P2": {"GBP": 1}})
    done, events = play(state, p, Resolve("P1"))
    assert done.result.scores[:2] == (8, 8) and done.result.winners == ("P1",)
    assert (events[-1].rule, plain(events[-1].data)) == ("FOREX-12.3", {  # P1 holds the most GBP certificates and wins
        "winners": ["P1"], "tied": ["P1", "P2"], "score": 8, "currency": "GBP", "certificates": {"P1": 2, "P2": 1}})
    even = setup(p, P, queue=loan)
    done, events = play(even, p, Resolve("P1"))
    assert done.result.winners == ("P1", "P2")
    assert (events[-1].rule, plain(events[-1].data)) == ("FOREX-12.3", {  # as many GBP certificates: they share the win
        "winners": ["P1", "P2"], "tied": ["P1", "P2"], "score": 8, "currency": "GBP", "certificates": {"P1": 0, "P2": 0}})


def test_certificates_are_worth_nothing_at_the_end(p):
    """FOREX-12.5."""
    plain = setup(p, P, queue=[Loan("A", "P3", (("GBP", F(9)),)), Dividend(1)])
    holder = setup(p, P, queue=plain.queue, certificates={"P1": {"GBP": 4, "EUR": 4}})
    assert play(plain, p, Resolve("P1"))[0].result.scores[0] == play(holder, p, Resolve("P1"))[0].result.scores[0]
