"""One game between bots, and what it leaves for the metrics.

The driver asks the engine who may act (`to_move`) and what is legal (`legal_actions`); when
several players may act it asks them one at a time in the order `to_move` gives, each choosing
among his own templates or passing while someone after him (or the table) can act; the
table's steps (bringing up a company, settling it) come last, drawn by the shared sampler.
Every tie the rules leave to a player is broken at random (`apply_choosing`).

After every step the game's `Probe` reads the track, the money in hand and the supplies;
`GameResult` keeps only numbers (what the metrics need), so that results of thousands of
games travel cheaply between processes.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from pnp.rules.base import Engine, Outcome
from pnp.rules.legal import apply_choosing, sample
from pnp.simulate.bots import Bot, Decision
from pnp.simulate.pressure import Bills
from pnp.simulate.probe import Probe


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
    mid_leaders: tuple[int, ...]  # the seats ahead halfway through (by steps); () without a worth
    marks: tuple[int, ...]  # per `Probe.mark_names`: how often the track reached it
    money: tuple[tuple[float, tuple[int, ...]], ...]  # per printed currency: peak total in hands, peak bills each
    supplies: tuple[int, ...]  # per `Probe.supply_names`: the lowest it fell to
    track: tuple[tuple[float, ...], ...] = ()  # the track's series after every step (first games only)
    actions: tuple[Any, ...] | None = field(default=None, compare=False)  # as applied, when asked for
    start: Any = field(default=None, compare=False)  # the position it began from, when not standard


@dataclass
class _Watch:
    """What the probe reads, accumulated over one game (mutable, local to `play_game`)."""

    probe: Probe
    money: Sequence[Bills | None]  # per probe currency: its printed bills, if printed
    keep_track: bool
    reading: tuple[Any, ...] = ()
    marks: Counter[str] = field(default_factory=Counter)
    peaks: list[tuple[Any, tuple[int, ...]]] = field(default_factory=list)
    lowest: list[int] = field(default_factory=list)
    track: list[tuple[float, ...]] = field(default_factory=list)
    last_money: tuple[Any, ...] = ()

    def first(self, state: Any) -> None:
        self.reading = self.probe.track(state)
        self.peaks = [(0, (0,) * len(bills.values)) if bills else (0, ()) for bills in self.money]
        self.lowest = list(self.probe.supplies(state))
        self.see(state)

    def see(self, state: Any) -> None:
        reading = self.probe.track(state)
        if reading != self.reading:
            for mark in self.probe.marks(self.reading, reading):  # not Counter.update: its type checks cost more
                self.marks[mark] += 1
            self.reading = reading
        if self.keep_track:
            self.track.append(self.probe.series(reading))
        money = self.probe.money(state)
        if money != self.last_money:  # tuples compare their unchanged amounts by identity: cheap
            last = self.last_money or ((),) * len(money)
            for k, (bills, amounts) in enumerate(zip(self.money, money)):
                if bills is not None and amounts != last[k]:
                    total, counts = bills.in_hands(amounts)
                    peak, most = self.peaks[k]
                    self.peaks[k] = (max(peak, total), tuple(map(max, most, counts)))
            self.last_money = money
        for k, left in enumerate(self.probe.supplies(state)):
            self.lowest[k] = min(self.lowest[k], left)


def play_game(
    engine: Engine[Any, Any, Any],
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
) -> GameResult:
    """Play one game from the setup (or the probe's start, a deal) to its end."""
    start = probe.start(names, rng)
    state, _ = engine.setup(params, names, start)
    seat_of = {name: seat for seat, name in enumerate(names)}
    watch = _Watch(probe, money, keep_track)
    watch.first(state)
    states, actions, kinds = [state], [], Counter[str]()
    while True:
        who = engine.to_move(state, params)
        if who is None:
            break
        action = _choose(engine, params, probe, state, who.players, seat_of, seats, rng)
        action, state, _ = apply_choosing(engine, state, action, params, rng.choice, events=False)
        kinds[type(action).__name__] += 1
        states.append(state)
        if keep_actions:
            actions.append(action)
        watch.see(state)
    outcome: Outcome | None = engine.outcome(state, params)
    assert outcome is not None, "to_move says the game is over, outcome must score it"
    middle = probe.worth(states[len(states) // 2])
    return GameResult(
        index=index,
        bots=tuple(bot_ids),
        scores=tuple(float(score) for score in outcome.scores.values()),
        winners=tuple(seat_of[name] for name in outcome.winners),
        reason=outcome.reason,
        steps=len(states) - 1,
        length=probe.length(state, len(states) - 1, kinds),
        mid_leaders=() if middle is None else tuple(k for k, w in enumerate(middle) if w == max(middle)),
        marks=tuple(watch.marks[name] for name in probe.mark_names),
        money=tuple((float(peak), most) for (peak, most), bills in zip(watch.peaks, money) if bills is not None),
        supplies=tuple(watch.lowest),
        track=tuple(watch.track),
        actions=tuple(actions) if keep_actions else None,
        start=states[0] if start is not None else None,
    )


def _choose(engine: Any, params: Any, probe: Probe, state: Any, players: Sequence[str], seat_of: dict[str, int],
            seats: Sequence[Bot], rng: random.Random) -> Any:
    """The next action: each player who may act, in `to_move`'s order, chooses or passes;
    then the table."""
    templates = engine.legal_actions(state, params)
    for k, name in enumerate(players):
        mine = tuple(t for t in templates if t.player == name)
        if not mine:
            continue
        later = players[k + 1:]
        may_pass = any(t.player is None or t.player in later for t in templates)
        seat = seat_of[name]
        action = seats[seat](Decision(engine, params, probe, state, seat, mine, may_pass), rng)
        if action is not None:
            return action
    return sample([t for t in templates if t.player is None], rng)
