"""Every worked example of rules/aktsioner.md (AKT-X1 … X19) replayed from its record in
tests/records/aktsioner/ through the CLI's code path, with the example's exact numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.cli import main

RECORDS = Path(__file__).resolve().parent / "records" / "aktsioner"


@pytest.fixture
def check(capsys):
    """`pnp referee check RECORD --json` → (exit status, answer)."""

    def run(name: str) -> tuple[int, dict]:
        status = main(["referee", "check", str(RECORDS / name), "--json"])
        return status, json.loads(capsys.readouterr().out)

    return run


def line_of(name: str, needle: str) -> int:
    text = (RECORDS / name).read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1


def said(answer: dict, rule: str) -> list[dict]:
    """The data of the events under `rule`: the numbers and names their sentences word. Money
    events carry the change of the player's cash as `amount`, signed."""
    return [event["data"] for event in answer["events"] if event["rule"] == rule]


def price(colour: str, old: int, effect: str, calc: int, new: int, overflow: int = 0, penalty: int = 0) -> dict:
    """A new price's data (AKT-5): "blue: 230 +100 = 330 → 250 (overflow 80 per share)"."""
    return {"colour": colour, "old": old, "effect": effect, "calc": calc, "new": new, "overflow": overflow,
            "penalty": penalty}


def test_every_record_names_its_example():
    names = sorted(path.name for path in RECORDS.glob("x*.yaml"))
    examples = {name[:3] for name in names}
    assert examples == {f"x{n:02d}" for n in range(1, 20)} - {"x08"}  # X8 (the table) is a unit test
    for path in RECORDS.glob("*.yaml"):
        assert path.read_text(encoding="utf-8").startswith("# AKT-X"), path.name


def test_x1_start_capital_400(check):
    status, answer = check("x01_start.yaml")
    assert status == 0 and answer["ok"] and answer["checked"] == 0
    assert answer["state"]["prices"] == {"blue": 100, "red": 100, "yellow": 100, "green": 100}
    for account in answer["state"]["players"].values():
        assert account == {"cash": 0, "shares": {"blue": 1, "red": 1, "yellow": 1, "green": 1}}
        assert sum(n * answer["state"]["prices"][c] for c, n in account["shares"].items()) + account["cash"] == 400


def test_x2_own_decrease_360(check):
    status, answer = check("x02_own_decrease.yaml")
    assert status == 0
    assert answer["state"]["prices"]["red"] == 70
    assert answer["state"]["players"]["M"]["cash"] == 360
    assert said(answer, "AKT-6.1") == [{"player": "M", "colour": "red", "old": 100, "new": 70, "held": 12, "amount": 360}]


def test_x3_overflow_80_per_share(check):
    status, answer = check("x03_overflow.yaml")
    assert status == 0
    assert answer["state"]["prices"]["blue"] == 250
    assert price("blue", 230, "+100", 330, 250, overflow=80) in said(answer, "AKT-6.2")
    assert {"player": "O", "colour": "blue", "overflow": 80, "held": 7, "amount": 560} in said(answer, "AKT-6.2")
    assert answer["state"]["players"]["O"]["cash"] == 560
    assert answer["state"]["players"]["M"]["cash"] == 80


def test_x4_zeroing_mover_2000(check):
    status, answer = check("x04_zeroing_mover.yaml")
    assert status == 0
    assert answer["state"]["prices"]["green"] == 10
    assert said(answer, "AKT-6.3") == [{"player": "M", "colour": "green", "old": 30, "new": 10, "held": 100, "amount": 2000}]
    assert answer["state"]["players"]["M"]["cash"] == 2000


def test_x5_zeroing_opponent_30_per_share_2400(check):
    status, answer = check("x05_zeroing_opponent.yaml")
    assert status == 0
    assert price("green", 40, "-60", -20, 10, penalty=30) in said(answer, "AKT-7.1")  # zeroed
    assert said(answer, "AKT-7.2") == [{"player": "O", "colour": "green", "penalty": 30, "held": 80, "due": 2400,
                                        "cash": 600 + 2400, "kept": 80, "lost": 0, "amount": -2400}]  # cash before paying
    assert answer["state"]["players"]["O"] == {"cash": 600, "shares": {"blue": 0, "red": 0, "yellow": 0, "green": 80}}


@pytest.mark.parametrize("mode, red", [("up", 110), ("down", 100)])
def test_x6_rounding_105(check, mode, red):
    status, answer = check(f"x06_rounding_{mode}.yaml")
    assert status == 0
    assert answer["state"]["prices"]["red"] == red
    assert said(answer, "AKT-5.2") == [price("red", 210, "/2", 105, red)]  # 105 rounded up to 110 or down to 100


