"""Bolsa's rules as pure functions: the engine contract (`pnp.rules.contract.Engine`).

A round is: one `Declare` per player who declares (BOLSA-3.2), then for each company in board
order `Resolve` (solvency, classification, maybe an auction), the auction's `Bid`s, any
`Withdraw`s, and `Settle` (trades, quote, provisioning; after the last company the end of the
round and, after the last round, final scoring). `apply` accepts an action exactly when one
of `legal_actions`' templates admits it (`legal.judge`), the pairing of a settlement (BOLSA-4.8)
checked beyond them; a refusal is worded from the statement the action breaks (`listing`).

The modules: `setup` (seats and the start), `listing` (what a position allows, and why not
the rest), `rounds` (declarations, companies brought up, auctions, withdrawals), `settle`
(trades, quotes, the end of a round and of the game), `refusals` and `events` (their words).
This module is the game's whole API (`from pnp.rules.bolsa import engine`): its `__all__`
names the contract and what a caller of this game uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from pnp.errors import brief
from pnp.i18n import _, ngettext
from pnp.rules.base import Events, Log, Malformed, Marks, Number, Observer, Outcome, Played, Table, ToMove, Trace
from pnp.rules.bolsa.listing import legal_actions, withdrawers, withheld
from pnp.rules.bolsa.params import CARDS_EACH, Params, params
from pnp.rules.bolsa.rounds import HANDLERS
from pnp.rules.bolsa.rulebook import ABOUT, RULEBOOK, End
from pnp.rules.bolsa.settle import final_outcome, holdings, scores
from pnp.rules.bolsa.setup import Start, check_players, deal, setup
from pnp.rules.bolsa.state import (
    DECLARE,
    OVER,
    TRADE,
    Action,
    Auction,
    Bid,
    Declare,
    Pair,
    Player,
    Resolve,
    Settle,
    State,
    Trade,
    Withdraw,
    Zones,
)
from pnp.rules.legal import judge

if TYPE_CHECKING:
    import random

__all__ = [
    # the contract
    "RULEBOOK", "Start", "apply", "check_players", "deal", "determinize", "legal_actions", "marks", "moves",
    "outcome", "params", "playout", "position", "setup", "tables", "to_move", "view", "worth",
    # what a caller of this game uses: its parameters, position, actions, phases and ends
    "ABOUT", "CARDS_EACH", "End", "Params", "State", "Player", "Zones", "Trade", "Auction", "Action", "Declare",
    "Resolve", "Bid", "Withdraw", "Settle", "Pair", "DECLARE", "TRADE", "OVER",
]


def apply(state: State, action: Action, params: Params, events: bool = True) -> tuple[State, Events]:
    """Apply one action; the new state and the events it caused, each citing its rule (none
    made when `events` is False)."""
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise Malformed(f"{brief(action)} is not an action of Bolsa (Declare, Resolve, Bid, Withdraw, Settle)")
    judge(legal_actions(state, params), action, lambda: withheld(state, params, action))
    log: Log = [] if events else None
    state = handler(state, action, params, log)
    return state, tuple(log) if log else ()


def to_move(state: State, params: Params) -> ToMove | None:
    """Declarations are sealed and simultaneous (BOLSA-3.2.1): everyone who has not declared may; in the
    trade phase the bidder to act, the losers who may withdraw, or only the table."""
    if state.over:
        return None
    if state.phase == DECLARE:
        waiting = tuple(state.players[i].name for i in state.seating() if i not in state.declared)
        return ToMove(DECLARE, waiting, sealed=True)
    trade = state.trade
    if trade is None:
        return ToMove(TRADE, ())
    if trade.auction is not None and not trade.auction.over:
        return ToMove("auction", (state.players[trade.auction.to_act].name,))
    losers = tuple(state.players[i].name for i in withdrawers(state, params))
    return ToMove("withdraw", losers) if losers else ToMove("settle", ())


def outcome(state: State, params: Params) -> Outcome | None:
    """BOLSA-7: after the last round, cash plus shares at the final quotes; the winners."""
    if not state.over:
        return None
    names, cash, owned = holdings(state)
    return final_outcome(names, cash, owned, state.prices, params)


def moves(params: Params, players: int) -> None:
    """A game's number of moves is not fixed: how many auctions, bids and withdrawals a round
    has depends on the declarations."""
    return None


def worth(state: State, params: Params) -> tuple[Number, ...]:
    """BOLSA-7.1 now: each player's cash plus his owned (zone 1) cards at the current quotes —
    his score if the bank bought his shares at this moment; the final scores once it is over."""
    _, cash, owned = holdings(state)
    return tuple(scores(cash, owned, state.prices))


def position(state: State, params: Params) -> dict[str, Any]:
    """docs/referee.md's keys, and where the round stands: its phase, the declared cards (zones 3
    and 4, `offered` and `requested`), the company being resolved and its auction."""
    codes = params.companies
    names = [p.name for p in state.players]
    answer: dict[str, Any] = {
        "round": state.round,
        "token": names[state.token],
        "prices": dict(zip(codes, state.prices, strict=True)),
        "players": {p.name: _player_position(p, codes) for p in state.players},
        "phase": state.phase,
    }
    if state.phase == DECLARE:
        answer["declared"] = [names[i] for i in state.seating() if i in state.declared]
    if state.trade is not None:
        auction = state.trade.auction
        answer["trade"] = {"company": codes[state.trade.company], "case": state.trade.case, "quote": state.trade.quote,
                           "auction": None if auction is None else _auction_position(auction, names)}
    return answer


def _player_position(player: Player, codes: Sequence[str]) -> dict[str, object]:
    """A player's cash and cards, zone by zone, by company."""
    return {
        "cash": player.cash,
        "shares": {code: z.owned for code, z in zip(codes, player.zones, strict=True)},
        "orders": {code: z.orders for code, z in zip(codes, player.zones, strict=True)},
        "offered": {code: z.offered for code, z in zip(codes, player.zones, strict=True)},
        "requested": {code: z.requested for code, z in zip(codes, player.zones, strict=True)},
    }


