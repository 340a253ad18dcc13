"""Every registered game keeps the engine contract (pnp.rules.contract.Engine), as `pnp engine
check` checks it (`pnp.referee.conformance`, which says what it checks), here under random house
rules and player counts (2, or the game's minimum, to the maximum) with the game's own
invariants (money conserved, cards counted, bounds kept) after every step. Adding a
game to `GAMES` adds it here, with no edit of this file; its invariants and the numbers its
random games vary live in `tests/conform/<game>.py`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import conform
from pnp.referee.conformance import check_engine
from pnp.rules import GAMES, end_reasons, load_spec
from pnp.rules.base import Violation
from pnp.rules.contract import play

SPEC = load_spec(None)
NAMES = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")


def house_rules(game: str) -> Any:
    """Every house rule that is a choice among a few values (or true/false), at random, and the
    numbers the game's conformance module varies (`conform.numbers`): a new option is played
    as soon as it exists, and a new game as soon as it is registered."""
    found: dict[str, Any] = {}
    for option in GAMES[game].rulebook.options:
        if option.choices is not None:
            found[option.name] = st.sampled_from(option.choices)
        elif isinstance(option.default, bool):
            found[option.name] = st.booleans()
    numbers, required = conform.numbers(game)
    found.update({name: st.sampled_from(values) for name, values in numbers.items() if name not in required})
    return st.fixed_dictionaries({name: st.sampled_from(numbers[name]) for name in required}, optional=found)


CONTRACT = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("games", [12, pytest.param(40, marks=pytest.mark.slow)])
def test_random_legal_games_keep_the_contract_and_replay_identically(game, games):
    """Twelve random games of each game in the fast lane; forty: slow."""
    settings(max_examples=games, **CONTRACT)(given(data=st.data())(lambda data: keep_the_contract(game, data)))()


def keep_the_contract(game: str, data: Any) -> None:
    """One game of the package's conformance check (`pnp engine check`), under drawn house
    rules and player count, the game's own invariants checked after every step."""
    options = data.draw(house_rules(game), label="options")
    spec_game = SPEC.games[game]
    count = data.draw(st.integers(max(2, spec_game.players.min), spec_game.players.max), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    engine = GAMES[game].engine
    try:
        engine.setup(engine.params(spec_game, options), NAMES[:count])
    except Violation:  # a house rule that seats fewer players (AKT-2.4)
        assume(False)
    invariants = conform.invariants(game)

    def watch(p: Any, before: Any, after: Any, events: Any) -> None:
        invariants(p, before, after, events)
        result = engine.outcome(after, p)
        if result is not None and result.reason != "bankruptcy":  # a bankrupt player may be scored last whatever he holds
            assert all(result.scores[name] == max(result.scores.values()) for name in result.winners)

    report = check_engine(game, SPEC, games=1, seed=seed, options=options, players=count, watch=watch)
    assert report.ok, "\n".join(report.lines(game))
    assert report.positions > 1 and report.actions_tried >= report.positions - 1


def test_random_forex_games_reach_both_ends():
    """The sampler reaches both ways For-Ex ends (FOREX-11.1), so the final resolution after
    the last dividend is played too, not only bankruptcies."""
    engine, game = GAMES["forex"].engine, SPEC.games["forex"]
    p = engine.params(game, {"contract_max": 1})
    ends = set()
    for seed in range(40):
        state, _ = engine.setup(p, NAMES[:3])
        for _, after, _ in play(engine, state, p, random.Random(seed)):
            state = after
        ends.add(engine.outcome(state, p).reason)
    assert ends == {"bankruptcy", "last_dividend"} == set(end_reasons("forex"))
