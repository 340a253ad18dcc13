"""Starts no game can reach are refused by the setup, citing the rule they break (issue 25):
a record's `start`, a table's, or one a program builds. What a record cannot even write (a
negative count, an unknown name) the record reader refuses first; these are the engines' own
checks, for any caller."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pnp.rules import load_spec
from pnp.rules.aktsioner import engine as akt
from pnp.rules.base import Malformed, Violation
from pnp.rules.bolsa import engine as bolsa
from pnp.rules.forex import engine as forex

SPEC = load_spec(None)
P3 = ("Ana", "Ben", "Cris")
F = Fraction


def refused(engine, start, players=P3) -> Violation | Malformed:
    p = engine.params(SPEC.games[engine.__name__.split(".")[2]])
    with pytest.raises((Violation, Malformed)) as caught:
        engine.setup(p, players, start)
    return caught.value


@pytest.mark.parametrize("start, rule", [
    (forex.Start(queue=(forex.Dividend(1), forex.Loan("A", "Ana", (("GBP", F(0)),)))), "FOREX-10.2"),  # a loan of 0
    (forex.Start(queue=(forex.Dividend(1), forex.Loan("A", "Ana", ()))), "FOREX-10.2.2"),  # a loan of nothing
    (forex.Start(queue=(forex.Dividend(1), forex.Loan("A", "Ana", (("GBP", F(2)), ("GBP", F(3)))))), "FOREX-10.2.2"),
    (forex.Start(queue=(forex.Dividend(1), forex.Contract("B", "Ana", ("GBP", F(1)), ("EUR", F(7))))), "FOREX-7.3"),
    (forex.Start(queue=(forex.Dividend(1), forex.Contract("B", "Ana", ("GBP", F(1, 2)), ("EUR", F(1, 2))))), "FOREX-7.3"),
    (forex.Start(queue=(forex.Dividend(1), forex.Contract("Z", "Ana", ("GBP", F(1)), ("EUR", F(1))))), "FOREX-1.4"),
    (forex.Start(queue=(forex.Dividend(0),)), "FOREX-10.5.1"),
    (forex.Start(queue=(forex.Dividend(6),)), "FOREX-10.5.1"),
    (forex.Start(supply={"GBP": -1}), "FOREX-1.6"),
    (forex.Start(certificates={"Ana": {"GBP": -1}}), "FOREX-1.6"),
    (forex.Start(money={"Ana": {"GBP": F(-1, 2)}}), "FOREX-1.7"),
    (forex.Start(pairs={"GBP/EUR": ("GBP", 0)}), "FOREX-2.1"),
    (forex.Start(pairs={"GBP/EUR": ("GBP", 11)}), "FOREX-2.1"),
    (forex.Start(pairs={"GBP/EUR": ("CNY", 3)}), "FOREX-2.1"),
])
def test_forex_refuses_a_start_no_game_reaches(start, rule):
    assert refused(forex, start).rule == rule


def test_forex_refuses_a_queue_item_of_someone_not_playing():
    error = refused(forex, forex.Start(queue=(forex.Dividend(1), forex.Loan("A", "Zoe", (("GBP", F(2)),)))))
    assert isinstance(error, Malformed) and "Zoe" in str(error)


def test_the_least_loan_and_the_largest_contract_are_starts_a_game_reaches():
    """FOREX-10.2 at the edge: a 1-buck contract defaulted owes 1 + interest; FOREX-7.3: 10 of
    the stronger for 80 of the weaker at the 8 space."""
    p = forex.params(SPEC.games["forex"])
    forex.setup(p, P3, forex.Start(queue=(forex.Dividend(1), forex.Loan("A", "Ana", (("GBP", F(2)),)),
                                          forex.Contract("B", "Ben", ("CNY", F(80)), ("GBP", F(10))))))


@pytest.mark.parametrize("start, rule", [
    (bolsa.Start(cash={"Ana": -1}), "BOLSA-2.2"),
    (bolsa.Start(round=0), "BOLSA-3.1"),
    (bolsa.Start(round=6), "BOLSA-3.1"),
])
def test_bolsa_refuses_a_start_no_game_reaches(start, rule):
    assert refused(bolsa, start).rule == rule


@pytest.mark.parametrize("start", [bolsa.Start(token="Zoe"), bolsa.Start(cash={"Zoe": 3}), bolsa.Start(prices={"XYZ": 3}),
                                   bolsa.Start(owned={"Ana": {"XYZ": 1}})])
def test_bolsa_refuses_a_start_naming_what_the_game_has_not(start):
    assert isinstance(refused(bolsa, start), Malformed)


@pytest.mark.parametrize("account", [akt.Account(-10, (1, 1, 1, 1)), akt.Account(0, (1, -1, 1, 1))])
def test_aktsioner_refuses_an_account_below_none(account):
    assert refused(akt, akt.Start(accounts={"Ana": account})).rule == "AKT-2.1"


@pytest.mark.parametrize("start", [akt.Start(prices={"purple": 100}), akt.Start(accounts={"Zoe": akt.Account(0, (1, 1, 1, 1))}),
                                   akt.Start(accounts={"Ana": akt.Account(0, (1, 1))})])
def test_aktsioner_refuses_a_start_naming_what_the_game_has_not(start):
    assert isinstance(refused(akt, start), Malformed)
