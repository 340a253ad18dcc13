"""The search bot (`--bots search`, `search:400`, `search:0.5s`): information-set Monte Carlo
tree search on the engine contract alone, for every game.

A decision starts from the position *as the bot's seat may know it*: `Engine.view` replaces every
other seat's secret (Акционер's hands) by placeholders, and in a sealed phase the driver gives
the position as the phase began (`play.Decision`), so nothing the seat may not see reaches the
search — a `Seat` holds the view, never the position. Each iteration then

1. draws a full position the view could be (`Engine.determinize`: the hidden cards from those
   the seat has not seen),
2. picks one of the bot's candidate actions by UCB1 (the root of the tree is the seat's
   information set; its branches the candidates, shared by every determinization),
3. applies it (`contract.apply_choosing`) and plays the game out at random from there — the
   engine's fast playout where it has one that starts from any position, else the shared
   sampler on the general path —
4. and scores the outcome for the seat: its share of the win (½ of a win shared by two), and
   for `SCORE_WEIGHT` of the reward its score against the best other (so lines that all win or
   all lose are still told apart by the score).

The candidates are the values a lookahead tries (`bots.candidates`: every choice when a
template is a few, else the least values and random draws), what the game's own heuristic bots
would do in the position, and, every `WIDEN` iterations, a fresh random draw (progressive
widening), so a template of thousands of declarations is searched without listing them. The
budget is iterations (`search:400`; `search` alone is `DEFAULT_ITERATIONS`) or seconds of CPU
per decision (`search:0.5s`); with one
candidate there is nothing to search. The best candidate is the most visited (the robust child).
"""

from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from pnp.bots.common import Bot, Decision, candidates
from pnp.rules.contract import apply_choosing
from pnp.rules.legal import Template, draw, sample

DEFAULT_ITERATIONS = 50  # For-Ex's longest games stay above half a game a second a core
EXPLORATION = 0.7  # UCB1's constant for rewards in [0, 1]
SCORE_WEIGHT = 0.3  # the part of the reward that is the seat's score against the best other (measured best of 0.1–1)
WIDEN = 25  # iterations between fresh random candidates
MOST_CANDIDATES = 48
MOST_STEPS = 100_000  # a rollout that does not end is an engine bug


@dataclass(frozen=True)
class Seat:
    """What a decision is searched from: the engine, the rules, the seat's view of the position
    (`Engine.view`: no secret of another seat in it) and the seat's own templates."""

    engine: Any
    params: Any
    view: Any
    seat: int
    templates: tuple[Template, ...]


@dataclass
class Branch:
    """One candidate at the root: the action, how often it was tried and what it earned."""

    action: Any
    visits: int = 0
    reward: float = 0.0
    after: Any = None  # the position after the action, kept where the view hides nothing (every draw is the view)

    def ucb(self, total: int) -> float:
        if not self.visits:
            return math.inf
        return self.reward / self.visits + EXPLORATION * math.sqrt(math.log(total) / self.visits)


class SearchBot:
    """A bot (`bots.Bot`) that searches each decision (see the module's docstring)."""

    def __init__(self, iterations: int | None = DEFAULT_ITERATIONS, seconds: float | None = None,
                 heuristics: Sequence[Bot] = ()):
        self.iterations, self.seconds, self.heuristics = iterations, seconds, tuple(heuristics)

    def __call__(self, decision: Decision, rng: random.Random) -> Any:
        engine, params = decision.engine, decision.params
        view = engine.view(decision.state, params, decision.seat)
        seat = Seat(engine, params, view, decision.seat, decision.templates)
        seen = Decision(engine, params, decision.probe, view, decision.seat, decision.templates, decision.may_pass)
        hinted = [bot(seen, rng) for bot in self.heuristics]  # they too see only the view
        return search(seat, rng, iterations=self.iterations, seconds=self.seconds,
                      hints=[a for a in hinted if a is not None])

    def __repr__(self) -> str:
        return f"SearchBot({self.iterations if self.seconds is None else f'{self.seconds}s'})"


def search(seat: Seat, rng: random.Random, *, iterations: int | None = DEFAULT_ITERATIONS,
           seconds: float | None = None, hints: Sequence[Any] = ()) -> Any:
    """The most visited of the seat's candidates after the budget's iterations."""
    branches = _candidates(seat, rng, hints)
    if len(branches) == 1:
        return branches[0].action
    deadline = time.process_time() + seconds if seconds is not None else None
    done = 0
    while (iterations is None or done < iterations) and (deadline is None or time.process_time() < deadline):
        done += 1
        if done % WIDEN == 0 and len(branches) < MOST_CANDIDATES:
            template = seat.templates[int(rng.random() * len(seat.templates))]
            branches.append(Branch(template.action(draw(template, rng))))
        branch = max(branches, key=lambda b: b.ucb(done))
        branch.visits += 1
        branch.reward += _rollout(seat, branch, rng)
    return max(branches, key=lambda b: (b.visits, b.reward)).action


