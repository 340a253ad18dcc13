"""`pnp table` in a real browser (Playwright driving Debian's chromium): for each game a short
game entered through the page — two full rounds or turns around the table — with an illegal
entry refused with its rule ID, an undo, the server stopped and started again mid-game, and a
second phone that follows. At the end `pnp referee check` on the saved record exits 0 and its
JSON state is what the page shows.

Screenshots of each game's page at 360×740 and 1280×800 go to $PNP_SCREENSHOTS (default: the
test's temporary folder). One browser for the module; each game its own server.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from pnp.cli import main
from pnp.rules import load_spec
from pnp.table.game import TableGame
from pnp.table.web import create_app

playwright = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' installs playwright")

SPEC = load_spec(None)
PHONE, LAPTOP = {"width": 360, "height": 740}, {"width": 1280, "height": 800}


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("PNP_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Server:
    """The table's app served by uvicorn in a thread of this process (a process of its own,
    killed hard, is tested in test_table_server.py); `restart` stops it and serves the record
    again from the file, as `pnp table RECORD` does after a stop."""

    def __init__(self, record: Path, game: str, players: list[str]):
        self.record = record
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        TableGame.create(record, SPEC, game, players)
        self.start()

    def start(self) -> None:
        app = create_app(TableGame.open(self.record, SPEC))
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the table did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def serve(tmp_path) -> Iterator[Any]:
    servers: list[Server] = []

    def start(game: str) -> Server:
        server = Server(tmp_path / f"{game}.yaml", game, ["Ana", "Ben", "Cris"])
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


# --- what a player does on the page ------------------------------------------------------------


def visit(page: Any, url: str) -> None:
    """Open `url`; once more if the page's own poll (a new version seen) navigated at the same
    moment and aborted this navigation — the race is the page's, not the server's."""
    try:
        page.goto(url)
    except Exception as error:  # playwright's Error, imported lazily with the browser
        if "ERR_ABORTED" not in str(error):
            raise
        page.goto(url)


def step_count(page: Any) -> int:
    return int(page.locator("#status .step").inner_text().split()[1])


def enter(page: Any, action: str, picks: dict[str, str] | None = None, selects: dict[str, str] | None = None) -> None:
    """Open the form of `action` ("Ana:declare"), tap each pick (field → option value), pick
    each select's option by its label, and enter it; the page reloads with the new position."""
    found = page.locator(f'[data-action="{action}"]')
    if found.evaluate("e => e.tagName") == "BUTTON":
        with page.expect_navigation():
            found.click()
        return
    group = page.locator(f'details.group:has([data-action="{action}"])')
    if group.count() and group.get_attribute("open") is None:
        group.locator("> summary").click()
    if found.get_attribute("open") is None:
        found.locator("> summary").click()
    for name, value in (picks or {}).items():
        found.locator(f'label:has(input[name="{name}"][value="{value}"])').click()
    for name, value in (selects or {}).items():
        found.locator(f'select[name="{name}"]').select_option(label=value)
    with page.expect_navigation():
        found.locator("button.go").click()


def undo(page: Any) -> None:
    with page.expect_navigation():
        page.locator("#undo").click()


def refused_rule(page: Any) -> str:
    return page.locator("#notice.refused").get_attribute("data-rule")


def shown(page: Any) -> dict[str, str]:
    """Every value the page shows, by its place in the referee's JSON state."""
    return page.eval_on_selector_all("[data-path]", """els => Object.fromEntries(els.map(e => [e.dataset.path,
        e.tagName === 'OL' ? Array.from(e.children).map(li => li.textContent.trim()).join(', ') : e.textContent.trim()]))""")


def checked(record: Path) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["referee", "check", str(record), "--json"])
    assert code == 0, out.getvalue()
    return json.loads(out.getvalue())


def as_shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return ", ".join(as_shown(v) for v in value)
    return str(value)


def leaves(data: Any, path: str = "") -> dict[str, str]:
    if isinstance(data, dict):
        return {k: v for key, value in data.items() for k, v in leaves(value, f"{path}.{key}" if path else key).items()}
    return {path: as_shown(data)}


def assert_page_shows_the_record(page: Any, record: Path) -> dict[str, Any]:
    """The page's values are the referee's, each one; and the page shows every one of them."""
    answer = checked(record)
    state = {k: v for k, v in answer["state"].items() if k not in ("over", "winners")}
    expected, on_page = leaves(state), shown(page)
    assert on_page == expected
    return answer


def follows(second: Any, steps: int) -> None:
    """The second phone shows the new step without anyone touching it."""
    second.wait_for_function(f"document.querySelector('#status .step').textContent.trim() === 'step {steps}'",
                             timeout=10_000)


