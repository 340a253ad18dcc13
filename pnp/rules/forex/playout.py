"""For-Ex played fast by random players, for the simulator (`pnp.rules.contract.Playout`).

The engine makes a new immutable `State` for every step, keeps money as exact `Fraction`s and
lists templates for the shared sampler to draw from: what a referee needs, ten times too slow
for thousands of simulated games. Here one game is played on lists of numbers. Every amount
the rules can make is a whole number of 1/`unit` buck, the least common denominator (halves
as bundled: rates of 1½, while `any_one` refuses the quarters a rate of 4 would give, FOREX-A5).
When that unit is a power of two, money is kept in floats: each amount is then exactly a
float, sums and comparisons of them are exact (they stay far below 2⁵³), and the readings
equal the engine's Fractions; otherwise it is kept in Fractions. Worth and scores convert
money with whole multipliers over the rates' common denominator, so they are exact too.

It plays from any position the engine reaches (a setup, a dealt supply, a search bot's
position mid-game), and with a `trace` it appends each action it takes and the position after
it (`numbers`), which `tests/test_playout_oracle.py` replays through the engine step by step.

It is the engine's rules again, so it is held to the engine: it draws from `rng` as the
simulator's slow path does — the player to move draws one of his templates in the order
`engine.legal_actions` lists them (spot, contract, invest, a divestment per currency held,
resolve), then its fields as `legal.draw` would (a contract's two currencies differ, an
investment is a shuffled selection, the other holders' sales follow the seller's), and a tie
for the strongest currency at the end is broken as `apply_choosing` breaks the engine's
`ChoiceNeeded` — and `tests/test_playout.py` checks that every result equals the slow path's.
The engine's own `setup` gives the opening position. What it restates, and why: the rules of a
turn on numbers (FOREX-6 to 12: spot deals, contracts, investments, divestments, shifting the
board, the queue and scoring) — every one of them builds immutable positions and Fractions in
the engine, and a game is a thousand steps of them; it reuses the engine's setup, its
`Params.spot_units` (the spot terms FOREX-A5 allows) and its rates.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from typing import Any, Callable, Sequence

from pnp.rules.base import Observer, Outcome, Played, Trace, by_identity
from pnp.rules.forex.actions import Divest, Invest, MakeContract, Resolve, Spot
from pnp.rules.forex.board import Pair
from pnp.rules.forex.params import Params
from pnp.rules.forex.rulebook import BankruptPlayer, Conversion, NoDividendSide, ended
from pnp.rules.forex.state import Contract, Dividend, Item, Loan, State, setup

# Queue items: (DIVIDEND, number), (CONTRACT, set, owner, pay, amount, receive, amount) and
# [LOAN, set, owner, {currency: amount}] (a Loan grows in place, FOREX-10.2.2).
DIVIDEND, CONTRACT, LOAN = 0, 1, 2


class _Rules:
    """One rule set as the playout reads it: amounts as `number`s (float or Fraction),
    currencies and pairs by index, and the rates as whole multipliers over `whole`."""

    def __init__(self, p: Params, number: Callable[[Fraction], Any]):
        self.p, self.boxes, self.cap = p, p.boxes, p.cert_cap
        self.index = {currency: c for c, currency in enumerate(p.currencies)}
        self.ends = [(p.index(a), p.index(b)) for a, b in (key.split("/") for key, _, _ in p.start_pairs)]
        self.pair = {(x, y): k for k, ends in enumerate(self.ends) for x, y in (ends, ends[::-1])}
        self.of = [[k for k, ends in enumerate(self.ends) if c in ends] for c in range(len(p.currencies))]
        self.cells = [{s: [Pair(p.currencies[a], p.currencies[b], p.currencies[s], box) for box in range(p.boxes + 1)]
                       for s in (a, b)} for a, b in self.ends]  # per pair, stronger side, box (0 unused): its counter
        self.rate = [0, *map(number, p.rates)]  # per box: one buck of the stronger, in the weaker
        self.spots = [(), *(tuple((first, number(x), number(y)) for first, x, y in terms)
                            for terms in p.spot_units)]  # per box: (the stronger gives?, given, got)
        self.price, self.interest = number(p.certificate_price), number(p.loan_interest)
        self.whole = whole = lcm(*(n for rate in p.rates for n in (rate.numerator, rate.denominator)))
        self.up = [0, *(int(rate * whole) for rate in p.rates)]  # per box: a buck of the stronger in the weaker, × whole
        self.down = [0, *(int(whole / rate) for rate in p.rates)]  # per box: a buck of the weaker in the stronger, × whole


@by_identity(16)
def _rules(p: Params, number: Callable[[Fraction], Any]) -> _Rules:
    return _Rules(p, number)


@dataclass(frozen=True)
class _Opening:
    """A position in the playout's numbers, the way a game starts from it."""

    rules: _Rules
    players: tuple[str, ...]
    strong: tuple[int, ...]  # per pair, the stronger currency
    box: tuple[int, ...]  # per pair, its box
    cash: tuple[tuple[Any, ...], ...]  # per currency, per seat
    certs: tuple[tuple[int, ...], ...]  # per seat, per currency
    supply: tuple[int, ...]
    queue: tuple[Any, ...]
    mover: int
    spot_made: bool


