"""docs/your-game.md's commands, run as written: the tutorial's game (examples/ticker, a one-file
engine) checked, refereed, simulated with every bot, tuned, and installed as a package whose
entry point registers it. The quick ones run in-process; simulate, tune and the install are slow."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from pnp.cli import main
from pnp.rules import GAMES
from pnp.rules.registry import ENVIRONMENT

ROOT = Path(__file__).parents[1]
DOC = (ROOT / "docs" / "your-game.md").read_text(encoding="utf-8")


def commands() -> list[tuple[str, int]]:
    """Every command of the tutorial's `sh` blocks, with the exit status it states (`# exit 1`)."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", DOC, re.S):
        for line in block.splitlines():
            command, _, comment = line.partition("  # ")
            status = re.match(r"exit (\d)", comment)
            found.append((command.strip(), int(status.group(1)) if status else 0))
    return found


COMMANDS = commands()
SLOW = ("simulate", "tune", "pip ", " build ")
PIP = next(n for n, (command, _) in enumerate(COMMANDS) if command.startswith("pip "))
INSTALLED = [command for command, _ in COMMANDS[PIP + 1:]]  # run where the package is installed


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(GAMES, "_games", dict(GAMES.items()))
    monkeypatch.setenv(ENVIRONMENT, "")  # restored (unset) after the test, whatever --engine sets
    monkeypatch.chdir(ROOT)


def run(capsys, command: str) -> tuple[int, str]:
    code = main(shlex.split(command)[1:])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_the_tutorial_lists_its_commands_and_the_engine_is_under_200_lines():
    assert len(COMMANDS) == 11 and len(INSTALLED) == 1
    assert len((ROOT / "examples" / "ticker" / "ticker.py").read_text(encoding="utf-8").splitlines()) < 200


@pytest.mark.parametrize("command, status", [(c, s) for c, s in COMMANDS if "--engine" in c and not any(
    word in c for word in SLOW)] + [c for c in COMMANDS if c[0].startswith("pnp engine")])
def test_each_quick_command_runs_as_written(registry, capsys, command, status):
    code, out = run(capsys, command)
    assert code == status, out
    if "dispute.yaml" in command:  # the sentence the tutorial quotes
        quoted = re.search(r"`(dispute\.yaml:14: actions\[5\]: illegal — TICK-3\.3: Ben holds\s+no card GRN\+2)`", DOC)
        assert " ".join(quoted.group(1).split()) in out
    if command.startswith("pnp engine"):
        assert out.splitlines()[-1] == "all checks pass" and "20 games" in out


@pytest.mark.slow
def test_simulate_with_every_bot_as_the_tutorial_says(registry, capsys):
    command = next(c for c, _ in COMMANDS if " simulate " in c)
    code, out = run(capsys, command + " --json")
    assert code == 0, out

    answer = json.loads(out)
    rates = {bot: answer["bot_win_rate"][bot]["win_rate"]["value"] for bot in ("random", "greedy", "search")}
    assert answer["games"] == 200 and all(answer["bot_win_rate"][bot]["seats"] == 200 for bot in rates)
    crash = next(v for v in answer["verdict"] if v["kind"] == "ends")["shares"]["crash"]
    assert 0.8 <= rates["search"] <= 1 and 0.03 <= crash <= 0.2  # "about 9 in 10", "about one game in ten"


def test_the_booklet_prints_the_worked_example_the_engine_plays(registry, capsys, tmp_path):
    """The build command as written, its --out a temporary folder: the booklet's worked example
    is the engine's events, as the tutorial quotes them."""
    from pypdf import PdfReader

    command = next(c for c, _ in COMMANDS if " build " in c).replace("--out ticker-kit", f"--out {tmp_path}")
    code, out = run(capsys, command)
    assert code == 0, out
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(tmp_path / "ticker" / "rules.pdf").pages)
    quoted = re.findall(r"`(TICK-3\.\d [^`]+)`", DOC.split("## 6 ")[1].split("## 7 ")[0])
    assert len(quoted) == 2 and "Example TICK-X1 — A first round" in text
    assert all(line in text for line in quoted) and "Ben trades 6 RED at 5" in text


@pytest.mark.slow
def test_tune_one_rule_as_written(registry, capsys):
    command = next(c for c, _ in COMMANDS if " tune " in c)
    code, out = run(capsys, command)
    assert code == 0, out
    met = re.search(r"(\d) values? tried meets? every target", out)
    assert met and int(met.group(1)) >= 1, out
    crash = [float(x) for x in re.findall(r"rules\.hand = [2-5]: ends\.crash ([\d.]+) \[", out)]
    assert len(crash) == int(met.group(1)) and all(0.1 <= c <= 0.2 for c in crash), out


@pytest.mark.slow
def test_installed_by_its_entry_point_the_game_needs_no_engine_option(tmp_path):
    """A fresh virtual environment that sees this pnp (a .pth line), the tutorial's pip command
    run in it, then its command without --engine, in another process: the entry point alone
    registers the game."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(site, "pnp-under-test.pth").write_text(f"import site; site.addsitedir({ours!r})\n", encoding="utf-8")
    pip = COMMANDS[PIP][0]
    done = subprocess.run([str(python), "-m", *shlex.split(pip)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    clean = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # no PNP_ENGINES: the entry point alone
    for command in INSTALLED:
        done = subprocess.run([str(python), "-m", *shlex.split(command)], cwd=ROOT, capture_output=True, text=True,
                              env=clean)
        assert done.returncode == 0, done.stderr
        assert "examples/ticker/game.yaml: all 6 actions legal" in done.stdout
    listed = subprocess.run([str(python), "-c", "from pnp.rules import GAMES; print(list(GAMES))"], cwd=tmp_path,
                            capture_output=True, text=True, check=True, env=clean).stdout
    assert listed.strip() == "['aktsioner', 'bolsa', 'forex', 'ticker']"  # pnp's own first
