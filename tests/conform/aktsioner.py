"""Акционер's conformance: what holds after every step, and the numbers a random game varies."""

from __future__ import annotations

from typing import Any

from pnp.rules.aktsioner import engine as akt

NUMBERS = {"formula": ("3+5", "4+6", "1+2", "0+3"), "start_cash": (0, 100), "min_undealt": range(0, 3)}


def invariants(p: akt.Params, before: akt.State, state: akt.State, events: Any) -> None:
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
