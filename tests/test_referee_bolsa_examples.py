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


def said(answer: dict, rule: str) -> list[dict]:
    """The data of the events under `rule` (the numbers and names their sentences word)."""
    return [event["data"] for event in answer["events"] if event["rule"] == rule]


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
    assert said(answer, "BOLSA-1.9") == [{"players": 6, "dealt": 90, "box": 0, "box_each": 0}]


def test_x1_setup_four_players_leaves_30_cards_in_the_box(check):
    code, answer = check(RECORDS / "x01_setup_4.yaml")
    assert code == 0 and len(answer["state"]["players"]) == 4
    assert said(answer, "BOLSA-1.9") == [{"players": 4, "dealt": 60, "box": 30, "box_each": 6}]
    assert sum(cash(answer).values()) == 200


def test_x2_case5_one_buyer_buys_what_is_offered_then_the_quote_rises(check):
    code, answer = check(RECORDS / "x02_case5_one_buyer.yaml")
    assert code == 0
    assert answer["state"]["prices"]["IBE"] == 12
    assert cash(answer)["P1"] == 60 and cash(answer)["P2"] == 40
    assert zones(answer, "P1", "IBE") == (0, 3)  # 1: 3→2
    assert zones(answer, "P2", "IBE") == (1, 2)  # 1: 4→1, 2: 4→2
    assert said(answer, "BOLSA-4.5.1") == [{"company": "IBE", "offered": 1, "requested": 3, "buyer": "P2", "price": 10,
                                            "unfilled": 2, "from": 10, "to": 12}]


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
    assert said(answer, "BOLSA-4.2") == [{"company": "SAN", "offered": 2, "requested": 0, "from": 10, "to": 8}]  # REFEREE.md's
    assert said(answer, "BOLSA-4.3") == [{"company": "TEF", "offered": 0, "requested": 3, "from": 10, "to": 13}]  # example
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
    assert said(answer, "BOLSA-4.5.2") == [
        {"company": "FER", "ascending": True, "bidders": 3, "requested": 5, "offered": 2, "quote": 12, "order": ["P3", "P4", "P2"]},
        {"company": "FER", "from": 12, "to": 15},  # the quote becomes the auction price
    ]
    assert said(answer, "BOLSA-5.5") == [{"company": "FER", "player": "P3", "price": 15, "unbid": False,
                                          "ranking": ["P3", "P2", "P4"]}]
    (allocated,) = said(answer, "BOLSA-5.6")
    assert allocated == {"company": "FER", "price": 15, "shares": {"P3": 1, "P2": 1, "P4": 0}}
    assert list(allocated["shares"]) == ["P3", "P2", "P4"]  # in ranking order


def test_x6_descending_auction(check):
    code, answer = check(RECORDS / "x06_descending_auction.yaml")
    assert code == 0
    assert answer["state"]["prices"]["TEF"] == 16
    assert cash(answer) == {"P1": 66, "P2": 50, "P3": 66, "P4": 28}
    assert zones(answer, "P3", "TEF") == (0, 3)  # 1: 3→2
    assert zones(answer, "P1", "TEF") == (1, 2)  # 1: 3→2, 1: 3→1
    assert zones(answer, "P2", "TEF") == (1, 2)  # 1: 3→1
    assert zones(answer, "P4", "TEF") == (2, 1)  # 2: 4→1
    assert said(answer, "BOLSA-5.5") == [{"company": "TEF", "player": "P3", "price": 16, "unbid": False,
                                          "ranking": ["P3", "P1", "P2"]}]
    assert {"company": "TEF", "from": 20, "to": 16} in said(answer, "BOLSA-6.2")  # face up on cell 16, nothing flipped


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
    assert said(answer, "BOLSA-5.5") == [{"company": "IBE", "player": "P2", "price": 16, "unbid": False, "ranking": ["P2", "P4"]}]
    assert said(answer, "BOLSA-4.7.1") == []


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
    assert said(answer, "BOLSA-4.7.1") == [{"company": "FER", "player": "P4", "cash": 9, "shares": 1, "quote": 10, "cost": 10,
                                            "withdrawn": {"FER": 1}}]
    assert said(answer, "BOLSA-4.2") == [{"company": "FER", "offered": 1, "requested": 0, "from": 10, "to": 9}]


def test_x9_declaration_beyond_cash_is_illegal(check):
    code, answer = check(RECORDS / "x09_declaration_too_dear.yaml")
    assert code == 1 and not answer["ok"] and answer["checked"] == 1
    assert answer["violation"] == {
        "at": "rounds[0].declare.P4",
        "line": 11,
        "rule": "BOLSA-3.2.5",
        "message": "P4 requests 2 IBE at 10 + 2 FER at 10 = 40 but holds 30",
        "data": {"player": "P4", "prices": {"IBE": 10, "SAN": 10, "TEF": 10, "ITX": 10, "FER": 10},
                 "chosen": {"buy": {"IBE": 2, "FER": 2}}, "total": 40, "limit": 30},
    }
    assert zones(answer, "P1", "IBE") == (0, 2)  # the position in which P4 declared: P1's offer is in zone 3


@pytest.mark.parametrize("bounds, tef", [(None, 39), ("{price_bounds: unbounded_top}", 41)])
def test_x10_bounds_and_token_flip(check, tmp_path, bounds, tef):
    code, answer = check(RECORDS / "x10_bounds_and_flip.yaml", options=bounds, tmp_path=tmp_path)
    assert code == 0
    assert answer["state"]["prices"] == {"IBE": 10, "SAN": 0, "TEF": tef, "ITX": 10, "FER": 21}
    assert {"company": "FER", "from": 19, "to": 21, "cells": 20, "cell": 1} in said(answer, "BOLSA-6.2")  # flipped
    assert {"company": "SAN", "quote": -2, "to": 0} in said(answer, "BOLSA-6.1")  # clamped
    assert ({"company": "TEF", "quote": 41, "to": 39} in said(answer, "BOLSA-6.1")) == (tef == 39)


def test_x11_final_scoring(check):
    code, answer = check(RECORDS / "x11_final_scoring.yaml")
    state = answer["state"]
    assert code == 0 and state["over"] is True
    assert state["scores"]["P1"] == 129 and state["winners"] == ["P1"]
    assert state["players"]["P1"]["cash"] == 37  # the position before the bank's payout
    assert state["scores"] == {"P1": 129, "P2": 125, "P3": 107, "P4": 94}
    assert said(answer, "BOLSA-7.1")[0] == {"player": "P1", "shares": {"IBE": 2, "TEF": 1, "ITX": 3, "FER": 1},
                                            "prices": {"IBE": 13, "TEF": 21, "ITX": 10, "FER": 15},
                                            "payout": 2 * 13 + 1 * 21 + 3 * 10 + 1 * 15, "cash": 37, "score": 37 + 92}
