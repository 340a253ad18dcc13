"""Legal actions as templates, and the one sampler that draws a random legal action from them.

An engine's `legal_actions(state, params)` returns `Template`s rather than every action: a
declaration of up to 3 cards in each of 5 companies, or a bid anywhere from 12 to 40, is one
template with ranges, not thousands of actions. A template says everything a form or a bot
needs — the kind of action, who takes it, the rule that allows it, what is fixed, and the
fields still to choose (whole numbers in a range, one option, or several distinct options)
with the few constraints that tie fields together (a budget, at most one side, different
values). Every choice within the fields that meets the constraints is a legal action, so
`draw` never needs to ask the engine; `template.action(values)` builds the engine's action.

The templates are also the one source of legality and of a refusal's words:
`template.admits(action)` says whether an action is one of its draws, and an engine's `apply`
accepts an action exactly when a template of the position admits it (`judge`). A field or a
constraint carries the reason of its bound — the rule, the refusal's kind and its data — so a
refused action is worded from the very statement it breaks (`Template.refusal`), and no
engine restates a bound to word it. The engine checks beyond the templates only what they
cannot state (who pays whom in a pairing, the pick of a tie the end of a game asks for).

`pnp.rules.contract.play` drives any registered engine with this sampler to the end of a game:
the random games of the conformance test, the benchmarks and the simulator's random bot all
come from there, so nothing outside an engine restates a rule.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar, Union, cast

from pnp.i18n import _
from pnp.rules.base import Refusal, Violation, fast_init

Values = Mapping[str, Any]
Why = Callable[..., Exception]  # a `Refusal` with its data bound (`partial(KIND, player="Ana")`), called with the facts


def made(why: Why | None) -> Exception | None:
    """The refusal a condition returned (a `Why`, made now), or None when it holds."""
    return None if why is None else why()


def _listing(values: Iterable[Any], most: int = 6) -> str:
    shown = [str(value) for value in list(values)[: most + 1]]
    return ", ".join(shown[:most]) + (", …" if len(shown) > most else "")


# What a template says of a value or a choice it does not hold, when its engine gave no words of
# its own (every refusal a record can meet has its game's words: these are the fallback).
NOT_WHOLE = Refusal("", lambda d: _("{field}: {value} is not a whole number").format(**d))
BELOW = Refusal("", lambda d: _("{field}: {value} is less than {bound}").format(**d))
ABOVE = Refusal("", lambda d: _("{field}: {value} is more than {bound}").format(**d))
NOT_OFFERED = Refusal("", lambda d: _("{field}: {value} is not one of {options}").format(
    field=d["field"], value=d["value"], options=_listing(d["options"])))
REPEATED = Refusal("", lambda d: _("{field}: {value} is chosen twice").format(**d))
NOT_A_FIELD = Refusal("", lambda d: _("{field} is not a choice of this action").format(**d))
OVER_BUDGET = Refusal("", lambda d: _("{total} is more than {limit}").format(**d))
BOTH = Refusal("", lambda d: _("{fields}: at most one of them").format(fields=", ".join(d["fields"])))
SAME = Refusal("", lambda d: _("{value} is chosen twice").format(**d))
UNLISTED = Refusal("", lambda d: _("{action} is not a legal action here (allowed: {allowed})").format(**d))


@fast_init
@dataclass(frozen=True)
class Field:
    """One choice in a template. `kind` is "number" (a whole number `low`…`high`), "choice"
    (one of `options`) or "several" (`low`…`high` distinct options, in the order chosen).
    `labels` name the options for people ("−60 blue"), when their values are not text.

    A field states why a value is not legal where its bounds come from a rule: `below` and
    `above` (a number under `low` or over `high`, or too few or too many options chosen),
    `excluded` (a value not among the options), each a `Refusal` with its data bound, called
    with `value=` and `bound=` (or `part=`, the place of an option among several). One
    statement given as both `below` and `above` states the whole range (a contract's amount,
    1 … 10 whole), and refuses a fraction or a repeated option too. The engine computes each
    bound and its reason in one place, so a refusal never restates a bound."""

    name: str  # the value's key in `Template.action(values)`, e.g. "amount" or "sell.IBE"
    kind: str
    low: Any = 0
    high: Any = 0
    options: Sequence[Any] = ()  # a tuple, or `Listed` on demand
    labels: Sequence[str] = ()  # a tuple, or `Listed`: worded on demand
    below: Why | None = field(default=None, compare=False, repr=False)
    above: Why | None = field(default=None, compare=False, repr=False)
    excluded: Why | None = field(default=None, compare=False, repr=False)

    @staticmethod
    def number(name: str, low: int, high: int, below: Why | None = None, above: Why | None = None) -> "Field":
        """A whole number `low`…`high` (fields are values: equal ones without reasons are shared,
        which spares an engine rebuilding the same fields at every step; one with reasons is
        made for its template, which an engine caches when it repeats)."""
        if below is None and above is None:
            return _number(name, low, high)
        return Field(name, "number", low, high, (), (), below, above)

    @staticmethod
    def choice(name: str, options: Sequence[Any], labels: Sequence[str] | Callable[[Any], str] = (),
               excluded: Why | None = None) -> "Field":
        """One of `options` (a `Listed` stays unlisted until read); `labels` are their words, or
        the function that words one (then worded only when read, a `Listed` too)."""
        options = options if isinstance(options, Listed) else tuple(options)
        if callable(labels):
            say = labels
            words: Sequence[str] = Listed(lambda: map(say, options))
        else:
            words = tuple(labels)
        return Field(name, "choice", options=options, labels=words, excluded=excluded)

    @staticmethod
    def several(name: str, options: Sequence[Any], low: int, high: int, below: Why | None = None,
                above: Why | None = None, excluded: Why | None = None) -> "Field":
        return Field(name, "several", low, min(high, len(options)), tuple(options), (), below, above, excluded)

    def least(self) -> object:
        """The field's least value: a number's lowest, a choice's first option, the first `low`
        options of several."""
        if self.kind == "number":
            return self.low
        if self.kind == "choice" and self.options:
            return self.options[0]
        return tuple(self.options[:self.low])

    def holds(self, value: Any) -> bool:
        """Whether `value` is one this field may take: a whole number in range (not a bool),
        one of the options, or distinct options in number within range."""
        if self.kind == "number":
            return type(value) is int and self.low <= value <= self.high
        if self.kind == "choice":
            return value in self.options
        return (isinstance(value, tuple) and self.low <= len(value) <= self.high and len(set(value)) == len(value)
                and all(option in self.options for option in value))

    def refusal(self, value: Any, rule: str, words: Why | None = None) -> Exception | None:
        """Why this field does not hold `value`, as the field states it (its `below`, `above`,
        `excluded`), else as its template words its fields (`words`, called with `field=` and
        `side=` besides the facts), else with the template's `rule` and the bound; None when it
        holds it."""
        if self.kind == "number":
            return self._number_refusal(value, rule, words)
        if self.kind == "choice":
            return None if value in self.options else self._why("excluded", rule, words)(value=value, part=())
        return self._several_refusal(value, rule, words)

    def _why(self, side: str, rule: str, words: Why | None) -> Why:
        """The refusal of going past `side` ("below", "above", "excluded"): the field's own, the
        template's words, or the general one."""
        own = self.below if side == "below" else self.above if side == "above" else self.excluded
        if own is not None:
            return own
        if words is not None:
            return partial(words, field=self.name, side=side)
        if side == "excluded":
            return partial(NOT_OFFERED, rule, field=self.name, options=tuple(self.labels or self.options))
        return partial(BELOW if side == "below" else ABOVE, rule, field=self.name)

    def _ranged(self) -> Why | None:
        """One statement of the whole range, given as both `below` and `above`."""
        return self.below if self.below is self.above else None

    def _beyond(self, count: Any, rule: str, words: Why | None) -> Exception | None:
        """`count` (the value, or how many options it chooses) under `low` or over `high`."""
        if count < self.low:
            return self._why("below", rule, words)(value=count, bound=self.low)
        if count > self.high:
            return self._why("above", rule, words)(value=count, bound=self.high)
        return None

    def _number_refusal(self, value: Any, rule: str, words: Why | None) -> Exception | None:
        if type(value) is not int:
            return (self._ranged() or partial(NOT_WHOLE, rule, field=self.name))(value=value, bound=(self.low, self.high))
        return self._beyond(value, rule, words)

    def _several_refusal(self, value: Any, rule: str, words: Why | None) -> Exception | None:
        if not isinstance(value, tuple):
            return NOT_OFFERED(rule, field=self.name, value=value, options=tuple(self.options))
        twice = next((k for k, option in enumerate(value) if option in value[:k]), None)
        if twice is not None:
            ranged = self._ranged()
            if ranged is not None:
                return ranged(value=len(value), bound=(self.low, self.high))
            return REPEATED(rule, part=(twice,), field=self.name, value=value[twice])
        if len(value) < self.low:
            return self._beyond(len(value), rule, words)
        for k, option in enumerate(value):  # before the count: `high` is at most the options offered
            if option not in self.options:
                return self._why("excluded", rule, words)(value=option, part=(k,))
        return self._beyond(len(value), rule, words)


