"""`pnp table` without a browser: the record file as the truth (written before the answer,
atomically, resumed by replay), secret declarations, undo, the position form, and the server's
rules — one winner for two submissions of one step, the token, body limits, posts from
elsewhere refused, a server killed between two steps."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx  # the test extra installs httpx2, as Starlette's TestClient wants
import pytest
from starlette.testclient import TestClient

from pnp.cli import main
from pnp.errors import UsageError
from pnp.referee import check, reads_record
from pnp.rules import legal, load_spec
from pnp.table.game import NeedsChoice, Refused, Stale, Submission, TableGame, pending_path
from pnp.table.forms import position_form
from pnp.table.web import create_app

SPEC = load_spec(None)
ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ana", "Ben", "Cris"]


def checked(path: Path) -> dict:
    """`pnp referee check --json` on the file, which must exit 0."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["referee", "check", str(path), "--json"])
    assert code == 0, out.getvalue()
    return json.loads(out.getvalue())


def shown(table: TableGame) -> dict:
    state, _ = table.shown()
    return table.state_json(state)


def form(table: TableGame, player: str | None, kind: str) -> int:
    """The number of the legal action a page would show for `player` and `kind`."""
    return next(i for i, t in enumerate(table.templates()) if t.player == player and t.kind == kind)


def declare(table: TableGame, player: str, **counts: int) -> None:
    """A Bolsa declaration as the page posts it: `sell_IBE=1, buy_TEF=2`."""
    picks = {key.replace("_", "."): n for key, n in counts.items()}
    table.enter(table.version, Submission(form(table, player, "declare"), picks))


# --- the game and its files ----------------------------------------------------------------------


def test_secret_declarations_wait_beside_the_record_until_all_have_declared(tmp_path):
    path = tmp_path / "night.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    before = checked(path)["state"]
    declare(table, "Ana", sell_IBE=1)
    declare(table, "Ben", buy_IBE=1)
    # The record still shows the position before the phase, which is what the page shows too;
    # the two declarations wait in the pending file and nobody sees them.
    assert checked(path)["state"] == before == shown(table)
    assert pending_path(path).is_file() and [e.player for e in table.entries if e.sealed] == ["Ana", "Ben"]
    declare(table, "Cris")  # the last declaration: revealed, the five companies traded
    assert not pending_path(path).exists()
    answer = checked(path)
    assert answer["state"] == shown(table) and answer["state"]["round"] == 2
    assert answer["state"]["players"]["Ben"]["shares"]["IBE"] == 2 and answer["state"]["prices"]["IBE"] == 10
    assert len(table.entries) == 3 and len(table.entries[-1].actions) == 1 + 2 * 5  # Cris's, then the table's steps


def test_an_illegal_entry_changes_nothing_and_names_its_rule(tmp_path):
    path = tmp_path / "night.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    data, version = path.read_bytes(), table.version
    with pytest.raises(Refused) as refused:  # 2 × 10 + 2 × 10 + 2 × 10 = 60 > 50 cash
        declare(table, "Ana", buy_IBE=2, buy_SAN=2, buy_TEF=2)
    assert refused.value.rule == "BOLSA-3.2.5" and "60 but holds 50" in refused.value.message
    assert path.read_bytes() == data and table.version == version and table.entries == ()


def test_a_stale_version_is_refused_and_the_step_is_entered_once(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "forex", PLAYERS)
    old = table.version
    invest = Submission(form(table, "Ana", "invest"), {"currencies": (0,)})
    table.enter(old, invest)
    with pytest.raises(Stale):
        table.enter(old, invest)
    answer = checked(tmp_path / "r.yaml")
    assert len(table.entries) == 1 and answer["checked"] == 1
    assert answer["state"]["players"]["Ana"]["certificates"]["GBP"] == 1


