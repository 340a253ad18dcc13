"""For-Ex records that cannot be read (exit 2, file:line:col and one sentence) and records
with an illegal action (exit 1, the rule, where and why), through `pnp referee check`."""

from __future__ import annotations

import json
import textwrap

import pytest

from in_process import error_lines
from pnp.cli import main

HEAD = "game: forex\nplayers: [Ana, Ben, Cris]\n"


def check(tmp_path, capsys, body: str) -> tuple[int, dict | None, str]:
    record = tmp_path / "game.yaml"
    record.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    code = main(["referee", "check", str(record), "--json"])
    captured = capsys.readouterr()
    answer = json.loads(captured.out)  # every exit answered in JSON: an error as its lines (`error_lines`)
    if code == 2:
        return code, None, error_lines(answer).replace(str(record), "game.yaml")
    return code, answer, captured.err.replace(str(record), "game.yaml")


# --- unreadable records (exit 2) -------------------------------------------------------------


@pytest.mark.parametrize("body, expected", [
    ("turns:\n  - player: Ana\n    contract: {pay: GPB, receive: EUR, amount: 1}\n",
     'game.yaml:5:21: turns[0].contract.pay: unknown currency "GPB" (did you mean "GBP"?)'),
    ("turns:\n  - player: Dan\n    resolve: {}\n",
     'game.yaml:4:13: turns[0].player: unknown player "Dan" (known: Ana, Ben, Cris)'),
    ("turns:\n  - player: Ana\n    divest: {currency: JPY, count: -1}\n",
     "game.yaml:5:36: turns[0].divest.count: must be at least 0, got -1"),
    ("turns:\n  - player: Ana\n    contract: {pay: GBP, receive: EUR, amount: lots}\n",
     "game.yaml:5:48: turns[0].contract.amount: expected an amount such as 3, 4.5 or \"5/4\" up to 1,000,000,000, got 'lots'"),
    ("turns:\n  - player: Ana\n    spot: {with: Ben, give: {GBP: 1}, get: {CAD: 2}}\n  - player: Ben\n    resolve: {}\n",
     "game.yaml:4:5: turns[0]: a turn has exactly one action (contract, invest, divest, resolve), this one has none (FOREX-5.2)"),
    ("turns:\n  - player: Ana\n    invest: GBP\n",
     "game.yaml:5:13: turns[0].invest: expected a list of one or two currencies, in buying order, e.g. [GBP, USD]"),
    ("start:\n  pairs: {USD/GBP: {stronger: GBP, position: 2}}\n",
     'game.yaml:4:11: start.pairs.USD/GBP: unknown pair "USD/GBP": write "GBP/USD" with the currencies in the order '
     "GBP, EUR, USD, CHF, JPY, CAD, CNY"),
    ("start:\n  pairs: {GBP/USD: {stronger: GBP, position: 11}}\n",
     "game.yaml:4:46: start.pairs.GBP/USD.position: position must be 1..10, got 11"),
    ("start:\n  queue: [dividend 9]\n",
     "game.yaml:4:11: start.queue[0]: there are dividends 1 to 5, not 9"),
    ("start:\n  queue: [{contract: G, owner: Ana, pay: {GBP: 1}, receive: {EUR: 1}}, dividend 1]\n",
     'game.yaml:4:22: start.queue[0].contract: unknown contract set "G" (known: A, B, C, D, E, F)'),
    ("start:\n  players:\n    Ana: {money: {GBP: -2}}\n",
     "game.yaml:5:24: start.players.Ana.money.GBP: an amount cannot be negative, got -2"),
    ("options: {voluntary_defualt: true}\n",
     'game.yaml:3:11: options.voluntary_defualt: unknown option "voluntary_defualt" (did you mean "voluntary_default"?)'),
    ("options:\n  start_pairs: {GBP/EUR: {stronger: GBP, position: 2}}\n",
     "game.yaml:4:16: options.start_pairs: missing pairs: GBP/USD, GBP/CHF, GBP/JPY, GBP/CAD, GBP/CNY, EUR/USD, EUR/CHF, "
     "EUR/JPY, EUR/CAD, EUR/CNY, USD/CHF, USD/JPY, USD/CAD, USD/CNY, CHF/JPY, CHF/CAD, CHF/CNY, JPY/CAD, JPY/CNY, "
     "CAD/CNY (FOREX-2.3)"),
])
def test_unreadable_records_exit_2_with_file_line_column(tmp_path, capsys, body, expected):
    code, answer, err = check(tmp_path, capsys, body)
    assert (code, answer) == (2, None)
    assert err.strip() == expected


