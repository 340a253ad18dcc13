"""`pnp --engine ticker.py table`: the tutorial's one-file game (docs/your-game.md) served to two
phones by a real `pnp table` process and tapped through to its end in Playwright's chromium, each
seat on its own page; then `pnp referee check` on the record exits 0 and every value the pages
draw is the referee's. The table needs nothing of the game but its engine."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pnp.rules import GAMES, register_file
from pnp.rules.registry import ENVIRONMENT
from table_helpers import free_port, serve, stop, tokens
from table_pages import PHONE, assert_pages_show_the_record, caught_up, enter, state

pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' installs playwright")

TICKER = Path(__file__).parents[1] / "examples" / "ticker"


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(GAMES, "_games", dict(GAMES.items()))
    monkeypatch.setenv(ENVIRONMENT, "")  # restored (unset) after the test, whatever --engine sets


@pytest.mark.slow
def test_a_game_of_ticker_tapped_through_on_two_phones(browser, tmp_path, registry):
    register_file(TICKER / "ticker.py")  # for this process's referee check of the record
    record, port = tmp_path / "ticker.yaml", free_port()
    server = serve(record, port, "--new", "ticker", "--players", "Ana,Ben", "--spec", str(TICKER / "components.yaml"),
                   engine=TICKER / "ticker.py")
    contexts = []
    try:
        links = {**tokens(record)["seats"], "host": tokens(record)["host"]}
        pages = {}
        for name in ("Ana", "Ben", "host"):
            context = browser.new_context(viewport=PHONE, locale="en-US")
            contexts.append(context)
            pages[name] = context.new_page()
            pages[name].goto(f"http://127.0.0.1:{port}/?t={links[name]}")
        rng, turns = random.Random(3), 0
        while state(pages["host"])["to_move"] is not None:
            name = ("Ana", "Ben")[turns % 2]
            page = pages[name]
            caught_up(page)
            company = rng.choice(["RED", "BLU", "GRN"])
            shares = page.locator(f'[data-action="{name}:turn {company}"] input[name="f.shares"]').evaluate_all(
                "inputs => inputs.map(input => input.value)")  # the numbers offered, sales below zero
            picks = {"f.card": "0"} | ({"f.shares": rng.choice(shares)} if shares else {})  # none: 0 is the one number
            enter(page, f"{name}:turn {company}", picks)
            turns += 1
            assert turns <= 18
        answer = assert_pages_show_the_record(record, pages["Ana"], pages["Ben"], pages["host"],
                                              spec=("--spec", str(TICKER / "components.yaml")))
        assert answer["ok"] and answer["checked"] == turns >= 6 and answer["state"]["over"] is True
        pages["Ana"].screenshot(path=str(tmp_path / "table-ticker-Ana-390.png"), full_page=True)
        said = pages["host"].locator("footer code, code").all_inner_texts()
        assert f"pnp --engine {TICKER / 'ticker.py'} referee check ticker.yaml" in said  # the command that checks it
    finally:
        for context in contexts:
            context.close()
        stop(server)
