"""Every For-Ex house rule of rules/forex.md §13: its default, and what the other value changes."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from pnp.cli import main
from pnp.errors import SpecError
from pnp.rules import load_spec, loads_spec
from pnp.rules.base import Violation, plain
from pnp.rules.forex import engine as forex
from pnp.rules.forex.board import find
from pnp.rules.forex.engine import Contract, Divest, Dividend, Invest, Loan, MakeContract, Resolve, Spot
from pnp.spec.source import default_spec_path

P = ("P1", "P2", "P3")


def setup(p, players, **start):
    """The position only: the standard setup with `start`'s parts laid over it."""
    return forex.setup(p, players, forex.Start(**start))[0]
BANKRUPT_P3 = [Loan("A", "P3", (("GBP", F(99)),)), Dividend(1)]  # resolving it ends the game


@pytest.fixture(scope="module")
def game():
    return load_spec(None).games["forex"]


def run(game, options, state_args, *actions, players=P):
    p = forex.params(game, options)
    state = setup(p, players, **state_args)
    events = []
    for action in actions:
        state, more = forex.apply(state, action, p)
        events += more
    return p, state, events


def money(p, state, player, currency):
    return state.holding(player).money[p.index(currency)]


def test_defaults_are_the_rules_file(game):
    p = forex.params(game)
    assert (p.removed_certificates, p.start_money, p.dividends, p.contract_max, p.loan_interest, p.cert_cap,
            p.certificate_price) == (6, 2, (0, 2, 2, 2, 3), 10, 1, 4, 2)
    assert (p.no_dividend_side, p.spot_unit, p.voluntary_default, p.conversion_rounding, p.bankrupt_player) == (
        "weaker", "stronger_one", False, "per_holding", "last")
    assert p.certificates == (8,) * 7 and p.sets == ("A", "B", "C", "D", "E", "F")


@pytest.mark.parametrize("removed, supply", [(0, 56), (6, 50), (30, 26)])
def test_removed_certificates(game, removed, supply):
    """FOREX-4.3: the removed ones are out of the game from the start."""
    p = forex.params(game, {"removed_certificates": removed})
    state = setup(p, P)
    assert sum(state.supply) == supply and sum(state.removed) == removed
    assert max(state.supply) - min(state.supply) <= 1  # spread over the currencies


def test_start_money(game):
    """FOREX-4.2."""
    p, state, _ = run(game, {"start_money": 5}, {})
    assert all(m == 5 for h in state.holdings for m in h.money)


def test_dividends_come_from_the_deck(game):
    """FOREX-10.5.1: the `pays` of the dividends deck, in card order; not settable in `rules`."""
    text = default_spec_path().read_text(encoding="utf-8")
    edited = text.replace('{value: "1", title: Dividend, text: "Pays {pays} per certificate", data: {pays: 0}}',
                          '{value: "1", title: Dividend, text: "Pays {pays} per certificate", data: {pays: 1}}')
    assert edited != text
    p = forex.params(loads_spec(edited).games["forex"])
    assert p.dividends == (1, 2, 2, 2, 3)
    with pytest.raises(SpecError, match="set by components.dividends.pays"):
        loads_spec(text.replace("      bankrupt_player: last\n", "      bankrupt_player: last\n      dividends: [1, 1]\n"))


def test_dividends_option_in_a_record_sets_how_many_and_what_they_pay(game):
    """Two dividends paying 1 and 5: the second is the last one (FOREX-10.5.5)."""
    args = {"certificates": {"P1": {"USD": 1}}, "queue": [Dividend(2)]}
    p, state, events = run(game, {"dividends": (1, 5)}, args, Resolve("P2"))
    assert money(p, state, "P1", "USD") == 7 and state.over
    with pytest.raises(ValueError):
        forex.RULEBOOK.option("dividends").check((1, -2))


def test_contract_max(game):
    """FOREX-7.2."""
    p, state, _ = run(game, {"contract_max": 3}, {}, MakeContract("P1", "GBP", "EUR", F(3)))
    with pytest.raises(Violation, match="from 1 to 3"):
        forex.apply(state, MakeContract("P2", "GBP", "EUR", F(4)), p)


