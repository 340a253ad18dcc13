"""An Акционер turn applied: `Begin` (AKT-3.6), `Trade`s in stages 1 and 3 (3.1, 3.3) and the
`Play` of a card in stage 2 (4 to 7): new prices, the mover's compensation, overflow bonuses
and the opponents' penalties.

Each handler applies an action `apply` has already judged legal (`listing`'s templates admit
it), so none checks a rule again: it moves the prices, the cash and the shares, and tells the
events.
"""

from __future__ import annotations

from typing import Any, Callable

from pnp.rules.aktsioner import events as said
from pnp.rules.aktsioner.actions import Begin, Trade
from pnp.rules.aktsioner.cards import Number, Play
from pnp.rules.aktsioner.params import DECKS, HIDDEN, Params
from pnp.rules.aktsioner.prices import Change, change
from pnp.rules.aktsioner.rulebook import PenaltyOrder
from pnp.rules.aktsioner.scoring import final_events
from pnp.rules.aktsioner.state import Account, State, Turn, active, cards_left, eliminate, final_round
from pnp.rules.base import Event, Log, evolve


def _begin(params: Params, state: State, action: Begin, events: Log) -> State:
    seat = state.seat(action.player)
    state = evolve(state, turn=Turn(seat, False, (0,) * len(params.colours)), last=seat)
    if events is not None:
        big, small = (cards_left(params, state, seat, deck) for deck in DECKS)
        events.append(said.TURN(player=action.player, big=big, small=small))
        if final_round(params, state):
            events.append(said.LAST_ROUND())
    return state


def _trade(params: Params, state: State, trade: Trade, events: Log) -> State:
    """Sales, then purchases, at the board's prices; a trade of nothing ends the stage's trading."""
    turn = state.turn
    assert turn is not None  # a trade is admitted only in a turn
    if not any(count for _, count in (*trade.sell, *trade.buy)):
        return evolve(state, turn=evolve(turn, closed=True))
    player, rule = state.players[turn.mover], "AKT-3.3" if turn.played else "AKT-3.1"
    account = state.accounts[turn.mover]
    cash, shares, bought = account.cash, list(account.shares), list(turn.bought)
    for sign, side in ((-1, trade.sell), (1, trade.buy)):
        for colour, count in side:
            if not count:
                continue
            i, price = params.colours.index(colour), state.price(params, colour)
            shares[i] += sign * count
            cash -= sign * count * price
            if sign > 0 and not turn.played:
                bought[i] += count
            if events is not None:
                events.append(said.TRADED(rule, player=player, colour=colour, shares=sign * count, price=price,
                                          amount=-sign * count * price, cash=cash))
    accounts = _with(state.accounts, turn.mover, Account(cash, tuple(shares)))
    return evolve(state, accounts=accounts, turn=evolve(turn, bought=tuple(bought)))


def _play(params: Params, state: State, play: Play, events: Log) -> State:
    turn = state.turn
    assert turn is not None  # a card is admitted only in stage 2 of a turn
    mover, player, card = turn.mover, state.players[turn.mover], params.cards[play.card]
    was_last_round = final_round(params, state)
    changes = [change(card.colour, card.own, state.price(params, card.colour), params)]
    changes += [change(colour, effect, state.price(params, colour), params) for effect, colour in play.choices]
    prices = list(state.prices)
    if events is not None:
        events.append(said.PLAYED(card.rule, player=player, card=play.card, play=str(play)))
        events += map(_price_event, changes)
    for item in changes:
        prices[params.colours.index(item.colour)] = item.new
    accounts = list(state.accounts)
    _compensate(params, state, accounts, changes, events)
    _overflow_bonus(params, state, accounts, changes, events)
    _penalise(params, state, accounts, changes, events)
    hands = state.hands
    if hands is not None:
        hand = list(hands[mover])
        hand.remove(play.card if play.card in hand else HIDDEN[card.deck])  # a view: one of the backs
        hands = _with(hands, mover, tuple(hand))
    state = evolve(
        state,
        prices=tuple(prices),
        accounts=tuple(accounts),
        hands=hands,
        plays=state.plays + ((mover, play.card),),
        turn=evolve(turn, played=True, closed=False),
    )
    return _ended(params, eliminate(params, state, events), was_last_round, events)


def _ended(params: Params, state: State, was_last_round: bool, events: Log) -> State:
    """After a card's play: the game over when no player still in has a card left, else the
    last round told when this play begins it."""
    if not any(cards_left(params, state, seat) for seat in active(state)):
        state = evolve(state, over=True)
        if events is not None:
            events += final_events(params, state)
    elif events is not None and final_round(params, state) and not was_last_round:
        events.append(said.LAST_ROUND())  # AKT-A14: from this play on, even the mover's stage 3
    return state