def test_every_problem_is_reported_at_once(tmp_path, capsys):
    code, _, err = check(tmp_path, capsys, """\
        turns:
          - player: Ana
            contract: {pay: XXX, receive: EUR, amount: 1}
          - player: Zed
            invest: [GBP]
        """)
    assert code == 2 and len(err.strip().splitlines()) == 2
    assert "turns[0].contract.pay" in err and "turns[1].player" in err


def test_a_tie_the_record_does_not_break_is_a_record_error(tmp_path, capsys):
    """FOREX-10.5.3: nobody holds a certificate, so the resolver must name the currency."""
    code, answer, err = check(tmp_path, capsys, "turns:\n  - player: Ana\n    resolve: {}\n")
    assert code == 2
    assert err.strip() == (
        "game.yaml:5:14: turns[0].resolve: GBP, EUR, USD, CHF, JPY, CAD, CNY are tied (0 certificates in hand); "
        "Ana must pick one (FOREX-10.5.3): write `strengthen: GBP` or another of GBP, EUR, USD, CHF, JPY, CAD, CNY")


# --- violations (exit 1) ---------------------------------------------------------------------


def test_contract_over_ten_is_illegal(tmp_path, capsys):
    """X2: k = 11 → FOREX-7.2."""
    code, answer, _ = check(tmp_path, capsys, """\
        turns:
          - player: Ana
            contract: {pay: GBP, receive: CNY, amount: 3}
          - player: Ben
            contract: {pay: GBP, receive: CNY, amount: 11}
        """)
    assert code == 1 and answer["ok"] is False and answer["checked"] == 1
    assert answer["violation"] == {
        "at": "turns[1].contract", "line": 7, "rule": "FOREX-7.2",
        "message": "Ben names 11 of the stronger currency: the amount must be a whole number from 1 to 10",
        "data": {"player": "Ben", "value": 11, "bound": 10, "most": 10}}
    assert answer["state"]["queue"] == ["dividend 1", "contract A Ana"]


def test_half_bucks_of_the_stronger_are_illegal(tmp_path, capsys):
    """X2: k = 2.5 → FOREX-7.2."""
    code, answer, _ = check(tmp_path, capsys, "turns:\n  - player: Ana\n    contract: {pay: CNY, receive: GBP, amount: 2.5}\n")
    assert code == 1 and answer["violation"]["rule"] == "FOREX-7.2"
    assert answer["violation"]["data"] == {"player": "Ana", "value": 2.5, "bound": [1, 10], "most": 10}


def test_out_of_turn(tmp_path, capsys):
    """FOREX-5.3: Ana, then Cris instead of Ben."""
    code, answer, _ = check(tmp_path, capsys, """\
        turns:
          - player: Ana
            invest: [GBP]
          - player: Cris
            invest: [EUR]
        """)
    assert code == 1
    assert answer["violation"]["at"] == "turns[1].player" and answer["violation"]["line"] == 6
    assert answer["violation"]["rule"] == "FOREX-5.3"
    assert answer["violation"]["message"] == "it is Ben's turn, not Cris's: play goes clockwise (Ana, Ben, Cris)"


def test_a_violation_names_the_seller_that_broke_it(tmp_path, capsys):
    """FOREX-9.2: Ben offers to sell a certificate he does not hold."""
    code, answer, _ = check(tmp_path, capsys, """\
        start:
          players:
            Ana: {certificates: {JPY: 2}}
        turns:
          - player: Ana
            divest:
              currency: JPY
              count: 1
              others: {Ben: 1}
        """)
    assert code == 1
    assert answer["violation"] == {"at": "turns[0].divest.others.Ben", "line": 11, "rule": "FOREX-9.2",
                                   "message": "Ben sells 1 JPY certificates but holds 0",
                                   "data": {"player": "Ben", "value": 1, "currency": "JPY", "bound": 0}}
    assert answer["state"]["players"]["Ana"]["certificates"]["JPY"] == 2  # nothing applied


