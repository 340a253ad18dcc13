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
(`settle.settle`, through its `allocate`, `auto_pairs` and `clamp`). `tests/test_playout.py`
plays the same seeds both ways under every house rule and asserts equal results.

The watch is told what `BolsaProbe` reads of the equivalent position, when it changes: the
quotes and the cash after a settlement, each round's start (its worth read off a snapshot), and
at the end the final scores as money.
"""

from __future__ import annotations

import random as _random
from functools import partial
from typing import Sequence

from pnp.rules.base import Played, Watch
from pnp.rules.bolsa.engine import Start, outcome, setup
from pnp.rules.bolsa.params import Params
from pnp.rules.bolsa.settle import allocate, auto_pairs, clamp, classify, final_scores
from pnp.rules.bolsa.state import OVER, Player, State, Zones

Grid = list[list[int]]  # [player][company]


def playout(params: Params, players: Sequence[str], start: Start | None, rng: _random.Random,
            watch: Watch) -> Played:
    """One game from `setup(params, players, start)` to its end, every seat the random bot."""
    state, _ = setup(params, players, start)  # the seats and the start are checked as the engine does
    table = _Table(params, state, rng)
    cash, prices = table.cash, table.prices
    companies, steps, last = len(params.companies), 0, False
    watch.track(state.prices)
    watch.money((tuple(cash),))
    watch.supplies(())
    watch.unit(table.worth())
    while True:
        n = len(cash)
        table.seats = seats = [(table.token + k) % n for k in range(n)]
        for i in seats:
            table.declare(i)
        steps += n
        if params.same_company_both_ways == "net":
            table.net()
        last = table.round == params.rounds
        for c in range(companies):
            quote = prices[c]
            taken, paid = table.company(c)
            steps += taken
            if prices[c] != quote:
                watch.track(tuple(prices))
            if paid and not (last and c == companies - 1):  # at the very end the probe reads scores
                watch.money((tuple(cash),))
        table.token = (table.token + 1) % n  # BOLSA-3.5
        if last:
            break
        table.round += 1
        watch.unit(table.worth())
    result = outcome(table.position(), params)
    assert result is not None
    watch.money((tuple(result.scores.values()),))
    return Played(result, steps, table.round)


class _Table:
    """The position as numbers: cash per seat, each seat's cards per company in zones 1–4, the
    quotes, the round and the token; `seats` is the round's order from the token holder."""

    __slots__ = ("params", "names", "random", "cash", "owned", "orders", "offered", "requested", "prices", "round",
                 "token", "seats", "forbid", "total", "literal", "may_withdraw")

    def __init__(self, params: Params, state: State, rng: _random.Random):
        companies = len(params.companies)
        self.params, self.names, self.random = params, [p.name for p in state.players], rng.random
        self.cash = [p.cash for p in state.players]
        self.owned: Grid = [[z.owned for z in p.zones] for p in state.players]
        self.orders: Grid = [[z.orders for z in p.zones] for p in state.players]
        self.offered: Grid = [[z.offered for z in p.zones] for p in state.players]
        self.requested: Grid = [[z.requested for z in p.zones] for p in state.players]
        assert not any(map(any, self.offered + self.requested)) and companies
        self.prices = list(state.prices)
        self.round, self.token, self.seats = state.round, state.token, list(state.seating())
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
        random, forbid, total = self.random, self.forbid, self.total
        owned, orders, prices = self.owned[i], self.orders[i], self.prices
        companies = len(owned)
        random()  # legal.sample: the declarer's only template
        free = [int(random() * 2) for _ in range(companies)] if forbid else None  # 0: may offer, 1: may request
        sell, buy = [0] * companies, [0] * companies
        for c in range(companies):
            if free is None or free[c] == 0:
                sell[c] = int(random() * (owned[c] + 1))
            if not total and (free is None or free[c] == 1):
                buy[c] = int(random() * (orders[c] + 1))
        if total:
            spenders = [c for c in range(companies) if prices[c] <= 0]
            buyers = [c for c in range(companies) if prices[c] > 0]
            m = len(buyers)
            for k in range(m - 1):  # legal.shuffle
                j = k + int(random() * (m - k))
                buyers[k], buyers[j] = buyers[j], buyers[k]
            left = self.cash[i]
            for c in spenders + buyers:
                price = prices[c]
                high = orders[c] if price <= 0 else min(orders[c], left // price)
                if free is None or free[c] == 1:
                    buy[c] = int(random() * (max(0, high) + 1))
                    left -= price * buy[c]
        offered, requested = self.offered[i], self.requested[i]
        for c in range(companies):
            owned[c] -= sell[c]
            offered[c] = sell[c]
            orders[c] -= buy[c]
            requested[c] = buy[c]

    def net(self) -> None:
        """BOLSA-3.2.6 `net`: when the declarations are revealed, a player's offer and request
        of one company cancel out."""
        for owned, orders, offered, requested in zip(self.owned, self.orders, self.offered, self.requested):
            for c, k in enumerate(map(min, offered, requested)):
                if k:
                    owned[c] += k
                    orders[c] += k
                    offered[c] -= k
                    requested[c] -= k

    # --- BOLSA-3.3, 4, 5: one company from Resolve to Settle ---

    def company(self, c: int) -> tuple[int, bool]:
        """Resolve company `c`, run its auction, the losers' withdrawals and its Settle: the
        steps taken, and whether money changed hands."""
        random, cash, requested, offered = self.random, self.cash, self.requested, self.offered
        random()  # Resolve: the table's only template
        steps, quote, seats = 1, self.prices[c], self.seats
        for i in seats:  # BOLSA-4.7.1: solvency before classification
            wanted = requested[i][c]
            if wanted and cash[i] < wanted * quote:
                self.withdraw_requests(i, c)
        sellers = [i for i in seats if offered[i][c]]
        buyers = [i for i in seats if requested[i][c]]
        case = classify(sum(offered[i][c] for i in sellers), sum(requested[i][c] for i in buyers))
        excess = buyers if case == 5 else sellers if case == 6 else []
        ranking: list[int] | None = None
        best: int | None = None
        if len(excess) >= (3 if case == 6 and self.literal else 2):  # BOLSA-4.5.2, 4.6.2
            turns, ranking, best = self.auction(c, excess, case == 5, quote)
            steps += turns
            if self.may_withdraw:  # BOLSA-5.7: a random loser always withdraws
                for i in ranking[1:]:
                    if offered[i][c] or requested[i][c]:
                        random()
                        steps += 1
                        self.owned[i][c] += offered[i][c]
                        self.orders[i][c] += requested[i][c]
                        offered[i][c] = requested[i][c] = 0
        random()  # Settle: the table's only template
        return steps + 1, self.settle(c, case, quote, ranking, best)

    def auction(self, c: int, order: list[int], ascending: bool, quote: int) -> tuple[int, list[int], int | None]:
        """BOLSA-5.2–5.5: turns in seating order, each a pick of bid or pass (only a pass when
        no bid is open: still a pick) and a bid's amount; the turns, the ranking and the best
        bid (engine `_bid_range`, `Auction.ranking`)."""
        random, cash, params = self.random, self.cash, self.params
        passed: list[int] = []
        best: int | None = None
        turn, turns, m = 0, 0, len(order)
        while True:
            i = order[turn]
            if ascending:
                low = quote if best is None else best + 1
                high = cash[i] // self.requested[i][c]  # A4: bid × requests ≤ cash
                if params.price_max is not None:
                    high = min(high, params.price_max)
            else:
                high = quote if best is None else best - 1
                low = params.price_min
            turns += 1
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
        return turns, [i for i in order if i not in passed] + passed[::-1], best

    def settle(self, c: int, case: int, quote: int, ranking: list[int] | None, best: int | None) -> bool:
        """`settle.settle` with automatic pairing: the price, each buyer's and seller's shares
        (BOLSA-4.1–4.6, 5.6 with 4.7.2's payment check), the payments (4.8), the quote (6) and
        provisioning (3.4); whether money changed hands."""
        seats, cash, offered, requested = self.seats, self.cash, self.offered, self.requested
        sides = {i: offered[i][c] for i in seats if offered[i][c]}
        wants = {i: requested[i][c] for i in seats if requested[i][c]}
        supply, demand = sum(sides.values()), sum(wants.values())
        price, order = quote, seats
        buys: dict[int, int] = {}
        sells: dict[int, int] = {}
        if case == 1:
            new = quote
        elif case == 2:
            new = quote - supply
        elif case == 3:
            new = quote + demand
        elif case == 4:
            new, buys, sells = quote, wants, sides
        elif ranking is None and case == 5:  # BOLSA-4.5.1: one buyer takes all that is offered
            (buyer,) = wants
            new, buys, sells = quote + demand - supply, {buyer: supply}, sides
        elif ranking is None:  # BOLSA-4.6.1: the sellers sell what is wanted, in seating order
            new, buys, sells = quote - (supply - demand), wants, allocate(seats, sides, demand)
        elif case == 5:  # BOLSA-5.6 with 4.7.2: a buyer who cannot pay withdraws
            price = new = quote if best is None else best
            left, order = supply, ranking
            for i in ranking:
                take = min(requested[i][c], left)
                if take and cash[i] < take * price:
                    self.withdraw_requests(i, c)
                elif take:
                    buys[i], left = take, left - take
            sells = allocate(seats, sides, sum(buys.values()))
        else:
            price = new = quote if best is None else best
            sells = allocate(ranking, sides, demand)
            buys = allocate(seats, wants, sum(sells.values()))
        paid = False
        for buyer, seller, n in auto_pairs(buys, sells, order, seats):
            cash[buyer] -= n * price
            cash[seller] += n * price
            paid = True
        self.prices[c] = clamp(new, self.params)
        owned, orders = self.owned, self.orders
        for i in seats:  # BOLSA-3.4
            put, wanted = offered[i][c], requested[i][c]
            if put or wanted:
                sold, bought = sells.get(i, 0), buys.get(i, 0)
                owned[i][c] += put - sold + bought
                orders[i][c] += sold + wanted - bought
                offered[i][c] = requested[i][c] = 0
        return paid

    def withdraw_requests(self, i: int, c: int) -> None:
        """BOLSA-4.7 (`settle.withdraw_requests`): the player's requests for `c` and later go
        back to zone 2."""
        orders, requested = self.orders[i], self.requested[i]
        for k in range(c, len(requested)):
            orders[k] += requested[k]
            requested[k] = 0

    # --- the engine's position, for the probe's worth and the outcome ---

    def position(self) -> State:
        """The engine's position at the end of the game (zones 3 and 4 are empty then)."""
        return _position(self.names, tuple(self.cash), tuple(map(tuple, self.owned)), tuple(map(tuple, self.orders)),
                         tuple(self.prices), self.round, self.token)

    def worth(self) -> partial[tuple[float, ...]]:
        """`BolsaProbe.worth` of the position now (a round begins), read later off a snapshot."""
        return partial(_worth, self.params, self.names, tuple(self.cash), tuple(map(tuple, self.owned)),
                       tuple(map(tuple, self.orders)), tuple(self.prices))


def _position(names: Sequence[str], cash: Sequence[int], owned: Sequence[Sequence[int]],
              orders: Sequence[Sequence[int]], prices: tuple[int, ...], round_: int, token: int) -> State:
    players = tuple(Player(name, money, tuple(map(Zones, own, order)))
                    for name, money, own, order in zip(names, cash, owned, orders))
    return State(players, prices, round=round_, token=token, phase=OVER)


def _worth(params: Params, names: Sequence[str], cash: Sequence[int], owned: Sequence[Sequence[int]],
           orders: Sequence[Sequence[int]], prices: tuple[int, ...]) -> tuple[float, ...]:
    state = _position(names, cash, owned, orders, prices, 1, 0)
    return tuple(float(score) for score in final_scores(state, params).values())
