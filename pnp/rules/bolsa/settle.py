"""Settling one company (BOLSA-4, 5.6, 3.4, 6), the end of a round (3.5) and scoring (7).

Every case comes down to the same three facts: the price, how many shares each buyer gets and
how many each seller gives. One side is fixed by the rules (the auction's allocation, or
"everyone"); when the other side has more cards than were traded, the players choose who
trades (BOLSA-4.8, given as `pairing`) or the automatic choice applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import mul
from typing import Mapping, Sequence

from pnp.rules.base import Event, Log, Malformed, Outcome, evolve, fast_init
from pnp.rules.bolsa import events as said
from pnp.rules.bolsa import refusals as refused
from pnp.rules.bolsa.params import Params
from pnp.rules.bolsa.rulebook import End, Tiebreak
from pnp.rules.bolsa.state import DECLARE, OVER, Auction, Pair, Player, State, Trade, Zones

Fills = dict[int, int]  # player index → shares


@fast_init
@dataclass(frozen=True)
class Terms:
    """What the rules fix for one company: the price, the next quote (before bounds), and the
    shares of each buyer and seller when the rules decide them — None for a side whose players
    choose among themselves who trades (BOLSA-4.8)."""

    price: int
    quote: int
    buys: Fills | None = None
    sells: Fills | None = None
    buyer_order: tuple[int, ...] = ()  # for automatic pairing: the ranking, else seating order


def classify(offered: int, wanted: int) -> int:
    """BOLSA-4.1–4.6: a company's case from the shares offered and requested — 1 neither,
    2 only offered, 3 only requested, 4 as many, 5 more requested, 6 more offered."""
    if not offered:
        return 3 if wanted else 1
    if not wanted:
        return 2
    return 4 if offered == wanted else 5 if wanted > offered else 6


def settle(state: State, pairing: Sequence[Pair] | None, params: Params, events: Log) -> State:
    """In the order of BOLSA-3.3.2: trades and payments (4.1–4.6, 5.6, 4.8), the quote (6),
    provisioning (3.4); after the last company, the end of the round (3.5). The position is
    built once, from the cash and the cards the settlement moved."""
    trade = state.trade
    assert trade is not None
    c, code = trade.company, params.companies[trade.company]
    offered, requested = sides(state, c)
    paid_up = state
    state, terms = _terms(state, trade, offered, requested, params, events)
    if state is not paid_up:  # a buyer who could not pay withdrew his requests (BOLSA-4.7.2)
        offered, requested = sides(state, c)
    buys, sells, transfers = _counterparties(state, c, terms, pairing, offered, requested, params)
    cash = [player.cash for player in state.players]
    for buyer, seller, n in transfers:
        amount = n * terms.price
        cash[buyer] -= amount
        cash[seller] += amount
        if events is not None:
            events.append(said.PAID(company=code, buyer=state.players[buyer].name, seller=state.players[seller].name,
                                    shares=n, price=terms.price, amount=amount, automatic=pairing is None))
    if trade.auction is not None and events is not None:
        events.append(said.AUCTION_QUOTE("BOLSA-4.5.2" if trade.case == 5 else "BOLSA-4.6.2", company=code,
                                         **{"from": trade.quote, "to": terms.price}))
    prices = _move_quote(state, c, terms.quote, params, events)
    players = _provision(state, c, buys, sells, cash, params, events)
    state = evolve(state, players=players, prices=prices, trade=None, next_company=c + 1)
    if state.next_company == len(params.companies):
        state = _end_round(state, params, events)
    return state


def sides(state: State, c: int) -> tuple[Fills, Fills]:
    """Who has cards of company `c` offered (zone 3) and requested (zone 4), each in seating
    order from the token holder."""
    offered: Fills = {}
    requested: Fills = {}
    for i in state.seating():
        zones = state.players[i].zones[c]
        if zones.offered:
            offered[i] = zones.offered
        if zones.requested:
            requested[i] = zones.requested
    return offered, requested


def _terms(state: State, trade: Trade, offered: Fills, requested: Fills, params: Params,
           events: Log) -> tuple[State, Terms]:
    """BOLSA-4.1–4.6 and 5.6 (with the payment check of 4.7.2, which can change the state)."""
    if trade.case <= 4:
        return state, _balanced_terms(state, trade, offered, requested, params, events)
    if trade.auction is None:
        return state, _one_side_terms(state, trade, offered, requested, params, events)
    return _auction_terms(state, trade, trade.auction, offered, requested, params, events)


def _balanced_terms(state: State, trade: Trade, offered: Fills, requested: Fills, params: Params,
                    events: Log) -> Terms:
    """BOLSA-4.1–4.4: nothing to trade, one side alone (the quote moves by its shares), or as
    many shares offered as requested (all trade at the quote)."""
    code, q = params.companies[trade.company], trade.quote
    supply, demand = sum(offered.values()), sum(requested.values())
    if trade.case == 1:
        if events is not None:
            events.append(said.UNTOUCHED(company=code, quote=q))
        return Terms(q, q)
    if trade.case == 2:
        if events is not None:
            events.append(said.UNWANTED(company=code, offered=supply, requested=0, **_moves(q, q - supply, params)))
        return Terms(q, q - supply)
    if trade.case == 3:
        if events is not None:
            events.append(said.UNOFFERED(company=code, offered=0, requested=demand, **_moves(q, q + demand, params)))
        return Terms(q, q + demand)
    if events is not None:
        events.append(said.MATCHED(company=code, offered=supply, requested=demand, price=q))
    return Terms(q, q, requested, offered, state.seating())


def _one_side_terms(state: State, trade: Trade, offered: Fills, requested: Fills, params: Params,
                    events: Log) -> Terms:
    """BOLSA-4.5.1 and 4.6.1, no auction: one buyer takes all that is offered, or the seller
    side sells what is wanted; the quote moves by what is left over."""
    code, q = params.companies[trade.company], trade.quote
    supply, demand = sum(offered.values()), sum(requested.values())
    if trade.case == 5:
        (buyer,) = requested
        unfilled = demand - supply
        if events is not None:
            events.append(said.ONE_BUYER(company=code, offered=supply, requested=demand,
                                         buyer=state.players[buyer].name, price=q, unfilled=unfilled,
                                         **_moves(q, q + unfilled, params)))
        return Terms(q, q + unfilled, {buyer: supply}, offered, state.seating())
    unsold = supply - demand
    if events is not None:
        events.append(said.SELLERS(company=code, offered=supply, sellers=[state.players[i].name for i in offered],
                                   requested=demand, price=q, unsold=unsold, **_moves(q, q - unsold, params)))
    return Terms(q, q - unsold, requested, None, state.seating())


def _auction_terms(state: State, trade: Trade, auction: Auction, offered: Fills, requested: Fills, params: Params,
                   events: Log) -> tuple[State, Terms]:
    """BOLSA-4.5.2 / 4.6.2: the auction's price and ranking decide (buyers who cannot pay
    withdraw, BOLSA-4.7.2, which changes the state)."""
    c = trade.company
    supply, demand = sum(offered.values()), sum(requested.values())
    price = auction.price(trade.quote)
    if trade.case == 5:
        state, buys = _allocate_buyers(state, c, auction.ranking, supply, price, params, events)
        terms = Terms(price, price, buys=buys, buyer_order=auction.ranking)
    else:
        terms = Terms(price, price, sells=allocate(auction.ranking, offered, demand), buyer_order=state.seating())
    if events is not None:
        fills = (terms.buys if terms.buys is not None else terms.sells) or {}
        events.append(said.ALLOCATED(company=params.companies[c], price=price,
                                     shares={state.players[i].name: fills.get(i, 0) for i in auction.ranking}))
    return state, terms


def _moves(q: int, new: int, params: Params) -> dict[str, int]:
    """A quote's move as an event states it: from Q to the new quote, kept on the track."""
    return {"from": q, "to": clamp(new, params)}


