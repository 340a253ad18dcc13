"""The values every rules engine speaks in, at the bottom of the rules layer.

Events and refusals (`Event`, made by an `EventKind` or a `Refusal`: a rule, its numbers, and
the one function that words them in the language being spoken); who acts (`ToMove`) and how a
game ended (`Outcome`, its reason one of the game's `End` members); what a fast playout
returns; the helpers engines share (`fast_init`, `evolve`, `by_identity`, `resolve_options`)
and the tables printed components read. The contract an engine keeps is `pnp.rules.contract`.

Three error kinds, the same in every game: `Violation` (an illegal action: the rule it breaks
and the numbers to word it, which the referee cites), `Malformed` (an action that names what
does not exist: an unknown player, company or card), and `ChoiceNeeded` (the rules let a
player break a tie, and the action did not say how).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, TypeVar

from pnp.spec.options import Choice, Rulebook, check_values

if TYPE_CHECKING:
    from pnp.spec.model import Game

Number = int | Fraction  # scores and money: exact, never float

T = TypeVar("T")
_new, _set = object.__new__, object.__setattr__


def fast_init(cls: type[T]) -> type[T]:
    """Give a frozen dataclass an `__init__` that writes the fields straight into the
    instance's dict: the same signature, defaults and `__post_init__`, the instance as frozen
    as before (assignments still raise), built in a third of the time. A frozen dataclass's own
    `__init__` sets each field through `object.__setattr__`, and positions, events and
    templates are built at every step of every game a simulation plays; so the classes built
    there take this one (`@fast_init` above `@dataclass(frozen=True)`)."""
    params: list[str] = []
    body = ["d = self.__dict__"]
    scope: dict[str, Any] = {"_MISSING": MISSING}
    for f in fields(cls):  # type: ignore[arg-type]  # cls is a dataclass (fast_init goes above @dataclass)
        if not f.init or f.kw_only:
            raise TypeError(f"fast_init: {cls.__name__}.{f.name} is not a plain positional field")
        if f.default is not MISSING:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_MISSING")
            body.append(f"if {f.name} is _MISSING: {f.name} = _factory_{f.name}()")
        else:
            params.append(f.name)
        body.append(f"d[{f.name!r}] = {f.name}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n    " + "\n    ".join(body)
    exec(source, scope)  # the way dataclasses itself makes `__init__`
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010  # mypy refuses an assignment to a method
    return cls


@fast_init
@dataclass(frozen=True)
class Event:
    """One applied step, or one refusal: the rule behind it and its numbers (who, what, how
    much), e.g. rule "BOLSA-4.2", data {"company": "SAN", "offered": 2, "from": 10, "to": 8}. Its
    sentence ("SAN: 2 offered, none wanted: 10 → 8") is made from the data on demand by its
    kind, in the language being spoken, so the referee's explanation and any other page share
    one wording, and a simulator that never reads the text never pays for it."""

    rule: str
    data: Mapping[str, Any]
    kind: Words = field(repr=False)

    @property
    def text(self) -> str:
        return self.kind.say(self.data)

    def as_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text, "data": plain(self.data)}


@dataclass(frozen=True)
class Words:
    """What events and refusals share: the rule a kind usually cites and the one function that
    words its data (in English, through the catalogs: `pnp.i18n`)."""

    rule: str
    say: Callable[[Mapping[str, Any]], str] = field(repr=False)


@dataclass(frozen=True)
class EventKind(Words):
    """A kind of event. Calling it makes an event: `OFFERED(player="Ana", sell={"IBE": 1})`; a
    rule given first (`BID("BOLSA-5.4", …)`) overrides it for a kind several rules share (a bid
    in an ascending or a descending auction)."""

    def __call__(self, rule: str | None = None, /, **data: Any) -> Event:
        return Event(rule or self.rule, data, self)


Scope = Literal["action", "player", "step", "deal"]


@dataclass(frozen=True)
class Refusal(Words):
    """A kind of violation: calling it makes the `Violation` to raise, its data the numbers the
    sentence states — `raise OVER_CASH(player="Ben", cost=39, cash=30)` — and `part`, where
    inside the action the fault lies (the second investment: `part=(1,)`).

    `scope` says what a record should point at: the action (its `part`), the step's player
    (`player`: it is not his turn), the step as a whole (`step`: a turn after the end), or, for a
    setup, the deal (`deal`: a hand the formula does not deal) rather than the start."""

    scope: Scope = "action"

    def __call__(self, rule: str | None = None, /, *, part: tuple[Any, ...] = (), **data: Any) -> Violation:
        return Violation(Event(rule or self.rule, data, self), part)

    def reason(self, rule: str | None = None, /, **data: Any) -> Callable[..., Violation]:
        """The refusal with its data bound, made when called: what a condition the listing tests
        at every step returns (a `partial` costs a fifth of a Violation), and what a template's
        field or constraint keeps, to be called with the facts of the failure."""
        return partial(self, rule, **data) if rule else partial(self, **data)


def plain(value: Any) -> Any:
    """Event data as JSON: exact amounts as whole numbers or decimals (4.5), tuples as lists."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


