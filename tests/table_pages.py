"""What the browser tests of `pnp table` share: a real `pnp table` process with a browser
context per seat (or one browser for every tab), and what a player does on the page — tap a
step, wait for the page to draw the change, read back every value it shows."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

from table_helpers import checked, free_port, serve, stop, tokens

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}


def page_of(name: str, players: list[str]) -> str:
    """The address of a seat's page (its number from 1), the host's or the board's."""
    return name if name in ("host", "board") else str(players.index(name) + 1)


class Table:
    """A `pnp table` process and a browser context per seat and the host (each opened on its own
    link), or one context for all of them (`one_browser`: tabs of one phone's browser);
    `restart` kills the process with SIGKILL and runs the same command again."""

    def __init__(self, browser: Any, record: Path, game: str, players: list[str], viewport: dict = PHONE,
                 locales: dict[str, str] | None = None, args: tuple[str, ...] = (), one_browser: bool = False,
                 script: bool = True, who: list[str] | None = None):
        self.record, self.port, self.game = record, free_port(), game
        self.server = serve(record, self.port, "--new", game, "--players", ",".join(players), *args)
        kept = tokens(record)
        self.players = list(kept["seats"])
        self.tokens = {**kept["seats"], "host": kept["host"], "board": kept["board"]}
        self.base = f"http://127.0.0.1:{self.port}"
        self.contexts, self.pages = {}, {}
        shared = browser.new_context(viewport=viewport, locale="en-US", java_script_enabled=script) \
            if one_browser else None
        for name in who or [*(p for p in self.players if p not in kept.get("bots", {})), "host"]:
            context = shared or browser.new_context(viewport=viewport, locale=(locales or {}).get(name, "en-US"),
                                                    java_script_enabled=script)  # its Accept-Language
            page = context.new_page()
            self.open(page, name)
            self.contexts[name], self.pages[name] = context, page
        self.shared = shared

    def open(self, page: Any, name: str) -> None:
        """Open `name`'s link: the token goes into a cookie and out of the address bar."""
        view = "&view=board" if name == "board" else ""
        page.goto(f"{self.base}/?t={self.tokens[name]}{view}")
        assert page.url == f"{self.base}/{page_of(name, self.players)}/", page.url

    def __getitem__(self, name: str) -> Any:
        return self.pages[name]

    def restart(self) -> None:
        self.kill()
        self.start()

    def kill(self) -> None:
        os.kill(self.server.pid, signal.SIGKILL)
        self.server.wait(10)

    def start(self) -> None:
        self.server = serve(self.record, self.port)

    def close(self) -> None:
        for context in {id(c): c for c in self.contexts.values()}.values():
            context.close()
        stop(self.server)