def test_undo_takes_back_one_entry_at_a_time_down_to_the_setup(tmp_path):
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "aktsioner", PLAYERS)
    first = path.read_bytes()
    table.enter(table.version, Submission(form(table, "Ana", "begin")))
    table.enter(table.version, Submission(form(table, "Ana", "play")))
    after_play = checked(path)["state"]
    table.enter(table.version, Submission(form(table, "Ben", "begin")))
    table.undo(table.version)
    assert checked(path)["state"] == after_play == shown(table)
    table.undo(table.version)
    table.undo(table.version)
    assert path.read_bytes() == first and not pending_path(path).exists()
    with pytest.raises(Refused):
        table.undo(table.version)


def test_reopening_resumes_at_the_same_step_pending_entries_included(tmp_path):
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    declare(table, "Ana", sell_IBE=1)  # a secret declaration waits beside the record
    assert pending_path(path).is_file()
    again = TableGame.open(path, SPEC)
    assert again.version == table.version and shown(again) == shown(table)
    assert [e.actions for e in again.entries] == [e.actions for e in table.entries]


@pytest.mark.parametrize("game, entries, stops", [
    ("forex", [("Ana", "contract", {"pay": 0, "receive": 1, "amount": 2}), ("Ben", "spot", {"deal": 0})],
     "the turn's action"),
    ("aktsioner", [("Ana", "begin", {}), ("Ana", "trade", {"sell.red": 1})], "the card"),
])
def test_a_step_entered_halfway_is_in_the_record_itself(tmp_path, game, entries, stops):
    """Issue #15: the record file is a valid record whose checked state is the page's, also
    in the middle of a turn (before {stops}); nothing waits beside it."""
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, game, PLAYERS)
    for player, kind, picks in entries:
        table.enter(table.version, Submission(form(table, player, kind), picks))
        assert checked(path)["state"] == shown(table) and not pending_path(path).exists()
    again = TableGame.open(path, SPEC)
    assert again.version == table.version and [e.actions for e in again.entries] == [e.actions for e in table.entries]


def test_an_auction_and_the_losers_choice_are_in_the_record_as_they_happen(tmp_path):
    """Bolsa under `may_withdraw`: the record stops before IBE is settled (`unsettled: IBE`)
    while its auction runs and while its loser chooses; at every step it checks to the page."""
    path = tmp_path / "r.yaml"
    path.write_text("game: bolsa\nplayers: [Ana, Ben, Cris]\noptions: {auction_losers: may_withdraw}\n", encoding="utf-8")
    table = TableGame.open(path, SPEC)
    declare(table, "Ana", sell_IBE=1)
    declare(table, "Ben", buy_IBE=1)
    declare(table, "Cris", buy_IBE=1)  # two buyers for one share: an auction (BOLSA-4.5.2)
    steps = [("Ben", "bid", {"amount": 11}), ("Cris", "pass", {}), ("Cris", "withdraw", {})]
    for player, kind, picks in [(None, None, None), *steps]:
        if kind is not None:
            table.enter(table.version, Submission(form(table, player, kind), picks))
        answer = checked(path)
        assert answer["state"] == shown(table) and not pending_path(path).exists()
        unsettled = "unsettled: IBE" in path.read_text(encoding="utf-8")
        assert unsettled == (kind != "withdraw")  # the withdrawal was the last choice: settled, on to SAN…
    assert answer["state"]["players"]["Ben"]["shares"]["IBE"] == 2 and answer["state"]["prices"]["IBE"] == 11
    assert answer["state"]["players"]["Cris"]["orders"]["IBE"] == 2 and answer["state"]["round"] == 2


@pytest.mark.parametrize("game, seed", [(game, seed) for game in ("bolsa", "aktsioner", "forex") for seed in (1, 2)])
def test_random_play_at_the_table_keeps_the_record_at_the_page(tmp_path, game, seed):
    """Entries drawn at random from what the page offers (and an undo now and then): after
    each, the record file checks clean to the position the page shows, and only a sealed
    phase's entries wait beside it."""
    path, rng = tmp_path / "r.yaml", random.Random(seed)
    table = TableGame.create(path, SPEC, game, PLAYERS)
    for _ in range(150):
        if table.to_move() is None:
            break
        if table.entries and rng.random() < 0.1:
            table.undo(table.version)
        else:
            templates = table.templates()
            people = [i for i, t in enumerate(templates) if t.player is not None]  # as the page waits for them
            index = rng.choice(people or range(len(templates)))
            values = legal.draw(templates[index], rng)
            try:
                table.enter(table.version, Submission(index, _picks(templates[index], values)))
            except NeedsChoice as needed:
                table.enter(table.version, Submission(index, _picks(templates[index], values), {needed.needed.what: 0}))
        answer = check(reads_record(path.read_text(encoding="utf-8")), SPEC)
        assert answer.ok and table.state_json(answer.state) == shown(table)
        waiting = len(table.entries) - next((k + 1 for k in reversed(range(len(table.entries)))
                                             if not table.entries[k].sealed), 0)
        assert pending_path(path).exists() == (waiting > 0)


