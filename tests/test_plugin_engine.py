"""A game's rules in one file, registered the one way (an entry point of `pnp.games`, or
`pnp --engine FILE.py` for a run), refereed through generic records with no referee code of its
own; and a spec that never runs code: a game whose engine is neither installed nor given is
refused at its `rules:` line, and nothing in the spec's folder is imported."""

from __future__ import annotations

import random
import shutil
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from pnp.cli import main
from pnp.referee import check, reads_record
from pnp.referee import record as records
from pnp.referee.replay import referee_for, state_json
from pnp.rules import GAMES, load_spec, register_file
from pnp.rules.contract import play
from pnp.rules.registry import ENVIRONMENT

TICKER = Path(__file__).parents[1] / "examples" / "ticker"
SPEC = TICKER / "components.yaml"
PLAYERS = ("Ana", "Ben", "Cris")


@pytest.fixture
def registry(monkeypatch):
    """GAMES as the entry points make it, restored after the test (a file registered stays out
    of the other tests of this process)."""
    monkeypatch.setattr(GAMES, "_games", dict(GAMES.items()))
    monkeypatch.setenv(ENVIRONMENT, "")  # restored (unset) after the test, whatever --engine sets
    return GAMES


def test_the_bundled_games_are_registered_by_their_entry_points():
    points = {point.name: point.value for point in entry_points(group="pnp.games")}
    assert {"bolsa", "aktsioner", "forex"} <= set(points)
    assert {game: GAMES[game].rules for game in ("bolsa", "aktsioner", "forex")} == {
        game: points[game] for game in ("bolsa", "aktsioner", "forex")}
    assert [GAMES[game].engine.__name__ for game in ("bolsa", "forex")] == ["pnp.rules.bolsa.engine",
                                                                           "pnp.rules.forex.engine"]


def played(seed: int, count: int | None = None) -> tuple[str, object, list]:
    """A random game of Ticker from its deal, written as a generic record (its first `count`
    actions), with the engine's last position."""
    engine = GAMES["ticker"].engine
    p = engine.params(load_spec(SPEC).games["ticker"])
    rng = random.Random(seed)
    start = engine.deal(p, PLAYERS, rng)
    state, _ = engine.setup(p, PLAYERS, start)
    steps = list(play(engine, state, p, rng))[:count]
    text = records.dump(referee_for("ticker").record(p, PLAYERS, [a for a, _, _ in steps], start=start))
    return text, steps[-1][1] if steps else state, steps


@pytest.mark.parametrize("seed", range(4))
def test_a_generic_record_of_a_random_game_replays_to_the_engines_position(registry, seed):
    register_file(TICKER / "ticker.py")
    text, last, steps = played(seed)
    answer = check(reads_record(text, "game.yaml"), SPEC)
    assert answer.ok and answer.checked == len(steps) > 0
    assert answer.state == last
    assert state_json("ticker", answer.state, answer.params)["over"] is True
    assert len(answer.events) == sum(len(events) for _, _, events in steps)


def test_the_command_line_referees_a_file_given_with_engine(registry, tmp_path, capsys):
    engine = str(TICKER / "ticker.py")
    assert main(["--engine", engine, "referee", "new", "ticker", "--players", "Ana,Ben", "--seed", "2",
                 "--spec", str(SPEC)]) == 0
    starter = capsys.readouterr().out
    assert "game: ticker" in starter and "actions: []" in starter
    text, _, _ = played(5, count=4)
    lines = text.splitlines()
    first = next(n for n, line in enumerate(lines) if line.startswith("- {player: Ana"))
    lines[first] = lines[first].replace("player: Ana", "player: Ben")
    record = tmp_path / "game.yaml"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["--engine", engine, "referee", "check", str(record), "--spec", str(SPEC)]) == 1
    out = capsys.readouterr().out
    assert f"game.yaml:{first + 1}: actions[0]: illegal — TICK-3:" in out


