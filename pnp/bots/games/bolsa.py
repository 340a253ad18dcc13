"""Bolsa for the simulator: what to read off a position, and two heuristic bots.

The quote track is printed as cells `price_min`…`top_cell`; a token flipped to its "+20" side
carries a quote past the last cell, up to `price_max` (BOLSA-1.3, 6.1). Money is one currency:
cash in hand during play and, at the end, what the bank pays for the shares (BOLSA-7.1).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping

from pnp.bots.common import Bot, Decision, fit
from pnp.bots.probe import Probe
from pnp.rules.bolsa import engine as bolsa


class BolsaProbe(Probe):
    unit = "rounds"
    track_name = "quote"
    mark_names = ("bottom", "flip", "top")
    currencies = ("",)

    def __init__(self, params: bolsa.Params):
        super().__init__(params)
        self.series_names = params.companies
        self.top_cell = params.top_cell

    def worth(self, state: bolsa.State) -> tuple[float, ...]:
        return tuple(map(float, bolsa.worth(state, self.params)))

    def length(self, state: bolsa.State, steps: int, kinds: Mapping[str, int]) -> int:
        return state.round

    def track(self, state: bolsa.State) -> tuple[int, ...]:
        return state.prices

    def marks(self, old: tuple[int, ...], new: tuple[int, ...]) -> Iterable[str]:
        p = self.params
        bottom = flip = top = False
        for a, b in zip(old, new, strict=True):
            if a != b:  # only a quote that moved reaches a mark (read after every step: kept lean)
                bottom = bottom or b == p.price_min
                flip = flip or a <= self.top_cell < b
                top = top or b == p.price_max
        return [mark for mark, hit in zip(self.mark_names, (bottom, flip, top), strict=True) if hit] if bottom or flip or top else ()

    def money(self, state: bolsa.State) -> tuple[tuple[int | Fraction, ...], ...]:
        if state.over:  # the bank has bought the shares: money is the final scores (BOLSA-7.1)
            return (bolsa.worth(state, self.params),)
        return (tuple(player.cash for player in state.players),)


def middle(params: bolsa.Params) -> float:
    """The middle of the printed quote row: below it a share is cheap, above it dear."""
    return (params.price_min + params.top_cell) / 2


def value(decision: Decision, rng: random.Random) -> Any:
    """Buys below the middle of the track and sells above it; in an auction, bids up to the
    middle when buying and down to it when selling; withdraws a trade an auction settled beyond
    the middle."""
    state, params = decision.state, decision.params
    mid = middle(params)
    declare = decision.of_kind("declare")
    if declare is not None:
        cheap_first = sorted(range(len(params.companies)), key=lambda c: state.prices[c])
        wishes = {}
        for c in cheap_first:
            code, quote = params.companies[c], state.prices[c]
            if quote < mid:
                wishes[f"buy.{code}"] = bolsa.CARDS_EACH
            elif quote > mid:
                wishes[f"sell.{code}"] = bolsa.CARDS_EACH
        return declare.action(fit(declare, wishes))
    return _bid(decision, lambda ascending: mid)


def bull(decision: Decision, rng: random.Random) -> Any:
    """Pushes up what it owns: requests the companies it holds most of (unmet requests raise
    the quote, BOLSA-4.3), sells only in the last round, and bids up to two above the quote."""
    state, params = decision.state, decision.params
    declare = decision.of_kind("declare")
    if declare is not None:
        me = state.players[decision.seat]
        if state.round == params.rounds:
            wishes = {f"sell.{code}": z.owned for code, z in zip(params.companies, me.zones, strict=True)
                      if state.prices[params.companies.index(code)] > middle(params)}
        else:
            held = sorted(range(len(params.companies)), key=lambda c: (-me.zones[c].owned, state.prices[c]))
            wishes = {f"buy.{params.companies[c]}": bolsa.CARDS_EACH for c in held}
        return declare.action(fit(declare, wishes))
    quote = state.trade.quote if state.trade is not None else 0
    return _bid(decision, lambda ascending: quote + 2 if ascending else quote - 2)


def _bid(decision: Decision, limit: Any) -> Any:
    """In an auction: the smallest step towards the limit while it is within reach, else a
    pass; a loser who may withdraw (BOLSA-5.7) does when the auction ended beyond his limit,
    and keeps his trade otherwise. The table's steps are not a player's."""
    withdraw = decision.of_kind("withdraw")
    if withdraw is not None and _beyond(decision, limit):
        return withdraw.action()
    bid, passing = decision.of_kind("bid"), decision.of_kind("pass")
    if bid is not None:
        (amount,) = bid.fields
        ascending = decision.state.trade.auction.ascending
        target = limit(ascending)
        step = amount.low if ascending else amount.high
        if (step <= target) if ascending else (step >= target):
            return bid.action({"amount": step})
    if passing is not None:
        return passing.action()
    if decision.may_pass:
        return None
    return decision.templates[0].action(fit(decision.templates[0], {}))


def _beyond(decision: Decision, limit: Callable[[bool], int]) -> bool:
    """Whether the auction ended with a best bid beyond the bot's limit (above it when
    buying, below it when selling)."""
    auction = decision.state.trade.auction if decision.state.trade is not None else None
    if auction is None or auction.best is None:
        return False
    target = limit(auction.ascending)
    return bool(auction.best > target if auction.ascending else auction.best < target)


BOTS: dict[str, Bot] = {"value": value, "bull": bull}
PROBE = BolsaProbe
