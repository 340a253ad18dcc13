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
(actions and `apply`), `resolve` (the queue, dividends, loans, the end), `scoring` (FOREX-12).
"""

from pnp.rules.forex.board import Pair, marks, strengths, tables, value_in
from pnp.rules.forex.options import RULEBOOK
from pnp.rules.forex.params import Params, params
from pnp.rules.forex.resolve import Resolve
from pnp.rules.forex.scoring import ChoiceNeeded, final_scores
from pnp.rules.forex.state import Contract, Dividend, Holding, Item, Loan, Result, State, setup, standard_supply
from pnp.rules.forex.turns import Action, Divest, Illegal, Invest, MakeContract, Spot, apply, to_move

__all__ = [
    "RULEBOOK", "Action", "ChoiceNeeded", "Contract", "Divest", "Dividend", "Holding", "Illegal", "Invest", "Item",
    "Loan", "MakeContract", "Pair", "Params", "Resolve", "Result", "Spot", "State", "apply", "final_scores", "marks",
    "params", "setup", "standard_supply", "strengths", "tables", "to_move", "value_in",
]
