"""Bolsa's rules as pure functions: `setup`, then `apply(state, action, params)` step by step.

A round is: one `Declare` per player who declares (BOLSA-3.2), then for each company in board
order `Resolve` (solvency, classification, maybe an auction), the auction's `Bid`s, any
`Withdraw`s, and `Settle` (trades, quote, provisioning; after the last company the end of the
round and, after the last round, final scoring). `apply` accepts an action exactly when one
of `legal_actions`' templates admits it (`legal.judge`), the pairing of a settlement (BOLSA-4.8)
checked beyond them; the handlers' checks word a refusal: `Violation` with the rule ID and the
numbers, or Malformed for a name that does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from pnp.errors import brief
from pnp.i18n import _, ngettext
from pnp.rules.base import (
    Event,
    Events,
    Log,
    Malformed,
    Number,
    Observer,
    Outcome,
    Played,
    Table,
    ToMove,
    Trace,
    Violation,
    by_identity,
    evolve,
)
from pnp.rules.bolsa import events as said
from pnp.rules.bolsa.params import CARDS_EACH, ORDERS_AT_SETUP, OWNED_AT_SETUP, Params, params
from pnp.rules.bolsa.rulebook import RULEBOOK
from pnp.rules.bolsa.settle import classify, final_outcome, holdings, scores, settle, withdraw_requests
from pnp.rules.bolsa.state import (
    DECLARE,
    TRADE,
    Action,
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

# Besides the contract, the names a caller of this game uses (`from pnp.rules.bolsa import engine`
# is the game's whole API): the package itself holds only what the spec layer reads on each load.
from pnp.rules.bolsa.state import OVER as OVER
from pnp.rules.bolsa.state import Pair as Pair
from pnp.rules.legal import AtMostOne, Budget, Constraint, Field, Template, grouped, judge, last_position

if TYPE_CHECKING:
    import random

__all__ = ["RULEBOOK", "Start", "apply", "check_players", "deal", "determinize", "legal_actions", "marks", "moves",
           "outcome", "params", "playout", "setup", "tables", "to_move", "view", "worth"]


@dataclass(frozen=True)
class Start:
    """A position to start from (a record's `start`); what is omitted is the standard setup.

    For a company where only one of `owned`/`orders` is given, the other is the rest of the
    player's 3 cards (BOLSA-2.6), so a dispute needs to write only what differs.
    """

    round: int | None = None
    token: str | None = None
    prices: Mapping[str, int] = field(default_factory=dict)
    cash: Mapping[str, int] = field(default_factory=dict)
    owned: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # player → company → n
    orders: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


def check_players(params: Params, count: int) -> None:
    """BOLSA-1.9: 3–6 players, and 3 cards of each company for each of them."""
    if not params.min_players <= count <= params.max_players:
        seats = f"{params.min_players}–{params.max_players}"
        raise Violation("BOLSA-1.9", f"the game is for {seats} players, not {count}")
    if count * CARDS_EACH > params.deck_per_company:
        raise Violation(
            "BOLSA-1.9",
            f"{count} players need {count * CARDS_EACH} cards of each company, "
            f"but the deck has {params.deck_per_company}",
        )


def deal(params: Params, players: Sequence[str], rng: random.Random) -> Start | None:
    """Bolsa's setup has nothing random (BOLSA-2: every player gets the same cards and money;
    the starting player, at random, is the first of the seating the caller gives): None, the
    standard setup, and `rng` is not drawn from."""
    return None


def setup(params: Params, names: Sequence[str], start: Start | None = None) -> tuple[State, Events]:
    """BOLSA-2: quotes on the start cell, cash, 1 + 2 cards of each company, the token."""
    if start is None or start == _STANDARD:  # laid out once per rule set and seating: a simulation deals thousands
        return _standard(params, tuple(names))
    return _setup(params, names, start)


def _setup(params: Params, names: Sequence[str], start: Start) -> tuple[State, Events]:
    n = len(names)
    check_players(params, n)
    _check_names(params, names, start)
    round_ = _start_round(params, start)
    for name, cash in start.cash.items():
        if cash < 0:
            raise Violation("BOLSA-2.2", f"{name} starts with {cash} in money: a player holds none or more")
    prices = _start_prices(params, start)
    players = tuple(
        Player(name, start.cash.get(name, params.start_cash), _start_zones(params, name, start)) for name in names
    )
    _check_owned(params, players)
    state = State(players, prices, round=round_, token=names.index(start.token) if start.token else 0)
    return state, _setup_events(params, state)


def _start_round(params: Params, start: Start) -> int:
    """The round the start is in, 1 unless it says, one of the game's (BOLSA-3.1)."""
    round_ = start.round if start.round is not None else 1
    if round_ > params.rounds:
        raise Violation("BOLSA-3.1", f"the start is round {round_}, but the game has {params.rounds} rounds")
    if round_ < 1:
        raise Violation("BOLSA-3.1", f"the start is round {round_}, but the rounds count from 1")
    return round_


