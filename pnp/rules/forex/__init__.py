"""For-Ex — a pure rules engine (rules/forex.md), in the spirit of python-chess and OpenSpiel.

    p = params(game, overrides)                    # spec facts and house rules (Params)
    state = setup(p, ["Ana", "Ben", "Cris"])       # FOREX-4, or a given position
    state, events = apply(state, Invest("Ana", ("USD", "CNY")), p)
    state.over, state.result                       # strongest currency, scores, winners

Actions: `Spot` (optional, before the action), `MakeContract`, `Invest`, `Divest`, `Resolve`.
Every step returns `Event`s citing rule IDs; an illegal action raises a `Violation` (`Illegal`
when it can name the offending part), and a tie the action leaves unbroken raises
`ChoiceNeeded`. Money is exact (`Fraction`), never float.

Modules: `options` (RULEBOOK), `params` (Params from the spec), `board` (pairs, strengthen and
weaken, the printed setup table and marks), `state` (State, queue items, setup), `turns`
(actions and `apply`), `resolve` (the queue, dividends, loans, the end), `scoring` (FOREX-12),
`playout` (random legal play for tests and benchmarks).

Only `RULEBOOK` and `params` are imported eagerly (the spec layer reads every game's
rulebook; `params` shares its name with its module, so it must be bound first): a build or
another game's referee should not pay for the engine, which loads on first use.
"""

from __future__ import annotations

from pnp.rules.base import lazy_exports
from pnp.rules.forex.options import RULEBOOK
from pnp.rules.forex.params import Params, params

_EXPORTS = {
    "board": ("Pair", "marks", "strengths", "tables", "value_in"),
    "resolve": ("Resolve",),
    "scoring": ("ChoiceNeeded", "final_scores"),
    "state": ("Contract", "Dividend", "Holding", "Item", "Loan", "Result", "State", "setup", "standard_supply"),
    "turns": ("Action", "Divest", "Illegal", "Invest", "MakeContract", "Spot", "apply", "to_move"),
}
__all__ = ["RULEBOOK", "Params", "params", *(name for names in _EXPORTS.values() for name in names)]
__getattr__ = lazy_exports(__name__, _EXPORTS)
