"""What an Акционер position allows (`legal_actions`), and why it allows nothing else (`withheld`).

Each condition is stated once, with its reason: a trade's fields carry the refusal of their
bounds (sales within the holding, in stage 3 less what stage 1 bought, AKT-3.3, A7; purchases
within the cash, 3.1), a card's field the refusal of an assignment its numbers do not allow
(`cards.assignment_refusal`), and the conditions under which a template is withheld —
`trading` (no turn, the last round AKT-8.1, a stage closed), `_beginning` (A11, 3.6, 9.1),
`_holding` (the hand, the deck, the formula) — return the refusal that says why, which the
listing tests for None. So `apply` admits by the templates and words a refusal from the
statement the action breaks (`legal.judge`), never from a second copy of a rule.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any, Callable, Mapping

from pnp.rules.aktsioner import refusals as refused
from pnp.rules.aktsioner.actions import Begin, Trade
from pnp.rules.aktsioner.cards import Play
from pnp.rules.aktsioner.params import DECK_RULES, DECKS, HIDDEN, Params
from pnp.rules.aktsioner.state import State, card_list, cards_left, deck_rule, final_round, next_movers, played, unseen
from pnp.rules.base import Malformed, Violation
from pnp.rules.legal import Budget, Field, Template, Why, grouped, last_position, made


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
    trade: tuple[Template, ...] = (_trade_template(state, params),) if trading(state, params) is None else ()
    if not turn.played:
        return trade + _plays(state, params)
    if trade and movers and movers[0] != turn.mover:  # the mover may end his turn: the next one begins
        nxt = state.players[movers[0]]
        trade += (Template("end", state.players[turn.mover], "AKT-3.6", _begin_action, fixed={"player": nxt}),)
    return trade + begins


def withheld(state: State, params: Params, action: Any) -> Exception | None:
    """Why the position offers no template of `action`'s kind: a turn that may not begin, a
    trade outside the mover's trading, a card outside stage 2 or not to be played."""
    if isinstance(action, Begin):
        return made(_beginning(state, params, action.player))
    if isinstance(action, Trade):
        return made(trading(state, params)) or Malformed(f"{action}: a trade names each colour once on each side")
    turn = state.turn
    if turn is None:
        return refused.OUTSIDE_TURN(card=action.card)
    mover = state.players[turn.mover]
    if turn.played:
        return refused.PLAYED_TWICE(player=mover)
    if action.card not in params.cards:
        return refused.NOT_A_CARD(deck_rule(params, action.card), player=mover, card=action.card,
                                  cards=card_list(params))
    return made(_holding(state, params, turn.mover, action.card))


def trading(state: State, params: Params) -> Why | None:
    """Whether the mover may trade now (None), else why not: in his turn only (AKT-3.4), never
    in the last round (8.1), and not after a trade of nothing ended the stage's trading (3.1,
    3.3)."""
    turn = state.turn
    if turn is None:
        return refused.NO_TURN.reason()
    player = state.players[turn.mover]
    if final_round(params, state):
        return refused.LAST_ROUND.reason(player=player)
    if turn.closed:
        return refused.STAGE_CLOSED.reason("AKT-3.3" if turn.played else "AKT-3.1", player=player,
                                    stage=3 if turn.played else 1)
    return None


# --- beginning a turn --------------------------------------------------------------------------------


def _beginning(state: State, params: Params, player: str) -> Why | None:
    """Why `player` may not begin a turn now: not at the table (AKT-3.6), the game over (9.1),
    the mover's card not played yet (3.2), out of the game (A11), no card left (9.1), or not
    the next in seating order (3.6) — `next_movers` says who may."""
    if player not in state.players:
        return refused.NOT_SEATED.reason(player=player, players=state.players)
    if state.over:
        return refused.GAME_OVER.reason(player=player)
    turn = state.turn
    if turn is not None and not turn.played:
        return refused.NO_CARD_YET.reason(mover=state.players[turn.mover], player=player)
    seat, movers = state.seat(player), next_movers(params, state)
    if seat in movers:
        return None
    if seat in state.out:
        return refused.ELIMINATED.reason(player=player)
    if cards_left(params, state, seat) == 0:
        return refused.NO_CARDS_LEFT.reason(player=player)
    return refused.NOT_YOUR_TURN.reason(mover=state.players[movers[0]], player=player)


# --- trading -----------------------------------------------------------------------------------------


