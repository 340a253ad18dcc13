"""For-Ex worked examples FOREX-X1 … X13 as game records, replayed through `pnp referee check`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pytest import approx

from pnp.cli import main

RECORDS = Path(__file__).parent / "records" / "forex"


def check(capsys, record: Path, *more: str) -> tuple[int, dict]:
    code = main(["referee", "check", str(record), "--json", *more])
    out = capsys.readouterr().out
    return code, json.loads(out)


def facts(answer: dict) -> list[tuple[str, dict]]:
    """Each event of the answer as (rule, data): what happened, whatever its wording."""
    return [(e["rule"], e["data"]) for e in answer["events"]]


def said(answer: dict, rule: str) -> list[dict]:
    """The data of the events under `rule`."""
    return [data for event_rule, data in facts(answer) if event_rule == rule]


def scored(answer: dict, player: str) -> dict:
    """The data of a player's FOREX-12.2 conversion to the strongest currency."""
    (conversion,) = [data for data in said(answer, "FOREX-12.2") if data["player"] == player]
    return conversion


def holdings(conversion: dict) -> list[tuple]:
    return [(part["currency"], part["amount"], part["value"], part["counted"]) for part in conversion["money"]]


def money(answer: dict, player: str) -> dict:
    return answer["state"]["players"][player]["money"]


def pair(answer: dict, key: str) -> tuple[str, int, float]:
    entry = answer["state"]["pairs"][key]
    return entry["stronger"], entry["position"], entry["rate"]


def test_every_record_replays_legally(capsys):
    for record in sorted(RECORDS.glob("*.yaml")):
        code, answer = check(capsys, record)
        assert (code, answer["ok"], answer["violation"]) == (0, True, None), record.name


def test_x1_setup(capsys):
    code, answer = check(capsys, RECORDS / "x01_setup.yaml")
    state = answer["state"]
    assert code == 0 and answer["checked"] == 0
    for currency in ("GBP", "EUR", "USD", "CHF", "JPY", "CAD", "CNY"):
        assert sum(money(answer, p)[currency] for p in ("P1", "P2", "P3", "P4")) == 8
    assert sum(state["supply"].values()) == 50
    assert state["queue"] == ["dividend 1"]
    assert state["strength"] == {"GBP": 6, "EUR": 5, "USD": 4, "CHF": 3, "JPY": 2, "CAD": 1, "CNY": 0}
    assert len(state["pairs"]) == 21 and state["over"] is False
    assert facts(answer)[:2] == [("FOREX-4.1", {"moved": []}), ("FOREX-4.2", {"money": 2, "players": {}})]  # the standard start
    assert facts(answer)[3] == ("FOREX-4.4", {"display": ["A", "B", "C", "D", "E", "F"], "queue": ["dividend 1"]})


def test_x2_contract_terms_with_the_stronger_amount_k(capsys):
    code, answer = check(capsys, RECORDS / "x02_contract_stronger_paid.yaml")
    at_gbp_cny_7 = {"stronger": "GBP", "weaker": "CNY", "position": 7, "rate": 4}
    assert said(answer, "FOREX-7.3") == [
        {"player": "P1", "set": "A", **at_gbp_cny_7, "pay": {"GBP": 3}, "receive": {"CNY": 12}},
        {"player": "P2", "set": "B", **at_gbp_cny_7, "pay": {"CNY": 12}, "receive": {"GBP": 3}},
        {"player": "P3", "set": "C", **at_gbp_cny_7, "pay": {"GBP": 10}, "receive": {"CNY": 40}},
    ]
    assert answer["state"]["queue"] == ["dividend 1", "contract A P1", "contract B P2", "contract C P3"]
    assert all(money(answer, p) == dict.fromkeys(money(answer, p), 2) for p in ("P1", "P2", "P3"))  # FOREX-7.4


def test_x3_contract_with_a_half(capsys):
    code, answer = check(capsys, RECORDS / "x03_contract_with_a_half.yaml")
    (made,) = said(answer, "FOREX-7.3")
    assert made == {"player": "P1", "set": "B", "stronger": "EUR", "weaker": "JPY", "position": 2, "rate": 1.5,
                    "pay": {"JPY": 4.5}, "receive": {"EUR": 3}}
    assert money(answer, "P1")["JPY"] == 0 and money(answer, "P1")["EUR"] == 5
    assert answer["state"]["queue"] == ["dividend 1", "contract B P1"]


