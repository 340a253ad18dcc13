"""Random play of Акционер to the end on mutable numbers: the simulator's fast path.

`pnp simulate aktsioner` with random bots plays its games here, several times sooner than
through `apply` (a new immutable position, templates and the sampler at every step). It is the
engine's rules again — the turn's Begin, stage-1 trade, card and stage-3 trade (AKT-3), the
compensations and overflow bonuses (AKT-6), the penalties (AKT-7), the eliminations (AKT-A11) — on
lists of numbers, and it makes the very draws of the simulator's slow path from `rng`, in the
same order (`pnp.rules.contract.Playout`): the first player `to_move` lists draws one of his
`legal_actions` with `legal.pick`, and `legal.draw` fills its fields. So it plays the same games,
and tests/test_playout.py holds every result equal to the slow path's, tests/test_playout_oracle.py
every step of its traces. It plays from any position with every hand known (a deal, or a
determinized view), mid-turn too.

What it reuses, and what it restates. New prices come from the engine's own `prices.change`
(tabled once per rule set), the position from the engine's `setup`, the capital and winners
from `scoring`, the card assignments from `Params.choices`, so rounding, bounds and scores
cannot drift from the engine. It restates, on plain numbers, the turn order (AKT-3.6, a loop
over seats), a trade's draws and its cash (AKT-3.1, 3.3: the template's Budget unrolled), the
compensations, overflow bonuses and penalties of a card (AKT-6, 7) and the eliminations
(AKT-A11): the engine builds an `Account` per player and a `Change` per colour at every card,
which costs more than the rest of the turn.

The draws of one turn, as the slow path makes them (`random` is `rng.random`, one float each):
- Begin: the next player's only template (1), unless the mover ended the last turn with it;
- stage 1, unless it is the last round (AKT-8.1): the trade or one of the distinct cards in hand
  (1); a trade draws its buyers' order (colours − 1), each colour's sale, then each purchase in
  that order within the cash left (2 × colours), and the stage goes on (the trade or a card,
  again) unless the trade was of nothing, which ends its trading: then a card among those in
  hand (1);
- the card's assignment of its uncoloured numbers (1);
- stage 3, unless the game is over or in its last round: the mover's trade or his end of the
  turn — the next player's Begin, which is his own when he also moves next (1); a trade's
  draws, and again, until a trade of nothing (after which the next player draws his Begin) or
  the end.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any, Callable, Mapping, Sequence

from pnp.rules.aktsioner.actions import Begin, Trade
from pnp.rules.aktsioner.cards import Effect, Number, Play
from pnp.rules.aktsioner.params import Params
from pnp.rules.aktsioner.prices import change
from pnp.rules.aktsioner.rulebook import PenaltyOrder
from pnp.rules.aktsioner.scoring import OVER, holding, winners
from pnp.rules.aktsioner.state import State
from pnp.rules.base import Observer, Outcome, Played, Trace, by_identity

Move = tuple[int, Number, Number, Number]  # an effect on one old price: new price, drop, overflow, penalty
Assignment = tuple[tuple[int, Mapping[int, Move]], ...]  # a card as played: (colour, its moves by old price) each


@by_identity(16)
def _assignments(params: Params) -> tuple[tuple[Assignment, ...], ...]:
    """Per card (in deck order), `Params.choices` as played: its own colour and effect first,
    then each uncoloured one's, each with its moves by old price. Made once per rule set: a
    simulation plays thousands of games under one `Params`."""
    moves: dict[Effect, dict[int, Move]] = {}

    def on(colour: str, effect: Effect) -> tuple[int, Mapping[int, Move]]:
        if effect not in moves:  # prices are always spaces of the board (AKT-1.2, 5.4)
            moves[effect] = {old: _move(colour, effect, old, params) for old in params.cells}
        return params.colours.index(colour), moves[effect]

    return tuple(
        tuple((on(card.colour, card.own), *(on(colour, effect) for effect, colour in choice))
              for choice in params.choices[name][0])
        for name, card in params.cards.items()
    )


def _move(colour: str, effect: Effect, old: int, params: Params) -> Move:
    """The engine's `change`, as the numbers the turn needs. The mover is compensated `drop` per
    share whenever the card lowers a price (AKT-6.1, 6.3): `drop` is 0 when it does not."""
    made = change(colour, effect, old, params)
    return made.new, made.drop, made.overflow, made.penalty


def playout(params: Params, state: State, rng: random.Random, watch: Observer, trace: Trace | None = None) -> Played:
    """From `state` (a deal's setup, or any later position with the hands known) to the end,
    every player drawing at random as the simulator's random bot does. The turn's steps are
    inline (a game is some 30 turns of a few microseconds each); its trades, a dozen draws
    each, are in `_stage1_trades` and `_stage3_trades`."""
    hands = _hands(params, state)
    prices, cash, shares, out = _numbers_of(state)
    if state.over:
        return Played(_outcome(state.players, shares, cash, prices), 0, 0)
    assignments, draw, names = _assignments(params), rng.random, tuple(params.cards)
    players, count = state.players, len(state.players)
    dearer_first, eliminate_broke = params.equal_penalty_order is PenaltyOrder.HIGHER_OLD_FIRST, params.eliminate_broke
    track, unit = watch.track, watch.unit  # called every turn
    board = state.prices  # the prices as a tuple: what the watch reads, kept for the worth
    watch.track(board)
    watch.money(())  # the game prints no money and has no supplies (`AktsionerProbe`)
    watch.supplies(())
    watch.unit(_worth(board, cash, shares))
    steps = turns = 0
    last_round = _last_round(hands, out)
    mover, stage, bought, closed = _resume(state, hands, out, len(params.colours), last_round, draw)
    table = (names, prices, cash, shares, hands, out)
    record = _record(trace)
    while mover is not None:  # a turn; its Begin drawn before (the one template, or the end of stage 3)
        if stage == 0:  # the Begin
            steps, turns = steps + 1, turns + 1
            bought, closed = [0] * len(prices), last_round  # AKT-8.1: no trading in the last round
            if trace is not None:
                trace.append((Begin(players[mover]), _numbers(*table, mover, bought)))
            unit(_worth(board, cash, shares))
            stage = 1
        if stage == 1:  # stage 1, then the card
            hand = hands[mover]
            cards = list(dict.fromkeys(hand))  # a play template per kind of card held, after the trade if offered
            k = int(draw() * len(cards)) if closed else int(draw() * (len(cards) + 1)) - 1
            if k < 0:  # a trade
                k, traded = _stage1_trades(draw, params, table, mover, bought, len(cards), record, trace)
                steps += traded
            card = cards[k]
            choices = assignments[card]
            chosen = int(draw() * len(choices))
            _play(choices[chosen], prices, shares, cash, mover, dearer_first)
            hand.remove(card)
            steps += 1
            board = tuple(prices)
            track(board)
            if eliminate_broke:
                _eliminate(prices, shares, cash, out)
            if not last_round and (len(hand) <= 1 or out[mover]):  # else the mover's hand says "not yet"; and
                last_round = _last_round(hands, out)  # hands only shrink, players only leave: it lasts to the end
            if trace is not None:
                trace.append((Play(names[card], params.choices[names[card]][0][chosen]), _numbers(*table, mover, bought)))
            if last_round and _all_played(hands, out):  # AKT-9.1
                break
            closed = last_round
        # stage 3: the mover's trades, until one of nothing or his end of the turn
        following = mover + 1 if mover + 1 < count else 0  # most often; else a search
        if out[following] or not hands[following]:
            following = _next(hands, out, mover)
        if closed:
            draw()  # the next player's Begin, his one template
        elif int(draw() * 2) != 1:  # a trade, not the end of the turn (the next player's Begin)
            steps += _stage3_trades(draw, params, table, mover, bought, record, trace)
        mover, stage = following, 0
    return Played(_outcome(players, shares, cash, prices), steps, turns)


_Position = tuple[Sequence[str], list[int], list[Number], list[list[int]], list[list[int]], list[bool]]
"""The playout's position, the parts its helpers change or trace: the card names, the prices,
each seat's cash, shares and hand (card numbers), who is out."""


def _hands(params: Params, state: State) -> list[list[int]]:
    """Each seat's hand as card numbers, sorted as dealt; every hand must be known."""
    needs = "an Акционер playout needs every hand (a deal, or a view determinized)"
    if state.hands is None:
        raise ValueError(needs)
    try:
        return [[params.order[name] for name in hand] for hand in state.hands]
    except KeyError:  # a view's hidden cards
        raise ValueError(needs) from None


def _numbers_of(state: State) -> tuple[list[int], list[Number], list[list[int]], list[bool]]:
    """The position on mutable numbers: the prices; each seat's cash, shares, and whether he is out."""
    accounts = state.accounts
    return (list(state.prices), [a.cash for a in accounts], [list(a.shares) for a in accounts],
            [seat in state.out for seat in range(len(accounts))])


def _record(trace: Trace | None) -> list[tuple[bool, int, int]] | None:
    """With a trace, the list where `_trade` notes a trade's moves (selling?, colour, shares)."""
    return None if trace is None else []


def _resume(state: State, hands: list[list[int]], out: list[bool], colours: int, last_round: bool,
            draw: Callable[[], float]) -> tuple[int | None, int, list[int], bool]:
    """Where play goes on: the mover, his stage (0: the Begin, 1: stage 1 and the card, 3),
    what his stage 1 bought and whether the stage's trading is closed (by a trade of nothing,
    or the last round). Before the first turn, the first mover's Begin is drawn here."""
    turn = state.turn
    if turn is None:  # AKT-2.5: anyone with cards may begin the game, and the first of them draws
        mover = next((seat for seat in range(len(hands)) if not out[seat] and hands[seat]), None)
        if mover is not None:
            draw()
        return mover, 0, [0] * colours, last_round
    return turn.mover, 3 if turn.played else 1, list(turn.bought), turn.closed or last_round  # its stage 1 or 3 goes on


def _stage1_trades(draw: Callable[[], float], params: Params, table: _Position, mover: int, bought: list[int],
                   cards: int, record: list[tuple[bool, int, int]] | None, trace: Trace | None) -> tuple[int, int]:
    """Stage 1 after a trade was drawn: the trade, then the trade or one of the `cards` again,
    until a card (a trade of nothing leaves only the cards). The card's index, and the trades."""
    _, prices, cash, shares, _, _ = table
    traded = 0
    while True:
        cash[mover], moved = _trade(draw, prices, shares[mover], bought, cash[mover], False, record)
        traded += 1
        if trace is not None:
            trace.append((_traded(params, record), _numbers(*table, mover, bought)))
        k = int(draw() * (cards + 1)) - 1 if moved else int(draw() * cards)
        if k >= 0:
            return k, traded


def _stage3_trades(draw: Callable[[], float], params: Params, table: _Position, mover: int, bought: list[int],
                   record: list[tuple[bool, int, int]] | None, trace: Trace | None) -> int:
    """Stage 3 after a trade was drawn: the trade, then the trade or the end of the turn (the
    next player's Begin) again, until the end or a trade of nothing, after which the next
    player draws his Begin. How many trades."""
    _, prices, cash, shares, _, _ = table
    traded = 0
    while True:
        cash[mover], moved = _trade(draw, prices, shares[mover], bought, cash[mover], True, record)
        traded += 1
        if trace is not None:
            trace.append((_traded(params, record), _numbers(*table, mover, bought)))
        if not moved:
            draw()  # the next player's Begin
            return traded
        if int(draw() * 2) == 1:
            return traded


def _all_played(hands: list[list[int]], out: list[bool]) -> bool:
    """Every player still in has played his last card: the game is over (AKT-9.1)."""
    return not any(left for left, gone in zip(hands, out, strict=True) if not gone)


def _numbers(names: Sequence[str], prices: list[int], cash: list[Number], shares: list[list[int]],
             hands: list[list[int]], out: list[bool], mover: int, bought: list[int]) -> tuple[Any, ...]:
    """`numbers` of the engine's position, from the playout's."""
    return (tuple(prices), tuple(cash), tuple(map(tuple, shares)), tuple(tuple(names[card] for card in hand) for hand in hands),
            tuple(out), mover, tuple(bought))


def _traded(params: Params, record: list[tuple[bool, int, int]] | None) -> Trade:
    """The trade `_trade` just drew (its `record`), as the engine's action."""
    assert record is not None
    sold = {params.colours[i]: n for selling, i, n in record if selling}
    got = {params.colours[i]: n for selling, i, n in record if not selling}
    record.clear()
    return Trade.of(sold, got)


def _outcome(players: Sequence[str], shares: Sequence[Sequence[int]], cash: Sequence[Number],
             prices: Sequence[int]) -> Outcome:
    """AKT-9 on numbers: each player's capital (`scoring.holding`), the winners."""
    scores = {name: holding(held, prices, money) for name, held, money in zip(players, shares, cash, strict=True)}
    return Outcome(scores, tuple(winners(scores)), OVER)


def numbers(state: State) -> tuple[Any, ...]:
    """What the playout keeps of a position, as its trace gives it: the prices; each seat's
    cash, shares and hand; who is out; the mover and what his stage 1 bought."""
    turn = state.turn
    return (state.prices, tuple(a.cash for a in state.accounts), tuple(a.shares for a in state.accounts),
            state.hands, tuple(seat in state.out for seat in range(len(state.players))),
            None if turn is None else turn.mover, None if turn is None else turn.bought)


def _trade(draw: Callable[[], float], prices: list[int], held: list[int], bought: list[int], cash: Number,
           stage3: bool, record: list[tuple[bool, int, int]] | None) -> tuple[Number, bool]:
    """`legal.draw` of the engine's trade template (a Budget of the cash: buyers shuffled, sales
    first, then each purchase within what is left), applied as `_trade` applies it; the cash
    after, and whether any share moved (a trade of nothing ends the stage's trading). `bought`
    counts this turn's stage-1 purchases, which stage 3 may not sell (AKT-3.3). With a
    `record`, each sale and purchase is appended (selling?, colour, shares), in order."""
    count = len(prices)
    order = list(range(count))
    for i in range(count - 1):  # legal.shuffle
        j = i + int(draw() * (count - i))
        order[i], order[j] = order[j], order[i]
    left, moved = cash, False
    for i, price in enumerate(prices):
        sold = int(draw() * ((held[i] - bought[i] if held[i] > bought[i] else 0) + 1 if stage3 else held[i] + 1))
        if sold:
            held[i] -= sold
            left += sold * price
            moved = True
            if record is not None:
                record.append((True, i, sold))
    for i in order:  # a field's bound (cash and every sale) is never below what is left: `left` bounds it
        price = prices[i]
        got = int(draw() * (left // price + 1))  # `//` gives an int, of a Fraction too
        if got:
            held[i] += got
            if not stage3:
                bought[i] += got
            left -= got * price
            moved = True
            if record is not None:
                record.append((False, i, got))
    return left, moved


def _play(assignment: Assignment, prices: list[int], shares: list[list[int]], cash: list[Number], mover: int,
          dearer_first: bool) -> None:
    """The card's changes, each from the price before it (AKT-4.5: a card changes a colour at
    most once); the mover's compensation and the overflow bonuses (AKT-6), then the penalties
    (AKT-7), as `engine._play` does. Money is whole numbers or fractions, exact: the payments
    before the penalties add up the same in any order."""
    held, zeroed = shares[mover], []
    for i, moves in assignment:
        old = prices[i]
        prices[i], drop, overflow, penalty = moves[old]
        if drop and held[i]:
            cash[mover] += drop * held[i]
        if overflow:
            for seat, own in enumerate(shares):
                if own[i]:
                    cash[seat] += overflow * own[i]
        if penalty:
            zeroed.append((penalty, -old if dearer_first else old, i))
    if zeroed:
        _penalise(sorted(zeroed), shares, cash, mover)


def _penalise(zeroed: list[tuple[Number, int, int]], shares: list[list[int]], cash: list[Number], mover: int) -> None:
    """Every opponent holding a zeroed colour pays penalty × shares from his cash, smallest
    penalty first (AKT-7.2 to 7.5); the shares he cannot pay for go to the bank."""
    count = len(shares)
    for seat in ((mover + k) % count for k in range(1, count)):
        own = shares[seat]
        for penalty, _, i in zeroed:
            if own[i]:
                held, money = own[i], cash[seat]
                kept = held if penalty * held <= money else min(held, int(money // penalty))
                own[i] = kept
                cash[seat] = money - kept * penalty


def _eliminate(prices: list[int], shares: list[list[int]], cash: list[Number], out: list[bool]) -> None:
    """Option eliminate_broke (AKT-A11): no shares and cash below the cheapest price."""
    cheapest = min(prices)
    for seat, gone in enumerate(out):
        if not gone and not any(shares[seat]) and cash[seat] < cheapest:
            out[seat] = True


def _next(hands: list[list[int]], out: list[bool], last: int) -> int:
    """The next player in seating order after `last` who is in and has cards (AKT-3.6); there
    is one until the game is over."""
    count = len(hands)
    return next(seat for seat in ((last + k) % count for k in range(1, count + 1)) if not out[seat] and hands[seat])


def _last_round(hands: list[list[int]], out: list[bool]) -> bool:
    """AKT-8.1: every player still in has at most one card left; nobody trades any more."""
    return all(len(hand) <= 1 for hand, gone in zip(hands, out, strict=True) if not gone)


def _worth(board: tuple[int, ...], cash: list[Number], shares: list[list[int]]) -> Callable[[], tuple[float, ...]]:
    """Each seat's capital now, when asked later (the probe's `worth`)."""
    return partial(_capitals, board, tuple(cash), tuple(map(tuple, shares)))


def _capitals(prices: tuple[int, ...], cash: tuple[Number, ...], shares: tuple[tuple[int, ...], ...]) -> tuple[float, ...]:
    return tuple(float(holding(held, prices, money)) for held, money in zip(shares, cash, strict=True))
