"""Juego de la Bolsa de Valores — the rules engine (rules/bolsa.md).

A small API in the spirit of python-chess and OpenSpiel: `params(game, overrides)` reads the
spec and house rules, `setup(params, players, start)` deals the standard position (or a given
one), `apply(state, action, params)` returns the next state and the events it caused, each
citing its rule ID; an illegal action raises `Violation`. `final_scores` and `winners` score a
finished game. Everything is immutable; nothing here does I/O.
"""

from pnp.rules.bolsa.engine import Start, apply, bid_range, check_players, setup
from pnp.rules.bolsa.model import (
    CARDS_EACH,
    DECLARE,
    OVER,
    TRADE,
    Action,
    Auction,
    Bid,
    Declare,
    Pair,
    Params,
    Player,
    Resolve,
    Settle,
    State,
    Trade,
    Withdraw,
    Zones,
    params,
)
from pnp.rules.bolsa.options import RULEBOOK
from pnp.rules.bolsa.settle import final_scores, winners

__all__ = [
    "CARDS_EACH", "DECLARE", "OVER", "RULEBOOK", "TRADE", "Action", "Auction", "Bid", "Declare", "Pair", "Params",
    "Player", "Resolve", "Settle", "Start", "State", "Trade", "Withdraw", "Zones", "apply", "bid_range",
    "check_players", "final_scores", "params", "setup", "winners",
]
