"""Resolving the front of the contract queue (FOREX-10) and the end of the game (FOREX-11).

A contract is paid or becomes a Loan (pay amount + interest) that goes to the back or joins the
owner's Loan; a Loan is paid in full or its owner is Bankrupt; a Dividend pays every holder,
strengthens the most-held currency and goes to the back — except the last one, after which the
rest of the queue resolves with no more turns (FOREX-10.5.5) and the game is scored.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from pnp.rules.base import Event, Log, evolve
from pnp.rules.forex import events as said
from pnp.rules.forex import refusals as refused
from pnp.rules.forex.actions import Resolve
from pnp.rules.forex.board import eight_space, shift
from pnp.rules.forex.params import Params
from pnp.rules.forex.rulebook import NoDividendSide
from pnp.rules.forex.scoring import final_scores, pick
from pnp.rules.forex.state import Contract, Dividend, Item, Loan, State


def queue_labels(state: State) -> list[str]:
    """The queue, front first: "dividend 2", "contract B Ana", "loan C Ben"."""
    return [item.label() for item in state.queue]


def queue_text(state: State) -> str:
    return ", ".join(queue_labels(state)) or "empty"


def defaultable(state: State, p: Params) -> tuple[str, ...]:
    """Under `voluntary_default`, the contracts a Resolve may default on besides its front
    contract: when the front is the last dividend, every contract in the queue, which the final
    resolution meets in turn (FOREX-10.5.5) — unless a bankruptcy ends it first."""
    front = state.queue[0]
    if not p.voluntary_default or not isinstance(front, Dividend) or front.number != len(p.dividends):
        return ()
    return tuple(item.set for item in state.queue[1:] if isinstance(item, Contract))


def most_held(state: State, p: Params) -> tuple[dict[str, int], list[str]]:
    """FOREX-10.5.3: the certificates in hand per currency, and the currencies held the most —
    the one a dividend strengthens, or those its resolver picks among."""
    held = {c: state.held(i) for i, c in enumerate(p.currencies)}
    most = max(held.values())
    return held, [c for c in p.currencies if held[c] == most]


def resolve(state: State, p: Params, action: Resolve, events: Log) -> State:
    """The Resolve action; the game ends here at a bankruptcy or after the last dividend."""
    front = state.queue[0]
    state = evolve(state, queue=state.queue[1:])
    last_dividend = False
    if isinstance(front, Dividend):
        state = _dividend(state, p, front, action, events)
        last_dividend = front.number == len(p.dividends)
    else:
        state = _item(state, p, front, action.default, events)
    if last_dividend:
        state = _final_resolution(state, p, action, events)
    if state.bankrupt is not None or (last_dividend and not state.queue):
        if events is not None:
            events.append(said.GAME_OVER(bankrupt=state.bankrupt))
        return final_scores(state, p, action.strongest, action.player, events)
    if action.strongest is not None:
        raise refused.NOT_THE_END(player=action.player, value=action.strongest)
    return state


def _final_resolution(state: State, p: Params, action: Resolve, events: Log) -> State:
    """After the last dividend, the rest of the queue met in turn, unless a bankruptcy ends
    it first (FOREX-10.5.5)."""
    if events is not None:
        events.append(said.LAST_DIVIDEND(queue=queue_labels(state)))
    while state.queue and state.bankrupt is None:
        front, state = state.queue[0], evolve(state, queue=state.queue[1:])
        state = _item(state, p, front, action.default, events)
    return state


def _item(state: State, p: Params, item: Item, defaults: tuple[str, ...], events: Log) -> State:
    if isinstance(item, Contract):
        return _contract(state, p, item, item.set in defaults, events)
    if isinstance(item, Loan):
        return _loan(state, p, item, events)
    raise AssertionError(f"a second Dividend stack in the queue: {item}")  # setup forbids it


def _contract(state: State, p: Params, contract: Contract, voluntary: bool, events: Log) -> State:
    owner = contract.owner
    pay_currency, pay = contract.pay
    get_currency, get = contract.receive
    holding = state.holding(owner)
    has = holding.money[p.index(pay_currency)]
    holding = holding.add_money(p.index(get_currency), get)
    if has >= pay and not voluntary:
        holding = holding.add_money(p.index(pay_currency), -pay)
        if events is not None:
            events.append(said.CONTRACT_PAID(set=contract.set, owner=owner, pay={pay_currency: pay},
                                             receive={get_currency: get}))
        return state.with_holding(owner, holding)
    state = state.with_holding(owner, holding)
    debt = pay + p.loan_interest
    if events is not None:
        events.append(said.DEFAULTED(set=contract.set, owner=owner, pay={pay_currency: pay}, receive={get_currency: get},
                                     holds=has, by_choice=has >= pay, interest=p.loan_interest,
                                     owe={pay_currency: debt}))
    return _borrow(state, p, contract, debt, events)


def _borrow(state: State, p: Params, contract: Contract, debt: Fraction, events: Log) -> State:
    """A defaulted contract's debt: a new loan at the back of the queue, or added to the loan
    its owner already has."""
    owner, pay_currency = contract.owner, contract.pay[0]
    existing, old = next(((i, item) for i, item in enumerate(state.queue) if isinstance(item, Loan) and item.owner == owner),
                         (None, None))
    if existing is None or old is None:
        loan = Loan(contract.set, owner, ((pay_currency, debt),))
        state = evolve(state, queue=state.queue + (loan,))
        if events is not None:
            events.append(said.LOAN(set=loan.set, owe=dict(loan.owe), queue=queue_labels(state)))
        return state
    owed = dict(old.owe)
    owed[pay_currency] = owed.get(pay_currency, Fraction(0)) + debt
    merged = evolve(old, owe=tuple((c, owed[c]) for c in p.currencies if c in owed))
    state = evolve(state, queue=state.queue[:existing] + (merged,) + state.queue[existing + 1:])
    if events is not None:
        events.append(said.LOAN_GROWS(owner=owner, loan=old.set, owe=dict(merged.owe), set=contract.set))
    return state


def _loan(state: State, p: Params, loan: Loan, events: Log) -> State:
    holding = state.holding(loan.owner)
    short = [(c, a) for c, a in loan.owe if holding.money[p.index(c)] < a]
    if short:
        if events is not None:
            holds = {c: holding.money[p.index(c)] for c, _ in loan.owe}
            events.append(said.BANKRUPT(set=loan.set, owner=loan.owner, owe=dict(loan.owe), holds=holds,
                                        short=dict(short)))
        return evolve(state, bankrupt=loan.owner)
    for currency, amount in loan.owe:
        holding = holding.add_money(p.index(currency), -amount)
    if events is not None:
        events.append(said.LOAN_PAID(set=loan.set, owner=loan.owner, owe=dict(loan.owe)))
    return state.with_holding(loan.owner, holding)


def _unpaid(state: State, p: Params, stopped: Mapping[str, str]) -> list[Event]:
    """FOREX-10.5.2, told: each currency held whose certificates a pair at the end of its track
    stops from paying."""
    side = "either" if p.no_dividend_side is NoDividendSide.BOTH else "weaker"
    return [said.NO_DIVIDEND(currency=currency, pair=key, side=side)
            for currency, key in stopped.items() if state.held(p.index(currency))]


def _dividend(state: State, p: Params, dividend: Dividend, action: Resolve, events: Log) -> State:
    pays = p.dividends[dividend.number - 1]
    stopped = eight_space(state.pairs, p) if pays else {}
    told = len(events) if events is not None else 0  # the dividend's own event goes before these
    if events is not None:
        events += _unpaid(state, p, stopped)
    state, gains = _pay_dividend(state, p, pays, stopped)
    held, tied = most_held(state, p)
    most = held[tied[0]]
    chosen = pick(tied, action.strengthen, "FOREX-10.5.3", "strengthen", action.player, {"held": held})
    pairs, moved = shift(state.pairs, p, chosen, stronger=True, notes=events is not None)
    state = evolve(state, pairs=pairs)
    if events is not None:
        events.insert(told, said.DIVIDEND(dividend=dividend.number, pays=pays, gains=gains))
        events.append(said.MOST_HELD(currency=chosen, tied=tied, picked_by=action.player if len(tied) > 1 else None,
                                     held=held, most=most, moved=moved))
    if dividend.number < len(p.dividends):
        state = evolve(state, queue=state.queue + (Dividend(dividend.number + 1),))
        if events is not None:
            events.append(said.DIVIDEND_BACK(queue=queue_labels(state)))
    return state


def _pay_dividend(state: State, p: Params, pays: int, stopped: Mapping[str, str]) -> tuple[State, dict[str, dict[str, int]]]:
    """Each player paid `pays` a certificate held of every currency not stopped by an eight
    space: the new state and what each player got, by currency."""
    gains = {}
    for name in state.players:
        holding, got = state.holding(name), {}
        for index, currency in enumerate(p.currencies):
            count = holding.certificates[index]
            if count and pays and currency not in stopped:
                holding = holding.add_money(index, Fraction(pays * count))
                got[currency] = pays * count
        state = state.with_holding(name, holding)
        gains[name] = got
    return state, gains