def test_x4_spot_transaction(capsys):
    code, answer = check(capsys, RECORDS / "x04_spot_transaction.yaml")
    assert (money(answer, "P1")["GBP"], money(answer, "P1")["CAD"]) == (1, 4)
    assert (money(answer, "P2")["GBP"], money(answer, "P2")["CAD"]) == (3, 0)
    assert facts(answer)[4] == ("FOREX-6.2", {"player": "P1", "other": "P2", "give": {"GBP": 1}, "get": {"CAD": 2},
                                              "stronger": "GBP", "weaker": "CAD", "position": 3, "rate": 2})


def test_x5_opening_queue(capsys):
    code, answer = check(capsys, RECORDS / "x05_opening_queue.yaml")
    state = answer["state"]
    assert state["queue"] == ["contract B P2", "dividend 2", "loan A P1"]
    assert money(answer, "P1")["CNY"] == 14 and money(answer, "P1")["GBP"] == 2
    assert pair(answer, "GBP/CAD") == ("GBP", 2, 1.5)
    for key, stronger in (("EUR/CAD", "EUR"), ("USD/CAD", "USD"), ("CHF/CAD", "CHF"), ("JPY/CAD", "JPY")):
        assert pair(answer, key) == (stronger, 1, 1)
    assert pair(answer, "CAD/CNY") == ("CAD", 5, 3)
    assert said(answer, "FOREX-10.2.1") == [{"set": "A", "owe": {"GBP": 4}, "queue": ["contract B P2", "dividend 2", "loan A P1"]}]
    assert said(answer, "FOREX-10.5.1") == [{"dividend": 1, "pays": 0, "gains": dict.fromkeys(("P1", "P2", "P3", "P4"), {})}]


def test_x6_invest_in_two(capsys):
    code, answer = check(capsys, RECORDS / "x06_invest_in_two.yaml")
    state = answer["state"]
    assert pair(answer, "GBP/USD") == ("USD", 1, 1) and pair(answer, "EUR/USD") == ("USD", 1, 1)
    assert [pair(answer, k)[:2] for k in ("USD/CHF", "USD/JPY", "USD/CAD")] == [("USD", 2), ("USD", 3), ("USD", 3)]
    assert [pair(answer, k)[:2] for k in ("GBP/CNY", "EUR/CNY", "USD/CNY", "CHF/CNY", "JPY/CNY", "CAD/CNY")] == [
        ("GBP", 6), ("EUR", 5), ("USD", 6), ("CHF", 5), ("JPY", 4), ("CAD", 3)]
    assert state["strength"] == {"GBP": 5, "EUR": 4, "USD": 6, "CHF": 3, "JPY": 2, "CAD": 1, "CNY": 0}
    assert money(answer, "P1")["USD"] == 0 and money(answer, "P1")["CNY"] == 0
    assert state["players"]["P1"]["certificates"] == {"GBP": 0, "EUR": 0, "USD": 1, "CHF": 0, "JPY": 0, "CAD": 0, "CNY": 1}
    assert state["supply"]["USD"] == 6 and state["supply"]["CNY"] == 7


def test_x7_order_at_the_cap(capsys):
    _, gbp_first = check(capsys, RECORDS / "x07_cap_gbp_first.yaml")
    _, cny_first = check(capsys, RECORDS / "x07_cap_cny_first.yaml")
    assert pair(gbp_first, "GBP/CNY") == ("GBP", 9, 6)
    assert pair(cny_first, "GBP/CNY") == ("GBP", 10, 8)


def test_x8_divest_with_the_others(capsys):
    code, answer = check(capsys, RECORDS / "x08_divest.yaml")
    assert [money(answer, p)["JPY"] for p in ("P1", "P2", "P3")] == [6, 4, 2]
    assert [answer["state"]["players"][p]["certificates"]["JPY"] for p in ("P1", "P2", "P3")] == [0, 0, 1]
    for key in ("GBP/JPY", "EUR/JPY", "USD/JPY", "CHF/JPY"):
        assert pair(answer, key) == (key[:3], 5, 3)
    assert pair(answer, "JPY/CNY") == ("JPY", 2, 1.5)
    assert pair(answer, "JPY/CAD") == ("CAD", 2, 1.5)
    assert answer["state"]["supply"]["JPY"] == 3  # sold certificates leave the game
    assert ("FOREX-9.2", {"player": "P3", "currency": "JPY", "count": 0, "proceeds": 0}) in facts(answer)


def test_x9_contract_paid(capsys):
    code, answer = check(capsys, RECORDS / "x09_contract_paid.yaml")
    assert (money(answer, "P1")["GBP"], money(answer, "P1")["CNY"]) == (2, 14)
    assert answer["state"]["queue"] == ["dividend 1"]
    assert facts(answer)[-1] == ("FOREX-10.1", {"set": "A", "owner": "P1", "pay": {"GBP": 3}, "receive": {"CNY": 12}})


