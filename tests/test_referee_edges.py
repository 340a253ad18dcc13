"""The referee right on every edge (issue #13): each wrong answer it once gave is a record in
tests/records/edges, replayed through `pnp referee check --json` with the answer it must give.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.cli import main
from pnp.referee import reads_record

EDGES = Path(__file__).parent / "records" / "edges"


def check(capsys, name: str) -> tuple[int, dict]:
    status = main(["referee", "check", str(EDGES / name), "--json"])
    captured = capsys.readouterr()
    assert not captured.err, captured.err
    return status, json.loads(captured.out)


def line_of(name: str, needle: str) -> int:
    text = (EDGES / name).read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1


@pytest.mark.parametrize("name, rule, at, needle", [
    ("aktsioner_seven_players_dealt.yaml", "AKT-2.4", "players", "players:"),
    ("aktsioner_a14_last_mover_of_penultimate_round.yaml", "AKT-8.1", "turns[1].then", "then:"),
    ("bolsa_bids_without_auction.yaml", "BOLSA-4.6.1", "rounds[0].auctions.ITX", "ITX: [{P1"),
    ("bolsa_bid_out_of_turn_state.yaml", "BOLSA-5.2", "rounds[0].auctions.FER[1]", "- P2: 13"),
    ("forex_any_one_quarter_buck.yaml", "FOREX-A5", "turns[0].spot", "spot:"),
])
def test_each_record_stops_at_its_violation(capsys, name, rule, at, needle):
    status, answer = check(capsys, name)
    assert status == 1 and answer["ok"] is False
    assert (answer["violation"]["rule"], answer["violation"]["at"]) == (rule, at)
    assert answer["violation"]["line"] == line_of(name, needle)


def test_the_player_limit_holds_with_a_deal(capsys):
    """AKT-1.10/2.4: 7 players under formula 3+5, with a `deal`: refused before anything else."""
    _, answer = check(capsys, "aktsioner_seven_players_dealt.yaml")
    assert answer["state"] is None and answer["checked"] == 0
    assert "7 players deals 21 big cards" in answer["violation"]["message"]


def test_a_colour_left_out_of_start_keeps_the_standard_holding(capsys):
    status, answer = check(capsys, "aktsioner_start_one_colour.yaml")
    assert status == 0
    assert answer["state"]["players"]["Ana"]["shares"] == {"blue": 1, "red": 12, "yellow": 1, "green": 1}
    assert answer["state"]["players"]["Ben"]["shares"] == {"blue": 1, "red": 1, "yellow": 1, "green": 1}


def test_a_tie_on_penalty_and_old_price_is_paid_in_board_order_and_said(capsys):
    status, answer = check(capsys, "aktsioner_penalty_tie_board_order.yaml")
    assert status == 0
    order = next(e for e in answer["events"] if e["rule"] == "AKT-7.5")
    assert order["data"] == {"player": "O", "order": [["red", 20], ["yellow", 20]], "tied": [["red", "yellow"]]}
    assert answer["state"]["players"]["O"] == {"cash": 0, "shares": {"blue": 0, "red": 1, "yellow": 0, "green": 0}}


def test_the_last_move_rule_starts_with_the_play_that_leaves_one_card_each(capsys):
    """AKT-A14: the event says so at that play, before the mover's stage 3 is refused."""
    _, answer = check(capsys, "aktsioner_a14_last_mover_of_penultimate_round.yaml")
    assert [e["rule"] for e in answer["events"]][-1] == "AKT-8.1"
    assert answer["state"]["players"]["Ben"]["shares"]["green"] == 0  # stage 1 stood: sold before the card


def test_bids_where_no_auction_is_due_show_the_company_as_resolved(capsys):
    _, answer = check(capsys, "bolsa_bids_without_auction.yaml")
    assert answer["state"]["trade"] == {"company": "ITX", "case": 6, "quote": 10, "auction": None}
    assert answer["state"]["players"]["P1"]["offered"]["ITX"] == 1
    assert answer["state"]["players"]["P3"]["requested"]["ITX"] == 1


