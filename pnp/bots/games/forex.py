"""For-Ex for the simulator: what to read off a position, and a heuristic bot.

The track is the currency board: a pair counter reaching the last box (the "8" space, the
cap) or changing sides at 1:1 (a flip) are its marks (FOREX-3.1, 3.2); its plotted series are
the currencies' strength counts (FOREX-2.4). Money is printed per currency, so each currency's
bucks in hands are compared with its own bills. Certificates per currency and the contract
sets in the display (FOREX-4.3, 7.1) are the supplies that can run out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Mapping

from pnp.bots.common import Bot, Decision, fit, random_bot
from pnp.bots.probe import Probe
from pnp.rules.forex import engine as forex
from pnp.rules.forex.board import strengths, value_in


class ForexProbe(Probe):
    unit = "turns"
    track_name = "rate"
    mark_names = ("cap", "flip")
    series_label = "strength (pairs won)"
    money_unit = Fraction(1, 2)  # money is kept in halves (FOREX-A6)

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


@dataclass(frozen=True)
class _Board:
    """What `holder` reads off a position: the strongest and the weakest currency, each
    currency's strength, and the mover's money valued in the strongest."""

    decision: Decision
    counts: Mapping[str, int]
    target: str
    weakest: str

    def held(self, currency: str) -> Fraction:
        d = self.decision
        money = d.state.holdings[d.seat].money[d.params.index(currency)]
        return value_in(d.state.pairs, d.params, money, currency, self.target)

    @property
    def short(self) -> bool:
        """Less of the strongest currency than a certificate costs."""
        state: forex.State = self.decision.state
        params: forex.Params = self.decision.params
        return state.holdings[self.decision.seat].money[params.index(self.target)] < params.certificate_price


def holder(decision: Decision, rng: random.Random) -> Any:
    """Holds the strong: short of the strongest currency (less than a certificate's price), it
    trades its most-held weaker money for it on a spot deal before its action, and makes a
    contract paying the weakest for it (one at a time); else invests in the currencies it holds
    most of (worth, in the strongest), strengthening them; else sells the certificates it holds
    of the weakest currency; else resolves the front of the queue, strengthening its own best
    currency on a tied dividend and paying its contracts."""
    counts = strengths(decision.state.pairs, decision.params)
    board = _Board(decision, counts, max(decision.params.currencies, key=lambda c: counts[c]),
                   min(decision.params.currencies, key=lambda c: counts[c]))
    for choose in (_spot, _contract, _invest, _divest, _resolve):
        action = choose(board)
        if action is not None:
            return action
    return random_bot(decision, rng)  # the mover can always resolve (FOREX-10); kept for a changed engine


def _spot(board: _Board) -> Any:
    spot = board.decision.of_kind("spot")
    if spot is None or not board.short:
        return None
    (deals,) = spot.fields
    wanted = [deal for deal in deals.options if deal[2][0] == board.target and board.counts[deal[1][0]] < board.counts[board.target]]
    return spot.action({"deal": max(wanted, key=lambda deal: board.held(deal[1][0]))}) if wanted else None


def _contract(board: _Board) -> Any:
    contract, d = board.decision.of_kind("contract"), board.decision
    owner = d.state.players[d.seat]
    if contract is None or not board.short or board.weakest == board.target or \
            any(getattr(item, "owner", None) == owner for item in d.state.queue):
        return None  # one contract at a time
    return contract.action({"pay": board.weakest, "receive": board.target, "amount": 1})


def _invest(board: _Board) -> Any:
    invest = board.decision.of_kind("invest")
    if invest is None:
        return None
    (field,) = invest.fields
    return invest.action({"currencies": tuple(sorted(field.options, key=board.held, reverse=True)[: field.high])})


def _divest(board: _Board) -> Any:
    if board.counts[board.weakest] >= board.counts[board.target]:
        return None
    divest = next((t for t in board.decision.templates if t.kind == "divest" and t.fixed.get("currency") == board.weakest),
                  None)
    return divest.action(fit(divest, {"count": 1})) if divest is not None else None


def _resolve(board: _Board) -> Any:
    resolve = board.decision.of_kind("resolve")
    if resolve is None:
        return None
    return resolve.action({f.name: max(f.options, key=board.held) if f.name == "strengthen" else f.options[0]
                           for f in resolve.fields})


BOTS: dict[str, Bot] = {"holder": holder}
PROBE = ForexProbe
