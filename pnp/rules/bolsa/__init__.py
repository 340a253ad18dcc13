"""Juego de la Bolsa de Valores — the rules engine (rules/bolsa.md).

A small API in the spirit of python-chess and OpenSpiel: `params(game, overrides)` reads the
spec and house rules, `setup(params, players, start)` deals the standard position (or a given
one), `apply(state, action, params)` returns the next state and the events it caused, each
citing its rule ID; an illegal action raises `Violation`. `final_scores` and `winners` score a
finished game. Everything is immutable; nothing here does I/O.

The spec layer imports every game's `RULEBOOK` on each load, so only that is imported
eagerly; the engine loads on first use of any other name.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from pnp.rules.bolsa.options import RULEBOOK

_HOME = {
    **dict.fromkeys(("Start", "apply", "bid_range", "check_players", "setup"), "engine"),
    **dict.fromkeys(("final_scores", "winners"), "settle"),
    **dict.fromkeys(
        ("CARDS_EACH", "DECLARE", "OVER", "TRADE", "Action", "Auction", "Bid", "Declare", "Pair", "Params", "Player",
         "Resolve", "Settle", "State", "Trade", "Withdraw", "Zones", "params"),
        "model",
    ),
}

__all__ = ["RULEBOOK", *_HOME]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"pnp.rules.bolsa.{_HOME[name]}"), name)
    globals()[name] = value
    return value
