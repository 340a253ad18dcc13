"""For-Ex's fast playout where the bundled game does not take it: a rate track whose amounts
are not halves (money kept in Fractions, not floats) and a game begun from a dealt position
(contracts and a Loan in the queue, pairs at the cap, half bucks in hand, as the game's deal).
Both must give the slow path's results, game for game (`tests/test_playout.py` covers the
bundled rules)."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from pnp.rules.forex.engine import Contract, Dividend, Loan, Start
from pnp.simulate.play import GameResult, play_game
from pnp.simulate.runner import Setup, context, seating

BUNDLED = Path(__file__).resolve().parents[1] / "pnp" / "data" / "components.yaml"
RATES = "rate: {values: [1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 8]"


def played(spec: Path, options: tuple[tuple[str, Any], ...], players: int, games: int) -> list[GameResult]:
    """`games` games played both ways, asserted equal; the fast path's results."""
    setup = Setup("forex", str(spec), options, players, ("random",))
    ctx = context(setup)
    results = []
    for index in range(games):
        ids, names = seating(setup, index)
        fast, slow = (play_game(ctx.engine, ctx.params, ctx.probe, ctx.money, [ctx.bots[b] for b in ids], names,
                                random.Random(f"forex/{index}"), index=index, bot_ids=ids, fast=way)
                      for way in (True, False))
        assert fast == slow, f"{dict(options)} {players} players, game {index}"
        results.append(fast)
    return results


def test_rates_in_fifths_keep_exact_money(tmp_path):
    text = BUNDLED.read_text(encoding="utf-8")
    assert RATES in text
    spec = tmp_path / "components.yaml"
    spec.write_text(text.replace(RATES, "rate: {values: [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8]"), encoding="utf-8")
    results = [result for options in ((), (("conversion_rounding", "total"),), (("conversion_rounding", "bga"),),
                                      (("spot_unit", "any_one"),))  # FOREX-A5: only spots that notes can pay are offered
               for result in played(spec, options, 3, 12)]
    assert {r.reason for r in results} >= {"last_dividend"}
    assert any(peak * 2 != int(peak * 2) for r in results for peak, _ in r.money)  # fifths of bucks were in hand


def dealt(p: Any, players: Sequence[str], rng: random.Random) -> Start:
    """Every game's deal: the same position, mid-game."""
    first, second, third = players[:3]
    return Start(
        pairs={"GBP/CNY": ("GBP", 10), "EUR/USD": ("USD", 1), "CAD/CNY": ("CNY", 1)},
        money={first: {"GBP": Fraction(7, 2), "CNY": Fraction(9)}, third: {"JPY": Fraction(15, 2)}},
        certificates={second: {"JPY": 3, "CNY": 1}, third: {"JPY": 1}},
        queue=(Contract("B", third, ("CNY", Fraction(20)), ("EUR", Fraction(5))), Dividend(4),
               Loan("A", first, (("GBP", Fraction(3)), ("USD", Fraction(5, 2))))),
    )


def test_a_dealt_position_plays_the_same_games(monkeypatch):
    ctx = context(Setup("forex", str(BUNDLED), (), 4, ("random",)))
    monkeypatch.setattr(ctx.engine, "deal", dealt)
    results = [result for options in ((), (("voluntary_default", True),)) for result in played(BUNDLED, options, 4, 12)]
    jpy = ctx.params.index("JPY")
    assert all(r.supplies[jpy] <= 7 - 4 for r in results)  # the 4 JPY certificates dealt came out of the supply
