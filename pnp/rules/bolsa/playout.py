"""Random legal play, every choice made by a `choose(low, high)` function.

Property tests drive it with hypothesis (so a failing game shrinks to a short one), the
benchmark with `random.Random(seed).randint`. Only legal actions are produced: declarations
within holdings, cash and the house rules, bids within `bid_range`, withdrawals by losers.
"""

from __future__ import annotations

from typing import Callable, Iterator

from pnp.rules.base import Event
from pnp.rules.bolsa.engine import apply, bid_range
from pnp.rules.bolsa.model import DECLARE, Action, Bid, Declare, Params, Resolve, Settle, State, Withdraw

Choose = Callable[[int, int], int]  # an integer in [low, high]


def play(state: State, params: Params, choose: Choose) -> Iterator[tuple[Action, State, tuple[Event, ...]]]:
    """Play on to the end of the game: each action, the state after it, and its events."""
    while not state.over:
        action = next_action(state, params, choose)
        state, events = apply(state, action, params)
        yield action, state, events


def next_action(state: State, params: Params, choose: Choose) -> Action:
    if state.phase == DECLARE:
        waiting = [i for i in range(len(state.players)) if i not in state.declared]
        if waiting and choose(0, 5):  # now and then the others declare nothing
            return declaration(state, params, waiting[0], choose)
        return Resolve()
    trade = state.trade
    if trade is None:
        return Resolve()
    auction = trade.auction
    if auction is not None and not auction.over:
        name = state.players[auction.to_act].name
        bids = bid_range(state, params)
        if bids is None or not choose(0, 2):
            return Bid(name, None)
        low, high = bids
        step = choose(0, min(3, high - low))
        return Bid(name, low + step if auction.ascending else high - step)
    if auction is not None and params.auction_losers == "may_withdraw":
        for i in auction.ranking[1:]:
            zones = state.players[i].zones[trade.company]
            if (zones.offered or zones.requested) and not choose(0, 3):
                return Withdraw(state.players[i].name)
    return Settle()


def declaration(state: State, params: Params, i: int, choose: Choose) -> Declare:
    """A legal declaration for player `i`: sells within zone 1, requests within zone 2 and,
    under `declaration_cash_check = total`, within his cash at the current quotes."""
    player = state.players[i]
    sell, buy, budget = {}, {}, player.cash
    for c, code in enumerate(params.companies):
        zones, price = player.zones[c], state.prices[c]
        offer, request = choose(0, zones.owned), choose(0, zones.orders)
        if offer and request and params.same_company_both_ways == "forbid":
            offer, request = (offer, 0) if choose(0, 1) else (0, request)
        if params.declaration_cash_check == "total" and price:
            request = min(request, budget // price)
            budget -= request * price
        if offer:
            sell[code] = offer
        if request:
            buy[code] = request
    return Declare(player.name, sell, buy)