@pytest.mark.parametrize("interest, owed", [(0, 3), (1, 4), (2, 5)])
def test_loan_interest(game, interest, owed):
    """FOREX-10.2: a default owes pay + interest."""
    queue = [Contract("A", "P1", ("GBP", F(3)), ("CNY", F(12))), Dividend(1)]
    p, state, _ = run(game, {"loan_interest": interest}, {"queue": queue}, Resolve("P2"))
    assert state.queue[-1] == Loan("A", "P1", (("GBP", F(owed)),))


def test_cert_cap(game):
    """FOREX-8.2."""
    p, state, _ = run(game, {"cert_cap": 1}, {}, Invest("P1", ("GBP",)), MakeContract("P2", "GBP", "EUR", F(1)),
                      MakeContract("P3", "GBP", "EUR", F(1)))
    with pytest.raises(Violation, match="at most 1 of a currency"):
        forex.apply(state, Invest("P1", ("GBP",)), p)


def test_certificate_price_for_buying_and_selling(game):
    """FOREX-8.1, 9.1."""
    p, state, _ = run(game, {"certificate_price": 1}, {}, Invest("P1", ("GBP", "EUR")))
    assert (money(p, state, "P1", "GBP"), money(p, state, "P1", "EUR")) == (1, 1)
    p, state, _ = run(game, {"certificate_price": 3}, {"certificates": {"P1": {"JPY": 2}}}, Divest("P1", "JPY", 2))
    assert money(p, state, "P1", "JPY") == 2 + 6


@pytest.mark.parametrize("side, gbp_paid", [("weaker", 2), ("both", 0)])
def test_no_dividend_side(game, side, gbp_paid):
    """FOREX-10.5.2 (FOREX-A3): with `both`, the stronger side of a pair on the "8" space stops too."""
    args = {"pairs": {"GBP/CNY": ("GBP", 10)}, "certificates": {"P1": {"GBP": 1, "CNY": 1}}, "queue": [Dividend(2)]}
    p, state, _ = run(game, {"no_dividend_side": side}, args, Resolve("P2", strengthen="GBP"))
    assert money(p, state, "P1", "GBP") == 2 + gbp_paid and money(p, state, "P1", "CNY") == 2


def test_spot_unit_any_one_allows_one_weak_buck_for_its_worth_where_notes_pay_it(game):
    """FOREX-6.2 (FOREX-A5): 1 CAD for ½ GBP at GBP>CAD 3 (rate 2); at GBP>CNY 7 (rate 4) 1 CNY is worth
    ¼ GBP, which no note pays (money is kept in halves, FOREX-A6): refused, and never offered."""
    half = Spot("P1", "P2", ("CAD", F(1)), ("GBP", F(1, 2)))
    p, state, events = run(game, {"spot_unit": "any_one"}, {}, half)
    assert (money(p, state, "P1", "CAD"), money(p, state, "P1", "GBP")) == (1, F(5, 2))
    assert events[0].data["give"] == {"CAD": 1} and events[0].data["get"] == {"GBP": F(1, 2)}
    p = forex.params(game)
    with pytest.raises(Violation) as refused:
        forex.apply(setup(p, P), half, p)
    assert refused.value.rule == "FOREX-6.2" and (("GBP", 1), ("CAD", 2)) in refused.value.data["terms"]
    p_any = forex.params(game, {"spot_unit": "any_one"})
    quarter = Spot("P1", "P2", ("CNY", F(1)), ("GBP", F(1, 4)))
    with pytest.raises(Violation) as refused:
        forex.apply(setup(p_any, P), quarter, p_any)
    assert refused.value.rule == "FOREX-A5" and refused.value.data["unpaid"] == ("GBP", F(1, 4))
    with pytest.raises(Violation) as refused:
        forex.apply(setup(p_any, P), Spot("P1", "P2", ("CNY", F(1)), ("GBP", F(1, 3))), p_any)
    assert refused.value.rule == "FOREX-6.2" and (("CNY", 1), ("GBP", F(1, 4))) not in refused.value.data["terms"]
    offered = next(t for t in forex.legal_actions(setup(p_any, P), p_any) if t.kind == "spot").fields[0].options
    deals = {(gives, x, gets, y) for _, (gives, x), (gets, y) in offered}
    assert ("CAD", 1, "GBP", F(1, 2)) in deals and ("CNY", 1, "GBP", F(1, 4)) not in deals
    assert all(x.denominator <= 2 and y.denominator <= 2 for _, x, _, y in deals)