@by_identity(64, objects=2)
def _opening(p: Params, state: State) -> _Opening:
    unit = _denominators(p, state)
    number: Callable[[Fraction], Any] = float if unit & (unit - 1) == 0 else Fraction  # see the module's docstring
    return _Opening(
        _rules(p, number), state.players, tuple(p.index(pair.stronger) for pair in state.pairs),
        tuple(pair.position for pair in state.pairs),
        tuple(tuple(number(h.money[c]) for h in state.holdings) for c in range(len(p.currencies))),
        tuple(h.certificates for h in state.holdings), state.supply, _queue(p, state, number),
        state.mover or 0,  # before the first turn the first listed player draws (he can always resolve)
        state.spot_made)


def _denominators(p: Params, state: State) -> int:
    """The least common denominator of every amount the game starts with or can pay: a power
    of two lets the playout count in floats, exactly."""
    amounts = [*p.rates, p.start_money, p.loan_interest, p.certificate_price]
    amounts += [a for terms in p.spot_units for _, x, y in terms for a in (x, y)]
    amounts += [m for h in state.holdings for m in h.money]
    for item in state.queue:
        amounts += [item.pay[1], item.receive[1]] if isinstance(item, Contract) else []
        amounts += [a for _, a in item.owe] if isinstance(item, Loan) else []
    return lcm(*(Fraction(a).denominator for a in amounts))


def _queue(p: Params, state: State, number: Callable[[Fraction], Any]) -> tuple[Any, ...]:
    """The queue on numbers: (DIVIDEND, number), (CONTRACT, set, owner's seat, pays, amount,
    receives, amount), (LOAN, set, owner's seat, ((currency, amount), …))."""
    queue: list[Any] = []
    for item in state.queue:
        if isinstance(item, Dividend):
            queue.append((DIVIDEND, item.number))
        elif isinstance(item, Contract):
            (pay, x), (receive, y) = item.pay, item.receive
            queue.append((CONTRACT, item.set, state.seat(item.owner), p.index(pay), number(x), p.index(receive),
                          number(y)))
        else:
            queue.append((LOAN, item.set, state.seat(item.owner), tuple((p.index(c), number(a)) for c, a in item.owe)))
    return tuple(queue)