def test_x10_merged_loan_then_bankruptcy(capsys):
    code, answer = check(capsys, RECORDS / "x10_merged_loan_bankrupt.yaml")
    events = facts(answer)
    assert ("FOREX-10.2.2", {"owner": "P1", "loan": "A", "owe": {"GBP": 4, "USD": 7}, "set": "C"}) in events
    assert ("FOREX-10.4", {"set": "A", "owner": "P1", "owe": {"GBP": 4, "USD": 7}, "holds": {"GBP": 4, "USD": 6},
                           "short": {"USD": 7}}) in events  # Bankrupt
    state = answer["state"]
    assert state["over"] is True and state["queue"] == ["dividend 1"]
    assert (money(answer, "P1")["GBP"], money(answer, "P1")["USD"], money(answer, "P1")["CHF"]) == (4, 6, 7)
    assert state["scores"] == {"P1": 0, "P2": 8} and state["winners"] == ["P2"]  # FOREX-12.4 last


def test_x10_merged_loan_paid_with_seven_dollars(capsys):
    code, answer = check(capsys, RECORDS / "x10_merged_loan_paid.yaml")
    assert (money(answer, "P1")["GBP"], money(answer, "P1")["USD"]) == (0, 0)
    assert answer["state"]["queue"] == ["dividend 1", "contract B P1"]  # set A returned
    assert ("FOREX-10.4", {"set": "A", "owner": "P1", "owe": {"GBP": 4, "USD": 7}}) in facts(answer)  # paid
    assert answer["state"]["over"] is False


def test_x11_dividend_and_the_eight_space(capsys):
    code, answer = check(capsys, RECORDS / "x11_dividend_eight_space.yaml")
    assert (money(answer, "P1")["GBP"], money(answer, "P1")["CNY"]) == (4, 2)
    assert money(answer, "P2") == dict.fromkeys(money(answer, "P2"), 2)
    assert (money(answer, "P3")["EUR"], money(answer, "P3")["GBP"]) == (4, 4)
    assert [pair(answer, k)[:2] for k in ("GBP/CNY", "EUR/CNY", "USD/CNY", "CHF/CNY", "JPY/CNY", "CAD/CNY")] == [
        ("GBP", 9), ("EUR", 5), ("USD", 5), ("CHF", 5), ("JPY", 4), ("CAD", 3)]
    assert pair(answer, "GBP/CNY")[2] == 6
    assert answer["state"]["queue"] == ["dividend 3"]
    assert said(answer, "FOREX-10.5.2") == [{"currency": "CNY", "pair": "GBP/CNY", "side": "weaker"}]


def test_x12_final_scoring_per_holding_and_total(capsys):
    _, per_holding = check(capsys, RECORDS / "x12_final_scoring_per_holding.yaml")
    _, total = check(capsys, RECORDS / "x12_final_scoring_total.yaml")
    assert per_holding["state"]["strength"]["GBP"] == 6
    assert per_holding["state"]["scores"]["P1"] == 20 and total["state"]["scores"]["P1"] == 21
    assert per_holding["state"]["winners"] == ["P1"] and per_holding["state"]["over"] is True
    assert money(per_holding, "P1")["JPY"] == 4.5  # players as before final scoring
    # FOREX-X12: each holding in GBP (currency, amount, value in GBP, counted), rounded down one by one or in total
    one_by_one, whole = scored(per_holding, "P1"), scored(total, "P1")
    assert (one_by_one["currency"], one_by_one["rounding"], one_by_one["score"]) == ("GBP", "per_holding", 20)
    assert holdings(one_by_one) == [("GBP", 5, 5, 5), ("EUR", 7, approx(7 / 1.5), 4), ("USD", 3, 3, 3), ("CHF", 0, 0, 0),
                                    ("JPY", 4.5, 3, 3), ("CAD", 5, 2.5, 2), ("CNY", 13, 3.25, 3)]
    assert (whole["currency"], whole["rounding"], whole["score"]) == ("GBP", "total", 21)
    assert holdings(whole) == [("GBP", 5, 5, 5), ("EUR", 7, approx(7 / 1.5), approx(7 / 1.5)), ("USD", 3, 3, 3),
                               ("CHF", 0, 0, 0), ("JPY", 4.5, 3, 3), ("CAD", 5, 2.5, 2.5), ("CNY", 13, 3.25, 3.25)]
    assert sum(value for _, _, value, _ in holdings(whole)) == approx(21.42, abs=0.005)


