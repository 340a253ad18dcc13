"""A For-Ex turn's actions applied (FOREX-6 to 9): a Spot Transaction, a contract, an investment,
a divestment; resolving the queue is `resolve`'s.

Each handler applies an action `apply` has already judged legal (`listing`'s templates admit
it), so none checks a rule again: it moves the money, the certificates and the pair counters,
and tells the events.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from pnp.rules.base import Log, evolve
from pnp.rules.forex import events as said
from pnp.rules.forex.actions import Divest, Invest, MakeContract, Resolve, Spot
from pnp.rules.forex.board import find, shift
from pnp.rules.forex.params import Params
from pnp.rules.forex.resolve import queue_labels, resolve
from pnp.rules.forex.state import Contract, State


def _spot(state: State, p: Params, spot: Spot, events: Log) -> State:
    """FOREX-6.2: the player and the other exchange the amounts of a pair's spot terms."""
    (gives, x), (gets, y) = spot.give, spot.get
    state = state.with_holding(spot.player, state.holding(spot.player).add_money(p.index(gives), -x).add_money(p.index(gets), y))
    state = state.with_holding(spot.other, state.holding(spot.other).add_money(p.index(gets), -y).add_money(p.index(gives), x))
    if events is not None:
        pair = find(state.pairs, gives, gets)
        events.append(said.SPOT(player=spot.player, other=spot.other, give={gives: x}, get={gets: y},
                                stronger=pair.stronger, weaker=pair.weaker, position=pair.position,
                                rate=p.rate(pair.position)))
    return state


def _contract(state: State, p: Params, action: MakeContract, events: Log) -> State:
    """FOREX-7.2–7.4: the first set of the display, on terms of the pair's rate: k of the
    stronger currency for k × rate of the weaker, either way."""
    pair = find(state.pairs, action.pay, action.receive)
    k, rate = Fraction(action.amount), p.rate(pair.position)
    pay, get = (k, k * rate) if action.pay == pair.stronger else (k * rate, k)
    contract = Contract(state.display(p)[0], action.player, (action.pay, pay), (action.receive, get))
    state = evolve(state, queue=state.queue + (contract,))
    if events is not None:
        events += (said.CONTRACT(player=action.player, set=contract.set, stronger=pair.stronger, weaker=pair.weaker,
                                 position=pair.position, rate=rate, pay={action.pay: pay}, receive={action.receive: get}),
                   said.CONTRACT_CARDS(set=contract.set, player=action.player, queue=queue_labels(state)))
    return state


def _invest(state: State, p: Params, action: Invest, events: Log) -> State:
    """FOREX-8.1, 8.3: each certificate bought in turn, its currency strengthened."""
    for currency in action.currencies:
        index = p.index(currency)
        holding = state.holding(action.player).add_money(index, -p.certificate_price).add_certificates(index, 1)
        supply = state.supply[:index] + (state.supply[index] - 1,) + state.supply[index + 1:]
        state = evolve(state.with_holding(action.player, holding), supply=supply)
        pairs, moved = shift(state.pairs, p, currency, stronger=True, notes=events is not None)
        state = evolve(state, pairs=pairs)
        if events is not None:
            events += (said.CERTIFICATE(player=action.player, currency=currency, price=p.certificate_price,
                                        held=holding.certificates[index], supply=supply[index]),
                       said.STRENGTHENED(currency=currency, moved=moved))
    return state


def _divest(state: State, p: Params, action: Divest, events: Log) -> State:
    """FOREX-9: the active player sells, then each other player clockwise; the certificates
    leave the game, and the currency weakens once per certificate sold (9.3)."""
    index, currency, seat = p.index(action.currency), action.currency, state.seat(action.player)
    others = dict(action.others)
    sellers = [(action.player, action.count, "FOREX-9.1")]
    for step in range(1, len(state.players)):
        name = state.players[(seat + step) % len(state.players)]
        sellers.append((name, others.get(name, 0), "FOREX-9.2"))
    sold = 0
    for name, count, rule in sellers:
        proceeds = p.certificate_price * count
        if events is not None:
            events.append(said.SOLD(rule, player=name, currency=currency, count=count, proceeds=proceeds))
        if count:
            state = state.with_holding(name, state.holding(name).add_certificates(index, -count).add_money(index, proceeds))
            sold += count
    state = evolve(state, removed=state.removed[:index] + (state.removed[index] + sold,) + state.removed[index + 1:])
    for time in range(1, sold + 1):
        pairs, moved = shift(state.pairs, p, currency, stronger=False, notes=events is not None)
        state = evolve(state, pairs=pairs)
        if events is not None:
            events.append(said.WEAKENED(currency=currency, time=time, of=sold, moved=moved))
    return state


HANDLERS: dict[type, Callable[..., State]] = {  # the action's type → its handler
    Spot: _spot, MakeContract: _contract, Invest: _invest, Divest: _divest, Resolve: resolve}
