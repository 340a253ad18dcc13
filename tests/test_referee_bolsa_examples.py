"""The worked examples BOLSA-X1…X11 (rules/bolsa.md §10) replayed through `pnp referee check --json`.

Each record under tests/records/bolsa/ sets up the example's position and plays its round; the
assertions are the example's own numbers, read from the JSON answer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.cli import main

RECORDS = Path(__file__).parent / "records" / "bolsa"
COMPANIES = ("IBE", "SAN", "TEF", "ITX", "FER")


@pytest.fixture
def check(capsys):
    def run(path: Path, *, options: str | None = None, tmp_path: Path | None = None) -> tuple[int, dict]:
        if options is not None:  # the same record under other house rules
            text = path.read_text(encoding="utf-8").replace("players: [", f"options: {options}\nplayers: [", 1)
            path = tmp_path / path.name
            path.write_text(text, encoding="utf-8")
        code = main(["referee", "check", str(path), "--json"])
        return code, json.loads(capsys.readouterr().out)

    return run


def texts(answer: dict, rule: str) -> list[str]:
    return [event["text"] for event in answer["events"] if event["rule"] == rule]


def zones(answer: dict, player: str, company: str) -> tuple[int, int]:
    """(zone 1, zone 2) cards of one company."""
    p = answer["state"]["players"][player]
    return p["shares"][company], p["orders"][company]


def cash(answer: dict) -> dict[str, int]:
    return {name: p["cash"] for name, p in answer["state"]["players"].items()}


def test_x1_setup_six_players_deals_all_90_cards(check):
    code, answer = check(RECORDS / "x01_setup_6.yaml")
    state = answer["state"]
    assert code == 0 and answer["ok"] and answer["checked"] == 0
    assert state["round"] == 1 and state["token"] == "P1"
    assert state["prices"] == dict.fromkeys(COMPANIES, 10)
    for player in state["players"].values():
        assert player["cash"] == 50
        assert sum(player["shares"].values()) == 5 and sum(player["orders"].values()) == 10
    for company in COMPANIES:
        assert sum(p["shares"][company] for p in state["players"].values()) == 6
    assert sum(cash(answer).values()) == 300
    assert texts(answer, "BOLSA-1.9") == ["6 players: 90 share cards dealt, 0 stay in the box (0 per company)"]


def test_x1_setup_four_players_leaves_30_cards_in_the_box(check):
    code, answer = check(RECORDS / "x01_setup_4.yaml")
    assert code == 0 and len(answer["state"]["players"]) == 4
    assert texts(answer, "BOLSA-1.9") == ["4 players: 60 share cards dealt, 30 stay in the box (6 per company)"]
    assert sum(cash(answer).values()) == 200


def test_x2_case5_one_buyer_buys_what_is_offered_then_the_quote_rises(check):
    code, answer = check(RECORDS / "x02_case5_one_buyer.yaml")
    assert code == 0
    assert answer["state"]["prices"]["IBE"] == 12
    assert cash(answer)["P1"] == 60 and cash(answer)["P2"] == 40
    assert zones(answer, "P1", "IBE") == (0, 3)  # 1: 3→2
    assert zones(answer, "P2", "IBE") == (1, 2)  # 1: 4→1, 2: 4→2
    assert texts(answer, "BOLSA-4.5.1") == ["IBE: 1 offered, 3 wanted by P2 alone: P2 buys 1 at 10; 2 unfilled: 10 → 12"]


def test_x3_case6_one_seller_sells_what_is_wanted_then_the_quote_falls(check):
    code, answer = check(RECORDS / "x03_case6_one_seller.yaml")
    assert code == 0
    assert answer["state"]["prices"]["IBE"] == 8
    assert cash(answer)["P1"] == 60 and cash(answer)["P2"] == 40
    assert zones(answer, "P1", "IBE") == (2, 1)  # 1: 3→2, 2: 3→1
    assert zones(answer, "P2", "IBE") == (2, 1)  # 1: 4→1


def test_x4_cases_1_to_4_in_one_round(check):
    code, answer = check(RECORDS / "x04_cases_1_to_4.yaml")
    state = answer["state"]
    assert code == 0 and answer["checked"] == 4 + 5
    assert cash(answer) == {"P1": 60, "P2": 60, "P3": 30, "P4": 50}
    assert state["prices"] == {"IBE": 10, "SAN": 8, "TEF": 13, "ITX": 10, "FER": 10}
    assert state["token"] == "P2" and state["round"] == 2
    assert texts(answer, "BOLSA-4.2") == ["SAN: 2 offered, none wanted: 10 → 8"]
    assert texts(answer, "BOLSA-4.3") == ["TEF: none offered, 3 wanted: 10 → 13"]
    numbers = {event["rule"]: event["data"] for event in answer["events"]}  # REFEREE.md's example
    assert numbers["BOLSA-4.2"] == {"company": "SAN", "offered": 2, "requested": 0, "from": 10, "to": 8}
    assert numbers["BOLSA-4.3"] == {"company": "TEF", "offered": 0, "requested": 3, "from": 10, "to": 13}
    assert zones(answer, "P1", "SAN") == (1, 2)  # the unsold card went back 3 → 1
    assert zones(answer, "P3", "ITX") == (3, 0)  # bought 2: 4 → 1


def test_x5_ascending_auction(check):
    code, answer = check(RECORDS / "x05_auction.yaml")
    assert code == 0 and answer["checked"] == 4 + 5 + 6 + 1
    assert answer["state"]["prices"]["FER"] == 15
    assert cash(answer) == {"P1": 80, "P2": 25, "P3": 15, "P4": 40}
    assert zones(answer, "P1", "FER") == (0, 3)  # 2: 3→2
    assert zones(answer, "P3", "FER") == (2, 1)  # 1: 4→1
    assert zones(answer, "P2", "FER") == (1, 2)  # 1: 4→1, 1: 4→2
    assert zones(answer, "P4", "FER") == (1, 2)  # 2: 4→2
    assert texts(answer, "BOLSA-4.5.2")[0] == "FER: 3 buyers want 5, 2 offered → auction (ascending from 12; bidding order P3, P4, P2)"
    assert texts(answer, "BOLSA-5.5") == ["FER: P3 wins at 15; ranking P3, P2, P4"]
    assert texts(answer, "BOLSA-5.6") == ["FER: allocation at 15 in ranking order: P3 1, P2 1, P4 0"]


def test_x6_descending_auction(check):
    code, answer = check(RECORDS / "x06_descending_auction.yaml")
    assert code == 0
    assert answer["state"]["prices"]["TEF"] == 16
    assert cash(answer) == {"P1": 66, "P2": 50, "P3": 66, "P4": 28}
    assert zones(answer, "P3", "TEF") == (0, 3)  # 1: 3→2
    assert zones(answer, "P1", "TEF") == (1, 2)  # 1: 3→2, 1: 3→1
    assert zones(answer, "P2", "TEF") == (1, 2)  # 1: 3→1
    assert zones(answer, "P4", "TEF") == (2, 1)  # 2: 4→1
    assert texts(answer, "BOLSA-5.5") == ["TEF: P3 wins at 16; ranking P3, P1, P2"]
    assert "TEF 20 → 16: token turned face up on cell 16" in texts(answer, "BOLSA-6.2")


@pytest.mark.parametrize("trigger", [None, "{auction_trigger: literal}"])
def test_x7_one_buyer_two_sellers_is_the_same_under_both_triggers(check, tmp_path, trigger):
    code, answer = check(RECORDS / "x07_one_buyer_two_sellers.yaml", options=trigger, tmp_path=tmp_path)
    assert code == 0
    assert answer["state"]["prices"]["ITX"] == 10
    assert cash(answer) == {"P1": 59, "P2": 22, "P3": 59, "P4": 50}
    assert zones(answer, "P2", "ITX") == (2, 1)


def test_x8_one_seller_two_buyers(check):
    code, answer = check(RECORDS / "x08_one_seller_two_buyers.yaml")
    assert code == 0
    assert answer["state"]["prices"]["SAN"] == 4
    assert cash(answer) == {"P1": 60, "P2": 45, "P3": 45, "P4": 50}
    assert zones(answer, "P1", "SAN") == (1, 2)  # 2 sold 3→2, 1 unsold 3→1


def test_x9_shortfall_auction_then_case_4(check):
    code, answer = check(RECORDS / "x09_shortfall.yaml")
    assert code == 0
    assert answer["state"]["prices"]["IBE"] == 16 and answer["state"]["prices"]["FER"] == 10
    assert cash(answer) == {"P1": 66, "P2": 44, "P3": 66, "P4": 4}
    assert zones(answer, "P4", "IBE") == (2, 1)  # 1: 4→1, 1: 4→2
    assert texts(answer, "BOLSA-5.5") == ["IBE: P2 wins at 16; ranking P2, P4"]
    assert texts(answer, "BOLSA-4.7.1") == []


def test_x9_p4_may_bid_at_most_15(check, tmp_path):
    record = (RECORDS / "x09_shortfall.yaml").read_text(encoding="utf-8").replace("- P4: pass", "- P4: 17")
    (tmp_path / "x9.yaml").write_text(record, encoding="utf-8")
    code, answer = check(tmp_path / "x9.yaml")
    assert code == 1
    assert answer["violation"]["at"] == "rounds[0].auctions.IBE[3]" and answer["violation"]["rule"] == "BOLSA-5.3"
    assert answer["violation"]["message"] == "P4 bids 17 on IBE: 17 × 2 requested = 34 but holds 30 (at most 15)"


def test_x9_variant_p4_withdraws_at_fer(check):
    code, answer = check(RECORDS / "x09_shortfall_variant.yaml")
    assert code == 0
    assert answer["state"]["prices"]["IBE"] == 21 and answer["state"]["prices"]["FER"] == 9
    assert cash(answer) == {"P1": 71, "P2": 29, "P3": 71, "P4": 9}
    assert zones(answer, "P2", "FER") == (1, 2)  # 3→1
    assert zones(answer, "P4", "FER") == (1, 2)  # 4→2
    assert texts(answer, "BOLSA-4.7.1") == ["FER: P4 has 9, less than 1 × 10 = 10: withdraws all remaining requests (FER 1)"]
    assert texts(answer, "BOLSA-4.2") == ["FER: 1 offered, none wanted: 10 → 9"]


def test_x9_declaration_beyond_cash_is_illegal(check):
    code, answer = check(RECORDS / "x09_declaration_too_dear.yaml")
    assert code == 1 and not answer["ok"] and answer["checked"] == 1
    assert answer["violation"] == {
        "at": "rounds[0].declare.P4",
        "line": 11,
        "rule": "BOLSA-3.2.5",
        "message": "P4 requests 2 IBE at 10 + 2 FER at 10 = 40 but holds 30",
    }
    assert zones(answer, "P1", "IBE") == (0, 2)  # the position in which P4 declared: P1's offer is in zone 3


@pytest.mark.parametrize("bounds, tef", [(None, 39), ("{price_bounds: unbounded_top}", 41)])
def test_x10_bounds_and_token_flip(check, tmp_path, bounds, tef):
    code, answer = check(RECORDS / "x10_bounds_and_flip.yaml", options=bounds, tmp_path=tmp_path)
    assert code == 0
    assert answer["state"]["prices"] == {"IBE": 10, "SAN": 0, "TEF": tef, "ITX": 10, "FER": 21}
    assert "FER 19 → 21: token flipped (+20) on cell 1" in texts(answer, "BOLSA-6.2")
    assert "SAN: -2 is off the track: clamped to 0" in texts(answer, "BOLSA-6.1")
    assert ("TEF: 41 is off the track: clamped to 39" in texts(answer, "BOLSA-6.1")) == (tef == 39)


def test_x11_final_scoring(check):
    code, answer = check(RECORDS / "x11_final_scoring.yaml")
    state = answer["state"]
    assert code == 0 and state["over"] is True
    assert state["scores"]["P1"] == 129 and state["winners"] == ["P1"]
    assert state["players"]["P1"]["cash"] == 37  # the position before the bank's payout
    assert state["scores"] == {"P1": 129, "P2": 125, "P3": 107, "P4": 94}
    assert texts(answer, "BOLSA-7.1")[0] == (
        "the bank buys P1's shares: 2 IBE × 13 + 1 TEF × 21 + 3 ITX × 10 + 1 FER × 15 = 92; 37 + 92 = 129"
    )
