"""Bolsa's seats and setup (BOLSA-1.9, 2): the standard position, or a given `Start` laid over it.

A start a table could not reach is refused with its rule and numbers (`refusals`); one that
names a player or company the game has not is Malformed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, Sequence

from pnp.errors import brief
from pnp.rules.base import Events, Malformed, by_identity
from pnp.rules.bolsa import events as said
from pnp.rules.bolsa import refusals as refused
from pnp.rules.bolsa.params import CARDS_EACH, ORDERS_AT_SETUP, OWNED_AT_SETUP, Params
from pnp.rules.bolsa.state import Player, State, Zones

if TYPE_CHECKING:
    import random


@dataclass(frozen=True)
class Start:
    """A position to start from (a record's `start`); what is omitted is the standard setup.

    For a company where only one of `owned`/`orders` is given, the other is the rest of the
    player's 3 cards (BOLSA-2.6), so a dispute needs to write only what differs.
    """

    round: int | None = None
    token: str | None = None
    prices: Mapping[str, int] = field(default_factory=dict)
    cash: Mapping[str, int] = field(default_factory=dict)
    owned: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # player → company → n
    orders: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


def check_players(params: Params, count: int) -> None:
    """BOLSA-1.9: 3–6 players, and 3 cards of each company for each of them."""
    if not params.min_players <= count <= params.max_players:
        raise refused.SEATS(low=params.min_players, high=params.max_players, count=count)
    if count * CARDS_EACH > params.deck_per_company:
        raise refused.DECK_SHORT(count=count, needed=count * CARDS_EACH, deck=params.deck_per_company)


def deal(params: Params, players: Sequence[str], rng: random.Random) -> Start | None:
    """Bolsa's setup has nothing random (BOLSA-2: every player gets the same cards and money;
    the starting player, at random, is the first of the seating the caller gives): None, the
    standard setup, and `rng` is not drawn from."""
    return None


def setup(params: Params, names: Sequence[str], start: Start | None = None) -> tuple[State, Events]:
    """BOLSA-2: quotes on the start cell, cash, 1 + 2 cards of each company, the token."""
    if start is None or start == _STANDARD:  # laid out once per rule set and seating: a simulation deals thousands
        return _standard(params, tuple(names))
    return _setup(params, names, start)


def _setup(params: Params, names: Sequence[str], start: Start) -> tuple[State, Events]:
    check_players(params, len(names))
    _check_names(params, names, start)
    round_ = _start_round(params, start)
    for name, cash in start.cash.items():
        if cash < 0:
            raise refused.NEGATIVE_CASH(player=name, cash=cash)
    prices = _start_prices(params, start)
    players = tuple(
        Player(name, start.cash.get(name, params.start_cash), _start_zones(params, name, start)) for name in names
    )
    _check_owned(params, players)
    state = State(players, prices, round=round_, token=names.index(start.token) if start.token else 0)
    return state, _setup_events(params, state)


def _start_round(params: Params, start: Start) -> int:
    """The round the start is in, 1 unless it says, one of the game's (BOLSA-3.1)."""
    round_ = start.round if start.round is not None else 1
    if round_ > params.rounds:
        raise refused.ROUND_PAST(round=round_, rounds=params.rounds)
    if round_ < 1:
        raise refused.ROUND_BEFORE(round=round_)
    return round_


def _start_prices(params: Params, start: Start) -> tuple[int, ...]:
    """Each company's quote, the start's or the start cell, on the quote track (BOLSA-6.1)."""
    prices = tuple(start.prices.get(code, params.start_quote) for code in params.companies)
    for code, price in zip(params.companies, prices, strict=True):
        if price < params.price_min or (params.price_max is not None and price > params.price_max):
            raise refused.OFF_TRACK(company=code, price=price, low=params.price_min, high=params.price_max)
    return prices


def _check_owned(params: Params, players: tuple[Player, ...]) -> None:
    """BOLSA-2.6: of each company, the players own one share each in all (trades only move them)."""
    n = len(players)
    for c, code in enumerate(params.companies):
        owned = sum(p.zones[c].owned for p in players)
        if owned != n:
            raise refused.OWNED_IN_ALL(owned=owned, company=code, players=n, each=OWNED_AT_SETUP)


def _setup_events(params: Params, state: State) -> Events:
    """The setup as told: the deal, the quotes, the cash, the holdings (each unusual one, or
    the standard ones) and who holds the token."""
    codes, players, n = params.companies, state.players, len(state.players)
    dealt, box = n * CARDS_EACH * len(codes), (params.deck_per_company - n * CARDS_EACH) * len(codes)
    events = [
        said.DEALT(players=n, dealt=dealt, box=box, box_each=box // len(codes)),
        said.QUOTES(prices=dict(zip(codes, state.prices, strict=True)), round=state.round),
        said.CASH(cash={p.name: p.cash for p in players}),
    ]
    standard = tuple(Zones() for _ in codes)
    unusual = [p for p in players if p.zones != standard]
    for p in unusual:
        events.append(said.HOLDS(player=p.name, owned={code: z.owned for code, z in zip(codes, p.zones, strict=True)},
                                 orders={code: z.orders for code, z in zip(codes, p.zones, strict=True)}))
    if not unusual:
        events.append(said.STANDARD_HOLDINGS(owned=OWNED_AT_SETUP, orders=ORDERS_AT_SETUP))
    events.append(said.TOKEN(player=players[state.token].name))
    return tuple(events)


_STANDARD = Start()


@by_identity(64)
def _standard(params: Params, names: tuple[str, ...]) -> tuple[State, Events]:
    return _setup(params, names, _STANDARD)


def _check_names(params: Params, names: Sequence[str], start: Start) -> None:
    """A start names only the game's players and companies (Malformed otherwise)."""
    for name in (*start.cash, *start.owned, *start.orders, *([start.token] if start.token else [])):
        if name not in names:
            raise Malformed(f"the start names {brief(name)}, who is not playing ({', '.join(names)})")
    for counts in (start.prices, *start.owned.values(), *start.orders.values()):
        for code in counts:
            params.company(code)  # Malformed for a company the game has not


def _start_zones(params: Params, name: str, start: Start) -> tuple[Zones, ...]:
    owned, orders = start.owned.get(name, {}), start.orders.get(name, {})
    zones = []
    for code in params.companies:
        own = owned.get(code, CARDS_EACH - orders[code] if code in orders else OWNED_AT_SETUP)
        order = orders.get(code, CARDS_EACH - own)
        if own < 0 or order < 0 or own + order != CARDS_EACH:
            raise refused.CARDS_EACH(player=name, owned=own, company=code, orders=order, cards=CARDS_EACH)
        zones.append(Zones(own, order))
    return tuple(zones)
