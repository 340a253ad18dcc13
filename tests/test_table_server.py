"""`pnp table`'s game and files, without a browser: the record as the truth (written before the
answer, atomically, resumed by replay), the journal that keeps sealed entries and rolls a half-
written change forward, the log of who entered what, the lock that keeps one server per
record, house rules on `--new`, and a server process killed between two steps."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import signal
import stat
import time

import httpx2 as httpx
import pytest

from in_process import pnp_here
from pnp.cli import main
from pnp.errors import UsageError
from pnp.referee import check, reads_record
from pnp.referee import record as records
from pnp.referee.replay import referee_for
from pnp.rules import GAMES, contract, load_spec
from pnp.table import files, seats
from pnp.table.files import beside
from pnp.table.forms import position_form
from pnp.table.game import HEADER, RecordText, TableGame, options_in_effect
from pnp.table.steps import HOST, Refused, Stale, Submission
from table_helpers import (
    ROOT,
    SPEC,
    checked,
    declare,
    enter,
    free_port,
    new_key,
    random_step,
    serve,
    shown,
    stop,
    templates_of,
    tokens,
)

PLAYERS = ["Ana", "Ben", "Cris"]


def journal(path) -> dict:
    return json.loads(beside(path, "journal").read_text(encoding="utf-8"))


def log(path) -> list[dict]:
    return files.read_log(path)


# --- the record, the journal, the log --------------------------------------------------------------------


def test_secret_declarations_wait_in_the_journal_until_all_have_declared(tmp_path):
    path = tmp_path / "night.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    before = checked(path)["state"]
    declare(table, "Ana", sell_IBE=1)
    declare(table, "Ben", buy_IBE=1)
    # The record still shows the position before the phase, which is what every page shows too;
    # the two declarations wait in the journal and nobody reads them in the record.
    assert checked(path)["state"] == before == shown(table)
    assert [item["player"] for item in journal(path)["pending"]] == ["Ana", "Ben"]
    assert "sell" not in path.read_text(encoding="utf-8")
    declare(table, "Cris")  # the last declaration: revealed, the five companies traded
    assert journal(path)["pending"] == []
    answer = checked(path)
    assert answer["state"] == shown(table) and answer["state"]["round"] == 2
    assert answer["state"]["players"]["Ben"]["shares"]["IBE"] == 2 and answer["state"]["prices"]["IBE"] == 10
    assert len(table.entries) == 3 and len(table.entries[-1].actions) == 1 + 2 * 5  # Cris's, then the table's steps


def test_the_side_files_are_readable_only_by_their_owner_and_the_record_stays_a_record(tmp_path):
    path = tmp_path / "night.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    declare(table, "Ana", sell_IBE=1)
    files.seat_tokens(path, PLAYERS)
    for suffix in ("seats", "journal", "log", "lock"):
        assert stat.S_IMODE(beside(path, suffix).stat().st_mode) == 0o600, suffix
    record = reads_record(path.read_text(encoding="utf-8"))
    assert set(record.source.data) == {"game", "players", "options", "rounds"}  # nothing of the table's in it


def test_the_log_says_who_entered_what_and_when(tmp_path):
    path = tmp_path / "night.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    declare(table, "Ana", sell_IBE=1)
    declare(table, "Ben", actor=HOST)  # the host's phone, passed to Ben
    table.undo(seats.Actor("Ana"), seats.version(table, seats.Actor("Ana")))
    lines = log(path)
    assert [(line["op"], line["by"], line.get("player")) for line in lines] == [
        ("new", "host", None), ("enter", "Ana", "Ana"), ("enter", "host", "Ben"), ("undo", "Ana", "Ana")]
    assert [line["change"] for line in lines] == [1, 2, 3, 4] and all(re.fullmatch(r"\d{4}-\d\d-\d\dT.*Z", line["at"])
                                                                      for line in lines)
    assert "IBE" not in beside(path, "log").read_text(encoding="utf-8")  # what a sealed entry holds is not logged
    table.close()
    again = TableGame.open(path, SPEC)
    assert [(e.player, e.by) for e in again.entries] == [("Ben", "host")] and again.change == 4


def test_an_illegal_entry_changes_nothing_and_names_its_rule(tmp_path):
    path = tmp_path / "night.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    data, version = path.read_bytes(), seats.version(table, HOST)
    with pytest.raises(Refused) as refused:  # 2 × 10 + 2 × 10 + 2 × 10 = 60 > 50 cash
        declare(table, "Ana", buy_IBE=2, buy_SAN=2, buy_TEF=2)
    assert refused.value.rule == "BOLSA-3.2.5" and "60 but holds 50" in refused.value.message
    assert path.read_bytes() == data and seats.version(table, HOST) == version and table.entries == ()


def test_a_stale_version_is_refused_and_the_step_is_entered_once(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "forex", PLAYERS)
    ana = seats.Actor("Ana")
    old = seats.version(table, ana)
    n = next(i for i, t in enumerate(templates_of(table, "Ana")) if t.kind == "invest")
    invest = Submission("Ana", n, {"currencies": (0,)})
    table.enter(ana, old, invest)
    with pytest.raises(Stale):
        table.enter(ana, old, invest)
    answer = checked(tmp_path / "r.yaml")
    assert len(table.entries) == 1 and answer["checked"] == 1
    assert answer["state"]["players"]["Ana"]["certificates"]["GBP"] == 1


def test_undo_by_the_host_takes_back_one_entry_at_a_time_down_to_the_setup(tmp_path):
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "aktsioner", PLAYERS)
    first = path.read_bytes()
    enter(table, "Ana", "begin")
    enter(table, "Ana", "play")
    after_play = checked(path)["state"]
    enter(table, "Ben", "begin")
    table.undo(HOST, seats.version(table, HOST))
    assert checked(path)["state"] == after_play == shown(table)
    table.undo(HOST, seats.version(table, HOST))
    table.undo(HOST, seats.version(table, HOST))
    assert path.read_bytes() == first and journal(path)["pending"] == []
    with pytest.raises(Refused):
        table.undo(HOST, seats.version(table, HOST))


def test_reopening_resumes_at_the_same_step_sealed_entries_included(tmp_path):
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    declare(table, "Ana", sell_IBE=1)  # a secret declaration waits in the journal
    versions = {p: seats.version(table, seats.Actor(p)) for p in PLAYERS}
    table.close()
    again = TableGame.open(path, SPEC)
    assert {p: seats.version(again, seats.Actor(p)) for p in PLAYERS} == versions  # every open form still enters
    assert shown(again) == shown(table) and [e.actions for e in again.entries] == [e.actions for e in table.entries]


def test_one_table_serves_a_record_at_a_time(tmp_path):
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    with pytest.raises(UsageError, match=rf"served by another `pnp table` \(process {os.getpid()}\)"):
        TableGame.open(path, SPEC)
    table.close()
    TableGame.open(path, SPEC).close()


def test_the_temporary_files_of_a_killed_write_are_swept_when_the_next_table_starts(tmp_path):
    path = tmp_path / "r.yaml"
    TableGame.create(path, SPEC, "bolsa", PLAYERS).close()
    left = [tmp_path / ".r.yaml.k1ll3d.tmp", tmp_path / "..r.yaml.journal.x9.tmp"]
    kept = [tmp_path / ".other.yaml.a.tmp", tmp_path / "notes.tmp"]
    for leftover in left + kept:
        leftover.write_bytes(b"half a write")
    before = path.read_bytes()
    TableGame.open(path, SPEC).close()
    assert [p.exists() for p in left + kept] == [False, False, True, True]
    assert path.read_bytes() == before


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
    for player, kind, values in entries:
        enter(table, player, kind, values)
        assert checked(path)["state"] == shown(table) and journal(path)["pending"] == []
    table.close()
    again = TableGame.open(path, SPEC)
    assert [e.actions for e in again.entries] == [e.actions for e in table.entries]


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
    for player, kind, values in [(None, None, None), *steps]:
        if kind is not None:
            enter(table, player, kind, values)
        answer = checked(path)
        assert answer["state"] == shown(table)
        unsettled = "unsettled: IBE" in path.read_text(encoding="utf-8")
        assert unsettled == (kind != "withdraw")  # the withdrawal was the last choice: settled, on to SAN…
    assert answer["state"]["players"]["Ben"]["shares"]["IBE"] == 2 and answer["state"]["prices"]["IBE"] == 11
    assert answer["state"]["players"]["Cris"]["orders"]["IBE"] == 2 and answer["state"]["round"] == 2


@pytest.mark.parametrize("game, seed", [(game, 1) for game in GAMES]  # one game of each in the fast lane; a second: slow
                         + [pytest.param(game, 2, marks=pytest.mark.slow) for game in GAMES])
def test_random_play_at_the_table_keeps_the_record_at_the_page(tmp_path, game, seed):
    """Steps drawn at random from each seat's own templates (and now and then the host's way
    back, an undo or across a reveal a correction): after each, the record checks clean to the
    table's position at its last recorded entry, and only a sealed phase's entries wait in the
    journal."""
    path, rng = tmp_path / "r.yaml", random.Random(seed)
    table = TableGame.create(path, SPEC, game, PLAYERS)
    for _ in range(150):
        if table.to_move() is None:
            break
        if table.entries and rng.random() < 0.1:  # the host's way back: an undo, or across a reveal a correction
            back = table.correct if seats.view(table, HOST).correct is not None else table.undo
            back(HOST, seats.version(table, HOST))
        else:
            random_step(table, rng)
        answer = check(reads_record(path.read_text(encoding="utf-8")), SPEC)
        assert answer.ok and table.state_json(answer.state) == table.state_json(table.entries[_recorded(table) - 1].state
                                                                                 if _recorded(table) else table.first)
        assert len(journal(path)["pending"]) == len(table.entries) - _recorded(table)


def _recorded(table: TableGame) -> int:
    """How many entries the record holds: all but a sealed phase's still open (seen or not)."""
    k = len(table.entries)
    while k and table.entries[k - 1].sealed:
        k -= 1
    return k


