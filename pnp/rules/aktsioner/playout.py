"""Random legal play, for property tests and benchmarks (a fair sampler, not a strategy).

Every action is legal by construction: the mover is one `next_movers` allows, sales stay
within `sellable`, purchases within cash, and the card is one of `legal_plays`.
"""

from __future__ import annotations

import random
from typing import Sequence

from pnp.rules.aktsioner.engine import Action, Begin, Trade, apply, legal_plays, sellable
from pnp.rules.aktsioner.params import Params
from pnp.rules.aktsioner.state import State, final_round, next_movers, setup
from pnp.rules.base import Event


def random_deal(params: Params, players: Sequence[str], rng: random.Random) -> dict[str, list[str]]:
    """Shuffle both decks and deal each player the formula's cards (AKT-2.3)."""
    hands: dict[str, list[str]] = {name: [] for name in players}
    for deck, count in (("big_cards", params.big), ("small_cards", params.small)):
        cards = [name for name, card in params.cards.items() if card.deck == deck for _ in range(params.copies[name])]
        rng.shuffle(cards)
        for k, name in enumerate(players):
            hands[name] += cards[k * count : (k + 1) * count]
    return hands


def random_turn(
    params: Params, state: State, rng: random.Random, trade_rate: float = 0.7
) -> tuple[tuple[Action, ...], State, list[Event]]:
    """One legal turn: Begin, maybe a stage-1 trade, a card, maybe a stage-3 trade."""
    actions: list[Action] = [Begin(state.players[rng.choice(next_movers(params, state))])]
    events: list[Event] = []
    state, more = apply(state, actions[0], params)
    events += more
    for stage in (1, 2, 3):
        if stage == 2:
            action: Action = rng.choice(legal_plays(params, state))
        elif not state.over and not final_round(params, state) and rng.random() < trade_rate:
            action = _random_trade(params, state, rng)
        else:
            continue
        state, more = apply(state, action, params)
        actions.append(action)
        events += more
    return tuple(actions), state, events


def _random_trade(params: Params, state: State, rng: random.Random) -> Trade:
    """Sell some of what may be sold, then spend some of the cash."""
    sell = {}
    cash = state.accounts[state.turn.mover].cash  # type: ignore[union-attr]
    for colour in params.colours:
        most = sellable(params, state, colour)
        if most and rng.random() < 0.3:
            sell[colour] = rng.randint(1, most)
            cash += sell[colour] * state.price(params, colour)
    buy = {}
    for colour in rng.sample(params.colours, len(params.colours)):
        most = int(cash // state.price(params, colour))
        if most and rng.random() < 0.5:
            buy[colour] = rng.randint(1, most)
            cash -= buy[colour] * state.price(params, colour)
    return Trade.of(sell, buy)


def random_game(
    params: Params, players: Sequence[str], rng: random.Random, *, dealt: bool = True, trade_rate: float = 0.7
) -> tuple[dict[str, list[str]] | None, list[tuple[Action, ...]], State]:
    """A whole random game from the standard setup: the deal (None if `dealt` is false),
    the actions of every turn, and the final state."""
    hands = random_deal(params, players, rng) if dealt else None
    state, _ = setup(params, players, hands=hands)
    turns = []
    while not state.over:
        actions, state, _ = random_turn(params, state, rng, trade_rate)
        turns.append(actions)
    return hands, turns, state

