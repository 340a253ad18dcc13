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

from pnp.rules.base import Table, lazy_exports
from pnp.rules.bolsa.options import RULEBOOK
from pnp.spec.model import Game

_EXPORTS = {
    "engine": ("Start", "apply", "bid_range", "check_players", "setup"),
    "settle": ("final_scores", "winners"),
    "model": ("CARDS_EACH", "DECLARE", "OVER", "TRADE", "Action", "Auction", "Bid", "Declare", "Pair", "Params",
              "Player", "Resolve", "Settle", "State", "Trade", "Withdraw", "Zones", "params"),
}
__all__ = ["RULEBOOK", "tables", *(name for names in _EXPORTS.values() for name in names)]
__getattr__ = lazy_exports(__name__, _EXPORTS)


def tables(game: Game) -> dict[str, Table]:
    """`deal`: per player count, the share cards of each company in play and back in the box
    (BOLSA-1.9, 2.3), and the money each player starts with (BOLSA-2.2) — from the spec."""
    from pnp.rules.bolsa.model import CARDS_EACH, params

    p = params(game)
    rows = tuple((str(n), str(CARDS_EACH * n), str(p.deck_per_company - CARDS_EACH * n), str(p.start_cash))
                 for n in range(p.min_players, p.max_players + 1))
    header = ("Players", "Cards of each company in play", "Back in the box, of each company", "Money each")
    return {"deal": Table(header, rows, f"Each player: {CARDS_EACH} cards of every company (BOLSA-2.3).")}