Events = tuple[Event, ...]
Log = list[Event] | None  # the events of a step as an engine makes them; None: nobody reads them


# --- error kinds ---------------------------------------------------------------------------


class Violation(Exception):
    """An illegal action: the rule it breaks and the data to word it (who, what, how much, the
    limit), made by calling its `Refusal` kind. Its `message` is worded when read, in the
    language being spoken, as an event's text is.

    `part` locates the offending piece inside the action when the engine can tell, e.g.
    ("others", "Ben") for another player's share of a divestment, or (1,) for the second of
    two investments; the referee appends it to the action's place in the record.

    `origin` says which statement refused it: "template" (a bound, an option or a constraint
    of a legal-action template), "listing" (the condition under which the position lists no
    template of the action's kind for its player), or "engine" (what no template can state: a
    pairing's counterparties, the pick of a final tie, a setup)."""

    origin = "engine"

    def __init__(self, reason: Event, part: tuple[Any, ...] = ()):
        super().__init__(reason.rule)
        self.reason = reason
        self.part = part

    @property
    def rule(self) -> str:
        return self.reason.rule

    @property
    def data(self) -> Mapping[str, Any]:
        return self.reason.data

    @property
    def message(self) -> str:
        return self.reason.text

    @property
    def scope(self) -> Scope:
        kind = self.reason.kind
        return kind.scope if isinstance(kind, Refusal) else "action"

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (a worker's violation sent to the process that asked) with its sentence as
        worded then: a kind's words are code, which does not pickle."""
        return _worded, (type(self), self.rule, dict(self.data), self.message, self.part, self.origin)


def _said(message: str, data: Mapping[str, Any]) -> str:
    return message


def _worded(cls: type[Violation], rule: str, data: dict[str, Any], message: str, part: tuple[Any, ...],
            origin: str) -> Violation:
    """A violation unpickled: its rule, data and part, and the sentence it was worded with."""
    violation = cls(Event(rule, data, Refusal(rule, partial(_said, message))), part)
    violation.origin = origin
    return violation


class Malformed(ValueError):
    """An action that cannot be judged because it names what does not exist (an unknown
    player, company or card) or holds an impossible value (a negative count). A record reader
    reports these as unreadable input, before the rules are asked."""


class ChoiceNeeded(Exception):
    """A tie the rules let a player break, but the action did not say how.

    `what` names the field of the action that carries the choice, `options` the values the
    rules allow: applying `dataclasses.replace(action, **{what: one_of_options})` again
    settles it. A referee turns this into "the record must say which"."""

    def __init__(self, rule: str, what: str, options: tuple[Any, ...], message: str):
        self.rule, self.what, self.options, self.message = rule, what, options, message
        super().__init__(f"{rule}: {message}")


# --- who acts, how it ends -------------------------------------------------------------------


@fast_init
@dataclass(frozen=True)
class ToMove:
    """Who may act now, and in which phase of the game.

    `players` lists, in the order the rules suggest (seating, bidding), everyone with a legal
    action; an empty tuple means only the table acts (bringing up a company, settling it).
    When several may act, any order is legal: a driver that wants one decider at a time asks
    them in this order and takes the table's step last.

    `sealed`: the listed players act in secret (Bolsa's declarations, BOLSA-3.2.1), so what
    each enters stays hidden from the others until the phase ends (the table companion shows
    the position as it was before the phase, and only who has acted)."""

    phase: str  # a short name from the game's rules: "declare", "auction", "stage 1", "turn"
    players: tuple[str, ...]
    sealed: bool = False


@dataclass(frozen=True)
class Outcome:
    """A finished game: each player's final score, the winners, and why it ended."""

    scores: Mapping[str, Number]  # seating order
    winners: tuple[str, ...]
    reason: str  # one of the game's `End` members (a str enum): "last_round", "bankruptcy", …


@dataclass(frozen=True)
class About:
    """What a game's rules package says of itself to the registry (`pnp.rules.GAMES[id].about`),
    read without loading its engine: the prefix of its rule IDs, every way a game can end (its
    `End` enum, whose members are `Outcome.reason`'s values), and what it offers beyond the
    contract's must: a fast random `playout` (held step by step to the engine), a random `deal`
    (a setup part a record may state)."""

    prefix: str  # "BOLSA": its rules are BOLSA-3.2.5, …
    ends: type[Choice]  # the End enum
    playout: bool
    deal: bool
    # a record reader and writer of its own (a package keeping `pnp.referee.replay.GameReferee`,
    # named, not imported: the bundled games' rounds and turns); None: the generic records, each
    # action written as its template's kind and field values (`pnp.referee.generic`)
    referee: str | None = None

    @property
    def end_reasons(self) -> tuple[str, ...]:
        return tuple(str(end) for end in self.ends)


# --- fast random play: what a playout is told and returns (its protocol: `contract.Playout`) ------

# What a playout tells as it plays: the simulator's observer (`pnp.simulate.play.Watch`, whose
# protocol lives with it). A playout gives it what the simulator's probe would read of the
# equivalent engine position, each time that changes; the rules layer only passes it along.
Observer = Any
Trace = list[tuple[Any, tuple[Any, ...]]]  # each action a playout took, and its position after it in numbers


@dataclass(frozen=True)
class Played:
    """What a `playout` returns: how the game ended, its steps and its length (`Probe.length`)."""

    outcome: Outcome
    steps: int
    length: int


# --- shared helpers --------------------------------------------------------------------------


S = TypeVar("S")


def evolve(value: S, **changes: Any) -> S:
    """`dataclasses.replace` for the engines' frozen positions, several times faster: the copy
    takes the original's fields and the changes without running `__init__` again. Positions
    are rebuilt at every step of every game a simulation plays, and `replace` was a third of
    the time; a value class with a `__post_init__` (an action that freezes its mappings) keeps
    `replace`."""
    fields = value.__dict__.copy()
    size = len(fields)
    fields.update(changes)
    if len(fields) != size:  # a name that is not a field was added
        raise TypeError(f"{type(value).__name__} has no field {', '.join(changes.keys() - value.__dict__.keys())}")
    copy = _new(type(value))
    _set(copy, "__dict__", fields)
    return copy


R = TypeVar("R")


def by_identity(size: int, objects: int = 1) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Memoise a function of rules objects (a `Params`, a position) and hashable extras, keyed
    by the identity of its first `objects` arguments (one or two). A simulation plays thousands
    of games under one `Params`, and hashing a frozen dataclass full of tables at every game
    costs more than a step of a fast playout; the objects are kept with their entry, so their
    ids cannot be reused while it is cached. At most `size` entries (all dropped at once
    beyond). Called once per game, so kept lean: no generator, no loop."""

    def decorate(make: Callable[..., R]) -> Callable[..., R]:
        kept: dict[tuple[Any, ...], tuple[Any, Any, R]] = {}

        def one(obj: Any, *extra: Any) -> R:
            key = (id(obj), *extra)
            found = kept.get(key)
            if found is None or found[0] is not obj:
                if len(kept) >= size:
                    kept.clear()
                found = kept[key] = (obj, None, make(obj, *extra))
            return found[2]

        def two(first: Any, second: Any, *extra: Any) -> R:
            key = (id(first), id(second), *extra)
            found = kept.get(key)
            if found is None or found[0] is not first or found[1] is not second:
                if len(kept) >= size:
                    kept.clear()
                found = kept[key] = (first, second, make(first, second, *extra))
            return found[2]

        if objects not in (1, 2):
            raise ValueError(f"by_identity keys on one or two objects, not {objects}")
        cached = one if objects == 1 else two
        cached.__doc__, cached.__name__ = make.__doc__, make.__name__
        return cached

    return decorate


def resolve_options(
    rulebook: Rulebook, game: Game, derived: Mapping[str, Any], overrides: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """House-rule values: rulebook defaults < values derived from the spec (tracks, decks)
    < the spec's `rules` < `overrides` (a referee record's `options`, already checked)."""
    values = rulebook.defaults()
    values.update(derived)
    values.update(check_values(game.rules, rulebook, in_spec=True, game=game)[0])
    values.update(overrides or {})
    return values


@dataclass(frozen=True)
class Table:
    """A table computed by a rules module for printing (an aid, a setup diagram).

    Printed components read numbers from the engine instead of retyping them, so an aid can
    never disagree with the referee.
    """

    header: tuple[str, ...]  # column headings; header[0] heads the row labels
    rows: tuple[tuple[str, ...], ...]  # each row: its label, then one cell per other column
    caption: str = ""  # a short note printed under the table


# Small notes on board cells, keyed by (asset id, 0-based cell index): e.g. which pair
# counters start on that box of a currency's track.
Marks = Mapping[tuple[str, int], tuple[str, ...]]