def _price_event(item: Change) -> Event:
    if item.overflow:
        rule = "AKT-6.2"
    elif item.zeroed:
        rule = "AKT-5.3" if item.effect.op == "/" else "AKT-7.1"
    else:
        rule = "AKT-5.2" if item.rounded else "AKT-5.4"
    return said.PRICE(rule, colour=item.colour, old=item.old, effect=str(item.effect), calc=item.calc, new=item.new,
                      overflow=item.overflow, penalty=item.penalty)


def _compensate(
    params: Params, state: State, accounts: list[Account], changes: list[Change], events: Log
) -> None:
    """AKT-6.1/6.3: the mover is paid for his own shares the card lowers (AKT-4.5: before any
    penalty)."""
    mover = state.turn.mover  # type: ignore[union-attr]  # called in a card's play: a turn is under way
    for item in changes:
        i = params.colours.index(item.colour)
        held = accounts[mover].shares[i]
        if item.calc < item.old and held:
            amount = item.drop * held
            accounts[mover] = evolve(accounts[mover], cash=accounts[mover].cash + amount)
            if events is not None:
                events.append(said.COMPENSATION("AKT-6.3" if item.zeroed else "AKT-6.1", player=state.players[mover],
                                                colour=item.colour, old=item.old, new=item.new, held=held,
                                                amount=amount))


def _overflow_bonus(
    params: Params, state: State, accounts: list[Account], changes: list[Change], events: Log
) -> None:
    """AKT-6.2: every holder of a colour pushed past the top is paid the excess (AKT-4.5:
    before any penalty)."""
    for item in changes:
        if not item.overflow:
            continue
        i = params.colours.index(item.colour)
        for seat, account in enumerate(accounts):
            if account.shares[i]:
                bonus = item.overflow * account.shares[i]
                accounts[seat] = evolve(account, cash=account.cash + bonus)
                if events is not None:
                    events.append(said.OVERFLOW_BONUS(player=state.players[seat], colour=item.colour,
                                                      overflow=item.overflow, held=account.shares[i], amount=bonus))


def _penalise(
    params: Params, state: State, accounts: list[Account], changes: list[Change], events: Log
) -> None:
    """AKT-7.2 to 7.5: every opponent holding a zeroed colour pays penalty × shares from free
    cash, smallest penalty first; shares he cannot pay for go to the bank."""
    zeroed = _zeroed(params, changes)
    if not zeroed:
        return
    mover, count = state.turn.mover, len(state.players)  # type: ignore[union-attr]  # called in a card's play: a turn is under way
    for seat in ((mover + k) % count for k in range(1, count)):
        player = state.players[seat]
        owed = [item for item in zeroed if accounts[seat].shares[params.colours.index(item.colour)]]
        if len(owed) > 1 and events is not None:
            events.append(said.PENALTY_ORDER(player=player, order=[(item.colour, item.penalty) for item in owed],
                                             tied=_tied(owed)))
        for item in owed:
            accounts[seat] = _penalty_paid(accounts[seat], params.colours.index(item.colour), item, player, events)


def _zeroed(params: Params, changes: list[Change]) -> list[Change]:
    """The colours zeroed, in the order penalties are paid (AKT-7.5): smallest penalty first,
    then by old price as the house rule orders equal penalties, then in board order."""
    dearer_first = params.equal_penalty_order is PenaltyOrder.HIGHER_OLD_FIRST
    return sorted((item for item in changes if item.zeroed),
                  key=lambda item: (item.penalty, -item.old if dearer_first else item.old, params.colours.index(item.colour)))


def _penalty_paid(account: Account, i: int, item: Change, player: str, events: Log) -> Account:
    """AKT-7.2, 7.4: one zeroed colour's penalty (colour `i`) paid from free cash; the shares
    it cannot pay for go to the bank."""
    held, due = account.shares[i], item.penalty * account.shares[i]
    kept = held if due <= account.cash else min(held, int(account.cash // item.penalty))
    paid = due if kept == held else kept * item.penalty
    if events is not None:
        kind = said.PENALTY if kept == held else said.PENALTY_SHORT
        events.append(kind(player=player, colour=item.colour, penalty=item.penalty, held=held, due=due,
                           cash=account.cash, kept=kept, lost=held - kept, amount=-paid))
    shares = list(account.shares)
    shares[i] = kept
    return Account(account.cash - paid, tuple(shares))


def _tied(owed: list[Change]) -> list[list[str]]:
    """Colours that tie on penalty and on old price (possible under `hundred_split: free`),
    which AKT-7.5 leaves unordered: they are paid in board order, and the event says so."""
    groups: dict[tuple[Number, int], list[str]] = {}
    for item in owed:
        groups.setdefault((item.penalty, item.old), []).append(item.colour)
    return [colours for colours in groups.values() if len(colours) > 1]


HANDLERS: dict[type, Callable[..., State]] = {Begin: _begin, Trade: _trade, Play: _play}


def _with(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]
