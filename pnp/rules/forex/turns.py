"""A For-Ex turn (FOREX-5): an optional Spot Transaction, then exactly one action.

`apply(state, action, params)` is the whole engine API for play: it checks whose turn it is,
applies a `Spot`, `MakeContract`, `Invest`, `Divest` or `Resolve`, and returns the new state
with the events that explain it. An illegal action raises `Illegal` (a `Violation`), leaving
the given state untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Union

from pnp.rules.base import Event, Violation
from pnp.rules.forex.board import find, shift, value_in
from pnp.rules.forex.params import Params, show, show_rate
from pnp.rules.forex.resolve import Resolve, queue_text, resolve
from pnp.rules.forex.state import Contract, State


class Illegal(Violation):
    """A violation in one part of an action: `part` is its path inside the action, e.g.
    ("others", "Ben") for the Divest of another player, or (1,) for the second investment."""

    def __init__(self, rule: str, message: str, part: tuple[Any, ...] = ()):
        super().__init__(rule, message)
        self.part = part


@dataclass(frozen=True)
class Spot:
    """FOREX-6: `player` gives `give` to `other` and gets `get` from them, e.g.
    Spot("Ana", "Ben", ("GBP", 1), ("CAD", 2))."""

    player: str
    other: str
    give: tuple[str, Fraction]
    get: tuple[str, Fraction]


@dataclass(frozen=True)
class MakeContract:
    """FOREX-7: pay currency, receive currency, and k, the amount of the pair's stronger one."""

    player: str
    pay: str
    receive: str
    amount: Fraction


@dataclass(frozen=True)
class Invest:
    """FOREX-8: one or two certificates of different currencies, bought in this order."""

    player: str
    currencies: tuple[str, ...]


@dataclass(frozen=True)
class Divest:
    """FOREX-9: the active player sells `count`, then each other player clockwise sells the
    number given in `others` (missing = declines)."""

    player: str
    currency: str
    count: int
    others: tuple[tuple[str, int], ...] = ()


Action = Union[Spot, MakeContract, Invest, Divest, Resolve]


def to_move(state: State) -> str | None:
    """The player whose turn it is (None before the first turn: anyone may start, FOREX-4.6)."""
    return None if state.to_move is None else state.players[state.to_move]


def apply(state: State, action: Action, p: Params) -> tuple[State, list[Event]]:
    """Apply one action of the player to move; a Spot leaves the turn open, the others end it."""
    if state.over:
        raise Violation("FOREX-11.1", f"the game is over ({_why_over(state)}); {action.player} cannot take a turn")
    if action.player not in state.players:
        raise Violation("FOREX-5.3", f"{action.player} is not playing ({', '.join(state.players)})")
    mover = to_move(state)
    if mover is not None and action.player != mover:
        raise Violation("FOREX-5.3", f"it is {mover}'s turn, not {action.player}'s: play goes clockwise "
                        f"({', '.join(state.players)})")
    seat = state.seat(action.player)
    if isinstance(action, Spot):
        new, events = _spot(state, p, action)
        return replace(new, to_move=seat, spot_made=True), events
    handlers = {MakeContract: _contract, Invest: _invest, Divest: _divest, Resolve: resolve}
    new, events = handlers[type(action)](state, p, action)
    return replace(new, to_move=(seat + 1) % len(state.players), spot_made=False), events


def _why_over(state: State) -> str:
    return f"{state.bankrupt} went Bankrupt" if state.bankrupt else "the last dividend has been paid"


def _spot(state: State, p: Params, spot: Spot) -> tuple[State, list[Event]]:
    if state.spot_made:
        raise Violation("FOREX-5.1", f"{spot.player} has already made this turn's Spot Transaction; one per turn")
    if spot.other == spot.player or spot.other not in state.players:
        raise Violation("FOREX-6.1", f"{spot.player} trades with {spot.other}: a Spot Transaction is with another player")
    (gives, x), (gets, y) = spot.give, spot.get
    if gives == gets:
        raise Violation("FOREX-6.2", f"{spot.player} gives and gets {gives}; a Spot Transaction exchanges two currencies")
    pair = find(state.pairs, gives, gets)
    rate = p.rate(pair.position)
    board = f"{pair.label()}, rate {show_rate(rate)}"
    if p.spot_unit == "stronger_one":
        weak = pair.weaker
        legal = (gives == pair.stronger and (x, y) == (1, rate)) or (gets == pair.stronger and (x, y) == (rate, 1))
        if not legal:
            raise Violation("FOREX-6.2", f"at {board} a Spot Transaction is 1 {pair.stronger} for {show(rate)} {weak}: "
                            f"{spot.player} gives {show(x)} {gives} for {show(y)} {gets}")
    else:
        worth_get, worth_give = value_in(state.pairs, p, Fraction(1), gives, gets), value_in(state.pairs, p, Fraction(1), gets, gives)
        if not ((x == 1 and y == worth_get) or (y == 1 and x == worth_give)):
            raise Violation("FOREX-6.2", f"at {board}, 1 {gives} = {show(worth_get)} {gets} and 1 {gets} = "
                            f"{show(worth_give)} {gives}: {spot.player} gives {show(x)} {gives} for {show(y)} {gets}")
    for who, currency, amount in ((spot.player, gives, x), (spot.other, gets, y)):
        has = state.holding(who).money[p.index(currency)]
        if has < amount:
            raise Violation("FOREX-6.2", f"{who} must give {show(amount)} {currency} but holds {show(has)}")
    state = state.with_holding(spot.player, state.holding(spot.player).add_money(p.index(gives), -x).add_money(p.index(gets), y))
    state = state.with_holding(spot.other, state.holding(spot.other).add_money(p.index(gets), -y).add_money(p.index(gives), x))
    text = f"spot: {spot.player} gives {spot.other} {show(x)} {gives} for {show(y)} {gets} ({board})"
    return state, [Event("FOREX-6.2", text)]


