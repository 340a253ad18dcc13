"""One game between bots, and what it leaves for the metrics.

The driver asks the engine who may act (`to_move`) and what is legal (`legal_actions`); when
several players may act it asks them one at a time in the order `to_move` gives, each choosing
among his own templates or passing while someone after him (or the table) can act; the
table's steps (bringing up a company, settling it) come last, drawn by the shared sampler. In
a sealed phase (`ToMove.sealed`) each decides from the position as the phase began: the
driver keeps that secret, as a table does.
Every tie the rules leave to a player is broken at random (`apply_choosing`).

After every step the game's `Probe` reads the track, the money in hand and the supplies, and
each seat's worth whenever a unit of length (a round, a turn) begins; a `Watch` adds them up.
A game whose engine has a fast `playout` (random bots only) feeds the same watch itself.
`GameResult` keeps only numbers (what the metrics need), so that results of thousands of
games travel cheaply between processes.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Callable, Sequence

from pnp.bots.common import Bot, Decision, random_bot
from pnp.bots.probe import Probe
from pnp.rules.base import Outcome
from pnp.rules.contract import AnyEngine, apply_choosing
from pnp.rules.legal import sample
from pnp.simulate.pressure import Bills


@dataclass(frozen=True)
class GameResult:
    """One finished game, seat by seat in seating order."""

    index: int  # its number in the simulation (chunks merged in order)
    bots: tuple[int, ...]  # per seat, the index of its bot in the simulation's list
    scores: tuple[float, ...]
    winners: tuple[int, ...]  # seats; several when the win is shared
    reason: str  # how it ended (`Outcome.reason`)
    steps: int  # actions applied
    length: int  # in the probe's unit (rounds, turns)
    mid_leaders: tuple[int, ...]  # the seats ahead when the middle unit of length began; () without a worth
    marks: tuple[int, ...]  # per `Probe.mark_names`: how often the track reached it
    money: tuple[tuple[float, tuple[int, ...]], ...]  # per printed currency: peak total in hands, bills to add each
    supplies: tuple[int, ...]  # per `Probe.supply_names`: the lowest it fell to
    track: tuple[tuple[float, ...], ...] = ()  # the track's series after every step (first games only)
    actions: tuple[Any, ...] | None = field(default=None, compare=False)  # as applied, when asked for
    start: Any = field(default=None, compare=False)  # the position it began from, when not standard


class Watch:
    """What a game's readings come to, accumulated over one game: the marks its track reached,
    the most money in hands (total and bills, per printed currency), the lowest each supply
    fell to, each seat's worth when each unit of length began (the mid-game leader is read off
    the middle one), and, for plots, the track after every step. The slow path feeds it the
    probe's readings after every step; a game's fast `playout` feeds it the same readings
    whenever they change.

    It is the observer a playout is given (`Engine.playout`'s `watch`), and these four methods
    are all a playout may call: `track(values)` the values on the track (`Probe.track`),
    `money(per_currency)` each seat's money in hand per currency (`Probe.money`),
    `supplies(counts)` what is left of each supply (`Probe.supplies`), each given at setup and
    again after any step that changes it (an unchanged one again is harmless); and
    `unit(worth)` as each unit of length begins (at setup, and whenever `Probe.length` of the
    position so far changes), `worth()` giving `Probe.worth` of that position — and still
    giving it after play goes on (it is called, for one unit only, once the game is over)."""

    def __init__(self, probe: Probe, money: Sequence[Bills | None], keep_track: bool = False):
        self.probe, self.bills, self.keep_track = probe, money, keep_track
        self.reading: tuple[Any, ...] | None = None
        self.marks: Counter[str] = Counter()
        self.hands: list[set[tuple[Any, ...]]] = [set() for _ in money]  # per currency, the hands met
        self.last_money: tuple[Any, ...] = ()
        self.lowest: list[int] | None = None
        self.worths: list[Callable[[], tuple[float, ...] | None]] = []
        self.series: list[tuple[float, ...]] = []

    def track(self, reading: tuple[Any, ...]) -> None:
        if self.reading is not None and reading != self.reading:
            for mark in self.probe.marks(self.reading, reading):  # not Counter.update: its type checks cost more
                self.marks[mark] += 1
        self.reading = reading
        if self.keep_track:
            self.series.append(self.probe.series(reading))

    def money(self, reading: tuple[Any, ...]) -> None:
        """Each currency's hands are kept once each and counted out at the end (`peaks`): a
        reading after every step then costs a comparison and a set entry."""
        last = self.last_money
        if reading == last:  # tuples compare their unchanged amounts by identity: cheap
            return
        for k, amounts in enumerate(reading):
            if not last or amounts != last[k]:
                self.hands[k].add(amounts)
        self.last_money = reading

    def peaks(self) -> tuple[tuple[float, tuple[int, ...]], ...]:
        """Per printed currency, the most money in hands at once, and per denomination the
        fewest bills of it that, added to the printed ones, pay every hand met (`Bills.to_add`:
        0 each when the printed bills paid them all)."""
        found = []
        for bills, hands in zip(self.bills, self.hands, strict=True):
            if bills is not None:
                fixes = [bills.to_add(amounts) for amounts in hands] or [(0,) * len(bills.denominations)]
                found.append((float(max((sum(amounts) for amounts in hands), default=0)),
                              tuple(map(max, zip(*fixes, strict=True)))))
        return tuple(found)

    def supplies(self, reading: tuple[int, ...]) -> None:
        self.lowest = list(reading) if self.lowest is None else list(map(min, self.lowest, reading))

    def unit(self, worth: Callable[[], tuple[float, ...] | None]) -> None:
        """A unit of length begins; `worth()` would give each seat's worth at that moment (it
        is asked only of the middle one, at the end)."""
        self.worths.append(worth)

    def result(self, index: int, bot_ids: Sequence[int], outcome: Outcome, seat_of: dict[str, int], steps: int,
               length: int) -> GameResult:
        middle = self.worths[len(self.worths) // 2]() if self.worths else None
        return GameResult(
            index=index,
            bots=tuple(bot_ids),
            scores=tuple(float(score) for score in outcome.scores.values()),
            winners=tuple(seat_of[name] for name in outcome.winners),
            reason=outcome.reason,
            steps=steps,
            length=length,
            mid_leaders=() if middle is None else tuple(k for k, w in enumerate(middle) if w == max(middle)),
            marks=tuple(self.marks[name] for name in self.probe.mark_names),
            money=self.peaks(),
            supplies=tuple(self.lowest or ()),
            track=tuple(self.series),
        )


def play_game(
    engine: AnyEngine,
    params: Any,
    probe: Probe,
    money: Sequence[Bills | None],
    seats: Sequence[Bot],
    names: Sequence[str],
    rng: random.Random,
    *,
    index: int = 0,
    bot_ids: Sequence[int] = (),
    keep_actions: bool = False,
    keep_track: bool = False,
    fast: bool = True,
) -> GameResult:
    """Play one game from the engine's deal (`Engine.deal`: the random part of a setup) to
    its end.

    When every seat is the random bot and neither the actions nor the track after every step
    are kept, the engine's `playout` plays it, if it has one: the same draws from `rng`, the
    same game and the same result, several times sooner (`fast=False` says not to: the tests
    compare both)."""
    start = engine.deal(params, names, rng)
    seat_of = {name: seat for seat, name in enumerate(names)}
    watch = Watch(probe, money, keep_track)
    state, _ = engine.setup(params, names, start)
    playout = engine.playout if fast and not keep_actions and not keep_track else None
    if playout is not None and all(bot is random_bot for bot in seats):
        played = playout(params, state, rng, watch)
        return watch.result(index, bot_ids, played.outcome, seat_of, played.steps, played.length)
    first, steps, kinds, actions = state, 0, Counter[str](), []
    unit = probe.length(state, 0, kinds)
    _read(watch, probe, state, unit=True)
    sealed: tuple[str, Any] | None = None  # a sealed phase under way: its name and the position it began from
    while True:
        who = engine.to_move(state, params)
        if who is None:
            break
        if not who.sealed:
            sealed = None
        elif sealed is None or sealed[0] != who.phase:
            sealed = (who.phase, state)
        seen = state if sealed is None else sealed[1]
        action = _choose(engine, params, probe, state, seen, who.players, seat_of, seats, rng)
        action, state, _ = apply_choosing(engine, state, action, params, rng, events=False)
        steps += 1
        kinds[type(action).__name__] += 1
        if keep_actions:
            actions.append(action)
        now = probe.length(state, steps, kinds)
        _read(watch, probe, state, unit=now != unit)
        unit = now
    outcome: Outcome | None = engine.outcome(state, params)
    assert outcome is not None, "to_move says the game is over, outcome must score it"
    result = watch.result(index, bot_ids, outcome, seat_of, steps, unit)
    if keep_actions:
        result = replace(result, actions=tuple(actions), start=None if start is None else first)
    return result


def _read(watch: Watch, probe: Probe, state: Any, *, unit: bool) -> None:
    """The probe's readings of one position, into the watch."""
    watch.track(probe.track(state))
    watch.money(probe.money(state))
    watch.supplies(probe.supplies(state))
    if unit:
        watch.unit(partial(probe.worth, state))


def _choose(engine: Any, params: Any, probe: Probe, state: Any, seen: Any, players: Sequence[str],
            seat_of: dict[str, int], seats: Sequence[Bot], rng: random.Random) -> Any:
    """The next action: each player who may act, in `to_move`'s order, chooses or passes;
    then the table. A player decides from `seen`: the position, or in a sealed phase
    (`ToMove.sealed`: Bolsa's declarations) the position the phase began from, so that nobody
    sees what another entered in it; his templates are those of the position."""
    templates = engine.legal_actions(state, params)
    for k, name in enumerate(players):
        mine = tuple(t for t in templates if t.player == name)
        if not mine:
            continue
        later = players[k + 1:]
        may_pass = any(t.player is None or t.player in later for t in templates)
        seat = seat_of[name]
        action = seats[seat](Decision(engine, params, probe, seen, seat, mine, may_pass), rng)
        if action is not None:
            return action
    return sample([t for t in templates if t.player is None], rng)
