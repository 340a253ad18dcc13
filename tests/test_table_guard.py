"""What the table holds to for a whole evening, through its app: each seat's page at its own
address (tabs of one browser keep their seats, and say when the browser holds another), a
change made once per key (a retry, a replay after the seat's own undo), a link revoked at once
(its open streams ended too), bodies bounded in depth and in time, the board view with no form
and nothing secret, the questions asked before closing a phase early or correcting the record,
a bot in an empty seat whose declarations are as secret as a person's, and Ctrl-C stopping the
server cleanly with the line that goes on."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import re
import signal
import subprocess
import threading
import time

import httpx2 as httpx
import pytest
from starlette.testclient import TestClient

from pnp.table import files, game
from pnp.table.game import TableGame
from pnp.table.middleware import Guard
from pnp.table.web import create_app
from table_helpers import SPEC, declare, form_fields, free_port, new_key, phone, serve, stop, tokens

PLAYERS = ["Ana", "Ben", "Cris"]


@pytest.fixture
def table(tmp_path):
    made = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS)
    yield made
    made.close()


def app_of(table: TableGame, **options):
    tokens_ = files.seat_tokens(table.path, table.players)
    return create_app(table, tokens_, "http://table.local/", **options), tokens_


def test_each_tab_keeps_its_own_seat_and_the_page_says_the_browser_holds_another(table):
    """One browser (one cookie jar) opens Ana's link, then Ben's: each page lives at its own
    address with its own cookie, Ana's page stays Ana's, and Ben's says the browser holds Ana's."""
    app, tokens_ = app_of(table)
    browser = TestClient(app, follow_redirects=False)
    first = browser.get(f"/?t={tokens_.of('Ana')}")
    second = browser.get(f"/?t={tokens_.of('Ben')}")
    assert (first.headers["location"], second.headers["location"]) == ("/1/", "/2/")
    assert "Path=/1/" in first.headers["set-cookie"] and "Path=/2/" in second.headers["set-cookie"]
    ana, ben = browser.get("/1/"), browser.get("/2/")
    assert '<span class="you">Ana</span>' in ana.text and '<span class="you">Ben</span>' in ben.text
    assert "Ana" in re.search(r'<p class="also"[^>]*>(.*?)</p>', ben.text).group(1)
    assert browser.get("/1/api/state").json()["you"] == {"seat": "Ana"}  # the first tab: still Ana's
    assert browser.get("/3/").status_code == 403 and browser.get("/").status_code == 403  # Cris's: not this browser's


def test_a_change_is_made_once_per_key_even_replayed_after_the_seats_own_undo(table):
    app, tokens_ = app_of(table)
    ana = phone(app, tokens_.of("Ana"))
    state = ana.get("/api/state").json()
    body = {"version": state["version"], "player": "Ana", "n": 0, "values": {"sell.IBE": 1}, "key": new_key()}
    assert ana.post("/api/step", json=body).status_code == 200
    undo = ana.post("/api/undo", json={"version": ana.get("/api/state").json()["version"], "key": new_key()})
    assert undo.status_code == 200 and table.entries == ()
    replayed = ana.post("/api/step", json=body)  # the same post, the version the same again after the undo
    assert replayed.status_code == 409 and replayed.json()["error"] == "repeated" and table.entries == ()
    again = ana.post("/api/step", json={**body, "key": new_key()})  # the same step, asked anew
    assert again.status_code == 200 and len(table.entries) == 1
    assert ana.post("/api/step", json={**body, "key": "short"}).status_code == 400
    assert ana.post("/api/step", json={k: v for k, v in body.items() if k != "key"}).status_code == 400
    reopened = TableGame.open(table.path, SPEC, lock=False)  # the keys are kept across a restart
    assert body["key"] in reopened.keys and again.json()["state"]["change"] == reopened.keys[json.loads(
        files.beside(table.path, "log").read_text().splitlines()[-1])["key"]]


def off_the_main_thread(test):
    """Run `test` in a thread of its own: a session's Playwright browser (the sync API) keeps an
    event loop running on the main thread, where `asyncio.run` then refuses to start another."""
    @functools.wraps(test)
    def run(*args, **kwargs):
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(test, *args, **kwargs).result()

    return run


@off_the_main_thread
def test_a_revoked_link_is_refused_at_once_and_its_stream_ends(table):
    app, tokens_ = app_of(table)
    host, ana = phone(app, tokens_.host), phone(app, tokens_.of("Ana"))
    old = tokens_.of("Ana")
    streams = app.hub.streams
    loop = asyncio.new_event_loop()
    queue = loop.run_until_complete(_subscribed(app, old))
    page = host.get("/").text
    assert old in page and tokens_.board in page
    answer = host.post("/reissue", data={**form_fields(page, "reissue"), "who": "Ana"})
    assert answer.status_code == 303
    new = files.seat_tokens(table.path, table.players).of("Ana")
    assert new != old and ana.get("/").status_code == 403  # the old link's page: shut out at once
    assert loop.run_until_complete(asyncio.wait_for(queue.get(), 1)) is None  # its stream told to end
    assert phone(app, new).get("/api/state").json()["you"] == {"seat": "Ana"} and new in host.get("/").text
    own = host.post("/api/reissue", json={"version": "", "key": new_key(), "who": "host"})
    assert own.status_code == 200 and "Path=/host/" in own.headers["set-cookie"]  # the host's page keeps working
    assert host.get("/api/state").json()["you"] == {"host": True} and app.hub.streams >= streams
    loop.close()


async def _subscribed(app, token):
    return app.hub.subscribe(token)


@off_the_main_thread
def test_json_nested_deep_or_bodies_too_slow_are_refused_4xx(table):
    app, tokens_ = app_of(table)
    ana = phone(app, tokens_.of("Ana"), raise_server_exceptions=False)
    deep = "[" * 1100 + "]" * 1100  # 2.2 KB
    for path in ("/api/step", "/api/undo", "/api/reissue"):
        answer = ana.post(path, content=deep.encode(), headers={"content-type": "application/json"})
        assert answer.status_code in (400, 403) and answer.headers["content-type"].startswith(("application/json",
                                                                                                "text/plain"))
    assert ana.post("/api/step", content=deep.encode(), headers={"content-type": "application/json"}).json()[
        "error"] == "error"

    async def stalled():
        await asyncio.sleep(5)
        return {"type": "http.request", "body": b"", "more_body": False}

    sent = []

    async def send(message):
        sent.append(message)

    async def app_reading(scope, receive, send):
        from starlette.requests import Request
        from starlette.responses import PlainTextResponse

        try:
            await Request(scope, receive).body()
        except Exception as error:  # what a route sees: the 408 the app answers
            await PlainTextResponse("", status_code=getattr(error, "status_code", 500))(scope, receive, send)

    guard = Guard(app_reading, app.access, body_seconds=0.2)
    scope = {"type": "http", "method": "POST", "path": "/api/step", "raw_path": b"/api/step", "query_string": b"",
             "root_path": "", "headers": [(b"authorization", f"Bearer {tokens_.of('Ana')}".encode()),
                                          (b"host", b"testserver")]}
    began = time.monotonic()
    asyncio.run(guard(scope, stalled, send))
    assert sent[0]["status"] == 408 and time.monotonic() - began < 2


def test_the_board_view_has_no_form_and_nothing_secret(table):
    """The board's page (and a seat's page shown as the board): no form at all, and a post from
    it refused (the browser test compares what it shows with what a seat sees)."""
    app, tokens_ = app_of(table)
    board = phone(app, tokens_.board)
    assert board.base_url.path == "/board/" and "<form" not in board.get("/").text
    assert board.get("/api/state").json()["templates"] == [] and board.get("/api/state").json()["you"] == {"board": True}
    refused = board.post("/api/step", json={"version": "", "player": "Ana", "n": 0, "key": new_key()})
    assert refused.status_code == 403 and table.entries == ()
    seat_view = phone(app, tokens_.of("Ben")).get("/", params={"view": "board"})  # a seat's own page, as the board
    assert seat_view.status_code == 200 and "<form" not in seat_view.text


def test_closing_a_phase_early_and_correcting_the_record_are_asked_first(table):
    app, tokens_ = app_of(table)
    host = phone(app, tokens_.host)
    declare(table, "Ana", sell_IBE=1)
    page = host.get("/").text
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                             page.split('class="quick close"', 1)[1].split("</form>", 1)[0]))
    asked = host.post("/enter", data=fields)
    assert asked.status_code == 200 and 'id="confirm"' in asked.text and len(table.entries) == 1  # nothing closed yet
    confirm = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                              asked.text.split('class="choice confirm"', 1)[1].split("</form>", 1)[0]))
    assert confirm["confirm"] == "1" and confirm["k"] == fields["k"]
    assert host.post("/enter", data=confirm).status_code == 303
    assert table.entries[-1].closed == ("Ben", "Cris")  # closed, as the host confirmed
    state = host.get("/api/state").json()
    correcting = host.post("/api/correct", json={"version": state["version"], "key": new_key()})
    assert correcting.status_code == 409 and correcting.json()["error"] == "confirm"
    made = host.post("/api/correct", json={"version": state["version"], "key": new_key(), "confirm": True})
    assert made.status_code == 200 and made.json()["undone"]["player"] is None and table.public_count() == 1
    assert phone(app, tokens_.of("Ben")).get("/api/state").json()["position"]["players"]["Ana"]["offered"]["IBE"] == 1
    assert phone(app, tokens_.of("Ben")).post("/api/correct", json={"version": "", "key": new_key(),
                                                                    "confirm": True}).status_code == 403


def test_a_bot_in_an_empty_seat_declares_in_secret_through_the_seats_checks(tmp_path, monkeypatch):
    monkeypatch.setattr(game, "_now", lambda: "2030-01-01T20:00:00Z")
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", ["Ana", "Ben", "Bot"], {"rounds": 1})
    tokens_ = files.seat_tokens(table.path, table.players, bots={"Bot": "search:20"})
    app = create_app(table, tokens_, think=0.05)
    with TestClient(app) as running:  # the lifespan: the bots play
        deadline = time.monotonic() + 30
        while not table.entries and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [(e.player, e.by, e.waiting) for e in table.entries] == [("Bot", "Bot", True)]
        ana = phone(app, tokens_.of("Ana"))
        seen = ana.get("/api/state").json()
        assert seen["entered_in_secret"] == ["Bot"] and seen["position"] == table.state_json(table.first)
        assert not any(ev.text in ana.get("/").text for ev in table.entries[0].events if "Bot" in ev.text)
        assert "Bot" not in table.path.read_text().split("rounds:")[-1]  # secret: in the journal, not the record
        running.get("/")  # (the app still answers while the bot has thought)
    table.close()


def test_ctrl_c_ends_the_streams_and_stops_with_the_line_that_goes_on(tmp_path):
    path, port = tmp_path / "r.yaml", free_port()
    server = serve(path, port, "--new", "bolsa", "--players", "Ana,Ben,Cris")
    heard = []

    def listen():
        with httpx.stream("GET", f"http://127.0.0.1:{port}/api/events", timeout=20,
                          headers={"Authorization": f"Bearer {tokens(path)['seats']['Ana']}"}) as stream:
            for line in stream.iter_lines():
                heard.append(line)

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    deadline = time.monotonic() + 10
    while not heard and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        began = time.monotonic()
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=15)
        assert server.returncode == 0 and time.monotonic() - began < 5
        assert "Traceback" not in err and f"go on with `pnp table {path} --port {port}`" in out.splitlines()[-1]
        listener.join(5)
        assert not listener.is_alive()  # its stream ended with the server
    except subprocess.TimeoutExpired:
        server.kill()
        raise
    finally:
        stop(server)


def test_a_connection_whose_request_head_is_late_is_closed(table, monkeypatch):
    """A client that connects and sends its request's head slowly (or never) holds no
    connection for long: the server closes it `HEAD_SECONDS` after connecting; a whole request
    in time is answered."""
    import socket

    import uvicorn

    from pnp.table import serve

    monkeypatch.setattr(serve, "HEAD_SECONDS", 0.3)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(table), host="127.0.0.1", port=port, log_level="warning",
                                           http=serve._Protocol, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as slow:
            slow.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the head, unfinished
            began = time.monotonic()
            assert slow.recv(100) == b"" and time.monotonic() - began < 3  # closed, unanswered
        assert httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=5).status_code == 200
    finally:
        server.should_exit = True
        thread.join(10)


def test_the_host_lets_a_bot_play_a_seat_and_takes_it_back(tmp_path):
    """From the host's page (a plain form post): a bot takes Cris's seat, kept beside the record,
    and declares for Cris, in secret, through Cris's own checks; then the seat is a person's again."""
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS, {"rounds": 1})
    tokens_ = files.seat_tokens(table.path, table.players)
    app = create_app(table, tokens_, "http://table.local/", think=0.05)
    with TestClient(app):
        host = phone(app, tokens_.host)
        host.headers["accept-language"] = "en"
        page = host.get("/").text
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                                 page.split('value="Cris">', 1)[1].split("</form>", 1)[0]))
        seated = host.post("/bot", data={**fields, "seat": "Cris", "bot": "search:10"})
        assert seated.status_code == 303 and files.seat_tokens(table.path, table.players).bots == (("Cris", "search:10"),)
        deadline = time.monotonic() + 30
        while not table.entries and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [(e.player, e.by, e.waiting) for e in table.entries] == [("Cris", "Cris", True)]
        assert "played by the bot search:10" in host.get("/").text
        back = host.post("/bot", data={**fields, "seat": "Cris", "bot": ""})
        assert back.status_code == 303 and files.seat_tokens(table.path, table.players).bots == ()
        refused = host.post("/bot", data={**fields, "seat": "Cris", "bot": "nobody"})
        assert refused.status_code == 400 and "search" in refused.text
    table.close()