def test_x7_halving_ten_penalty_5(check):
    status, answer = check("x07_halving_ten.yaml")
    assert status == 0 and answer["checked"] == 2
    assert said(answer, "AKT-5.3") == [price("green", 10, "/2", 5, 10, penalty=5)] * 2  # zeroed
    assert said(answer, "AKT-6.3") == [{"player": "M", "colour": "green", "old": 10, "new": 10, "held": 3, "amount": 0},
                                       {"player": "O", "colour": "green", "old": 10, "new": 10, "held": 4, "amount": 0}]
    assert said(answer, "AKT-7.2") == [  # cash before paying: 80 + 20, 85 + 15
        {"player": "O", "colour": "green", "penalty": 5, "held": 4, "due": 20, "cash": 100, "kept": 4, "lost": 0, "amount": -20},
        {"player": "M", "colour": "green", "penalty": 5, "held": 3, "due": 15, "cash": 100, "kept": 3, "lost": 0, "amount": -15},
    ]
    assert answer["state"]["prices"]["green"] == 10
    assert answer["state"]["players"]["M"]["cash"] == 85 and answer["state"]["players"]["O"]["cash"] == 80


def test_x9_stage3_sells_only_what_was_held_before(check):
    status, answer = check("x09_stage3_restriction.yaml")
    assert status == 0
    assert answer["state"]["prices"]["red"] == 150 and answer["state"]["prices"]["green"] == 60
    assert said(answer, "AKT-3.1") == [{"player": "M", "colour": "red", "shares": 2, "price": 100, "amount": -200, "cash": 100}]
    assert said(answer, "AKT-3.3") == [{"player": "M", "colour": "red", "shares": -1, "price": 150, "amount": 150, "cash": 250}]
    assert answer["state"]["players"]["M"] == {"cash": 250, "shares": {"blue": 0, "red": 2, "yellow": 0, "green": 0}}


def test_x9_selling_two_in_stage_3_is_illegal(check):
    status, answer = check("x09_stage3_restriction_illegal.yaml")
    assert status == 1 and not answer["ok"] and answer["checked"] == 0
    violation = answer["violation"]
    assert violation["rule"] == "AKT-3.3" and violation["at"] == "turns[0].then"
    assert violation["line"] == line_of("x09_stage3_restriction_illegal.yaml", "then:")
    assert violation["message"] == "M sells 2 red in stage 3 but may sell only 1: 2 of the 3 were bought in stage 1 of this turn"
    # the position in which the sale was tried: after stage 2
    assert answer["state"]["players"]["M"] == {"cash": 100, "shares": {"blue": 0, "red": 3, "yellow": 0, "green": 0}}
    assert answer["state"]["prices"]["red"] == 150


def test_x10_small_card_shorthand(check):
    _, answer = check("x10_small_card_30k.yaml")
    assert answer["state"]["prices"] == {"blue": 100, "red": 130, "yellow": 40, "green": 100}
    _, answer = check("x10_small_card_minus40zh.yaml")
    assert answer["state"]["prices"] == {"blue": 150, "red": 100, "yellow": 60, "green": 100}


def test_x11_hundred_plain(check):
    status, answer = check("x11_hundred_plain.yaml")
    assert status == 0
    assert answer["state"]["prices"] == {"blue": 200, "red": 70, "yellow": 80, "green": 90}
    assert answer["state"]["players"]["M"]["cash"] == 110  # 3 × 30 + 2 × 10
    assert answer["state"]["players"]["O"]["cash"] == 0


@pytest.mark.parametrize("mode, green, mover", [("up", 40, 170), ("down", 30, 210)])
def test_x12_double_with_overflow(check, mode, green, mover):
    status, answer = check(f"x12_double_overflow_{mode}.yaml")
    assert status == 0
    assert answer["state"]["prices"]["red"] == 250 and answer["state"]["prices"]["green"] == green
    assert said(answer, "AKT-6.2")[1:] == [{"player": "M", "colour": "red", "overflow": 10, "held": 5, "amount": 50},
                                           {"player": "O", "colour": "red", "overflow": 10, "held": 3, "amount": 30}]
    assert answer["state"]["players"]["M"]["cash"] == mover
    assert answer["state"]["players"]["O"]["cash"] == 30


@pytest.mark.parametrize("mode, blue, paid", [("up", 130, 1200), ("down", 120, 1300)])
def test_x13_halve_250(check, mode, blue, paid):
    status, answer = check(f"x13_halve_250_{mode}.yaml")
    assert status == 0
    assert answer["state"]["prices"]["blue"] == blue and answer["state"]["prices"]["yellow"] == 120
    assert answer["state"]["players"]["M"]["cash"] == paid


