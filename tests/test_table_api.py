"""The table's JSON API and its guard: the answers a bot or another client reads (docs/table.md),
the same checks as the page (403 another seat's step, 409 a stale version, 422 a rule), the
stream of changes, and what an attacker on loopback meets — seats' secrets byte-for-byte out of
every other seat's answers, tokens compared in constant time, the same 403 whatever token, 4xx
for anything malformed, the Host check, no framing."""

from __future__ import annotations

import hmac
import json
import random
import re
import threading
import time
import urllib.parse

import httpx2 as httpx
import pytest
import uvicorn
from starlette.testclient import TestClient

from pnp.rules.lookup import worded
from pnp.table import files, game, own_hosts, seats
from pnp.table.game import TableGame
from pnp.table.steps import HOST, Actor
from pnp.table.web import create_app
from table_helpers import SPEC, declare, form_fields, free_port, new_key, phone

PLAYERS = ["Ana", "Ben", "Cris"]


class Table:
    """A table with its tokens and one client per seat (and the host), as phones with cookies."""

    def __init__(self, folder, game_id="bolsa", players=PLAYERS, hosts=None, base="http://testserver"):
        folder.mkdir(parents=True, exist_ok=True)
        self.game = TableGame.create(folder / "r.yaml", SPEC, game_id, players)
        self.tokens = files.seat_tokens(self.game.path, players)
        self.app = create_app(self.game, self.tokens, hosts=hosts)
        self.clients = {name: phone(self.app, token, base)  # the cookie, and the token out of the address
                        for name, token in [("host", self.tokens.host), *self.tokens.seats]}

    def __getitem__(self, name: str) -> TestClient:
        return self.clients[name]

    def state(self, name: str) -> dict:
        return self[name].get("/api/state").json()


@pytest.fixture
def table(tmp_path):
    found = Table(tmp_path)
    yield found
    found.game.close()


@pytest.fixture(scope="module")
def unchanged(tmp_path_factory):
    """One table for the tests that only read it or are refused (nothing they send is entered, and
    each test that sends something asserts the refusal): made once, not a table and its four
    phones per test."""
    found = Table(tmp_path_factory.mktemp("unchanged"))
    yield found
    found.game.close()


def test_the_state_is_the_seats_view_with_its_own_templates(unchanged):
    ana = unchanged.state("Ana")
    assert ana["you"] == {"seat": "Ana"} and ana["to_move"] == {"phase": "declare", "players": PLAYERS, "sealed": True}
    (declaration,) = ana["templates"]
    assert (declaration["player"], declaration["n"], declaration["kind"]) == ("Ana", 0, "declare")
    fields = {f["name"]: f for f in declaration["fields"]}
    assert fields["sell.IBE"] == {"name": "sell.IBE", "kind": "number", "low": 0, "high": 1}
    assert {"budget": {"weights": {"buy.IBE": 10, "buy.SAN": 10, "buy.TEF": 10, "buy.ITX": 10, "buy.FER": 10},
                       "limit": 50}} in declaration["constraints"]
    assert ana["position"] == unchanged.game.state_json() and ana["close"] is None
    host = unchanged.state("host")
    assert [t["player"] for t in host["templates"]] == PLAYERS and host["close"]["waiting"] == PLAYERS
    tagged = unchanged["Ana"].get("/api/state")
    assert unchanged["Ana"].get("/api/state", headers={"If-None-Match": tagged.headers["etag"]}).status_code == 304


