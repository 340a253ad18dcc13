"""Акционер for the simulator: what to read off a position, and a heuristic bot.

Games start from the engine's deal (AKT-2.3), so each player holds the cards a table would. Prices
live on the printed price track, `cells[0]`…`cells[-1]`; a price pushed past either end is an
overflow or a zeroing (AKT-6.2, 7.1), which the probe counts as reaching the top or bottom.
The game has no printed money (cash is written on account forms), so no money pressure.
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Mapping

from pnp.bots.common import Bot, Decision, fit, greedy
from pnp.bots.probe import Probe, reached
from pnp.rules.aktsioner import engine as akt
from pnp.rules.legal import Template


class AktsionerProbe(Probe):
    unit = "turns"
    track_name = "price"
    mark_names = ("bottom", "top")

    def __init__(self, params: akt.Params):
        super().__init__(params)
        self.series_names = params.colours

    def worth(self, state: akt.State) -> tuple[float, ...]:
        return tuple(map(float, akt.worth(state, self.params)))

    def length(self, state: akt.State, steps: int, kinds: Mapping[str, int]) -> int:
        return kinds.get("Begin", 0)

    def track(self, state: akt.State) -> tuple[int, ...]:
        return state.prices

    def marks(self, old: tuple[int, ...], new: tuple[int, ...]) -> Iterable[str]:
        bottom, top = self.params.price_min, self.params.price_max
        if bottom in new and reached(old, new, bottom):  # `in` first: a bound is rarely reached
            yield "bottom"
        if top in new and reached(old, new, top):
            yield "top"


def investor(decision: Decision, rng: random.Random) -> Any:
    """Before its card, buys all it can of the colour its strongest card raises most
    (`_opening_buy`); then plays greedily; after its card it holds (no stage-3 trade) and ends
    its turn."""
    state, params = decision.state, decision.params
    trade = decision.of_kind("trade")
    bought = _opening_buy(decision, trade) if trade is not None else None
    if bought is not None:
        return bought
    plays = tuple(t for t in decision.templates if t.kind == "play")
    if plays:
        return greedy(Decision(decision.engine, params, decision.probe, state, decision.seat, plays, False), rng)
    begin = decision.of_kind("begin") or decision.of_kind("end")  # its own turn, or the next player's
    if begin is not None:
        return begin.action()
    if decision.may_pass or trade is None:
        return None
    return trade.action(fit(trade, {}))  # a trade of nothing: the mover is the last who may act


def _opening_buy(decision: Decision, trade: Template) -> object:
    """Before its card: all it can buy of the colour its strongest card raises most (the card's
    own effect, computed by the engine's `Effect`); None when it buys nothing."""
    state, params = decision.state, decision.params
    turn = state.turn
    if turn is None or turn.played or state.hands is None:
        return None
    hand = [params.cards[name] for name in state.hands[decision.seat]]
    best = max(hand, key=lambda card: card.own.apply(state.price(params, card.colour)) - state.price(params, card.colour))
    values = fit(trade, {f"buy.{best.colour}": 10**6})
    return trade.action(values) if any(values.values()) else None


BOTS: dict[str, Bot] = {"investor": investor}
PROBE = AktsionerProbe
