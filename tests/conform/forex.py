"""For-Ex's conformance: what holds after every step, and the numbers a random game varies."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from pnp.rules.base import Violation
from pnp.rules.forex import engine as forex

NUMBERS = {"removed_certificates": (0, 6, 30), "cert_cap": range(1, 5), "certificate_price": range(0, 4),
           "loan_interest": range(0, 3), "contract_max": range(1, 11)}


def invariants(p: forex.Params, before: forex.State, state: forex.State, events: Any) -> None:
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
