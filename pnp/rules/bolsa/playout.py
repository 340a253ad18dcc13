"""Bolsa played fast by random bots: the engine's rules again, on mutable numbers.

`pnp simulate` plays thousands of games. With every seat the random bot, the generic path
(immutable positions, templates, the shared sampler) spends most of its time building values
nobody keeps; `playout` plays the same game on lists of numbers (`pnp.rules.base.Playout`).

It is held to the engine, draw for draw: the slow path lets the first player `to_move` lists
choose among his templates (`legal.sample`: one pick, even among one template), else the table
takes its one step (one pick too). So a round is, from the token holder on, each declaration
(`legal.draw` of `engine._declaration_of`, field by field), then per company the Resolve
(engine `_resolve`), the auction's turns (a pick of bid or pass, then the bid's amount), under
`may_withdraw` every loser's withdrawal (a random player never passes), and the Settle
(`settle.settle`, through its `classify`, `allocate` and `clamp`; scoring is its `scores` and
`final_outcome`). `tests/test_playout.py` plays the same seeds both ways under every house rule
and asserts equal results.

The watch is told what `BolsaProbe` reads of the equivalent position, when it changes: the
quotes and the cash after a settlement, each round's start (its worth read off a snapshot), and
at the end the final scores as money.
"""

from __future__ import annotations

import random as _random
from functools import partial
from typing import Sequence

from pnp.rules.base import Observer, Played, by_identity
from pnp.rules.bolsa.engine import Start, setup
from pnp.rules.bolsa.params import Params
from pnp.rules.bolsa.settle import allocate, clamp, classify, final_outcome, scores
from pnp.rules.bolsa.state import State

Grid = list[list[int]]  # zones: [seat][company] or [company][seat]


def playout(params: Params, players: Sequence[str], start: Start | None, rng: _random.Random,
            watch: Observer) -> Played:
    """One game from `setup(params, players, start)` to its end, every seat the random bot."""
    opening = _standard(params, tuple(players)) if start is None else _numbers(setup(params, players, start)[0])
    table = _Table(params, opening, rng)
    cash, prices, n = table.cash, table.prices, len(players)
    companies, net = range(len(params.companies)), params.same_company_both_ways == "net"
    final = companies[-1]
    watch.track(tuple(prices))
    watch.money((tuple(cash),))
    watch.supplies(())
    watch.unit(table.worth())
    while True:
        table.seats = seats = [(table.token + k) % n for k in range(n)]
        for i in seats:
            table.declare(i)
        if net:
            table.net()
        last = table.round == params.rounds
        for c in companies:
            quote = prices[c]
            paid = table.company(c)
            if prices[c] != quote:
                watch.track(tuple(prices))
            if paid and not (last and c == final):  # at the very end the probe reads scores
                watch.money((tuple(cash),))
        table.token = (table.token + 1) % n  # BOLSA-3.5
        if last:
            break
        table.round += 1
        watch.unit(table.worth())
    result = final_outcome(table.names, table.cash, table.owned, prices, params)
    watch.money((tuple(result.scores.values()),))
    return Played(result, table.steps, table.round)


Opening = tuple[list[str], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...],
                int, int]


@by_identity(64)
def _standard(params: Params, players: tuple[str, ...]) -> Opening:
    """The standard setup, dealt once per rule set and seating (a wrong count still raises)."""
    return _numbers(setup(params, players)[0])


def _numbers(state: State) -> Opening:
    """A set-up position as numbers (zones 3 and 4 are empty then): names, cash, zones 1 and 2
    per seat and company, quotes, round, token."""
    players = state.players
    return ([p.name for p in players], tuple(p.cash for p in players),
            tuple(tuple(z.owned for z in p.zones) for p in players), tuple(tuple(z.orders for z in p.zones) for p in players),
            state.prices, state.round, state.token)