def _counterparties(
    state: State, c: int, terms: Terms, pairing: Sequence[Pair] | None, offered: Fills, requested: Fills,
    params: Params
) -> tuple[Fills, Fills, list[tuple[int, int, int]]]:
    """Each buyer's and seller's shares and who pays whom (BOLSA-4.8): the side the rules left
    open is chosen by the pairing or automatically; a given pairing must match both sides."""
    code, seats = params.companies[c], state.seating()
    fixed = terms.buys if terms.buys is not None else terms.sells
    traded = sum(fixed.values()) if fixed else 0
    chosen_buys, chosen_sells = _pairing_totals(state, c, pairing, traded, requested, offered, params)
    buys = terms.buys if terms.buys is not None else _choose(requested, traded, seats, chosen_buys, True, code)
    sells = terms.sells if terms.sells is not None else _choose(offered, traded, seats, chosen_sells, False, code)
    if pairing is None:
        return buys, sells, _auto_pairs(buys, sells, terms.buyer_order, seats)
    _check_totals(state, code, buys, chosen_buys, True)
    _check_totals(state, code, sells, chosen_sells, False)
    return buys, sells, [(state.index(p.buyer), state.index(p.seller), p.shares) for p in pairing]


def allocate(ranking: Sequence[int], cards: Mapping[int, int], total: int) -> Fills:
    """BOLSA-5.6: in ranking order each takes min(his cards, what is left)."""
    fills, left = {}, total
    for i in ranking:
        take = min(cards.get(i, 0), left)
        if take:
            fills[i], left = take, left - take
    return fills


