"""`pnp referee` on bolsa records: unreadable records (exit 2, file:line:col), violations (exit 1,
rule, `at`, line), the explanation, the starter record, and a start-up free of rendering."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pnp.cli import main

ROOT = Path(__file__).resolve().parents[1]
RECORDS = Path(__file__).parent / "records" / "bolsa"

HEAD = "game: bolsa\nplayers: [P1, P2, P3, P4]\n"


@pytest.fixture
def referee(tmp_path, capsys):
    """Run `pnp referee VERB` on record text; (exit code, stdout, stderr)."""

    def run(text: str, verb: str = "check", *flags: str) -> tuple[int, str, str]:
        path = tmp_path / "game.yaml"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        code = main(["referee", verb, str(path), *flags])
        out, err = capsys.readouterr()
        return code, out.replace(str(path), "game.yaml"), err.replace(str(path), "game.yaml")

    return run


def answer_of(referee, text: str) -> tuple[int, dict]:
    code, out, err = referee(text, "check", "--json")
    assert not err, err
    return code, json.loads(out)


def facts(answer: dict) -> list[tuple[str, dict]]:
    """Each event of a --json answer as (rule, data): what happened, whatever its wording."""
    return [(event["rule"], event["data"]) for event in answer["events"]]


# --- unreadable records: exit 2, every problem located ---------------------------------------


@pytest.mark.parametrize(
    "rounds, expected",
    [
        ("  - declare:\n      Zoe: {sell: {IBE: 1}}\n",
         'game.yaml:5:7: rounds[0].declare.Zoe: unknown player "Zoe" (known: P1, P2, P3, P4)'),
        ("  - declare:\n      P1: {sell: {IBX: 1}}\n",
         'game.yaml:5:19: rounds[0].declare.P1.sell.IBX: unknown company "IBX" (did you mean "ITX"?)'),
        ("  - declare:\n      P1: {sell: {IBE: -1}}\n",
         "game.yaml:5:24: rounds[0].declare.P1.sell.IBE: must be at least 0, got -1"),
        ("  - declare:\n      P1: {sell: {IBE: 1}, keep: {SAN: 1}}\n",
         'game.yaml:5:28: rounds[0].declare.P1.keep: unknown key "keep" (known: sell, buy)'),
        ("  - declare: {}\n    bids: {}\n",
         'game.yaml:5:5: rounds[0].bids: unknown key "bids" (known: declare, auctions, pairing, withdraw, unsettled)'),
        ("  - auctions:\n      FER: [{P3: lots}]\n",
         "game.yaml:5:18: rounds[0].auctions.FER[0].P3: a bid is a whole number ≥ 0 or pass, got 'lots'"),
        ("  - auctions:\n      FER: [{P3: 12, P4: 13}]\n",
         "game.yaml:5:13: rounds[0].auctions.FER[0]: a bid is one `Name: amount` or `Name: pass`, e.g. - Ana: 12"),
        ("  - pairing:\n      FER: [{buyer: P2, seller: P1}]\n",
         'game.yaml:5:13: rounds[0].pairing.FER[0]: required field "shares" is missing'),
        ("  - pairing:\n      FER: [{buyer: P2, seller: P1, shares: 0}]\n",
         "game.yaml:5:45: rounds[0].pairing.FER[0].shares: must be at least 1, got 0"),
    ],
)
def test_unreadable_rounds_exit_2_with_file_line_col(referee, rounds, expected):
    code, out, err = referee(HEAD + "rounds:\n" + rounds)
    assert code == 2 and out == ""
    assert err.strip() == expected
    assert "Traceback" not in err


def test_every_problem_is_reported_at_once(referee):
    """Every problem of the record's shape at once (pydantic's), then — the shape sound — every
    name it does not know (the players', the spec's)."""
    code, _, err = referee(HEAD + "rounds:\n  - declare:\n      Zoe: {}\n      P1: {buy: {TEF: -2}, keep: 1}\n")
    assert code == 2 and len(err.strip().splitlines()) == 2
    code, _, err = referee(HEAD + "rounds:\n  - declare:\n      Zoe: {}\n      P1: {buy: {TEX: 2}}\n")
    assert code == 2 and len(err.strip().splitlines()) == 2


def test_a_record_file_read_sound_is_read_again_without_pydantic(tmp_path):
    """The shape of a record file read sound is remembered by its content (the user's cache):
    read again in a fresh process, it loads no pydantic; edited, it is checked again."""
    record = tmp_path / "game.yaml"
    record.write_text(HEAD + "rounds:\n  - declare: {P1: {buy: {TEF: 1}}}\n", encoding="utf-8")
    probe = ("import sys\nfrom pnp.errors import RecordError\nfrom pnp.referee import read_record\n"
             "try:\n    read_record(sys.argv[1])\nexcept RecordError as error:\n    print(len(error.issues))\n"
             "print('pydantic' in sys.modules)\n")
    env = {**os.environ, "PNP_CACHE": str(tmp_path / "cache")}

    def read() -> list[str]:
        done = subprocess.run([sys.executable, "-c", probe, str(record)], capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert read() == ["True"] and read() == ["False"]
    record.write_text(HEAD + "rounds:\n  - declare: {P1: {buy: {TEF: -1}}}\n", encoding="utf-8")
    assert read() == ["1", "True"] and read() == ["1", "True"]  # an unsound shape is never remembered


@pytest.mark.parametrize(
    "start, expected",
    [
        ("start:\n  players:\n    Zoe: {cash: 5}\n", 'game.yaml:5:5: start.players.Zoe: unknown player "Zoe" (known: P1, P2, P3, P4)'),
        ("start:\n  prices: {IBEX: 5}\n", 'game.yaml:4:12: start.prices.IBEX: unknown company "IBEX" (did you mean "IBE"?)'),
        ("start:\n  players:\n    P1: {cash: -5}\n", "game.yaml:5:16: start.players.P1.cash: must be at least 0, got -5"),
        ("start:\n  token: Zoe\n", 'game.yaml:4:10: start.token: unknown player "Zoe" (known: P1, P2, P3, P4)'),
        ("start:\n  round: 0\n", "game.yaml:4:10: start.round: must be at least 1, got 0"),
        ("options: {roundz: 5}\n", 'game.yaml:3:11: options.roundz: unknown option "roundz" (did you mean "rounds"?)'),
        ("options: {auction_losers: maybe}\n",
         'game.yaml:3:27: options.auction_losers: expected one of "must_trade", "may_withdraw"; got "maybe" (BOLSA-5.7)'),
    ],
)
def test_unreadable_start_and_options(referee, start, expected):
    code, _, err = referee(HEAD + start)
    assert code == 2 and err.strip() == expected


def test_missing_bids_where_an_auction_is_due(referee):
    text = (RECORDS / "x05_auction.yaml").read_text(encoding="utf-8").split("    auctions:")[0]
    code, _, err = referee(text)
    assert code == 2
    assert err.strip() == ("game.yaml:14:5: rounds[0]: FER goes to auction: add auctions.FER with the bids in order, "
                           "starting with P3 (or, to stop the record here, `unsettled: FER` in its last round)")


def test_bids_for_a_company_with_no_auction_are_a_violation(referee):
    """A readable record of a procedure the rules do not allow: exit 1 with the rule that
    settles the company instead (REFEREE.md), in the position where the bids were tried."""
    text = (RECORDS / "x04_cases_1_to_4.yaml").read_text(encoding="utf-8") + "    auctions:\n      ITX: [{P3: 11}]\n"
    code, answer = answer_of(referee, text)
    assert code == 1 and answer["violation"] == {
        "at": "rounds[0].auctions.ITX", "line": 11, "rule": "BOLSA-4.4",
        "message": "ITX goes to no auction this round (2 offered, 2 wanted: case 4), yet P3 bids",
        "data": {"company": "ITX", "player": "P3", "offered": 2, "wanted": 2, "case": 4, "side": None, "count": 0,
                 "needed": 2}}
    assert answer["state"]["trade"]["company"] == "ITX" and answer["state"]["trade"]["case"] == 4


def test_an_auction_the_record_leaves_unfinished_or_bids_past_its_end(referee):
    x5 = (RECORDS / "x05_auction.yaml").read_text(encoding="utf-8")
    code, _, err = referee(x5.replace("        - P2: pass\n", "") + "  - declare: {}\n")
    assert code == 2
    assert err.strip() == ("game.yaml:20:7: rounds[0].auctions.FER: the FER auction is not over: P3, P2 have not "
                           "passed; P2 bids next (or, to stop the record here, `unsettled: FER` in its last round)")
    code, answer = answer_of(referee, x5 + "        - P3: 16\n")
    assert code == 1 and answer["violation"] == {
        "at": "rounds[0].auctions.FER[6]", "line": 27, "rule": "BOLSA-5.3",
        "message": "the auction ended when all but P3 had passed (P3 won at 15); P3 bids after its end",
        "data": {"leader": "P3", "price": 15, "player": "P3"}}


def test_bad_yaml(referee):
    code, _, err = referee(HEAD + "rounds: [\n")
    assert code == 2 and err.startswith("game.yaml:") and "not valid YAML" in err


# --- violations: exit 1, rule, at, line, and the position where it was tried ------------------------


def test_a_bid_out_of_turn(referee):
    x5 = (RECORDS / "x05_auction.yaml").read_text(encoding="utf-8")
    code, answer = answer_of(referee, x5.replace("- P4: 13", "- P2: 13"))
    assert code == 1 and answer["checked"] == 4 + 5 + 1
    assert answer["violation"] == {"at": "rounds[0].auctions.FER[1]", "line": 22, "rule": "BOLSA-5.2",
                                   "message": "P2 bids out of turn in the FER auction: it is P4's turn",
                                   "data": {"player": "P2", "company": "FER", "turn": "P4"}}
    assert facts(answer)[-1] == ("BOLSA-5.3", {"company": "FER", "player": "P3", "amount": 12})
    # the position where the bid was tried: the declared cards (zones 3, 4) and the auction
    state = answer["state"]
    assert state["phase"] == "trade" and state["players"]["P1"]["offered"]["FER"] == 2
    assert [state["players"][p]["requested"]["FER"] for p in ("P2", "P3", "P4")] == [2, 1, 2]
    assert state["trade"] == {"company": "FER", "case": 5, "quote": 12, "auction": {
        "ascending": True, "bidders": ["P3", "P4", "P2"], "passed": [], "best": 12, "bidder": "P3", "over": False,
        "to_act": "P4"}}


def test_withdrawing_under_must_trade(referee):
    x5 = (RECORDS / "x05_auction.yaml").read_text(encoding="utf-8")
    code, answer = answer_of(referee, x5 + "    withdraw:\n      FER: [P4]\n")
    assert code == 1
    assert answer["violation"]["at"] == "rounds[0].withdraw.FER[0]" and answer["violation"]["line"] == 28
    assert answer["violation"]["rule"] == "BOLSA-5.7"
    assert answer["state"]["players"]["P4"]["orders"]["FER"] == 0  # tried after the auction, before settling


def test_withdrawing_under_may_withdraw(referee):
    x5 = (RECORDS / "x05_auction.yaml").read_text(encoding="utf-8").replace("players: [", "options: {auction_losers: may_withdraw}\nplayers: [", 1)
    code, answer = answer_of(referee, x5 + "    withdraw:\n      FER: [P2]\n")
    assert code == 0
    assert answer["state"]["players"]["P2"]["cash"] == 40 and answer["state"]["players"]["P4"]["cash"] == 25
    assert ("BOLSA-5.7", {"company": "FER", "player": "P2", "shares": 2, "side": "requested"}) in facts(answer)


def test_a_pairing_is_followed_or_refused_where_it_is_written(referee):
    x4 = (RECORDS / "x04_cases_1_to_4.yaml").read_text(encoding="utf-8")
    code, answer = answer_of(referee, x4 + "    pairing:\n      ITX: [{buyer: P3, seller: P2, shares: 2}]\n")
    assert code == 1
    assert answer["violation"] == {"at": "rounds[0].pairing.ITX", "line": 11, "rule": "BOLSA-4.8",
                                   "message": "the pairing has P2 selling 2 ITX, but only 1 are his to trade",
                                   "data": {"player": "P2", "buying": False, "shares": 2, "company": "ITX", "cards": 1}}
    pairing = "    pairing:\n      ITX: [{buyer: P3, seller: P2, shares: 1}, {buyer: P3, seller: P1, shares: 1}]\n"
    code, answer = answer_of(referee, x4 + pairing)
    assert code == 0
    paired = [data for rule, data in facts(answer) if rule == "BOLSA-4.8"]
    assert paired == [{"company": "ITX", "buyer": "P3", "seller": seller, "shares": 1, "price": 10, "amount": 10,
                       "automatic": False} for seller in ("P2", "P1")]  # as paired


def test_too_few_players_is_a_violation_at_players(referee):
    code, answer = answer_of(referee, "game: bolsa\nplayers: [Ana, Ben]\n")
    assert code == 1 and answer["state"] is None
    assert answer["violation"] == {"at": "players", "line": 2, "rule": "BOLSA-1.9", "message": "the game is for 3–6 players, not 2",
                                   "data": {"low": 3, "high": 6, "count": 2}}


def test_an_unreachable_start_is_a_violation_at_start(referee):
    code, answer = answer_of(referee, HEAD + "start:\n  players:\n    P1: {owned: {TEF: 3}}\n")
    assert code == 1 and answer["violation"]["at"] == "start" and answer["violation"]["rule"] == "BOLSA-2.6"


def test_a_round_after_the_last_one(referee):
    x11 = (RECORDS / "x11_final_scoring.yaml").read_text(encoding="utf-8")
    code, answer = answer_of(referee, x11 + "  - declare:\n      P1: {sell: {IBE: 1}}\n")
    assert code == 1 and answer["checked"] == 5
    assert answer["violation"] == {"at": "rounds[1].declare.P1", "line": 16, "rule": "BOLSA-3.5.2",
                                   "message": "the game ended after round 5; nothing more can be played",
                                   "data": {"round": 5}}
    assert answer["state"]["over"] is True and answer["state"]["scores"]["P1"] == 129


def test_the_referee_follows_an_edited_spec(tmp_path, capsys):
    """A sixth company and a longer quote track in components.yaml: the new company is dealt,
    declared and resolved like the others, and every quote starts on the new start cell."""
    spec = (ROOT / "components.yaml").read_text(encoding="utf-8")
    spec = spec.replace(
        '      - {id: FER, name: Ferrovial,  color: "#e69f00", symbol: hexagon}\n',
        '      - {id: FER, name: Ferrovial,  color: "#e69f00", symbol: hexagon}\n'
        '      - {id: REP, name: Repsol, color: "#cc79a7", symbol: star}\n',
    ).replace("quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 24, start: 12}")
    (tmp_path / "spec.yaml").write_text(spec, encoding="utf-8")
    record = HEAD + "rounds:\n  - declare:\n      P1: {sell: {REP: 1}}\n      P2: {sell: {REP: 1}}\n"
    (tmp_path / "game.yaml").write_text(record, encoding="utf-8")
    assert main(["referee", "check", str(tmp_path / "game.yaml"), "--json", "--spec", str(tmp_path / "spec.yaml")]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["state"]["prices"] == {"IBE": 12, "SAN": 12, "TEF": 12, "ITX": 12, "FER": 12, "REP": 10}
    assert answer["state"]["players"]["P1"]["orders"]["REP"] == 2


# --- the text answers ---------------------------------------------------------------------------


def test_check_and_explain_in_text(referee):
    x5 = (RECORDS / "x05_auction.yaml").read_text(encoding="utf-8")
    code, out, _ = referee(x5)
    assert code == 0 and out.strip() == "game.yaml: all 16 actions legal"
    code, out, _ = referee(x5, "explain")
    lines = out.splitlines()
    assert code == 0
    assert lines[-1] == "game.yaml: all 16 actions legal"
    # golden text, on purpose: the English wording players read
    # (X5's auction at FER and the end of the round, every line checked by hand against rules/bolsa.md's X5)
    auction = lines.index("── rounds[0].trade.FER")
    assert lines[auction:-1] == [
        "── rounds[0].trade.FER",
        "BOLSA-4.5.2  FER: 3 buyers want 5, 2 offered → auction (ascending from 12; bidding order P3, P4, P2)",
        "── rounds[0].auctions.FER[0]",
        "BOLSA-5.3  FER: P3 bids 12",
        "── rounds[0].auctions.FER[1]",
        "BOLSA-5.3  FER: P4 bids 13",
        "── rounds[0].auctions.FER[2]",
        "BOLSA-5.3  FER: P2 bids 14",
        "── rounds[0].auctions.FER[3]",
        "BOLSA-5.3  FER: P3 bids 15",
        "── rounds[0].auctions.FER[4]",
        "BOLSA-5.3  FER: P4 passes",
        "── rounds[0].auctions.FER[5]",
        "BOLSA-5.3  FER: P2 passes",
        "BOLSA-5.5  FER: P3 wins at 15; ranking P3, P2, P4",
        "── rounds[0].trade.FER",
        "BOLSA-5.6  FER: allocation at 15 in ranking order: P3 1, P2 1, P4 0",
        "BOLSA-4.8  FER: P3 buys 1 from P1 at 15 = 15 (automatic pairing)",
        "BOLSA-4.8  FER: P2 buys 1 from P1 at 15 = 15 (automatic pairing)",
        "BOLSA-4.5.2  FER: the quote becomes the auction price: 12 → 15",
        "BOLSA-3.4  FER cards: P3 1: 4→1; P4 2: 4→2; P1 2: 3→2; P2 1: 4→1, 1: 4→2",
        "BOLSA-3.5.1  auction-order token: P3 → P4",
        "BOLSA-3.5.2  round 1 → 2",
    ]
    code, out, _ = referee(x5.replace("- P3: 15", "- P3: 14"))
    assert code == 1
    assert out.strip() == ("game.yaml:24: rounds[0].auctions.FER[3]: illegal — BOLSA-5.3: P3 bids 14 on FER, "
                           "not above the high bid 14 (12 actions legal before it)")


def test_a_finished_game_names_the_winner(referee):
    code, out, _ = referee((RECORDS / "x11_final_scoring.yaml").read_text(encoding="utf-8"))
    assert code == 0
    assert out.strip() == "game.yaml: all 5 actions legal; game over — scores: P1 129, P2 125, P3 107, P4 94; winner: P1"


# --- the starter record --------------------------------------------------------------------------


@pytest.mark.parametrize("players", ["Ana,Ben,Cris", "Ana María,yes,1,O'Neil,\"Q\",Zoë"])
def test_the_starter_record_passes_its_own_check(tmp_path, capsys, players):
    assert main(["referee", "new", "bolsa", "--players", players]) == 0
    text = capsys.readouterr().out
    (tmp_path / "new.yaml").write_text(text, encoding="utf-8")
    assert main(["referee", "check", str(tmp_path / "new.yaml"), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)["state"]
    assert list(state["players"]) == players.split(",")
    assert all(p["cash"] == 50 and sum(p["shares"].values()) == 5 for p in state["players"].values())


def test_the_starters_example_round_is_a_legal_round(tmp_path, capsys):
    assert main(["referee", "new", "bolsa", "--players", "Ana,Ben,Cris,Dan"]) == 0
    text = capsys.readouterr().out
    example = text.split("rounds: []\n", 1)[1]
    rounds = "\n".join(line[2:] for line in example.splitlines() if line.startswith("#  ") or line.startswith("# -"))
    (tmp_path / "played.yaml").write_text(text.split("rounds: []", 1)[0] + "rounds:\n" + rounds + "\n", encoding="utf-8")
    assert main(["referee", "check", str(tmp_path / "played.yaml"), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["checked"] == 3 + 5 + 2 + 1
    assert answer["state"]["players"]["Ben"]["cash"] == 38 and answer["state"]["prices"]["FER"] == 12


def test_the_starter_refuses_a_player_count_the_game_does_not_seat(capsys):
    assert main(["referee", "new", "bolsa", "--players", "Ana,Ben"]) == 2
    assert capsys.readouterr().err.strip() == "BOLSA-1.9: the game is for 3–6 players, not 2"