def test_the_position_of_an_illegal_bid_shows_zones_3_and_4_and_the_auction(capsys):
    _, answer = check(capsys, "bolsa_bid_out_of_turn_state.yaml")
    state = answer["state"]
    assert state["phase"] == "trade"
    assert {name: p["offered"]["FER"] for name, p in state["players"].items()} == {"P1": 2, "P2": 0, "P3": 0, "P4": 0}
    assert {name: p["requested"]["FER"] for name, p in state["players"].items()} == {"P1": 0, "P2": 2, "P3": 1, "P4": 2}
    assert state["trade"]["auction"] == {"ascending": True, "bidders": ["P3", "P4", "P2"], "passed": [], "best": 12,
                                         "bidder": "P3", "over": False, "to_act": "P4"}


def test_any_one_trades_a_weak_buck_for_half_a_strong_one(capsys):
    status, answer = check(capsys, "forex_any_one_half_buck.yaml")
    assert status == 0
    money = answer["state"]["players"]["P1"]["money"]
    assert (money["GBP"], money["CAD"]) == (2.5, 1)  # the contract moves no money yet (FOREX-7.4)
    spot = next(e for e in answer["events"] if e["rule"] == "FOREX-6.2")
    assert spot["data"]["give"] == {"CAD": 1} and spot["data"]["get"] == {"GBP": 0.5}


# --- which rules were applied -------------------------------------------------------------------


