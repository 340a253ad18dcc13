"""Settling one company (BOLSA-4, 5.6, 3.4, 6), the end of a round (3.5) and scoring (7).

Every case comes down to the same three facts: the price, how many shares each buyer gets and
how many each seller gives. One side is fixed by the rules (the auction's allocation, or
"everyone"); when the other side has more cards than were traded, the players choose who
trades (BOLSA-4.8, given as `pairing`) or the automatic choice applies.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from pnp.rules.base import Event, Violation
from pnp.rules.bolsa.model import DECLARE, OVER, Pair, Params, State, Zones

Fills = dict[int, int]  # player index → shares


def settle(state: State, pairing: Sequence[Pair] | None, params: Params, events: list[Event]) -> State:
    trade = state.trade
    assert trade is not None
    c, quote, auction = trade.company, trade.quote, trade.auction
    code, seats = params.companies[c], state.seating()

    def name(i: int) -> str:
        return state.players[i].name

    offered, requested = _cards(state, c, "offered"), _cards(state, c, "requested")
    supply, demand = sum(offered.values()), sum(requested.values())
    price, new_quote, buyer_order = quote, quote, seats
    buys: Fills | None = None
    sells: Fills | None = None
    if trade.case == 1:
        events.append(Event("BOLSA-4.1", f"{code}: nothing offered or requested: stays at {quote}"))
    elif trade.case == 2:
        new_quote = quote - supply
        events.append(Event("BOLSA-4.2", f"{code}: {supply} offered, none wanted: {quote} → {_clamp(new_quote, params)}"))
    elif trade.case == 3:
        new_quote = quote + demand
        events.append(Event("BOLSA-4.3", f"{code}: none offered, {demand} wanted: {quote} → {_clamp(new_quote, params)}"))
    elif trade.case == 4:
        buys, sells = requested, offered
        events.append(Event("BOLSA-4.4", f"{code}: {supply} offered, {demand} wanted: all trade at {quote}; quote stays"))
    elif auction is None and trade.case == 5:  # BOLSA-4.5.1: one buyer takes all that is offered
        (buyer,) = requested
        buys, sells, new_quote = {buyer: supply}, offered, quote + demand - supply
        events.append(Event("BOLSA-4.5.1", f"{code}: {supply} offered, {demand} wanted by {name(buyer)} alone: "
                            f"{name(buyer)} buys {supply} at {quote}; {demand - supply} unfilled: {quote} → {_clamp(new_quote, params)}"))
    elif auction is None:  # BOLSA-4.6.1: the seller side sells what is wanted
        buys, new_quote = requested, quote - (supply - demand)
        who = ", ".join(name(i) for i in offered)
        events.append(Event("BOLSA-4.6.1", f"{code}: {supply} offered by {who}, {demand} wanted: {demand} sold at {quote}; "
                            f"{supply - demand} unsold: {quote} → {_clamp(new_quote, params)}"))
    else:  # BOLSA-4.5.2 / 4.6.2: the auction's price and ranking decide
        price = new_quote = auction.price(quote)
        ranking = [i for i in auction.ranking if (offered if trade.case == 6 else requested).get(i)]
        if trade.case == 5:
            state, buys = _allocate_buyers(state, c, ranking, supply, price, params, events)
            buyer_order = tuple(auction.ranking)
            requested = _cards(state, c, "requested")
        else:
            sells = _allocate(ranking, offered, demand)
        fills = buys if buys is not None else sells
        shown = ", ".join(f"{name(i)} {fills.get(i, 0)}" for i in auction.ranking)  # type: ignore[union-attr]
        events.append(Event("BOLSA-5.6", f"{code}: allocation at {price} in ranking order: {shown}"))
    if auction is not None:
        rule = "BOLSA-4.5.2" if trade.case == 5 else "BOLSA-4.6.2"
        events.append(Event(rule, f"{code}: the quote becomes the auction price: {quote} → {price}"))
    state = _move_quote(state, c, new_quote, params, events)
    traded = sum((buys if buys is not None else sells or {}).values())
    chosen_buys, chosen_sells = _pairing_totals(state, c, pairing, traded, requested, offered, params)
    if buys is None:
        buys = _choose(requested, traded, seats, chosen_buys, "buys", code)
    if sells is None:
        sells = _choose(offered, traded, seats, chosen_sells, "sells", code)
    if pairing is not None:
        _check_totals(state, code, buys, chosen_buys, "bought")
        _check_totals(state, code, sells, chosen_sells, "sold")
        transfers = [(state.index(p.buyer), state.index(p.seller), p.shares) for p in pairing]
    else:
        transfers = _auto_pairs(buys, sells, buyer_order, seats)
    for buyer, seller, n in transfers:
        state = _pay(state, buyer, seller, n * price)
        how = "as paired" if pairing is not None else "automatic pairing"
        events.append(Event("BOLSA-4.8", f"{code}: {name(buyer)} buys {n} from {name(seller)} at {price} = {n * price} ({how})"))
    state = _provision(state, c, buys, sells, params, events)
    state = replace(state, trade=None, next_company=c + 1)
    if state.next_company == len(params.companies):
        state = _end_round(state, params, events)
    return state


def _cards(state: State, c: int, zone: str) -> Fills:
    """Who has cards of company `c` in `zone`, in seating order from the token holder."""
    return {i: n for i in state.seating() if (n := getattr(state.players[i].zones[c], zone))}


def _allocate(ranking: Sequence[int], cards: Mapping[int, int], total: int) -> Fills:
    """BOLSA-5.6: in ranking order each takes min(his cards, what is left)."""
    fills, left = {}, total
    for i in ranking:
        take = min(cards.get(i, 0), left)
        if take:
            fills[i], left = take, left - take
    return fills


def _allocate_buyers(
    state: State, c: int, ranking: Sequence[int], supply: int, price: int, params: Params, events: list[Event]
) -> tuple[State, Fills]:
    """BOLSA-5.6 with the payment check of 4.7.2: a buyer who cannot pay withdraws, and his
    share passes down the ranking."""
    fills, left, code = {}, supply, params.companies[c]
    for i in ranking:
        player = state.players[i]
        take = min(player.zones[c].requested, left)
        if take and player.cash < take * price:
            state, withdrawn = withdraw_requests(state, i, c, params)
            events.append(Event("BOLSA-4.7.2", f"{code}: {player.name} cannot pay {take} × {price} = {take * price} with "
                                f"{player.cash}: withdraws all remaining requests ({withdrawn}); his share passes down"))
            continue
        if take:
            fills[i], left = take, left - take
    return state, fills


def withdraw_requests(state: State, i: int, c: int, params: Params) -> tuple[State, str]:
    """BOLSA-4.7: all of a player's requests for company `c` and later go back to zone 2."""
    player, moved = state.players[i], []
    for k in range(c, len(params.companies)):
        z = player.zones[k]
        if z.requested:
            moved.append(f"{params.companies[k]} {z.requested}")
            player = player.with_zones(k, replace(z, orders=z.orders + z.requested, requested=0))
    return state.with_player(i, player), ", ".join(moved)


