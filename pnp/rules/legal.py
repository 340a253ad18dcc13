"""Legal actions as templates, and the one sampler that draws a random legal action from them.

An engine's `legal_actions(state, params)` returns `Template`s rather than every action: a
declaration of up to 3 cards in each of 5 companies, or a bid anywhere from 12 to 40, is one
template with ranges, not thousands of actions. A template says everything a form or a bot
needs — the kind of action, who takes it, the rule that allows it, what is fixed, and the
fields still to choose (whole numbers in a range, one option, or several distinct options)
with the few constraints that tie fields together (a budget, at most one side, different
values). Every choice within the fields that meets the constraints is a legal action, so
`draw` never needs to ask the engine; `template.action(values)` builds the engine's action.

`play` drives any registered engine with the sampler to the end of a game: the random games of
the conformance test, the benchmarks and the simulator's random bot all come from here, so
nothing outside an engine restates a rule.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, Union

from pnp.rules.base import ChoiceNeeded, Engine, Events, fast_init

Values = Mapping[str, Any]


@fast_init
@dataclass(frozen=True)
class Field:
    """One choice in a template. `kind` is "number" (a whole number `low`…`high`), "choice"
    (one of `options`) or "several" (`low`…`high` distinct options, in the order chosen).
    `labels` name the options for people ("−60 blue"), when their values are not text."""

    name: str  # the value's key in `Template.action(values)`, e.g. "amount" or "sell.IBE"
    kind: str
    low: Any = 0
    high: Any = 0
    options: Sequence[Any] = ()  # a tuple, or `Listed` on demand
    labels: Sequence[str] = ()  # a tuple, or `Listed`: worded on demand

    @staticmethod
    @lru_cache(maxsize=4096)
    def number(name: str, low: int, high: int) -> "Field":
        """A whole number `low`…`high` (fields are values: equal ones are shared, which spares
        an engine rebuilding the same declaration fields at every step)."""
        return Field(name, "number", low, high)

    @staticmethod
    def choice(name: str, options: Sequence[Any], labels: Sequence[str] | Callable[[Any], str] = ()) -> "Field":
        """One of `options` (a `Listed` stays unlisted until read); `labels` are their words, or
        the function that words one (then worded only when read, a `Listed` too)."""
        options = options if isinstance(options, Listed) else tuple(options)
        if callable(labels):
            say = labels
            words: Sequence[str] = Listed(lambda: map(say, options))
        else:
            words = tuple(labels)
        return Field(name, "choice", options=options, labels=words)

    @staticmethod
    def several(name: str, options: Sequence[Any], low: int, high: int) -> "Field":
        return Field(name, "several", low, min(high, len(options)), tuple(options))


class Listed(Sequence[Any]):
    """Options (or their labels) listed by one function when first read. A For-Ex turn offers
    a spot deal with each other player in every pair, a hundred of them, in a template built at
    every step of every simulated game; a player who does not choose the spot never reads them,
    and only a form or an explanation reads their words."""

    def __init__(self, make: Callable[[], Iterable[Any]]):
        self._make: Callable[[], Iterable[Any]] | None = make
        self._items: tuple[Any, ...] = ()

    def _listed(self) -> tuple[Any, ...]:
        if self._make is not None:
            self._items, self._make = tuple(self._make()), None
        return self._items

    def __len__(self) -> int:
        return len(self._listed())

    def __getitem__(self, index: Any) -> Any:
        return self._listed()[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._listed() == tuple(other)

    def __hash__(self) -> int:
        return hash(self._listed())

    def __repr__(self) -> str:
        return repr(self._listed())


@fast_init
@dataclass(frozen=True)
class Budget:
    """Σ weight × value ≤ limit over number fields: what a declaration or a trade may cost.
    A negative weight (shares sold before buying) adds to what may be spent."""

    weights: tuple[tuple[str, Fraction | int], ...]
    limit: Fraction | int


@fast_init
@dataclass(frozen=True)
class AtMostOne:
    """At most one of these number fields is above zero (offer or request, not both)."""

    names: tuple[str, ...]


@fast_init
@dataclass(frozen=True)
class Different:
    """These choice fields take different values (pay one currency, receive another)."""

    names: tuple[str, ...]


Constraint = Union[Budget, AtMostOne, Different]


@fast_init
@dataclass(frozen=True)
class Template:
    """A family of legal actions: `kind` and `player` (None: a step the table takes, such as
    settling a company), the rule that allows it, the values it fixes, and the fields left to
    choose. `build` turns a full set of values (fixed ones and `player` included) into the
    engine's action."""

    kind: str
    player: str | None
    rule: str
    build: Callable[[Values], Any] = field(repr=False, compare=False)
    fields: tuple[Field, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)
    constraints: tuple[Constraint, ...] = ()

    def action(self, values: Values | None = None) -> Any:
        """The action these field values choose (no check: the engine judges it)."""
        return self.build({"player": self.player, **self.fixed, **(values or {})})


