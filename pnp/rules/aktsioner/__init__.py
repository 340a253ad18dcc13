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

from pnp.rules.aktsioner.cards import Card, Effect, NotationError, Play, parse_play
from pnp.rules.aktsioner.engine import Action, Begin, Trade, apply, choices, legal_plays, sellable
from pnp.rules.aktsioner.params import Params, params
from pnp.rules.aktsioner.prices import change, penalty_per_share, penalty_table
from pnp.rules.aktsioner.rulebook import RULEBOOK
from pnp.rules.aktsioner.scoring import capital, final_scores, match_games, seating, winners
from pnp.rules.aktsioner.state import Account, DealViolation, State, cards_left, final_round, next_movers, setup
from pnp.rules.base import Table
from pnp.spec.model import Game

__all__ = [
    "RULEBOOK",
    "Account",
    "Action",
    "Begin",
    "Card",
    "DealViolation",
    "Effect",
    "NotationError",
    "Params",
    "Play",
    "State",
    "Trade",
    "apply",
    "capital",
    "cards_left",
    "change",
    "choices",
    "final_round",
    "final_scores",
    "legal_plays",
    "match_games",
    "next_movers",
    "params",
    "parse_play",
    "penalty_per_share",
    "seating",
    "sellable",
    "setup",
    "tables",
    "winners",
]


def tables(game: Game) -> dict[str, Table]:
    """Tables printed on the components: the penalty aid (AKT-7.6), computed, never typed."""
    return {"penalty": penalty_table(params(game))}
