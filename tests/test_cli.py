"""The `pnp` command as a user runs it: exit codes, messages, no tracebacks, light imports.

`python -m pnp` in a process of its own where the process is what is tested (its exit status and
what it prints on a spec error); elsewhere `pnp.cli.main` in this process, from the user's folder
(`in_process.pnp_here`), without a second of start-up per call."""

from __future__ import annotations

import os
import shutil
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


def _bare_machine(tmp_path: Path, apt_get: str) -> dict[str, str]:
    """A PATH with neither chromium nor Ghostscript, where `apt-get` runs `apt_get` (a shell body) and
    `python` records its arguments: what scripts/test does on a fresh machine, without doing it."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in ("bash", "grep", "dirname", "sleep", "cat"):
        (bin_ / tool).symlink_to(shutil.which(tool))
    for name, body in (("apt-get", apt_get), ("id", "echo 0"), ("python", f'echo "$@" > {tmp_path}/pytest-args')):
        (bin_ / name).write_text(f"#!/bin/bash\n{body}\n")
        (bin_ / name).chmod(0o755)
    return {"PATH": str(bin_), "HOME": str(tmp_path)}


def test_scripts_test_installs_what_is_missing_then_runs_everything_on_every_core(tmp_path):
    env = _bare_machine(tmp_path, f'echo "$@" >> {tmp_path}/apt-calls')
    result = subprocess.run([str(ROOT / "scripts" / "test")], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    calls = (tmp_path / "apt-calls").read_text().splitlines()
    assert [c.split()[-1] for c in calls[:1]] == ["update"] and calls[1].endswith("install -y chromium ghostscript")
    assert (tmp_path / "pytest-args").read_text().split() == ["-m", "pytest", "-n", "auto", "--dist", "loadfile"]


def test_scripts_test_waits_for_apt_s_lock_then_says_why_it_gave_up(tmp_path):
    env = _bare_machine(tmp_path, 'echo "E: Could not get lock /var/lib/apt/lists/lock" >&2; exit 100')
    result = subprocess.run([str(ROOT / "scripts" / "test"), "-x"], env={**env, "PNP_APT_WAIT": "0"},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and not (tmp_path / "pytest-args").exists()
    assert result.stderr.strip().splitlines()[-1].startswith("scripts/test: another process has held apt's lock")


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