def playout(p: Params, state: State, rng: random.Random, watch: Observer, trace: Trace | None = None) -> Played:
    """From `state` to the end of the game, every player random."""
    standard = setup(p, state.players)[0]  # kept by the engine: what a dealt position shares with it is not read again
    if state is not standard and state.pairs is standard.pairs and state.holdings is standard.holdings \
            and state.queue is standard.queue and state.mover is None and state.result is None:
        opening = replace(_opening(p, standard), supply=state.supply)  # a deal: only the supply differs
    else:
        opening = _opening(p, state)
    if state.result is not None:
        return Played(_outcome(state), 0, 0)
    return _Game(opening, rng, watch, trace).play()


def _outcome(state: State) -> Outcome:
    """The engine's outcome of a finished position."""
    assert state.result is not None
    return Outcome(dict(zip(state.players, state.result.scores, strict=True)), state.result.winners,
                   ended(state.bankrupt))


def numbers(state: State) -> tuple[Any, ...]:
    """What the playout keeps of a position, as its trace gives it: each pair's stronger side
    and box; each seat's money (exact) and certificates; the supply; the queue, front first;
    whose turn it is and whether his spot is made."""
    return (tuple((pair.stronger, pair.position) for pair in state.pairs), tuple(h.money for h in state.holdings),
            tuple(h.certificates for h in state.holdings), state.supply, tuple(map(_queued, state.queue)),
            state.mover, state.spot_made)


def _queued(item: Item) -> tuple[Any, ...]:
    if isinstance(item, Dividend):
        return ("dividend", item.number)
    if isinstance(item, Contract):
        return ("contract", item.set, item.owner, *item.pay, *item.receive)
    return ("loan", item.set, item.owner, item.owe)