def _allocate_buyers(
    state: State, c: int, ranking: Sequence[int], supply: int, price: int, params: Params, events: Log
) -> tuple[State, Fills]:
    """BOLSA-5.6 with the payment check of 4.7.2: a buyer who cannot pay withdraws, and his
    share passes down the ranking."""
    fills, left, code = {}, supply, params.companies[c]
    for i in ranking:
        player = state.players[i]
        take = min(player.zones[c].requested, left)
        if take and player.cash < take * price:
            state, withdrawn = withdraw_requests(state, i, c, params)
            if events is not None:
                events.append(said.CANNOT_PAY(company=code, player=player.name, shares=take, price=price,
                                              cost=take * price, cash=player.cash, withdrawn=withdrawn))
            continue
        if take:
            fills[i], left = take, left - take
    return state, fills


def withdraw_requests(state: State, i: int, c: int, params: Params) -> tuple[State, dict[str, int]]:
    """BOLSA-4.7: all of a player's requests for company `c` and later go back to zone 2; the
    requests withdrawn, per company."""
    player, moved = state.players[i], {}
    for k in range(c, len(params.companies)):
        z = player.zones[k]
        if z.requested:
            moved[params.companies[k]] = z.requested
            player = player.with_zones(k, evolve(z, orders=z.orders + z.requested, requested=0))
    return state.with_player(i, player), moved


def _pairing_totals(
    state: State, c: int, pairing: Sequence[Pair] | None, traded: int, requested: Fills, offered: Fills, params: Params
) -> tuple[Fills | None, Fills | None]:
    """BOLSA-4.8: shares per buyer and per seller in the players' pairing, if they gave one."""
    if pairing is None:
        return None, None
    code = params.companies[c]
    if not traded:
        raise refused.PAIRING_UNTRADED(company=code)
    buys: Fills = {}
    sells: Fills = {}
    for pair in pairing:
        buyer, seller = state.index(pair.buyer), state.index(pair.seller)
        if buyer not in requested:
            raise refused.PAIRED_NON_BUYER(player=pair.buyer, company=code)
        if seller not in offered:
            raise refused.PAIRED_NON_SELLER(player=pair.seller, company=code)
        if pair.shares < 1:
            raise Malformed(f"a pairing moves at least 1 share, got {pair.shares}")
        buys[buyer] = buys.get(buyer, 0) + pair.shares
        sells[seller] = sells.get(seller, 0) + pair.shares
    for chosen, cards, buying in ((buys, requested, True), (sells, offered, False)):
        for i, n in chosen.items():
            if n > cards[i]:
                raise refused.PAIRED_TOO_MANY(player=state.players[i].name, buying=buying, shares=n, company=code,
                                              cards=cards[i])
    return buys, sells