def _candidates(seat: Seat, rng: random.Random, hints: Sequence[Any]) -> list[Branch]:
    """The heuristics' suggestions first, then every template's candidate values, each once."""
    found: dict[str, Branch] = {}
    actions = [*hints, *(t.action(values) for t in seat.templates for values in candidates(t, rng))]
    for action in actions:
        found.setdefault(repr(action), Branch(action))
    return list(found.values())[:MOST_CANDIDATES]


def _rollout(seat: Seat, branch: Branch, rng: random.Random) -> float:
    """One iteration below the root: a determinization, the action, a random game to its end;
    the reward for the seat. Where the view hides nothing (`determinize` gives the view itself:
    Bolsa, For-Ex) the position after the action is made once and every rollout starts from
    it (a playout reads a position's numbers once per position)."""
    engine, params = seat.engine, seat.params
    if branch.after is not None:
        state = branch.after
    else:
        drawn = engine.determinize(seat.view, params, seat.seat, rng)
        _, state, _ = apply_choosing(engine, drawn, branch.action, params, rng, events=False)
        if drawn is seat.view:
            branch.after = state
    fast = engine.playout
    outcome = fast(params, state, rng, UNWATCHED).outcome if fast is not None else playout(engine, params, state, rng)
    return reward(outcome, seat.seat)


class Unwatched:
    """The observer a rollout gives the engine's fast playout: it reads nothing."""

    def track(self, reading: Any) -> None:
        pass

    def money(self, reading: Any) -> None:
        pass

    def supplies(self, reading: Any) -> None:
        pass

    def unit(self, worth: Any) -> None:
        pass


UNWATCHED = Unwatched()


def playout(engine: Any, params: Any, state: Any, rng: random.Random) -> Any:
    """The outcome of random play from `state` to the end of the game, on the general path
    (the shared sampler, the table's steps last: as the simulator's driver plays random bots),
    for an engine without a fast playout."""
    for _ in range(MOST_STEPS):
        who = engine.to_move(state, params)
        if who is None:
            return engine.outcome(state, params)
        templates = engine.legal_actions(state, params)
        action = None
        for name in who.players:
            mine = [t for t in templates if t.player == name]
            if mine:
                action = sample(mine, rng)
                break
        if action is None:
            action = sample([t for t in templates if t.player is None], rng)
        _, state, _ = apply_choosing(engine, state, action, params, rng, events=False)
    raise RuntimeError(f"a rollout did not end after {MOST_STEPS} steps")


def reward(outcome: Any, seat: int) -> float:
    """The seat's share of the win, plus `SCORE_WEIGHT` of its score against the best other
    (squashed to 0…1 by the scores' spread)."""
    names = list(outcome.scores)
    me = names[seat]
    won = 1 / len(outcome.winners) if me in outcome.winners else 0.0
    scores = [float(v) for v in outcome.scores.values()]
    others = max((s for k, s in enumerate(scores) if k != seat), default=scores[seat])
    spread = max(scores) - min(scores) or 1.0
    lead = 0.5 + 0.5 * max(-1.0, min(1.0, (scores[seat] - others) / spread))
    return (1 - SCORE_WEIGHT) * won + SCORE_WEIGHT * lead


BUDGET = re.compile(r"(?P<count>\d{1,7})|(?P<seconds>\d{1,4}(?:\.\d{1,3})?)s")


def search_bot(argument: str | None, heuristics: Mapping[str, Bot]) -> Bot | None:
    """`search`, `search:N` (iterations a decision) or `search:Xs` (seconds of CPU a decision);
    None for a budget that is none of these. The game's heuristic bots suggest candidates."""
    hints = [bot for name, bot in heuristics.items() if name not in ("random", "greedy", "search")]
    if argument is None:
        return SearchBot(DEFAULT_ITERATIONS, heuristics=hints)
    found = BUDGET.fullmatch(argument)
    if found is None:
        return None
    if found["count"] is not None:
        count = int(found["count"])
        return SearchBot(count, heuristics=hints) if count >= 1 else None
    seconds = float(found["seconds"])
    return SearchBot(None, seconds, heuristics=hints) if seconds > 0 else None