def test_a_violation_names_the_investment_that_broke_it(tmp_path, capsys):
    code, answer, _ = check(tmp_path, capsys, """\
        start:
          players:
            Ana: {certificates: {EUR: 4}, money: {EUR: 9}}
        turns:
          - player: Ana
            invest:
              - GBP
              - EUR
        """)
    assert answer["violation"]["at"] == "turns[0].invest[1]" and answer["violation"]["line"] == 10
    assert answer["violation"]["rule"] == "FOREX-8.2"


def test_a_legal_spot_stays_applied_when_the_action_after_it_is_illegal(tmp_path, capsys):
    """The state is the position in which the illegal action was tried: after the spot."""
    code, answer, _ = check(tmp_path, capsys, """\
        turns:
          - player: Ana
            spot: {with: Ben, give: {GBP: 1}, get: {CAD: 2}}
            invest: [GBP, GBP]
        """)
    assert code == 1 and answer["checked"] == 0
    assert answer["violation"]["at"] == "turns[0].invest" and answer["violation"]["rule"] == "FOREX-8.1"
    assert answer["state"]["players"]["Ana"]["money"]["GBP"] == 1
    assert answer["state"]["players"]["Ana"]["money"]["CAD"] == 4
    assert answer["events"][-1]["rule"] == "FOREX-6.2"


def test_an_illegal_spot(tmp_path, capsys):
    code, answer, _ = check(tmp_path, capsys, """\
        turns:
          - player: Ana
            spot: {with: Ben, give: {GBP: 1}, get: {CAD: 3}}
            resolve: {strengthen: GBP}
        """)
    assert answer["violation"]["at"] == "turns[0].spot" and answer["violation"]["line"] == 5
    assert answer["violation"]["rule"] == "FOREX-6.2"
    assert answer["violation"]["data"]["give"] == ["GBP", 1] and answer["violation"]["data"]["get"] == ["CAD", 3]
    assert answer["violation"]["data"]["terms"] == [[["GBP", 1], ["CAD", 2]], [["CAD", 2], ["GBP", 1]]]


def test_a_start_that_breaks_a_setup_rule_is_a_violation_at_start(tmp_path, capsys):
    code, answer, _ = check(tmp_path, capsys, "start:\n  players:\n    Ben: {certificates: {USD: 5}}\n")
    assert code == 1 and answer["checked"] == 0
    assert answer["violation"] == {"at": "start", "line": 4, "rule": "FOREX-8.2",
                                   "message": "Ben holds 5 USD certificates; at most 4 of a currency",
                                   "data": {"player": "Ben", "count": 5, "currency": "USD", "cap": 4}}


@pytest.mark.parametrize("start, rule", [
    ("  supply: {GBP: 8}\n  players:\n    Ana: {certificates: {GBP: 1}}\n", "FOREX-1.6"),
    ("  queue: [dividend 1, dividend 2]\n", "FOREX-4.5"),
    ("  queue: [{loan: A, owner: Ana, owe: {GBP: 2}}, {loan: B, owner: Ana, owe: {EUR: 2}}, dividend 1]\n", "FOREX-10.2.2"),
    # what no game reaches (issue 25): a Loan of nothing or of less than a contract and its interest,
    ("  queue: [dividend 1, {loan: A, owner: Ana, owe: {GBP: 0}}]\n", "FOREX-10.2"),
    ("  queue: [dividend 1, {loan: A, owner: Ana, owe: {GBP: 1.5}}]\n", "FOREX-10.2"),
    # contract terms no rate of the track makes, or of a stronger side beyond contract_max,
    ("  queue: [dividend 1, {contract: B, owner: Ana, pay: {GBP: 3}, receive: {EUR: 3.5}}]\n", "FOREX-7.3"),
    ("  queue: [dividend 1, {contract: B, owner: Ana, pay: {GBP: 0}, receive: {EUR: 0}}]\n", "FOREX-7.3"),
    ("  queue: [dividend 1, {contract: B, owner: Ana, pay: {GBP: 11}, receive: {EUR: 11}}]\n", "FOREX-7.3"),
])
def test_impossible_start_positions(tmp_path, capsys, start, rule):
    code, answer, _ = check(tmp_path, capsys, "start:\n" + start)
    assert code == 1 and answer["violation"]["rule"] == rule and answer["violation"]["at"] == "start"