def test_an_engine_file_that_is_missing_or_no_engine_is_a_usage_error(registry, tmp_path, capsys):
    assert main(["--engine", str(tmp_path / "none.py"), "referee", "new", "x", "--players", "A,B"]) == 2
    assert "no such Python file" in capsys.readouterr().err
    half = tmp_path / "half.py"
    half.write_text("RULEBOOK = None\ndef setup(): pass\n", encoding="utf-8")
    assert main(["--engine", str(half), "referee", "new", "half", "--players", "A,B"]) == 2
    err = capsys.readouterr().err
    assert "not a rules engine, it lacks ABOUT, Start" in err and "half" not in GAMES
    broken = tmp_path / "broken.py"
    broken.write_text("x = 1\n\nraise ValueError('nope')\n", encoding="utf-8")
    assert main(["--engine", str(broken), "referee", "new", "broken", "--players", "A,B"]) == 2
    assert f"{broken}:3: the engine does not load: ValueError: nope" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["validate"], ["referee", "check", "game.yaml"],
                                     ["referee", "new", "ticker", "--players", "Ana,Ben"],
                                     ["simulate", "ticker", "--games", "10"]])
def test_a_spec_never_loads_the_engine_beside_it(registry, tmp_path, capsys, monkeypatch, command):
    """The spec's folder holds a ticker.py that would leave a file behind if imported: every
    command refuses the game (exit 2), those that read the spec at its `rules:`, and nothing
    is imported."""
    folder = tmp_path / "forum"
    folder.mkdir()
    shutil.copy(SPEC, folder / "components.yaml")
    trap = folder / "ticker.py"
    trap.write_text(f"open({str(tmp_path / 'imported')!r}, 'w').write('ran')\n"
                    + (TICKER / "ticker.py").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "game.yaml").write_text("game: ticker\nplayers: [Ana, Ben]\nactions: []\n", encoding="utf-8")
    monkeypatch.chdir(folder)
    assert main([*command, "--spec", "components.yaml"]) == 2
    err = capsys.readouterr().err
    line = next(n for n, text in enumerate(SPEC.read_text(encoding="utf-8").splitlines(), 1) if text.strip() == "start_cash: 30")
    assert "pnp --engine FILE.py" in err and (f"components.yaml:{line}:" in err or command[0] == "simulate")
    assert not (tmp_path / "imported").exists() and "ticker" not in GAMES


def test_an_installation_without_the_entry_points_says_how_to_mend_it(monkeypatch, capsys):
    """pnp installed before its games were entry points (an old editable install): one clear
    error, exit 2, naming the command that mends it, not an empty registry."""
    from pnp.rules import registry

    monkeypatch.setattr(registry, "entry_points", lambda group: [])
    monkeypatch.setattr(GAMES, "_games", None)
    assert main(["referee", "new", "bolsa", "--players", "Ana,Ben"]) == 2
    err = capsys.readouterr().err
    assert "which this installation lacks" in err and "pip install -e ." in err


@pytest.mark.parametrize("body, status, said", [
    ("start: {deck: [RED+1]}\nactions: []\n", 1, "game.yaml:3: start: illegal — TICK-2.2:"),
    ("start: {deck: [RED+1], hands: 3}\nactions: []\n", 2, "game.yaml:3:24: start.hands: unknown key (keys: deck)"),
    ("actions: [{player: Ana, kind: turn, company: RED, card: RED-2, shares: 0, colour: 1}]\n", 2,
     "game.yaml:3:11: actions[0]: colour is not a value of turn (its values: card, shares, company)"),
    ("actions: [7]\n", 2, 'game.yaml:3:11: actions[0]: an action is a mapping with its "kind"'),
    ("actions: [{player: Ana, kind: turn, company: RED, card: RED-2, shares: 0},\n"
     "          {player: Ana, kind: turn, company: RED, card: RED-1, shares: 0}]\n", 1,
     "game.yaml:4: actions[1]: illegal — TICK-3: it is Ben's turn, not Ana's"),
])
def test_a_generic_record_is_read_and_refused_at_its_place(registry, tmp_path, capsys, body, status, said):
    record = tmp_path / "game.yaml"
    record.write_text("game: ticker\nplayers: [Ana, Ben]\n" + body, encoding="utf-8")
    assert main(["--engine", str(TICKER / "ticker.py"), "referee", "check", str(record), "--spec", str(SPEC)]) == status
    captured = capsys.readouterr()
    assert said in captured.out + captured.err and "Traceback" not in captured.err
