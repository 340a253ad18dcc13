"""For-Ex — a pure rules engine (rules/forex.md), keeping the contract of
`pnp.rules.contract.Engine`:

    p = params(game, options)                      # spec facts and house rules (Params)
    state, events = setup(p, ["Ana", "Ben", "Cris"])   # FOREX-4, or a given Start
    state, events = apply(state, Invest("Ana", ("USD", "CNY")), p)
    to_move(state, p), legal_actions(state, p), outcome(state, p)

Actions: `Spot` (optional, before the action), `MakeContract`, `Invest`, `Divest`, `Resolve`.
Every step returns `Event`s citing rule IDs; an illegal action raises a `Violation` (whose
`part` names the offending piece when it can), and a tie the action leaves unbroken raises
`ChoiceNeeded`. Money is exact (`Fraction`), never float.

Modules: `rulebook` (RULEBOOK), `params` (Params from the spec), `board` (pairs, strengthen and
weaken, the printed setup table and marks), `state` (State, queue items, setup), `engine`
(actions, `apply` and the contract), `resolve` (the queue, dividends, loans, the end),
`scoring` (FOREX-12), `playout` (whole random games on mutable numbers, for the simulator).

This package holds only `RULEBOOK` and `params` (the spec layer reads every game's rulebook;
`params` shares its name with its module, so it must be bound first): a build or another game's
referee should not pay for the engine. The rest of the game is `engine`'s, imported by who
plays it (`from pnp.rules.forex import engine`).
"""

from __future__ import annotations

from pnp.rules.forex.params import Params, params
from pnp.rules.forex.rulebook import ABOUT, RULEBOOK

__all__ = ["ABOUT", "RULEBOOK", "Params", "params"]
