"""A kill at any instant of a save leaves the old file or the new one, and the next run works
(issue #42). Each command is run once to count its write steps (tests/kill_at.py: a file opened
to be written, a rename, a removal inside its folder), then killed with SIGKILL just before each
step in turn: `pnp translate update` (a changed source: the template and both catalogs rewritten),
`pnp schema -o` over an older schema, and `pnp build --printed` over an earlier build (the
mark, in the manifest published with the output). After each kill every file is its old or its
new bytes, and running the command again exits 0 and leaves the new ones. All three are killed
before every step in the slow lane; the fast lane kills `schema -o` at every
step, `translate update` at its middle one, and a build as it writes the manifest with its mark
and just after it publishes the output (which renameat2 does in one step)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from fuzz_files import TINY

ROOT = Path(__file__).resolve().parents[1]
KILL_AT = ROOT / "tests" / "kill_at.py"
SPEC = TINY.replace(", IMAGE", "")
EDITED = SPEC.replace("Draw a card, then", "Draw two cards, then")  # a changed source text


def pnp(folder: Path, *args: str, kill_at: int = 0) -> subprocess.CompletedProcess[str]:
    """`pnp ARGS` in `folder` in a process of its own, killed before write step `kill_at` (0: never)."""
    return subprocess.run([sys.executable, str(KILL_AT), str(kill_at), str(folder), "pnp", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, env={**os.environ, "PNP_CACHE": "off"})


def steps(run: subprocess.CompletedProcess[str]) -> int:
    assert run.returncode == 0, run.stderr[-2000:]
    return int(run.stderr.rsplit("write steps: ", 1)[1])


def snapshot(folder: Path, names: list[str]) -> dict[str, bytes | None]:
    """The files' bytes (None: missing), a template's date of making left out (a run a minute
    later writes another)."""
    return {name: re.sub(rb'"POT-Creation-Date: [^"]*"', b"", (folder / name).read_bytes())
            if (folder / name).is_file() else None for name in names}


def killed_everywhere(tmp_path: Path, before: Path, args: tuple[str, ...], names: list[str],
                      at: list[int] | None = None, settled: Callable[[Path], object] | None = None) -> int:
    """Run `args` in copies of `before`: once whole (the new files), then killed before each write
    step (or those of `at`); after each kill every file of `names` is old or new, and the command
    run again ends with the new files (or, with `settled`, with what it reads of the folder as
    the whole run left it). Returns the steps."""
    old = snapshot(before, names)
    whole = tmp_path / "whole"
    shutil.copytree(before, whole, symlinks=True)
    count = steps(pnp(whole, *args))
    new = snapshot(whole, names)
    assert new != old
    for step in at if at is not None else range(1, count + 1):
        folder = tmp_path / f"killed-{step}"
        shutil.copytree(before, folder, symlinks=True)
        killed = pnp(folder, *args, kill_at=step)
        assert killed.returncode == -9, (step, killed.stderr[-1000:])
        for name, data in snapshot(folder, names).items():
            assert data in (old[name], new[name]), f"{name} torn by a kill before write step {step} of {count}"
        again = pnp(folder, *args)
        assert again.returncode == 0, (step, again.stderr[-1000:])
        finished = settled(folder) == settled(whole) if settled else snapshot(folder, names) == new
        assert finished, f"the run after a kill before step {step} did not finish the save"
        shutil.rmtree(folder)
    return count


@pytest.fixture
def translated(tmp_path):
    """A game with its catalogs, then a source text changed: what `translate update` rewrites."""
    folder = tmp_path / "before"
    folder.mkdir()
    (folder / "components.yaml").write_text(SPEC, encoding="utf-8")
    assert steps(pnp(folder, "translate", "update", "--spec", "components.yaml")) > 0
    (folder / "components.yaml").write_text(EDITED, encoding="utf-8")
    return folder


EVERY = pytest.param("every", marks=pytest.mark.slow)


@pytest.mark.parametrize("where", ["the middle one", EVERY])
def test_a_killed_translate_update_leaves_each_catalog_old_or_new(tmp_path, translated, where):
    names = ["locale/dash.pot", "locale/es/dash.po", "locale/ru/dash.po"]
    args = ("translate", "update", "--spec", "components.yaml")
    count = steps(pnp(_copy(translated, tmp_path / "count"), *args))
    assert count >= 2 * len(names)  # at least a temporary file and its rename each
    assert killed_everywhere(tmp_path, translated, args, names, None if where == "every" else [count // 2]) == count


def test_a_killed_schema_leaves_the_old_schema_or_the_new(tmp_path):
    folder = tmp_path / "before"
    folder.mkdir()
    (folder / "components.schema.json").write_text('{"an": "older schema"}\n', encoding="utf-8")
    assert killed_everywhere(tmp_path, folder, ("schema", "-o", "components.schema.json"),
                             ["components.schema.json"]) >= 2


@pytest.fixture
def built(tmp_path):
    """An earlier build (no print marked), then an edit: what `build --printed` replaces."""
    folder = tmp_path / "before"
    folder.mkdir()
    (folder / "components.yaml").write_text(SPEC.replace("languages: [es, en, ru]", "languages: [es]"), encoding="utf-8")
    assert steps(pnp(folder, "build", "--spec", "components.yaml", "--out", "out", "-q")) > 0
    (folder / "components.yaml").write_text(EDITED.replace("languages: [es, en, ru]", "languages: [es]"), encoding="utf-8")
    return folder


def marks(folder: Path) -> object:
    return json.loads((folder / "out" / "manifest.json").read_text(encoding="utf-8")).get("printed")


def marked(folder: Path) -> tuple[object, bytes]:
    """What a build marked as printed leaves: its mark and its print file (a second build's
    manifest says, rightly, that nothing changed since the first)."""
    return marks(folder), (folder / "out" / "dash" / "dash-all.pdf").read_bytes()


@pytest.mark.parametrize("where", ["about the mark", EVERY])
def test_a_killed_build_printed_leaves_the_old_output_or_the_new_with_its_mark(tmp_path, built, where):
    args = ("build", "--spec", "components.yaml", "--out", "out", "--printed", "-q")
    counted = pnp(_copy(built, tmp_path / "count"), *args)
    count, taken = steps(counted), re.findall(r"^step (\d+): (\S+) (.*)$", counted.stderr, re.M)
    mark = [int(n) for n, _, path in taken if path.endswith(".tmp") and ".manifest.json." in path]
    published = [int(n) for n, event, path in taken  # the old output, swapped aside, removed
                 if int(n) > mark[-1] and event in ("shutil.rmtree", "os.remove") and ".out-building-" in path]
    at = None if where == "every" else [mark[0], published[0]]
    names = ["out/manifest.json", "out/dash/dash-all.pdf", "out/index.html"]
    assert killed_everywhere(tmp_path, built, args, names, at, settled=marked) == count
    assert marks(built) is None and marks(tmp_path / "whole")


def _copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target, symlinks=True)
    return target
