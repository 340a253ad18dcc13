"""For-Ex's rules as pure functions: the engine contract (`pnp.rules.contract.Engine`).

A turn (FOREX-5) is an optional Spot Transaction, then exactly one action: `Spot`,
`MakeContract`, `Invest`, `Divest` or `Resolve` (`actions`). `apply` accepts an action exactly
when one of `legal_actions`' templates admits it (`legal.judge`), the final tie's pick
(FOREX-12.1) checked beyond them; a refusal is worded from the statement the action breaks
(`listing`), its `part` naming the offending piece (the second investment, another player's
divestment), leaving the given state untouched.

The modules: `actions`, `state` (the position, the queue's items, setup), `listing` (what a
position allows, and why not the rest), `turns` (a turn's actions applied), `resolve` (the
queue, dividends, loans, the end), `scoring` (FOREX-12), `board` (pairs, the printed setup),
`refusals` and `events` (their words). This module is the game's whole API (`from
pnp.rules.forex import engine`): its `__all__` names the contract and what a caller uses.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pnp.errors import brief
from pnp.rules.base import Events, Log, Malformed, Number, Observer, Outcome, Played, ToMove, Trace, evolve
from pnp.rules.forex.actions import ENDS_TURN, TURN, Action, Divest, Invest, MakeContract, Resolve, Spot
from pnp.rules.forex.board import Pair, marks, strengths, tables, value_in
from pnp.rules.forex.listing import legal_actions, mover, withheld
from pnp.rules.forex.params import Params, as_number, params
from pnp.rules.forex.rulebook import ABOUT, RULEBOOK, End, ended
from pnp.rules.forex.state import (
    Contract,
    Dividend,
    Holding,
    Item,
    Loan,
    Result,
    Start,
    State,
    check_players,
    deal,
    setup,
    standard_supply,
)
from pnp.rules.forex.turns import HANDLERS
from pnp.rules.legal import judge

if TYPE_CHECKING:
    import random

__all__ = [
    # the contract
    "RULEBOOK", "Start", "apply", "check_players", "deal", "determinize", "legal_actions", "marks", "moves",
    "outcome", "params", "playout", "position", "setup", "tables", "to_move", "view", "worth",
    # what a caller of this game uses: its parameters, position, actions, queue and ends
    "ABOUT", "End", "Params", "State", "Holding", "Pair", "Result", "Action", "Spot", "MakeContract", "Invest",
    "Divest", "Resolve", "ENDS_TURN", "TURN", "Item", "Dividend", "Contract", "Loan", "standard_supply", "strengths",
    "value_in",
]


def apply(state: State, action: Action, p: Params, events: bool = True) -> tuple[State, Events]:
    """Apply one action of the player to move; a Spot leaves the turn open, the others end it
    (FOREX-5.2; no events made when `events` is False)."""
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise Malformed(f"{brief(action)} is not an action of For-Ex (Spot, MakeContract, Invest, Divest, Resolve)")
    judge(legal_actions(state, p), action, lambda: withheld(state, p, action))
    seat = state.seat(action.player)
    log: Log = [] if events else None
    new = handler(state, p, action, log)
    if isinstance(action, ENDS_TURN):
        return evolve(new, mover=(seat + 1) % len(state.players), spot_made=False), tuple(log or ())
    return evolve(new, mover=seat, spot_made=True), tuple(log or ())


def to_move(state: State, p: Params) -> ToMove | None:
    """The player whose turn it is; before the first turn, anyone (FOREX-4.6)."""
    if state.over:
        return None
    now = mover(state)
    return ToMove("turn", state.players if now is None else (now,))


def position(state: State, p: Params) -> dict[str, Any]:
    """docs/referee.md: pairs, players, supply, queue, strength, and whether the game is over."""
    return {
        "pairs": {pair.key: {"stronger": pair.stronger, "position": pair.position,
                             "rate": as_number(p.rate(pair.position))} for pair in state.pairs},
        "players": {
            name: {"money": {c: as_number(h.money[i]) for i, c in enumerate(p.currencies)},
                   "certificates": {c: h.certificates[i] for i, c in enumerate(p.currencies)}}
            for name, h in zip(state.players, state.holdings, strict=True)
        },
        "supply": dict(zip(p.currencies, state.supply, strict=True)),
        "queue": [item.label() for item in state.queue],
        "strength": strengths(state.pairs, p),
        "over": state.over,
    }


def outcome(state: State, p: Params) -> Outcome | None:
    """FOREX-12: everyone's money in the strongest currency; the winners; a bankruptcy or the
    last dividend ended it (FOREX-11.1)."""
    if state.result is None:
        return None
    scores = dict(zip(state.players, state.result.scores, strict=True))
    return Outcome(scores, state.result.winners, ended(state.bankrupt))


def moves(p: Params, players: int) -> None:
    """A game's number of turns is not fixed: it ends at the last dividend or a bankruptcy,
    whenever the players resolve the queue."""
    return None


def worth(state: State, p: Params) -> tuple[Number, ...]:
    """Each player's money in the strongest currency now (most pairs won, the first of equals
    in currency order), exact, as FOREX-12.2 converts it but before its rounding; once the game
    is over, the final scores (rounded, a bankrupt player's 0: FOREX-12.2–12.4)."""
    if state.result is not None:
        return state.result.scores
    counts = strengths(state.pairs, p)
    target = max(p.currencies, key=counts.__getitem__)
    return tuple(sum((value_in(state.pairs, p, amount, c, target) for c, amount in zip(p.currencies, h.money, strict=True)),
                     Fraction(0)) for h in state.holdings)


def view(state: State, p: Params, seat: int | None) -> State:
    """For-Ex keeps no secret in a position: money, certificates, the board, the supply left
    after setup's removal (FOREX-4.3: "the supply left is public"), the display and the queue
    (the Dividend stack in its printed order, FOREX-4.5) are all on the table; so the view is
    the position itself."""
    return state


def determinize(view: State, p: Params, seat: int | None, rng: random.Random) -> State:
    """Nothing is hidden (`view`): the position itself, and `rng` is not drawn from."""
    return view


def playout(p: Params, state: State, rng: random.Random, watch: Observer, trace: Trace | None = None) -> Played:
    """From `state` to the end, every player random, fast, on mutable numbers
    (`pnp.rules.forex.playout`, the `pnp.rules.contract.Playout` of this engine); loaded on first
    use: a referee never needs it."""
    from pnp.rules.forex.playout import playout as play

    return play(p, state, rng, watch, trace)