def test_x13_three_way_tie_broken_by_the_player_who_ended_the_game(capsys):
    code, answer = check(capsys, RECORDS / "x13_three_way_tie.yaml")
    state = answer["state"]
    assert [state["strength"][c] for c in ("GBP", "EUR", "USD")] == [5, 5, 5]
    assert state["scores"]["P1"] == 17 and state["winners"] == ["P1"]
    # GBP, EUR and USD win 5 pairs each; certificates in hand GBP 3, EUR 4, USD 4; P1 ended the game and picks USD
    assert said(answer, "FOREX-12.1") == [{"currency": "USD", "pairs": 5, "held": {"GBP": 3, "EUR": 4, "USD": 4},
                                           "picked_by": "P1"}]


def test_final_resolution_runs_the_rest_of_the_queue(capsys):
    code, answer = check(capsys, RECORDS / "final_resolution.yaml")
    state = answer["state"]
    assert state["over"] is True and state["queue"] == []
    assert (money(answer, "P1")["GBP"], money(answer, "P1")["CNY"]) == (0, 6)
    rules = [e["rule"] for e in answer["events"]]
    assert rules.index("FOREX-10.5.5") < rules.index("FOREX-10.2") < rules.index("FOREX-10.1") < rules.index("FOREX-10.4")
    assert state["scores"] == {"P1": 7, "P2": 8} and state["winners"] == ["P2"]


def test_explain_prints_every_step_with_its_rule(capsys):
    code = main(["referee", "explain", str(RECORDS / "x05_opening_queue.yaml")])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    # golden text, on purpose: the English wording players read
    # (FOREX-X5's four turns, every line checked by hand against rules/forex.md's X5)
    assert lines[lines.index("── turns[0]"):-1] == [
        "── turns[0]",
        "FOREX-7.3  P1 makes contract A at GBP>CNY 7 (rate 4): pay 3 GBP, receive 12 CNY",
        "FOREX-7.4  one card of set A to P1, one to the back of the queue (dividend 1, contract A P1), one to the "
        "display with the terms",
        "── turns[1]",
        "FOREX-7.3  P2 makes contract B at EUR>JPY 2 (rate 1½): pay 4.5 JPY, receive 3 EUR",
        "FOREX-7.4  one card of set B to P2, one to the back of the queue (dividend 1, contract A P1, contract B P2), "
        "one to the display with the terms",
        "── turns[2]",
        "FOREX-10.5.1  dividend 1 pays 0 per certificate: P1 nothing; P2 nothing; P3 nothing; P4 nothing",
        "FOREX-10.5.3  P3 picks CAD among GBP, EUR, USD, CHF, JPY, CAD, CNY (0 certificates in hand) → CAD "
        "strengthened: GBP>CAD 2, EUR>CAD 1, USD>CAD 1, CHF>CAD 1, JPY>CAD 1, CAD>CNY 5",
        "FOREX-10.5.4  the Dividend stack goes to the back: queue contract A P1, contract B P2, dividend 2",
        "── turns[3]",
        "FOREX-10.2  contract A: P1 holds 2 GBP, cannot pay 3 → receives 12 CNY and owes 4 GBP (3 + 1 interest)",
        "FOREX-10.2.1  loan A (4 GBP) goes to the back: queue contract B P2, dividend 2, loan A P1",
    ]


@pytest.mark.parametrize("players", ["Ana,Ben", "Ana,Ben,Cris,Dan,Eve,Fay"])
def test_starter_record_passes_check(capsys, tmp_path, players):
    assert main(["referee", "new", "forex", "--players", players]) == 0
    record = tmp_path / "new.yaml"
    record.write_text(capsys.readouterr().out, encoding="utf-8")
    code, answer = check(capsys, record)
    assert code == 0 and answer["checked"] == 0
    assert list(answer["state"]["players"]) == players.split(",")
    assert sum(answer["state"]["supply"].values()) == 50


def test_starter_removes_the_certificates_at_random_as_the_seed_draws_them(capsys, tmp_path):
    """FOREX-4.3: `pnp referee new` deals the removal (the engine's deal): the same seed the
    same supply, another seed most likely another; each a record that checks clean."""
    supplies = []
    for seed in (1, 1, 2, 3, 4):
        assert main(["referee", "new", "forex", "--players", "Ana,Ben,Cris", "--seed", str(seed)]) == 0
        record = tmp_path / f"new-{len(supplies)}.yaml"
        record.write_text(capsys.readouterr().out, encoding="utf-8")
        code, answer = check(capsys, record)
        assert code == 0 and sum(answer["state"]["supply"].values()) == 50
        supplies.append(tuple(answer["state"]["supply"].values()))
    assert supplies[0] == supplies[1] and len(set(supplies)) >= 3


def test_starter_refuses_a_player_count_outside_two_to_six(capsys):
    assert main(["referee", "new", "forex", "--players", "Ana"]) == 2
    assert "2–6 players" in capsys.readouterr().err
