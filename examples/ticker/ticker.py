"""Ticker, a small stock game's rules in one file (docs/your-game.md; the rules: ticker.md).
A turn: trade shares of one company, then play a secret market card that moves a price; the
game ends at a crash or the last card, and the richest player wins."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from pnp.i18n import _
from pnp.rules.base import About, EventKind, Malformed, Outcome, Refusal, ToMove, resolve_options
from pnp.rules.legal import Field, Template, judge, shuffle
from pnp.spec.contract import Need
from pnp.spec.options import Choice, Option, Rulebook


class End(Choice):  # how a game ends (TICK-5)
    CRASH = "crash"
    LAST_CARD = "last_card"


RULEBOOK = Rulebook("ticker", options=(Option("start_cash", 30, "TICK-2.1", minimum=0, maximum=1000),
                                       Option("hand", 3, "TICK-2.2", minimum=1, maximum=6)), needs=(Need.track("price", "TICK-1.2", "the price track", whole=True, step=1, cells=3),))
ABOUT = About("TICK", End, playout=False, deal=True)  # no fast playout; records are generic ones
MOVES = (-2, -1, -1, 1, 1, 2)  # the market cards of each company (TICK-1.3)

TRADED = EventKind("TICK-3.1", lambda d: _("{player} trades {shares} {company} at {price}").format(**d))
MOVED = EventKind("TICK-3.3", lambda d: _("{card}: {company} {old} → {new}").format(**d))
NOT_YOUR_TURN = Refusal("TICK-3", lambda d: _("it is {turn}'s turn, not {player}'s").format(**d), scope="player")
OVER = Refusal("TICK-5", lambda d: _("the game is over").format(**d), scope="step")
CANNOT_AFFORD = Refusal("TICK-3.1", lambda d: _("{player} cannot pay for {value} {company} ({bound} at most)").format(**d))
NOT_HELD = Refusal("TICK-3.2", lambda d: _("{player} holds only {held} {company}").format(held=-d["bound"], **d))
NOT_IN_HAND = Refusal("TICK-3.3", lambda d: _("{player} holds no card {value}").format(**d))
NOT_THE_DECK = Refusal("TICK-2.2", lambda d: _("the deck is not the {cards} market cards").format(**d), scope="deal")
SEATS = Refusal("TICK-2", lambda d: _("{count} players: the game seats {least} to {most}").format(**d))


@dataclass(frozen=True)
class Params:
    companies: tuple[str, ...]
    prices: tuple[int, ...]  # the price track's cells
    start: int  # the cell every price starts on
    start_cash: int
    hand: int
    players: tuple[int, int]  # the fewest and the most
    cards: tuple[str, ...]  # the market deck in its printed order, e.g. "RED+2"


@dataclass(frozen=True)
class Start:
    deck: tuple[str, ...]  # the market deck, top first, as shuffled


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    cash: tuple[int, ...]
    held: tuple[tuple[int, ...], ...]  # by seat, then company
    price: tuple[int, ...]  # each company's cell on the track
    hands: tuple[tuple[str, ...], ...]  # "?" a card this view does not show
    deck: tuple[str, ...]
    played: tuple[str, ...] = ()
    turn: int = 0
    ended: End | None = None


@dataclass(frozen=True)
class Turn:
    player: str
    company: str
    card: str
    shares: int  # bought, or sold when below zero


def params(game: Any, options: Mapping[str, Any] | None = None) -> Params:
    values = resolve_options(RULEBOOK, game, {}, options)
    track = game.tracks["price"]
    cells = tuple(int(cell) for cell in track.cells)
    if track.start not in cells:
        raise ValueError("TICK-1.2: the price track needs a start cell")
    companies = tuple(a.id for a in game.assets)
    return Params(companies, cells, cells.index(track.start), values["start_cash"], values["hand"],
                  (game.players.min, game.players.max), tuple(f"{c}{move:+d}" for c in companies for move in MOVES))


def check_players(p: Params, count: int) -> None:
    if not p.players[0] <= count <= p.players[1] or count * p.hand > len(p.cards):
        raise SEATS(count=count, least=p.players[0], most=min(p.players[1], len(p.cards) // p.hand))


def deal(p: Params, players: Sequence[str], rng: random.Random) -> Start:
    return Start(tuple(shuffle(rng, list(p.cards))))


def setup(p: Params, players: Sequence[str], start: Start | None = None) -> tuple[State, tuple[()]]:
    check_players(p, len(players))
    deck = start.deck if start is not None else p.cards
    if sorted(deck) != sorted(p.cards):
        raise NOT_THE_DECK(cards=len(p.cards))
    n, k = len(players), p.hand
    return State(tuple(players), (p.start_cash,) * n, ((0,) * len(p.companies),) * n,
                 (p.start,) * len(p.companies), tuple(deck[s * k:(s + 1) * k] for s in range(n)), deck[n * k:]), ()


def to_move(state: State, p: Params) -> ToMove | None:
    return None if state.ended else ToMove("turn", (state.players[state.turn],))


def legal_actions(state: State, p: Params) -> tuple[Template, ...]:
    if state.ended:
        return ()
    seat, player = state.turn, state.players[state.turn]
    cards = Field.choice("card", tuple(dict.fromkeys(state.hands[seat])), excluded=NOT_IN_HAND.reason(player=player))
    return tuple(Template("turn", player, "TICK-3", lambda values: Turn(**values), (cards, Field.number(
        "shares", -state.held[seat][c], state.cash[seat] // p.prices[state.price[c]],
        below=NOT_HELD.reason(player=player, company=company),
        above=CANNOT_AFFORD.reason(player=player, company=company))), {"company": company}, read=_read)
        for c, company in enumerate(p.companies))


def _read(action: Any) -> dict[str, Any] | None:  # what an action states: the inverse of `Turn(**values)`
    return dict(vars(action)) if isinstance(action, Turn) else None


def apply(state: State, action: Any, p: Params, events: bool = True) -> tuple[State, tuple[Any, ...]]:
    if not isinstance(action, Turn):
        raise Malformed(f"not an action of Ticker: {action!r}")
    turn = state.players[state.turn]  # what a position lists no template for, worded (an unknown company: Unlisted)
    judge(legal_actions(state, p), action, lambda: OVER() if state.ended else NOT_YOUR_TURN(
        player=action.player, turn=turn) if action.player != turn else None)
    seat, c, moved = state.turn, p.companies.index(action.company), p.companies.index(action.card[:-2])
    price, old = p.prices[state.price[c]], state.price[moved]
    new = min(max(old + int(action.card[-2:]), 0), len(p.prices) - 1)
    hand = list(state.hands[seat])
    hand.remove(action.card)
    after = replace(state, cash=_set(state.cash, seat, state.cash[seat] - action.shares * price),
                    held=_set(state.held, seat, _set(state.held[seat], c, state.held[seat][c] + action.shares)),
                    price=_set(state.price, moved, new), hands=_set(state.hands, seat, tuple(hand) + state.deck[:1]),
                    deck=state.deck[1:], played=state.played + (action.card,))
    ended = End.CRASH if new == 0 else None if any(after.hands) else End.LAST_CARD
    following = [s % len(state.players) for s in range(seat + 1, seat + 1 + len(state.players))]
    after = replace(after, ended=ended, turn=next((s for s in following if after.hands[s]), seat))
    if not events:
        return after, ()
    return after, (TRADED(player=action.player, shares=action.shares, company=action.company, price=price),
                   MOVED(card=action.card, company=p.companies[moved], old=p.prices[old], new=p.prices[new]))


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1:]


def worth(state: State, p: Params) -> tuple[int, ...]:
    return tuple(cash + sum(n * p.prices[cell] for n, cell in zip(held, state.price, strict=True))
                 for cash, held in zip(state.cash, state.held, strict=True))


def outcome(state: State, p: Params) -> Outcome | None:
    if state.ended is None:
        return None
    scores = dict(zip(state.players, worth(state, p), strict=True))
    return Outcome(scores, tuple(n for n, score in scores.items() if score == max(scores.values())), str(state.ended))


def position(state: State, p: Params) -> dict[str, Any]:
    def each(names: Sequence[str], values: Sequence[Any]) -> dict[str, Any]:
        return dict(zip(names, values, strict=True))

    return {"turn": state.players[state.turn], "cash": each(state.players, state.cash),
            "shares": each(state.players, [each(p.companies, held) for held in state.held]),
            "prices": each(p.companies, [p.prices[cell] for cell in state.price]),
            "hands": each(state.players, [len(hand) for hand in state.hands]), "deck": len(state.deck)}


def view(state: State, p: Params, seat: int | None) -> State:
    hands = tuple(hand if s == seat else ("?",) * len(hand) for s, hand in enumerate(state.hands))
    return replace(state, hands=hands, deck=("?",) * len(state.deck))


def determinize(view_: State, p: Params, seat: int | None, rng: random.Random) -> State:
    unseen = list(p.cards)
    for card in view_.played + (view_.hands[seat] if seat is not None else ()):
        unseen.remove(card)
    unseen = shuffle(rng, unseen)
    hands = tuple(hand if s == seat else tuple(unseen.pop() for _ in hand) for s, hand in enumerate(view_.hands))
    return replace(view_, hands=hands, deck=tuple(unseen))


def moves(p: Params, players: int) -> None:  # how long a game is, the rules do not fix
    return None


def tables(p: Params) -> dict[str, Any]:  # nothing printed is computed by these rules
    return {}


marks = tables  # nor noted on the board's cells
playout = None  # no fast random playout: the simulator plays through the functions above
