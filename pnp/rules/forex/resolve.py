"""Resolving the front of the contract queue (FOREX-10) and the end of the game (FOREX-11).

A contract is paid or becomes a Loan (pay amount + interest) that goes to the back or joins the
owner's Loan; a Loan is paid in full or its owner is Bankrupt; a Dividend pays every holder,
strengthens the most-held currency and goes to the back — except the last one, after which the
rest of the queue resolves with no more turns (FOREX-10.5.5) and the game is scored.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from pnp.rules.base import Event, Violation
from pnp.rules.forex.board import eight_space, shift
from pnp.rules.forex.params import Params, show
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


def queue_text(state: State) -> str:
    return ", ".join(item.label() for item in state.queue) or "empty"


def resolve(state: State, p: Params, action: Resolve) -> tuple[State, list[Event]]:
    """The Resolve action; the game ends here at a bankruptcy or after the last dividend."""
    if action.default and not p.voluntary_default:
        raise Violation("FOREX-10.3", f"{action.player} names contract {', '.join(action.default)} to default, "
                        "but a player who can pay must pay (voluntary_default is off)")
    front = state.queue[0]
    if action.strengthen is not None and not isinstance(front, Dividend):
        raise Violation("FOREX-10.5.3", f"{action.player} names {action.strengthen} to strengthen, but the front of the "
                        f"queue is {front.label()}, not a dividend")
    state = replace(state, queue=state.queue[1:])
    resolved: list[str] = []
    last_dividend = False
    if isinstance(front, Dividend):
        state, events = _dividend(state, p, front, action)
        last_dividend = front.number == len(p.dividends)
    else:
        state, events = _item(state, p, front, action.default, resolved)
    if last_dividend:
        rest = f"the rest of the queue resolves in order: {queue_text(state)}" if state.queue else "the queue is empty"
        events.append(Event("FOREX-10.5.5", f"last dividend resolved: no more turns; {rest}"))
        while state.queue and state.bankrupt is None:
            front, state = state.queue[0], replace(state, queue=state.queue[1:])
            state, more = _item(state, p, front, action.default, resolved)
            events += more
    unused = [letter for letter in action.default if letter not in resolved]
    if unused:
        raise Violation("FOREX-10.3", f"{action.player} names contract {', '.join(unused)} to default, but no such "
                        "contract is resolved by this action")
    if state.bankrupt is not None or (last_dividend and not state.queue):
        why = f"{state.bankrupt} is Bankrupt" if state.bankrupt is not None else "the queue is empty after the last dividend"
        events.append(Event("FOREX-11.1", f"game over: {why}"))
        state, scoring = final_scores(state, p, action.strongest, action.player)
        return state, events + scoring
    if action.strongest is not None:
        raise Violation("FOREX-12.1", f"{action.player} names {action.strongest} strongest, but the game does not end "
                        "with this action")
    return state, events


def _item(state: State, p: Params, item: Item, defaults: tuple[str, ...], resolved: list[str]) -> tuple[State, list[Event]]:
    if isinstance(item, Contract):
        resolved.append(item.set)
        return _contract(state, p, item, voluntary=item.set in defaults)
    if isinstance(item, Loan):
        return _loan(state, p, item)
    raise AssertionError(f"a second Dividend stack in the queue: {item}")  # setup forbids it


def _contract(state: State, p: Params, contract: Contract, voluntary: bool) -> tuple[State, list[Event]]:
    owner = contract.owner
    pay_currency, pay = contract.pay
    get_currency, get = contract.receive
    holding = state.holding(owner)
    has = holding.money[p.index(pay_currency)]
    holding = holding.add_money(p.index(get_currency), get)
    if has >= pay and not voluntary:
        holding = holding.add_money(p.index(pay_currency), -pay)
        text = f"contract {contract.set}: {owner} pays {show(pay)} {pay_currency} and receives {show(get)} {get_currency}; " \
               f"set {contract.set} returns to the display"
        return state.with_holding(owner, holding), [Event("FOREX-10.1", text)]
    state = state.with_holding(owner, holding)
    debt = pay + p.loan_interest
    why = f"defaults by choice (holds {show(has)} {pay_currency})" if has >= pay else \
        f"holds {show(has)} {pay_currency}, cannot pay {show(pay)}"
    events = [Event("FOREX-10.2", f"contract {contract.set}: {owner} {why} → receives {show(get)} {get_currency} and owes "
                    f"{show(debt)} {pay_currency} ({show(pay)} + {show(p.loan_interest)} interest)")]
    existing = next((i for i, item in enumerate(state.queue) if isinstance(item, Loan) and item.owner == owner), None)
    if existing is None:
        loan = Loan(contract.set, owner, ((pay_currency, debt),))
        state = replace(state, queue=state.queue + (loan,))
        events.append(Event("FOREX-10.2.1", f"loan {loan.set} ({loan.terms()}) goes to the back: queue {queue_text(state)}"))
        return state, events
    old = state.queue[existing]
    owed = dict(old.owe)
    owed[pay_currency] = owed.get(pay_currency, Fraction(0)) + debt
    merged = replace(old, owe=tuple((c, owed[c]) for c in p.currencies if c in owed))
    state = replace(state, queue=state.queue[:existing] + (merged,) + state.queue[existing + 1:])
    events.append(Event("FOREX-10.2.2", f"the debt joins {owner}'s loan {old.set}, which keeps its place: loan {old.set} = "
                        f"{merged.terms()}; set {contract.set} returns to the display"))
    return state, events


def _loan(state: State, p: Params, loan: Loan) -> tuple[State, list[Event]]:
    holding = state.holding(loan.owner)
    short = [(c, a) for c, a in loan.owe if holding.money[p.index(c)] < a]
    if short:
        has = ", ".join(f"{c} {show(holding.money[p.index(c)])}" for c, _ in loan.owe)
        lacking = " and ".join(f"{show(a)} {c}" for c, a in short)
        text = f"loan {loan.set}: {loan.owner} owes {loan.terms()} but holds {has}, cannot pay {lacking} → Bankrupt"
        return replace(state, bankrupt=loan.owner), [Event("FOREX-10.4", text)]
    for currency, amount in loan.owe:
        holding = holding.add_money(p.index(currency), -amount)
    text = f"loan {loan.set}: {loan.owner} pays {loan.terms()}; set {loan.set} returns to the display"
    return state.with_holding(loan.owner, holding), [Event("FOREX-10.4", text)]


def _dividend(state: State, p: Params, dividend: Dividend, action: Resolve) -> tuple[State, list[Event]]:
    pays = p.dividends[dividend.number - 1]
    events = []
    stopped = eight_space(state.pairs, p) if pays else {}
    for currency, key in stopped.items():
        if state.held(p.index(currency)):
            side = "a side" if p.no_dividend_side == "both" else "the weaker side"
            events.append(Event("FOREX-10.5.2", f"{currency} certificates pay nothing: {currency} is {side} of {key} "
                                "on the “8” space"))
    gains = []
    for name in state.players:
        holding, got = state.holding(name), []
        for index, currency in enumerate(p.currencies):
            count = holding.certificates[index]
            if count and pays and currency not in stopped:
                holding = holding.add_money(index, Fraction(pays * count))
                got.append(f"+{pays * count} {currency}")
        state = state.with_holding(name, holding)
        gains.append(f"{name} {', '.join(got) if got else 'nothing'}")
    events.insert(0, Event("FOREX-10.5.1", f"{dividend.label()} pays {pays} per certificate: {'; '.join(gains)}"))
    held = {c: state.held(p.index(c)) for c in p.currencies}
    most = max(held.values())
    tied = [c for c in p.currencies if held[c] == most]
    others = ", ".join(f"{c} {held[c]}" for c in sorted(held, key=lambda c: -held[c]) if held[c] and c not in tied)
    reason = f"{most} certificate{'s' * (most != 1)} in hand" + (f"; then {others}" if others else "")
    chosen = pick(tied, action.strengthen, "FOREX-10.5.3", "strengthen", action.player, reason)
    pairs, moved = shift(state.pairs, p, chosen, stronger=True)
    state = replace(state, pairs=pairs)
    how = f"{action.player} picks {chosen} among {', '.join(tied)}" if len(tied) > 1 else f"most in hand: {chosen}"
    events.append(Event("FOREX-10.5.3", f"{how} ({reason}) → {chosen} strengthened: {moved}"))
    if dividend.number < len(p.dividends):
        state = replace(state, queue=state.queue + (Dividend(dividend.number + 1),))
        events.append(Event("FOREX-10.5.4", f"the Dividend stack goes to the back: queue {queue_text(state)}"))
    return state, events