def _picks(template, values: dict) -> dict:
    """The form's numbers for drawn values: numbers as they are, options by their place."""
    picks = {}
    for f in template.fields:
        value = values[f.name]
        picks[f.name] = (value if f.kind == "number" else f.options.index(value) if f.kind == "choice"
                         else tuple(f.options.index(v) for v in value))
    return picks


def test_a_position_is_checked_by_the_setup_rules_before_it_replaces_the_start(tmp_path):
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    start = table.start_form()
    start["players"]["Ana"]["owned"]["IBE"] = 2  # two IBE owned by Ana, one by each other: 4 > 3
    with pytest.raises(Refused) as refused:
        table.start_from(table.version, start)
    assert refused.value.rule == "BOLSA-2.6"
    start["players"]["Ana"]["owned"]["IBE"] = 0
    start["players"]["Ana"]["orders"]["IBE"] = 3
    start["players"]["Ben"]["owned"]["IBE"] = 2
    start["players"]["Ben"]["orders"]["IBE"] = 1
    start["prices"]["TEF"] = 14
    start["round"] = 3
    table.start_from(table.version, start)
    answer = checked(path)
    assert answer["state"]["prices"]["TEF"] == 14 and answer["state"]["round"] == 3
    assert answer["state"]["players"]["Ben"]["shares"]["IBE"] == 2 == shown(table)["players"]["Ben"]["shares"]["IBE"]
    declare(table, "Ana")
    with pytest.raises(Refused):  # once a step is entered, the position is the record's
        table.start_from(table.version, start)


def test_a_game_in_progress_is_never_overwritten(tmp_path):
    path = tmp_path / "r.yaml"
    TableGame.create(path, SPEC, "bolsa", PLAYERS)
    with pytest.raises(UsageError, match="exists"):
        TableGame.create(path, SPEC, "bolsa", PLAYERS)
    assert main(["table", str(tmp_path / "none.yaml")]) == 2
    assert main(["table", str(tmp_path / "x.yaml"), "--new", "chess", "--players", "A,B,C"]) == 2
    assert main(["table", str(tmp_path / "x.yaml"), "--new", "bolsa", "--players", "A,A,B"]) == 2
    assert not (tmp_path / "x.yaml").exists()


# --- the web app ---------------------------------------------------------------------------------


@pytest.fixture
def bolsa(tmp_path):
    return TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS)


def test_two_devices_submitting_one_step_one_wins_the_other_sees_the_new_position(bolsa):
    phone, other = TestClient(create_app(bolsa)), TestClient(create_app(bolsa))
    body = {"v": bolsa.version, "a": str(form(bolsa, "Ana", "declare")), "f.sell.IBE": "1"}
    first = phone.post("/enter", data=body, follow_redirects=False)
    second = other.post("/enter", data=body, follow_redirects=False)
    assert first.status_code == 303 and second.status_code == 409
    assert "The position changed" in second.text and f'data-version="{bolsa.version}"' in second.text
    assert [e.player for e in bolsa.entries] == ["Ana"]


