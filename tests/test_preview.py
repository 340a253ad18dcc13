"""`pnp watch --serve`: the gallery served on 127.0.0.1 follows each save in the open page — the
changed face redrawn and marked, a broken save's located errors shown above the last good
faces, the fix showing the faces again — and a hostile save only costs that build."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from in_process import pnp_here
from pnp.preview import Preview
from test_build_cli import ENV, TINY

BOUND_S = 20.0  # generous on a loaded 2-core machine; benchmarks/bench_build.py gives the figure
SHOWN_LOADED = "() => [...document.querySelectorAll('details.faces[open] .picture img')].every(i => i.complete && i.naturalWidth)"


class Watch:
    """`pnp watch --serve` in a process of its own, its output read line by line."""

    def __init__(self, folder: Path, spec: Path) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "pnp", "watch", "--spec", str(spec), "--out", "out",
                                         "--serve", "--port", "0"], cwd=folder, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, env=ENV)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(line) for line in self.process.stdout], daemon=True).start()

    def wait_for(self, pattern: str, timeout: float = 120) -> re.Match[str]:
        seen, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            seen.append(line)
            if found := re.search(pattern, line):
                return found
        raise AssertionError(f"{pattern!r} never came; saw {seen}")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def test_the_open_page_follows_saves_errors_and_the_fix(browser, tmp_path):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(TINY, encoding="utf-8")
    watch = Watch(tmp_path, spec)
    try:
        address = watch.wait_for(r"live preview: (http://127\.0\.0\.1:\d+/)")[1]
        watch.wait_for("built tiny")
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        page.goto(address)
        cards = "article[data-component=cards]"
        page.locator(f"{cards} details.faces > summary").click()  # pictured as they are shown (`--serve`)
        first = page.locator(f"{cards} .picture img").first.screenshot()
        version = page.evaluate("() => document.body.dataset.version")

        saved = time.monotonic()
        spec.write_text(TINY.replace('value: "7"', 'value: "9"'), encoding="utf-8")
        page.wait_for_function(f"() => document.body.dataset.version !== {version!r}", timeout=BOUND_S * 1000)
        shown_after = time.monotonic() - saved
        page.wait_for_function(SHOWN_LOADED)
        assert page.locator(f"{cards} details.faces[open]").count() == 1  # what was opened stays open
        assert page.locator(f"{cards}[data-changed=true] .mark").count() == 1  # the changed component, marked
        assert page.locator("article[data-component=aid][data-changed=false]").count() == 1
        assert page.locator(f"{cards} .picture img").first.screenshot() != first  # the new face
        assert shown_after < BOUND_S

        version = page.evaluate("() => document.body.dataset.version")
        spec.write_text(TINY.replace("symbol: circle", "symbol: blob"), encoding="utf-8")
        page.wait_for_selector("#pnp-live:not([hidden])", timeout=BOUND_S * 1000)
        errors = page.locator("#pnp-live li").all_inner_texts()
        assert any(re.match(r"tiny\.yaml:7:\d+: ", line) and "symbol" in line for line in errors), errors
        assert page.locator(f"{cards} .picture img").count() >= 1  # the last good faces stay

        spec.write_text(TINY.replace('value: "7"', 'value: "8"'), encoding="utf-8")
        page.wait_for_selector("#pnp-live[hidden]", state="attached", timeout=BOUND_S * 1000)
        page.wait_for_function(SHOWN_LOADED)
        assert page.locator(f"{cards} .picture img").count() >= 1
        assert page.evaluate("() => document.body.dataset.version") != version
        page.close()
    finally:
        watch.stop()


def test_a_hostile_save_is_answered_and_the_watch_goes_on(tmp_path):
    spec = tmp_path / "tiny.yaml"
    spec.write_text(TINY, encoding="utf-8")
    watch = Watch(tmp_path, spec)
    try:
        watch.wait_for("built tiny")
        good = (tmp_path / "out" / "tiny" / "cards.pdf").read_bytes()
        for hostile in ("\t- [unclosed", "a: &x [*x]\n", "\x00\x01binary", "games: [" * 500, ""):
            spec.write_text(hostile, encoding="utf-8")
            watch.wait_for("keeps the last good build")
            assert watch.process.poll() is None
            assert (tmp_path / "out" / "tiny" / "cards.pdf").read_bytes() == good
        spec.write_text(TINY.replace('value: "7"', 'value: "9"'), encoding="utf-8")
        watch.wait_for("cards: replace sheet 1")
    finally:
        watch.stop()


def test_the_server_never_serves_outside_the_output_or_its_cache(tmp_path):
    from starlette.testclient import TestClient

    out = tmp_path / "out"
    (out / ".cache").mkdir(parents=True)
    (out / ".cache" / "secret.json").write_text("{}")
    (out / "index.html").write_text("<html><body><main>faces</main></body></html>")
    (tmp_path / "outside.txt").write_text("no")
    (out / "manifest.json").write_text('{"spec": {"path": "/home/me/components.yaml"}}')
    preview = Preview(out)
    client = TestClient(preview.app(), base_url="http://127.0.0.1:8765")
    assert client.get("/").status_code == 200 and "EventSource" in client.get("/").text
    for path in ("/.cache/secret.json", "/../outside.txt", "/%2e%2e/outside.txt", "/nothing.pdf",
                 "/" + "a/" * 300 + "b", "/" + "x" * 300):  # the last two: names the file system refuses
        assert client.get(path).status_code == 404, path
    for path in ("/%00", "/index.html%00.pdf", "/" + "a" * 5000):  # no file has such a path
        assert client.get(path).status_code == 400, path
    assert client.get("/manifest.json", headers={"host": "localhost:8765"}).status_code == 200
    for host in ("evil.example", "evil.example:8765", "127.0.0.1.evil.example:8765"):  # a page rebound to 127.0.0.1
        answer = client.get("/manifest.json", headers={"host": host})
        assert answer.status_code == 400 and "/home/me" not in answer.text, host
    preview.said(["spec.yaml:3:4: games.x: no"])
    page = client.get("/").text
    assert "spec.yaml:3:4: games.x: no" in page and 'data-version="1"' in page


@pytest.mark.parametrize("port", ["-1", "70000"])
def test_a_port_out_of_range_is_one_line_exit_2(tmp_path, capsys, port):
    """Refused before anything is served or built: `pnp.cli.main` in this process."""
    spec = tmp_path / "tiny.yaml"
    spec.write_text(TINY, encoding="utf-8")
    result = pnp_here(capsys, "watch", "--spec", str(spec), "--serve", "--port", port, cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1 and "--port" in result.stderr