def test_no_turn_after_the_end(tmp_path, capsys):
    """FOREX-11.1: Ben's Loan bankrupts him; a further turn is illegal."""
    code, answer, _ = check(tmp_path, capsys, """\
        start:
          queue: [{loan: A, owner: Ben, owe: {GBP: 50}}, dividend 1]
        turns:
          - player: Ana
            resolve: {}
          - player: Ben
            resolve: {}
        """)
    assert code == 1 and answer["checked"] == 1 and answer["state"]["over"] is True
    assert answer["violation"]["at"] == "turns[1]" and answer["violation"]["rule"] == "FOREX-11.1"


def test_text_verdict_names_line_rule_and_message(tmp_path, capsys):
    record = tmp_path / "game.yaml"
    record.write_text(HEAD + "turns:\n  - player: Ana\n    contract: {pay: GBP, receive: GBP, amount: 1}\n", encoding="utf-8")
    assert main(["referee", "check", str(record)]) == 1
    out = capsys.readouterr().out.replace(str(record), "game.yaml")
    assert out.strip() == ("game.yaml:5: turns[0].contract: illegal — FOREX-7.2: Ana would pay and receive GBP; "
                           "name two different currencies (0 actions legal before it)")


def test_house_rules_in_the_record_reach_the_engine(tmp_path, capsys):
    """`options: {voluntary_default: true, dividends: [1, 5]}`: Ana defaults on purpose
    (`default: A`, one letter), then two dividends are all there are."""
    code, answer, _ = check(tmp_path, capsys, """\
        options: {voluntary_default: true, dividends: [1, 5]}
        start:
          players:
            Ana: {certificates: {USD: 1}}
          queue: [{contract: A, owner: Ana, pay: {GBP: 1}, receive: {EUR: 1}}, dividend 2]
        turns:
          - player: Ben
            resolve: {default: A}
          - player: Cris
            resolve: {}
        """)
    assert code == 0, answer["violation"]
    state = answer["state"]
    assert state["players"]["Ana"]["money"]["GBP"] == 0  # the 2 GBP Loan, paid in the final resolution
    assert state["players"]["Ana"]["money"]["USD"] == 2 + 5 and state["players"]["Ana"]["money"]["EUR"] == 3
    defaults = [e["data"] for e in answer["events"] if e["rule"] == "FOREX-10.2"]
    assert [(d["set"], d["owner"], d["by_choice"]) for d in defaults] == [("A", "Ana", True)]  # defaults by choice
    assert state["over"] is True and state["queue"] == []


def test_a_turns_one_action_is_one_the_engine_ends_the_turn_with():
    """FOREX-5.2 is stated once: the record's action keys read into exactly the engine's
    actions that end a turn (`ENDS_TURN`), and the record error cites the engine's rule."""
    from pnp.referee import reads_record
    from pnp.referee.forex import reading
    from pnp.rules import load_spec
    from pnp.rules.forex import engine

    record = reads_record(textwrap.dedent("""\
        game: forex
        players: [Ana, Ben]
        turns:
          - {player: Ana, contract: {pay: GBP, receive: EUR, amount: 1}}
          - {player: Ben, invest: [GBP]}
          - {player: Ana, divest: {currency: GBP, count: 1}}
          - {player: Ben, resolve: {}}
        """))
    p = engine.params(load_spec(None).games["forex"])
    kinds = [type(step.action.action) for step in reading.steps(record, p)]
    assert len(kinds) == len(reading.ACTIONS) and set(kinds) == set(engine.ENDS_TURN)
    assert engine.TURN == "FOREX-5.2"