def test_a_refusal_shows_the_rule_and_its_text(bolsa):
    client = TestClient(create_app(bolsa))
    body = {"v": bolsa.version, "a": str(form(bolsa, "Ana", "declare")), "f.buy.IBE": "2", "f.buy.SAN": "2",
            "f.buy.TEF": "2"}
    answer = client.post("/enter", data=body)
    assert answer.status_code == 422
    assert 'data-rule="BOLSA-3.2.5"' in answer.text and "buy requests × current quote" in answer.text
    assert "declaration_cash_check = total" in answer.text and bolsa.entries == ()
    assert client.post("/enter", data={"v": bolsa.version, "a": "99"}).status_code == 400
    assert client.post("/enter", data={"v": bolsa.version, "a": "0", "f.sell.IBE": "x"}).status_code == 400


def test_the_token_is_needed_once_then_carried_as_a_cookie(bolsa):
    client = TestClient(create_app(bolsa, token="s3cret"))
    assert client.get("/").status_code == 403 and client.get("/version").status_code == 403
    assert client.get("/?t=wrong").status_code == 403
    assert client.get("/?t=s3cret").status_code == 200
    assert client.get("/version").json() == {"version": bolsa.version}  # the cookie now
    stranger = TestClient(create_app(bolsa, token="s3cret"))
    assert stranger.post("/undo", data={"v": bolsa.version}).status_code == 403


def test_bodies_are_limited_and_posts_come_from_the_page(bolsa):
    client = TestClient(create_app(bolsa))
    big = {"v": bolsa.version, "a": "0", "f.pad": "1" * 40_000}
    assert client.post("/enter", data=big).status_code == 413

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b"f.x=" + b"1" * 1000 + b"&"

    streamed = client.post("/enter", content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"})
    assert streamed.status_code == 413
    elsewhere = client.post("/undo", data={"v": bolsa.version}, headers={"origin": "http://evil.example"})
    assert elsewhere.status_code == 403 and bolsa.entries == ()


def test_the_rule_page_and_unknown_ids(bolsa):
    client = TestClient(create_app(bolsa))
    page = client.get("/rule/BOLSA-5.3")
    assert page.status_code == 200 and "BOLSA-5.3" in page.text
    missing = client.get("/rule/BOLSA-5.33")
    assert missing.status_code == 404 and "BOLSA-5.3" in missing.text
    assert client.get("/static/../game.py").status_code == 404


# --- a real server, killed between two steps ------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(path: Path, port: int, *new: str) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "pnp", "table", str(path), "--port", str(port), *new],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx2_get(f"http://127.0.0.1:{port}/version")
            return server
        except httpx.TransportError:
            assert server.poll() is None, server.stderr.read().decode()
            time.sleep(0.1)
    raise AssertionError("the table did not start")


def httpx2_get(url: str) -> httpx.Response:
    return httpx.get(url, timeout=5)


def test_a_server_killed_between_two_steps_leaves_a_valid_record_and_goes_on(tmp_path):
    path, port = tmp_path / "r.yaml", free_port()
    server = serve(path, port, "--new", "forex", "--players", "Ana,Ben,Cris")
    base = f"http://127.0.0.1:{port}"
    try:
        version = httpx2_get(f"{base}/version").json()["version"]
        table = TableGame.open(path, SPEC)
        body = {"v": version, "a": str(form(table, "Ana", "invest")), "g.currencies.0": "2"}
        assert httpx.post(f"{base}/enter", data=body, timeout=10).status_code == 303  # written before the answer
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        answer = checked(path)
        assert answer["checked"] == 1 and answer["state"]["players"]["Ana"]["certificates"]["USD"] == 1
        server = serve(path, port)
        resumed = httpx2_get(f"{base}/version").json()["version"]
        assert resumed != version and resumed == TableGame.open(path, SPEC).version
        page = httpx2_get(f"{base}/").text
        assert 'data-path="players.Ana.certificates.USD">1<' in page and "step 1" in page
    finally:
        server.kill()
        server.wait(10)


def test_a_tie_the_rules_let_a_player_break_is_asked_then_entered(tmp_path):
    """For-Ex's last dividend with GBP, EUR and USD each stronger in 5 pairs and nobody holding
    any of them: the player who resolves picks the strongest currency (FOREX-12.1)."""
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "forex", PLAYERS)
    start = table.start_form()
    start["pairs"]["GBP/USD"]["stronger"] = "USD"
    start["queue"] = ["dividend 5"]
    start["players"]["Ana"]["certificates"] = {"CNY": 1}
    start["supply"]["CNY"] -= 1
    table.start_from(table.version, start)
    client = TestClient(create_app(table))
    body = {"v": table.version, "a": str(form(table, "Ana", "resolve"))}
    asked = client.post("/enter", data=body)
    assert asked.status_code == 200 and 'data-rule="FOREX-12.1"' in asked.text and table.entries == ()
    assert re.findall(r'name="c.strongest" value="(\d)">(\w+)<', asked.text) == [("0", "GBP"), ("1", "EUR"), ("2", "USD")]
    assert client.post("/enter", data={**body, "c.strongest": "1"}, follow_redirects=False).status_code == 303
    answer = checked(path)
    assert answer["state"]["over"] is True and answer["state"]["winners"] == ["Ana"]
    assert any(event["text"].startswith("strongest currency: EUR") for event in answer["events"])