def _pairing_totals(
    state: State, c: int, pairing: Sequence[Pair] | None, traded: int, requested: Fills, offered: Fills, params: Params
) -> tuple[Fills | None, Fills | None]:
    """BOLSA-4.8: shares per buyer and per seller in the players' pairing, if they gave one."""
    if pairing is None:
        return None, None
    code = params.companies[c]
    if not traded:
        raise Violation("BOLSA-4.8", f"a pairing is given for {code}, but no {code} shares change hands")
    buys: Fills = {}
    sells: Fills = {}
    for pair in pairing:
        buyer, seller = state.index(pair.buyer), state.index(pair.seller)
        if buyer not in requested:
            raise Violation("BOLSA-4.8", f"the pairing has {pair.buyer} buying {code}, but {pair.buyer} has no {code} requests")
        if seller not in offered:
            raise Violation("BOLSA-4.8", f"the pairing has {pair.seller} selling {code}, but {pair.seller} offered none")
        if pair.shares < 1:
            raise ValueError(f"a pairing moves at least 1 share, got {pair.shares}")
        buys[buyer] = buys.get(buyer, 0) + pair.shares
        sells[seller] = sells.get(seller, 0) + pair.shares
    for chosen, cards, verb in ((buys, requested, "buying"), (sells, offered, "selling")):
        for i, n in chosen.items():
            if n > cards[i]:
                who = state.players[i].name
                raise Violation("BOLSA-4.8", f"the pairing has {who} {verb} {n} {code}, but only {cards[i]} are his to trade")
    return buys, sells


def _choose(cards: Fills, traded: int, seats: Sequence[int], chosen: Fills | None, verb: str, code: str) -> Fills:
    """The side with more cards than were traded: the players' choice, else the automatic one
    (seating order from the token holder; later players keep theirs, BOLSA-4.8)."""
    if chosen is None:
        return _allocate(seats, cards, traded)
    if sum(chosen.values()) != traded:
        raise Violation("BOLSA-4.8", f"the pairing {verb} {sum(chosen.values())} {code}, but {traded} change hands")
    return chosen


def _check_totals(state: State, code: str, fills: Fills, chosen: Fills | None, verb: str) -> None:
    for i in sorted(set(fills) | set(chosen or {})):
        want, got = fills.get(i, 0), (chosen or {}).get(i, 0)
        if want != got:
            who = state.players[i].name
            raise Violation("BOLSA-4.8", f"the pairing has {who} trading {got} {code}, but {who} {verb} {want}")


def _auto_pairs(buys: Fills, sells: Fills, buyer_order: Sequence[int], seats: Sequence[int]) -> list[tuple[int, int, int]]:
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


