"""Акционер (Aktsioner) — the rules engine (rules/aktsioner.md), pure: no I/O, no rendering.

The engine keeps the contract of `pnp.rules.contract.Engine`: build `Params` with
`params(game, options)`, a starting `State` with `setup(params, players, start)`, then
`apply(state, action, params)` for each action — `Begin(player)`, `Trade.of(sell=…, buy=…)`,
`Play` (read from record notation with `parse_play`) — getting a new state and the events, or a
`Violation` citing the rule; `to_move`, `legal_actions` and `outcome` say who acts, what is
legal and how the game ended.

Modules: `rulebook` (house-rule options), `cards` (card effects and notation), `actions` (the
turn's Begin and Trade), `params`
(options plus the facts of the printed spec), `prices` (new prices, bounds, the penalty per
share), `state` (the position, setup, the deal), `engine` (turns, trades, card effects,
compensation and penalties, the contract), `scoring` (the end, match seating), `playout` (the
same rules on plain numbers, for the simulator's random games).

The spec layer reads every game's `RULEBOOK` on each load, so this package holds only that and
the light `params`; the rest of the game is `engine`'s (`from pnp.rules.aktsioner import engine`).
"""

from __future__ import annotations

from pnp.rules.aktsioner.params import HIDDEN, Params, params  # bound first: `params` is also a module
from pnp.rules.aktsioner.rulebook import ABOUT, RULEBOOK

__all__ = ["ABOUT", "HIDDEN", "RULEBOOK", "Params", "params"]