def _choose(cards: Fills, traded: int, seats: Sequence[int], chosen: Fills | None, buying: bool, code: str) -> Fills:
    """The side with more cards than were traded: the players' choice, else the automatic one
    (seating order from the token holder; later players keep theirs, BOLSA-4.8)."""
    if chosen is None:
        return allocate(seats, cards, traded)
    if sum(chosen.values()) != traded:
        raise refused.PAIRED_TOTAL(buying=buying, paired=sum(chosen.values()), company=code, traded=traded)
    return chosen


def _check_totals(state: State, code: str, fills: Fills, chosen: Fills | None, buying: bool) -> None:
    for i in sorted(set(fills) | set(chosen or {})):
        want, got = fills.get(i, 0), (chosen or {}).get(i, 0)
        if want != got:
            raise refused.PAIRED_SHARE(player=state.players[i].name, buying=buying, paired=got, company=code,
                                       traded=want)


def _auto_pairs(
    buys: Fills, sells: Fills, buyer_order: Sequence[int], seats: Sequence[int]
) -> list[tuple[int, int, int]]:
    """BOLSA-4.8 automatic pairing: buyers in ranking (else seating) order take shares from
    sellers in seating order from the token holder."""
    left = {i: sells[i] for i in seats if sells.get(i)}
    pairs = []
    for buyer in buyer_order:
        need = buys.get(buyer, 0)
        for seller in list(left):
            if not need:
                break
            n = min(need, left[seller])
            pairs.append((buyer, seller, n))
            need -= n
            left[seller] -= n
            if not left[seller]:
                del left[seller]
    return pairs


def _provision(state: State, c: int, buys: Fills, sells: Fills, cash: list[int], params: Params,
               events: Log) -> tuple[Player, ...]:
    """BOLSA-3.4: sold 3 → 2, unsold 3 → 1, bought 4 → 1, unbought 4 → 2; and each player's cash
    after the payments (only traders pay or are paid)."""
    players, moves = list(state.players), {}
    for i in state.seating():
        player = players[i]
        z = player.zones[c]
        if not z.offered and not z.requested:
            continue
        sold, bought = sells.get(i, 0), buys.get(i, 0)
        if events is not None:
            moves[player.name] = {"sold": sold, "unsold": z.offered - sold, "bought": bought,
                                  "unbought": z.requested - bought}
        zones = Zones(z.owned + z.offered - sold + bought, z.orders + sold + z.requested - bought)
        players[i] = Player(player.name, cash[i], player.zones[:c] + (zones,) + player.zones[c + 1 :])
    if moves and events is not None:
        events.append(said.PROVISIONED(company=params.companies[c], moves=moves))
    return tuple(players)


def clamp(quote: int, params: Params) -> int:
    """BOLSA-6.1: quotes stay on the track (no top under `unbounded_top`)."""
    quote = max(quote, params.price_min)
    return quote if params.price_max is None else min(quote, params.price_max)


def _move_quote(state: State, c: int, raw: int, params: Params, events: Log) -> tuple[int, ...]:
    """BOLSA-6: the quotes with company `c`'s moved to `raw`, kept on the track; its token
    flipped or turned face up where it crosses the end of the row."""
    code, old, new = params.companies[c], state.prices[c], clamp(raw, params)
    if events is None:
        return state.prices[:c] + (new,) + state.prices[c + 1 :]
    if new != raw:
        events.append(said.CLAMPED(company=code, quote=raw, to=new))
    top = params.top_cell
    if old <= top < new:
        cell = new - params.board_cells
        events.append(said.FLIPPED(company=code, cells=params.board_cells, cell=cell if cell <= top else None,
                                   **{"from": old, "to": new}))
    elif new <= top < old:
        events.append(said.FACE_UP(company=code, **{"from": old, "to": new}))
    elif new > top + params.board_cells and new != old:
        events.append(said.OFF_BOARD(company=code, quote=new))
    return state.prices[:c] + (new,) + state.prices[c + 1 :]