def test_the_record_is_written_as_records_write_it_one_round_dumped_once(tmp_path):
    """The record's text, its rounds or turns dumped one by one and kept, is `records.dump` of
    the whole record, byte for byte, at every step of random games."""
    for game in GAMES:
        engine, referee = GAMES[game].engine, referee_for(game)
        params = engine.params(SPEC.games[game])
        state, _ = engine.setup(params, PLAYERS)
        text = RecordText(referee, params, PLAYERS, {"a": 1})
        actions = []
        for action, _, _ in contract.play(engine, state, params, random.Random(5)):
            actions.append(action)
            assert text.text(actions, None) == records.dump(referee.record(params, PLAYERS, actions, {"a": 1}))
        assert text.text((), None) == records.dump(referee.record(params, PLAYERS, (), {"a": 1}))


def test_a_step_costs_the_same_late_in_a_game_as_early(tmp_path, monkeypatch):
    """The position is kept, not replayed from the record: the engine is asked as often for a
    step late in a long game as for one early (a replay would grow with the game)."""
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "aktsioner", PLAYERS)
    engine = table.engine
    calls = {"apply": 0}
    real = engine.apply

    def counted(*args, **kwargs):
        calls["apply"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(engine, "apply", counted)
    rng, costs = random.Random(3), []
    while table.to_move() is not None:
        before = calls["apply"]
        entry = random_step(table, rng)
        costs.append(calls["apply"] - before - len(entry.actions))
    assert len(costs) > 30 and max(costs) <= 2  # the applies beyond the step's own: a seat's view, never the game


def test_a_crash_between_the_journal_and_the_record_loses_no_accepted_step(tmp_path, monkeypatch):
    """A change is in the journal before the record: a crash between the two (here, the record's
    write failing, as a kill would leave it) is rolled forward when the record is opened again,
    during an entry, an undo or a reveal alike; a crash before the journal loses only the step
    nobody was told was accepted."""
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    declare(table, "Ana", sell_IBE=1)
    declare(table, "Ben", buy_IBE=2)
    real = files.write_atomically

    def crash_on_the_record(target, data, mode=None):
        if target == path:
            raise KeyboardInterrupt("killed")
        real(target, data, mode)

    monkeypatch.setattr(files, "write_atomically", crash_on_the_record)
    with pytest.raises(KeyboardInterrupt):
        declare(table, "Cris")  # the reveal, in the journal; the record still before the phase
    monkeypatch.setattr(files, "write_atomically", real)
    table.close()
    again = TableGame.open(path, SPEC)
    state = checked(path)["state"]
    assert state["round"] == 2 and state["players"]["Ben"]["shares"]["IBE"] == 2 and state == shown(again)
    assert any("written now" in note for note in again.notes) and log(path)[-1]["player"] == "Cris"

    monkeypatch.setattr(files, "write_atomically", crash_on_the_record)
    with pytest.raises(KeyboardInterrupt):
        again.correct(HOST, seats.version(again, HOST))  # the correction across the reveal: in the journal
    monkeypatch.setattr(files, "write_atomically", real)
    again.close()
    third = TableGame.open(path, SPEC)
    assert checked(path)["state"]["round"] == 1 and [e.player for e in third.entries] == ["Ana", "Ben"]
    assert third.public_count() == 2 and third.entries[0].waiting is False  # seen: in the journal, shown to all

    def crash_on_the_journal(target, data, mode=None):
        if target.name.endswith(".journal"):
            raise KeyboardInterrupt("killed")
        real(target, data, mode)

    monkeypatch.setattr(files, "write_atomically", crash_on_the_journal)
    with pytest.raises(KeyboardInterrupt):
        declare(third, "Cris")
    monkeypatch.setattr(files, "write_atomically", real)
    third.close()
    fourth = TableGame.open(path, SPEC)
    assert [e.player for e in fourth.entries] == ["Ana", "Ben"]  # Cris was never told his declaration was in


def test_a_journal_written_for_another_content_of_the_record_is_left_out(tmp_path):
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    declare(table, "Ana", sell_IBE=1)
    table.close()
    path.write_text(path.read_text(encoding="utf-8") + "# edited by hand\n", encoding="utf-8")
    again = TableGame.open(path, SPEC)
    assert again.entries == () and any("left out" in note for note in again.notes)


# --- positions, records by hand, house rules ------------------------------------------------------------


def test_a_position_is_checked_by_the_setup_rules_before_it_replaces_the_start(tmp_path):
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "bolsa", PLAYERS)
    start = table.start_form()
    start["players"]["Ana"]["owned"]["IBE"] = 2  # two IBE owned by Ana, one by each other: 4 > 3
    with pytest.raises(Refused) as refused:
        table.start_from(HOST, seats.version(table, HOST), start)
    assert refused.value.rule == "BOLSA-2.6"
    start["players"]["Ana"]["owned"]["IBE"] = 0
    start["players"]["Ana"]["orders"]["IBE"] = 3
    start["players"]["Ben"]["owned"]["IBE"] = 2
    start["players"]["Ben"]["orders"]["IBE"] = 1
    start["prices"]["TEF"] = 14
    start["round"] = 3
    with pytest.raises(seats.Forbidden):
        table.start_from(seats.Actor("Ana"), seats.version(table, seats.Actor("Ana")), start)
    table.start_from(HOST, seats.version(table, HOST), start)
    answer = checked(path)
    assert answer["state"]["prices"]["TEF"] == 14 and answer["state"]["round"] == 3
    assert answer["state"]["players"]["Ben"]["shares"]["IBE"] == 2 == shown(table)["players"]["Ben"]["shares"]["IBE"]
    declare(table, "Ana")
    with pytest.raises(Refused):  # once a step is entered, the position is the record's
        table.start_from(HOST, seats.version(table, HOST), start)


