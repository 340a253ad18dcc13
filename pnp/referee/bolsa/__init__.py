"""The bolsa referee: a record's `start` and `rounds` as steps of the bolsa engine (REFEREE.md).

`reading` turns the record into steps, this module replays them, `writing` writes records. A
record may stop inside its last round, before a company is settled, saying so with
`unsettled: TEF`: the round goes as far as TEF, its bids so far (all, some or none) and its
withdrawals, and the record's position is the table's at that moment — an auction still
running, or, under `may_withdraw`, its losers still to choose.
"""

from __future__ import annotations

from typing import Sequence

from pnp.errors import RecordError
from pnp.referee.bolsa.reading import AuctionTurn, BringUp, Finish, Located, Path, Settlement, key_line, start, steps
from pnp.referee.bolsa.writing import record, starter
from pnp.referee.record import Record, where
from pnp.referee.replay import Step, StepViolation
from pnp.rules.base import Event, Violation
from pnp.rules.bolsa import engine

KEYS = ("rounds",)

__all__ = ["KEYS", "actions", "apply", "record", "setup", "starter", "steps"]


def setup(record: Record, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    """The standard setup (BOLSA-2) with the record's `start` laid over it."""
    return engine.setup(params, record.players, start(record, params))


def apply(state: engine.State, step: Step, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    action = step.action
    if isinstance(action, BringUp):
        return _bring_up(state, action, params)
    if isinstance(action, AuctionTurn):
        return _place_bid(state, action, params)
    if isinstance(action, Finish):
        return _finish(state, action, params)
    return engine.apply(state, action, params)


def _bring_up(state: engine.State, action: BringUp, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    """Resolve the company; its bids must be in the record exactly when an auction is due."""
    state, events = engine.apply(state, engine.Resolve(), params)
    auction = state.trade.auction  # type: ignore[union-attr]  # Resolve leaves a company in trade
    code = action.code
    if auction is not None and not action.bids:
        if action.settlement.settle is None:  # the record stops here: the auction is open
            return state, events
        first = state.players[auction.to_act].name
        raise _unreadable(action.record, action.path,
                          f"{code} goes to auction: add auctions.{code} with the bids in order, starting with {first} "
                          f"(or, to stop the record here, `unsettled: {code}` in its last round)")
    if auction is None and action.first_bid is not None:  # a readable record of what the rules do not allow:
        path = action.path + ("auctions", code)  # the engine says why, at the bids' key
        try:
            engine.apply(state, action.first_bid, params)
        except Violation as violation:
            raise StepViolation(violation, where(path), key_line(action.record, path), state, events) from None
    if auction is not None:
        return state, events
    return _settle(state, action.settlement, list(events), params)


def _place_bid(state: engine.State, action: AuctionTurn, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    return engine.apply(state, action.bid, params)


def _finish(state: engine.State, action: Finish, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    trade = state.trade
    assert trade is not None and trade.auction is not None, "a Finish follows the bids of an auction under way"
    players, auction = state.players, trade.auction
    if not auction.over and action.settlement.settle is not None:
        active = ", ".join(players[i].name for i in auction.order if i not in auction.passed)
        raise _unreadable(action.record, action.path, f"the {action.code} auction is not over: {active} have not "
                          f"passed; {players[auction.to_act].name} bids next (or, to stop the record here, "
                          f"`unsettled: {action.code}` in its last round)", key=True)
    return _settle(state, action.settlement, [], params)


def actions(step: Step) -> tuple[engine.Action, ...]:
    """The engine actions of one step: bringing up a company is `Resolve` and, without bids,
    its settlement at once; a bid is itself; the end of an auction is the settlement."""
    action = step.action
    if isinstance(action, BringUp):
        return (engine.Resolve(),) + (() if action.bids else _settlement(action.settlement))
    if isinstance(action, AuctionTurn):
        return (action.bid,)
    if isinstance(action, Finish):
        return _settlement(action.settlement)
    return (action,)


def _settlement(settlement: Settlement) -> tuple[engine.Action, ...]:
    return tuple(located.action for located in _choices(settlement))


def _choices(settlement: Settlement) -> tuple[Located, ...]:
    """The withdrawals, then the settlement itself unless the record stops before it."""
    return settlement.withdraw + (() if settlement.settle is None else (settlement.settle,))


def _unreadable(record: Record, path: Path, message: str, *, key: bool = False) -> RecordError:
    """What only replay reveals about the record itself (bids missing or extra): exit 2."""
    return RecordError([record.issue(path, message, key=key)])


def _settle(state: engine.State, settlement: Settlement, events: list[Event],
            params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    """Withdrawals then the settlement, each failing at its own place in the record."""
    for choice in _choices(settlement):
        try:
            state, more = engine.apply(state, choice.action, params)
        except Violation as violation:
            raise StepViolation(violation, choice.at, choice.line, state, events) from None
        events += more
    return state, events

