"""Every game's fast `playout` plays the very games of the simulator's slow path.

A playout is the engine's rules again, on mutable numbers, for random play only
(`pnp.rules.contract.Playout`). It makes the same draws as the slow path, so from the same seed
it must give the same `GameResult` — scores, winners, reason, steps, length, the mid-game
leader, every mark, money peak and supply low. This test plays both for every player count,
under every value of every house rule that has a list of values, and under a few numbers a
designer is likely to change; one difference fails it with the game's number.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pnp.rules import GAMES, load_spec
from pnp.simulate.oracle import differences
from pnp.simulate.play import play_game
from pnp.simulate.runner import Setup, context, seating

SPEC = str(Path(__file__).resolve().parents[1] / "pnp" / "data" / "components.yaml")
GAMES_EACH = 12  # per player count and rule set (the slow lane; the fast lane plays the first)

# Numbers a designer changes, per game, beside every listed value of every house rule.
NUMBERS: dict[str, list[dict[str, Any]]] = {
    "bolsa": [{"rounds": 2}, {"start_cash": 12}, {"start_cash": 400}],
    "aktsioner": [{"start_cash": 150}, {"start_shares": 0}, {"formula": "4+6"},
                  {"price_min": 5, "price_step": 5}],  # halving 5 zeroes it at 2½: penalties and cash in fractions
    "forex": [{"start_money": 0}, {"cert_cap": 1}, {"certificate_price": 0}, {"removed_certificates": 40},
              {"contract_max": 2}, {"loan_interest": 0}],
}

FAST = [game for game, entry in GAMES.items() if entry.about.playout]  # as the registry says (a game without one
# is not compared with itself); `tests/test_refusals.py` checks the registry against each engine


def rule_sets(game: str) -> list[tuple[tuple[str, Any], ...]]:
    """The defaults, then each other listed value of each house rule (booleans flipped), then
    `NUMBERS`; one change at a time."""
    found: list[dict[str, Any]] = [{}]
    for option in GAMES[game].engine.RULEBOOK.options:
        if option.set_by is not None:
            continue
        if isinstance(option.default, bool):
            found.append({option.name: not option.default})
        found += [{option.name: value} for value in option.choices or () if value != option.default]
    found += NUMBERS.get(game, [])
    return [tuple(sorted(changes.items())) for changes in found]


def play_both(game: str, options: tuple[tuple[str, Any], ...], players: int, seed: int, games: int) -> int:
    """`games` games played both ways and found equal (0 when the rules cannot seat `players`)."""
    played, differs = differences(Setup(game, SPEC, options, players, ("random",)), seed, games)
    assert not differs, f"{game} {dict(options)} {players} players, game {differs[0][0]}: {differs[0][1]}"
    return played


@pytest.mark.parametrize("games", [1, pytest.param(GAMES_EACH, marks=pytest.mark.slow)])
@pytest.mark.parametrize("game", FAST)
def test_playout_plays_the_slow_paths_games(game, games):
    """The slow lane plays every rule set at every player count; the fast lane one game of each
    rule set, at one count (the counts taken in turn, the next when the rules cannot seat one)."""
    seats = load_spec(SPEC).games[game].players
    counts = list(range(seats.min, seats.max + 1))
    played = 0
    for k, options in enumerate(rule_sets(game)):
        turn = counts[k % len(counts):] + counts[:k % len(counts)]
        for players in turn:
            found = play_both(game, options, players, seed=k, games=games)
            played += found
            if found and games != GAMES_EACH:
                break
    assert played >= games * len(rule_sets(game))  # every rule set played, at one count at least


@pytest.mark.parametrize("game", FAST)
def test_random_seats_take_the_playout(game, monkeypatch):
    engine, calls = GAMES[game].engine, []
    original = engine.playout

    def counted(*args: Any) -> Any:
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(engine, "playout", counted)
    setup = Setup(game, SPEC, (), 4, ("random",))
    ctx = context(setup)
    ids, names = seating(setup, 0)
    play_game(ctx.engine, ctx.params, ctx.probe, ctx.money, [ctx.bots[b] for b in ids], names, random.Random(1))
    play_game(ctx.engine, ctx.params, ctx.probe, ctx.money, [ctx.bots[b] for b in ids], names, random.Random(1),
              keep_actions=True)  # a record needs the actions: the slow path
    assert len(calls) == 1
