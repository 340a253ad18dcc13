"""The position in a game of Акционер, its standard setup, and what can be read off it.

Immutable: `apply` (in `engine`) returns a new `State`. Seats are indices into `players`;
per-colour tuples follow the board order of `Params.colours`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from pnp import i18n  # i18n._: this module's `_` is also a throwaway name
from pnp.rules.aktsioner import events as said
from pnp.rules.aktsioner import refusals as refused
from pnp.rules.aktsioner.cards import Number
from pnp.rules.aktsioner.params import DECK_RULES, DECKS, HIDDEN, HIDDEN_DECK, Params
from pnp.rules.base import Event, Log, Malformed, Table, evolve, fast_init
from pnp.rules.legal import shuffle


@fast_init
@dataclass(frozen=True)
class Account:
    """A player's account card (AKT-1.6): shares per colour and free cash."""

    cash: Number
    shares: tuple[int, ...]


@fast_init
@dataclass(frozen=True)
class Turn:
    """The turn in progress: who moves, whether the card is played, what stage 1 bought.

    A stage's trading (AKT-3.1, 3.3) is any number of trades with the bank; a trade of nothing
    says the mover is done with it (`closed`), and playing the card closes stage 1 anyway."""

    mover: int
    played: bool
    bought: tuple[int, ...]  # per colour, shares bought in stage 1 (not sellable in stage 3)
    closed: bool = False  # the current stage (1 before the card, 3 after it) has ended its trading


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]  # seating order
    prices: tuple[int, ...]
    accounts: tuple[Account, ...]
    hands: tuple[tuple[str, ...], ...] | None  # card names per seat when the deal is known
    plays: tuple[tuple[int, str], ...] = ()  # (seat, card name) of every card played, in order
    turn: Turn | None = None
    last: int | None = None  # seat of the latest mover
    out: frozenset[int] = frozenset()  # seats eliminated (option eliminate_broke, AKT-A11)
    over: bool = False

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def price(self, params: Params, colour: str) -> int:
        return self.prices[params.colours.index(colour)]


@dataclass(frozen=True)
class Start:
    """A position to start from (a record's `start` and `deal`); what is omitted is standard.

    `complete`: the hands are a fresh deal, so each holds exactly the formula's cards; else
    (a position from the middle of a game) at most that many."""

    prices: Mapping[str, int] = field(default_factory=dict)
    accounts: Mapping[str, Account] = field(default_factory=dict)
    hands: Mapping[str, Sequence[str]] | None = None
    complete: bool = True


def setup(params: Params, players: Sequence[str], start: Start | None = None) -> tuple[State, tuple[Event, ...]]:
    """The position before the first turn: the standard setup (AKT-2.1, 2.2) overlaid with
    the start's prices and accounts, and the dealt hands if known."""
    start = start or Start()
    prices, accounts, hands, complete = start.prices or {}, start.accounts or {}, start.hands, start.complete
    players = tuple(players)
    check_players(params, len(players))
    _check_colours(params, prices)
    _check_accounts(params, players, accounts)
    board = _board(params, prices)
    standard = Account(params.start_cash, (params.start_shares,) * len(params.colours))
    state = State(
        players,
        board,
        tuple(accounts.get(name, standard) for name in players),
        None if hands is None else tuple(_hand(params, hands.get(name, ()), name) for name in players),
    )
    if hands is not None:
        _check_deal(params, state, complete)
    events = _setup_events(params, state, standard)
    state = eliminate(params, state, events)
    if not active(state):  # nobody left to play a card: no game (the rules have no ending for it)
        raise refused.ALL_OUT(cheapest=min(state.prices))
    return state, tuple(events)


def _check_colours(params: Params, prices: Mapping[str, int]) -> None:
    """The start prices only the game's colours."""
    for colour in prices:
        if colour not in params.colours:
            raise Malformed(f'the start prices "{colour}", which is not a colour ({", ".join(params.colours)})')


def _setup_events(params: Params, state: State, standard: Account) -> list[Event]:
    """What the setup says: the prices, the players and whether hands were dealt; then every
    opening account, and whether all are the standard one."""
    setup_event = said.SETUP(prices=dict(zip(params.colours, state.prices, strict=True)), players=len(state.players),
                             dealt=state.hands is not None, formula=params.formula)
    opening = {name: {"cash": a.cash, "shares": dict(zip(params.colours, a.shares, strict=True))}
               for name, a in zip(state.players, state.accounts, strict=True)}
    return [setup_event, said.ACCOUNTS(accounts=opening, standard=all(a == standard for a in state.accounts),
                                       cash=params.start_cash, shares=params.start_shares)]