def screenshots(browser: Any, url: str, game: str, folder: Path) -> None:
    for name, size in (("phone", PHONE), ("laptop", LAPTOP)):
        page = browser.new_page(viewport=size)
        visit(page, url)
        page.screenshot(path=str(folder / f"table-{game}-{size['width']}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]  # nothing wider than the screen
        page.close()


# --- the games -------------------------------------------------------------------------------------


def test_bolsa_two_rounds_at_the_table(browser, serve, shots):
    server = serve("bolsa")
    phone, second = browser.new_page(viewport=PHONE), browser.new_page(viewport=LAPTOP)
    visit(phone, server.url)
    visit(second, server.url)
    before = server.record.read_bytes()

    enter(phone, "Ana:declare", {"f.buy.IBE": "2", "f.buy.SAN": "2", "f.buy.TEF": "2"})  # 60 > 50 cash
    assert refused_rule(phone) == "BOLSA-3.2.5" and "current quote" in phone.locator("#notice blockquote").inner_text()
    assert server.record.read_bytes() == before and step_count(phone) == 0

    visit(phone, server.url)
    enter(phone, "Ana:declare", {"f.sell.IBE": "1"})
    enter(phone, "Ben:declare", {"f.buy.SAN": "2"})
    follows(second, 2)
    assert "Ben" in phone.locator("#undo").inner_text()
    undo(phone)  # Ben meant IBE
    assert step_count(phone) == 1 and phone.locator('[data-action="Ben:declare"]').count() == 1
    enter(phone, "Ben:declare", {"f.buy.IBE": "1"})
    assert phone.locator(".done").inner_text().split() == ["✓", "Ana", "✓", "Ben"]  # what they declared stays secret
    enter(phone, "Cris:declare", {"f.buy.IBE": "1"})  # revealed: two buyers for one IBE → auction
    assert "auction" in phone.locator("#status").inner_text()
    screenshots(browser, server.url, "bolsa", shots)

    server.restart()  # mid-auction: the bids to come were never written; the declarations were
    visit(phone, server.url)
    assert step_count(phone) == 3 and "auction" in phone.locator("#status").inner_text()
    enter(phone, "Ben:bid", selects={"f.amount": "12"})
    enter(phone, "Cris:pass")
    assert "declare" in phone.locator("#status").inner_text()  # round 2
    for name in ("Ana", "Ben", "Cris"):  # round 2: nobody trades
        enter(phone, f"{name}:declare")
    follows(second, 8)
    answer = assert_page_shows_the_record(phone, server.record)
    assert answer["state"]["round"] == 3 and answer["state"]["players"]["Ben"]["shares"]["IBE"] == 2
    assert answer["state"]["players"]["Ben"]["cash"] == 50 - 12 and answer["state"]["players"]["Ana"]["cash"] == 62
    assert_page_shows_the_record(second, server.record)


def test_aktsioner_two_rounds_of_turns_at_the_table(browser, serve, shots):
    server = serve("aktsioner")
    phone, second = browser.new_page(viewport=PHONE), browser.new_page(viewport=PHONE)
    visit(phone, server.url)
    visit(second, server.url)
    enter(phone, "Ana:begin")
    enter(phone, "Ana:trade", {"f.buy.blue": "1"})  # 100 with no cash and nothing sold
    assert refused_rule(phone) == "AKT-3.1"
    visit(phone, server.url)
    enter(phone, "Ana:play +100 blue")
    undo(phone)  # Ana meant the red hundred
    assert step_count(phone) == 1
    enter(phone, "Ana:play +100 red")
    screenshots(browser, server.url, "aktsioner", shots)
    cards = ["+30 blue", "+30 green", "-30 yellow", "+40 red", "+50 green"]
    players = ["Ben", "Cris", "Ana", "Ben", "Cris"]
    for turn, (name, card) in enumerate(zip(players, cards)):
        enter(phone, f"{name}:begin")
        if turn == 2:
            server.restart()  # a turn begun and its card not yet played
            visit(phone, server.url)
            assert f"{name}" in phone.locator("#status").inner_text()
        enter(phone, f"{name}:play {card}")
    follows(second, 2 + 2 * 5)
    answer = assert_page_shows_the_record(phone, server.record)
    assert answer["checked"] == 6 and answer["state"]["prices"]["red"] > 100
    assert_page_shows_the_record(second, server.record)


def test_forex_two_rounds_of_turns_at_the_table(browser, serve, shots):
    server = serve("forex")
    phone, second = browser.new_page(viewport=PHONE), browser.new_page(viewport=LAPTOP)
    visit(phone, server.url)
    visit(second, server.url)
    enter(phone, "Ana:contract", {"f.pay": "0", "f.receive": "0"})  # pay GBP, receive GBP
    assert refused_rule(phone) == "FOREX-7.2"
    visit(phone, server.url)
    enter(phone, "Ana:contract", {"f.pay": "0", "f.receive": "1", "f.amount": "2"})
    enter(phone, "Ben:invest", selects={"g.currencies.0": "USD"})
    undo(phone)
    enter(phone, "Ben:invest", selects={"g.currencies.0": "CHF", "g.currencies.1": "JPY"})
    follows(second, 2)
    enter(phone, "Cris:spot")  # the first exchange the board allows
    server.restart()  # a spot waits for its turn's action
    visit(phone, server.url)
    assert step_count(phone) == 3
    enter(phone, "Cris:invest", selects={"g.currencies.0": "CAD"})
    screenshots(browser, server.url, "forex", shots)
    enter(phone, "Ana:invest", selects={"g.currencies.0": "CNY"})
    enter(phone, "Ben:contract", {"f.pay": "1", "f.receive": "2", "f.amount": "1"})
    enter(phone, "Cris:invest", selects={"g.currencies.0": "CNY"})
    follows(second, 7)
    answer = assert_page_shows_the_record(phone, server.record)
    assert answer["checked"] == 6 and answer["state"]["queue"][-2:] == ["contract A Ana", "contract B Ben"]
    assert_page_shows_the_record(second, server.record)
