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

from pnp.rules.base import lazy_exports
from pnp.rules.bolsa.options import RULEBOOK

_EXPORTS = {
    "engine": ("Start", "apply", "bid_range", "check_players", "setup"),
    "settle": ("final_scores", "winners"),
    "model": ("CARDS_EACH", "DECLARE", "OVER", "TRADE", "Action", "Auction", "Bid", "Declare", "Pair", "Params",
              "Player", "Resolve", "Settle", "State", "Trade", "Withdraw", "Zones", "params"),
}
__all__ = ["RULEBOOK", *(name for names in _EXPORTS.values() for name in names)]
__getattr__ = lazy_exports(__name__, _EXPORTS)
