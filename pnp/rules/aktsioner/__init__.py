"""Акционер (Aktsioner) — the rules engine (rules/aktsioner.md), pure: no I/O, no rendering.

Modules: `rulebook` (house-rule options), `cards` (card effects and record notation),
`params` (options plus the facts of the printed spec), `prices` (new prices, bounds, the
penalty per share).
"""

from __future__ import annotations

from pnp.rules.aktsioner.cards import Card, Effect, NotationError, Play, parse_play
from pnp.rules.aktsioner.params import Params, params
from pnp.rules.aktsioner.prices import penalty_per_share, penalty_table
from pnp.rules.aktsioner.rulebook import RULEBOOK
from pnp.rules.base import Table
from pnp.spec.model import Game

__all__ = [
    "RULEBOOK",
    "Card",
    "Effect",
    "NotationError",
    "Params",
    "Play",
    "params",
    "parse_play",
    "penalty_per_share",
    "tables",
]


def tables(game: Game) -> dict[str, Table]:
    """Tables printed on the components: the penalty aid (AKT-7.6), computed, never typed."""
    return {"penalty": penalty_table(params(game))}