def _start_prices(params: Params, start: Start) -> tuple[int, ...]:
    """Each company's quote, the start's or the start cell, on the quote track (BOLSA-6.1)."""
    prices = tuple(start.prices.get(code, params.start_quote) for code in params.companies)
    for code, price in zip(params.companies, prices, strict=True):
        if price < params.price_min or (params.price_max is not None and price > params.price_max):
            raise Violation("BOLSA-6.1", f"{code} starts at {price}, off the quote track ({_bounds(params)})")
    return prices


def _check_owned(params: Params, players: tuple[Player, ...]) -> None:
    """BOLSA-2.6: of each company, the players own one share each in all (trades only move them)."""
    n = len(players)
    for c, code in enumerate(params.companies):
        owned = sum(p.zones[c].owned for p in players)
        if owned != n:
            raise Violation(
                "BOLSA-2.6",
                f"{owned} {code} shares are owned in all, but {n} players own exactly {n} "
                f"({OWNED_AT_SETUP} each at setup; trades only move them)",
            )


def _setup_events(params: Params, state: State) -> Events:
    """The setup as told: the deal, the quotes, the cash, the holdings (each unusual one, or
    the standard ones) and who holds the token."""
    codes, players, n = params.companies, state.players, len(state.players)
    dealt, box = n * CARDS_EACH * len(codes), (params.deck_per_company - n * CARDS_EACH) * len(codes)
    events = [
        said.DEALT(players=n, dealt=dealt, box=box, box_each=box // len(codes)),
        said.QUOTES(prices=dict(zip(codes, state.prices, strict=True)), round=state.round),
        said.CASH(cash={p.name: p.cash for p in players}),
    ]
    standard = tuple(Zones() for _ in codes)
    unusual = [p for p in players if p.zones != standard]
    for p in unusual:
        events.append(said.HOLDS(player=p.name, owned={code: z.owned for code, z in zip(codes, p.zones, strict=True)},
                                 orders={code: z.orders for code, z in zip(codes, p.zones, strict=True)}))
    if not unusual:
        events.append(said.STANDARD_HOLDINGS(owned=OWNED_AT_SETUP, orders=ORDERS_AT_SETUP))
    events.append(said.TOKEN(player=players[state.token].name))
    return tuple(events)


_STANDARD = Start()


@by_identity(64)
def _standard(params: Params, names: tuple[str, ...]) -> tuple[State, Events]:
    return _setup(params, names, _STANDARD)


def _check_names(params: Params, names: Sequence[str], start: Start) -> None:
    """A start names only the game's players and companies (Malformed otherwise)."""
    for name in (*start.cash, *start.owned, *start.orders, *([start.token] if start.token else [])):
        if name not in names:
            raise Malformed(f"the start names {brief(name)}, who is not playing ({', '.join(names)})")
    for counts in (start.prices, *start.owned.values(), *start.orders.values()):
        for code in counts:
            params.company(code)  # Malformed for a company the game has not


def _start_zones(params: Params, name: str, start: Start) -> tuple[Zones, ...]:
    owned, orders = start.owned.get(name, {}), start.orders.get(name, {})
    zones = []
    for code in params.companies:
        own = owned.get(code, CARDS_EACH - orders[code] if code in orders else OWNED_AT_SETUP)
        order = orders.get(code, CARDS_EACH - own)
        if own < 0 or order < 0 or own + order != CARDS_EACH:
            raise Violation(
                "BOLSA-2.6",
                f"{name} starts with {own} {code} in zone 1 and {order} in zone 2, "
                f"but every player has exactly {CARDS_EACH} {code} cards",
            )
        zones.append(Zones(own, order))
    return tuple(zones)


def apply(state: State, action: Action, params: Params, events: bool = True) -> tuple[State, Events]:
    """Apply one action; the new state and the events it caused, each citing its rule (none
    made when `events` is False)."""
    if state.over:
        raise Violation("BOLSA-3.5.2", f"the game ended after round {state.round}; nothing more can be played")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise Malformed(f"{brief(action)} is not an action of Bolsa (Declare, Resolve, Bid, Withdraw, Settle)")
    judge(legal_actions(state, params), action, lambda: handler(state, action, params, None), _KINDS[type(action)])
    log: Log = [] if events else None
    state = handler(state, action, params, log)
    return state, tuple(log) if log else ()


# --- BOLSA-3.2 declarations ----------------------------------------------------------------


def _declare(state: State, action: Declare, params: Params, events: Log) -> State:
    name, codes = action.player, params.companies
    i = state.index(name)
    if state.phase != DECLARE:
        raise Violation("BOLSA-3.2.7", f"{name} declares after the trade phase of round {state.round} began")
    if i in state.declared:
        raise Violation("BOLSA-3.2.1", f"{name} has already declared in round {state.round}")
    player = state.players[i]
    sell, buy = _counts(params, action.sell), _counts(params, action.buy)
    _check_declared_cards(params, player, sell, buy)
    cost = sum(n * state.prices[c] for c, n in buy.items())
    if params.declaration_cash_check == "total" and cost > player.cash:
        terms = " + ".join(f"{n} {codes[c]} at {state.prices[c]}" for c, n in buy.items())
        raise Violation("BOLSA-3.2.5", f"{name} requests {terms} = {cost} but holds {player.cash}")
    zones = list(player.zones)
    for c, n in sell.items():
        z = zones[c]
        zones[c] = Zones(z.owned - n, z.orders, n, z.requested)
    for c, n in buy.items():
        z = zones[c]
        zones[c] = Zones(z.owned, z.orders - n, z.offered, n)
    if events is not None:
        events += _declaration_events(state, params, player, sell, buy, cost)
    players = state.players[:i] + (Player(name, player.cash, tuple(zones)),) + state.players[i + 1 :]
    return evolve(state, players=players, declared=state.declared | {i})


def _check_declared_cards(params: Params, player: Player, sell: dict[int, int], buy: dict[int, int]) -> None:
    """The declaration offers only shares owned (BOLSA-3.2.2), requests only as many as the
    order cards (3.2.3), and offers and requests one company only where the rules allow it
    (3.2.6)."""
    name, codes = player.name, params.companies
    for c, n in sell.items():
        if n > player.zones[c].owned:
            raise Violation("BOLSA-3.2.2", f"{name} offers {n} {codes[c]} but owns {player.zones[c].owned}")
    for c, n in buy.items():
        if n > player.zones[c].orders:
            orders = player.zones[c].orders
            raise Violation("BOLSA-3.2.3", f"{name} requests {n} {codes[c]} but has {orders} order cards of it")
    both = [codes[c] for c in sell if c in buy]
    if both and params.same_company_both_ways == "forbid":
        raise Violation("BOLSA-3.2.6", f"{name} both offers and requests {', '.join(both)} in one round")


def _declaration_events(state: State, params: Params, player: Player, sell: dict[int, int], buy: dict[int, int],
                        cost: int) -> list[Event]:
    """What a declaration tells: the offer, the request at today's quotes, or nothing."""
    name, codes, told = player.name, params.companies, []
    if sell:
        told.append(said.OFFERED(player=name, sell={codes[c]: n for c, n in sell.items()}))
    if buy:
        told.append(said.REQUESTED(player=name, buy={codes[c]: n for c, n in buy.items()},
                                   prices={codes[c]: state.prices[c] for c in buy}, cost=cost, cash=player.cash))
    if not sell and not buy:
        told.append(said.NOTHING(player=name))
    return told


def _counts(params: Params, counts: Mapping[str, int]) -> dict[int, int]:
    """Company index → count, zero counts dropped, board order."""
    result = {}
    for code, n in counts.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise Malformed(f"a count of {code} cards must be a whole number ≥ 0, got {brief(n)}")
        if n:
            result[params.company(code)] = n
    return dict(sorted(result.items()))


def _reveal(state: State, params: Params, events: Log) -> State:
    """BOLSA-3.3.1 (and 3.2.6 `net`): the declarations are turned face up."""
    if params.same_company_both_ways == "net":
        for i, player in enumerate(state.players):
            for c, z in enumerate(player.zones):
                k = min(z.offered, z.requested)
                if k:
                    z = Zones(z.owned + k, z.orders + k, z.offered - k, z.requested - k)
                    player = player.with_zones(c, z)
                    if events is not None:
                        events.append(said.NETTED(player=player.name, company=params.companies[c], shares=k))
            state = state.with_player(i, player)
    if events is not None:
        offered, requested = ({code: sum(getattr(p.zones[c], zone) for p in state.players)
                               for c, code in enumerate(params.companies)} for zone in ("offered", "requested"))
        events.append(said.REVEALED(round=state.round, offered=offered, requested=requested))
    return evolve(state, phase=TRADE, next_company=0)


# --- BOLSA-3.3, 4.7.1, 4.1–4.6: bringing up a company ----------------------------------------


def _resolve(state: State, action: Resolve, params: Params, events: Log) -> State:
    if state.phase == DECLARE:
        state = _reveal(state, params, events)
    if state.trade is not None:
        code = params.companies[state.trade.company]
        raise Violation("BOLSA-3.3.2", f"{code} is not settled yet; companies are resolved one at a time")
    c = state.next_company
    code, quote = params.companies[c], state.prices[c]
    seats = state.seating()
    for i in seats:  # BOLSA-4.7.1: solvency before classification
        player = state.players[i]
        wanted = player.zones[c].requested
        if wanted and player.cash < wanted * quote:
            state, withdrawn = withdraw_requests(state, i, c, params)
            if events is not None:
                events.append(said.SHORT_OF_CASH(company=code, player=player.name, cash=player.cash, shares=wanted,
                                                 quote=quote, cost=wanted * quote, withdrawn=withdrawn))
    sellers, buyers, offered, wanted = [], [], 0, 0
    for i in seats:
        zones = state.players[i].zones[c]
        if zones.offered:
            sellers.append(i)
            offered += zones.offered
        if zones.requested:
            buyers.append(i)
            wanted += zones.requested
    case = classify(offered, wanted)
    auction = None
    excess = buyers if case == 5 else sellers if case == 6 else []
    needed = 3 if case == 6 and params.auction_trigger == "literal" else 2  # BOLSA-A2
    if len(excess) >= needed:
        auction = Auction(ascending=case == 5, order=tuple(excess))  # seating order = bidding order (5.2)
        if events is not None:
            events.append(said.AUCTION("BOLSA-4.5.2" if case == 5 else "BOLSA-4.6.2", company=code,
                                       ascending=case == 5, bidders=len(excess), offered=offered, requested=wanted,
                                       quote=quote, order=[state.players[i].name for i in excess]))
    return evolve(state, trade=Trade(c, case, quote, auction))


# --- BOLSA-5 auctions --------------------------------------------------------------------------


def _bid_range(state: State, trade: Trade, auction: Auction, params: Params) -> tuple[int, int] | None:
    """The bids open to the participant to act, (lowest, highest), or None if he can only pass."""
    i = auction.to_act
    if auction.ascending:
        low = trade.quote if auction.best is None else auction.best + 1
        wanted = state.players[i].zones[trade.company].requested
        high = state.players[i].cash // wanted  # BOLSA-A4: bid × requests ≤ cash
        if params.price_max is not None:
            high = min(high, params.price_max)
    else:
        high = trade.quote if auction.best is None else auction.best - 1
        low = params.price_min
    return (low, high) if low <= high else None


def _bid(state: State, action: Bid, params: Params, events: Log) -> State:
    name, trade = action.player, state.trade
    i = state.index(name)
    if trade is None:
        raise Violation("BOLSA-5.1", f"{name} bids, but no auction is running")
    code = params.companies[trade.company]
    if trade.auction is None:  # the company is up, and settles by its case without one
        raise Violation(_CASE_RULES[trade.case], f"{code} goes to no auction this round ({_why(state, params)}), "
                        f"yet {name} bids")
    auction = trade.auction
    rule = "BOLSA-5.3" if auction.ascending else "BOLSA-5.4"
    if auction.over:
        leader = state.players[auction.ranking[0]].name
        raise Violation(rule, f"the auction ended when all but {leader} had passed ({leader} won at "
                        f"{auction.price(trade.quote)}); {name} bids after its end")
    if i not in auction.order:
        side = "buyers" if auction.ascending else "sellers"
        who = ", ".join(state.players[j].name for j in auction.order)
        raise Violation("BOLSA-5.1", f"{name} is not in the {code} auction; only its {side} bid ({who})")
    if i in auction.passed:
        raise Violation(rule, f"{name} already passed in the {code} auction, and a pass is final")
    if i != auction.to_act:
        turn = state.players[auction.to_act].name
        raise Violation("BOLSA-5.2", f"{name} bids out of turn in the {code} auction: it is {turn}'s turn")
    if action.amount is None:
        auction = evolve(auction, passed=auction.passed + (i,))
        if events is not None:
            events.append(said.PASS(rule, company=code, player=name))
    else:
        _check_bid(state, trade, auction, params, action.amount, rule)
        auction = evolve(auction, best=action.amount, bidder=i)
        if events is not None:
            events.append(said.BID(rule, company=code, player=name, amount=action.amount))
    auction = _next_turn(auction)
    if auction.over and events is not None:
        ranking = [state.players[j].name for j in auction.ranking]
        events.append(said.WON(company=code, player=ranking[0], price=auction.price(trade.quote),
                               unbid=auction.best is None, ranking=ranking))
    return evolve(state, trade=evolve(trade, auction=auction))


def _check_bid(state: State, trade: Trade, auction: Auction, params: Params, amount: int, rule: str) -> None:
    player, code = state.players[auction.to_act], params.companies[trade.company]
    if auction.ascending:
        if auction.best is None and amount < trade.quote:
            raise Violation(rule, f"{player.name} opens the {code} auction at {amount}, below the quote {trade.quote}")
        if auction.best is not None and amount <= auction.best:
            raise Violation(rule, f"{player.name} bids {amount} on {code}, not above the high bid {auction.best}")
        if params.price_max is not None and amount > params.price_max:
            top = params.price_max
            raise Violation(rule, f"{player.name} bids {amount} on {code}, above the top of the quote track ({top})")
        wanted = player.zones[trade.company].requested
        if amount * wanted > player.cash:
            raise Violation(rule, f"{player.name} bids {amount} on {code}: {amount} × {wanted} requested = "
                            f"{amount * wanted} but holds {player.cash} (at most {player.cash // wanted})")
    else:
        if auction.best is None and amount > trade.quote:
            raise Violation(rule, f"{player.name} opens the {code} auction at {amount}, above the quote {trade.quote}")
        if auction.best is not None and amount >= auction.best:
            raise Violation(rule, f"{player.name} bids {amount} on {code}, not below the low bid {auction.best}")
        if amount < params.price_min:
            bottom = params.price_min
            raise Violation(rule, f"{player.name} bids {amount} on {code}, below the bottom of the quote track "
                            f"({bottom})")


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
    name, trade = action.player, state.trade
    i = state.index(name)
    if params.auction_losers != "may_withdraw":
        raise Violation("BOLSA-5.7", f"{name} may not withdraw: the losers of an auction trade at its price too")
    if trade is None or trade.auction is None or not trade.auction.over:
        raise Violation("BOLSA-5.7", f"{name} may withdraw only as a loser of a finished auction")
    code, zones = params.companies[trade.company], state.players[i].zones[trade.company]
    if i not in trade.auction.ranking[1:]:
        raise Violation("BOLSA-5.7", f"{name} did not lose the {code} auction, so he cannot withdraw from it")
    if not zones.offered and not zones.requested:
        raise Violation("BOLSA-5.7", f"{name} has already withdrawn from {code}")
    if events is not None:
        events.append(said.WITHDRAWN(company=code, player=name, shares=zones.offered or zones.requested,
                                     side="offered" if zones.offered else "requested"))
    zones = Zones(zones.owned + zones.offered, zones.orders + zones.requested)
    return state.with_player(i, state.players[i].with_zones(trade.company, zones))


def _settle(state: State, action: Settle, params: Params, events: Log) -> State:
    trade = state.trade
    if trade is None:
        raise Violation("BOLSA-3.3.2", "no company is being resolved")
    if trade.auction is not None and not trade.auction.over:
        to_act = state.players[trade.auction.to_act].name
        raise Violation("BOLSA-5.3", f"the {params.companies[trade.company]} auction is not over: {to_act} is to bid")
    return settle(state, action.pairing, params, events)


_HANDLERS: dict[type, Callable[..., State]] = {  # the action's type → its handler
    Declare: _declare,
    Resolve: _resolve,
    Bid: _bid,
    Withdraw: _withdraw,
    Settle: _settle,
}
_KINDS = {Declare: "declare", Resolve: "resolve", Bid: "bid", Withdraw: "withdraw", Settle: "settle"}  # its templates'


def _why(state: State, params: Params) -> str:
    """Why the company being resolved goes to no auction: its numbers, and under BOLSA-A2 what an
    auction would need."""
    trade = state.trade
    assert trade is not None
    c = trade.company
    offered = sum(p.zones[c].offered for p in state.players)
    wanted = sum(p.zones[c].requested for p in state.players)
    sides = {5: "buyer", 6: "seller"}.get(trade.case)
    if sides:
        count = sum(1 for p in state.players if (p.zones[c].requested if sides == "buyer" else p.zones[c].offered))
        needed = 3 if sides == "seller" and params.auction_trigger == "literal" else 2
        return f"{offered} offered, {wanted} wanted, {count} {sides}{'s' * (count != 1)}: an auction needs {needed} (BOLSA-A2)"
    return f"{offered} offered, {wanted} wanted: case {trade.case}"


# The rule that settles a company without an auction, by case (BOLSA-4.1–4.6).
_CASE_RULES = {1: "BOLSA-4.1", 2: "BOLSA-4.2", 3: "BOLSA-4.3", 4: "BOLSA-4.4", 5: "BOLSA-4.5.1", 6: "BOLSA-4.6.1"}


# --- helpers -------------------------------------------------------------------------------------


def _bounds(params: Params) -> str:
    if params.price_max is None:
        return f"at least {params.price_min}"
    return f"{params.price_min}–{params.price_max}"


# --- the contract: who acts, what is legal, how it ended (pnp.rules.base.Engine) -------------


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
    losers = tuple(state.players[i].name for i in _may_withdraw(state, params))
    return ToMove("withdraw", losers) if losers else ToMove("settle", ())


@last_position
def legal_actions(state: State, params: Params) -> tuple[Template, ...]:
    """Declarations (each company's offer within zone 1 and request within zone 2, the cost
    within cash, not both ways), bringing up the next company, bids within the bid range or a
    pass, withdrawals, and settling — the last two steps the table's, with automatic pairing."""
    if state.over:
        return ()
    if state.phase == DECLARE:
        waiting = [i for i in state.seating() if i not in state.declared]
        return (*(_declaration(state, params, i) for i in waiting), _REVEAL)
    trade = state.trade
    if trade is None:
        return (_BRING_UP,)
    auction = trade.auction
    if auction is not None and not auction.over:
        name, rule = state.players[auction.to_act].name, "BOLSA-5.3" if auction.ascending else "BOLSA-5.4"
        bids = _bid_range(state, trade, auction, params)
        passing = _passing(name, rule)
        if bids is None:
            return (passing,)
        return (Template("bid", name, rule, _bid_action, (Field.number("amount", *bids),), read=_bid_values), passing)
    if params.auction_losers != "may_withdraw":
        return (_SETTLE,)
    withdrawals = (Template("withdraw", state.players[i].name, "BOLSA-5.7", _withdraw_action)
                   for i in _may_withdraw(state, params))
    return (*withdrawals, _SETTLE)


@lru_cache(maxsize=64)
def _passing(name: str, rule: str) -> Template:
    return Template("pass", name, rule, _bid_action, fixed={"amount": None})


def _declaration(state: State, params: Params, i: int) -> Template:
    return _declaration_of(state.players[i], state.prices, params.companies,
                           params.same_company_both_ways == "forbid", params.declaration_cash_check == "total")


@lru_cache(maxsize=256)
def _declaration_of(player: Player, prices: tuple[int, ...], companies: tuple[str, ...], forbid: bool,
                    total: bool) -> Template:
    """A player's declaration template depends on his mat, his cash and the quotes alone; the
    players yet to declare are offered theirs at every step of a declaration phase, so each is
    made once."""
    names, pairs = _declaration_fields(companies, forbid)
    constraints: tuple[Constraint, ...] = pairs
    fields = tuple(Field.number(name, 0, getattr(zones, zone)) for zones, pair in zip(player.zones, names, strict=True)
                   for name, zone in pair)
    if total:
        costs = tuple((buy, quote) for ((_, _), (buy, _)), quote in zip(names, prices, strict=True))
        constraints += (Budget(costs, player.cash),)
    return Template("declare", player.name, "BOLSA-3.2", _declare_action, fields, constraints=constraints,
                    read=_declare_values)


@lru_cache(maxsize=16)
def _declaration_fields(companies: tuple[str, ...], forbid: bool) -> tuple[tuple[tuple[tuple[str, str], ...], ...],
                                                                         tuple[AtMostOne, ...]]:
    """Per company, a declaration's two fields and the zone that bounds each; and, under
    `same_company_both_ways = forbid`, at most one of them above zero. The same every round,
    so made once rather than at every step of the declaration phase."""
    names = tuple(((f"sell.{code}", "owned"), (f"buy.{code}", "orders")) for code in companies)
    return names, tuple(AtMostOne((sell, buy)) for (sell, _), (buy, _) in names) if forbid else ()


def _may_withdraw(state: State, params: Params) -> tuple[int, ...]:
    """BOLSA-5.7 under `may_withdraw`: the losers of a finished auction still holding cards."""
    trade = state.trade
    if params.auction_losers != "may_withdraw" or trade is None or trade.auction is None or not trade.auction.over:
        return ()
    zones = [state.players[i].zones[trade.company] for i in trade.auction.ranking[1:]]
    return tuple(i for i, z in zip(trade.auction.ranking[1:], zones, strict=True) if z.offered or z.requested)


def _declare_action(values: Mapping) -> Declare:
    return Declare(values["player"], grouped(values, "sell"), grouped(values, "buy"))


def _declare_values(action: object) -> dict[str, object] | None:
    """What a declaration states, by field (the inverse of `_declare_action`)."""
    if not isinstance(action, Declare):
        return None
    return {"player": action.player, **{f"sell.{code}": n for code, n in action.sell.items() if n != 0},
            **{f"buy.{code}": n for code, n in action.buy.items() if n != 0}}


def _bid_values(action: object) -> dict[str, object] | None:
    return {"player": action.player, "amount": action.amount} if isinstance(action, Bid) else None


def _settle_values(action: object) -> dict[str, object] | None:
    """A settlement states nothing a template chooses: its pairing is BOLSA-4.8's, checked by
    `settle` against the trades the rules fix."""
    return {} if isinstance(action, Settle) else None


def _resolve_action(values: Mapping) -> Resolve:
    return Resolve()


def _bid_action(values: Mapping) -> Bid:
    return Bid(values["player"], values["amount"])


def _withdraw_action(values: Mapping) -> Withdraw:
    return Withdraw(values["player"])


def _settle_action(values: Mapping) -> Settle:
    return Settle()


# The table's steps are the same in every position: made once.
_REVEAL = Template("resolve", None, "BOLSA-3.3.1", _resolve_action)
_BRING_UP = Template("resolve", None, "BOLSA-3.3.2", _resolve_action)
_SETTLE = Template("settle", None, "BOLSA-3.3.2", _settle_action, read=_settle_values)


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
    (`pnp.rules.bolsa.playout`, the `pnp.rules.base.Playout` of this engine); loaded on first
    use: a referee never needs it."""
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


def marks(params: Params) -> dict:
    return {}
