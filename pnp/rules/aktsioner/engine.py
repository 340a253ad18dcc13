"""Applying actions. A turn is `Begin`, any number of `Trade`s (stage 1), a `Play` (stage 2)
and any number of `Trade`s (stage 3) (AKT-3); a trade of nothing ends a stage's trading, and
the next player's `Begin` ends the turn. `apply(state, action, params)` returns the new state
and the events, each citing its rule. It accepts an action exactly when one of
`legal_actions`' templates admits it (`legal.judge`); the handlers' checks word a refusal, as a
`Violation` with the numbers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping

from pnp.errors import brief
from pnp.rules.aktsioner import events as said
from pnp.rules.aktsioner.actions import Action, Begin, Trade

# Besides the contract, the names a caller of this game uses (`from pnp.rules.aktsioner import engine`
# is the game's whole API): the package itself holds only what the spec layer reads on each load.
from pnp.rules.aktsioner.cards import Card as Card
from pnp.rules.aktsioner.cards import Effect as Effect
from pnp.rules.aktsioner.cards import NotationError as NotationError
from pnp.rules.aktsioner.cards import Number, Play
from pnp.rules.aktsioner.cards import parse_play as parse_play
from pnp.rules.aktsioner.params import DECK_RULES, DECKS, HIDDEN, Params, params
from pnp.rules.aktsioner.playout import playout
from pnp.rules.aktsioner.prices import Change, change, penalty_table
from pnp.rules.aktsioner.prices import penalty_per_share as penalty_per_share
from pnp.rules.aktsioner.rulebook import RULEBOOK
from pnp.rules.aktsioner.scoring import OVER, capital, final_events, final_scores, winners
from pnp.rules.aktsioner.scoring import match_games as match_games
from pnp.rules.aktsioner.scoring import seating as seating
from pnp.rules.aktsioner.state import (
    Account,
    Start,
    State,
    Turn,
    active,
    card_list,
    cards_left,
    check_players,
    deal,
    deal_table,
    deck_name,
    deck_rule,
    eliminate,
    fill,
    final_round,
    hide,
    next_movers,
    played,
    setup,
    unseen,
)
from pnp.rules.aktsioner.state import DealViolation as DealViolation
from pnp.rules.base import Event, Events, Log, Malformed, Outcome, Table, ToMove, Violation, evolve
from pnp.rules.legal import Budget, Field, Template, grouped, judge, last_position

if TYPE_CHECKING:
    import random

__all__ = ["RULEBOOK", "Start", "apply", "check_players", "deal", "determinize", "legal_actions", "marks", "moves",
           "outcome", "params", "playout", "setup", "tables", "to_move", "view", "worth"]




def apply(state: State, action: Action, params: Params, events: bool = True) -> tuple[State, Events]:
    """Apply one action; the new state and the events it caused (none made when `events` is
    False)."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise Malformed(f"{brief(action)} is not an action of Акционер (Begin, Trade, Play)")
    judge(legal_actions(state, params), action, lambda: handler(params, state, action, None), _KINDS[type(action)])
    log: Log = [] if events else None
    state = handler(params, state, action, log)
    return state, tuple(log) if log else ()


# --- turn order ---------------------------------------------------------------------------


def _begin(params: Params, state: State, action: Begin, events: Log) -> State:
    player = action.player
    if player not in state.players:
        raise Violation("AKT-3.6", f"{player} is not at the table ({', '.join(state.players)})")
    seat = state.seat(player)
    if state.over:
        raise Violation("AKT-9.1", f"the game is over (every card has been played); {player} cannot move")
    if state.turn is not None and not state.turn.played:
        mover = state.players[state.turn.mover]
        raise Violation("AKT-3.2", f"{mover} has not played a card yet, so {player}'s turn cannot begin")
    movers = next_movers(params, state)
    if seat not in movers:
        if seat in state.out:
            raise Violation("AKT-A11", f"{player} is out of the game (no shares and cash below the cheapest price)")
        if cards_left(params, state, seat) == 0:
            raise Violation("AKT-9.1", f"{player} has no card left to play")
        raise Violation("AKT-3.6", f"it is {state.players[movers[0]]}'s turn in seating order, not {player}'s")
    state = evolve(state, turn=Turn(seat, False, (0,) * len(params.colours)), last=seat)
    if events is not None:
        big, small = (cards_left(params, state, seat, deck) for deck in DECKS)
        events.append(said.TURN(player=player, big=big, small=small))
        if final_round(params, state):
            events.append(said.LAST_ROUND())
    return state