def _contract(state: State, p: Params, action: MakeContract) -> tuple[State, list[Event]]:
    display = state.display(p)
    if not display:
        raise Violation("FOREX-7.1", f"all {len(p.sets)} contract sets are in use (queue: {queue_text(state)}); "
                        f"{action.player} cannot make a contract")
    if action.pay == action.receive:
        raise Violation("FOREX-7.2", f"{action.player} would pay and receive {action.pay}; name two different currencies")
    pair = find(state.pairs, action.pay, action.receive)
    k = Fraction(action.amount)
    if k.denominator != 1 or not 1 <= k <= p.contract_max:
        raise Violation("FOREX-7.2", f"{action.player} names {show(k)} {pair.stronger}: the amount of the stronger "
                        f"currency must be a whole number from 1 to {p.contract_max}")
    rate = p.rate(pair.position)
    pay, get = (k, k * rate) if action.pay == pair.stronger else (k * rate, k)
    contract = Contract(display[0], action.player, (action.pay, pay), (action.receive, get))
    state = replace(state, queue=state.queue + (contract,))
    return state, [
        Event("FOREX-7.3", f"{action.player} makes contract {contract.set} at {pair.label()} (rate {show_rate(rate)}): "
              f"{contract.terms()}"),
        Event("FOREX-7.4", f"one card of set {contract.set} to {action.player}, one to the back of the queue "
              f"({queue_text(state)}), one to the display with the terms"),
    ]


def _invest(state: State, p: Params, action: Invest) -> tuple[State, list[Event]]:
    wanted = action.currencies
    if not 1 <= len(wanted) <= 2 or len(set(wanted)) != len(wanted):
        raise Violation("FOREX-8.1", f"{action.player} invests in {', '.join(wanted) or 'nothing'}: buy one or two "
                        "certificates of different currencies")
    events = []
    for part, currency in enumerate(wanted):
        index = p.index(currency)
        holding = state.holding(action.player)
        if not state.supply[index]:
            raise Illegal("FOREX-8.1", f"no {currency} certificate is left in the supply for {action.player}", (part,))
        if holding.certificates[index] >= p.cert_cap:
            raise Illegal("FOREX-8.2", f"{action.player} holds {holding.certificates[index]} {currency} certificates "
                          f"already; at most {p.cert_cap} of a currency", (part,))
        if holding.money[index] < p.certificate_price:
            raise Illegal("FOREX-8.1", f"a {currency} certificate costs {show(p.certificate_price)} {currency} but "
                          f"{action.player} holds {show(holding.money[index])}", (part,))
        holding = holding.add_money(index, -p.certificate_price).add_certificates(index, 1)
        supply = state.supply[:index] + (state.supply[index] - 1,) + state.supply[index + 1:]
        state = replace(state.with_holding(action.player, holding), supply=supply)
        pairs, moved = shift(state.pairs, p, currency, stronger=True)
        state = replace(state, pairs=pairs)
        events += [
            Event("FOREX-8.1", f"{action.player} buys a {currency} certificate for {show(p.certificate_price)} {currency} "
                  f"({holding.certificates[index]} held, {supply[index]} left in the supply)"),
            Event("FOREX-8.3", f"{currency} strengthened: {moved}"),
        ]
    return state, events


def _divest(state: State, p: Params, action: Divest) -> tuple[State, list[Event]]:
    index, currency, seat = p.index(action.currency), action.currency, state.seat(action.player)
    if action.count < 1:
        raise Illegal("FOREX-9.1", f"{action.player} divests {action.count} {currency}: sell one or more", ("count",))
    others = dict(action.others)
    for name in others:
        if name == action.player or name not in state.players:
            raise Illegal("FOREX-9.2", f"{name} is not another player of this game: the others are "
                          f"{', '.join(n for n in state.players if n != action.player)}", ("others", name))
    sellers = [(action.player, action.count, "FOREX-9.1", ("count",))]
    for step in range(1, len(state.players)):
        name = state.players[(seat + step) % len(state.players)]
        sellers.append((name, others.get(name, 0), "FOREX-9.2", ("others", name)))
    events, sold = [], 0
    for name, count, rule, part in sellers:
        holding = state.holding(name)
        if holding.certificates[index] < count:
            raise Illegal(rule, f"{name} sells {count} {currency} certificates but holds {holding.certificates[index]}", part)
        if not count:
            events.append(Event(rule, f"{name} sells no {currency} certificate"))
            continue
        proceeds = p.certificate_price * count
        state = state.with_holding(name, holding.add_certificates(index, -count).add_money(index, proceeds))
        sold += count
        events.append(Event(rule, f"{name} sells {count} {currency} certificate{'s' * (count > 1)} for "
                            f"{show(proceeds)} {currency}; they leave the game"))
    state = replace(state, removed=state.removed[:index] + (state.removed[index] + sold,) + state.removed[index + 1:])
    for time in range(1, sold + 1):
        pairs, moved = shift(state.pairs, p, currency, stronger=False)
        state = replace(state, pairs=pairs)
        events.append(Event("FOREX-9.3", f"{currency} weakened ({time} of {sold}): {moved}"))
    return state, events