def test_a_game_in_progress_is_never_overwritten(tmp_path):
    path = tmp_path / "r.yaml"
    TableGame.create(path, SPEC, "bolsa", PLAYERS).close()
    with pytest.raises(UsageError, match="exists"):
        TableGame.create(path, SPEC, "bolsa", PLAYERS)
    assert main(["table", str(tmp_path / "none.yaml")]) == 2
    assert main(["table", str(tmp_path / "x.yaml"), "--new", "chess", "--players", "A,B,C"]) == 2
    assert main(["table", str(tmp_path / "x.yaml"), "--new", "bolsa", "--players", "A,A,B"]) == 2
    assert main(["table", str(tmp_path / "x.yaml"), "--new", "bolsa", "--players", "A,B,C", "--set", "rules.nope=1"]) == 2
    assert main(["table", str(tmp_path / "x.yaml"), "--new", "bolsa", "--players", "A,B,C", "--set", "rules.rounds=x"]) == 2
    assert main(["table", str(path), "--set", "rules.rounds=3"]) == 2  # --set only starts a game
    assert not (tmp_path / "x.yaml").exists()


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
    assert checked(path)["state"] == shown(table) and path.read_text(encoding="utf-8").startswith(HEADER)


def test_house_rules_on_new_and_from_the_spec_are_stated_in_the_record(tmp_path):
    """`--set` and a spec's own rules: the record states every house rule in effect, so it replays
    the same with the spec or without it (the bundled one)."""
    bundled = (ROOT / "components.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "house.yaml"
    spec.write_text(bundled.replace("      rounds: 5\n", "      rounds: 3\n").replace(
        "same_company_both_ways: forbid", "same_company_both_ways: net"), encoding="utf-8")
    path = tmp_path / "r.yaml"
    house = load_spec(str(spec))
    table = TableGame.create(path, house, "bolsa", PLAYERS, {"start_cash": 70, "auction_losers": "may_withdraw"})
    written = reads_record(path.read_text(encoding="utf-8")).options
    assert written == options_in_effect("bolsa", house.games["bolsa"], {"start_cash": 70,
                                                                          "auction_losers": "may_withdraw"})
    assert (written["rounds"], written["same_company_both_ways"], written["start_cash"]) == (3, "net", 70)
    assert set(written) == {o.name for o in GAMES["bolsa"].rulebook.options}
    declare(table, "Ana", sell_IBE=1, buy_IBE=1)  # both ways: legal under `net` alone
    declare(table, "Ben")
    declare(table, "Cris")
    with_spec, without = checked(path, "--spec", str(spec)), checked(path)
    assert with_spec["state"] == without["state"] == shown(table) and with_spec["options"] == without["options"]
    assert without["state"]["players"]["Ben"]["cash"] == 70


# --- a real server, killed -------------------------------------------------------------------------------


def test_a_server_killed_between_two_steps_leaves_a_valid_record_and_goes_on(tmp_path):
    path, port = tmp_path / "r.yaml", free_port()
    server = serve(path, port, "--new", "forex", "--players", "Ana,Ben,Cris")
    base = f"http://127.0.0.1:{port}"
    try:
        ana = {"Authorization": f"Bearer {tokens(path)['seats']['Ana']}"}
        state = httpx.get(f"{base}/api/state", headers=ana, timeout=10).json()
        invest = next(t for t in state["templates"] if t["kind"] == "invest")
        usd = invest["fields"][0]["options"].index("USD")
        body = {"version": state["version"], "player": "Ana", "n": invest["n"], "values": {"currencies": [usd]},
                "key": new_key()}
        assert httpx.post(f"{base}/api/step", json=body, headers=ana, timeout=10).status_code == 200  # on disk first
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        answer = checked(path)
        assert answer["checked"] == 1 and answer["state"]["players"]["Ana"]["certificates"]["USD"] == 1
        server = serve(path, port)
        resumed = httpx.get(f"{base}/api/state", headers=ana, timeout=10).json()
        assert resumed["version"] != state["version"] and resumed["steps"] == 1
        assert resumed["position"] == answer["state"]
    finally:
        stop(server)


def test_a_second_server_on_the_same_record_refuses_to_start_and_names_the_first(tmp_path, capsys):
    """The first server a process of its own (the lock is another process's); the second one
    `pnp.cli.main` in this process: it must refuse before it serves anything."""
    path, port = tmp_path / "r.yaml", free_port()
    server = serve(path, port, "--new", "bolsa", "--players", "Ana,Ben,Cris")
    try:
        second = pnp_here(capsys, "table", str(path), "--port", str(free_port()), cwd=ROOT)
        assert second.returncode == 2 and f"process {server.pid}" in second.stderr
        assert "Traceback" not in second.stderr and "internal error" not in second.stderr
    finally:
        stop(server)


def test_the_links_are_one_per_seat_and_the_host_and_stay_the_same_after_a_restart(tmp_path):
    port = free_port()
    path = tmp_path / "r.yaml"
    args = ["--host", "0.0.0.0"]
    server = serve(path, port, "--new", "bolsa", "--players", "Ana,Ben,Cris", *args)
    try:
        printed = _printed(server)
        links = dict(re.findall(r"^(\w+)  (http://\S+)", printed, re.M))
        assert list(links) == ["Ana", "Ben", "Cris", "board", "host"]
        kept = tokens(path)
        assert {name: url.rsplit("t=", 1)[1] for name, url in links.items()} == {
            **kept["seats"], "board": kept["board"], "host": kept["host"]}
        assert len(set(links.values())) == 5 and all(len(url.rsplit("=", 1)[1]) >= 21 for url in links.values())
        blocks = re.split(r"^\w+  http://\S+.*$", printed, flags=re.M)[1:]  # what follows each link, up to the next
        qr = [sum(1 for line in block.splitlines() if line.strip() and set(line.strip()) <= set("█▀▄ ")) for block in blocks]
        assert all(rows >= 15 for rows in qr[:4]) and qr[4] == 0  # a QR code under each seat's link and the board's, not the host's
        (hint,) = re.findall(r"go on with `([^`]+)`", printed)
        assert hint == f"pnp table {path} --host 0.0.0.0 --port {port}"
        stop(server)
        server = serve(path, port, *hint.split()[3:])  # the hint is the command that works
        again = dict(re.findall(r"^(\w+)  (http://\S+)", _printed(server), re.M))
        assert again == links
        local = f"http://127.0.0.1:{port}/"
        assert httpx.get(local, timeout=5).status_code == 403
        with httpx.Client(follow_redirects=True, timeout=5) as phone:  # the link's token, then its cookie
            page = phone.get(links["Ana"].replace(links["Ana"].split("/")[2], f"127.0.0.1:{port}"))
            assert page.status_code == 200 and '<span class="you">Ana</span>' in page.text
            assert str(page.url) == f"{local}1/" and phone.get(f"{local}1/api/state").json()["you"] == {"seat": "Ana"}
    finally:
        stop(server)


def _printed(server) -> str:
    """What the server printed before serving (up to its last line before the server starts)."""
    lines = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        lines.append(line)
        if line.startswith("Stop with Ctrl-C"):
            break
    return "".join(lines)


def test_the_position_form_lists_the_start_by_its_fields(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS)
    entries = position_form(table.start_form(), table.players, ["IBE"])
    assert {" · ".join(e.path): e.kind for e in entries}["players · Ana · cash"] == "number"


def test_an_aktsioner_turn_with_several_trades_in_each_stage_is_entered_at_the_table(tmp_path):
    """Every legal turn can be entered: several sells and buys before the card and after it."""
    path = tmp_path / "r.yaml"
    table = TableGame.create(path, SPEC, "aktsioner", PLAYERS)
    enter(table, "Ana", "begin")
    enter(table, "Ana", "trade", {"sell.red": 1})
    enter(table, "Ana", "trade", {"buy.blue": 1})  # paid with what the first trade raised
    enter(table, "Ana", "play")
    enter(table, "Ana", "trade", {"sell.blue": 1})
    enter(table, "Ana", "trade", {"sell.yellow": 1})
    enter(table, "Ana", "end")
    state = checked(path)["state"]
    assert state == shown(table) and state["players"]["Ana"]["shares"] == {"blue": 1, "red": 0, "yellow": 0,
                                                                            "green": 1}
    assert [e.kind for e in table.entries] == ["begin", "trade", "trade", "play", "trade", "trade", "end"]
    table.close()
    again = TableGame.open(path, SPEC)
    assert [e.kind for e in again.entries] == [e.kind for e in table.entries]
