"""The contract every rules engine keeps, and what engines share.

An engine is a module (`pnp.rules.<game>.engine`) that keeps `Engine` below, state first in
every call: `params(game, options)` reads the spec and the house rules once; `check_players`
says whether the game seats a count; `deal` draws a setup's random part as a `Start`;
`setup(params, players, start)` lays out the standard position (or a given one);
`apply(state, action, params)` returns the next state and the events it caused; `to_move`
says who may act now and in which phase; `legal_actions` lists what they may do, as templates
(`pnp.rules.legal`); `outcome` scores a finished game and `worth` any position; `view` hides
what a seat may not know and `determinize` fills it in again; `playout` plays a random game
fast; `tables` and `marks` are what printed components show of the rules. Engines are pure:
immutable state in, new state and events out, no I/O.

Three error kinds, the same in every game: `Violation` (an illegal action: the rule it breaks
and a sentence with the numbers, which the referee cites verbatim), `Malformed` (an action
that names what does not exist: an unknown player, company or card), and `ChoiceNeeded` (the
rules let a player break a tie, and the action did not say how).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, TypeVar

from pnp.spec.options import Rulebook, check_values

if TYPE_CHECKING:
    import random

    from pnp.rules.legal import Template
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
    """One applied step: the rule behind it and its numbers (who, what, how much), e.g.
    rule "BOLSA-4.2", data {"company": "SAN", "offered": 2, "from": 10, "to": 8}. Its sentence
    ("SAN: 2 offered, none wanted: 10 → 8") is made from the data on demand by its kind, so the
    referee's explanation and any other page share one wording, and a simulator that never
    reads the text never pays for it."""

    rule: str
    data: Mapping[str, Any]
    kind: EventKind = field(repr=False)

    @property
    def text(self) -> str:
        return self.kind.say(self.data)

    def as_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text, "data": plain(self.data)}


@dataclass(frozen=True)
class EventKind:
    """A kind of event: the rule it usually cites and the one function that words its data.
    Calling it makes an event: `OFFERED(player="Ana", sell={"IBE": 1})`; a rule given first
    (`BID("BOLSA-5.4", …)`) overrides it for a kind several rules share (a bid in an ascending or
    a descending auction)."""

    rule: str
    say: Callable[[Mapping[str, Any]], str] = field(repr=False)

    def __call__(self, rule: str | None = None, /, **data: Any) -> Event:
        return Event(rule or self.rule, data, self)


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
    """An illegal action: the rule it breaks and a sentence with who, what, how much.

    `part` locates the offending piece inside the action when the engine can tell, e.g.
    ("others", "Ben") for another player's share of a divestment, or (1,) for the second of
    two investments; the referee appends it to the action's place in the record."""

    def __init__(self, rule: str, message: str, part: tuple[Any, ...] = ()):
        self.rule = rule
        self.message = message
        self.part = part
        super().__init__(f"{rule}: {message}")


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
    reason: str  # a short key per way the game can end: "last_round", "bankruptcy", …


# --- the protocol ----------------------------------------------------------------------------

P = TypeVar("P")
S = TypeVar("S")
A = TypeVar("A", contravariant=True)