# --- stages 1 and 3 -----------------------------------------------------------------------


def _trade(params: Params, state: State, trade: Trade, events: Log) -> State:
    turn = state.turn
    if turn is None:
        raise Violation("AKT-3.4", "shares are traded only during one's own turn, and no turn has begun")
    _check_quantities(params, trade)
    player = state.players[turn.mover]
    stage, rule = (3, "AKT-3.3") if turn.played else (1, "AKT-3.1")
    moving = any(count for _, count in (*trade.sell, *trade.buy))
    if final_round(params, state):
        verb = "sell" if any(count for _, count in trade.sell) else "buy" if moving else "trade"
        raise Violation("AKT-8.1", f"{player} may not {verb} shares: every player has one card left (last-move rule)")
    if turn.closed:
        raise Violation(rule, f"{player} has ended the trading of stage {stage} (a trade of nothing); "
                        f"{'the card comes next' if stage == 1 else 'the next player begins'}")
    if not moving:  # a trade of nothing: the mover is done trading in this stage
        return evolve(state, turn=evolve(turn, closed=True))
    account = state.accounts[turn.mover]
    cash, shares, bought = account.cash, list(account.shares), list(turn.bought)
    cash = _sell(params, state, trade, player, stage, rule, cash, shares, bought, events)
    cash = _buy(params, state, trade, player, stage, rule, cash, shares, bought, events)
    accounts = _with(state.accounts, turn.mover, Account(cash, tuple(shares)))
    return evolve(state, accounts=accounts, turn=evolve(turn, bought=tuple(bought)))


def _check_quantities(params: Params, trade: Trade) -> None:
    """Each line of the trade names a colour of the game and a whole number of shares (AKT-3.1)."""
    for colour, count in (*trade.sell, *trade.buy):
        if colour not in params.colours:
            raise Violation("AKT-3.1", f'there are no "{colour}" shares (colours: {", ".join(params.colours)})')
        if count < 0:
            raise Violation("AKT-3.1", f"cannot trade {count} {colour}: quantities are whole shares, 0 or more")


def _sell(params: Params, state: State, trade: Trade, player: str, stage: int, rule: str,
          cash: Number, shares: list[int], bought: list[int], events: Log) -> Number:
    """The trade's sales, taken off `shares`: the cash after them. What was bought in stage 1
    of this turn may not be sold in stage 3 (AKT-3.3)."""
    for colour, count in trade.sell:
        if not count:
            continue
        i, price = params.colours.index(colour), state.price(params, colour)
        if count > shares[i]:
            raise Violation(rule, f"{player} sells {count} {colour} but holds {shares[i]}")
        if stage == 3 and count > shares[i] - bought[i]:
            why = (f"{bought[i]} of the {shares[i]} were bought in stage 1 of this turn" if bought[i] <= shares[i] else
                   f"{bought[i]} were bought in stage 1 of this turn, and {shares[i]} are held")
            raise Violation(
                "AKT-3.3",
                f"{player} sells {count} {colour} in stage 3 but may sell only {max(0, shares[i] - bought[i])}: {why}",
            )
        shares[i] -= count
        cash += count * price
        if events is not None:
            events.append(said.TRADED(rule, player=player, colour=colour, shares=-count, price=price,
                                      amount=count * price, cash=cash))
    return cash


def _buy(params: Params, state: State, trade: Trade, player: str, stage: int, rule: str,
         cash: Number, shares: list[int], bought: list[int], events: Log) -> Number:
    """The trade's buys, added to `shares` (and, in stage 1, to `bought`): the cash after them."""
    for colour, count in trade.buy:
        if not count:
            continue
        i, price = params.colours.index(colour), state.price(params, colour)
        if count * price > cash:
            raise Violation(rule, f"{player} buys {count} {colour} at {price} = {count * price} but has {cash} cash")
        shares[i] += count
        cash -= count * price
        if stage == 1:
            bought[i] += count
        if events is not None:
            events.append(said.TRADED(rule, player=player, colour=colour, shares=count, price=price,
                                      amount=-count * price, cash=cash))
    return cash


# --- stage 2 ------------------------------------------------------------------------------


