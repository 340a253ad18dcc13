"""Every fast playout held to its engine step by step (the oracle of `pnp.rules.contract.Playout`).

A playout restates the engine's rules on mutable numbers. Here each one plays with a trace —
the actions it takes, each with the position after it in its own numbers — and the trace is
replayed through the engine: after every step the engine's position, read the same way
(`pnp.rules.<game>.playout.numbers`), must be the playout's (money, holdings, markers, zones,
queue), the game's conformance invariants must hold, and the end must be the playout's
outcome. The games are the playout's own: from the game's deal or from any position of a random
game before its end (determinized from a seat's view where the game hides something), under a random
combination of every house rule that has a list of values and the numbers the conformance
test varies, at a random player count. A game played from its setup is also written as a
record and replayed by the referee, its position compared after every record step.

Each failure names its game, seed, house rules and player count; `oracle(game, seed)` plays that
game again. `GAMES_FAST` games per game run in the fast lane, `GAMES_SLOW` more in the slow one
(`pytest -m slow`).
"""

from __future__ import annotations

import random
from importlib import import_module
from typing import Any

import pytest

import conform
from pnp.bots.search import UNWATCHED
from pnp.referee import check, reads_record
from pnp.referee import record as records
from pnp.referee.replay import referee_for, state_json
from pnp.rules import GAMES, load_spec
from pnp.rules.base import Violation
from pnp.rules.contract import play

SPEC = load_spec(None)
NAMES = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")
FAST = [game for game, entry in GAMES.items() if entry.engine.playout is not None]
GAMES_FAST, GAMES_SLOW = 24, 2476  # seeds 0…23 in the fast lane, 24…2499 in the slow one (2,500 in all, as before)
REFEREED_EVERY = 2  # every second game from its setup is also replayed by the referee, step by step


def oracle(game: str, seed: int) -> str:
    """Play game number `seed` of `game` with a trace and hold it to the engine; what was
    checked ("setup" or "mid-game"), for the test's tally. Asserts with the seed."""
    rng = random.Random(f"oracle/{game}/{seed}")
    engine, spec_game = GAMES[game].engine, SPEC.games[game]
    options = conform.house_rules(game, rng)
    p = engine.params(spec_game, options)
    players = NAMES[:rng.randint(max(2, spec_game.players.min), spec_game.players.max)]
    try:
        state, _ = engine.setup(p, players, engine.deal(p, players, rng))
    except Violation:  # these house rules seat fewer (AKT-2.4)
        return "unseated"
    where = "setup"
    if rng.random() < 0.5:  # from the middle: a position of a random game on the general path, then the playout
        before_end = [after for _, after, _ in play(engine, state, p, rng)][:-1]
        state = rng.choice(before_end) if before_end else state
        seat = rng.randrange(len(players))
        state = engine.determinize(engine.view(state, p, seat), p, seat, rng)  # what a search bot would start from
        where = "mid-game"
    first, trace, invariants = state, [], conform.invariants(game)
    played = engine.playout(p, state, rng, UNWATCHED, trace)  # the oracle reads the trace
    numbers = import_module(f"{GAMES[game].rules}.playout").numbers
    label = f"{game} seed {seed} ({where}, {len(players)} players, options {options})"
    for step, (action, position) in enumerate(trace):
        try:
            after, events = engine.apply(state, action, p)
        except Exception as error:  # noqa: BLE001 - the message must carry the seed
            raise AssertionError(f"{label}: step {step} {action!r} refused: {error}") from error
        assert numbers(after) == position, f"{label}: step {step} {action!r}: the engine's position differs"
        invariants(p, state, after, events)
        state = after
    assert engine.to_move(state, p) is None, f"{label}: the playout stopped before the end"
    assert engine.outcome(state, p) == played.outcome, f"{label}: another outcome"
    assert played.steps == len(trace), f"{label}: {played.steps} steps counted, {len(trace)} taken"
    if where == "setup" and seed % REFEREED_EVERY == 0:
        refereed(game, p, players, options, first, [action for action, _ in trace], label)
    return where


def refereed(game: str, p: Any, players: tuple[str, ...], options: dict[str, Any], first: Any, actions: list[Any],
             label: str) -> None:
    """The trace as a record, replayed by the referee: after each record step its position is
    the engine's after as many actions; the end is the same."""
    engine, referee = GAMES[game].engine, referee_for(game)
    data = referee.record(p, players, actions, options, start=first)
    read = reads_record(records.dump(data))
    answer = check(read, SPEC)
    assert answer.ok, f"{label}: the referee refuses the record: {answer.violation}"
    state, done = first, 0
    replayed, _ = referee.setup(read, answer.params)
    for step in referee.steps(read, answer.params):
        replayed, _ = referee.apply(replayed, step, answer.params)
        for action in referee.actions(step):
            state, _ = engine.apply(state, action, p, events=False)
            done += 1
        assert state_json(game, replayed, answer.params) == state_json(game, state, p), f"{label}: after {done}"
    assert done == len(actions) and state_json(game, answer.state, answer.params) == state_json(game, state, p)


@pytest.mark.parametrize("game", FAST)
def test_every_playout_step_is_the_engines(game):
    tally = [oracle(game, seed) for seed in range(GAMES_FAST)]
    assert tally.count("setup") >= GAMES_FAST // 4 and tally.count("mid-game") >= GAMES_FAST // 4


@pytest.mark.slow
@pytest.mark.parametrize("game", FAST)
def test_every_playout_step_is_the_engines_over_many_more_games(game):
    for seed in range(GAMES_FAST, GAMES_FAST + GAMES_SLOW):
        oracle(game, seed)
