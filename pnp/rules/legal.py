"""Legal actions as templates, and the one sampler that draws a random legal action from them.

An engine's `legal_actions(state, params)` returns `Template`s rather than every action: a
declaration of up to 3 cards in each of 5 companies, or a bid anywhere from 12 to 40, is one
template with ranges, not thousands of actions. A template says everything a form or a bot
needs — the kind of action, who takes it, the rule that allows it, what is fixed, and the
fields still to choose (whole numbers in a range, one option, or several distinct options)
with the few constraints that tie fields together (a budget, at most one side, different
values). Every choice within the fields that meets the constraints is a legal action, so
`draw` never needs to ask the engine; `template.action(values)` builds the engine's action.

The templates are also the one source of legality: `template.admits(action)` says whether an
action is one of its draws, and an engine's `apply` accepts an action exactly when a template
of the position admits it (`judge`), checking beyond them only what a template cannot state
(who pays whom in a pairing, the pick of a tie the end of a game asks for); its other checks
only word a refusal, with the rule and the numbers.

`play` drives any registered engine with the sampler to the end of a game: the random games of
the conformance test, the benchmarks and the simulator's random bot all come from here, so
nothing outside an engine restates a rule.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, TypeVar, Union, cast

from pnp.rules.base import ChoiceNeeded, Engine, Events, Violation, fast_init

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

    def holds(self, value: Any) -> bool:
        """Whether `value` is one this field may take: a whole number in range (not a bool),
        one of the options, or distinct options in number within range."""
        if self.kind == "number":
            return type(value) is int and self.low <= value <= self.high
        if self.kind == "choice":
            return value in self.options
        return (isinstance(value, tuple) and self.low <= len(value) <= self.high and len(set(value)) == len(value)
                and all(option in self.options for option in value))


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


def met(constraint: Constraint, values: Values) -> bool:
    """Whether the fields' values meet the constraint."""
    if isinstance(constraint, Budget):
        return sum(weight * values[name] for name, weight in constraint.weights) <= constraint.limit
    if isinstance(constraint, AtMostOne):
        return sum(1 for name in constraint.names if values[name] > 0) <= 1
    chosen = [values[name] for name in constraint.names]
    return len(set(chosen)) == len(chosen)


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
    read: Callable[[Any], Values | None] | None = field(default=None, repr=False, compare=False)

    def action(self, values: Values | None = None) -> Any:
        """The action these field values choose (no check: the engine judges it)."""
        return self.build({"player": self.player, **self.fixed, **(values or {})})

    def admits(self, action: Any) -> bool:
        """Whether `action` is one of this template's draws. `read` (the inverse of `build`)
        gives what an action states, by field name — None for another kind of action; it
        leaves out what no template states (a pairing, a final tie's pick), which the engine
        checks itself. The player (or a fixed "player") and every fixed value must match,
        each field's value must be one the field holds (a number field left out is at its
        lowest), the constraints must be met, and the values must build the action back, so
        nothing the action states goes unchecked. A template without `read` admits its one
        action."""
        if self.read is None:
            return not self.fields and self.action() == action
        values = self.read(action)
        if values is None:
            return False
        chosen: dict[str, Any] = {}
        player = self.fixed.get("player", self.player)
        for name, value in values.items():
            if name == "player":
                if value != player:
                    return False
            elif name in self.fixed:
                if value != self.fixed[name]:
                    return False
            else:
                chosen[name] = value
        for f in self.fields:
            if f.name not in chosen and f.kind == "number":
                chosen[f.name] = f.low
            if f.name not in chosen or not f.holds(chosen[f.name]):
                return False
        if not all(met(constraint, chosen) for constraint in self.constraints):
            return False
        return self.read(self.action({f.name: chosen[f.name] for f in self.fields})) == values


P = TypeVar("P")  # a game's own Params, State and Action: the helpers below work for every game
S = TypeVar("S")
Act = TypeVar("Act")
Listing = TypeVar("Listing", bound=Callable[[Any, Any], "tuple[Template, ...]"])


def last_position(listing: Listing) -> Listing:
    """`legal_actions` kept for the last position it listed (by identity): a driver lists a
    position's templates, draws, then applies — and `apply` judges by the same templates."""
    slot: list[tuple[Any, Any, tuple[Template, ...]] | None] = [None]

    def listed(state: Any, params: Any) -> tuple[Template, ...]:
        kept = slot[0]  # one read and one write of the one slot: the threads of a server share it safely
        if kept is not None and kept[0] is state and kept[1] is params:
            return kept[2]
        templates = listing(state, params)
        slot[0] = (state, params, templates)
        return templates

    listed.__doc__, listed.__name__ = listing.__doc__, listing.__name__
    return cast(Listing, listed)