def test_a_step_through_the_api_answers_as_the_page_does(table):
    ana = table.state("Ana")
    body = {"version": ana["version"], "player": "Ana", "n": 0, "values": {"sell.IBE": 1}, "key": new_key()}
    answer = table["Ana"].post("/api/step", json=body)
    assert answer.status_code == 200 and answer.json()["entry"]["events"][0]["data"] == {"player": "Ana",
                                                                                         "sell": {"IBE": 1}}
    assert answer.json()["state"]["yours_in_secret"][0]["kind"] == "declare"
    again = table["Ana"].post("/api/step", json=body)  # the same post again (its answer lost): made once, answered alike
    assert again.status_code == 200 and again.json()["repeated"] == answer.json()["state"]["change"]
    assert len(table.game.entries) == 1
    stale = table["Ana"].post("/api/step", json={**body, "key": new_key()}).json()  # a new key on the old form: stale
    assert stale["error"] == "stale" and stale["state"]["templates"] == []
    ben = table.state("Ben")
    assert ben["entered_in_secret"] == ["Ana"] and ben["version"] == table.state("Ben")["version"]
    other = table["Ben"].post("/api/step", json={**body, "version": ben["version"], "key": new_key()})  # Ana's, from Ben
    assert other.status_code == 403 and other.json()["error"] == "forbidden"
    too_dear = {"version": ben["version"], "player": "Ben", "n": 0, "values": {"buy.IBE": 2, "buy.SAN": 2, "buy.TEF": 2},
                "key": new_key()}
    refused = table["Ben"].post("/api/step", json=too_dear)
    assert refused.status_code == 422 and refused.json()["rule"] == "BOLSA-3.2.5"
    assert "[S" not in refused.json()["rule_text"] and "[D]" not in refused.json()["rule_text"]
    spanish = worded("bolsa", SPEC, "es")["BOLSA-3.2.5"].replace("**", "")  # no Accept-Language: the game's own
    assert refused.json()["rule_text"] == spanish and "{" not in spanish
    early = table["host"].post("/api/step", json={"version": table.state("host")["version"], "player": None, "n": 0,
                                                  "key": new_key()})
    assert early.status_code == 422 and "Ben, Cris" in early.json()["message"]
    undo = table["Ben"].post("/api/undo", json={"version": ben["version"], "key": new_key()})
    assert undo.status_code == 403  # the last step is Ana's
    mine = table["Ana"].post("/api/undo", json={"version": table.state("Ana")["version"], "key": new_key()})
    assert mine.status_code == 200 and mine.json()["undone"] == {"player": "Ana", "kind": "declare", "sealed": True}
    assert table.game.entries == ()


