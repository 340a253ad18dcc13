"""Whole games of `pnp table` tapped through the page, as players would, at 390×844 (slow: a
few minutes of a browser each): every game from its deal to its end with six phones, each step
entered by tapping a form of the page of the player whose turn it is — at each turn the page's
height from its top to the board's end, with that player's form open, is within two screens;
the player's own hand is shown (Акционер); no engine key shows in any button, heading or
summary; and at the end every value the pages draw is the referee's. Then a table with a bot in
an empty seat (`bot:search`): two phones play a whole Bolsa game with it, its declarations as
secret as theirs until each reveal. Screenshots of each game's seat, host and board pages go to
$PNP_SCREENSHOTS (default: the test's temporary folder)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from pnp.rules import GAMES
from table_helpers import checked, tokens
from table_pages import (
    PHONE,
    Table,
    assert_pages_show_the_record,
    caught_up,
    change,
    screenshots,
    settled,
    shown,
    state,
    two_screens,
    until,
)

playwright = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' installs playwright")

SIX = ["Ana", "Ben", "Cris", "Dani", "Eva", "Fer"]
SHORT = {"bolsa": ("--set", "rules.rounds=2"), "aktsioner": ("--set", "rules.formula=1+1"), "forex": ()}


def engine_words(game: str) -> set[str]:
    """The engine's own names a player must never read as a label: its kinds of step and its
    house rules' keys."""
    rulebook = GAMES[game].rulebook
    return {"declare", "bid", "pass", "resolve", "begin", "play", "trade", "end", "spot", "contract", "invest",
            "divest"} | {option.name for option in rulebook.options}


def labels(page: Any) -> list[str]:
    """The visible words a player reads as labels: buttons, summaries, headings, the status."""
    return page.evaluate("""() => [...document.querySelectorAll('button, summary, h1, h2, h3, h4, #status, .line, th')]
        .filter(e => e.offsetParent !== null).map(e => e.innerText.trim()).filter(t => t)""")


def looks_right(page: Any, game: str) -> None:
    """No engine key in any label, nor an identifier in any visible text."""
    raw = engine_words(game)
    for text in labels(page):
        first = text.split()[0] if text.split() else ""
        assert first not in raw and not re.search(r"\b\w+_\w+\b", text), text
    visible = page.inner_text("body")
    assert not re.search(r"\b(?:sell|buy)\.[A-Za-z]+\b", visible) and "None" not in visible


def tap(page: Any, rng: random.Random) -> bool:
    """`tap_once`, again on the page as it is now if it changed under the finger (another
    player's step drawn live: the form tapped is gone)."""
    from playwright.sync_api import Error

    page.set_default_timeout(5000)
    try:
        return tap_once(page, rng)
    except Error:
        return False


def tap_once(page: Any, rng: random.Random) -> bool:
    """Tap one of the page's steps, as a player does: a button, a card's way to play it, or a
    form opened, a few of its values tapped or picked, and entered (its values at their lowest
    again if the rules refuse them; a tie the rules leave to the player: its first option).
    Returns whether a step was entered."""
    before = change(page)
    page.evaluate("() => { document.getElementById('notice').innerHTML = ''; }")  # a refusal read: put away
    found = page.locator("#next [data-action]")
    count = found.count()
    if not count:
        return False
    chosen = found.nth(rng.randrange(count))
    group = page.locator("details.group", has=chosen)
    if group.count() and group.first.get_attribute("open") is None:
        group.first.locator("> summary").click()
    tag = chosen.evaluate("e => e.tagName")
    if tag == "BUTTON":
        chosen.click()
    elif tag == "FORM":
        ways = chosen.locator("button")
        ways.nth(rng.randrange(ways.count())).click()
    else:
        if chosen.get_attribute("open") is None:
            chosen.locator("> summary").click()
        for radios in chosen.locator(".seg").all():
            options = radios.locator("label")
            if rng.random() < 0.3 and options.count():
                options.nth(rng.randrange(options.count())).click()
        for select in chosen.locator("select").all():
            options = select.locator("option")
            if options.count():
                select.select_option(index=rng.randrange(options.count()))
        chosen.locator("button.go").click()
    until(page, "before => Number(document.body.dataset.change) > before || !!document.querySelector('#notice section')",
          before, timeout=30)
    notice = page.locator("#notice section")
    if change(page) > before:
        return True
    if notice.locator("form.choice button").count():  # a tie to break: the first way
        notice.locator("form.choice button").first.click()
        settled(page, before, timeout=30)
        return True
    return False  # refused: the caller taps again


