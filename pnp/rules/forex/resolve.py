"""Resolving the front of the contract queue (FOREX-10) and the end of the game (FOREX-11).

A contract is paid or becomes a Loan (pay amount + interest) that goes to the back or joins the
owner's Loan; a Loan is paid in full or its owner is Bankrupt; a Dividend pays every holder,
strengthens the most-held currency and goes to the back — except the last one, after which the
rest of the queue resolves with no more turns (FOREX-10.5.5) and the game is scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from pnp.rules.base import Log, Violation, evolve
from pnp.rules.forex import events as said
from pnp.rules.forex.board import eight_space, shift
from pnp.rules.forex.params import Params
from pnp.rules.forex.scoring import final_scores, pick
from pnp.rules.forex.state import Contract, Dividend, Item, Loan, State


@dataclass(frozen=True)
class Resolve:
    """FOREX-10: resolve the front item. `strengthen` breaks a dividend tie (10.5.3),
    `strongest` the final tie (12.1) when this action ends the game, and `default` names the
    contract sets whose owners default although they could pay (only with voluntary_default)."""

    player: str
    strengthen: str | None = None
    strongest: str | None = None
    default: tuple[str, ...] = ()


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


def resolve(state: State, p: Params, action: Resolve, events: Log) -> State:
    """The Resolve action; the game ends here at a bankruptcy or after the last dividend."""
    front = state.queue[0]
    _check_named(state, p, action, front)
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
        raise Violation("FOREX-12.1", f"{action.player} names {action.strongest} strongest, but the game does not end "
                        "with this action")
    return state


def _check_named(state: State, p: Params, action: Resolve, front: Item) -> None:
    """The contracts a Resolve names to default are ones it resolves, each once, and only
    under `voluntary_default` (FOREX-10.3); it names a currency to strengthen only at a
    dividend (FOREX-10.5.3)."""
    if action.default and not p.voluntary_default:
        raise Violation("FOREX-10.3", f"{action.player} names contract {', '.join(action.default)} to default, "
                        "but a player who can pay must pay (voluntary_default is off)")
    meets = (front.set,) if isinstance(front, Contract) else defaultable(state, p)
    unused = [letter for letter in action.default if letter not in meets]
    if unused:
        raise Violation("FOREX-10.3", f"{action.player} names contract {', '.join(unused)} to default, but no such "
                        "contract is resolved by this action")
    twice = [letter for letter in dict.fromkeys(action.default) if action.default.count(letter) > 1]
    if twice:  # a set is in the queue once at most (FOREX-7.1): one default each
        raise Violation("FOREX-10.3", f"{action.player} names contract {', '.join(twice)} to default more than once")
    if action.strengthen is not None and not isinstance(front, Dividend):
        raise Violation("FOREX-10.5.3", f"{action.player} names {action.strengthen} to strengthen, but the front of the "
                        f"queue is {front.label()}, not a dividend")


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


def _dividend(state: State, p: Params, dividend: Dividend, action: Resolve, events: Log) -> State:
    pays = p.dividends[dividend.number - 1]
    stopped = eight_space(state.pairs, p) if pays else {}
    told = len(events) if events is not None else 0  # the dividend's own event goes before these
    if events is not None:
        side = "either" if p.no_dividend_side == "both" else "weaker"
        for currency, key in stopped.items():
            if state.held(p.index(currency)):
                events.append(said.NO_DIVIDEND(currency=currency, pair=key, side=side))
    state, gains = _pay_dividend(state, p, pays, stopped)
    held = {c: state.held(p.index(c)) for c in p.currencies}
    most = max(held.values())
    tied = [c for c in p.currencies if held[c] == most]
    chosen = pick(tied, action.strengthen, "FOREX-10.5.3", "strengthen", action.player, _held_reason(held, most, tied))
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


def _held_reason(held: Mapping[str, int], most: int, tied: list[str]) -> str:
    """Why the tied currencies are the candidates to strengthen: the most certificates in
    hand, then the others' counts."""
    others = ", ".join(f"{c} {held[c]}" for c in sorted(held, key=lambda c: -held[c]) if held[c] and c not in tied)
    return f"{most} certificate{'s' * (most != 1)} in hand" + (f"; then {others}" if others else "")
