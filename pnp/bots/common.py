"""Bots: players that choose among the engine's legal actions, never restating a rule.

A bot is a function `(decision, rng) -> action | None`. The `Decision` holds the position and
the templates of the player to decide (`pnp.rules.legal`); every action a bot returns is built
from one of them with values within its fields and constraints, so it is legal by
construction. `None` passes: the player lets the next one (or the table) act, which the
driver offers only when someone else can (`may_pass`).

Two bots play every game: `random`, the one shared sampler (a template uniformly, then its
fields), and `greedy`, a one-step lookahead that tries a few draws of each template, applies
them with the engine and keeps the one that puts the player furthest ahead of the best
opponent by the game's `Probe.worth`. Each game adds its own heuristics in
`pnp.bots.games.<game>` with the helpers below (`fit` turns wishes into legal values).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from pnp.bots.probe import Probe
from pnp.rules.base import fast_init
from pnp.rules.contract import AnyEngine, apply_choosing
from pnp.rules.legal import AtMostOne, Budget, Different, Field, Template, draw, met, sample


@fast_init  # one per step of every simulated game
@dataclass(frozen=True)
class Decision:
    """One player's turn to choose: the position, his templates, and whether he may pass."""

    engine: AnyEngine
    params: Any
    probe: Probe
    state: Any
    seat: int
    templates: tuple[Template, ...]  # this player's, never empty
    may_pass: bool

    def of_kind(self, kind: str) -> Template | None:
        return next((t for t in self.templates if t.kind == kind), None)


Bot = Callable[[Decision, random.Random], Any]


def random_bot(decision: Decision, rng: random.Random) -> Any:
    """Uniform over the player's templates, then the shared sampler's draw (never passes)."""
    return sample(decision.templates, rng)


def greedy(decision: Decision, rng: random.Random) -> Any:
    """The candidate that leaves the player furthest ahead of his best opponent one step later;
    a tie broken at random among the equally good — a template first, as the random bot draws,
    then one of its candidates — acting preferred to passing (`pass` templates, or passing the
    decision on when the player may): where nothing pays before a round is settled (Bolsa's
    declarations) a tie is the rule, not the exception, and the first of equals winning every
    tie made greedy a player who never trades. A declaration or a trade of nothing is one
    candidate among the others, not a pass: where trading goes on until a trade of nothing
    (Акционер's stages) preferring every other trade to it would trade back and forth for ever."""
    scored = _scored(decision, rng)
    best = max(score for score, _, _, _ in scored)
    tied = [entry for entry in scored if entry[0] >= best - TIE]
    chosen = [entry for entry in tied if entry[1]] or tied
    drawn = rng.choice(sorted({k for _, _, k, _ in chosen}))
    return rng.choice([action for _, _, k, action in chosen if k == drawn])


def _scored(decision: Decision, rng: random.Random) -> list[tuple[float, bool, int, object]]:
    """Each candidate as (its lead one step later, whether it acts, its template's index, the
    action): passing first when the player may (template -1, action None)."""
    engine, params, state, probe = decision.engine, decision.params, decision.state, decision.probe
    scored: list[tuple[float, bool, int, object]] = []
    if decision.may_pass:
        scored.append((lead(probe.worth(state), decision.seat), False, -1, None))
    for k, template in enumerate(decision.templates):
        for values in candidates(template, rng):
            action, after, _ = apply_choosing(engine, state, template.action(values), params, rng, events=False)
            scored.append((lead(probe.worth(after), decision.seat), template.kind != "pass", k, action))
    return scored


TIE = 1e-9  # leads this close are equal (worths are sums of floats)


def lead(worth: tuple[float, ...] | None, seat: int) -> float:
    """How far `seat` is ahead of the best of the others (behind: negative)."""
    if worth is None:
        return 0.0
    others = [w for k, w in enumerate(worth) if k != seat]
    return worth[seat] - max(others, default=0.0)


# --- candidate values for a template --------------------------------------------------------------

ENUMERATE_UP_TO = 24  # a template with at most this many value sets is tried whole
DRAWS = 4  # else: its least values and this many random draws


