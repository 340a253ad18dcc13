"""What every test shares: the engine-parameter cache (pnp.referee.params) of this run, in a
folder of its own, so the suite neither reads nor fills the user's (one folder for all the
workers of a parallel run); and a browser for the tests that need one."""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# One folder per run: under pytest-xdist (`-n auto`) the workers inherit the controller's, so the
# parameters one worker computes are read by the others (the cache writes atomically).
if not (os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("PNP_CACHE")):
    os.environ["PNP_CACHE"] = tempfile.mkdtemp(prefix="pnp-test-cache-")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright (which never downloads a browser of its own):
    launched once per process (a second of CPU) for every module that asks for it, each test
    opening its own pages and contexts."""
    playwright = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' installs playwright")
    executable = shutil.which("chromium")
    assert executable, "the browser tests need Debian's chromium (.ci/run installs it: apt-get install -y chromium)"
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=executable, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run"])
        yield launched
        launched.close()


def pytest_sessionfinish() -> None:
    """Everything the run made is kept as it is from here on (`gc.freeze`): pytest then looks
    for unraisable exceptions with five full garbage collections, which in a worker that holds
    the remembered specs and layouts of a thousand tests took 2.5 s, on each worker, after the
    last test; new garbage is still collected and its exceptions still reported."""
    gc.freeze()


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where the browser tests put their screenshots: $PNP_SCREENSHOTS (docs/table/ takes them
    from there), else the test's own folder."""
    folder = Path(os.environ.get("PNP_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def table(browser, tmp_path) -> Iterator[Any]:
    """`table(game, players, **options)` opens a table of its own (`table_pages.Table`), one
    record each, closed after the test. (Tests of the table's server without a browser keep a
    `table` fixture of their own.)"""
    from table_pages import Table

    made: list[Any] = []

    def start(game: str, players: list[str], **options: Any) -> Any:
        found = Table(browser, tmp_path / f"{game}{len(made)}.yaml", game, players, **options)
        made.append(found)
        return found

    yield start
    for found in made:
        found.close()