def test_a_record_written_by_hand_is_played_on_as_it_is(tmp_path):
    """`pnp referee new`'s starter with a round written in: the table opens it at that step,
    leaves the file alone until a step is entered, and then writes it as a record."""
    path = tmp_path / "r.yaml"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["referee", "new", "bolsa", "--players", "Ana,Ben,Cris"]) == 0
    text = out.getvalue().replace("rounds: []", "rounds:\n- declare: {Ana: {sell: {IBE: 1}}, Ben: {buy: {IBE: 1}}}")
    path.write_text(text, encoding="utf-8")
    table = TableGame.open(path, SPEC)
    assert path.read_text(encoding="utf-8") == text and shown(table)["round"] == 2 == checked(path)["state"]["round"]
    declare(table, "Ana")
    assert checked(path)["state"] == shown(table) and path.read_text(encoding="utf-8").startswith("# Written by")


def test_the_position_form_posts_the_start_by_its_fields(bolsa):
    client = TestClient(create_app(bolsa))
    page = client.get("/").text
    names = {" · ".join(e.path): e.name for e in position_form(bolsa.start_form(), bolsa.players, ["IBE"])}
    assert f'name="{names["players · Ana · cash"]}" value="50"' in page
    illegal = client.post("/start", data={"v": bolsa.version, names["players · Ana · owned · IBE"]: "3"})
    assert illegal.status_code == 422 and 'data-rule="BOLSA-2.6"' in illegal.text
    legal = {"v": bolsa.version, names["players · Ana · cash"]: "73", names["prices · SAN"]: "12",
             names["token"]: "Cris"}
    assert client.post("/start", data=legal, follow_redirects=False).status_code == 303
    state = checked(bolsa.path)["state"]
    assert (state["players"]["Ana"]["cash"], state["prices"]["SAN"], state["token"]) == (73, 12, "Cris")
    assert client.post("/start", data={"v": bolsa.version, names["token"]: "x" * 40_000}).status_code == 413


def test_on_the_local_network_the_link_carries_a_token_and_a_qr_code(tmp_path):
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "pnp", "table", str(tmp_path / "r.yaml"), "--new", "bolsa",
                               "--players", "Ana,Ben,Cris", "--host", "0.0.0.0", "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [server.stdout.readline()]
        while not lines[-1].startswith("Stop with Ctrl-C"):
            lines.append(server.stdout.readline())
        (link,) = re.findall(r"Open (http://\S+)", lines[1])
        token = re.fullmatch(rf"http://[\d.]+:{port}/\?t=([\w-]+)", link).group(1)
        qr = [line for line in lines if set(line.strip()) <= set("█▀▄ ") and line.strip()]
        assert len(token) >= 16 and len(qr) >= 15 and any("▀" in line or "▄" in line for line in qr)
        local = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 30
        while True:
            try:
                refused = httpx.get(local, timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.1)
        assert refused.status_code == 403
        page = httpx.get(f"{local}?t={token}", timeout=5)
        assert page.status_code == 200 and "<svg" in page.text and f"?t={token}" in page.text
    finally:
        server.kill()
        server.wait(10)