def test_voluntary_default(game):
    """FOREX-10.3 (FOREX-A8): with the option, an owner who could pay may default into a Loan."""
    queue = [Contract("A", "P1", ("GBP", F(1)), ("EUR", F(1))), Dividend(1)]
    p, state, events = run(game, {"voluntary_default": True}, {"queue": queue}, Resolve("P2", default=("A",)))
    assert state.queue[-1] == Loan("A", "P1", (("GBP", F(2)),)) and money(p, state, "P1", "GBP") == 2
    assert (events[0].rule, plain(events[0].data)) == ("FOREX-10.2", {
        "set": "A", "owner": "P1", "pay": {"GBP": 1}, "receive": {"EUR": 1}, "holds": 2, "by_choice": True,
        "interest": 1, "owe": {"GBP": 2}})  # defaults by choice, holding the 2 GBP he could have paid with
    with pytest.raises(Violation, match="no such contract is resolved"):
        forex.apply(setup(p, P, queue=queue), Resolve("P2", default=("B",)), p)


@pytest.mark.parametrize("rounding, score", [("per_holding", 4 + 4 + 8), ("bga", F(9, 2) + 4 + 8), ("total", 17)])
def test_conversion_rounding(game, rounding, score):
    """FOREX-12.2 (FOREX-A12): GBP 4.5, EUR 7 (→ 4⅔), CNY 33 (→ 8¼) at the start rates."""
    holding = {"P1": {"GBP": F(9, 2), "EUR": F(7), "USD": F(0), "CHF": F(0), "JPY": F(0), "CAD": F(0), "CNY": F(33)}}
    p, state, _ = run(game, {"conversion_rounding": rounding}, {"money": holding, "queue": BANKRUPT_P3}, Resolve("P1"))
    assert state.result.strongest == "GBP" and state.result.scores[0] == score


@pytest.mark.parametrize("rule, p3_score, winners", [("last", 0, ("P1", "P2")), ("scored_normally", 8, ("P1", "P2", "P3"))])
def test_bankrupt_player(game, rule, p3_score, winners):
    """FOREX-12.4 (FOREX-A13): `last` scores the bankrupt 0 and he cannot win."""
    p, state, _ = run(game, {"bankrupt_player": rule}, {"queue": BANKRUPT_P3}, Resolve("P1"))
    assert state.result.scores == (8, 8, p3_score) and state.result.winners == winners


def test_start_pairs_in_a_record(game, tmp_path, capsys):
    """FOREX-2.3 as a record option: the whole table, checked against the game's currencies."""
    pairs = dict(forex.RULEBOOK.option("start_pairs").default)
    pairs["GBP/CNY"] = ("CNY", 3)
    lines = ", ".join(f"{k}: {{stronger: {s}, position: {n}}}" for k, (s, n) in pairs.items())
    record = tmp_path / "pairs.yaml"
    record.write_text(f"game: forex\nplayers: [A, B]\noptions:\n  start_pairs: {{{lines}}}\n", encoding="utf-8")
    assert main(["referee", "check", str(record), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)["state"]
    assert state["pairs"]["GBP/CNY"] == {"stronger": "CNY", "position": 3, "rate": 2}
    assert state["strength"]["CNY"] == 1 and state["strength"]["GBP"] == 5
    assert find(setup(forex.params(game, {"start_pairs": pairs}), P).pairs, "GBP", "CNY").stronger == "CNY"
