"""A round of Bolsa, step by step: declarations (BOLSA-3.2), bringing up a company (3.3, 4.7.1,
4.1–4.6), its auction (5) and the losers' withdrawals (5.7); settling it is `settle`'s.

Each handler applies an action `apply` has already judged legal (`listing`'s templates admit
it), so none checks a rule again: it moves the cards and the money and tells the events.
"""

from __future__ import annotations

from typing import Callable, Literal, Mapping

from pnp.rules.base import Event, Log, evolve
from pnp.rules.bolsa import events as said
from pnp.rules.bolsa.params import Params
from pnp.rules.bolsa.rulebook import BothWays, Trigger
from pnp.rules.bolsa.settle import classify, settle, sides, withdraw_requests
from pnp.rules.bolsa.state import (
    DECLARE,
    TRADE,
    Auction,
    Bid,
    Declare,
    Player,
    Resolve,
    Settle,
    State,
    Trade,
    Withdraw,
    Zones,
)

Side = Literal["buyers", "sellers"]


def called(case: int, buyers: int, sellers: int, params: Params) -> tuple[Side | None, int, int]:
    """BOLSA-4.5.2, 4.6.2 and A2: the side whose players bid when a company of this case goes
    to auction (None: its case has none), how many they are, and how many an auction needs —
    2, or 3 sellers under `auction_trigger: literal`."""
    if case == 5:
        return "buyers", buyers, 2
    if case == 6:
        return "sellers", sellers, 3 if params.auction_trigger is Trigger.LITERAL else 2
    return None, 0, 2


# --- BOLSA-3.2 declarations ----------------------------------------------------------------


def _declare(state: State, action: Declare, params: Params, events: Log) -> State:
    i = state.index(action.player)
    player = state.players[i]
    sell, buy = _counts(params, action.sell), _counts(params, action.buy)
    zones = list(player.zones)
    for c, n in sell.items():
        z = zones[c]
        zones[c] = Zones(z.owned - n, z.orders, n, z.requested)
    for c, n in buy.items():
        z = zones[c]
        zones[c] = Zones(z.owned, z.orders - n, z.offered, n)
    if events is not None:
        events += _declaration_events(state, params, player, sell, buy)
    players = state.players[:i] + (Player(player.name, player.cash, tuple(zones)),) + state.players[i + 1 :]
    return evolve(state, players=players, declared=state.declared | {i})


def _declaration_events(state: State, params: Params, player: Player, sell: dict[int, int],
                        buy: dict[int, int]) -> list[Event]:
    """What a declaration tells: the offer, the request at today's quotes, or nothing."""
    name, codes, told = player.name, params.companies, []
    if sell:
        told.append(said.OFFERED(player=name, sell={codes[c]: n for c, n in sell.items()}))
    if buy:
        cost = sum(n * state.prices[c] for c, n in buy.items())
        told.append(said.REQUESTED(player=name, buy={codes[c]: n for c, n in buy.items()},
                                   prices={codes[c]: state.prices[c] for c in buy}, cost=cost, cash=player.cash))
    if not sell and not buy:
        told.append(said.NOTHING(player=name))
    return told


def _counts(params: Params, counts: Mapping[str, int]) -> dict[int, int]:
    """Company index → count, zero counts dropped, board order."""
    return dict(sorted((params.company(code), n) for code, n in counts.items() if n))


def _net(state: State, params: Params, events: Log) -> State:
    """BOLSA-3.2.6 `net`: a player's offer and request of one company cancel one for one, the
    cancelled cards back in zones 1 and 2."""
    for i, player in enumerate(state.players):
        for c, z in enumerate(player.zones):
            k = min(z.offered, z.requested)
            if k:
                z = Zones(z.owned + k, z.orders + k, z.offered - k, z.requested - k)
                player = player.with_zones(c, z)
                if events is not None:
                    events.append(said.NETTED(player=player.name, company=params.companies[c], shares=k))
        state = state.with_player(i, player)
    return state


def _reveal(state: State, params: Params, events: Log) -> State:
    """BOLSA-3.3.1 (and 3.2.6 `net`): the declarations are turned face up."""
    if params.same_company_both_ways is BothWays.NET:
        state = _net(state, params, events)
    if events is not None:
        offered = {code: sum(p.zones[c].offered for p in state.players) for c, code in enumerate(params.companies)}
        requested = {code: sum(p.zones[c].requested for p in state.players) for c, code in enumerate(params.companies)}
        events.append(said.REVEALED(round=state.round, offered=offered, requested=requested))
    return evolve(state, phase=TRADE, next_company=0)