class _Game:
    """One game in progress: the board, the hands, the supply and the queue, all mutable."""

    def __init__(self, opening: _Opening, rng: random.Random, watch: Observer, trace: Trace | None):
        self.r = r = opening.rules
        self.trace = trace
        self.done: Any = None  # with a trace: the action of the step being taken
        self.p, self.random, self.watch = r.p, rng.random, watch
        self.players, self.n = opening.players, len(opening.players)
        self.strong, self.box = list(opening.strong), list(opening.box)
        self.board = [r.cells[k][s][box] for k, (s, box) in enumerate(zip(self.strong, self.box, strict=True))]
        self.cash = [list(column) for column in opening.cash]
        self.certs = [list(hand) for hand in opening.certs]
        self.supply = list(opening.supply)
        self.queue = [[LOAN, *item[1:3], dict(item[3])] if item[0] == LOAN else item for item in opening.queue]
        self.loans = {item[2]: item for item in self.queue if item[0] == LOAN}
        self.used = {item[1] for item in self.queue if item[0] != DIVIDEND}
        self.free = [letter for letter in self.p.sets if letter not in self.used]
        self.mover, self.spot_made = opening.mover, opening.spot_made
        self.bankrupt: int | None = None
        self.outcome: Outcome | None = None
        self.moved = self.paid = True  # the board / the money changed since last read
        self.pairs: tuple[Pair, ...] = ()
        self.hands: tuple[tuple[Any, ...], ...] = ()
        self.stock: tuple[int, ...] = ()  # the supplies as last read

    # --- the game and what the simulator reads of it ------------------------------------------

    def play(self) -> Played:
        """To the end, reading the board, the money and the supplies into the watch after every
        step that changes them, and each turn's start (a unit of `Probe.length`)."""
        steps = turns = 0
        self._read(turn=True)
        while self.outcome is None:
            spot = self._step()
            steps += 1
            turns += not spot
            self._read(turn=not spot)
        return Played(self.outcome, steps, turns)

    def _read(self, turn: bool) -> None:
        watch = self.watch
        if self.moved:
            self.pairs, self.moved = tuple(self.board), False
            watch.track(self.pairs)
        if self.paid:
            self.hands, self.paid = tuple(map(tuple, self.cash)), False
            watch.money(self.hands)
        if turn:  # a Spot changes neither the supply nor the display
            stock = (*self.supply, len(self.free))
            if stock != self.stock:
                self.stock = stock
                watch.supplies(stock)
            if self.outcome is not None:  # the engine's `worth` of a finished game: its scores
                scores = tuple(map(float, self.outcome.scores.values()))
                watch.unit(lambda: scores)
            else:
                pairs, hands = self.pairs, self.hands
                watch.unit(lambda: self._worths(pairs, hands))

    def _worths(self, pairs: tuple[Pair, ...], hands: tuple[tuple[Any, ...], ...]) -> tuple[float, ...]:
        """`engine.worth` before the end: each seat's money in the strongest currency (the first
        of equals), exact (one correctly rounded division, as `float(Fraction)`)."""
        strong = [self.r.index[pair.stronger] for pair in pairs]
        values = self._values(strong, [pair.position for pair in pairs], hands)
        return tuple(float(sum(seat) / self.r.whole) for seat in values)

    def _values(self, strong: list[int], box: list[int], hands: Sequence[Sequence[Any]],
                target: int | None = None) -> list[list[Any]]:
        """Per seat, per currency, its money in `target` (default: the most pairs won, the
        first of equals) times `whole` (`board.value_in`)."""
        r = self.r
        if target is None:
            counts = [strong.count(c) for c in range(len(hands))]
            target = counts.index(max(counts))
        factor = [r.whole] * len(hands)
        for k in r.of[target]:
            a, b = r.ends[k]
            factor[a + b - target] = r.down[box[k]] if strong[k] == target else r.up[box[k]]
        return [[q * f for q, f in zip(seat, factor, strict=True)] for seat in zip(*hands, strict=True)]

    # --- one step: the template, then its fields, as the sampler draws them --------------------

    def _step(self) -> bool:
        """One action of the player to move; True for a Spot (the turn goes on)."""
        seat, certs = self.mover, self.certs[self.mover]
        spot = not self.spot_made and bool(self._deals(seat, first=True))
        contract = bool(self.free)
        invest = bool(self._investable(seat, first=True))
        divests = len(certs) - certs.count(0)  # one template per currency held
        choice = int(self.random() * (spot + contract + invest + divests + 1))
        if spot:
            if not choice:
                self._spot(seat)
                self.mover, self.spot_made = seat, True
                if self.trace is not None:
                    self.trace.append((self.done, self._numbers()))
                return True
            choice -= 1
        if contract and not choice:
            self._contract(seat)
        elif invest and choice == contract:
            self._invest(seat, self._investable(seat))
        elif choice - contract - invest < divests:
            self._divest(seat, [c for c, held in enumerate(certs) if held][choice - contract - invest])
        else:
            self._resolve(seat)
        self.mover, self.spot_made = (seat + 1) % self.n, False
        if self.trace is not None:
            self.trace.append((self.done, self._numbers()))
        return False

    def _numbers(self) -> tuple[Any, ...]:
        """`numbers` of the engine's position now."""
        names, currencies = self.players, self.p.currencies
        queue: list[tuple[Any, ...]] = []
        for item in self.queue:
            if item[0] == DIVIDEND:
                queue.append(("dividend", item[1]))
            elif item[0] == CONTRACT:
                _, letter, owner, pay, x, receive, y = item
                queue.append(("contract", letter, names[owner], currencies[pay], Fraction(x), currencies[receive],
                              Fraction(y)))
            else:
                owe = tuple((currencies[c], Fraction(a)) for c, a in sorted(item[3].items()))
                queue.append(("loan", item[1], names[item[2]], owe))
        money = tuple(tuple(Fraction(column[seat]) for column in self.cash) for seat in range(self.n))
        return (tuple((currencies[s], box) for s, box in zip(self.strong, self.box, strict=True)), money,
                tuple(map(tuple, self.certs)), tuple(self.supply), tuple(queue), self.mover, self.spot_made)

    def _deals(self, seat: int, first: bool = False) -> list[tuple[int, int, Any, int, Any]]:
        """FOREX-6.2 in `engine._spot_deals` order: (other, gives, amount, gets, amount); with
        `first`, only the first (whether there is one is all a turn needs to know)."""
        cash, spots = self.cash, self.r.spots
        others = [other for other in range(self.n) if other != seat]
        deals = []
        for (a, b), s, box in zip(self.r.ends, self.strong, self.box, strict=True):
            for stronger_gives, x, y in spots[box]:
                gives, gets = (s, a + b - s) if stronger_gives else (a + b - s, s)
                if cash[gives][seat] >= x:
                    column = cash[gets]
                    for other in others:
                        if column[other] >= y:
                            deals.append((other, gives, x, gets, y))
                            if first:
                                return deals
        return deals

    def _spot(self, seat: int) -> None:
        """One deal, drawn among all (`legal.pick` over the listed deals)."""
        deals = self._deals(seat)
        other, gives, x, gets, y = deals[int(self.random() * len(deals))]
        if self.trace is not None:
            currencies = self.p.currencies
            self.done = Spot(self.players[seat], self.players[other], (currencies[gives], Fraction(x)),
                             (currencies[gets], Fraction(y)))
        self.cash[gives][seat] -= x
        self.cash[gets][seat] += y
        self.cash[gets][other] -= y
        self.cash[gives][other] += x
        self.paid = True

    def _contract(self, seat: int) -> None:
        """FOREX-7: pay and receive two different currencies, 1 … contract_max of the stronger."""
        random, count = self.random, len(self.p.currencies)
        pay = int(random() * count)
        receive = int(random() * (count - 1))
        receive += receive >= pay
        amount = 1 + int(random() * self.p.contract_max)
        if self.trace is not None:
            self.done = MakeContract(self.players[seat], self.p.currencies[pay], self.p.currencies[receive],
                                     Fraction(amount))
        k = self.r.pair[pay, receive]
        rated = amount * self.r.rate[self.box[k]]
        x, y = (amount, rated) if self.strong[k] == pay else (rated, amount)
        letter = self.free.pop(0)
        self.used.add(letter)
        self.queue.append((CONTRACT, letter, seat, pay, x, receive, y))

    def _investable(self, seat: int, first: bool = False) -> list[int]:
        """FOREX-8.1, 8.2: a certificate in the supply, under the cap, and the money for it;
        with `first`, only the first."""
        cash, certs, cap, price = self.cash, self.certs[seat], self.r.cap, self.r.price
        found = []
        for c, left in enumerate(self.supply):
            if left and certs[c] < cap and cash[c][seat] >= price:
                found.append(c)
                if first:
                    break
        return found

    def _invest(self, seat: int, options: list[int]) -> None:
        """FOREX-8: one or two, a random selection in random order (`legal.shuffle`)."""
        random, n = self.random, len(options)
        count = 1 + int(random() * min(2, n))
        for i in range(min(count, n)):
            j = i + int(random() * (n - i))
            options[i], options[j] = options[j], options[i]
        if self.trace is not None:
            self.done = Invest(self.players[seat], tuple(self.p.currencies[c] for c in options[:count]))
        for c in options[:count]:
            self.supply[c] -= 1
            self.cash[c][seat] -= self.r.price
            self.certs[seat][c] += 1
            self._shift(c, stronger=True)
        self.paid = True

    def _divest(self, seat: int, c: int) -> None:
        """FOREX-9: the player sells 1 … all; each other holder, in seat order, 0 … all."""
        random = self.random
        sales = [(seat, 1 + int(random() * self.certs[seat][c]))]
        sales += [(other, int(random() * (certs[c] + 1))) for other, certs in enumerate(self.certs)
                  if other != seat and certs[c]]
        if self.trace is not None:
            self.done = Divest(self.players[seat], self.p.currencies[c], sales[0][1],
                               tuple((self.players[other], count) for other, count in sales[1:] if count))
        for who, count in sales:
            self.certs[who][c] -= count
            self.cash[c][who] += count * self.r.price
        for _ in range(sum(count for _, count in sales)):
            self._shift(c, stronger=False)
        self.paid = True

    def _shift(self, c: int, stronger: bool) -> None:
        """FOREX-3.1, 3.2 (`board.shift`): each of c's pairs one box in (or against) its favour."""
        strong, box, r, board = self.strong, self.box, self.r, self.board
        for k in r.of[c]:
            s, at = strong[k], box[k]
            if (s == c) == stronger:
                if at < r.boxes:
                    box[k] = at = at + 1
            elif at > 1:
                box[k] = at = at - 1
            else:
                a, b = r.ends[k]
                strong[k] = s = a + b - s
            board[k] = r.cells[k][s][at]
        self.moved = True

    # --- resolving the queue (resolve.py) and the end (scoring.py) -----------------------------

    def _resolve(self, seat: int) -> None:
        """FOREX-10: the front item; after the last dividend the rest of the queue; the end."""
        front, last = self.queue.pop(0), False
        strengthen: int | None = None
        defaults: list[str] = []  # the contracts defaulted on by choice (voluntary_default)
        if front[0] == DIVIDEND:
            chosen, strengthen = self._most_held()
            last = front[1] == len(self.p.dividends)
            if last and self.p.voluntary_default:
                defaults = self._drawn_defaults()
            self._dividend(front[1], chosen)
        else:
            by_choice = front[0] == CONTRACT and self.p.voluntary_default and int(self.random() * 2) == 1
            if by_choice:
                defaults.append(front[1])
            self._settle(front, by_choice)
        while last and self.queue and self.bankrupt is None:  # FOREX-10.5.5
            item = self.queue.pop(0)
            self._settle(item, item[0] == CONTRACT and item[1] in defaults)
        strongest = None
        if self.bankrupt is not None or (last and not self.queue):
            strongest = self._score(seat)
        if self.trace is not None:
            currencies = self.p.currencies
            self.done = Resolve(self.players[seat], None if strengthen is None else currencies[strengthen],
                                None if strongest is None else currencies[strongest], tuple(defaults))

    def _most_held(self) -> tuple[int, int | None]:
        """FOREX-10.5.3: the currency a dividend strengthens, the most held in hand, a tie drawn
        as the engine's `ChoiceNeeded` is answered; and the pick, if a tie asked for one."""
        held = [sum(column) for column in zip(*self.certs, strict=True)]
        tied = [c for c, n in enumerate(held) if n == max(held)]
        if len(tied) > 1:
            chosen = tied[int(self.random() * len(tied))]
            return chosen, chosen
        return tied[0], None

    def _drawn_defaults(self) -> list[str]:
        """`engine.defaultable` at the last dividend: the contracts in the queue to default on,
        a selection drawn as `legal.draw` draws one (a count, then a shuffle of that many)."""
        random = self.random
        defaults = [item[1] for item in self.queue if item[0] == CONTRACT]
        n = len(defaults)
        if n:
            count = int(random() * (n + 1))
            for i in range(count):
                j = i + int(random() * (n - i))
                defaults[i], defaults[j] = defaults[j], defaults[i]
            del defaults[count:]
        return defaults

    def _dividend(self, number: int, chosen: int) -> None:
        """FOREX-10.5: pay per certificate (none from a currency stopped by the "8" space),
        strengthen the most held, and the stack goes to the back unless it was the last."""
        pays, r = self.p.dividends[number - 1], self.r
        if pays:
            stopped = set()
            for k, (a, b) in enumerate(r.ends):
                if self.box[k] == r.boxes:
                    stopped.add(a + b - self.strong[k])
                    if self.p.no_dividend_side is NoDividendSide.BOTH:
                        stopped.add(self.strong[k])
            for seat, certs in enumerate(self.certs):
                for c, held in enumerate(certs):
                    if held and c not in stopped:
                        self.cash[c][seat] += pays * held
                        self.paid = True
        self._shift(chosen, stronger=True)
        if number < len(self.p.dividends):
            self.queue.append((DIVIDEND, number + 1))

    def _settle(self, item: Any, by_choice: bool) -> None:
        """FOREX-10.1–10.4: a contract is paid or becomes a Loan (joining the owner's Loan if he
        has one); a Loan is paid in full or its owner is Bankrupt. Its set leaves the queue
        unless it returns as a Loan."""
        self.used.discard(item[1])
        owner, cash = item[2], self.cash
        self.paid = True
        if item[0] == CONTRACT:
            _, letter, _, pay, x, receive, y = item
            has = cash[pay][owner]
            cash[receive][owner] += y
            if has >= x and not by_choice:
                cash[pay][owner] -= x
            elif owner in self.loans:
                owe = self.loans[owner][3]
                owe[pay] = owe.get(pay, 0) + x + self.r.interest
            else:
                self.loans[owner] = loan = [LOAN, letter, owner, {pay: x + self.r.interest}]
                self.queue.append(loan)
                self.used.add(letter)
        else:
            del self.loans[owner]
            if any(cash[c][owner] < amount for c, amount in item[3].items()):
                self.bankrupt = owner
            else:
                for c, amount in item[3].items():
                    cash[c][owner] -= amount
        self.free = [letter for letter in self.p.sets if letter not in self.used]

    def _score(self, seat: int) -> int | None:
        """FOREX-12 (`scoring.final_scores`): the strongest currency, everyone's money converted
        to it and rounded, the winners; the pick, if a tie asked for one."""
        target, picked = self._strongest()
        scores = self._final_scores(target)
        if self.bankrupt is not None and self.p.bankrupt_player is BankruptPlayer.LAST:
            scores[self.bankrupt] = 0
            can_win = [s for s in range(self.n) if s != self.bankrupt]
        else:
            can_win = list(range(self.n))
        top = [s for s in can_win if scores[s] == max(scores[s] for s in can_win)]
        if len(top) > 1:  # FOREX-12.3: then most certificates of the strongest; then shared
            most = max(self.certs[s][target] for s in top)
            top = [s for s in top if self.certs[s][target] == most]
        self.outcome = Outcome(dict(zip(self.players, scores, strict=True)),
                               tuple(self.players[s] for s in top),
                               ended(self.bankrupt))
        return picked

    def _strongest(self) -> tuple[int, int | None]:
        """FOREX-12.1: the strongest currency, most pairs won, then most certificates in hand,
        then the ender's pick (drawn as `legal.pick` answers the engine's `ChoiceNeeded`); and
        the pick, if a tie asked for one."""
        counts = [self.strong.count(c) for c in range(len(self.p.currencies))]
        tied = [c for c, won in enumerate(counts) if won == max(counts)]
        if len(tied) > 1:
            held = [sum(self.certs[s][c] for s in range(self.n)) for c in tied]
            tied = [c for c, h in zip(tied, held, strict=True) if h == max(held)]
        if len(tied) > 1:
            target = tied[int(self.random() * len(tied))]
            return target, target
        return tied[0], None

    def _final_scores(self, target: int) -> list[Any]:
        """FOREX-12.2: each seat's money converted to `target`, exact, rounded down to whole
        bucks per holding (or in total, or (bga) the money held in the target kept whole)."""
        p, whole, scores = self.p, self.r.whole, []
        for hand, values in zip(zip(*self.cash, strict=True), self._values(self.strong, self.box, self.cash, target), strict=True):
            if p.conversion_rounding is Conversion.TOTAL:
                scores.append(sum(values) // whole)
            else:
                own = hand[target] if p.conversion_rounding is Conversion.BGA else values[target] // whole
                scores.append(own + sum(v // whole for c, v in enumerate(values) if c != target))
        return scores