def _check_accounts(params: Params, players: tuple[str, ...], accounts: Mapping[str, Account]) -> None:
    """The start's accounts belong to players at the table and hold a count, none or more, of
    each colour (AKT-2.1)."""
    for name, account in accounts.items():
        if name not in players:
            raise Malformed(f"the start names {name}, who is not playing ({', '.join(players)})")
        if len(account.shares) != len(params.colours):
            raise Malformed(f"{name}'s account holds {len(account.shares)} colours of shares, not {len(params.colours)}")
        if account.cash < 0 or min(account.shares) < 0:
            raise refused.NEGATIVE_ACCOUNT(player=name, cash=account.cash,
                                           shares=dict(zip(params.colours, account.shares, strict=True)))


def _board(params: Params, prices: Mapping[str, int]) -> tuple[int, ...]:
    """Each colour's starting price, the start's or the standard one, on a space of the board
    (AKT-1.2)."""
    board = tuple(prices.get(colour, params.start_price) for colour in params.colours)
    for colour, price in zip(params.colours, board, strict=True):
        if price not in params.cells:
            raise refused.OFF_BOARD(colour=colour, price=price, spaces=params.cells)
    return board


def deal(params: Params, players: Sequence[str], rng: random.Random) -> Start:
    """A fresh deal (AKT-2.3): both decks shuffled with `rng`, the formula's cards to each."""
    hands: dict[str, list[str]] = {name: [] for name in players}
    for deck in DECKS:
        cards = list(params.decks[deck])
        rng.shuffle(cards)
        count = params.dealt(deck)
        for k, name in enumerate(players):
            hands[name] += cards[k * count : (k + 1) * count]
    return Start(hands=hands)


def check_players(params: Params, count: int) -> None:
    """AKT-1.10: 2 or more players, and no more than the formula seats — dealing it to every
    player leaves `min_undealt` cards in each deck (AKT-2.4) — nor than the spec's seats. The
    same whether the record gives the deal or not."""
    if count < max(2, params.min_players):
        raise refused.TOO_FEW(least=max(2, params.min_players), count=count)
    for deck in DECKS:
        dealt, size = count * params.dealt(deck), params.deck_size(deck)
        if dealt > size - params.min_undealt:
            raise refused.FORMULA_SEATS(formula=params.formula, count=count, dealt=dealt, deck=deck,
                                        undealt=params.min_undealt, size=size)
    if count > params.max_players:
        raise refused.TOO_MANY(low=params.min_players, high=params.max_players, count=count)


def deal_table(params: Params, fewest: int, most: int) -> Table:
    """Per player count from `fewest` to `most`: the cards dealt to each player, those left
    undealt in each deck (AKT-2.3, 2.4) and the moves a game lasts (one card a move) — the
    counts the rules allow; larger tables stop where the formula runs out of cards."""
    rows = []
    for count in range(fewest, most + 1):
        left = [params.deck_size(deck) - count * params.dealt(deck) for deck in DECKS]
        if min(left) < params.min_undealt:
            break
        rows.append((str(count), str(params.big), str(params.small), *map(str, left), str(count * (params.big + params.small))))
    header = (i18n._("Players"), i18n._("Big cards each"), i18n._("Small cards each"), i18n._("Big undealt"),
              i18n._("Small undealt"), i18n._("Moves in a game"))
    return Table(header, tuple(rows), i18n.ngettext(
        "Formula {formula}; at least {n} card of each deck stays undealt.",
        "Formula {formula}; at least {n} cards of each deck stay undealt.", params.min_undealt).format(
            formula=params.formula, n=params.min_undealt))


def _check_deal(params: Params, state: State, complete: bool) -> None:
    counts: dict[str, int] = {}
    for name, hand in zip(state.players, state.hands or (), strict=False):
        decks = [params.cards[card].deck for card in hand]
        for deck in DECKS:
            held, allowed = decks.count(deck), params.dealt(deck)
            if held > allowed or (complete and held != allowed):
                raise refused.DEALT_COUNT(player=name, held=held, deck=deck, formula=params.formula, allowed=allowed)
        for card in hand:
            counts[card] = counts.get(card, 0) + 1
    _check_copies(params, counts)


def _check_copies(params: Params, counts: Mapping[str, int]) -> None:
    """No card dealt more often than its deck has copies of it (AKT-1.4, 1.5)."""
    for card, count in counts.items():
        if count > params.copies[card]:
            deck = params.cards[card].deck
            raise refused.DEALT_COPIES(DECK_RULES[deck], card=card, count=count, deck=deck, copies=params.copies[card])
    # AKT-2.4 holds already: no hand exceeds the formula, and the formula fits the player count


def _hand(params: Params, hand: Sequence[str], player: str) -> tuple[str, ...]:
    for card in hand:
        if card not in params.cards:
            raise refused.DEALT_UNKNOWN(deck_rule(params, card), player=player, card=card, cards=card_list(params))
    return tuple(sorted(hand, key=params.order.__getitem__))


def deck_rule(params: Params, name: str) -> str:
    """The rule giving the deck a card named `name` would belong to (AKT-1.4 big, AKT-1.5 small)."""
    own = name.split()[0]
    for deck in DECKS:
        if any(str(card.own) == own for card in params.cards.values() if card.deck == deck):
            return DECK_RULES[deck]
    return DECK_RULES["small_cards" if own[0] in "+-" else "big_cards"]


