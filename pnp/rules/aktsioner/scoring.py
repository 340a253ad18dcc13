"""The end of a game (AKT-9) and match play (AKT-10): capital, winners, seating per game."""

from __future__ import annotations

from typing import Mapping, Sequence

from pnp.rules.aktsioner import events as said
from pnp.rules.aktsioner.cards import Number
from pnp.rules.aktsioner.params import Params
from pnp.rules.aktsioner.rulebook import End, Match
from pnp.rules.aktsioner.state import State
from pnp.rules.base import Event


def capital(params: Params, state: State, seat: int) -> Number:
    """AKT-9.2: shares at the final prices plus free cash."""
    account = state.accounts[seat]
    return holding(account.shares, state.prices, account.cash)


def holding(shares: Sequence[int], prices: Sequence[int], cash: Number) -> Number:
    """Shares at these prices plus cash: a player's capital (AKT-9.2), on plain numbers for the
    simulator's playout too."""
    return sum(n * price for n, price in zip(shares, prices, strict=True)) + cash


def final_scores(params: Params, state: State) -> dict[str, Number]:
    return {name: capital(params, state, seat) for seat, name in enumerate(state.players)}


OVER = End.ALL_CARDS_PLAYED  # `Outcome.reason`: the only way a game of Акционер ends (AKT-9.1)


def winners(scores: Mapping[str, Number]) -> list[str]:
    """Highest capital wins; equal capital shares the win (AKT-9.3, tiebreak = shared)."""
    best = max(scores.values())
    return [name for name, score in scores.items() if score == best]


def final_events(params: Params, state: State) -> list[Event]:
    events = [said.OVER()]
    for seat, name in enumerate(state.players):
        account = state.accounts[seat]
        shares = {colour: n for colour, n in zip(params.colours, account.shares, strict=True) if n}
        prices = {colour: price for colour, price in zip(params.colours, state.prices, strict=True) if colour in shares}
        events.append(said.CAPITAL(player=name, shares=shares, prices=prices, cash=account.cash,
                                   capital=capital(params, state, seat)))
    events.append(said.WINNERS(winners=winners(final_scores(params, state))))
    return events


def match_games(params: Params, players: int) -> int:
    """AKT-10.1: how many games a match has (option `match`)."""
    return {Match.SEED_FORMULA: 2 * (players - 1), Match.SINGLE: 1, Match.ROTATION_N: players}[params.match]


def seating(players: tuple[str, ...], game: int) -> tuple[str, ...]:
    """The seating of game `game` (0-based) of a match: rotated one place per game, so a
    different player moves first — and last (AKT-10.1)."""
    k = game % len(players)
    return players[k:] + players[:k]