# --- BOLSA-3.5 end of round, BOLSA-7 end of game ---------------------------------------------


def _end_round(state: State, params: Params, events: Log) -> State:
    n = len(state.players)
    token = (state.token + 1) % n
    if events is not None:
        events.append(said.TOKEN_PASSED(**{"from": state.players[state.token].name, "to": state.players[token].name}))
    if state.round < params.rounds:
        if events is not None:
            events.append(said.NEXT_ROUND(**{"from": state.round, "to": state.round + 1}))
        return evolve(state, token=token, declared=frozenset(), next_company=0, round=state.round + 1, phase=DECLARE)
    state = evolve(state, token=token, declared=frozenset(), next_company=0, phase=OVER)
    if events is not None:
        events += _final_events(state, params)
    return state


def _final_events(state: State, params: Params) -> list[Event]:
    """The game's end, told: the last round, each player's shares bought back, the result."""
    events = [said.LAST_ROUND(round=state.round)]
    scores = final_scores(state, params)
    for player in state.players:
        owned = {code: z.owned for code, z in zip(params.companies, player.zones, strict=True) if z.owned}
        events.append(said.BOUGHT_BACK(player=player.name, shares=owned,
                                       prices={code: q for code, q in zip(params.companies, state.prices, strict=True) if code in owned},
                                       payout=scores[player.name] - player.cash, cash=player.cash,
                                       score=scores[player.name]))
    best = max(scores.values())
    tied = [p.name for p in state.players if scores[p.name] == best]
    events.append(said.RESULT(winners=list(winners(state, params)), tied=tied, score=best))
    return events


def final_scores(state: State, params: Params) -> dict[str, int]:
    """BOLSA-7.1: cash plus every zone-1 card bought by the bank at its company's quote."""
    names, cash, owned = holdings(state)
    return dict(zip(names, scores(cash, owned, state.prices), strict=True))


def winners(state: State, params: Params) -> tuple[str, ...]:
    """BOLSA-7.2: the most money; ties shared, or broken by cash before the payout."""
    names, cash, owned = holdings(state)
    return tuple(names[i] for i in ahead(scores(cash, owned, state.prices), cash, params.tiebreak))


def final_outcome(names: Sequence[str], cash: Sequence[int], owned: Sequence[Sequence[int]], prices: Sequence[int],
                  params: Params) -> Outcome:
    """BOLSA-7 from the numbers at the end (`engine.outcome`, and the fast playout's): each
    player's money after the bank buys his shares, and the winners."""
    points = scores(cash, owned, prices)
    return Outcome(dict(zip(names, points, strict=True)), tuple(names[i] for i in ahead(points, cash, params.tiebreak)),
                   End.LAST_ROUND)


def scores(cash: Sequence[int], owned: Sequence[Sequence[int]], prices: Sequence[int]) -> list[int]:
    """BOLSA-7.1 per player: his cash plus his zone-1 cards (per company) at their quotes."""
    return [money + sum(map(mul, cards, prices)) for money, cards in zip(cash, owned, strict=True)]


def ahead(points: Sequence[int], cash: Sequence[int], tiebreak: Tiebreak) -> list[int]:
    """BOLSA-7.2: the players (indices) with the most money; ties shared, or under
    `cash_before_payout` broken by the cash they held before the bank bought their shares."""
    best = max(points)
    tied = [i for i, score in enumerate(points) if score == best]
    if tiebreak is Tiebreak.CASH_BEFORE_PAYOUT:
        most = max(cash[i] for i in tied)
        tied = [i for i in tied if cash[i] == most]
    return tied


def holdings(state: State) -> tuple[list[str], list[int], list[list[int]]]:
    """The players' names, cash and zone-1 cards per company: what scoring reads."""
    players = state.players
    return [p.name for p in players], [p.cash for p in players], [[z.owned for z in p.zones] for p in players]
