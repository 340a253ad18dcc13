"""Акционер (Aktsioner) — the rules engine (rules/aktsioner.md), pure: no I/O, no rendering.

In the spirit of python-chess / OpenSpiel: build `Params` with `params(game, overrides)`, a
starting `State` with `setup(params, players, …)`, then `apply(state, action, params)` for
each action — `Begin(player)`, `Trade.of(sell=…, buy=…)`, `Play` (read from record notation
with `parse_play`) — getting a new state and the events, or a `Violation` citing the rule.

Modules: `rulebook` (house-rule options), `cards` (card effects and notation), `params`
(options plus the facts of the printed spec), `prices` (new prices, bounds, the penalty per
share), `state` (the position, setup, the deal), `engine` (turns, trades, card effects,
compensation and penalties), `scoring` (the end, match seating), `playout` (random legal
play for tests and benchmarks).
"""

from __future__ import annotations

from pnp.rules.aktsioner.params import Params, params  # bound first: `params` is also a module
from pnp.rules.aktsioner.rulebook import RULEBOOK
from pnp.rules.base import Table, lazy_exports
from pnp.spec.model import Game

_EXPORTS = {
    "cards": ("Card", "Effect", "NotationError", "Play", "parse_play"),
    "engine": ("Action", "Begin", "Trade", "apply", "choices", "legal_plays", "sellable"),
    "prices": ("change", "penalty_per_share", "penalty_table"),
    "scoring": ("capital", "final_scores", "match_games", "seating", "winners"),
    "state": ("Account", "DealViolation", "State", "cards_left", "final_round", "next_movers", "setup"),
}
__all__ = ["RULEBOOK", "Params", "params", "tables", *(name for names in _EXPORTS.values() for name in names)]
__getattr__ = lazy_exports(__name__, _EXPORTS)


def tables(game: Game) -> dict[str, Table]:
    """Tables printed on the components, computed, never typed: the penalty aid (AKT-7.6) and
    the deal per player count (AKT-2.3, 2.4)."""
    from pnp.rules.aktsioner.prices import penalty_table
    from pnp.rules.aktsioner.state import deal_table

    p = params(game)
    return {"penalty": penalty_table(p), "deal": deal_table(p, game.players.min, game.players.max)}