@lru_cache(maxsize=4096)
def _number(name: str, low: int, high: int) -> Field:
    return Field(name, "number", low, high)


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
    why: Why | None = field(default=None, compare=False, repr=False)  # called with chosen=, total=, limit=


@fast_init
@dataclass(frozen=True)
class AtMostOne:
    """At most one of these number fields is above zero (offer or request, not both)."""

    names: tuple[str, ...]
    why: Why | None = field(default=None, compare=False, repr=False)  # called with chosen=


@fast_init
@dataclass(frozen=True)
class Different:
    """These choice fields take different values (pay one currency, receive another)."""

    names: tuple[str, ...]
    why: Why | None = field(default=None, compare=False, repr=False)  # called with value=


Constraint = Union[Budget, AtMostOne, Different]


def nested(values: Values) -> dict[str, Any]:
    """`{"buy.TEF": 3, "sell.IBE": 0, "amount": 2}` → `{"buy": {"TEF": 3}, "amount": 2}`: field
    values as a refusal's data states them, keyed counts grouped and the zero ones left out."""
    found: dict[str, Any] = {}
    for name, value in values.items():
        side, dot, key = name.partition(".")
        if not dot:
            found[name] = value
        elif value:
            found.setdefault(side, {})[key] = value
    return found


def broken(constraint: Constraint, values: Values, rule: str) -> Exception:
    """The refusal of an unmet constraint, as it states it: a budget with what the values
    spend and its limit, the fields of an at-most-one above zero, the value chosen twice."""
    if isinstance(constraint, Budget):
        return _over_budget(constraint, values, rule)
    if isinstance(constraint, AtMostOne):
        chosen = nested({name: values[name] for name in constraint.names})
        return (constraint.why or partial(BOTH, rule, fields=constraint.names))(chosen=chosen)
    picked = [values[name] for name in constraint.names]
    twice = next(value for k, value in enumerate(picked) if value in picked[:k])
    return (constraint.why or partial(SAME, rule))(value=twice)


