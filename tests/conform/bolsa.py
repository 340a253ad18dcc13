"""Bolsa's conformance: what holds after every step, and the numbers a random game varies."""

from __future__ import annotations

from typing import Any

from pnp.rules.bolsa import engine as bolsa

NUMBERS = {"rounds": range(1, 5), "start_cash": range(0, 81)}
REQUIRED = ("rounds",)  # a game of 5 rounds is long: always fewer


def invariants(p: bolsa.Params, before: bolsa.State, state: bolsa.State, events: Any) -> None:
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
