"""`pnp build`, `watch` and `init` as a designer runs them: progress on a terminal only,
`--component`, forgiving `--game`/`--paper`, one `--spec` everywhere, an editable copy of the
bundled spec, and a watcher that follows saves and survives a broken one.

A process of its own where the process matters (progress on its terminal, a watcher that runs
until stopped); `pnp.cli.main` in this one elsewhere (`in_process.pnp_here`)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import queue
import select
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

from in_process import pnp_here
from pnp.cli import main
from spec_text import BUNDLED

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's pnp, run from any folder
# one small game: a deck of five cards and an aid, quick to build
TINY = """\
print: {paper: a4}
games:
  tiny:
    title: Tiny
    players: {min: 2, max: 4}
    companies:
      - {id: A, name: Alpha, color: "#0072b2", symbol: circle}
    components:
      - id: cards
        kind: deck
        name: Cards
        cards:
          - {count: 5, value: "7", title: Card}
      - id: aid
        kind: aid
        name: Aid
        sections:
          - lines: ["Draw a card."]
"""


def on_a_terminal(*args: str, cwd: Path) -> tuple[int, str, str]:
    """Run pnp with stderr on a pseudo-terminal and stdout on a pipe: (status, terminal, stdout)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 24 rows, 100 columns
    env = {**ENV, "TERM": "xterm"}
    process = subprocess.Popen([sys.executable, "-m", "pnp", *args], cwd=cwd, stdout=subprocess.PIPE,
                               stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    out = process.stdout.read().decode()
    os.close(master)
    return process.wait(timeout=60), seen.decode(errors="replace"), out


def test_progress_shows_on_a_terminal_only_and_q_silences_it(tmp_path, capsys):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(TINY, encoding="utf-8")
    status, terminal, out = on_a_terminal("build", "--spec", str(spec), "--out", "o1", cwd=tmp_path)
    assert status == 0 and "tiny" in terminal and "2/2" in terminal  # a bar per game, counting components
    assert out.startswith("built tiny from tiny.yaml: ")
    status, terminal, out = on_a_terminal("build", "--spec", str(spec), "--out", "o2", "-q", cwd=tmp_path)
    assert status == 0 and terminal == "" and out.startswith("built tiny")
    piped = pnp_here(capsys, "build", "--spec", str(spec), "--out", "o3", cwd=tmp_path)  # stderr no terminal
    assert piped.returncode == 0 and piped.stderr == "" and piped.stdout.count("\n") == 1  # the summary alone


def test_component_builds_only_those_and_keeps_the_rest(tmp_path):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(TINY, encoding="utf-8")
    out = tmp_path / "output"
    assert main(["build", "--spec", str(spec), "--out", str(out), "-q", "--gallery"]) == 0
    before = {p.name: p.read_bytes() for p in (out / "tiny").iterdir() if p.is_file()}
    spec.write_text(TINY.replace('value: "7"', 'value: "8"').replace("Draw a card.", "Draw two cards."), encoding="utf-8")
    assert main(["build", "--spec", str(spec), "--out", str(out), "--component", "Tiny/AID", "-q", "--gallery"]) == 0
    after = {p.name: p.read_bytes() for p in (out / "tiny").iterdir() if p.is_file()}
    assert sorted(p.name for p in (out / "tiny" / "gallery").iterdir()) == ["aid-panel.jpg", "cards-back.jpg",
                                                                          "cards-front-01.jpg"]
    assert after.keys() == before.keys()
    assert after["aid.pdf"] != before["aid.pdf"]
    assert after["cards.pdf"] == before["cards.pdf"] and after["tiny-all.pdf"] == before["tiny-all.pdf"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert {(c["component"], tuple(c["sheets"])) for c in manifest["changed"]} == {("aid", (1,))}
    listed = {f["path"]: f["sha256"] for f in manifest["files"]}
    assert set(listed) == {f"tiny/{name}" for name in after}


def test_game_paper_duplex_and_component_forgive_letter_case_and_suggest(tmp_path, capsys):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(TINY, encoding="utf-8")
    out = str(tmp_path / "o")
    assert main(["build", "--spec", str(spec), "--out", out, "--game", "TINY", "--paper", "Letter", "--duplex", "NONE",
                 "-q"]) == 0
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert manifest["print"] == {"paper": "letter", "duplex": "none"}
    for args, message in ((["--game", "tiney"], '--game tiney: no such game (did you mean "tiny"?)'),
                          (["--paper", "A5"], '--paper A5: no such paper (known: a4, letter)'),
                          (["--component", "card"], '--component card: no such component (did you mean "cards"?)')):
        assert main(["build", "--spec", str(spec), "--out", out, *args]) == 2
        assert capsys.readouterr().err.strip() == message


def test_validate_takes_the_spec_as_argument_or_as_spec(tmp_path, capsys):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(TINY, encoding="utf-8")
    for args in (["validate", "tiny.yaml"], ["validate", "--spec", "tiny.yaml"]):
        result = pnp_here(capsys, *args, cwd=tmp_path)
        assert result.returncode == 0 and result.stdout.startswith("tiny.yaml: valid")


def test_init_writes_an_editable_copy_and_replaces_a_link_to_the_bundled_spec(tmp_path, capsys):
    copied = "# yaml-language-server: $schema=components.schema.json\n" + BUNDLED  # names the schema beside it
    result = pnp_here(capsys, "init", "game", cwd=tmp_path)
    copy = tmp_path / "game" / "components.yaml"
    assert result.returncode == 0 and copy.read_text(encoding="utf-8") == copied and not copy.is_symlink()
    again = pnp_here(capsys, "init", "game", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr
    copy.write_text("mine", encoding="utf-8")
    assert pnp_here(capsys, "init", "game", "--force", cwd=tmp_path).returncode == 0 and copy.read_text(encoding="utf-8") == copied
    link = tmp_path / "checkout"
    link.mkdir()
    (link / "components.yaml").symlink_to(ROOT / "pnp" / "data" / "components.yaml")  # as in a checkout of pnp
    result = pnp_here(capsys, "init", cwd=link)
    assert result.returncode == 0 and "replaced the link" in result.stdout
    assert not (link / "components.yaml").is_symlink() and (link / "components.yaml").read_text(encoding="utf-8") == copied


def test_watch_rebuilds_on_save_and_keeps_the_last_good_output_after_a_broken_one(tmp_path):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(TINY, encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "pnp", "watch", "--spec", str(spec), "--out", "out"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()

    def wait_for(text: str, timeout: float = 60) -> list[str]:
        seen, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                break
            seen.append(line)
            if text in line:
                return seen
        raise AssertionError(f"{text!r} never came; saw {seen}")

    try:
        wait_for("built tiny")
        time.sleep(0.5)
        spec.write_text(TINY.replace('value: "7"', 'value: "9"'), encoding="utf-8")
        said = wait_for("cards: replace sheet 1")
        assert any("tiny: 1 sheet to print" in line for line in said)
        good = (tmp_path / "out" / "tiny" / "cards.pdf").read_bytes()
        spec.write_text(TINY.replace("symbol: circle", "symbol: blob"), encoding="utf-8")
        said = wait_for("keeps the last good build")
        assert any(line.startswith("tiny.yaml:7:") and "symbol" in line for line in said)
        assert (tmp_path / "out" / "tiny" / "cards.pdf").read_bytes() == good
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_build_without_pdfs_counts_files_not_pages_to_print(tmp_path, capsys):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(TINY, encoding="utf-8")
    out = tmp_path / "output"
    assert main(["build", "--spec", str(spec), "--out", str(out), "--format", "svg", "-q"]) == 0
    summary = capsys.readouterr().out.splitlines()[0]
    written = len(json.loads((out / "manifest.json").read_text())["files"])
    assert summary.split(": ", 1)[1].startswith(f"{written} files in ") and not list((out / "tiny").rglob("*.pdf"))
