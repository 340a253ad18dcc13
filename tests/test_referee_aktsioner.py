"""`pnp referee` for Акционер: record errors (exit 2, located), violations (exit 1, rule and
place), the starter record, explain, and a referee that never loads the rendering stack."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from in_process import error_lines
from pnp.cli import main

ROOT = Path(__file__).resolve().parents[1]

HEAD = """\
game: aktsioner
players: [Ana, Ben]
"""


@pytest.fixture
def referee(tmp_path, capsys):
    """Write `text` as a record and run `pnp referee check --json` → (status, answer or stderr)."""

    def run(text: str, *args: str) -> tuple[int, object]:
        path = tmp_path / "game.yaml"
        path.write_text(text, encoding="utf-8")
        status = main(["referee", *(args or ("check",)), str(path), *(("--json",) if not args else ())])
        out, err = capsys.readouterr()
        if status == 2:
            return status, error_lines(json.loads(out)) if not args else err
        return status, (json.loads(out) if not args else out)

    return run


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


# --- record errors: exit 2, file:line:col and one sentence -------------------------------------


@pytest.mark.parametrize(
    "turns, needle, message",
    [
        ('  - {player: Ana, play: "+30red"}\n', '"+30red', '"+30red" is not a card'),
        ('  - {player: Ana, play: "+30 purple -60 blue"}\n', '"+30 purple', 'unknown colour "purple"'),
        ('  - {player: Ann, play: "+30 red -60 blue"}\n', "Ann", 'unknown player "Ann" (did you mean "Ana"?)'),
        ('  - {player: Ana, play: "+30 red -60 blue", then: {sell: {red: -1}}}\n', "-1", "must be at least 0, got -1"),
        ('  - {player: Ana, play: "+30 red -60 blue", trade: {buy: {pink: 1}}}\n', "pink", 'unknown colour "pink"'),
        ("  - {player: Ana}\n  - {player: Ben, play: \"+30 red -60 blue\"}\n", "{player: Ana", 'missing "play"'),
        ('  - {player: Ana, play: "+30 red -60 blue", buy: {red: 1}}\n', "buy", 'unknown key "buy"'),
        ('  - {player: Ana, play: "+30 red -60 blue", trade: {purchase: {red: 1}}}\n', "purchase", 'unknown key "purchase"'),
        ('  - "+30 red -60 blue"\n', '"+30', "expected a turn"),
        ("  - {player: Ana, play: 30}\n", "30}", "expected card text"),
    ],
)
def test_unreadable_turns_exit_2_located(referee, turns, needle, message):
    text = HEAD + "turns:\n" + turns
    status, err = referee(text)
    assert status == 2 and "Traceback" not in err
    line = line_of(text, needle)
    col = text.splitlines()[line - 1].index(needle) + 1
    first = err.splitlines()[0]
    assert f"game.yaml:{line}:{col}: " in first and message in first, first


@pytest.mark.parametrize(
    "part, needle, message",
    [
        ('deal:\n  Ana: ["+30 red -60 blue"]\n  Ben: []\n', '"+30 red -60', "without choices"),
        ('deal:\n  Ana: ["+30 red"]\n', "deal:", "missing the hand of Ben"),
        ('deal:\n  Ana: ["+30 red"]\n  Bob: []\n', "Bob", 'unknown player "Bob"'),
        ("start:\n  prices: {blue: 100, mauve: 90}\n", "mauve", 'unknown colour "mauve"'),
        ("start:\n  players:\n    Ana: {cash: -5}\n", "-5", "must be at least 0"),
        ("start:\n  players:\n    Ana: {money: 5}\n", "money", 'unknown key "money"'),
        ("options: {rounding: sideways}\n", "rounding", 'expected one of "up", "down"'),
        ("options: {start_price: 105}\n", "{start_price", "start_price 105 is not a space of the price track"),
        ("options: {formula: three}\n", "formula", 'expected big+small cards such as "3+5"'),
    ],
)
def test_unreadable_setup_exits_2_located(referee, part, needle, message):
    text = HEAD + part
    status, err = referee(text)
    assert status == 2 and "Traceback" not in err
    line = line_of(text, needle)
    assert any(f"game.yaml:{line}:" in row and message in row for row in err.splitlines()), err


def test_every_record_error_is_reported_at_once(referee):
    """Every problem of the record's shape at once (pydantic's), then — the shape sound — every
    name and card it cannot read."""
    text = HEAD + 'turns:\n  - {player: Ann, play: "+30 red", trade: {sell: {red: -1}}}\n  - {player: Ben, then: {sell: {red: -2}}}\n'
    status, err = referee(text)
    assert status == 2 and len(err.strip().splitlines()) == 2
    text = HEAD + 'turns:\n  - {player: Ann, play: "+30red"}\n  - {player: Ben, play: "+30 red -60 blue", then: {sell: {pink: 2}}}\n'
    status, err = referee(text)
    assert status == 2 and len(err.strip().splitlines()) == 3


# --- violations: exit 1, rule, at, line ----------------------------------------------------------


@pytest.mark.parametrize(
    "body, at, rule, message, needle",
    [
        ('turns:\n  - {player: Ana, play: "+70 red -20 blue"}\n', "turns[0].play", "AKT-1.5",
         'Ana plays "+70 red", which is not a card of the deck '
         "(big: +100, x2, /2; small: +30, +40, +50, +60, -30, -40, -50, -60 of each colour)", "+70"),
        ('turns:\n  - {player: Ana, play: "+30 red -60 blue"}\n  - {player: Ana, play: "+40 red -50 blue"}\n',
         "turns[1].player", "AKT-3.6", "it is Ben's turn in seating order, not Ana's", "+40"),
        ('turns:\n  - {player: Ana, trade: {sell: {red: 2}}, play: "+30 red -60 blue"}\n', "turns[0].trade", "AKT-3.1",
         "Ana sells 2 red but holds 1", "trade"),
        ('turns:\n  - {player: Ana, trade: {buy: {red: 1}}, play: "+30 red -60 blue"}\n', "turns[0].trade", "AKT-3.1",
         "Ana buys 1 red at 100 = 100 but has 0 cash", "trade"),
        ('turns:\n  - {player: Ana, play: "+100 blue -10 red -20 yellow -20 green"}\n', "turns[0].play", "AKT-4.1",
         "+100 blue: its numbers are -10 -20 -30, -10 -20 -20 given instead", "+100"),
        ('turns:\n  - {player: Ana, play: "x2 blue /2 blue"}\n', "turns[0].play", "AKT-4.4",
         "x2 blue: its uncoloured number goes to another colour, not blue itself", "x2"),
        ('deal:\n  Ana: ["+100 blue", "x2 red", "/2 green", "+30 red", "+40 red", "+50 red", "+60 red", "-30 red"]\n'
         '  Ben: ["+100 blue", "+100 red", "x2 blue", "+30 blue", "+40 blue", "+50 blue", "+60 blue", "-30 blue"]\n'
         'turns:\n  - {player: Ana, play: "-40 red +50 blue"}\n', "turns[0].play", "AKT-3.2",
         'Ana plays "-40 red" but holds +100 blue, x2 red, /2 green, +30 red, +40 red, +50 red, +60 red, -30 red', "-40 red"),
        ('deal:\n  Ana: ["+100 blue", "x2 red", "/2 green", "+100 red", "+30 red", "+40 red", "+50 red", "+60 red", "-30 red"]\n'
         '  Ben: ["+100 blue", "+100 red", "x2 blue", "+30 blue", "+40 blue", "+50 blue", "+60 blue", "-30 blue"]\n',
         "deal", "AKT-2.3", "Ana is dealt 4 big cards; formula 3+5 deals 3", "deal:"),
        ("start:\n  prices: {red: 105}\n", "start", "AKT-1.2",
         "the red price 105 is not a space of the board (10, 20, …, 250)", "start:"),
    ],
)
def test_violations_exit_1_with_rule_and_place(referee, body, at, rule, message, needle):
    text = HEAD + body
    status, answer = referee(text)
    assert status == 1 and answer["ok"] is False
    violation = answer["violation"]
    assert (violation["at"], violation["rule"], violation["message"]) == (at, rule, message)
    assert violation["line"] == line_of(text, needle)


def test_violation_reports_the_position_it_was_tried_in(referee):
    text = HEAD + (
        "start:\n  players:\n    Ana: {cash: 0, shares: {red: 12}}\n"
        'turns:\n  - {player: Ana, play: "+60 blue -30 red"}\n'
        '  - {player: Ben, play: "+30 red -60 blue", then: {buy: {red: 9}}}\n'
    )
    status, answer = referee(text)
    assert status == 1 and answer["checked"] == 1 and answer["violation"]["at"] == "turns[1].then"
    # after Ben's card (red 100, blue 100), before his purchase
    assert answer["state"]["prices"] == {"blue": 100, "red": 100, "yellow": 100, "green": 100}
    assert answer["state"]["players"]["Ana"]["cash"] == 360
    assert [e["rule"] for e in answer["events"]][-2:] == ["AKT-5.4", "AKT-6.1"]


# --- a whole game, the starter, explain ----------------------------------------------------------


def test_a_full_dealt_game_ends_with_scores(referee):
    deal = (
        'deal:\n  Ana: ["+100 blue", "+30 red"]\n  Ben: ["x2 green", "-40 yellow"]\n'
    )
    turns = (
        "turns:\n"
        '  - {player: Ana, trade: {sell: {red: 1}, buy: {blue: 1}}, play: "+100 blue -10 red -20 yellow -30 green"}\n'
        '  - {player: Ben, play: "x2 green /2 blue"}\n'
        '  - {player: Ana, play: "+30 red -60 yellow"}\n'
        '  - {player: Ben, play: "-40 yellow +50 red"}\n'
    )
    text = HEAD + "options: {formula: 1+1, min_undealt: 0}\n" + deal + turns
    status, answer = referee(text)
    assert status == 0 and answer["checked"] == 4
    state = answer["state"]
    assert state["over"] is True and state["hands"] == {"Ana": [], "Ben": []}
    # blue 200 → 100 (Ben's Halve) ; red 90 → 120 → 170; yellow 80 → 20 → 10 (zeroed); green 70 → 140
    assert state["prices"] == {"blue": 100, "red": 170, "yellow": 10, "green": 140}
    scores = state["scores"]
    for name, account in state["players"].items():
        worth = sum(n * state["prices"][c] for c, n in account["shares"].items()) + account["cash"]
        assert scores[name] == worth
    assert state["winners"] == [max(scores, key=scores.get)]


def test_starter_record_checks_clean(tmp_path, capsys):
    assert main(["referee", "new", "aktsioner", "--players", "Ana,Ben,Cris d'Or"]) == 0
    text = capsys.readouterr().out
    assert "prices: {blue: 100, red: 100, yellow: 100, green: 100}" in text
    assert "    Ana:\n      cash: 0\n      shares: {blue: 1, red: 1, yellow: 1, green: 1}\n" in text
    path = tmp_path / "starter.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["referee", "check", str(path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert list(answer["state"]["players"]) == ["Ana", "Ben", "Cris d'Or"]
    # uncommenting the example turn (both trades included) gives a legal record too
    playable = text.replace("turns: []", "turns:").replace("# - player:", "- player:")
    for key in ("trade", "play", "then"):
        playable = playable.replace(f"#   {key}:", f"  {key}:")
    path.write_text(playable, encoding="utf-8")
    assert main(["referee", "check", str(path)]) == 0


def test_explain_prints_every_step_with_its_rule(referee):
    text = HEAD + 'turns:\n  - {player: Ana, play: "+30 red -60 blue"}\n'
    status, out = referee(text, "explain")
    assert status == 0
    lines = out.splitlines()
    turn = lines.index("── turns[0]")
    assert [line.split("  ")[0] for line in lines[turn + 1:-1]] == ["AKT-3.6", "AKT-4.3", "AKT-5.4", "AKT-5.4", "AKT-6.1"]
    status, answer = referee(text)  # the same steps as data
    facts = [(event["rule"], event["data"]) for event in answer["events"]]
    assert ("AKT-4.3", {"player": "Ana", "card": "+30 red", "play": "+30 red -60 blue"}) in facts
    assert ("AKT-6.1", {"player": "Ana", "colour": "blue", "old": 100, "new": 40, "held": 1, "amount": 60}) in facts


def test_explain_words_a_turn_as_players_read_it(capsys):
    # golden text, on purpose: the English wording players read
    # (AKT-X15: overflow, two zeroings, compensation, penalty order and a penalty short of cash; every
    # line checked by hand against rules/aktsioner.md's X15)
    assert main(["referee", "explain", str(ROOT / "tests" / "records" / "aktsioner" / "x15_two_zeroings.yaml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[lines.index("── turns[0]"):-1] == [
        "── turns[0]",
        "AKT-3.6  M's turn: 3 big and 5 small cards in hand",
        "AKT-4.1  M plays +100 blue -30 red -20 yellow -10 green",
        "AKT-6.2  blue: 240 +100 = 340 → 250 (overflow 90 per share)",
        "AKT-7.1  red: 10 -30 = -20 → 10 (zeroed: penalty 30 per share)",
        "AKT-7.1  yellow: 20 -20 = 0 → 10 (zeroed: penalty 10 per share)",
        "AKT-5.4  green: 30 -10 = 20",
        "AKT-6.3  M: compensation (10 − 10) × 1 red = 0",
        "AKT-6.3  M: compensation (20 − 10) × 2 yellow = 20",
        "AKT-6.1  M: compensation (30 − 20) × 5 green = 50",
        "AKT-6.2  M: overflow bonus 90 × 2 blue = 180",
        "AKT-7.5  O pays yellow (10 per share), then red (30 per share)",
        "AKT-7.2  O pays penalty 10 × 3 yellow = 30: cash 10",
        "AKT-7.4  O owes 30 × 2 red = 60 with cash 10: pays for 0 (0), 2 red go to the bank",
    ]


def test_a_card_face_the_engine_cannot_read_is_a_spec_error(tmp_path, capsys):
    spec = (ROOT / "pnp" / "data" / "components.yaml").read_text(encoding="utf-8")
    spec = spec.replace('value: "+40", other: "−50"', 'value: "+40", other: "minus 50"', 1)
    (tmp_path / "spec.yaml").write_text(spec, encoding="utf-8")
    (tmp_path / "game.yaml").write_text(HEAD, encoding="utf-8")
    status = main(["referee", "check", str(tmp_path / "game.yaml"), "--spec", str(tmp_path / "spec.yaml")])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert err.startswith(f"{tmp_path / 'spec.yaml'}:")
    assert 'games.aktsioner.components[3]: cannot read the card "+40" / "minus 50" as numbers' in err


LEAVES = (None, -1, 0, 7, 3.5, True, "x", "+30 red", "/2 blue x2 red", (), {}, {"red": 1}, 10**12)


def _paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, path + (index,))


def _replace(data, path, value):
    if not path:
        return value
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[path[0]] = _replace(copy[path[0]], path[1:], value)
    return copy


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(record=st.sampled_from(sorted(p.name for p in (ROOT / "tests" / "records" / "aktsioner").glob("*.yaml"))),
       pick=st.integers(0, 10**6), leaf=st.sampled_from(LEAVES))
def test_a_damaged_record_never_crashes_the_referee(tmp_path, capsys, record, pick, leaf):
    """Any value anywhere: exit 0, 1 or 2 with readable lines, never an internal error (3)."""
    data = yaml.safe_load((ROOT / "tests" / "records" / "aktsioner" / record).read_text(encoding="utf-8"))
    paths = list(_paths(data))[1:]
    damaged = _replace(data, paths[pick % len(paths)], leaf)
    path = tmp_path / "damaged.yaml"
    path.write_text(yaml.safe_dump(damaged, allow_unicode=True), encoding="utf-8")
    status = main(["referee", "check", str(path), "--json"])
    out, err = capsys.readouterr()
    assert status in (0, 1, 2), err
    assert "Traceback" not in out + err and err == ""
    answer = json.loads(out)  # every exit answered in JSON
    if status == 2:
        assert answer["where"].startswith(str(path)) or "damaged.yaml" in answer["where"] + answer["error"]
