"""`pnp engine check`: whether a rules engine keeps the contract (`pnp.rules.contract.Engine`),
found by playing it — the conformance suite as a command, for the bundled games and a
designer's one file alike (`tests/test_conformance.py` and `tests/test_engine_contract.py`
call it too).

Game `g` of a check is played with the seed `seed + g`, so every failure names the seed that
shows it again (`--games 1 --seed S`). Each game: the engine's deal or the standard setup, then
random legal play (`contract.play`'s sampler) to the end, and at every position:

- `to_move`, `legal_actions` and `outcome` agree (who has a template is who is to move);
- every template's random draw, and its every number at its bound, is applied without a
  refusal (a legal action is legal), and a number one past a bound is refused with a rule ID;
- `apply` leaves the position as it found it (a deep copy compared after it), and gives the
  same position with `events=False`;
- each seat's view (and the spectator's) is the view of a position drawn from it
  (`view(determinize(view(x, s), s), s) == view(x, s)`): a position that differs from this one
  only in what the seat cannot see shows the seat the same;

then the game ends within `max_actions`, its outcome names the players and one of the game's
end reasons, the same seed plays the same record, a game resumed at a random middle position
goes on to an end too, and each record, written and read back by the game's referee, replays
to the engine's last position.

Sits on the referee floor: it writes and replays records.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from pnp.referee import check as referee_check
from pnp.referee import reads_record
from pnp.referee import record as records
from pnp.referee.replay import referee_for, state_json
from pnp.rules import GAMES, text
from pnp.rules.base import ChoiceNeeded, Event, Malformed, Violation
from pnp.rules.contract import AnyEngine, apply_choosing
from pnp.rules.legal import Template, admitted, draw, sample

if TYPE_CHECKING:
    from pnp.spec.model import Spec

NAMES = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer", "Gil", "Hal")
MAX_ACTIONS = 5_000  # a game that has not ended by then never will (the bundled ones end within ~600)
CHECKS = ("who moves", "legal actions apply", "illegal refused", "no mutation", "events=False", "events", "view",
          "ends", "outcome", "determinism", "mid-game", "record replays", "invariants", "playout")
Watch = Callable[[Any, Any, Any, Sequence[Event]], None]  # (params, before, after, events) of every step


@dataclass(frozen=True)
class Failure:
    """One broken promise: which check, the seed of the game that shows it, the action count
    at which it showed, and what was seen."""

    check: str
    seed: int
    step: int
    message: str


@dataclass
class Report:
    """What a check found: the games played and positions checked, and every failure (the
    first of each check in each game)."""

    game: str
    games: int = 0
    positions: int = 0
    actions_tried: int = 0
    refusals_tried: int = 0
    failures: list[Failure] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # checks that do not apply (no playout to hold to the engine)

    @property
    def ok(self) -> bool:
        return not self.failures

    def failed(self, check: str) -> list[Failure]:
        return [failure for failure in self.failures if failure.check == check]

    def lines(self, shown: str) -> list[str]:
        """The report a designer reads: each check passed or failed, each failure with its seed."""
        head = (f"{shown}: {self.game} — {self.games} games, {self.positions:,} positions, "
                f"{self.actions_tried:,} legal actions and {self.refusals_tried:,} illegal ones tried")
        out = [head]
        for name in CHECKS:
            found = self.failed(name)
            if name in self.skipped:
                out.append(f"  --    {name} (none to check)")
                continue
            out.append(f"  {'FAIL' if found else 'ok  '}  {name}" + (f" ({len(found)} games)" if found else ""))
            for failure in found[:3]:
                out.append(f"        seed {failure.seed}, after {failure.step} actions: {failure.message}")
        out.append(f"{'all checks pass' if self.ok else f'{len(self.failures)} failures'}"
                   + ("" if self.ok else f"; again with: --games 1 --seed {self.failures[0].seed}"))
        return out


class _Failed(Exception):
    """A check failed in this game: play of it stops (what follows would only repeat it)."""


def check_engine(game: str, spec: Spec, games: int = 20, seed: int = 0, max_actions: int = MAX_ACTIONS,
                 options: Mapping[str, Any] | None = None, players: int | None = None,
                 watch: Watch | None = None) -> Report:
    """Play `games` random games of registered `game` as `spec` (a loaded components.yaml)
    describes it, checking the contract throughout (see the module): under the house rules
    `options` (default: the spec's), with `players` (default: drawn from the spec's range by
    each game's seed), each step also shown to `watch` (a test's invariants of the game, whose
    exception fails the game under "invariants")."""
    report = Report(game, skipped=[] if watch is not None else ["invariants"])
    for number in range(games):
        _Game(report, game, spec, seed + number, max_actions, options or {}, players, watch).run()
        report.games += 1
    return report


class _Game:
    """One game of a check, from its seed."""

    def __init__(self, report: Report, game: str, spec: Spec, seed: int, max_actions: int,
                 options: Mapping[str, Any], players: int | None, watch: Watch | None):
        self.report, self.game, self.seed, self.max_actions, self.spec = report, game, seed, max_actions, spec
        self.options, self.watch = options, watch
        spec_game = spec.games[game]
        self.engine: AnyEngine = GAMES[game].engine
        self.p = self.engine.params(spec_game, options)
        rng = random.Random(seed)
        least, most = spec_game.players.min, min(spec_game.players.max, len(NAMES))
        self.players = NAMES[:players or rng.randint(max(2, least), max(2, least, most))]
        self.rules = text.ids(game) if game in text.games() else None
        self.start = self.engine.deal(self.p, self.players, rng) if rng.random() < 0.5 else None
        self.step = 0
        self.doing = "ends"  # the check under way, which a crash of the engine fails

    def fail(self, check: str, message: str) -> None:
        self.report.failures.append(Failure(check, self.seed, self.step, message))
        raise _Failed

    def run(self) -> None:
        try:
            self._run()
        except _Failed:
            pass
        except Exception as error:  # an engine that crashes: a failure of the check it was in, with its seed
            self.report.failures.append(Failure(self.doing, self.seed, self.step,
                                                f"the engine raised {type(error).__name__}: {error}"))

    def _run(self) -> None:
        first, _ = self.engine.setup(self.p, self.players, self.start)
        actions, last = self._play(first, random.Random(self.seed), check=True)
        self.doing = "determinism"
        again, _ = self._play(first, random.Random(self.seed), check=False)
        if self._record(again) != self._record(actions):
            self.fail("determinism", f"the same seed wrote another record ({len(again)} actions, then {len(actions)})")
        self.doing = "outcome"
        self._outcome(last)
        self.doing = "record replays"
        self._replays(actions, last)
        self.doing = "mid-game"
        middle = random.Random(self.seed).randrange(len(actions)) if actions else 0
        state = first
        for action in actions[:middle]:
            state, _ = self.engine.apply(state, action, self.p, False)
        self.step = middle
        rest, end = self._play(state, random.Random(self.seed + 1), check=False)
        self._replays(actions[:middle] + rest, end, "mid-game")

    def _play(self, state: Any, rng: random.Random, check: bool) -> tuple[list[Any], Any]:
        """Random legal play to the end (each position checked when `check`): the actions, the
        last position."""
        engine, p = self.engine, self.p
        actions: list[Any] = []
        probe = random.Random(~self.seed)  # the checks' own draws: play draws from `rng` alone, as without them
        for count in range(self.max_actions + 1):
            self.step = count
            if check:
                self._position(state, probe)
            if engine.to_move(state, p) is None:
                return actions, state
            action = sample(engine.legal_actions(state, p), rng)
            before = copy.deepcopy(state) if check else None
            action, after, events = apply_choosing(engine, state, action, p, rng)
            if check:
                self._events(state, after, events)
                if state != before:
                    self.fail("no mutation", f"apply changed the position it was given ({_short(action)})")
                if engine.apply(state, action, p, False)[0] != after:
                    self.fail("events=False", f"apply without events gave another position ({_short(action)})")
            actions.append(action)
            state = after
        self.fail("ends", f"no end after {self.max_actions:,} actions")
        raise AssertionError  # unreachable: `fail` raises

    def _events(self, before: Any, after: Any, events: Sequence[Event]) -> None:
        """Each event cites a rule of the game's rules file and words its data, which is JSON;
        then the test's invariants, if any."""
        self.doing = "events"
        for event in events:
            if self.rules is not None and event.rule not in self.rules:
                self.fail("events", f"{event.rule} (cited by an event) is no rule ID of the game's rules file")
            json.dumps(event.as_json())
        if self.watch is not None:
            self.doing = "invariants"
            self.watch(self.p, before, after, events)
        self.doing = "ends"

    def _position(self, state: Any, rng: random.Random) -> None:
        engine, p = self.engine, self.p
        self.report.positions += 1
        self.doing = "who moves"
        templates, who = engine.legal_actions(state, p), engine.to_move(state, p)
        if (who is None) != (not templates) or (who is None) != (engine.outcome(state, p) is not None):
            self.fail("who moves", f"to_move {who}, {len(templates)} templates, outcome "
                                   f"{engine.outcome(state, p)} disagree")
        if who is not None:
            acting = set(t.player for t in templates if t.player is not None)
            if acting != set(who.players):
                self.fail("who moves", f"to_move names {sorted(who.players)}, the templates {sorted(acting)}")
        before = copy.deepcopy(state)
        for template in templates:
            self.doing = "legal actions apply"
            self._legal(state, template, rng)
            self.doing = "illegal refused"
            self._illegal(state, templates, template)
        if state != before:
            self.fail("no mutation", "apply changed the position it was given")
        self.doing = "view"
        self._views(state, rng)
        self.doing = "ends"

    def _legal(self, state: Any, template: Template, rng: random.Random) -> None:
        """A random draw of the template, and with no constraint each number at its bounds."""
        tries = [draw(template, rng)]
        if not template.constraints:
            numbers = [f for f in template.fields if f.kind == "number"]
            if numbers:
                tries += [{**tries[0], **{f.name: f.low for f in numbers}}, {**tries[0], **{f.name: f.high for f in numbers}}]
        for values in tries:
            action = template.action(values)
            self.report.actions_tried += 1
            try:
                self.engine.apply(state, action, self.p, False)
            except ChoiceNeeded:
                pass  # a tie the player names: legal, with a choice to make
            except (Violation, Malformed) as refusal:
                self.fail("legal actions apply", f"{template.kind} by {template.player} is listed but refused: "
                                                 f"{_short(action)} → {refusal}")

    def _illegal(self, state: Any, templates: Sequence[Template], template: Template) -> None:
        """Each number of the template one past its top, and the template's action taken by a
        player who may not take it, when no template admits that: refused, with a rule ID."""
        for values, what in _illegal_tries(template, self.players):
            try:
                action = template.action(values)
            except (TypeError, ValueError, KeyError):
                continue  # an action its template cannot even build: nothing to refuse
            if admitted(templates, action):
                continue
            self.report.refusals_tried += 1
            try:
                self.engine.apply(state, action, self.p, False)
            except Violation as refusal:
                if not refusal.rule:
                    self.fail("illegal refused", f"{_short(action)} refused without a rule ID")
                continue
            except (Malformed, ChoiceNeeded):
                continue
            self.fail("illegal refused", f"{_short(action)} ({what}) was applied")

    def _views(self, state: Any, rng: random.Random) -> None:
        """For each seat and a spectator: the view of a view is itself, a position drawn from a
        view has that view again (the two differ only in what the seat cannot see), and what
        reads a position reads the view alike (who moves, worth, the seat's own templates)."""
        before = copy.deepcopy(state)
        for seat in [None, *range(len(self.players))]:
            self._view(state, seat, rng)
        if state != before:
            self.fail("no mutation", "view or determinize changed the position")

    def _view(self, state: object, seat: int | None, rng: random.Random) -> None:
        """One seat's view (None: the spectator's) checked against the position."""
        engine, p = self.engine, self.p
        who = "the spectator" if seat is None else f"seat {seat} ({self.players[seat]})"
        seen = engine.view(state, p, seat)
        if engine.view(seen, p, seat) != seen:
            self.fail("view", f"{who}: the view of its view is not its view")
        if engine.view(engine.determinize(seen, p, seat, rng), p, seat) != seen:
            self.fail("view", f"{who}: a position drawn from its view (determinize) shows it another view: a "
                              f"secret leaks into the view, or determinize redraws what the seat sees")
        if engine.to_move(seen, p) != engine.to_move(state, p) or engine.worth(seen, p) != engine.worth(state, p):
            self.fail("view", f"{who}: its view reads otherwise than the position (to_move or worth)")
        engine.position(seen, p)  # the state writer reads a view
        name = None if seat is None else self.players[seat]
        if name is not None and _own(engine.legal_actions(seen, p), name) != _own(engine.legal_actions(state, p), name):
            self.fail("view", f"{who}: its view offers it other templates than the position")

    def _outcome(self, last: Any) -> None:
        result = self.engine.outcome(last, self.p)
        if result is None or list(result.scores) != list(self.players):
            self.fail("outcome", f"the outcome of the last position is {result}")
            return
        if result.reason not in GAMES[self.game].about.end_reasons or not set(result.winners) <= set(self.players):
            self.fail("outcome", f"reason {result.reason!r} (the game's: {', '.join(GAMES[self.game].about.end_reasons)}),"
                                 f" winners {result.winners}")

    def _record(self, actions: list[Any]) -> str:
        """The record of `actions` as the game's referee writes it (a bundled referee writes the
        start as a position, the generic one the engine's Start)."""
        start = self.start
        if start is not None and GAMES[self.game].about.referee is not None:
            start, _ = self.engine.setup(self.p, self.players, self.start)
        return records.dump(referee_for(self.game).record(self.p, self.players, actions, self.options, start=start))

    def _replays(self, actions: list[Any], last: Any, check: str = "record replays") -> None:
        """The record of `actions`, read back, is those actions, and replayed by the referee
        ends at `last`."""
        read = reads_record(self._record(actions), "<record>")
        answer = referee_check(read, self.spec)
        referee = referee_for(self.game)
        if answer.ok and [a for step in referee.steps(read, answer.params) for a in referee.actions(step)] != actions:
            self.fail(check, "its record reads back as other actions (the referee's steps and actions)")
        if not answer.ok:
            assert answer.violation is not None
            self.fail(check, f"the referee refuses its record: {answer.violation.rule}: {answer.violation.message}")
        if state_json(self.game, answer.state, answer.params) != state_json(self.game, last, self.p):
            self.fail(check, "its record replays to another position than the engine's")


def _own(templates: Sequence[Template], player: str) -> list[tuple[Any, ...]]:
    """The templates of `player`, as values."""
    return [(t.kind, t.rule, t.fields, dict(t.fixed), t.constraints) for t in templates if t.player == player]


def _illegal_tries(template: Template, players: Sequence[str]) -> list[tuple[dict[str, object], str]]:
    """The template's values with one number one past its top, and with another player in the
    template's player's place, each with what it tries; the other fields at their lowest."""
    base = {f.name: f.least() for f in template.fields}
    tries = [({**base, f.name: f.high + 1}, f"{f.name} {f.high + 1}, over {f.high}")
             for f in template.fields if f.kind == "number"]
    others = [name for name in players if name != template.player]
    if template.player is not None and others:
        tries.append(({**base, "player": others[0]}, f"{others[0]} in {template.player}'s place"))
    return tries


def _short(action: Any) -> str:
    text = repr(action)
    return text if len(text) <= 160 else text[:159] + "…"