def _trade_template(state: State, params: Params) -> Template:
    """Sales then purchases at the board's prices: each sale within what may be sold, and what
    is bought costs at most the cash plus what is sold (AKT-3.1, 3.3); the refusals of its
    fields' bounds worded by `_trade_refusal`."""
    turn = state.turn
    assert turn is not None
    player, account = state.players[turn.mover], state.accounts[turn.mover]
    rule = "AKT-3.3" if turn.played else "AKT-3.1"
    sellable = [_sellable(state, i) for i in range(len(params.colours))]
    reach = account.cash + sum(n * price for n, price in zip(sellable, state.prices, strict=True))
    fields: list[Field] = []
    weights = []
    for (sell, buy), n, price in zip(_trade_names(params.colours), sellable, state.prices, strict=True):
        fields += [Field.number(sell, 0, n), Field.number(buy, 0, int(reach // price))]
        weights += [(sell, -price), (buy, price)]
    over = _over_cash(rule, player, params.colours, state.prices)
    return Template("trade", player, rule, _trade_action, tuple(fields), constraints=(Budget(tuple(weights), account.cash, over),),
                    read=_trade_values, unlisted=partial(_unknown_colour, params.colours),
                    words=partial(_trade_refusal, state, params, rule))


def _sellable(state: State, i: int) -> int:
    """The mover's shares of a colour he may sell: all he holds in stage 1 (AKT-3.1); once the
    card is played, less those bought in stage 1 of this turn (3.3, A7), and none when stage 1
    sold more than it bought."""
    turn = state.turn
    assert turn is not None
    held = state.accounts[turn.mover].shares[i]
    return max(0, held - turn.bought[i]) if turn.played else held


def _trade_refusal(state: State, params: Params, rule: str, *, field: str, side: str, value: Any, bound: Any,
                   part: tuple[Any, ...] = ()) -> Violation:
    """A trade's count past its field's bound (`_sellable`, or what the cash and every sale
    allowed pay for), worded with the numbers behind the bound: below 0 (AKT-3.1); a sale of
    more than is held, or in stage 3 of what stage 1 bought (3.3, A7); a purchase beyond the
    reach of the cash."""
    turn = state.turn
    assert turn is not None
    way, colour = field.split(".", 1)
    player, i = state.players[turn.mover], params.colours.index(colour)
    facts = {"colour": colour, "value": value, "bound": bound}
    if side == "below":
        return refused.NEGATIVE_TRADE(rule, **facts)
    if way == "buy":
        return refused.BUYS_BEYOND(rule, player=player, price=state.prices[i], cash=state.accounts[turn.mover].cash,
                                   **facts)
    held, bought = state.accounts[turn.mover].shares[i], turn.bought[i] if turn.played else 0
    if not bought:
        return refused.SELLS_UNHELD(rule, player=player, **facts)
    return refused.SELLS_BOUGHT(player=player, bought=bought, held=held, **facts)


@lru_cache(maxsize=256)
def _over_cash(rule: str, player: str, colours: tuple[str, ...], prices: tuple[int, ...]) -> Why:
    return refused.OVER_CASH.reason(rule, player=player, prices=dict(zip(colours, prices, strict=True)))


def _unknown_colour(colours: tuple[str, ...], field: str, value: Any) -> Violation:
    return refused.UNKNOWN_COLOUR(colour=field.partition(".")[2], colours=colours)


@lru_cache(maxsize=8)
def _trade_names(colours: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Per colour, the names of a trade's two fields (the same every turn)."""
    return tuple((f"sell.{colour}", f"buy.{colour}") for colour in colours)


# --- playing a card ------------------------------------------------------------------------------------


def _plays(state: State, params: Params) -> tuple[Template, ...]:
    """One template per card the mover may play (`_holding`), its choices every legal assignment."""
    turn = state.turn
    assert turn is not None
    seat, mover = turn.mover, state.players[turn.mover]
    names = [name for name in _in_hand(state, params, seat) if _holding(state, params, seat, name) is None]
    read = _play_values(params.colours)
    return tuple(Template("play", mover, params.cards[name].rule, _play_action, (params.play_fields[name],),
                          {"card": name}, read=read) for name in names)


def _in_hand(state: State, params: Params, seat: int) -> list[str]:
    """The cards the seat's hand may hold: those in it, and any a back in it (a view) may be;
    every card when the hands are not known."""
    if state.hands is None:
        return list(params.cards)
    backs = {deck for deck in DECKS if HIDDEN[deck] in state.hands[seat]}
    return [name for name, card in params.cards.items() if name in state.hands[seat] or card.deck in backs]


def _holding(state: State, params: Params, seat: int, name: str) -> Why | None:
    """Whether the mover may play the card `name` (None), else why not: it is in his hand, or
    behind a back of its deck there while copies of it are unseen (AKT-3.2); without a known
    deal, the deck has a copy left (AKT-1.4, 1.5) and the formula a card of its deck (2.3)."""
    player, card = state.players[seat], params.cards[name]
    if state.hands is not None:
        hand = state.hands[seat]
        if name in hand or (HIDDEN[card.deck] in hand and unseen(params, state)[name]):
            return None
        return refused.NOT_HELD.reason(player=player, card=name, hand=hand)
    copies = sum(1 for _, used in state.plays if used == name)
    if copies >= params.copies[name]:
        return refused.COPIES_PLAYED.reason(DECK_RULES[card.deck], card=name, count=copies + 1, copies=params.copies[name])
    done = played(params, state, seat, card.deck)
    if done >= params.dealt(card.deck):
        return refused.FORMULA_PLAYED.reason(player=player, count=done + 1, deck=card.deck, formula=params.formula,
                                      allowed=params.dealt(card.deck))
    return None


# --- what each action states, by field, and the actions the fields build -----------------------------------


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


def _begin_action(values: Mapping[str, Any]) -> Begin:
    return Begin(values["player"])


def _trade_action(values: Mapping[str, Any]) -> Trade:
    return Trade.of(grouped(values, "sell"), grouped(values, "buy"))


def _play_action(values: Mapping[str, Any]) -> Play:
    return Play(values["card"], values["choices"])
