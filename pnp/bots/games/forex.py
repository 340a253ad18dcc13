"""For-Ex for the simulator: what to read off a position, and a heuristic bot.

The track is the currency board: a pair counter reaching the last box (the "8" space, the
cap) or changing sides at 1:1 (a flip) are its marks (FOREX-3.1, 3.2); its plotted series are
the currencies' strength counts (FOREX-2.4). Money is printed per currency, so each currency's
bucks in hands are compared with its own bills. Certificates per currency and the contract
sets in the display (FOREX-4.3, 7.1) are the supplies that can run out.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Iterable, Mapping

from pnp.bots.common import Bot, Decision, random_bot
from pnp.bots.probe import Probe
from pnp.rules.forex import engine as forex
from pnp.rules.forex.board import strengths, value_in


class ForexProbe(Probe):
    unit = "turns"
    track_name = "rate"
    mark_names = ("cap", "flip")
    series_label = "strength (pairs won)"

    def __init__(self, params: forex.Params):
        super().__init__(params)
        self.series_names = self.currencies = params.currencies
        self.supply_names = (*(f"certificates {c}" for c in params.currencies), "contract sets")

    def worth(self, state: forex.State) -> tuple[float, ...]:
        return tuple(map(float, forex.worth(state, self.params)))

    def length(self, state: forex.State, steps: int, kinds: Mapping[str, int]) -> int:
        return steps - kinds.get("Spot", 0)  # a Spot Transaction is part of a turn (FOREX-5.1)

    def track(self, state: forex.State) -> tuple[Any, ...]:
        return state.pairs

    def series(self, reading: tuple[Any, ...]) -> tuple[float, ...]:
        return tuple(float(n) for n in strengths(reading, self.params).values())

    def marks(self, old: tuple[Any, ...], new: tuple[Any, ...]) -> Iterable[str]:
        boxes, cap, flip = self.params.boxes, False, False
        for a, b in zip(old, new, strict=True):
            if a is not b:  # a step moves a few pairs; the rest are kept
                cap = cap or b.position == boxes != a.position
                flip = flip or a.stronger != b.stronger
        return ("cap",) * cap + ("flip",) * flip

    def money(self, state: forex.State) -> tuple[tuple[Fraction, ...], ...]:
        return tuple(tuple(h.money[i] for h in state.holdings) for i in range(len(self.params.currencies)))

    def supplies(self, state: forex.State) -> tuple[int, ...]:
        return (*state.supply, len(state.display(self.params)))


def holder(decision: Decision, rng: random.Random) -> Any:
    """Invests in the currencies it holds most of (worth, in the strongest), strengthening
    them; otherwise resolves the front of the queue, strengthening its own best currency on a
    tied dividend and paying its contracts. No spot deals, contracts or divestments."""
    state, p, seat = decision.state, decision.params, decision.seat
    counts = strengths(state.pairs, p)
    target = max(p.currencies, key=lambda c: counts[c])
    mine = state.holdings[seat].money

    def held(currency: str) -> Fraction:
        return value_in(state.pairs, p, mine[p.index(currency)], currency, target)

    invest = decision.of_kind("invest")
    if invest is not None:
        (field,) = invest.fields
        best = sorted(field.options, key=held, reverse=True)[: field.high]
        return invest.action({"currencies": tuple(best)})
    resolve = decision.of_kind("resolve")
    if resolve is None:  # the mover can always resolve (FOREX-10); kept for a changed engine
        return random_bot(decision, rng)
    values: dict[str, Any] = {}
    for f in resolve.fields:
        values[f.name] = max(f.options, key=held) if f.name == "strengthen" else f.options[0]
    return resolve.action(values)


BOTS: dict[str, Bot] = {"holder": holder}
PROBE = ForexProbe