def _pay(state: State, buyer: int, seller: int, amount: int) -> State:
    b = state.players[buyer]
    state = state.with_player(buyer, replace(b, cash=b.cash - amount))
    s = state.players[seller]
    return state.with_player(seller, replace(s, cash=s.cash + amount))


def _provision(state: State, c: int, buys: Fills, sells: Fills, params: Params, events: list[Event]) -> State:
    """BOLSA-3.4: sold 3 → 2, unsold 3 → 1, bought 4 → 1, unbought 4 → 2."""
    moves = []
    for i in state.seating():
        player = state.players[i]
        z = player.zones[c]
        if not z.offered and not z.requested:
            continue
        sold, bought = sells.get(i, 0), buys.get(i, 0)
        steps = [(sold, "3→2"), (z.offered - sold, "3→1"), (bought, "4→1"), (z.requested - bought, "4→2")]
        moves.append(f"{player.name} " + ", ".join(f"{n}: {move}" for n, move in steps if n))
        zones = Zones(z.owned + z.offered - sold + bought, z.orders + sold + z.requested - bought)
        state = state.with_player(i, player.with_zones(c, zones))
    if moves:
        events.append(Event("BOLSA-3.4", f"{params.companies[c]} cards: " + "; ".join(moves)))
    return state


def _clamp(quote: int, params: Params) -> int:
    """BOLSA-6.1: quotes stay on the track (no top under `unbounded_top`)."""
    quote = max(quote, params.price_min)
    return quote if params.price_max is None else min(quote, params.price_max)


def _move_quote(state: State, c: int, raw: int, params: Params, events: list[Event]) -> State:
    code, old, new = params.companies[c], state.prices[c], _clamp(raw, params)
    if new != raw:
        events.append(Event("BOLSA-6.1", f"{code}: {raw} is off the track: clamped to {new}"))
    top = params.top_cell
    if old <= top < new:
        where = f"on cell {new - params.board_cells}" if new - params.board_cells <= top else "beyond the board: note it on paper"
        events.append(Event("BOLSA-6.2", f"{code} {old} → {new}: token flipped (+{params.board_cells}) {where}"))
    elif new <= top < old:
        events.append(Event("BOLSA-6.2", f"{code} {old} → {new}: token turned face up on cell {new}"))
    elif new > top + params.board_cells and new != old:
        events.append(Event("BOLSA-6.1", f"{code} {new}: beyond the board, note it on paper"))
    return replace(state, prices=state.prices[:c] + (new,) + state.prices[c + 1 :])


# --- BOLSA-3.5 end of round, BOLSA-7 end of game ---------------------------------------------


def _end_round(state: State, params: Params, events: list[Event]) -> State:
    n = len(state.players)
    token = (state.token + 1) % n
    events.append(Event("BOLSA-3.5.1", f"auction-order token: {state.players[state.token].name} → {state.players[token].name}"))
    state = replace(state, token=token, declared=frozenset(), next_company=0)
    if state.round < params.rounds:
        events.append(Event("BOLSA-3.5.2", f"round {state.round} → {state.round + 1}"))
        return replace(state, round=state.round + 1, phase=DECLARE)
    events.append(Event("BOLSA-3.5.2", f"round {state.round} was the last: the game ends"))
    state = replace(state, phase=OVER)
    scores = final_scores(state, params)
    for player in state.players:
        terms = " + ".join(f"{z.owned} {code} × {q}" for code, z, q in zip(params.companies, player.zones, state.prices) if z.owned)
        payout = scores[player.name] - player.cash
        events.append(Event("BOLSA-7.1", f"the bank buys {player.name}'s shares: {terms or 'none'} = {payout}; "
                            f"{player.cash} + {payout} = {scores[player.name]}"))
    best = max(scores.values())
    tied = [p.name for p in state.players if scores[p.name] == best]
    won = winners(state, params)
    if len(tied) > 1 and len(won) < len(tied):
        how = f"{', '.join(tied)} tie at {best}; {', '.join(won)} had the most cash before the payout"
    elif len(won) > 1:
        how = f"{', '.join(won)} share the win with {best}"
    else:
        how = f"{won[0]} wins with {best}"
    events.append(Event("BOLSA-7.2", how))
    return state


def final_scores(state: State, params: Params) -> dict[str, int]:
    """BOLSA-7.1: cash plus every zone-1 card bought by the bank at its company's quote."""
    return {p.name: p.cash + sum(z.owned * q for z, q in zip(p.zones, state.prices)) for p in state.players}


def winners(state: State, params: Params) -> tuple[str, ...]:
    """BOLSA-7.2: the most money; ties shared, or broken by cash before the payout."""
    scores = final_scores(state, params)
    best = max(scores.values())
    tied = [p for p in state.players if scores[p.name] == best]
    if params.tiebreak == "cash_before_payout":
        most = max(p.cash for p in tied)
        tied = [p for p in tied if p.cash == most]
    return tuple(p.name for p in tied)