def admitted(templates: Iterable[Template], action: Any) -> bool:
    """Whether a template of the position admits `action`: the one test of legality."""
    return any(template.admits(action) for template in templates)


class Unlisted(Violation):
    """An action no template admits that the engine's own checks let through: the templates
    and the checks disagree (an engine bug, which the property tests look for), refused all
    the same with the rules of the templates of its kind."""


def judge(templates: Sequence[Template], action: Any, word: Callable[[], Any], kind: str) -> None:
    """Refuse `action` unless a template admits it. A refusal is worded by `word()`, the
    engine's checks of the action, which raise its Violation (or Malformed, ChoiceNeeded) with
    the rule and the numbers; should they pass, `Unlisted` cites the rules of the templates of
    the action's `kind` ("bid"), else of all of them."""
    if admitted(templates, action):
        return
    word()
    rules = list(dict.fromkeys(t.rule for t in templates if t.kind == kind)) or list(dict.fromkeys(t.rule for t in templates))
    allowed = ", ".join(dict.fromkeys(t.kind for t in templates)) or "nothing, the game is over"
    raise Unlisted(rules[0] if rules else "", f"{action!r} is not a legal action here (allowed: {allowed})")


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
    """Random values for the template's fields that meet its constraints (so, a legal action).
    The draws come in a fixed order (the zeroed members, the distinct fields, the free fields,
    the budget), so that a seed replays the same actions."""
    if not template.constraints:  # most templates: each field on its own (the same draws, sooner)
        return {f.name: _value(f, rng, False) for f in template.fields}
    fields = {f.name: f for f in template.fields}
    zero = _zeroed(template, rng)
    values = _draw_different(template, fields, rng)
    budget = next((c for c in template.constraints if isinstance(c, Budget)), None)
    weights = dict(budget.weights) if budget else {}
    for f in template.fields:
        if f.name not in values and f.name not in weights:
            values[f.name] = _value(f, rng, f.name in zero)
    if budget is not None:
        _draw_budget(budget.limit, weights, fields, zero, rng, values)
    return values


def _zeroed(template: Template, rng: random.Random) -> set[str]:
    """The fields held at zero: all members of each `AtMostOne` but one, chosen at random."""
    zero: set[str] = set()
    for constraint in template.constraints:
        if isinstance(constraint, AtMostOne):
            free = pick(rng, constraint.names)
            zero.update(name for name in constraint.names if name != free)
    return zero


def _draw_different(template: Template, fields: dict[str, Field], rng: random.Random) -> dict[str, Any]:
    """Values for the members of each `Different`, each drawn from the options still untaken."""
    values: dict[str, Any] = {}
    for constraint in template.constraints:
        if isinstance(constraint, Different):
            taken: set[Any] = set()
            for name in constraint.names:
                values[name] = pick(rng, [o for o in fields[name].options if o not in taken])
                taken.add(values[name])
    return values


def _draw_budget(limit: Fraction | int, weights: dict[str, Fraction | int], fields: dict[str, Field], zero: set[str],
                 rng: random.Random, values: dict[str, Any]) -> None:
    """Fill `values` for the budget's fields: sales first (they add cash), then the buys in a
    random order, each at most what is left of `limit` affords."""
    left = limit
    spenders = [name for name in weights if weights[name] <= 0]
    buyers = [name for name in weights if weights[name] > 0]
    shuffle(rng, buyers)
    for name in spenders + buyers:
        f, weight = fields[name], weights[name]
        high = f.high if weight <= 0 else min(f.high, int(left // weight))
        values[name] = 0 if name in zero else between(rng, f.low, max(f.low, high))
        left -= weight * values[name]


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


def apply_choosing(engine: Engine[P, S, Act], state: S, action: Act, params: P, rng: random.Random,
                   events: bool = True) -> tuple[Act, S, Events]:
    """Apply `action`, breaking every tie the engine asks about (`ChoiceNeeded`) at random
    (`pick`): the action as finally applied, the new state and its events (`events=False`: none
    needed, see `Engine.apply`)."""
    while True:
        try:
            after, made = engine.apply(state, action, params, events)
            return action, after, made
        except ChoiceNeeded as needed:
            action = replace(action, **{needed.what: pick(rng, needed.options)})  # type: ignore[type-var]  # every Action is a dataclass


def play(engine: Engine[P, S, Act], state: S, params: P, rng: random.Random,
         max_actions: int = 100_000) -> Iterator[tuple[Act, S, Events]]:
    """Random legal play to the end of the game: each action (as applied), the state after it,
    and its events. `max_actions` bounds a game that would not end (an engine bug)."""
    for _ in range(max_actions):
        if engine.to_move(state, params) is None:
            return
        action = sample(engine.legal_actions(state, params), rng)
        action, state, events = apply_choosing(engine, state, action, params, rng)
        yield action, state, events
    raise RuntimeError(f"no end after {max_actions} actions")
