"""The `pnp` command as a user runs it: exit codes, messages, no tracebacks, light imports.

`python -m pnp` in a process of its own where the process is what is tested (its exit status and
what it prints on a spec error); elsewhere `pnp.cli.main` in this process, from the user's folder
(`in_process.pnp_here`), without a second of start-up per call."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from in_process import pnp_here
from test_build_cli import TINY

ROOT = Path(__file__).resolve().parents[1]


def pnp(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The command as a user runs it, from `cwd`, with this checkout's pnp."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env=env)


def test_version():
    result = pnp("--version")
    assert result.returncode == 0 and result.stdout.startswith("pnp ")


def test_validate_bundled_spec_summarises_games_and_counts(tmp_path, capsys):
    result = pnp_here(capsys, "validate", cwd=tmp_path)  # no ./components.yaml here: the bundled one is used
    assert result.returncode == 0, result.stderr
    assert "bolsa: The Stock Exchange Game" in result.stdout  # the spec's title, in its source language
    assert "shares           deck      90" in result.stdout
    assert "small_cards      deck      32" in result.stdout


def _bundled_with_fewer_shares() -> str:
    text = (ROOT / "components.yaml").read_text(encoding="utf-8").replace("count: 18", "count: 12")
    return text.replace("players: {min: 3, max: 6}", "players: {min: 3, max: 4}", 1)  # 12 cards a company seat 4


@pytest.mark.parametrize("local, summarised, not_summarised", [
    # The fast lane: a one-game spec of its own (laid out in a blink); the bundled games are not in the summary.
    pytest.param(lambda: TINY, "tiny: Tiny", "bolsa:", id="tiny"),
    # The bundled spec edited, laid out whole (2 s of validate's layout): its edited count is summarised.
    pytest.param(_bundled_with_fewer_shares, "shares           deck      60", "shares           deck      90",
                 id="bundled-edited", marks=pytest.mark.slow),
])
def test_local_components_yaml_wins_over_the_bundled_one(tmp_path, capsys, local, summarised, not_summarised):
    (tmp_path / "components.yaml").write_text(local(), encoding="utf-8")
    result = pnp_here(capsys, "validate", cwd=tmp_path)
    assert result.returncode == 0 and summarised in result.stdout and not_summarised not in result.stdout


def test_broken_spec_exits_2_with_located_lines_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((ROOT / "components.yaml").read_text(encoding="utf-8").replace('"#d55e00", symbol: square', '"blu", symbol: square'))
    result = pnp("validate", str(bad), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("bad.yaml:") and "expected a colour" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_missing_spec_file(tmp_path, capsys):
    result = pnp_here(capsys, "validate", "nope.yaml", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.strip() == "nope.yaml: no such file"


def test_subcommands_have_help(capsys):
    for args in (("build", "--help"), ("referee", "--help"), ("referee", "check", "--help"), ("validate", "--help")):
        result = pnp_here(capsys, *args, cwd=ROOT)
        assert result.returncode == 0 and "usage: pnp" in result.stdout


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    block = readme.split("```sh", 1)[1].split("```", 1)[0].strip().splitlines()
    install_and_build, install_and_test = (line.split("#")[0].strip() for line in block[:2])
    assert install_and_build == "pip install . && pnp build"
    assert install_and_test == 'pip install -e ".[test]" && scripts/test'
    assert install_and_test in ci.splitlines()
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert "apt_get install -y chromium" in script and script.rstrip().endswith('exec python -m pytest "$@"')


def test_an_output_folder_that_cannot_be_written_is_a_readable_error(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = pnp_here(capsys, "build", "--game", "bolsa", "--out", str(blocker / "output"), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith(f"cannot write the output folder {blocker / 'output'}: ")
    assert "Traceback" not in result.stderr and blocker.read_text() == "not a folder"


def test_referee_usage_errors_exit_2(capsys):
    assert pnp_here(capsys, "referee", "new", "chess", "--players", "A,B", cwd=ROOT).returncode == 2
    assert pnp_here(capsys, "referee", "new", "bolsa", "--players", "A,A,B", cwd=ROOT).returncode == 2