def _over_budget(budget: Budget, values: Values, rule: str) -> Exception:
    """A budget's refusal: what its fields choose, what they spend, and its limit."""
    weights = dict(budget.weights)
    total = sum(weight * values[name] for name, weight in budget.weights)
    chosen = nested({name: value for name, value in values.items() if name in weights})
    return (budget.why or partial(OVER_BUDGET, rule))(chosen=chosen, total=total, limit=budget.limit)


def met(constraint: Constraint, values: Values) -> bool:
    """Whether the fields' values meet the constraint."""
    if isinstance(constraint, Budget):
        spent: Fraction | int = sum(weight * values[name] for name, weight in constraint.weights)
        return spent <= constraint.limit
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
    engine's action.

    What a refused action breaks, the template words: a field's own reasons, else `words`
    (one function for all its fields, given `field=` and `side=`: a template built at every
    step states its reasons once, not a reason per field), a constraint's `why`, and `unlisted`
    for a value no field chooses (an unknown company, another seller who holds none)."""

    kind: str
    player: str | None
    rule: str
    build: Callable[[Values], Any] = field(repr=False, compare=False)
    fields: tuple[Field, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)
    constraints: tuple[Constraint, ...] = ()
    read: Callable[[Any], Values | None] | None = field(default=None, repr=False, compare=False)
    unlisted: Why | None = field(default=None, repr=False, compare=False)  # called with field=, value=
    words: Why | None = field(default=None, repr=False, compare=False)  # a field's refusal: field=, side=, facts

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
        offered = self.offers(action)
        if offered is None:
            return False
        values, chosen = offered
        for f in self.fields:
            if f.name not in chosen and f.kind == "number":
                chosen[f.name] = f.low
            if f.name not in chosen or not f.holds(chosen[f.name]):
                return False
        if not all(met(constraint, chosen) for constraint in self.constraints):
            return False
        return self.read(self.action({f.name: chosen[f.name] for f in self.fields})) == values

    def offers(self, action: Any) -> tuple[Values, dict[str, Any]] | None:
        """What `action` states (`read`) and, of that, what its fields choose, when it is an
        action of this template's kind by its player with its fixed values; None otherwise."""
        values = self.read(action) if self.read is not None else None
        if values is None:
            return None
        chosen: dict[str, Any] = {}
        player = self.fixed.get("player", self.player)
        for name, value in values.items():
            if name == "player":
                if value != player:
                    return None
            elif name in self.fixed:
                if value != self.fixed[name]:
                    return None
            else:
                chosen[name] = value
        return values, chosen

    def refusal(self, action: Any) -> Exception | None:
        """Why `action`, of this template's kind by its player with its fixed values, is none
        of its draws: the refusal the first statement it breaks words — a field's bound or
        options, a constraint, or a value it states that no field chooses (`unlisted`) — with
        that statement's rule and numbers. None when the action is not of this template
        (`offers`) or breaks none of it."""
        offered = self.offers(action)
        if offered is None:
            return None
        values, chosen = offered
        refusal = self._fields_refusal(chosen)
        if refusal is not None:
            return refusal
        broke = next((c for c in self.constraints if not met(c, chosen)), None)
        if broke is not None:
            return broken(broke, chosen, self.rule)
        return self._stray_refusal(values, chosen)

    def _stray_refusal(self, values: Values, chosen: Values) -> Exception | None:
        """The first value the action states that its fields' values do not build back: a
        value no field chooses (`unlisted`)."""
        rebuilt = self.read(self.action({f.name: chosen[f.name] for f in self.fields})) if self.read else None
        stray = next((name for name in values if rebuilt is None or rebuilt.get(name) != values[name]), None)
        if stray is not None:
            return (self.unlisted or partial(NOT_A_FIELD, self.rule))(field=stray, value=values[stray])
        return None

    def _fields_refusal(self, chosen: dict[str, Any]) -> Exception | None:
        """The first field that does not hold its value (a number field left out is at its
        lowest, as `admits` reads it)."""
        for f in self.fields:
            if f.name not in chosen and f.kind == "number":
                chosen[f.name] = f.low
            if f.name not in chosen:
                return NOT_OFFERED(self.rule, field=f.name, value=None, options=tuple(f.labels or f.options))
            refusal = f.refusal(chosen[f.name], self.rule, self.words)
            if refusal is not None:
                return refusal
        return None


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
    """An action no template admits and no statement refuses: the templates and the engine's
    listing disagree (an engine bug, which the property tests look for), refused all the same
    with the rules of the templates of the position."""