def grouped(values: Values, prefix: str) -> dict[str, int]:
    """`{"sell.IBE": 2, "sell.SAN": 0}` → `{"IBE": 2}`: the non-zero counts under `prefix`."""
    start = prefix + "."
    return {key[len(start):]: n for key, n in values.items() if key.startswith(start) and n}


# --- the sampler's draws ---------------------------------------------------------------------
# Every random choice of the sampler goes through these three, built on `rng.random()` alone:
# one float per draw, several times faster than `randrange` (whose rejection loop costs more
# than a whole step of a fast playout), and the bias of `int(random() × n)` is below n / 2⁵³,
# far under anything a simulation can measure. A game's `playout` (see `pnp.rules.base`) makes
# the same draws in the same order, so that its games are the sampler's games.


def pick(rng: random.Random, options: Sequence[Any]) -> Any:
    """One of `options`."""
    return options[int(rng.random() * len(options))]


def between(rng: random.Random, low: int, high: int) -> int:
    """A whole number `low` … `high`."""
    return low + int(rng.random() * (high - low + 1))


def shuffle(rng: random.Random, items: list[Any], count: int | None = None) -> list[Any]:
    """Shuffle `items` in place (Fisher–Yates from the front) and return it; with `count`,
    only its first `count` places are drawn: a random selection of that many, in order."""
    n = len(items)
    for i in range(n - 1 if count is None else min(count, n)):
        j = i + int(rng.random() * (n - i))
        items[i], items[j] = items[j], items[i]
    return items


# --- the sampler -----------------------------------------------------------------------------


def draw(template: Template, rng: random.Random) -> dict[str, Any]:
    """Random values for the template's fields that meet its constraints (so, a legal action)."""
    if not template.constraints:  # most templates: each field on its own (the same draws, sooner)
        return {f.name: _value(f, rng, False) for f in template.fields}
    fields = {f.name: f for f in template.fields}
    values: dict[str, Any] = {}
    zero: set[str] = set()
    for constraint in template.constraints:
        if isinstance(constraint, AtMostOne):  # one member, chosen at random, may be non-zero
            free = pick(rng, constraint.names)
            zero.update(name for name in constraint.names if name != free)
    for constraint in template.constraints:
        if isinstance(constraint, Different):
            taken: set[Any] = set()
            for name in constraint.names:
                values[name] = pick(rng, [o for o in fields[name].options if o not in taken])
                taken.add(values[name])
    budget = next((c for c in template.constraints if isinstance(c, Budget)), None)
    weights = dict(budget.weights) if budget else {}
    free_fields = [f for f in template.fields if f.name not in values and f.name not in weights]
    for f in free_fields:
        values[f.name] = _value(f, rng, f.name in zero)
    if budget is not None:
        left = budget.limit
        spenders = [name for name in weights if weights[name] <= 0]  # sales first: they add cash
        buyers = [name for name in weights if weights[name] > 0]
        shuffle(rng, buyers)
        for name in spenders + buyers:
            f, weight = fields[name], weights[name]
            high = f.high if weight <= 0 else min(f.high, int(left // weight))
            values[name] = 0 if name in zero else between(rng, f.low, max(f.low, high))
            left -= weight * values[name]
    return values


def _value(f: Field, rng: random.Random, zero: bool) -> Any:
    if f.kind == "number":
        return f.low if zero else between(rng, f.low, f.high)
    if f.kind == "choice":
        return pick(rng, f.options)
    count = between(rng, f.low, f.high)
    return tuple(shuffle(rng, list(f.options), count)[:count])


def sample(templates: Sequence[Template], rng: random.Random) -> Any:
    """A random legal action: a template chosen uniformly, then its fields drawn."""
    template = pick(rng, templates)
    return template.action(draw(template, rng))


def apply_choosing(engine: Engine[Any, Any, Any], state: Any, action: Any, params: Any, rng: random.Random,
                   events: bool = True) -> tuple[Any, Any, Events]:
    """Apply `action`, breaking every tie the engine asks about (`ChoiceNeeded`) at random
    (`pick`): the action as finally applied, the new state and its events (`events=False`: none
    needed, see `Engine.apply`)."""
    while True:
        try:
            after, made = engine.apply(state, action, params, events)
            return action, after, made
        except ChoiceNeeded as needed:
            action = replace(action, **{needed.what: pick(rng, needed.options)})


def play(engine: Engine[Any, Any, Any], state: Any, params: Any, rng: random.Random,
         max_actions: int = 100_000) -> Iterator[tuple[Any, Any, Events]]:
    """Random legal play to the end of the game: each action (as applied), the state after it,
    and its events. `max_actions` bounds a game that would not end (an engine bug)."""
    for _ in range(max_actions):
        if engine.to_move(state, params) is None:
            return
        action = sample(engine.legal_actions(state, params), rng)
        action, state, events = apply_choosing(engine, state, action, params, rng)
        yield action, state, events
    raise RuntimeError(f"no end after {max_actions} actions")