def _auction_position(auction: Auction, names: Sequence[str]) -> dict[str, object]:
    """An auction as the position states it: who bids, who passed, the best bid and its bidder,
    and who is to act."""
    return {
        "ascending": auction.ascending,
        "bidders": [names[i] for i in auction.order],
        "passed": [names[i] for i in auction.passed],
        "best": auction.best,
        "bidder": None if auction.bidder is None else names[auction.bidder],
        "over": auction.over,
        "to_act": None if auction.over else names[auction.to_act],
    }


def view(state: State, params: Params, seat: int | None) -> State:
    """Bolsa keeps no secret in a position: the mats' cards lie face down (BOLSA-2.5), but
    every card a player holds follows from the setup and the trades every player watched
    settle (zones 3 and 4 are revealed in each trade phase, BOLSA-3.3.1, BOLSA-A13), and the cards
    back in the box are only counted. The one secret is a declaration while the phase is
    sealed (`ToMove.sealed`, BOLSA-3.2.1), which the driver keeps (it shows each seat the
    position at the phase's start): so the view is the position itself."""
    return state


def determinize(view: State, params: Params, seat: int | None, rng: random.Random) -> State:
    """Nothing is hidden (`view`): the position itself, and `rng` is not drawn from."""
    return view


def playout(params: Params, state: State, rng: random.Random, watch: Observer, trace: Trace | None = None) -> Played:
    """From `state` to the end, every seat the random bot, on mutable numbers
    (`pnp.rules.bolsa.playout`, the `pnp.rules.contract.Playout` of this engine); loaded on
    first use: a referee never needs it."""
    from pnp.rules.bolsa.playout import playout as play

    return play(params, state, rng, watch, trace)


def tables(params: Params) -> dict[str, Table]:
    """`deal`: per player count, the share cards of each company in play and back in the box
    (BOLSA-1.9, 2.3), and the money each player starts with (BOLSA-2.2) — from the spec."""
    rows = tuple((str(n), str(CARDS_EACH * n), str(params.deck_per_company - CARDS_EACH * n), str(params.start_cash))
                 for n in range(params.min_players, params.max_players + 1))
    header = (_("Players"), _("Cards of each company in play"), _("Back in the box, of each company"), _("Money each"))
    return {"deal": Table(header, rows, ngettext("Each player: {n} card of every company (BOLSA-2.3).",
                                                 "Each player: {n} cards of every company (BOLSA-2.3).",
                                                 CARDS_EACH).format(n=CARDS_EACH))}


def marks(params: Params) -> dict[str, Marks]:
    return {}
