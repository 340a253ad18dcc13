"""The contract every rules engine keeps, and the loop that drives one.

An engine is a module (a bundled game's `pnp.rules.<game>.engine`, or a designer's one file,
docs/your-game.md, registered as `pnp.rules.registry` says) that keeps `Engine` below, state
first in every call: `params(game, options)` reads the spec and the house rules once; `check_players`
says whether the game seats a count; `deal` draws a setup's random part as a `Start`;
`setup(params, players, start)` lays out the standard position (or a given one);
`apply(state, action, params)` returns the next state and the events it caused; `to_move`
says who may act now and in which phase; `legal_actions` lists what they may do, as templates
(`pnp.rules.legal`); `outcome` scores a finished game and `worth` any position; `position`
writes a position as plain data; `view` hides what a seat may not know and `determinize` fills
it in again; `playout` plays a random game fast; `tables` and `marks` are what printed
components show of the rules. Engines are pure: immutable state in, new state and events out,
no I/O.

The floors of the rules layer, bottom up: `base` (events, refusals, errors, values), `legal`
(templates and the sampler), this module (the protocol, and `play`, which drives any engine),
then the games. Nothing imports upward, so there is no circle.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Protocol, Sequence, TypeVar

from pnp.rules.base import ChoiceNeeded, Events, Marks, Number, Observer, Outcome, Played, Table, ToMove, Trace
from pnp.rules.legal import Template, pick, sample

if TYPE_CHECKING:
    import random

    from pnp.spec.model import Game
    from pnp.spec.options import Rulebook

P = TypeVar("P")
S = TypeVar("S")
A = TypeVar("A", contravariant=True)


class Engine(Protocol[P, S, A]):
    """What every game's `engine` module provides (`pnp.rules.engine(game)` returns it), and
    all a caller may use of it: a simulator, the table, a bot or a new command needs nothing
    else, and finds nothing by `getattr`. What a game offers beyond it (a fast playout, a
    random deal) and how its games can end, the registry says (`pnp.rules.GAMES[id].about`).

    `P`, `S` and `A` are the game's own Params, State and Action types; nothing outside the
    engine looks inside them except through these functions, the referee's record reader and
    writer, and the printed tables. Seats are indices into the seating (the players as
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
        returns none; the position, and every error, are the same either way.

        An action is legal exactly when a template of the position admits it
        (`legal.judge`): a refusal is worded from the template's statement that failed (a
        bound, an option, a constraint) or, when the position lists no template of its kind
        for its player, from the condition that withholds it; the engine checks beyond the
        templates only what they cannot state."""

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

    def position(self, state: S, params: P) -> dict[str, Any]:
        """The position as plain data, names and numbers (docs/referee.md's `state` keys): what
        the referee's JSON answer and the table's board show. The referee adds `over`,
        `scores` and `winners` from `outcome`."""

    def view(self, state: S, params: P, seat: int | None) -> S:
        """The position as `seat` may know it (None: a spectator, who knows only what is
        public): every secret of another seat, and the order of anything face down, replaced by
        placeholders of the same shape (a hidden card, the counts kept), so that everything
        that reads a position (`position`, `to_move`, `legal_actions`, `worth`) still works on
        a view. A search bot reads nothing else. Two positions that differ only in what `seat`
        cannot see have equal views. Secrets of a sealed phase (`ToMove.sealed`) are the
        driver's to keep, not the view's: it shows each seat the position at the phase's
        start."""

    def determinize(self, view: S, params: P, seat: int | None, rng: random.Random) -> S:
        """A full position consistent with `view` (a `view(…, seat)`): every placeholder drawn
        from what `seat` has not seen, at random; `view(determinize(v, …), …, seat) == v`."""

    @property
    def playout(self) -> Playout[P, S] | None:
        """The game's fast random playout (`Playout`), or None for a game that has none (its
        registry entry says which: `about.playout`): the simulator then plays random bots on
        the general path, as every other bot."""

    def tables(self, params: P) -> Mapping[str, Table]:
        """Tables printed on the components (an aid, a setup diagram), computed here."""

    def marks(self, params: P) -> Mapping[str, Marks]:
        """Notes printed on board cells, by table name: each keyed by (asset id, 0-based cell)."""


def members() -> tuple[str, ...]:
    """The names `Engine` declares, attributes and functions: what a rules module must define
    (the registry refuses a file without one, and `pnp engine check` lists them)."""
    declared = set(Engine.__annotations__) | {name for name in vars(Engine) if not name.startswith("_")}
    return tuple(sorted(declared))


AnyEngine = Engine[Any, Any, Any]  # the engine of a game chosen at run time: its types are its own business

Pc = TypeVar("Pc", contravariant=True)
Sc = TypeVar("Sc", contravariant=True)


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


# --- driving an engine -----------------------------------------------------------------------

Act = TypeVar("Act")


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
