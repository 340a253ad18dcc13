"""`pnp table` in a real browser (Playwright driving Debian's chromium), against a real `pnp
table` process: phones in their languages, one of them with JavaScript off posting plain forms
(the fast lane's browser test); then Bolsa with four seats, each in its own browser context, and
the host — each seat sees only its own sealed declaration until the reveal, a seat's attempt to
enter or undo for another is refused, the host's correction across a reveal keeps every revealed
declaration public on every page, the server killed mid-phase and started again; six phones
following a game live; seven tabs of one browser sharing one event stream, each keeping its
seat; a tap made while the server restarts, landing once it is back, exactly once; every game's
plain forms and the host's "Start from a position" with JavaScript off; the room's board during a
sealed phase. At the end of each, `pnp referee check` on the record exits 0 and its JSON state is
what the pages show, value by value. (`test_table_games` plays whole games through the page.)
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx2 as httpx
import pytest

from table_helpers import checked, new_key
from table_pages import (
    LAPTOP,
    PHONE,
    api,
    assert_pages_show_the_record,
    caught_up,
    change,
    enter,
    last_by,
    settled,
    shown,
    state,
    ticked,
    two_screens,
    until,
)

playwright = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]' installs playwright")


# --- the page in the players' language, and without JavaScript (the fast lane's) --------------------------


def test_each_phone_in_its_language_switched_on_the_page_and_kept_live(browser, table, shots):
    """Ana's browser asks for Russian, Ben's for English, the host's for Spanish: each page
    speaks its own. Ana switches to Spanish on the page; live updates (Ben's and Cris's steps)
    keep it; she switches back to Russian, and a reload keeps that. Cris's phone has JavaScript
    off: his declaration is a plain form post from the page (the pages send no referrer, so the
    browser posts `Origin: null`), answered with the page again. Screenshots in both languages."""
    from pnp.i18n.catalogs import language
    from table_helpers import SPEC

    def said(code: str, msgid: str) -> str:
        return language(SPEC.folder, "bolsa", code).gettext(msgid)

    def speaks(page: Any, code: str) -> None:
        until(page, "code => document.documentElement.lang === code", code)
        heading = page.locator("#position h2").inner_text()
        assert heading == said(code, "On the table"), (code, heading)

    players = ["Ana", "Ben", "Cris"]
    t = table("bolsa", players, locales={"Ana": "ru-RU", "Ben": "en-US", "Cris": "en-US", "host": "es-ES"},
              who=["Ana", "Ben", "host"])
    ana, ben, host = (t[name] for name in ("Ana", "Ben", "host"))
    cris_context = browser.new_context(viewport=PHONE, locale="en-US", java_script_enabled=False)
    cris = cris_context.new_page()
    t.open(cris, "Cris")
    for page, code in ((ana, "ru"), (ben, "en"), (host, "es")):
        speaks(page, code)
    assert ana.locator("#next h2").inner_text().startswith(said("ru", "Your move"))
    for code, page in (("ru", ana), ("es", host)):
        for size in (PHONE, LAPTOP):
            page.set_viewport_size(size)
            page.screenshot(path=str(shots / f"table-bolsa-{code}-{size['width']}.png"), full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]  # nothing wider
        page.set_viewport_size(PHONE)
    rows = ana.evaluate("""() => [...document.querySelectorAll('#next table.grid .seg')]
        .map(seg => new Set([...seg.querySelectorAll('label')].map(label => label.offsetTop)).size)""")
    assert len(rows) == 10 and set(rows) == {1}  # each company's 0/1/2 on one line at 390 px, none wrapping

    ana.locator("nav.langs a[data-lang='es']").click()  # the switch
    speaks(ana, "es")
    current = ana.locator("nav.langs [aria-current]")
    assert (current.get_attribute("data-lang"), current.get_attribute("title")) == ("es", "Español")
    before = change(ana)
    enter(ben, "Ben:declare", {"f.buy.IBE": "1"})
    settled(ana, before)  # drawn live, from the API's parts
    ticked(ana, "Ben")
    speaks(ana, "es")
    assert ana.locator("#next h2").inner_text().startswith(said("es", "Your move"))
    speaks(ben, "en")  # Ben's choice is Ben's

    ana.locator("nav.langs a[data-lang='ru']").click()
    speaks(ana, "ru")
    enter(ana, "Ana:declare", {"f.sell.SAN": "1"})  # her own step, answered in her language
    own = ana.locator("#next .own").inner_text()
    assert said("ru", "Yours, seen only by you until the reveal:") in own
    before = change(ana)
    cris.locator('[data-action="Cris:declare"] label:has(input[name="f.buy.SAN"][value="1"])').click()
    with cris.expect_navigation():
        cris.locator('[data-action="Cris:declare"] button.go').click()  # a plain post: the last one, revealed
    assert cris.url == f"{t.base}/3/" and "Cris requests 1 SAN" in cris.locator("#last").inner_text()
    settled(ana, before)
    last_by(ana, "Cris")
    speaks(ana, "ru")
    assert said("ru", "Last: {who} — {step}").split("{")[0] in ana.locator("#last h2").inner_text()
    ana.reload()
    speaks(ana, "ru")
    speaks(host, "es")
    assert_pages_show_the_record(t.record, ana, ben, host, cris)  # every language draws the same values
    cris_context.close()


# --- Bolsa, four seats and the host -------------------------------------------------------------------------


@pytest.mark.slow  # the fast lane's browser test: each phone in its language (above)
def test_bolsa_four_seats_two_rounds_and_the_hosts_correction(browser, table, shots):
    players = ["Ana", "Ben", "Cris", "Dani"]
    t = table("bolsa", players)
    ana, ben, cris, dani, host = (t[name] for name in (*players, "host"))
    assert ana.locator("[data-action^='Ben:']").count() == 0  # a seat's page: its own forms only
    assert host.locator("[data-action$=':declare']").count() == 4

    # Round 1. Ana declares; the others are told at once (no reload) that she has, never what.
    enter(ana, "Ana:declare", {"f.sell.IBE": "1", "f.buy.TEF": "1"})
    assert "Ana offers 1 IBE" in ana.locator("#next .own").inner_text()
    assert "Declare" in ana.locator("#undo").inner_text()  # the undo says what it takes back
    for page in (ben, cris, dani, host):
        ticked(page, "Ana")
        assert "Ana offers" not in page.content() and "Ana requests" not in page.content()
        assert shown(page)["players.Ana.offered.IBE"] == "0"
    # Ben starts his form; Cris declares meanwhile; Ben's page follows and keeps what he tapped.
    form = ben.locator('[data-action="Ben:declare"]')
    form.locator('label:has(input[name="f.buy.IBE"][value="1"])').click()
    enter(cris, "Cris:declare")
    ticked(ben, "Cris")
    assert form.locator('input[name="f.buy.IBE"][value="1"]').is_checked()
    # A seat acting for another is refused: by the page's own form posted for Ana, and by the API.
    ben_state = state(ben)
    status, answer = api(ben, "api/step", {"version": ben_state["version"], "player": "Ana", "n": 0, "key": new_key()})
    assert status == 403 and answer["error"] == "forbidden"
    status, _ = api(ben, "api/undo", {"version": ben_state["version"], "key": new_key()})
    assert status == 403  # the last step is Cris's
    forged = ben.evaluate("""async (v) => (await fetch('enter', {method: 'POST', body: new URLSearchParams(
        {v: v, p: 'Ana', a: '0', k: 'forged-key-000', 'f.sell.SAN': '1'})})).status""", ben_state["version"])
    assert forged == 403
    form.locator("button.go").click()
    settled(ben, ben_state["change"])
    assert t.record.read_text(encoding="utf-8").count("declare") == 0  # still secret: only in the journal
    enter(dani, "Dani:declare", {"f.buy.SAN": "1"})  # the last one: revealed, every company traded
    for page in (ana, ben, cris, host):
        last_by(page, "Dani")
    assert "Ana offers 1 IBE" in ben.locator("#last").inner_text()
    # After the reveal, no undo hides again what everyone has seen: a seat has none, and the host's
    # way back is a correction of the record, asked first, after which every declaration stays public.
    assert dani.locator("#undo").count() == 0 and host.locator("#undo").count() == 0
    status, _ = api(dani, "api/undo", {"version": state(dani)["version"], "key": new_key()})
    assert status == 403
    before = change(host)
    host.locator("#correct").click()
    until(host, "() => !!document.querySelector('#notice .confirm #confirm')")  # asked first
    assert change(host) == before
    host.locator("#notice #confirm").click()
    settled(host, before)
    for page in (ana, ben, cris, dani, host):
        caught_up(page)
        until(page, "() => document.querySelector('#status').textContent.includes('corrected the record')")
        seen = shown(page)
        assert (seen["players.Ana.offered.IBE"], seen["players.Ben.requested.IBE"]) == ("1", "1")  # still public
        assert "Ana offers 1 IBE" in page.locator("#last").inner_text()
    assert dani.locator("[data-action='Dani:declare']").count() == 1 and ana.locator("[data-action]").count() == 0
    enter(dani, "Dani:declare", {"f.buy.SAN": "1"})
    answer = checked(t.record)
    assert answer["state"]["round"] == 2 and answer["state"]["players"]["Ben"]["shares"]["IBE"] == 2

    # Round 2: two declarations, then the server is killed and started again mid-phase.
    enter(ana, "Ana:declare", {"f.buy.SAN": "1"})
    enter(ben, "Ben:declare", {"f.sell.SAN": "1"})
    t.restart()
    for name in players:  # every link still works: the same cookie, the same seat, the same secrets
        page = t[name]
        page.reload()
        assert page.locator("header .you").inner_text() == name
    assert "Ana requests 1 SAN" in ana.locator("#next .own").inner_text()
    assert "Ana requests 1 SAN" not in cris.content()
    enter(cris, "Cris:declare")
    enter(dani, "Dani:declare")
    for page in (ana, ben, host):
        last_by(page, "Dani")
    answer = assert_pages_show_the_record(t.record, ana, ben, cris, dani, host)
    assert answer["state"]["round"] == 3 and answer["state"]["players"]["Ana"]["shares"]["SAN"] == 2


@pytest.mark.slow  # the fast lane's browser test: each phone in its language (above)
def test_six_phones_follow_the_game_live(browser, table, shots):
    """Six seats' pages open while steps are entered: every page draws each step, without a
    reload; the delay from a step's post to each other page drawing it is printed. A 6-player
    page at 390×844 holds the player's form and the board in two screens."""
    players = ["Ana", "Ben", "Cris", "Dani", "Eva", "Fer"]
    t = table("bolsa", players)
    pages = [t[name] for name in players]
    for page in pages:
        page.evaluate("""() => { window.drawn = {}; new MutationObserver(() => {
            const c = document.body.dataset.change; if (!(c in window.drawn)) window.drawn[c] = Date.now(); })
            .observe(document.body, {attributes: true, attributeFilter: ["data-change"]}); }""")
    me = pages[0]
    me.screenshot(path=str(shots / "table-bolsa-6-seat-390.png"), full_page=True)
    next_top = me.evaluate("document.getElementById('next').getBoundingClientRect().top + window.scrollY")
    board_end = two_screens(me)
    print(f"\nthe 6-player Bolsa page at 390×844: its form from {next_top:.0f} px, the board's end at {board_end:.0f} px "
          f"({board_end / PHONE['height']:.2f} screens)")
    assert next_top < board_end <= 2 * PHONE["height"], board_end  # the form, then the whole board, in two screens
    sent: dict[int, float] = {}
    with httpx.Client(timeout=10) as client:
        for _ in range(2):
            for name in players:
                headers = {"Authorization": f"Bearer {t.tokens[name]}"}
                seen = client.get(f"{t.base}/api/state", headers=headers).json()
                body = {"version": seen["version"], "player": name, "n": 0, "values": {}, "key": new_key()}
                before = time.time() * 1000
                answer = client.post(f"{t.base}/api/step", json=body, headers=headers)
                assert answer.status_code == 200, answer.text
                sent[answer.json()["state"]["change"]] = before
                time.sleep(0.15)
    for page in pages:  # every page draws the last change (the delays say how soon)
        until(page, "last => Number(document.body.dataset.change) >= last", max(sent))
    delays = []
    for name, page in zip(players, pages, strict=True):
        drawn = page.evaluate("window.drawn")
        for number, when in sent.items():
            assert str(number) in drawn or number < max(int(c) for c in drawn), (name, number)
            if str(number) in drawn:
                delays.append(drawn[str(number)] - when)
    delays.sort()
    p50, p95 = delays[len(delays) // 2], delays[int(0.95 * len(delays))]
    print(f"six pages drawing each step: p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {delays[-1]:.0f} ms "
          f"({len(delays)} draws)")
    assert p95 < 3000  # live, not polled; the 300 ms target is a figure, measured on a quiet machine
    assert_pages_show_the_record(t.record, *pages)


# --- one phone, one connection ------------------------------------------------------------------------------


@pytest.mark.slow
def test_seven_tabs_of_one_browser_stay_live_and_keep_their_seats(browser, table):
    """Six seats and the host in seven tabs of one browser (one context: one cookie jar, one
    pool of six connections to a host): each tab keeps its own seat, one tab holds the one event
    stream and tells the others, every tab draws every step, and every tap lands at once."""
    players = ["Ana", "Ben", "Cris", "Dani", "Eva", "Fer"]
    t = table("bolsa", players, one_browser=True)
    tabs = [t[name] for name in (*players, "host")]
    for name, tab in zip((*players, "host"), tabs, strict=True):
        assert tab.locator("header .you").inner_text() == name
    assert "Ana" in t["Fer"].locator(".also").inner_text()  # the browser holds others: said, nothing switched
    until(tabs[0], "() => navigator.locks.query().then(q => q.held.length === 1 && q.pending.length === 6)")
    locks = tabs[0].evaluate("navigator.locks.query()")  # the lock of the one stream: held by one tab, six waiting
    assert {lock["name"] for lock in locks["held"] + locks["pending"]} == {f"pnp-events:127.0.0.1:{t.port}"}
    for name in players:
        began = time.monotonic()
        enter(t[name], f"{name}:declare")
        assert time.monotonic() - began < 10  # the tap lands (six streams once left it waiting 40 s)
        for tab in tabs:
            settled(tab, change(tab) - 1)
    last = state(t["host"])["change"]
    for name, tab in zip((*players, "host"), tabs, strict=True):
        until(tab, "last => Number(document.body.dataset.change) >= last", last)
        assert tab.locator("header .you").inner_text() == name  # each kept its seat throughout
    assert checked(t.record)["state"]["round"] == 2


# --- no lost tap ----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_tap_during_a_server_restart_is_kept_and_lands_once_the_server_is_back(browser, table):
    t = table("bolsa", ["Ana", "Ben", "Cris"])
    ana, ben = t["Ana"], t["Ben"]
    enter(ben, "Ben:declare", {"f.buy.IBE": "1"})
    caught_up(ana)
    t.kill()
    form = ana.locator('[data-action="Ana:declare"]')
    form.locator('label:has(input[name="f.sell.IBE"][value="1"])').click()
    form.locator("button.go").click()
    until(ana, "() => !document.getElementById('offline').hidden")  # the page says so
    assert "Offline" in ana.locator("#offline").inner_text() and ana.url == f"{t.base}/1/"  # no error page
    time.sleep(2)  # the page tries again meanwhile, out of reach
    t.start()
    until(ana, "() => document.querySelector('#next .own') !== null", timeout=30)
    until(ana, "() => document.getElementById('offline').textContent.includes('Sent')")
    log = [json.loads(line) for line in (t.record.parent / f".{t.record.name}.log").read_text().splitlines()]
    assert [(line["op"], line.get("player")) for line in log] == [("new", None), ("enter", "Ben"), ("enter", "Ana")]
    ana.reload()  # the kept entry was sent once, and is gone from the page's keeping
    assert ana.locator("#offline").is_hidden() and len(state(ana)["yours_in_secret"]) == 1


@pytest.mark.slow
def test_plain_form_posts_without_javascript_enter_a_step_of_each_game(browser, table):
    """With JavaScript off, every form is a plain post from the page: a step of each game by a
    seat, and the host's "Start from a position" (Bolsa: Ana starting with 70)."""
    for game, players in (("bolsa", ["Ana", "Ben", "Cris"]), ("aktsioner", ["Ana", "Ben", "Cris"]),
                          ("forex", ["Ana", "Ben", "Cris"])):
        t = table(game, players, script=False, who=["Ana", "host"])
        ana, host = t["Ana"], t["host"]
        if game == "bolsa":
            start = host.locator("details.position-form")
            start.locator("> summary").click()
            field = start.locator("label.field", has_text="Ana · cash").locator("input")
            field.fill("70")
            with host.expect_navigation():
                start.locator("button.go").click()
            assert checked(t.record)["state"]["players"]["Ana"]["cash"] == 70 and host.url == f"{t.base}/host/"
            ana.reload()  # (without JavaScript a page follows by hand)
        first = ana.locator("#next [data-action]").first
        action = first.get_attribute("data-action")
        with ana.expect_navigation():
            if first.evaluate("e => e.tagName") == "DETAILS":
                if first.get_attribute("open") is None:
                    first.locator("> summary").click()
                first.locator("button.go").click()
            elif first.evaluate("e => e.tagName") == "FORM":
                first.locator("button").first.click()
            else:
                first.click()
        assert ana.url == f"{t.base}/1/" and ana.locator("#notice section").count() == 0, action
        assert checked(t.record)["checked"] >= (0 if game == "bolsa" else 1)
        log = (t.record.parent / f".{t.record.name}.log").read_text()
        assert '"op": "enter", "by": "Ana"' in log, (game, action)


# --- the board for the room --------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_board_during_a_sealed_phase_shows_nothing_a_seat_does_not_live_and_without_forms(browser, table, shots):
    """Two tables alike but for Ana's sealed declaration: their boards (the room's screen) show
    the same, byte for byte but for each table's own address; the board has no form; it draws
    Ben's declaration live (his tick), and the reveal."""
    boards = []
    for declared in ({"f.sell.IBE": "1", "f.buy.TEF": "1"}, {"f.buy.SAN": "2"}):
        t = table("bolsa", ["Ana", "Ben", "Cris"], who=["Ana", "Ben", "Cris", "board"], viewport=LAPTOP)
        enter(t["Ana"], "Ana:declare", declared)
        ticked(t["board"], "Ana")
        boards.append(t)
    drawn = [t["board"].content().replace(t.base, "BASE") for t in boards]
    assert drawn[0] == drawn[1] and "<form" not in drawn[0]
    board = boards[0]["board"]
    assert "Ana offers" not in drawn[0] and "Ana requests" not in drawn[0]
    enter(boards[0]["Ben"], "Ben:declare")
    ticked(board, "Ben")  # live, no reload
    enter(boards[0]["Cris"], "Cris:declare")
    last_by(board, "Cris")
    assert "Ana offers 1 IBE" in board.locator("#last").inner_text() and board.locator("form").count() == 0
    board.screenshot(path=str(shots / "table-bolsa-board-1280.png"), full_page=True)
    assert_pages_show_the_record(boards[0].record, board)