def change(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.change"))


def until(page: Any, script: str, arg: Any = None, timeout: float = 15.0) -> None:
    """Wait until `script` (a function of `arg`) is true on the page. (Playwright's own waiting
    evaluates a string, which the page's Content-Security-Policy forbids, rightly.)"""
    from playwright.sync_api import Error

    deadline, failed = time.monotonic() + timeout, None
    while True:
        try:
            if page.evaluate(script, arg):
                return
        except Error as error:  # between two documents (a link followed): ask the next one
            failed = error
        assert time.monotonic() < deadline, f"timed out: {script} ({failed})"
        time.sleep(0.02)


def settled(page: Any, after: int, timeout: float = 15.0) -> None:
    """The page has drawn a change later than `after` (by the API's answer or its event stream)."""
    until(page, "after => Number(document.body.dataset.change) > after", after, timeout)


def ticked(page: Any, name: str) -> None:
    """The page says `name` has entered in secret."""
    until(page, "name => [...document.querySelectorAll('#next .tick')].some(e => e.textContent.includes(name))", name)


def last_by(page: Any, name: str) -> None:
    until(page, "name => document.querySelector('#last h2').textContent.includes(name)", name)


def enter(page: Any, action: str, picks: dict[str, str] | None = None, selects: dict[str, str] | None = None,
          refused: bool = False, way: int = 0) -> None:
    """Open the form of `action` ("Ana:declare"), tap each pick (field → option value), pick
    each select's option by its label, and enter it (a card in the hand: tap its `way`-th
    button, one tap); the page draws the answer in place. (First the page catches up with the
    server, as a player looks before tapping.)"""
    caught_up(page)
    before = change(page)
    found = page.locator(f'[data-action="{action}"]')
    tag = found.evaluate("e => e.tagName")
    if tag == "BUTTON":
        found.click()
    elif tag == "FORM":  # a card: each way to play it a button
        group = page.locator(f'details.group:has([data-action="{action}"])')
        if group.count() and group.get_attribute("open") is None:
            group.locator("> summary").click()
        found.locator("button").nth(way).click()
    else:
        group = page.locator(f'details.group:has([data-action="{action}"])')
        if group.count() and group.get_attribute("open") is None:
            group.locator("> summary").click()
        if found.get_attribute("open") is None:
            found.locator("> summary").click()
        for name, value in (picks or {}).items():
            found.locator(f'label:has(input[name="{name}"][value="{value}"])').click()
        for name, value in (selects or {}).items():
            found.locator(f'select[name="{name}"]').select_option(label=value)
        found.locator("button.go").click()
    if refused:
        until(page, "() => !!document.querySelector('#notice section.notice')")
    else:
        settled(page, before)


def caught_up(page: Any) -> None:
    """The page has drawn the server's last change."""
    until(page, "now => Number(document.body.dataset.change) >= now", state(page)["change"])


def undo(page: Any) -> None:
    caught_up(page)
    before = change(page)
    page.locator("#undo").click()
    settled(page, before)


def shown(page: Any) -> dict[str, str]:
    """Every value the page draws, by its place in the referee's JSON state."""
    found: dict[str, str] = {}
    for item in page.eval_on_selector_all("[data-state]", "els => els.map(e => e.dataset.state)"):
        found.update(json.loads(item))
    return found


def leaves(data: Any, path: str = "") -> dict[str, str]:
    if isinstance(data, dict) and data:
        return {k: v for key, value in data.items() for k, v in leaves(value, f"{path}.{key}" if path else key).items()}
    return {path: json.dumps(data, ensure_ascii=False)}


def assert_pages_show_the_record(record: Path, *pages: Any, spec: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every value each page draws is the referee's, and every value of the referee's is drawn
    (but the hands, which each page shows only its own of; `spec`: `--spec FILE`, for a game not
    in the bundled spec)."""
    answer = checked(record, *spec)
    state = {k: v for k, v in answer["state"].items() if k not in ("over", "winners", "hands")}
    for page in pages:
        caught_up(page)
        assert {k: v for k, v in shown(page).items() if not k.startswith("hands.")} == leaves(state)
    return answer


def api(page: Any, path: str, body: dict) -> tuple[int, dict]:
    """A post to the table's API from the page (its cookie: its seat), as a script on it would."""
    return tuple(page.evaluate("""async ([path, body]) => {
        const answer = await fetch(path, {method: "POST", headers: {"content-type": "application/json"},
                                          body: JSON.stringify(body)});
        return [answer.status, await answer.json()];
    }""", [path, body]))


def state(page: Any) -> dict:
    board = "?view=board" if page.evaluate("document.body.dataset.view === 'board'") else ""
    return page.evaluate(f"fetch('api/state{board}').then(r => r.json())")


def screenshots(table: Table, game: str, folder: Path, seat: str, sizes: tuple[dict, ...] = (PHONE, LAPTOP)) -> None:
    """The seat's page, the host's and the board's, on a phone and a laptop, as files to look at."""
    for name in (seat, "host", "board"):
        for size in sizes:
            context = table.contexts[seat if name == "board" else name]
            page = context.new_page()
            page.set_viewport_size(size)
            page.goto(f"{table.base}/{page_of(seat if name == 'board' else name, table.players)}/"
                      + ("?view=board" if name == "board" else ""))
            kind = {seat: "seat", "host": "host", "board": "board"}[name]
            page.screenshot(path=str(folder / f"table-{game}-{kind}-{size['width']}.png"), full_page=True)
            wider = page.evaluate("""width => [...document.querySelectorAll('body *')].filter(e =>
                e.getBoundingClientRect().right > width + 1).map(e => e.tagName + '.' + e.className).slice(0, 5)""",
                                  size["width"])
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], (name, size, wider)  # nothing wider
            page.close()


def two_screens(page: Any) -> float:
    """How far down the page the board ends, from the top (the current player's form above it)."""
    return float(page.evaluate("document.getElementById('position').getBoundingClientRect().bottom + window.scrollY"))