def judge(templates: Sequence[Template], action: Any, withheld: Callable[[], Exception | None]) -> None:
    """Refuse `action` unless a template admits it. The refusal is the one the position's
    statements word: of the first template that offers the action (its kind, its player, its
    fixed values), the bound, option or constraint it breaks (`Template.refusal`, origin
    "template"); when no template offers it, `withheld()`, the engine's reason for listing
    none (not this player's turn, the game over, a card not held; origin "listing"), worded
    from the same condition its `legal_actions` tests. Should neither refuse, `Unlisted`."""
    if admitted(templates, action):
        return
    for template in templates:
        refusal = template.refusal(action)
        if refusal is not None:
            raise _from(refusal, "template")
    refusal = withheld()
    if refusal is not None:
        raise _from(refusal, "listing")
    raise Unlisted(unlisted(templates, repr(action)).reason)


def unlisted(templates: Sequence[Template], action: str) -> Violation:
    """The refusal of `action` (as words show it) where no template of the position offers it:
    the rule of the position's first template, and the kinds it allows."""
    rules = list(dict.fromkeys(t.rule for t in templates))
    allowed = ", ".join(dict.fromkeys(t.kind for t in templates)) or _("nothing, the game is over")
    return UNLISTED(rules[0] if rules else "", action=action, allowed=allowed)


def _from(refusal: Exception, origin: str) -> Exception:
    if isinstance(refusal, Violation):
        refusal.origin = origin
    return refusal


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
