"""`pnp engine check`: the conformance suite as a command. It passes on the bundled engines and
the tutorial's, and reports each of four deliberately broken copies of the tutorial's engine
(a view that leaks the deck, an apply that changes the position it is given, a game that never
ends, a listed action apply refuses, an action taken out of turn applied, a fast playout that plays
another game than the engine)
under the check it breaks, with the seed that shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pnp.cli import main
from pnp.referee.conformance import CHECKS
from pnp.rules import GAMES
from pnp.rules.registry import ENVIRONMENT

TICKER = Path(__file__).parents[1] / "examples" / "ticker"
ENGINE = (TICKER / "ticker.py").read_text(encoding="utf-8")
SPEC = str(TICKER / "components.yaml")

BROKEN = {  # name: (what is replaced, by what, the check that must fail)
    "leaky": ('deck=("?",) * len(state.deck))', "deck=state.deck)", "view"),
    "mutating": ("    ended = End.CRASH", '    object.__setattr__(state, "played", after.played)\n    ended = End.CRASH',
                 "no mutation"),
    "endless": ("    ended = End.CRASH if new == 0 else None if any(after.hands) else End.LAST_CARD",
                "    ended = None  # and the card played goes back to the hand\n"
                "    after = replace(after, hands=state.hands, deck=state.deck, played=state.played)",
                "ends"),
    "playout": ("playout = None  # no fast random playout: the simulator plays through the functions above",
                "def playout(p, state, rng, watch, trace=None):  # plays the engine's game but tells the simulator nothing\n"
                "    import sys\n"
                "    from pnp.rules.base import Played\n"
                "    from pnp.rules.contract import play\n"
                "    for _, state, _ in play(sys.modules[__name__], state, p, rng):\n"
                "        pass\n"
                "    return Played(outcome(state, p), 0, 0)",
                "playout"),
    "lax": ("    judge(legal_actions(state, p), action,", "    if action.player == turn: judge(legal_actions(state, p), action,",
            "illegal refused"),  # anyone may take the turn's player's turn
    "stingy": ("state.cash[seat] // p.prices[state.price[c]],", "state.cash[seat] // p.prices[state.price[c]] + 1,",
               "legal actions apply"),
}


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(GAMES, "_games", dict(GAMES.items()))
    monkeypatch.setenv(ENVIRONMENT, "")  # restored (unset) after the test, whatever --engine sets


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(["engine", "check", *args])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("game", ["bolsa", "aktsioner", "forex"])
def test_the_bundled_engines_pass(capsys, game):
    code, out = run(capsys, game, "--games", "3")
    assert code == 0 and out.splitlines()[-1] == "all checks pass"
    positions, tried, refused = map(lambda n: int(n.replace(",", "")), re.search(
        r"3 games, ([\d,]+) positions, ([\d,]+) legal actions and ([\d,]+) illegal", out).groups())
    assert positions > 50 and tried >= positions and refused > 0


def test_the_tutorial_engine_passes(registry, capsys):
    code, out = run(capsys, str(TICKER / "ticker.py"), "--spec", SPEC, "--games", "10")
    assert code == 0
    lines = out.splitlines()[1:-1]
    assert len(lines) == len(CHECKS) and [line.split()[1] for line in lines if not line.startswith("  ok")] == [
        "invariants", "playout"]  # none to check: a test's invariants, a fast playout


@pytest.mark.parametrize("name", list(BROKEN))
def test_each_broken_engine_is_reported_under_its_check_with_a_seed(registry, tmp_path, capsys, name):
    old, new, check = BROKEN[name]
    assert ENGINE.count(old) == 1
    broken = tmp_path / "ticker.py"  # the game's name is the file's: the spec's game
    text = ENGINE.replace(old, new)
    broken.write_text(text.replace("playout=False", "playout=True") if name == "playout" else text, encoding="utf-8")
    code, out = run(capsys, str(broken), "--spec", SPEC, "--games", "4", "--seed", "40", "--max-actions", "100")
    assert code == 1
    failed = [line.split()[1:] for line in out.splitlines() if line.startswith("  FAIL")]
    assert check in [" ".join(words[:-2]) if words[-1] == "games)" else " ".join(words) for words in failed]
    seeds = [int(seed) for seed in re.findall(r"^ +seed (\d+), after \d+ actions", out, re.M)]
    assert seeds and all(40 <= seed < 44 for seed in seeds)
    again = re.search(r"again with: --games 1 --seed (\d+)$", out.strip()).group(1)
    code, out = run(capsys, str(broken), "--spec", SPEC, "--games", "1", "--seed", again, "--max-actions", "100")
    assert code == 1 and f"seed {again}," in out  # the seed shows it again, alone


def test_a_game_the_spec_lacks_or_an_unknown_one_is_a_usage_error(capsys):
    assert main(["engine", "check", "nosuch"]) == 2
    assert 'unknown game "nosuch"' in capsys.readouterr().err