def test_x14_small_card_into_the_cap(check):
    status, answer = check("x14_small_card_cap.yaml")
    assert status == 0
    assert answer["state"]["prices"]["yellow"] == 250 and answer["state"]["prices"]["blue"] == 70
    assert said(answer, "AKT-6.1") == [{"player": "M", "colour": "blue", "old": 100, "new": 70, "held": 2, "amount": 60}]
    assert said(answer, "AKT-6.2")[1:] == [{"player": "M", "colour": "yellow", "overflow": 30, "held": 3, "amount": 90},
                                           {"player": "O", "colour": "yellow", "overflow": 30, "held": 5, "amount": 150}]


def test_x15_two_zeroings_and_partial_bankruptcy(check):
    status, answer = check("x15_two_zeroings.yaml")
    assert status == 0
    state = answer["state"]
    assert state["prices"] == {"blue": 250, "red": 10, "yellow": 10, "green": 20}
    assert state["players"]["M"]["cash"] == 250  # 180 + 0 + 20 + 50
    assert state["players"]["O"] == {"cash": 10, "shares": {"blue": 0, "red": 0, "yellow": 3, "green": 0}}
    assert said(answer, "AKT-7.5") == [{"player": "O", "order": [["yellow", 10], ["red", 30]], "tied": []}]
    assert said(answer, "AKT-7.2") == [{"player": "O", "colour": "yellow", "penalty": 10, "held": 3, "due": 30, "cash": 10 + 30,
                                        "kept": 3, "lost": 0, "amount": -30}]  # cash before paying
    assert said(answer, "AKT-7.4") == [{"player": "O", "colour": "red", "penalty": 30, "held": 2, "due": 60, "cash": 10,
                                        "kept": 0, "lost": 2, "amount": 0}]  # 2 red go to the bank


@pytest.mark.parametrize(
    "order, kept",
    [("higher_old_first", {"red": 1, "yellow": 0}), ("lower_old_first", {"red": 0, "yellow": 1})],
)
def test_x16_equal_penalties(check, order, kept):
    status, answer = check(f"x16_equal_penalties_{order}.yaml")
    assert status == 0
    o = answer["state"]["players"]["O"]
    assert o["cash"] == 0
    assert {colour: o["shares"][colour] for colour in ("red", "yellow")} == kept


def test_x17_last_move(check):
    status, answer = check("x17_last_move.yaml")
    assert status == 0
    state = answer["state"]
    assert state["prices"]["blue"] == 250 and state["prices"]["green"] == 10
    assert state["players"]["M"]["cash"] == 120
    assert state["players"]["O"] == {"cash": 0, "shares": {"blue": 2, "red": 0, "yellow": 0, "green": 4}}
    assert said(answer, "AKT-7.4") == [{"player": "O", "colour": "green", "penalty": 30, "held": 5, "due": 150, "cash": 120,
                                        "kept": 4, "lost": 1, "amount": -120}]  # 1 green goes to the bank
    assert said(answer, "AKT-8.1") == [{}]  # the last round: nobody buys or sells
    assert state["hands"] == {"M": [], "O": ["+30 red"]}
    assert "over" not in state


def test_x17_no_trading_in_the_last_round(check):
    status, answer = check("x17_last_move_no_trading.yaml")
    assert status == 1
    assert answer["violation"]["rule"] == "AKT-8.1" and answer["violation"]["at"] == "turns[0].then"


def test_x18_final_capital_1655(check):
    status, answer = check("x18_final_capital.yaml")
    assert status == 0
    state = answer["state"]
    assert state["prices"] == {"blue": 250, "red": 10, "yellow": 130, "green": 60}
    assert state["over"] is True and state["scores"] == {"O": 0, "P": 1655} and state["winners"] == ["P"]
    assert {"player": "P", "shares": {"blue": 3, "red": 40, "green": 7}, "prices": {"blue": 250, "red": 10, "green": 60},
            "cash": 85, "capital": 3 * 250 + 40 * 10 + 7 * 60 + 85} in said(answer, "AKT-9.2")


def test_x19_player_count(check):
    """The player count is checked before anything else is read, with a deal or without."""
    for name in ("x19_five_players_4_6.yaml", "x19_five_players_4_6_dealt.yaml"):
        status, answer = check(name)
        assert status == 1 and answer["violation"]["rule"] == "AKT-2.4" and answer["violation"]["at"] == "players"
        assert "20 big cards" in answer["violation"]["message"] and answer["state"] is None
        assert answer["violation"]["line"] == line_of(name, "players:")
    assert check("x19_five_players_4_6_min0.yaml")[0] == 0
    status, answer = check("x19_six_players_3_5_dealt.yaml")
    assert status == 0
    hands = answer["state"]["hands"]
    assert sum(len(hand) for hand in hands.values()) == 48  # 18 big + 30 small: 2 of each undealt
