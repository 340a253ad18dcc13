"""Crash-proof publishing: a build killed at any step of putting its output in place leaves a
complete `output/` (the old build or the new one), a killed build's render workers die with it,
and what killed builds leave beside the output is cleaned up by the next one."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pnp import manifest
from pnp.cli import main
from test_build_cli import TINY

ROOT = Path(__file__).resolve().parents[1]

# A build in a fresh process of a one-game spec (a deck of five cards and an aid: quick to draw,
# and published as any build is), which kills itself (SIGKILL, nothing cleaned up) at the
# KILL_AT-th step of publishing: a rename, the exchange of the folders, or removing the old copy.
KILLED_BUILD = textwrap.dedent("""
    import os, shutil, signal, sys
    from pnp import manifest
    from pnp.cli import main

    kill_at, exchange = int(sys.argv[1]), sys.argv[2] == "exchange"
    steps = [0]

    def step(real):
        def counted(*args, **kwargs):
            steps[0] += 1
            if steps[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)
        return counted

    publish = manifest.publish
    def publishing(*args, **kwargs):
        os.rename, shutil.rmtree = step(os.rename), step(shutil.rmtree)
        manifest._exchange = step(manifest._exchange if exchange else lambda a, b: False)
        return publish(*args, **kwargs)

    manifest.publish = publishing
    sys.exit(main(["build", "-q", *sys.argv[3:]]))
""")


def complete(out: Path) -> str:
    """The paper size of the complete build in `out` (its manifest, and every file it lists
    with its digest); fails when the folder is not one whole build."""
    data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for entry in data["files"]:
        assert hashlib.sha256((out / entry["path"]).read_bytes()).hexdigest() == entry["sha256"], entry["path"]
    assert (out / "index.html").is_file() and (out / ".cache" / "used.json").is_file()
    return data["print"]["paper"]


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}-"))


@pytest.fixture(scope="module")
def spec(tmp_path_factory) -> Path:
    found = tmp_path_factory.mktemp("spec") / "tiny.yaml"
    found.write_text(TINY, encoding="utf-8")
    return found


@pytest.fixture(scope="module")
def old_build(tmp_path_factory, spec) -> Path:
    """The previous output each killed build replaces: built here, in this process (nothing is killed)."""
    out = tmp_path_factory.mktemp("publish") / "output"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["build", "-q", "--spec", str(spec), "--out", str(out)]) == 0
    assert complete(out) == "a4"
    return out


@pytest.mark.parametrize("exchange", ["exchange", "two renames"])
@pytest.mark.parametrize("kill_at", [pytest.param(1, marks=pytest.mark.slow), 2, pytest.param(3, marks=pytest.mark.slow),
                                     pytest.param(4, marks=pytest.mark.slow)])  # the fast lane: the second step
def test_a_kill_between_the_steps_of_publishing_leaves_a_complete_output(old_build, spec, tmp_path, kill_at, exchange):
    out = tmp_path / "output"
    subprocess.run(["cp", "-a", str(old_build), str(out)], check=True)
    result = subprocess.run([sys.executable, "-c", KILLED_BUILD, str(kill_at), exchange, "--spec", str(spec), "--out", str(out),
                             "--paper", "letter"], cwd=ROOT, capture_output=True, text=True)
    killed = result.returncode == -signal.SIGKILL
    assert killed or result.returncode == 0, result.stderr  # kill_at past the last step: the build ends
    if exchange == "exchange" or not killed:
        assert complete(out) in ("a4", "letter")  # at every instant, without any recovery
    manifest.recover(out)  # what the next build does first (`pnp.build.request`)
    paper = complete(out)
    assert paper == "letter" if not killed else paper in ("a4", "letter")
    assert leftovers(out) == []


def test_the_kill_between_the_two_renames_is_undone_at_the_next_start(old_build, spec, tmp_path):
    out = tmp_path / "output"
    subprocess.run(["cp", "-a", str(old_build), str(out)], check=True)
    result = subprocess.run([sys.executable, "-c", KILLED_BUILD, "3", "two renames", "--spec", str(spec), "--out", str(out),
                             "--paper", "letter"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == -signal.SIGKILL  # after the exchange (refused) and the first rename
    assert not out.exists() and len(leftovers(out)) == 2  # the old output renamed aside, the new one staged
    manifest.recover(out)
    assert complete(out) == "a4" and leftovers(out) == []  # the previous build, as it was


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table from Linux's /proc")
@pytest.mark.slow  # the fast lane kills builds between publishing's steps (above)
def test_after_kill_9_of_a_build_no_process_of_it_remains(tmp_path):
    out = tmp_path / "output"
    build = subprocess.Popen([sys.executable, "-m", "pnp", "build", "-q", "--out", str(out)], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and build.poll() is None:
            workers = {p for p in _children(build.pid) if _alive(p)}
            if len(workers) >= 2 or (os.cpu_count() or 1) < 2 and (out / ".cache").exists():
                break
            time.sleep(0.05)
        assert build.poll() is None, "the build ended before it was seen rendering"
        os.kill(build.pid, signal.SIGKILL)
        build.wait()
        if (os.cpu_count() or 1) >= 2:
            assert workers  # it was rendering in forked workers
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.05)
        assert [p for p in workers if _alive(p)] == []
    finally:
        if build.poll() is None:
            build.kill()
