"""Juego de la Bolsa de Valores — the rules engine (rules/bolsa.md).

The engine keeps the contract of `pnp.rules.contract.Engine`: `params(game, options)` reads the
spec and house rules, `setup(params, players, start)` deals the standard position (or a given
`Start`), `apply(state, action, params)` returns the next state and the events it caused, each
citing its rule ID; `to_move`, `legal_actions` and `outcome` say who acts, what is legal and
how the game ended. Everything is immutable; nothing here does I/O.

Modules: `rulebook` (house rules and their values, the end reasons, `ABOUT`), `params` (Params
from the spec), `state` (the position and the actions), `setup` (seats and the start), `listing`
(what a position allows, each bound with its refusal), `rounds` (declarations, bringing up a
company, auctions), `settle` (trades, quotes, provisioning, the end of a round and of the game),
`events` and `refusals` (their words), `engine` (the contract), `playout` (fast random games).

The spec layer imports every game's `RULEBOOK` on each load, so this package holds only that,
`ABOUT` and the light `params`: the rest of the game (actions, state, the contract) is
`engine`'s, imported by who plays it (`from pnp.rules.bolsa import engine`).
"""

from __future__ import annotations

from pnp.rules.bolsa.params import CARDS_EACH, Params, params  # bound first: `params` is also a module
from pnp.rules.bolsa.rulebook import ABOUT, RULEBOOK

__all__ = ["ABOUT", "CARDS_EACH", "RULEBOOK", "Params", "params"]
