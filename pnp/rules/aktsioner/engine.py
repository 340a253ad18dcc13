"""Акционер's rules as pure functions: the engine contract (`pnp.rules.contract.Engine`).

A turn is `Begin`, any number of `Trade`s (stage 1), a `Play` (stage 2) and any number of
`Trade`s (stage 3) (AKT-3); a trade of nothing ends a stage's trading, and the next player's
`Begin` ends the turn. `apply(state, action, params)` returns the new state and the events,
each citing its rule. It accepts an action exactly when one of `legal_actions`' templates
admits it (`legal.judge`); a refusal is worded from the statement the action breaks
(`listing`).

The modules: `actions` and `cards` (the actions, card effects and notation), `state` (the
position, setup, the deal), `listing` (what a position allows, and why not the rest), `turn`
(a turn applied: prices, compensation, penalties), `prices`, `scoring` (the end, match
seating), `refusals` and `events` (their words), `playout` (fast random games). This module is
the game's whole API (`from pnp.rules.aktsioner import engine`): its `__all__` names the
contract and what a caller uses.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pnp.errors import brief
from pnp.rules.aktsioner.actions import Action, Begin, Trade
from pnp.rules.aktsioner.cards import Card, Effect, NotationError, Number, Play, parse_play
from pnp.rules.aktsioner.listing import legal_actions, trading, withheld
from pnp.rules.aktsioner.params import HIDDEN, Params, params
from pnp.rules.aktsioner.playout import playout
from pnp.rules.aktsioner.prices import change, penalty_per_share, penalty_table
from pnp.rules.aktsioner.rulebook import ABOUT, RULEBOOK, End
from pnp.rules.aktsioner.scoring import OVER, capital, final_scores, match_games, seating, winners
from pnp.rules.aktsioner.state import (
    Account,
    Start,
    State,
    check_players,
    deal,
    deal_table,
    fill,
    hide,
    next_movers,
    setup,
)
from pnp.rules.aktsioner.turn import HANDLERS
from pnp.rules.base import Events, Log, Malformed, Marks, Outcome, Table, ToMove
from pnp.rules.legal import judge

if TYPE_CHECKING:
    import random

__all__ = [
    # the contract
    "RULEBOOK", "Start", "apply", "check_players", "deal", "determinize", "legal_actions", "marks", "moves",
    "outcome", "params", "playout", "position", "setup", "tables", "to_move", "view", "worth",
    # what a caller of this game uses: its parameters, position, actions, cards, ends and matches
    "ABOUT", "End", "HIDDEN", "Params", "State", "Account", "Action", "Begin", "Trade", "Play", "Card", "Effect",
    "NotationError", "parse_play", "change", "penalty_per_share", "match_games", "seating",
]

def apply(state: State, action: Action, params: Params, events: bool = True) -> tuple[State, Events]:
    """Apply one action; the new state and the events it caused (none made when `events` is
    False)."""
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise Malformed(f"{brief(action)} is not an action of Акционер (Begin, Trade, Play)")
    judge(legal_actions(state, params), action, lambda: withheld(state, params, action))
    log: Log = [] if events else None
    state = handler(params, state, action, log)
    return state, tuple(log) if log else ()


def to_move(state: State, params: Params) -> ToMove | None:
    """Before the card (stage 1, 2) only the mover acts; after it, the mover may still trade
    (stage 3) or end his turn, while the next player may begin his, which ends it too."""
    if state.over:
        return None
    turn = state.turn
    starters = tuple(state.players[seat] for seat in next_movers(params, state))
    if turn is None:
        return ToMove("begin", starters)
    mover = state.players[turn.mover]
    if not turn.played:
        return ToMove("stage 1" if trading(state, params) is None else "stage 2", (mover,))
    if trading(state, params) is None:
        return ToMove("stage 3", (mover, *(name for name in starters if name != mover)))
    return ToMove("begin", starters)


def outcome(state: State, params: Params) -> Outcome | None:
    """AKT-9: once every card is played, each player's capital; the highest wins."""
    if not state.over:
        return None
    scores = final_scores(params, state)
    return Outcome(scores, tuple(winners(scores)), OVER)


def worth(state: State, params: Params) -> tuple[Number, ...]:
    """AKT-9.2 now: each player's capital, his shares at the board's prices plus his cash —
    his score if the game ended here; the final scores once it is over."""
    return tuple(capital(params, state, seat) for seat in range(len(state.players)))


def view(state: State, params: Params, seat: int | None) -> State:
    """The position as `seat` knows it (AKT-2.6): the share counts, cash, prices and cards
    played are public, and so is how many big and small cards each holds; another's cards
    show as their backs (`HIDDEN`, big ones first). Without a known deal (`hands` None) nothing
    is hidden. The undealt cards (AKT-2.4) are in no position."""
    return hide(params, state, seat)


def determinize(view: State, params: Params, seat: int | None, rng: random.Random) -> State:
    """A position the view could be: each back drawn at random (`legal.shuffle`) from the
    cards of its deck that `seat` has not seen — in no hand it sees and never played — the
    undealt ones among them."""
    return fill(params, view, rng)


def tables(params: Params) -> dict[str, Table]:
    """Tables printed on the components, computed, never typed: the penalty aid (AKT-7.6) and
    the deal per player count (AKT-2.3, 2.4)."""
    return {"penalty": penalty_table(params), "deal": deal_table(params, params.min_players, params.max_players)}


def marks(params: Params) -> dict[str, Marks]:
    return {}


def moves(params: Params, players: int) -> int:
    """Moves in a whole game: every card dealt is played once, one a move (AKT-3.2, 9.1)."""
    return players * (params.big + params.small)


def position(state: State, params: Params) -> dict[str, Any]:
    """docs/referee.md: the prices, each player's cash and shares, and the hands when dealt."""
    answer: dict[str, Any] = {
        "prices": dict(zip(params.colours, state.prices, strict=True)),
        "players": {
            name: {"cash": _number(account.cash), "shares": dict(zip(params.colours, account.shares, strict=True))}
            for name, account in zip(state.players, state.accounts, strict=True)
        },
    }
    if state.hands is not None:
        answer["hands"] = {name: list(hand) for name, hand in zip(state.players, state.hands, strict=True)}
    return answer


def _number(value: Number) -> int | float:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value
