"""Bolsa played fast by random bots: the engine's rules again, on mutable numbers.

`pnp simulate` plays thousands of games, and a search bot plays thousands of rollouts from
the middle of one. With every seat the random bot, the generic path (immutable positions,
templates, the shared sampler) spends most of its time building values nobody keeps;
`playout` plays the same game on lists of numbers (`pnp.rules.contract.Playout`), from any
position the engine reaches: a declaration phase with some declared, a company brought up, an
auction half bid, losers still to withdraw.

It is held to the engine, draw for draw: the slow path lets the first player `to_move` lists
choose among his templates (`legal.sample`: one pick, even among one template), else the table
takes its one step (one pick too). So a round is, from the token holder on, each declaration
(`legal.draw` of `listing._declaration_of`, field by field), then per company the Resolve
(`rounds._resolve`), the auction's turns (a pick of bid or pass, then the bid's amount), under
`may_withdraw` every loser's withdrawal (a random player never passes), and the Settle.

What it restates, and why: the declaration's draws (`legal.draw` of a Budget, unrolled: a
template per declaration costs more than the rest of the step), the solvency check (BOLSA-4.7,
a loop over one company's column), the auction's bid range (`listing.bid_range`, on plain
numbers) and a settlement's shares (`settle.settle` without its pairing, since the automatic
pairing of BOLSA-4.8 only says who pays whom: each buyer pays the price of his shares, each
seller is paid for his — the same sums). It reuses the engine's `classify`, `allocate` and
`clamp`, its setup and its scoring (`scores`, `final_outcome`). `tests/test_playout.py` plays
the same seeds both ways under every house rule and asserts equal results, and
`tests/test_playout_oracle.py` replays its trace through the engine step by step.

The watch is told what `BolsaProbe` reads of the equivalent position, when it changes: the
quotes and the cash after a settlement, each round's start (its worth read off a snapshot), and
at the end the final scores as money. With a `trace`, each action the playout takes is
appended with the position after it (`numbers`).
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass
from functools import partial
from typing import Any, Sequence

from pnp.rules.base import Observer, Played, Trace, by_identity
from pnp.rules.bolsa.params import Params
from pnp.rules.bolsa.rulebook import BothWays, CashCheck, Losers, Trigger
from pnp.rules.bolsa.settle import allocate, clamp, classify, final_outcome, scores
from pnp.rules.bolsa.state import DECLARE, Auction, Bid, Declare, Resolve, Settle, State, Trade, Withdraw

Grid = list[list[int]]  # zones: [seat][company] or [company][seat]
_RESOLVE, _SETTLE = Resolve(), Settle()


@dataclass(frozen=True)
class _Opening:
    """A position as the playout's numbers: per seat names and cash; zones 1 and 2 per seat
    and company; zones 3 and 4 per company and seat; the quotes, the round and the token."""

    names: list[str]
    cash: tuple[int, ...]
    owned: tuple[tuple[int, ...], ...]
    orders: tuple[tuple[int, ...], ...]
    offered: tuple[tuple[int, ...], ...]
    requested: tuple[tuple[int, ...], ...]
    prices: tuple[int, ...]
    round: int
    token: int


@by_identity(64)
def _opening(state: State) -> _Opening:
    """The position in numbers, made once per position (a simulation starts thousands of games
    from the one standard setup, which `engine.setup` keeps)."""
    players, companies = state.players, range(len(state.prices))
    return _Opening([p.name for p in players], tuple(p.cash for p in players),
                    tuple(tuple(z.owned for z in p.zones) for p in players),
                    tuple(tuple(z.orders for z in p.zones) for p in players),
                    tuple(tuple(p.zones[c].offered for p in players) for c in companies),
                    tuple(tuple(p.zones[c].requested for p in players) for c in companies),
                    state.prices, state.round, state.token)


def numbers(state: State) -> tuple[Any, ...]:
    """What the playout keeps of a position, as its trace gives it: cash; zones 1 to 4 per seat
    and company; the quotes, the round and the token."""
    players = state.players
    return (tuple(p.cash for p in players), tuple(tuple((z.owned, z.orders, z.offered, z.requested) for z in p.zones)
                                                  for p in players), state.prices, state.round, state.token)


def playout(params: Params, state: State, rng: _random.Random, watch: Observer, trace: Trace | None = None) -> Played:
    """From `state` to the end of the game, every seat the random bot."""
    table = _Table(params, _opening(state), rng, trace)
    if state.over:
        return Played(final_outcome(table.names, table.cash, table.owned, table.prices, params), 0, table.round)
    cash, prices = table.cash, table.prices
    companies, net = range(len(params.companies)), params.same_company_both_ways is BothWays.NET
    final = companies[-1]
    watch.track(tuple(prices))
    watch.money((tuple(cash),))
    watch.supplies(())
    watch.unit(table.worth())
    pending, first, trace = state.trade, state.next_company, table.trace
    if state.phase == DECLARE:
        declared, first = state.declared, 0
        for i in table.seats:  # the round begun: those who have not declared
            if i not in declared:
                table.declare(i)
    while True:
        if pending is None and first == 0:  # the declarations are revealed as the first company comes up
            if net:
                table.net()
        last = table.round == params.rounds
        for c in companies[first:]:
            quote = prices[c]
            paid = table.company(c, pending)
            pending = None
            if c == final:  # BOLSA-3.5: the token passes, and the next round begins
                table.pass_token()
                if not last:
                    table.round += 1
            if trace is not None:
                table.traced(_SETTLE)
            if prices[c] != quote:
                watch.track(tuple(prices))
            if paid and not (last and c == final):  # at the very end the probe reads scores
                watch.money((tuple(cash),))
        if last:
            break
        first = 0
        watch.unit(table.worth())
        for i in table.seats:
            table.declare(i)
    result = final_outcome(table.names, table.cash, table.owned, prices, params)
    watch.money((tuple(result.scores.values()),))
    return Played(result, table.steps, table.round)


def _seating(token: int, n: int) -> list[int]:
    return [(token + k) % n for k in range(n)]


class _Table:
    """The position as numbers: cash per seat; zones 1 and 2 (`owned`, `orders`) per seat and
    company, as declarations read them; zones 3 and 4 (`offered`, `requested`) per company and
    seat, as a company's resolution reads them; the quotes, the round, the token, and the steps
    taken so far."""

    __slots__ = ("params", "names", "random", "cash", "owned", "orders", "offered", "requested", "prices", "round",
                 "token", "seats", "steps", "companies", "both", "forbid", "total", "literal", "may_withdraw", "trace")

    def __init__(self, params: Params, opening: _Opening, rng: _random.Random, trace: Trace | None):
        self.params, self.names, self.random = params, opening.names, rng.random
        self.cash, self.prices = list(opening.cash), list(opening.prices)
        self.owned: Grid = [list(row) for row in opening.owned]
        self.orders: Grid = [list(row) for row in opening.orders]
        self.offered: Grid = [list(row) for row in opening.offered]
        self.requested: Grid = [list(row) for row in opening.requested]
        self.round, self.token, self.steps, self.trace = opening.round, opening.token, 0, trace
        self.seats = _seating(self.token, len(self.names))  # everyone from the token holder (BOLSA-4.8, 5.2)
        count = len(opening.prices)
        self.companies = range(count)
        self.both = [2] * count  # without `forbid`, each company's offer and request are both free
        self.forbid = params.same_company_both_ways is BothWays.FORBID
        self.total = params.declaration_cash_check is CashCheck.TOTAL
        self.literal = params.auction_trigger is Trigger.LITERAL
        self.may_withdraw = params.auction_losers is Losers.MAY_WITHDRAW

    def pass_token(self) -> None:
        """BOLSA-3.5: the token passes clockwise at the end of a round."""
        self.token = (self.token + 1) % len(self.names)
        self.seats = _seating(self.token, len(self.names))

    def traced(self, action: Any) -> None:
        """With a trace: the action just taken and the position after it."""
        if self.trace is not None:
            offered, requested = self.offered, self.requested
            zones = tuple(tuple((own, order, offered[c][i], requested[c][i]) for c, (own, order) in
                                enumerate(zip(self.owned[i], self.orders[i], strict=True))) for i in range(len(self.names)))
            self.trace.append((action, (tuple(self.cash), zones, tuple(self.prices), self.round, self.token)))

    # --- BOLSA-3.2: a declaration, drawn as `legal.draw` draws the declaration template ---

    def declare(self, i: int) -> None:
        """The declarer's one template is picked (a draw), then its fields: under `forbid`,
        per company a pick of the side that may be non-zero (AtMostOne); the offers (and,
        without the cash check, the requests) in field order; with it, the requests under the
        Budget: those at a quote of 0 first, then the others in a shuffled order, each within
        what is left of his cash. A zeroed field draws nothing; every other field draws once,
        even when its range is 0…0."""
        random, owned, orders, offered, requested = self.random, self.owned[i], self.orders[i], self.offered, self.requested
        companies, total = self.companies, self.total
        self.steps += 1
        random()  # legal.sample: the declarer's only template
        # under `forbid`, pick(("sell.X", "buy.X")) per company: int(r × 2) is 1 exactly when r ≥ 0.5
        free = [random() >= 0.5 for _ in companies] if self.forbid else self.both  # 0 offer, 1 request, 2 both
        for c, side in enumerate(free):
            if side != 1:
                k = int(random() * (owned[c] + 1))
                if k:
                    owned[c] -= k
                    offered[c][i] = k
            if side != 0 and not total:
                k = int(random() * (orders[c] + 1))
                if k:
                    orders[c] -= k
                    requested[c][i] = k
        if total:
            self.requests_within_cash(i, free)
        if self.trace is not None:
            self.trace_declaration(i)

    def requests_within_cash(self, i: int, free: Sequence[int]) -> None:
        """Under the cash check (BOLSA-3.2.5), the requests as `legal.draw` draws a Budget: those
        at a quote of 0 first (unbounded), then the others in a shuffled order, each within what
        is left of the declarer's cash."""
        random, orders, requested, prices, companies = self.random, self.orders[i], self.requested, self.prices, self.companies
        buyers = list(companies) if min(prices) > 0 else [c for c in companies if prices[c] > 0]
        m = len(buyers)
        for j in range(m - 1):  # legal.shuffle
            k = j + int(random() * (m - j))
            buyers[j], buyers[k] = buyers[k], buyers[j]
        if m < len(companies):
            buyers = [c for c in companies if prices[c] <= 0] + buyers  # weight ≤ 0: first, unbounded
        left = self.cash[i]
        for c in buyers:
            if free[c]:
                price, high = prices[c], orders[c]
                if price > 0 and left // price < high:
                    high = left // price
                k = int(random() * (high + 1)) if high > 0 else int(random())
                if k:
                    orders[c] -= k
                    requested[c][i] = k
                    left -= price * k

    def trace_declaration(self, i: int) -> None:
        """With a trace: seat `i`'s declaration as the engine's action."""
        codes, offered, requested = self.params.companies, self.offered, self.requested
        self.traced(Declare(self.names[i], {codes[c]: offered[c][i] for c in self.companies if offered[c][i]},
                            {codes[c]: requested[c][i] for c in self.companies if requested[c][i]}))

    def net(self) -> None:
        """BOLSA-3.2.6 `net`: when the declarations are revealed, a player's offer and request
        of one company cancel out."""
        for c, (offered, requested) in enumerate(zip(self.offered, self.requested, strict=True)):
            for i, k in enumerate(map(min, offered, requested)):
                if k:
                    self.owned[i][c] += k
                    self.orders[i][c] += k
                    offered[i] -= k
                    requested[i] -= k

    # --- BOLSA-3.3, 4, 5: one company from Resolve to Settle ---

    def company(self, c: int, pending: Trade | None) -> bool:
        """Resolve company `c` (unless `pending` says it is up already, maybe mid-auction), run
        its auction and the losers' withdrawals, and settle it (the Settle's trace is the
        caller's, once the round's end is known); whether money changed hands."""
        random, cash, offered, requested = self.random, self.cash, self.offered[c], self.requested[c]
        quote = self.prices[c]
        auction: Auction | tuple[int, ...] | None = None  # a pending trade's auction, or a new one's bidders
        if pending is None:
            random()  # Resolve: the table's only template
            self.steps += 1
            demand = sum(requested)
            if demand:
                for i, wanted in enumerate(requested):  # BOLSA-4.7.1: solvency before classification
                    if wanted and cash[i] < wanted * quote:
                        self.withdraw_requests(i, c)
                        demand -= wanted
            supply = sum(offered)
            case = classify(supply, demand)
            if case >= 5:
                auction = self.bidders(c, case)
            if self.trace is not None:
                self.traced(_RESOLVE)
        else:
            case, auction = pending.case, pending.auction
            supply, demand = sum(offered), sum(requested)
        self.steps += 1  # the Settle
        if case <= 3:  # BOLSA-4.1–4.3: nobody trades; what found no taker moves the quote, and goes back
            random()  # Settle: the table's only template
            self.prices[c] = clamp(quote + demand - supply, self.params)
            for i, (put, wanted) in enumerate(zip(offered, requested, strict=True)):
                if put or wanted:
                    self.owned[i][c] += put
                    self.orders[i][c] += wanted
                    offered[i] = requested[i] = 0
            return False
        ranking: list[int] | None = None
        best: int | None = None
        if auction is not None:
            ranking, best = self.bidding(c, auction, case, quote)
            if self.may_withdraw:  # BOLSA-5.7: a random loser always withdraws
                self.withdraw_losers(c, ranking)
                supply, demand = sum(offered), sum(requested)
        random()  # Settle: the table's only template
        return self.trade(c, case, quote, supply, demand, ranking, best)

    def bidders(self, c: int, case: int) -> tuple[int, ...] | None:
        """Cases 5 and 6: the excess side in seating order, who bid for `c` when there are
        enough of them (BOLSA-4.5.2, 4.6.2; 3 sellers under `literal`, BOLSA-A2), else None."""
        seats, offered, requested = self.seats, self.offered[c], self.requested[c]
        excess = [i for i in seats if requested[i]] if case == 5 else [i for i in seats if offered[i]]
        if len(excess) >= (3 if case == 6 and self.literal else 2):
            return tuple(excess)
        return None

    def bidding(self, c: int, auction: Auction | tuple[int, ...], case: int, quote: int) -> tuple[list[int], int | None]:
        """The auction of `c`, new (its bidders, in seating order, BOLSA-5.2) or pending (maybe
        over): the ranking and the best bid."""
        if isinstance(auction, tuple):
            return self.auction(c, auction, case == 5, quote, 0, [], None)
        if auction.over:
            return list(auction.ranking), auction.best
        return self.auction(c, auction.order, auction.ascending, quote, auction.turn, list(auction.passed), auction.best)

    def withdraw_losers(self, c: int, ranking: list[int]) -> None:
        """BOLSA-5.7 `may_withdraw`: each loser of the auction of `c` takes back his cards (the
        random bot always withdraws; its pick is still a draw)."""
        offered, requested = self.offered[c], self.requested[c]
        for i in ranking[1:]:
            if offered[i] or requested[i]:
                self.random()
                self.steps += 1
                self.owned[i][c] += offered[i]
                self.orders[i][c] += requested[i]
                offered[i] = requested[i] = 0
                if self.trace is not None:
                    self.traced(Withdraw(self.names[i]))

    def auction(self, c: int, order: tuple[int, ...], ascending: bool, quote: int, turn: int, passed: list[int],
                best: int | None) -> tuple[list[int], int | None]:
        """BOLSA-5.2–5.5 from the bidder at `turn`, those `passed` and the `best` bid so far:
        turns in seating order, each a pick of bid or pass (only a pass when no bid is open:
        still a pick) and a bid's amount; the ranking and the best bid (`listing.bid_range`,
        `Auction.ranking`)."""
        random, cash, requested, trace = self.random, self.cash, self.requested[c], self.trace
        top, bottom, m = self.params.price_max, self.params.price_min, len(order)
        while True:
            i = order[turn]
            if ascending:
                low = quote if best is None else best + 1
                high = cash[i] // requested[i]  # BOLSA-A4: bid × requests ≤ cash
                if top is not None and top < high:
                    high = top
            else:
                high = quote if best is None else best - 1
                low = bottom
            self.steps += 1
            if low <= high and int(random() * 2) == 0:
                best = low + int(random() * (high - low + 1))
                if trace is not None:
                    self.traced(Bid(self.names[i], best))
            else:
                if low > high:
                    random()
                passed.append(i)
                if trace is not None:
                    self.traced(Bid(self.names[i], None))
                if m - len(passed) <= 1:
                    break
            turn = (turn + 1) % m
            while order[turn] in passed:
                turn = (turn + 1) % m
        return [i for i in order if i not in passed] + passed[::-1], best

    def trade(self, c: int, case: int, quote: int, supply: int, demand: int, ranking: list[int] | None,
              best: int | None) -> bool:
        """`settle.settle` of a company that trades (cases 4–6): the price and each buyer's and
        seller's shares (BOLSA-4.4–4.6, 5.6 with 4.7.2's payment check), the quote (6) and
        provisioning (3.4), and the payments: each buyer pays the price of his shares, each
        seller is paid for his (the automatic pairing of 4.8 only says who pays whom: the same
        sums). Whether money changed hands."""
        cash, offered, requested, seats = self.cash, self.offered[c], self.requested[c], self.seats
        sides = {i: offered[i] for i in seats if offered[i]}
        wants = {i: requested[i] for i in seats if requested[i]}
        price = quote
        if case == 4:
            new, buys, sells = quote, wants, sides
        elif ranking is None and case == 5:  # BOLSA-4.5.1: one buyer takes all that is offered
            (buyer,) = wants
            new, buys, sells = quote + demand - supply, {buyer: supply}, sides
        elif ranking is None:  # BOLSA-4.6.1: the sellers sell what is wanted, in seating order
            new, buys, sells = quote - (supply - demand), wants, allocate(seats, sides, demand)
        elif case == 5:  # BOLSA-5.6 with 4.7.2: a buyer who cannot pay withdraws
            price = new = quote if best is None else best
            left, buys = supply, {}
            for i in ranking:
                take = min(requested[i], left)
                if take and cash[i] < take * price:
                    self.withdraw_requests(i, c)
                elif take:
                    buys[i], left = take, left - take
            sells = allocate(seats, sides, sum(buys.values()))
        else:
            price = new = quote if best is None else best
            sells = allocate(ranking, sides, demand)
            buys = allocate(seats, wants, sum(sells.values()))
        self.prices[c] = clamp(new, self.params)
        for i, (put, wanted) in enumerate(zip(offered, requested, strict=True)):  # BOLSA-3.4, and the payments
            if put or wanted:
                sold, bought = sells.get(i, 0), buys.get(i, 0)
                cash[i] += (sold - bought) * price
                self.owned[i][c] += put - sold + bought
                self.orders[i][c] += sold + wanted - bought
                offered[i] = requested[i] = 0
        return bool(buys)

    def withdraw_requests(self, i: int, c: int) -> None:
        """BOLSA-4.7 (`settle.withdraw_requests`): the player's requests for `c` and later go
        back to zone 2."""
        orders = self.orders[i]
        for k in range(c, len(orders)):
            requested = self.requested[k]
            orders[k] += requested[i]
            requested[i] = 0

    def worth(self) -> partial[tuple[float, ...]]:
        """`engine.worth` of the position now (a round begins), read later off a snapshot."""
        return partial(_worth, tuple(self.cash), tuple(map(tuple, self.owned)), tuple(self.prices))


def _worth(cash: Sequence[int], owned: Sequence[Sequence[int]], prices: Sequence[int]) -> tuple[float, ...]:
    return tuple(map(float, scores(cash, owned, prices)))