def card_list(params: Params) -> dict[str, list[str]]:
    """Per deck, the numbers its cards carry ("+100", "x2", "/2"; "+30", …), each of every
    colour: what the deck holds, as a refusal lists it."""
    return {deck: list(dict.fromkeys(str(card.own) for card in params.cards.values() if card.deck == deck))
            for deck in DECKS}


# --- reading the position -----------------------------------------------------------------


def deck_of(params: Params, card: str) -> str:
    """The deck of a card in a hand, a hidden one (`HIDDEN`) included."""
    return HIDDEN_DECK.get(card) or params.cards[card].deck


def cards_left(params: Params, state: State, seat: int, deck: str | None = None) -> int:
    """Cards still in `seat`'s hand: from the deal, or from the formula and the plays so far."""
    if state.hands is not None:
        hand = state.hands[seat]
        return len(hand) if deck is None else sum(deck_of(params, card) == deck for card in hand)
    decks = DECKS if deck is None else (deck,)
    return sum(params.dealt(d) - played(params, state, seat, d) for d in decks)


def played(params: Params, state: State, seat: int, deck: str) -> int:
    return sum(1 for who, card in state.plays if who == seat and params.cards[card].deck == deck)


def active(state: State) -> list[int]:
    return [seat for seat in range(len(state.players)) if seat not in state.out]


def final_round(params: Params, state: State) -> bool:
    """AKT-8.1: every player has (at most) one card left — nobody trades any more."""
    out = state.out
    return all(cards_left(params, state, seat) <= 1 for seat in range(len(state.players)) if seat not in out)


def next_movers(params: Params, state: State) -> tuple[int, ...]:
    """Who may begin the next turn: anyone with cards at first (turn order by lot, AKT-2.5),
    then the next player in seating order who still has cards (AKT-3.6)."""
    count, out = len(state.players), state.out
    if state.last is None:
        return tuple(seat for seat in range(count) if seat not in out and cards_left(params, state, seat) > 0)
    for seat in ((state.last + k) % count for k in range(1, count + 1)):
        if seat not in out and cards_left(params, state, seat) > 0:
            return (seat,)
    return ()


def unseen(params: Params, state: State) -> dict[str, int]:
    """Per card, the copies no hand of `state` shows and no play has used: where a hidden
    card (`HIDDEN`) may be, the undealt cards among them (AKT-2.4), in deck order."""
    left = dict(params.copies)
    for _, card in state.plays:
        left[card] -= 1
    for hand in state.hands or ():
        for card in hand:
            if card in left:
                left[card] -= 1
    return left


def hide(params: Params, state: State, seat: int | None) -> State:
    """`state` as `seat` sees it (None: nobody's hand): every other hand as the backs of its
    cards, big ones first (AKT-2.6: the counts are public, the cards secret)."""
    if state.hands is None:
        return state
    hands = tuple(hand if k == seat else tuple(HIDDEN[deck] for deck in DECKS
                                               for card in hand if deck_of(params, card) == deck)
                  for k, hand in enumerate(state.hands))
    return state if hands == state.hands else evolve(state, hands=hands)


def fill(params: Params, state: State, rng: random.Random) -> State:
    """Every hidden card of `state` drawn at random from those it does not show (`unseen`),
    each deck apart; every hand then held in deck order."""
    if state.hands is None or not any(card in HIDDEN_DECK for hand in state.hands for card in hand):
        return state
    pools = _unseen_decks(params, state, rng)
    hands = []
    for hand in state.hands:
        dealt = [pools[HIDDEN_DECK[card]].pop() if card in HIDDEN_DECK else card for card in hand]
        hands.append(tuple(sorted(dealt, key=params.order.__getitem__)))
    return evolve(state, hands=tuple(hands))


def _unseen_decks(params: Params, state: State, rng: random.Random) -> dict[str, list[str]]:
    """Each deck's cards the position does not show (`unseen`), shuffled."""
    left = unseen(params, state)
    return {deck: shuffle(rng, [name for name, card in params.cards.items() if card.deck == deck
                                for _ in range(left[name])]) for deck in DECKS}


def eliminate(params: Params, state: State, events: Log) -> State:
    """Option eliminate_broke (AKT-A11): a player with no shares and cash below the cheapest
    price leaves the game."""
    if not params.eliminate_broke:
        return state
    cheapest = min(state.prices)
    broke = {
        seat
        for seat in active(state)
        if not any(state.accounts[seat].shares) and state.accounts[seat].cash < cheapest
    }
    if events is not None:
        for seat in sorted(broke):
            events.append(said.ELIMINATED(player=state.players[seat], cash=state.accounts[seat].cash,
                                          cheapest=cheapest))
    return evolve(state, out=state.out | broke) if broke else state