@pytest.mark.parametrize("body", [
    None, [], "x", {"version": 3}, {"version": "v", "player": 3, "n": 0}, {"version": "v", "player": "Ana", "n": -1},
    {"version": "v", "player": "Ana", "n": True}, {"version": "v", "player": "Ana", "n": 0, "values": []},
    {"version": "v", "player": "Ana", "n": 0, "values": {"sell.IBE": "1"}},
    {"version": "v", "player": "Ana", "n": 0, "values": {"sell.IBE": 10**30}},
    {"version": "v", "player": "Ana", "n": 0, "close": "yes"},
])
def test_a_malformed_step_is_400(unchanged, body):
    answer = unchanged["Ana"].post("/api/step", content=json.dumps(body), headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["error"] == "error"


def test_every_answer_to_seat_b_is_the_same_byte_for_byte_whatever_seat_a_declared(tmp_path, monkeypatch):
    """Two tables alike but for Ana's sealed declaration: every page, part, API answer and
    header Ben or the host gets is the same bytes in both (so nothing of hers can be read or
    derived from them: not the version, not an ETag), and none holds her entry's words."""
    monkeypatch.setattr(game, "_now", lambda: "2030-01-01T20:00:00Z")
    monkeypatch.setattr(files, "_token", iter([f"token-{n:02d}-abcdefghijklmnop" for n in range(40)]).__next__)
    worlds = []
    for n, declared in enumerate(({"sell_IBE": 1, "buy_TEF": 2}, {"buy_SAN": 1})):
        world = Table(tmp_path / f"world{n}")
        monkeypatch.setattr(files, "_token", iter([f"token-{k:02d}-abcdefghijklmnop" for k in range(40)]).__next__)
        declare(world.game, "Cris")  # (Cris first: a public phase mark, the same in both)
        declare(world.game, "Ana", **declared)
        worlds.append(world)
    secret = [ev.text for ev in worlds[0].game.entries[-1].events] + [ev.text for ev in worlds[1].game.entries[-1].events]
    for name in ("Ben", "host"):
        answers = []
        for world in worlds:
            client = world[name]
            got = [client.get(path) for path in ("/", "/api/state", "/api/state?fragments=1")]
            got.append(client.post("/api/step", json={"version": "x", "player": name if name != "host" else None,
                                                      "n": 0}))
            answers.append([(r.status_code, r.content.replace(b"world1", b"world0"),
                             sorted((k, v) for k, v in r.headers.items() if k not in ("date", "set-cookie")))
                            for r in got])
        assert answers[0] == answers[1], name
        for _, content, _ in answers[0]:
            assert not any(text.encode() in content for text in secret)
    for world in worlds:
        world.game.close()


def test_tokens_are_compared_in_constant_time_with_every_token(unchanged, monkeypatch):
    """The guard compares the given token with every seat's and the host's, through
    `hmac.compare_digest`, and never stops at the first match: the time tells nothing."""
    calls = []
    real = hmac.compare_digest

    def counted(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", counted)
    known = [unchanged.tokens.host, unchanged.tokens.board, *dict(unchanged.tokens.seats).values()]
    for given in (unchanged.tokens.host, unchanged.tokens.of("Cris"), "x" * 22, unchanged.tokens.of("Cris")[:-1] + "?"):
        calls.clear()
        TestClient(unchanged.app).get("/api/state", headers={"Authorization": f"Bearer {given}"})
        assert sorted(b for _, b in calls) == sorted(t.encode() for t in known)
        assert all(a == given.encode() for a, _ in calls)


@pytest.mark.parametrize("how", ["none", "wrong", "prefix", "name", "other table", "non-ascii", "empty"])
def test_a_wrong_or_missing_token_gets_the_same_403_that_names_no_seat(unchanged, tmp_path, how):
    other = files.seat_tokens(tmp_path / "elsewhere.yaml", PLAYERS).host
    given = {"none": None, "wrong": "x" * 22, "prefix": unchanged.tokens.host[:10], "name": "Ana",
             "other table": other, "non-ascii": "ÿé€☃" * 5, "empty": ""}[how]
    stranger = TestClient(unchanged.app, follow_redirects=False)
    bearer = {} if given is None else {"Authorization": f"Bearer {given}".encode()}
    cookie = {} if given is None else {"cookie": f"{_cookie(unchanged)}={given}".encode()}
    for answer in (stranger.get("/" if given is None else f"/?t={given}"), stranger.get("/api/state", headers=bearer),
                   stranger.post("/api/undo", json={"version": ""}, headers=cookie)):
        assert answer.status_code == 403
        assert answer.content == TestClient(unchanged.app).get("/").content  # the same bytes as no token at all
        assert not any(p.encode() in answer.content for p in PLAYERS)


def _cookie(table: Table) -> str:
    return table.app.access.cookie


def test_malformed_tokens_cookies_and_forms_are_answered_4xx_never_500(table):
    rng = random.Random(8)
    alphabet = "aZ09-_%&=;,\"'\\ <>/?#é€☃\x7f\x00\t" + "\U0001F600"
    raw = TestClient(table.app, raise_server_exceptions=False)
    ana = phone(table.app, table.tokens.of("Ana"), raise_server_exceptions=False)
    for _ in range(300):
        junk = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        kind = rng.randrange(6)
        if kind == 0:
            answer = raw.get("/", params={"t": junk})
        elif kind == 1:
            answer = raw.get("/api/state", headers={"cookie": f"{_cookie(table)}={junk}".encode()})
        elif kind == 2:
            answer = raw.get("/api/state", headers={"authorization": ("Bearer " + junk).encode()})
        elif kind == 3:  # a form of the page, its values junk
            fields = {rng.choice(["v", "p", "a", "f.sell.IBE", "g.x.0", "c.y", "close", junk]): junk for _ in range(4)}
            answer = ana.post("/enter", data=fields)
        elif kind == 4:
            answer = ana.post("/api/step", content=junk.encode(),
                              headers={"content-type": rng.choice(["application/json", "application/x-www-form-urlencoded",
                                                                   "multipart/form-data; boundary=x", "text/plain"])})
        else:
            answer = ana.get("/rule/" + urllib.parse.quote(junk, safe=""))
        assert 200 <= answer.status_code < 500, (kind, junk, answer.status_code, answer.text[:300])
    assert table.game.entries == () or all(e.player == "Ana" for e in table.game.entries)


def test_on_loopback_only_the_servers_own_host_names_are_answered(tmp_path):
    """A page of another site whose name its DNS rebinds to 127.0.0.1 sends its own Host: refused."""
    port = 8123
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS)
    tokens = files.seat_tokens(table.path, PLAYERS)
    app = create_app(table, tokens, hosts=own_hosts(port))
    for base, status in ((f"http://127.0.0.1:{port}", 303), (f"http://localhost:{port}", 303), ("http://[::1]", 303),
                         ("http://evil.example", 400), (f"http://evil.example:{port}", 400),
                         (f"http://127.0.0.1.evil.example:{port}", 400)):
        answer = TestClient(app, base_url=base, follow_redirects=False).get(f"/?t={tokens.host}")
        assert answer.status_code == status, base
    table.close()


def test_every_answer_forbids_framing(unchanged):
    for answer in (unchanged["Ana"].get("/"), unchanged["Ana"].get("/api/state"), unchanged["Ana"].get("/static/table.css"),
                   TestClient(unchanged.app).get("/"), unchanged["Ana"].get("/rule/BOLSA-9.9"),
                   unchanged["Ana"].post("/undo", data={"v": "old"})):
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert answer.headers["x-frame-options"] == "DENY"


def test_posts_from_another_site_and_large_bodies_are_refused(table):
    other = table["Ana"].post("/api/undo", json={"version": "", "key": new_key()}, headers={"origin": "http://evil.example"})
    assert other.status_code == 403
    fetched = table["Ana"].post("/api/undo", json={"version": "", "key": new_key()}, headers={"sec-fetch-site": "cross-site"})
    assert fetched.status_code == 403
    big = table["Ana"].post("/enter", data={"v": "x", "a": "0", "f.pad": "1" * 40_000})
    assert big.status_code == 413

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b"f.x=" + b"1" * 1000 + b"&"

    streamed = table["Ana"].post("/enter", content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"})
    assert streamed.status_code == 413 and table.game.entries == ()


def test_a_form_posts_from_its_own_page_whatever_the_referrer_policy(table):
    """The pages send no referrer, so Chromium posts their forms with `Origin: null`: its fetch
    metadata (`Sec-Fetch-Site: same-origin`) says where they come from. A browser that says
    nothing posts the form's host-bound token, which a page of another site cannot make."""
    page = table["Ana"].get("/").text
    fields = {**form_fields(page, "enter"), "f.sell.IBE": "1"}
    refused = table["Ana"].post("/enter", data={**fields, "h": ""}, headers={"origin": "null", "sec-fetch-site": ""})
    assert refused.status_code == 403 and table.game.entries == ()  # no metadata and no token: not from the page
    elsewhere = table["Ana"].post("/enter", data=fields, headers={"origin": "null", "sec-fetch-site": "same-site"})
    assert elsewhere.status_code == 403 and table.game.entries == ()
    plain = table["Ana"].post("/enter", data=fields, headers={"origin": "null", "sec-fetch-site": ""})  # its token
    assert plain.status_code == 303 and [e.player for e in table.game.entries] == ["Ana"]
    again = table["Ana"].post("/enter", data=fields, headers={"origin": "null"})  # the browser's retry: once
    assert again.status_code == 303 and len(table.game.entries) == 1
    host_page = table["host"].get("/").text
    other_host = table["host"].post("/undo", data=form_fields(host_page, "undo"), headers={"sec-fetch-site": "",
                                                                                        "host": "127.0.0.1:9"})
    assert len(table.game.entries) == 1
    assert other_host.status_code == 403  # the token is bound to the name the page was served under


def test_the_page_posts_a_form_and_shows_a_refusal_with_the_rules_words(table):
    page = table["Ana"].get("/").text
    assert 'name="p" value="Ana"' in page and "Ben" not in page.split('id="next"')[1].split('id="position"')[0]
    body = {**form_fields(page, "enter"), "f.buy.IBE": "2", "f.buy.SAN": "2", "f.buy.TEF": "2"}
    refused = table["Ana"].post("/enter", data=body)
    assert refused.status_code == 422 and 'data-rule="BOLSA-3.2.5"' in refused.text and "[S:" not in refused.text
    assert table["Ana"].post("/enter", data={**body, "p": "Ben"}).status_code == 403
    assert table["Ana"].post("/enter", data={**body, "a": "x"}).status_code == 400
    entered = table["Ana"].post("/enter", data={**form_fields(page, "enter"), "f.sell.IBE": "1"})
    assert entered.status_code == 303 and [e.player for e in table.game.entries] == ["Ana"]
    undone = table["Ana"].post("/undo", data=form_fields(table["Ana"].get("/").text, "undo"))
    assert undone.status_code == 303 and table.game.entries == ()
    replayed = table["Ana"].post("/enter", data={**form_fields(page, "enter"), "f.sell.IBE": "1"})  # after her undo
    assert replayed.status_code == 409 and table.game.entries == ()  # made once: not again
    anew = table["Ana"].post("/enter", data={**form_fields(table["Ana"].get("/").text, "enter"), "f.sell.IBE": "1"})
    assert anew.status_code == 303 and len(table.game.entries) == 1  # the same step from the page drawn again: a new form


def test_the_rule_page_shows_the_rule_without_the_files_editorial_notes(unchanged):
    page = unchanged["Ana"].get("/rule/BOLSA-3.2.5")
    booklet = next(c for c in unchanged.app.languages.game("es").components if c.kind == "booklet")
    said = booklet.rules_words["declaration_cash_check"]
    assert page.status_code == 200 and "declaration_cash_check" not in page.text  # a house rule by its words
    assert f"{said.name}: {said.values['total']}" in page.text
    assert "[S" not in page.text and "[D]" not in page.text and "si tienen" not in page.text
    assert unchanged["Ana"].get("/rule/BOLSA-5.33").status_code == 404


# --- the stream of changes, from a real server ------------------------------------------------------------


class Threaded:
    def __init__(self, app):
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


def test_the_events_stream_tells_every_seat_of_each_change_and_nothing_it_holds(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS)
    tokens = files.seat_tokens(table.path, PLAYERS)
    served = Threaded(create_app(table, tokens))
    heard: list[dict] = []
    ready = threading.Event()

    def listen():
        with httpx.stream("GET", f"http://127.0.0.1:{served.port}/api/events", timeout=10,
                          headers={"Authorization": f"Bearer {tokens.of('Ben')}"}) as stream:
            event = None
            for line in stream.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    heard.append({"event": event, **json.loads(line[6:])})
                    ready.set()
                    if len(heard) == 3:
                        return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    try:
        assert ready.wait(10)
        declare(table, "Ana", sell_IBE=1)
        table.undo(Actor("Ana"), seats.version(table, Actor("Ana")))
        listener.join(10)
        assert [(h["event"], h.get("op"), h.get("player"), h.get("sealed")) for h in heard] == [
            ("hello", None, None, None), ("change", "enter", "Ana", True), ("change", "undo", "Ana", True)]
        assert "IBE" not in json.dumps(heard) and heard[0]["change"] + 2 == heard[2]["change"]
    finally:
        served.stop()
        table.close()


def test_the_host_sees_every_seats_link_and_a_seat_only_its_own(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS)
    tokens = files.seat_tokens(table.path, PLAYERS)
    app = create_app(table, tokens, "http://x/")
    host = phone(app, tokens.host)
    ana = phone(app, tokens.of("Ana"))
    assert all(t in host.get("/").text for _, t in tokens.seats) and tokens.host not in host.get("/").text
    assert tokens.board in host.get("/").text
    page = ana.get("/").text
    assert tokens.of("Ana") in page and tokens.of("Ben") not in page and tokens.host not in page
    assert seats.view(table, HOST).actor == HOST
    table.close()


def test_a_dealt_hand_is_shown_only_to_the_seat_that_holds_it(tmp_path, monkeypatch):
    """Акционер with a deal in the record: every answer to Ana is the same bytes whatever the
    others hold (the engine's view cuts their hands down to backs), and shows her own cards."""
    from pnp.referee import record as records
    from pnp.referee.replay import referee_for, state_json
    from pnp.rules import GAMES

    engine, referee = GAMES["aktsioner"].engine, referee_for("aktsioner")
    params = engine.params(SPEC.games["aktsioner"])
    dealt, _ = engine.setup(params, PLAYERS, engine.deal(params, PLAYERS, random.Random(4)))
    redrawn = engine.determinize(engine.view(dealt, params, 0), params, 0, random.Random(9))  # Ana's view kept
    hands = [state_json("aktsioner", s, params)["hands"] for s in (dealt, redrawn)]
    assert hands[0]["Ana"] == hands[1]["Ana"] and hands[0]["Ben"] != hands[1]["Ben"]
    answers = []
    for n, state in enumerate((dealt, redrawn)):
        folder = tmp_path / f"world{n}"
        folder.mkdir()
        (folder / "r.yaml").write_text(records.dump(referee.record(params, PLAYERS, (), start=state)), encoding="utf-8")
        table = TableGame.open(folder / "r.yaml", SPEC)
        monkeypatch.setattr(files, "_token", iter([f"token-{k:02d}-abcdefghijklmnop" for k in range(9)]).__next__)
        tokens = files.seat_tokens(table.path, PLAYERS)
        client = phone(create_app(table, tokens), tokens.of("Ana"))
        got = [client.get(path) for path in ("/", "/api/state", "/api/state?fragments=1")]
        answers.append([(r.status_code, r.content.replace(b"world1", b"world0")) for r in got])
        assert all(card.encode() in got[0].content for card in hands[n]["Ana"])
        ben = phone(create_app(table, tokens), tokens.of("Ben"))
        assert ben.get("/api/state").json()["position"]["hands"]["Ben"] == hands[n]["Ben"]
        table.close()
    assert answers[0] == answers[1]


def test_bolsa_in_the_players_words(table):
    """The secret line says what it is before and after the seat has declared; the undo, at the
    top with the seat's step, says what it takes back; the bid form names the company auctioned,
    its quote and the best bid; no step is named by the engine's key."""
    for client in table.clients.values():
        client.headers["accept-language"] = "en"
    ana = table["Ana"]
    before = ana.get("/").text
    assert "nothing chosen: nothing" in before and "Yours is in" not in before
    declare(table.game, "Ana", sell_IBE=1)
    after = ana.get("/").text
    nexts = after.split('id="next"')[1].split('id="position"')[0]
    assert "Yours is in" in nexts and "nothing chosen" not in nexts
    assert 'id="undo"' in nexts and "Undo my step: Declare" in nexts  # reachable at the top, in words
    declare(table.game, "Ben", buy_IBE=1)
    declare(table.game, "Cris", buy_IBE=1)  # two buyers of IBE, one card offered: IBE is auctioned (BOLSA-5)
    auction = table.state("Ana")["position"]["trade"]
    assert auction["company"] == "IBE" and auction["auction"] is not None
    bidder = auction["auction"]["to_act"]
    page = table[bidder].get("/").text
    bid = page.split('data-group="' + bidder + ':bid"')[1].split("</details>")[0]
    assert "IBE" in bid and f"quote {auction['quote']}" in bid  # the company being auctioned, named at the form
    labels = re.findall(r"<(?:summary|button)[^>]*>(.*?)</(?:summary|button)>", page, re.S)
    assert not [text for text in labels if re.match(r"\s*(?:<[^>]+>\s*)*(declare|bid|pass|resolve)\b", text)]