def _play(params: Params, state: State, play: Play, events: Log) -> State:
    turn = state.turn
    if turn is None:
        raise Violation("AKT-3.2", f"{play} is played outside a turn; a card is played in stage 2 of one's own turn")
    mover, player = turn.mover, state.players[turn.mover]
    if turn.played:
        raise Violation("AKT-3.2", f"{player} has already played a card this turn; a turn has exactly one")
    card = params.cards.get(play.card)
    if card is None:
        message = f'{player} plays "{play.card}", which is not a card of the deck ({card_list(params)})'
        raise Violation(deck_rule(params, play.card), message)
    _check_held(params, state, mover, play.card)
    _check_choices(params, play)
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
    state = eliminate(params, state, events)
    if not any(cards_left(params, state, seat) for seat in active(state)):
        state = evolve(state, over=True)
        if events is not None:
            events += final_events(params, state)
    elif events is not None and final_round(params, state) and not was_last_round:
        events.append(said.LAST_ROUND())  # AKT-A14: from this play on, even the mover's stage 3
    return state


def _check_held(params: Params, state: State, seat: int, name: str) -> None:
    """The card is in the mover's hand (AKT-3.2); without a deal, the deck and the formula
    must still allow it (AKT-1.4/1.5, AKT-2.3)."""
    player = state.players[seat]
    if state.hands is not None:
        hand = state.hands[seat]
        if name not in hand and (HIDDEN[params.cards[name].deck] not in hand or not unseen(params, state)[name]):
            held = ", ".join(hand) or "no cards"
            raise Violation("AKT-3.2", f'{player} plays "{name}" but holds {held}')
        return
    deck = params.cards[name].deck
    copies = sum(1 for _, card in state.plays if card == name)
    if copies >= params.copies[name]:
        message = f'"{name}" is played a {_nth(copies + 1)} time, but the deck has {params.copies[name]}'
        raise Violation(DECK_RULES[deck], message)
    done = played(params, state, seat, deck)
    if done >= params.dealt(deck):
        message = (
            f"{player} plays a {_nth(done + 1)} {deck_name(deck)} card, "
            f"but formula {params.formula} deals {params.dealt(deck)}"
        )
        raise Violation("AKT-2.3", message)