def candidates(template: Template, rng: random.Random) -> list[dict[str, Any]]:
    """Value sets to try: every one when the template is a few choices (a card and where its
    numbers go), else the least values (nothing bought, the lowest bid) and a few draws."""
    if not template.fields:
        return [{}]
    every = _enumerated(template)
    if every is not None:
        return every
    found = [least(template, rng)] + [draw(template, rng) for _ in range(DRAWS)]
    unique = {tuple(sorted(values.items(), key=lambda kv: kv[0])): values for values in found}
    return list(unique.values())


def least(template: Template, rng: random.Random) -> dict[str, Any]:
    """A draw with every number at its lowest: legal under every constraint kind, since a
    budget only limits what is added and at-most-one allows all at their lowest."""
    values = draw(template, rng)
    values.update({f.name: f.low for f in template.fields if f.kind == "number"})
    return values


def _enumerated(template: Template) -> list[dict[str, Any]] | None:
    """Every legal value set of a template of a few choices (no number field, at most
    ENUMERATE_UP_TO combinations); None for any other."""
    if any(f.kind == "number" for f in template.fields):
        return None
    options = [_field_values(f) for f in template.fields]
    if math.prod(len(values) for values in options) > ENUMERATE_UP_TO:
        return None
    return _distinct(template, [dict(combo) for combo in itertools.product(*options)])


def _distinct(template: Template, every: list[dict[str, object]]) -> list[dict[str, object]]:
    """The value sets that meet the template's `Different` constraints (the others constrain
    numbers, which an enumerated template has none of)."""
    different = [c for c in template.constraints if isinstance(c, Different)]
    return [values for values in every if all(met(c, values) for c in different)]


def _field_values(f: Field) -> list[tuple[str, object]]:
    """Each value a field may take, with its name: a choice's options, a pick's orderings of
    its options, of each size it allows."""
    if f.kind == "choice":
        return [(f.name, o) for o in f.options]
    return [(f.name, combo) for k in range(f.low, f.high + 1) for combo in itertools.permutations(f.options, k)]


# --- heuristic values made legal ----------------------------------------------------------------


def fit(template: Template, wishes: Mapping[str, int]) -> dict[str, int]:
    """Number fields set to the bot's wishes (in priority order; unnamed ones at their
    lowest), made legal: each within its bounds, at most one of an at-most-one group above its
    lowest (the first wished), and a budget spent on the first wishes first (what a negative
    weight frees, such as shares sold, counting before anything is bought)."""
    fields = {f.name: f for f in template.fields}
    values = {name: f.low for name, f in fields.items() if f.kind == "number"}
    for name, wish in wishes.items():
        values[name] = max(fields[name].low, min(fields[name].high, wish))
    rank = _rank(list(wishes))
    for constraint in template.constraints:
        if isinstance(constraint, AtMostOne):
            _lower_all_but_first(constraint, values, fields, rank)
    for constraint in template.constraints:
        if isinstance(constraint, Budget):
            _spend(constraint, values, fields, rank)
    return values


def _lower_all_but_first(group: AtMostOne, values: dict[str, int], fields: Mapping[str, Field],
                         rank: Callable[[str], int]) -> None:
    """Of an at-most-one group's fields above their lowest, all but the first by `rank` set back
    to their lowest (in `values`)."""
    raised = sorted((n for n in group.names if values[n] > fields[n].low), key=rank)
    for name in raised[1:]:
        values[name] = fields[name].low


def _spend(budget: Budget, values: dict[str, int], fields: Mapping[str, Field], rank: Callable[[str], int]) -> None:
    """A budget spent on its costly fields in `rank` order, each cut (in `values`) to what is
    left after the ones before it and what its free fields (negative weights) bring in."""
    weights = dict(budget.weights)
    costly = sorted((n for n in weights if weights[n] > 0), key=rank)
    left = budget.limit - sum(weights[n] * values[n] for n in weights if n not in costly)
    left -= sum(weights[n] * fields[n].low for n in costly)
    for name in costly:
        low = fields[name].low
        values[name] = low + max(0, min(values[name] - low, int(left // weights[name])))
        left -= weights[name] * (values[name] - low)


def _rank(order: list[str]) -> Callable[[str], int]:
    return lambda name: order.index(name) if name in order else len(order)


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy}