class _Table:
    """The position as numbers: cash per seat; zones 1 and 2 (`owned`, `orders`) per seat and
    company, as declarations read them; zones 3 and 4 (`offered`, `requested`, empty at setup)
    per company and seat, as a company's resolution reads them; the quotes, the round, the
    token, the round's `seats` from the token holder, and the steps taken so far."""

    __slots__ = ("params", "names", "random", "cash", "owned", "orders", "offered", "requested", "prices", "round",
                 "token", "seats", "steps", "companies", "both", "forbid", "total", "literal", "may_withdraw")

    def __init__(self, params: Params, opening: Opening, rng: _random.Random):
        names, cash, owned, orders, prices, self.round, self.token = opening
        count, n = len(prices), len(names)
        self.params, self.names, self.random, self.cash, self.prices = params, names, rng.random, list(cash), list(prices)
        self.owned: Grid = [list(row) for row in owned]
        self.orders: Grid = [list(row) for row in orders]
        self.offered: Grid = [[0] * n for _ in range(count)]
        self.requested: Grid = [[0] * n for _ in range(count)]
        self.seats: list[int] = []  # set as each round begins
        self.steps = 0
        self.companies = range(count)
        self.both = [2] * count  # without `forbid`, each company's offer and request are both free
        self.forbid = params.same_company_both_ways == "forbid"
        self.total = params.declaration_cash_check == "total"
        self.literal = params.auction_trigger == "literal"
        self.may_withdraw = params.auction_losers == "may_withdraw"

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
        if not total:
            return
        prices = self.prices
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

    def net(self) -> None:
        """BOLSA-3.2.6 `net`: when the declarations are revealed, a player's offer and request
        of one company cancel out."""
        for c, (offered, requested) in enumerate(zip(self.offered, self.requested)):
            for i, k in enumerate(map(min, offered, requested)):
                if k:
                    self.owned[i][c] += k
                    self.orders[i][c] += k
                    offered[i] -= k
                    requested[i] -= k

    # --- BOLSA-3.3, 4, 5: one company from Resolve to Settle ---

    def company(self, c: int) -> bool:
        """Resolve company `c`, run its auction and the losers' withdrawals, and settle it;
        whether money changed hands."""
        random, cash, offered, requested = self.random, self.cash, self.offered[c], self.requested[c]
        random()  # Resolve: the table's only template
        self.steps += 2  # and Settle
        quote, demand = self.prices[c], sum(requested)
        if demand:
            for i, wanted in enumerate(requested):  # BOLSA-4.7.1: solvency before classification
                if wanted and cash[i] < wanted * quote:
                    self.withdraw_requests(i, c)
                    demand -= wanted
        supply = sum(offered)
        case = classify(supply, demand)
        if case <= 3:  # BOLSA-4.1–4.3: nobody trades; what found no taker moves the quote, and goes back
            random()  # Settle: the table's only template
            self.prices[c] = clamp(quote + demand - supply, self.params)
            for i, (put, wanted) in enumerate(zip(offered, requested)):
                if put or wanted:
                    self.owned[i][c] += put
                    self.orders[i][c] += wanted
                    offered[i] = requested[i] = 0
            return False
        ranking: list[int] | None = None
        best: int | None = None
        if case >= 5:
            seats = self.seats
            excess = [i for i in seats if requested[i]] if case == 5 else [i for i in seats if offered[i]]
            if len(excess) >= (3 if case == 6 and self.literal else 2):  # BOLSA-4.5.2, 4.6.2
                ranking, best = self.auction(c, excess, case == 5, quote)
                if self.may_withdraw:  # BOLSA-5.7: a random loser always withdraws
                    for i in ranking[1:]:
                        if offered[i] or requested[i]:
                            random()
                            self.steps += 1
                            self.owned[i][c] += offered[i]
                            self.orders[i][c] += requested[i]
                            offered[i] = requested[i] = 0
                    supply, demand = sum(offered), sum(requested)
        random()  # Settle: the table's only template
        return self.trade(c, case, quote, supply, demand, ranking, best)

    def auction(self, c: int, order: list[int], ascending: bool, quote: int) -> tuple[list[int], int | None]:
        """BOLSA-5.2–5.5: turns in seating order, each a pick of bid or pass (only a pass when
        no bid is open: still a pick) and a bid's amount; the ranking and the best bid (engine
        `_bid_range`, `Auction.ranking`)."""
        random, cash, requested = self.random, self.cash, self.requested[c]
        top, bottom = self.params.price_max, self.params.price_min
        passed: list[int] = []
        best: int | None = None
        turn, m = 0, len(order)
        while True:
            i = order[turn]
            if ascending:
                low = quote if best is None else best + 1
                high = cash[i] // requested[i]  # A4: bid × requests ≤ cash
                if top is not None and top < high:
                    high = top
            else:
                high = quote if best is None else best - 1
                low = bottom
            self.steps += 1
            if low <= high and int(random() * 2) == 0:
                best = low + int(random() * (high - low + 1))
            else:
                if low > high:
                    random()
                passed.append(i)
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
        cash, offered, requested = self.cash, self.offered[c], self.requested[c]
        seats = self.seats
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
        for i, (put, wanted) in enumerate(zip(offered, requested)):  # BOLSA-3.4, and the payments
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
        """`BolsaProbe.worth` of the position now (a round begins), read later off a snapshot."""
        return partial(_worth, tuple(self.cash), tuple(map(tuple, self.owned)), tuple(self.prices))


def _worth(cash: Sequence[int], owned: Sequence[Sequence[int]], prices: Sequence[int]) -> tuple[float, ...]:
    return tuple(map(float, scores(cash, owned, prices)))