class Engine(Protocol[P, S, A]):
    """What every game's `engine` module provides (`pnp.rules.engine(game)` returns it), and
    all a caller may use of it: a simulator, the table, a bot or a new command needs nothing
    else, and finds nothing by `getattr`.

    `P`, `S` and `A` are the game's own Params, State and Action types; nothing outside the
    engine looks inside them except through these functions, the referee's record reader and
    state writer, and the printed tables. Seats are indices into the seating (the players as
    `setup` was given them)."""

    RULEBOOK: Rulebook  # the house rules, which the spec and records are checked against
    Start: type[Any]  # the game's own start position (a record's `start`, a deal): what it omits is standard

    def params(self, game: Game, options: Mapping[str, Any] | None = None) -> P:
        """The spec's facts and the house rules (`options`: a record's, already checked by
        the rulebook). Raises ValueError when the options make no playable game."""

    def check_players(self, params: P, count: int) -> None:
        """Raises Violation, citing the rule, when the game cannot seat `count` players (a
        record, a simulation or the table checks this before anything else)."""

    def deal(self, params: P, players: Sequence[str], rng: random.Random) -> Any:
        """The random part of a setup, drawn from `rng` as the rules draw it at a table, as a
        `Start` for `setup` (which a record can state): Акционер's hands, For-Ex's removed
        certificates; a game with none returns None (the standard setup) without drawing.
        `setup` without a start stays deterministic (each game's `setup` says what it assumes)."""

    def setup(self, params: P, players: Sequence[str], start: Any = None) -> tuple[S, Events]:
        """The position before the first action: the standard setup, or `start` (the game's
        own `Start`) laid over it. Raises Violation for a position the rules cannot reach."""

    def apply(self, state: S, action: A, params: P, events: bool = True) -> tuple[S, Events]:
        """The position after one action and the events it caused, each citing its rule.
        Raises Violation, Malformed (also for an object that is no action of this game) or
        ChoiceNeeded; the given state is never changed. `events=False` says the caller will not
        read the events (a simulation playing thousands of games): the engine makes none and
        returns none; the position, and every error, are the same either way."""

    def to_move(self, state: S, params: P) -> ToMove | None:
        """Who may act now; None once the game is over."""

    def legal_actions(self, state: S, params: P) -> tuple[Template, ...]:
        """What may be done now, as templates whose every draw is a legal action."""

    def outcome(self, state: S, params: P) -> Outcome | None:
        """Scores, winners and the reason once the game is over; None before."""

    def moves(self, params: P, players: int) -> int | None:
        """How many moves a whole game has for `players` when the rules fix it (a move-record
        form prints one row each: Акционер plays every card dealt, one a move), else None."""

    def worth(self, state: S, params: P) -> tuple[Number, ...]:
        """Each seat's worth in this position, exact: what it would score if the game were
        scored now (OpenSpiel's `returns()`), defined on every position; once the game is over,
        its final scores. The simulator's mid-game leader, the lookahead bots and the table
        read this one number."""

    def view(self, state: S, params: P, seat: int | None) -> S:
        """The position as `seat` may know it (None: a spectator, who knows only what is
        public): every secret of another seat, and the order of anything face down, replaced by
        placeholders of the same shape (a hidden card, the counts kept), so that everything
        that reads a position (the referee's state writer, `to_move`, `legal_actions`, `worth`)
        still works on a view. A search bot reads nothing else. Two positions that differ only
        in what `seat` cannot see have equal views. Secrets of a sealed phase (`ToMove.sealed`)
        are the driver's to keep, not the view's: it shows each seat the position at the
        phase's start."""

    def determinize(self, view: S, params: P, seat: int | None, rng: random.Random) -> S:
        """A full position consistent with `view` (a `view(…, seat)`): every placeholder drawn
        from what `seat` has not seen, at random; `view(determinize(v, …), …, seat) == v`."""

    @property
    def playout(self) -> Playout[P, S] | None:
        """The game's fast random playout (`Playout`), or None for a game that has none yet:
        the simulator then plays random bots on the general path, as every other bot."""

    def tables(self, params: P) -> Mapping[str, Table]:
        """Tables printed on the components (an aid, a setup diagram), computed here."""

    def marks(self, params: P) -> Mapping[str, Marks]:
        """Notes printed on board cells, keyed by (asset id, 0-based cell)."""


# --- fast random play ----------------------------------------------------------------------------

# What a playout tells as it plays: the simulator's observer (`pnp.simulate.play.Watch`, whose
# protocol lives with it). A playout gives it what the simulator's probe would read of the
# equivalent engine position, each time that changes; the rules layer only passes it along.
Observer = Any

AnyEngine = Engine[Any, Any, Any]  # the engine of a game chosen at run time: its types are its own business

Pc = TypeVar("Pc", contravariant=True)
Sc = TypeVar("Sc", contravariant=True)
Trace = list[tuple[Any, tuple[Any, ...]]]  # each action a playout took, and its position after it in numbers


class Playout(Protocol[Pc, Sc]):
    """`playout(params, state, rng, watch, trace=None) -> Played`: one game from `state`, any
    position the engine reaches (a setup, the middle of a round, a search bot's determinized
    view), to its end, every player the random bot, as fast as the game allows, telling
    `watch` what it reads; with a `trace` (a list), each action it takes is appended with the
    position after it, in the numbers the playout keeps (its module's `numbers(state)` reads the
    same off an engine position), so a test can replay the actions through the engine and
    compare every step.

    A playout is the engine's own rules again, on mutable numbers, so it is held to the
    engine: it makes the same draws from `rng` in the same order as the simulator's slow path
    (the first listed player with templates draws with `legal.sample`, the table's steps last,
    ties broken by `legal.pick` as `apply_choosing` does), so it plays the same game;
    `tests/test_playout.py` checks that every result equals the slow path's, and
    `tests/test_playout_oracle.py` replays its traces step by step."""

    def __call__(self, params: Pc, state: Sc, rng: random.Random, watch: Observer, trace: Trace | None = None) -> Played:
        ...


@dataclass(frozen=True)
class Played:
    """What a `playout` returns: how the game ended, its steps and its length (`Probe.length`)."""

    outcome: Outcome
    steps: int
    length: int


# --- shared helpers --------------------------------------------------------------------------


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