# --- BOLSA-3.3, 4.7.1, 4.1–4.6: bringing up a company ----------------------------------------


def _resolve(state: State, action: Resolve, params: Params, events: Log) -> State:
    if state.phase == DECLARE:
        state = _reveal(state, params, events)
    c = state.next_company
    code, quote = params.companies[c], state.prices[c]
    state = _solvent(state, c, params, events)
    offers, requests = sides(state, c)
    sellers, buyers = list(offers), list(requests)
    offered, wanted = sum(offers.values()), sum(requests.values())
    case = classify(offered, wanted)
    side, count, needed = called(case, len(buyers), len(sellers), params)
    auction = None
    if side is not None and count >= needed:
        bidders = buyers if side == "buyers" else sellers
        auction = Auction(ascending=case == 5, order=tuple(bidders))  # seating order = bidding order (5.2)
        if events is not None:
            events.append(said.AUCTION("BOLSA-4.5.2" if case == 5 else "BOLSA-4.6.2", company=code,
                                       ascending=case == 5, bidders=count, offered=offered, requested=wanted,
                                       quote=quote, order=[state.players[i].name for i in bidders]))
    return evolve(state, trade=Trade(c, case, quote, auction))


def _solvent(state: State, c: int, params: Params, events: Log) -> State:
    """BOLSA-4.7.1, solvency before classification: the requests for company `c` of each
    player who cannot pay them at the quote withdrawn."""
    code, quote = params.companies[c], state.prices[c]
    for i in state.seating():
        player = state.players[i]
        wanted = player.zones[c].requested
        if wanted and player.cash < wanted * quote:
            state, withdrawn = withdraw_requests(state, i, c, params)
            if events is not None:
                events.append(said.SHORT_OF_CASH(company=code, player=player.name, cash=player.cash, shares=wanted,
                                                 quote=quote, cost=wanted * quote, withdrawn=withdrawn))
    return state


# --- BOLSA-5 auctions --------------------------------------------------------------------------


def _bid(state: State, action: Bid, params: Params, events: Log) -> State:
    trade = state.trade
    assert trade is not None and trade.auction is not None  # a bid is admitted only in an auction under way
    auction, i, code = trade.auction, state.index(action.player), params.companies[trade.company]
    rule = "BOLSA-5.3" if auction.ascending else "BOLSA-5.4"
    if action.amount is None:
        auction = evolve(auction, passed=auction.passed + (i,))
        if events is not None:
            events.append(said.PASS(rule, company=code, player=action.player))
    else:
        auction = evolve(auction, best=action.amount, bidder=i)
        if events is not None:
            events.append(said.BID(rule, company=code, player=action.player, amount=action.amount))
    auction = _next_turn(auction)
    if auction.over and events is not None:
        ranking = [state.players[j].name for j in auction.ranking]
        events.append(said.WON(company=code, player=ranking[0], price=auction.price(trade.quote),
                               unbid=auction.best is None, ranking=ranking))
    return evolve(state, trade=evolve(trade, auction=auction))


def _next_turn(auction: Auction) -> Auction:
    if auction.over:
        return auction
    n, turn = len(auction.order), auction.turn
    while True:
        turn = (turn + 1) % n
        if auction.order[turn] not in auction.passed:
            return evolve(auction, turn=turn)


def _withdraw(state: State, action: Withdraw, params: Params, events: Log) -> State:
    """BOLSA-5.7 `may_withdraw`: a loser takes back all his cards of this company (3.4)."""
    trade = state.trade
    assert trade is not None  # a withdrawal is admitted only after an auction
    i = state.index(action.player)
    code, zones = params.companies[trade.company], state.players[i].zones[trade.company]
    if events is not None:
        events.append(said.WITHDRAWN(company=code, player=action.player, shares=zones.offered or zones.requested,
                                     side="offered" if zones.offered else "requested"))
    zones = Zones(zones.owned + zones.offered, zones.orders + zones.requested)
    return state.with_player(i, state.players[i].with_zones(trade.company, zones))


def _settle(state: State, action: Settle, params: Params, events: Log) -> State:
    return settle(state, action.pairing, params, events)


HANDLERS: dict[type, Callable[..., State]] = {  # the action's type → its handler
    Declare: _declare,
    Resolve: _resolve,
    Bid: _bid,
    Withdraw: _withdraw,
    Settle: _settle,
}