def play_through(t: Table, game: str, rng: random.Random, seats: list[str],
                 midway: Callable[[], None] | None = None) -> dict[str, float]:
    """The whole game, each step tapped on the page of a player whose turn it is (the host's
    for the table's own steps); at each turn, that page checked. Returns the tallest page seen
    (from its top to the board's end, the player's form open) and the number of steps."""
    tallest, steps, hands = 0.0, 0, 0
    for _ in range(600):
        now = state(t["host"])
        if now["to_move"] is None:
            break
        acting = [p for p in now["to_move"]["players"] if p in seats] or ["host"]
        name = acting[0] if not now["to_move"]["sealed"] else rng.choice(acting)
        page = t[name]
        caught_up(page)
        if name != "host":
            opened = page.locator("#next details.action[open]")
            if not opened.count() and page.locator("#next details.action").count():
                page.locator("#next details.action > summary").first.click()
            tallest = max(tallest, two_screens(page))
            hand = page.locator("#next .hand .card, #next .hand-line .card-face")
            if "hands" in now["position"]:
                left = len(state(page)["position"]["hands"].get(name, []))
                assert hand.count() >= min(left, 1), (name, left)  # the player's own cards, shown
                hands += bool(left)
            looks_right(page, game)
        if steps == 8 and midway is not None:
            midway()  # (the screenshots: a game under way)
        for _attempt in range(6):
            if tap(page, rng):
                steps += 1
                break
        else:
            raise AssertionError(f"{name} found no step the rules take: {now['to_move']} {now['change']} "
                                 f"{state(t['host'])['to_move']} {state(page)['change']} {page.inner_text('#notice')}")
    else:
        raise AssertionError("the game did not end")
    return {"tallest": tallest, "steps": steps, "hands": hands}


@pytest.mark.slow
@pytest.mark.parametrize("game", ["bolsa", "aktsioner", "forex"])
def test_a_whole_game_tapped_through_the_page_at_390(browser, table, shots, game):
    t = table(game, SIX, args=SHORT[game])
    found = play_through(t, game, random.Random(7), SIX, lambda: screenshots(t, game, shots, "Ana"))
    print(f"\n{game}: {found['steps']} steps tapped; the tallest page to the board's end, the form open: "
          f"{found['tallest']:.0f} px ({found['tallest'] / PHONE['height']:.2f} screens)")
    assert found["tallest"] <= 2 * PHONE["height"]
    assert found["steps"] >= 6 and (found["hands"] >= 6 if game == "aktsioner" else True)
    answer = assert_pages_show_the_record(t.record, *(t[name] for name in (*SIX, "host")))
    assert answer["state"]["over"] is True
    for page in (t["Ana"], t["host"]):
        assert page.locator(".over h2").count() == 1  # the end, said on every page


@pytest.mark.slow
def test_a_bot_in_an_empty_seat_plays_a_whole_bolsa_game_with_two_phones(browser, table, shots):
    """`--players Ana,Ben,bot:search`: the bot plays the third seat through the seat's own checks,
    after a visible think; in each round, until the reveal, its declaration is in the journal
    alone and on no page of Ana's or Ben's (they see only that it has declared)."""
    t = table("bolsa", ["Ana", "Ben", "bot:search:30"], args=("--set", "rules.rounds=2"))
    assert t.players == ["Ana", "Ben", "Bot"] and tokens(t.record)["bots"] == {"Bot": "search:30"}
    ana, ben, host = t["Ana"], t["Ben"], t["host"]
    rng = random.Random(3)
    secret_seen = 0
    for _ in range(200):
        now = state(host)
        if now["to_move"] is None:
            break
        entered = now["entered_in_secret"]
        if "Bot" in entered:
            journal = json.loads((t.record.parent / f".{t.record.name}.journal").read_text())
            assert "Bot" in [item["player"] for item in journal["pending"]]  # waiting in the journal alone
            recorded = checked(t.record)["state"]["players"]["Bot"]  # the record: the position before the phase
            assert sum(recorded["offered"].values()) == sum(recorded["requested"].values()) == 0
            for page in (ana, ben):
                caught_up(page)
                now_shown = page.inner_text("#next") + page.inner_text("#position")
                assert "Bot offers" not in now_shown and "Bot requests" not in now_shown
                assert "✓ Bot" in page.locator("#next").inner_text()
                drawn = shown(page)
                assert all(drawn[f"players.Bot.{side}.{company}"] == json.dumps(count) for side in ("offered", "requested")
                           for company, count in recorded[side].items())  # the bot's mat: as before the phase
            secret_seen += 1
        acting = [p for p in now["to_move"]["players"] if p in ("Ana", "Ben") and p not in entered]
        if not acting:
            until(host, "was => Number(document.body.dataset.change) > was", now["change"], timeout=60)  # the bot
            continue
        page = t[acting[0]]
        caught_up(page)
        for _attempt in range(6):
            if tap(page, rng):
                break
    answer = checked(t.record)
    assert answer["state"]["over"] is True and secret_seen >= 2
    bot_steps = [e for e in answer["events"] if "Bot" in str(e.get("data", {}).get("player", ""))]
    assert bot_steps  # it played
    for page in (ana, ben):
        caught_up(page)
        assert page.locator(".over h2").count() == 1
    host.screenshot(path=str(shots / "table-bolsa-bot-host-390.png"), full_page=True)