def _check_choices(params: Params, play: Play) -> None:
    """The mover's choices match the card (AKT-4.1 to 4.4, AKT-A3, AKT-A6)."""
    card = params.cards[play.card]
    colours = [colour for _, colour in play.choices]
    unknown = [colour for colour in colours if colour not in params.colours]
    if unknown:
        raise Malformed(f'{play}: there is no colour "{unknown[0]}" (colours: {", ".join(params.colours)})')
    if card.colour in colours:
        raise Violation("AKT-4.4", f"{card.name}: its uncoloured number goes to another colour, not {card.colour} itself")
    twice = next((colour for colour in colours if colours.count(colour) > 1), None)
    if twice:
        raise Violation("AKT-4.4", f"{play}: a card changes each colour at most once, {twice} is named twice")
    given = [effect for effect, _ in play.choices]
    if len(given) != len(card.others):
        raise Violation(card.rule, f"{card.describe()}: {len(card.others)} choice(s) needed, {len(given)} given")
    if params.hundred_split == "free":
        wrong = next((effect for effect in given if effect not in card.others), None)
        if wrong is not None:
            raise Violation(card.rule, f"{card.describe()}: {wrong} is not one of its numbers")
    elif sorted(given) != sorted(card.others):
        shown = " ".join(map(str, given))
        raise Violation(card.rule, f"{card.describe()}: {shown} given instead")


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
    """AKT-6.1/6.3: the mover is paid for his own shares the card lowers; AKT-6.2: every holder
    of a colour pushed past the top is paid the excess (AKT-4.5: before any penalty)."""
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
    zeroed = [item for item in changes if item.zeroed]
    if not zeroed:
        return
    dearer_first = params.equal_penalty_order == "higher_old_first"
    zeroed.sort(key=lambda item: (item.penalty, -item.old if dearer_first else item.old, params.colours.index(item.colour)))
    mover, count = state.turn.mover, len(state.players)  # type: ignore[union-attr]  # called in a card's play: a turn is under way
    for seat in ((mover + k) % count for k in range(1, count)):
        player = state.players[seat]
        owed = [item for item in zeroed if accounts[seat].shares[params.colours.index(item.colour)]]
        if len(owed) > 1 and events is not None:
            events.append(said.PENALTY_ORDER(player=player, order=[(item.colour, item.penalty) for item in owed],
                                             tied=_tied(owed)))
        for item in owed:
            i = params.colours.index(item.colour)
            account = accounts[seat]
            held, due = account.shares[i], item.penalty * account.shares[i]
            kept = held if due <= account.cash else min(held, int(account.cash // item.penalty))
            paid = due if kept == held else kept * item.penalty
            if events is not None:
                kind = said.PENALTY if kept == held else said.PENALTY_SHORT
                events.append(kind(player=player, colour=item.colour, penalty=item.penalty, held=held, due=due,
                                   cash=account.cash, kept=kept, lost=held - kept, amount=-paid))
            shares = list(account.shares)
            shares[i] = kept
            accounts[seat] = Account(account.cash - paid, tuple(shares))


def _tied(owed: list[Change]) -> list[list[str]]:
    """Colours that tie on penalty and on old price (possible under `hundred_split: free`),
    which AKT-7.5 leaves unordered: they are paid in board order, and the event says so."""
    groups: dict[tuple[Number, int], list[str]] = {}
    for item in owed:
        groups.setdefault((item.penalty, item.old), []).append(item.colour)
    return [colours for colours in groups.values() if len(colours) > 1]


# --- the contract: who acts, what is legal, how it ended (pnp.rules.base.Engine) -------------


def to_move(state: State, params: Params) -> ToMove | None:
    """Before the card (stage 1, 2) only the mover acts; after it, the mover may still trade
    (stage 3) or end his turn, while the next player may begin his, which ends it too."""
    if state.over:
        return None
    turn = state.turn
    starters = tuple(state.players[seat] for seat in next_movers(params, state))
    if turn is None:
        return ToMove("begin", starters)
    mover = state.players[turn.mover]
    if not turn.played:
        return ToMove("stage 1" if _may_trade(state, params) else "stage 2", (mover,))
    if _may_trade(state, params):
        return ToMove("stage 3", (mover, *(name for name in starters if name != mover)))
    return ToMove("begin", starters)


@last_position
def legal_actions(state: State, params: Params) -> tuple[Template, ...]:
    """Beginning a turn; trades (sales within the holding, purchases within cash; as many as
    the mover likes in each stage, until a trade of nothing; never in the last round); a card
    from the hand (or from what the deck and the formula leave) with every legal assignment of
    its uncoloured numbers; in stage 3, the mover's end of his turn (the next player's Begin)."""
    if state.over:
        return ()
    turn = state.turn
    movers = next_movers(params, state)
    begins = tuple(Template("begin", state.players[seat], "AKT-3.6", _begin_action) for seat in movers)
    if turn is None:
        return begins
    trade: tuple[Template, ...] = (_trade_template(state, params),) if _may_trade(state, params) else ()
    if not turn.played:
        return trade + _plays(state, params)
    if trade and movers and movers[0] != turn.mover:  # the mover may end his turn: the next one begins
        nxt = state.players[movers[0]]
        trade += (Template("end", state.players[turn.mover], "AKT-3.6", _begin_action, fixed={"player": nxt}),)
    return trade + begins


def _may_trade(state: State, params: Params) -> bool:
    """The mover may trade: in his turn, the stage's trading not ended by a trade of nothing,
    and not in the last round (AKT-8.1)."""
    turn = state.turn
    return turn is not None and not turn.closed and not final_round(params, state)


def _trade_template(state: State, params: Params) -> Template:
    """Sales then purchases at the board's prices: what is bought costs at most the cash plus
    what is sold (AKT-3.1, 3.3)."""
    turn = state.turn
    assert turn is not None
    account, fields, weights = state.accounts[turn.mover], [], []
    sellable = [_sellable(state, i) for i in range(len(params.colours))]
    reach = account.cash + sum(n * price for n, price in zip(sellable, state.prices, strict=True))
    for (sell, buy), n, price in zip(_trade_names(params.colours), sellable, state.prices, strict=True):
        fields += [Field.number(sell, 0, n), Field.number(buy, 0, int(reach // price))]
        weights += [(sell, -price), (buy, price)]
    rule = "AKT-3.3" if turn.played else "AKT-3.1"
    return Template("trade", state.players[turn.mover], rule, _trade_action, tuple(fields),
                    constraints=(Budget(tuple(weights), account.cash),), read=_trade_values)


@lru_cache(maxsize=8)
def _trade_names(colours: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Per colour, the names of a trade's two fields (the same every turn)."""
    return tuple((f"sell.{colour}", f"buy.{colour}") for colour in colours)


def _sellable(state: State, i: int) -> int:
    """The mover's shares of a colour less those bought in stage 1 of this turn, once the
    card is played (AKT-3.3, AKT-A7), and none when stage 1 sold more than it bought."""
    turn = state.turn
    assert turn is not None
    held = state.accounts[turn.mover].shares[i]
    return max(0, held - turn.bought[i]) if turn.played else held


def _plays(state: State, params: Params) -> tuple[Template, ...]:
    """One template per card the mover may play, its choices every legal assignment."""
    turn = state.turn
    assert turn is not None
    seat, mover = turn.mover, state.players[turn.mover]
    if state.hands is not None:
        names = [card for card in dict.fromkeys(state.hands[seat]) if card in params.cards]
        backs = {deck for deck in DECKS if HIDDEN[deck] in state.hands[seat]}
        if backs:  # a view of another's turn: any card he may hold behind a back
            left = unseen(params, state)
            names += [name for name, card in params.cards.items() if card.deck in backs and left[name]
                      and name not in names]
    else:
        used = [card for _, card in state.plays]
        quota = {deck: params.dealt(deck) - played(params, state, seat, deck) for deck in DECKS}
        names = [
            name for name, card in params.cards.items()
            if used.count(name) < params.copies[name] and quota[card.deck] > 0
        ]
    read = _play_values(params.colours)
    return tuple(Template("play", mover, params.cards[name].rule, _play_action, (params.play_fields[name],),
                          {"card": name}, read=read) for name in names)


def _trade_values(action: object) -> dict[str, int] | None:
    """What a trade states, by field (the inverse of `_trade_action`); None for a colour named
    twice on one side, which no trade of the template writes."""
    if not isinstance(action, Trade):
        return None
    values: dict[str, int] = {}
    for side, counts in (("sell", action.sell), ("buy", action.buy)):
        for colour, count in counts:
            key = f"{side}.{colour}"
            if key in values:
                return None
            if count != 0:
                values[key] = count
    return values


@lru_cache(maxsize=8)
def _play_values(colours: tuple[str, ...]) -> Callable[[object], dict[str, object] | None]:
    """What a play states (the inverse of `_play_action`), its choices in board order: the
    order a record writes them in changes nothing (AKT-A12), and the templates list them so."""
    order = {colour: k for k, colour in enumerate(colours)}

    def read(action: object) -> dict[str, object] | None:
        if not isinstance(action, Play):
            return None
        return {"card": action.card, "choices": tuple(sorted(action.choices, key=lambda c: order.get(c[1], len(order))))}

    return read


def _begin_action(values: Mapping) -> Begin:
    return Begin(values["player"])


def _trade_action(values: Mapping) -> Trade:
    return Trade.of(grouped(values, "sell"), grouped(values, "buy"))


def _play_action(values: Mapping) -> Play:
    return Play(values["card"], values["choices"])


_HANDLERS: dict[type, Callable[[Params, State, Any, Log], State]] = {Begin: _begin, Trade: _trade, Play: _play}
_KINDS = {Begin: "begin", Trade: "trade", Play: "play"}  # the kind of its templates


def outcome(state: State, params: Params) -> Outcome | None:
    """AKT-9: once every card is played, each player's capital; the highest wins."""
    if not state.over:
        return None
    scores = final_scores(params, state)
    return Outcome(scores, tuple(winners(scores)), OVER)


def worth(state: State, params: Params) -> tuple[Number, ...]:
    """AKT-9.2 now: each player's capital, his shares at the board's prices plus his cash —
    his score if the game ended here; the final scores once it is over."""
    return tuple(capital(params, state, seat) for seat in range(len(state.players)))


def view(state: State, params: Params, seat: int | None) -> State:
    """The position as `seat` knows it (AKT-2.6): the share counts, cash, prices and cards
    played are public, and so is how many big and small cards each holds; another's cards
    show as their backs (`HIDDEN`, big ones first). Without a known deal (`hands` None) nothing
    is hidden. The undealt cards (AKT-2.4) are in no position."""
    return hide(params, state, seat)


def determinize(view: State, params: Params, seat: int | None, rng: random.Random) -> State:
    """A position the view could be: each back drawn at random (`legal.shuffle`) from the
    cards of its deck that `seat` has not seen — in no hand it sees and never played — the
    undealt ones among them."""
    return fill(params, view, rng)


def tables(params: Params) -> dict[str, Table]:
    """Tables printed on the components, computed, never typed: the penalty aid (AKT-7.6) and
    the deal per player count (AKT-2.3, 2.4)."""
    return {"penalty": penalty_table(params), "deal": deal_table(params, params.min_players, params.max_players)}


def marks(params: Params) -> dict:
    return {}


def moves(params: Params, players: int) -> int:
    """Moves in a whole game: every card dealt is played once, one a move (AKT-3.2, 9.1)."""
    return players * (params.big + params.small)


def _with(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