def test_the_answer_names_its_spec_and_every_house_rule_in_effect(capsys, tmp_path, monkeypatch):
    """A components.yaml in the working folder wins over the bundled one; the answer says which
    file (and its hash) and every option's value, the record's own included."""
    import hashlib

    from pnp.rules import rulebook
    from pnp.spec.source import bundled_spec_path

    record = tmp_path / "game.yaml"
    record.write_text("game: bolsa\nplayers: [A, B, C]\noptions: {auction_losers: may_withdraw}\n", encoding="utf-8")
    bundled = bundled_spec_path().read_bytes()
    here = tmp_path / "here"
    here.mkdir()
    (here / "components.yaml").write_bytes(bundled.replace(b"rounds: 5", b"rounds: 4", 1))
    answers = {}
    for folder in (tmp_path, here):
        monkeypatch.chdir(folder)
        assert main(["referee", "check", str(record), "--json"]) == 0
        answers[folder] = json.loads(capsys.readouterr().out)
    away, local = answers[tmp_path], answers[here]
    assert away["spec"] == {"path": str(bundled_spec_path()), "sha256": hashlib.sha256(bundled).hexdigest()}
    assert local["spec"]["path"] == "components.yaml"
    assert local["spec"]["sha256"] == hashlib.sha256((here / "components.yaml").read_bytes()).hexdigest()
    assert list(away["options"]) == [option.name for option in rulebook("bolsa").options]
    assert (away["options"]["rounds"], local["options"]["rounds"]) == (5, 4)
    assert away["options"]["auction_losers"] == local["options"]["auction_losers"] == "may_withdraw"
    assert main(["referee", "explain", str(record)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("rules: spec components.yaml (sha256 " + local["spec"]["sha256"][:12] + "); options: ")
    assert "rounds 4" in first and "auction_losers may_withdraw" in first


# --- records that stop inside a step (the table writes every step as it is entered) -------------


def test_a_bolsa_record_stops_with_an_auction_running(capsys):
    status, answer = check(capsys, "bolsa_stops_mid_auction.yaml")
    state = answer["state"]
    assert status == 0 and answer["checked"] == 4 + 5 + 2 + 1  # declarations, IBE…FER up, two bids, FER left open
    assert state["phase"] == "trade" and state["trade"]["auction"] == {
        "ascending": True, "bidders": ["P3", "P4", "P2"], "passed": [], "best": 13, "bidder": "P4", "over": False,
        "to_act": "P2"}
    assert state["prices"]["FER"] == 12 and state["players"]["P1"]["offered"]["FER"] == 2


def test_a_bolsa_record_stops_while_the_losers_choose(capsys):
    status, answer = check(capsys, "bolsa_stops_before_the_losers_choose.yaml")
    state = answer["state"]
    assert status == 0 and state["trade"]["auction"]["over"] and state["trade"]["auction"]["best"] == 15
    assert state["players"]["P2"]["requested"]["FER"] == 0 and state["players"]["P2"]["orders"]["FER"] == 3
    assert state["players"]["P4"]["requested"]["FER"] == 2  # still to choose
    assert state["players"]["P3"]["cash"] == 30 and state["prices"]["FER"] == 12  # nothing paid yet


def test_an_aktsioner_record_stops_before_the_card_and_a_forex_one_after_the_spot(capsys):
    status, answer = check(capsys, "aktsioner_stops_after_the_trade.yaml")
    assert status == 0 and answer["checked"] == 2
    assert answer["state"]["players"]["Ben"] == {"cash": 100, "shares": {"blue": 1, "red": 1, "yellow": 1, "green": 0}}
    status, answer = check(capsys, "forex_stops_after_the_spot.yaml")
    money = answer["state"]["players"]["P1"]["money"]
    assert status == 0 and (money["GBP"], money["CAD"]) == (1, 4)


@pytest.mark.parametrize("name", sorted(path.name for path in EDGES.glob("*_stops_*.yaml")))
def test_the_writer_writes_a_stopped_step_as_the_reader_reads_it(name):
    """The table writes its records with each game's `record` (the inverse of `steps`): a record
    stopped inside a step, read and written again, reaches the same position."""
    from pnp.referee import game_params, read_record, replay
    from pnp.referee.record import dump
    from pnp.referee.replay import referee_for, state_json
    from pnp.rules import load_spec

    record = read_record(EDGES / name)
    referee, params = referee_for(record.game), game_params(load_spec(None).games[record.game], record)
    first, _ = referee.setup(record, params)
    actions = [action for step in referee.steps(record, params) for action in referee.actions(step)]
    start = first if record.get(("start",)) is not None else None
    again = reads_record(dump(referee.record(params, record.players, actions, record.options, start=start)))
    expected, written = replay(record, params), replay(again, params)
    assert written.ok and state_json(record.game, written.state, params) == state_json(record.game, expected.state, params)


@pytest.mark.parametrize("change, message", [
    (lambda text: text.replace("    unsettled: FER\n", "    unsettled: FER\n  - declare: {}\n"),
     "only the record's last round can stop before a company is settled (FER)"),
    (lambda text: text.replace("    unsettled: FER\n", "    unsettled: TEF\n"),
     "the record stops before TEF is settled (`unsettled: TEF`), so nothing of FER can follow"),
    (lambda text: text.replace("    unsettled: FER\n", "    unsettled: FER\n    pairing: {FER: []}\n"),
     "the record stops before FER is settled (`unsettled: FER`), so nothing of FER can follow"),
    (lambda text: text.replace("    unsettled: FER\n", "    unsettled: FERR\n"), 'unknown company "FERR"'),
])
def test_unsettled_is_the_last_rounds_and_nothing_follows_it(capsys, tmp_path, change, message):
    record = tmp_path / "game.yaml"
    record.write_text(change((EDGES / "bolsa_stops_mid_auction.yaml").read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["referee", "check", str(record)]) == 2
    assert message in capsys.readouterr().err


def test_the_referee_constructs_no_violation_of_its_own():
    """Every violation the referee reports comes from an engine or a template (issue 24): no
    module of `pnp/referee` calls `Violation`, a subclass of it or a kind of refusal (it only
    wraps them, in `StepViolation`, with where the record says it). A case→rule table of its
    own would be a second source of what is legal."""
    import ast
    import importlib
    import pkgutil

    import pnp.rules
    from pnp.rules.base import Refusal, Violation

    refusals: set[str] = set()
    for module in pkgutil.walk_packages(pnp.rules.__path__, "pnp.rules."):  # every subclass and kind defined
        found = importlib.import_module(module.name)
        refusals.update(name for name, value in vars(found).items() if isinstance(value, Refusal))

    def kinds(cls: type) -> set[str]:
        return {cls.__name__}.union(*(kinds(sub) for sub in cls.__subclasses__()))

    violations = kinds(Violation) | refusals
    assert {"Violation", "Unlisted", "SEATS", "NOT_YOUR_TURN"} <= violations
    made = []
    for file in sorted((Path(__file__).parents[1] / "pnp" / "referee").rglob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if name in violations:
                    made.append(f"{file.name}:{node.lineno} {name}")
    assert made == []
