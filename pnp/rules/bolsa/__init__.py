"""Juego de la Bolsa de Valores — the rules engine (rules/bolsa.md).

The engine keeps the contract of `pnp.rules.base.Engine`: `params(game, options)` reads the
spec and house rules, `setup(params, players, start)` deals the standard position (or a given
`Start`), `apply(state, action, params)` returns the next state and the events it caused, each
citing its rule ID; `to_move`, `legal_actions` and `outcome` say who acts, what is legal and
how the game ended. Everything is immutable; nothing here does I/O.

Modules: `rulebook` (house rules), `params` (Params from the spec), `state` (the position and
the actions), `engine` (setup, declarations, bringing up a company, auctions, the contract),
`settle` (trades, quotes, provisioning, the end of a round and of the game).

The spec layer imports every game's `RULEBOOK` on each load, so this package holds only that and
the light `params`: the rest of the game (actions, state, the contract) is `engine`'s, imported
by who plays it (`from pnp.rules.bolsa import engine`).
"""

from __future__ import annotations

from pnp.rules.bolsa.params import CARDS_EACH, Params, params  # bound first: `params` is also a module
from pnp.rules.bolsa.rulebook import RULEBOOK

__all__ = ["CARDS_EACH", "RULEBOOK", "Params", "params"]
