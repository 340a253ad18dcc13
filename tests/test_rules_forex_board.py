"""For-Ex currency board: the printed setup diagram and marks, pairs, strengthening, weakening."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from pnp.rules import load_spec, loads_spec
from pnp.rules.forex import engine as forex
from pnp.rules.forex.board import find, shift, start_pairs, strengths, value_in
from pnp.spec.source import default_spec_path


@pytest.fixture(scope="module")
def game():
    return load_spec(None).games["forex"]


@pytest.fixture(scope="module")
def p(game):
    return forex.params(game)


def test_setup_table_is_the_rules_file_diagram(game):
    """FOREX-2.3: rows = stronger, columns = weaker, "box (rate)" or "—"."""
    table = forex.tables(forex.params(game))["start_positions"]
    assert table.header[1:] == ("EUR", "USD", "CHF", "JPY", "CAD", "CNY")
    rows = {row[0]: dict(zip(table.header[1:], row[1:], strict=True)) for row in table.rows}
    assert list(rows) == ["GBP", "EUR", "USD", "CHF", "JPY", "CAD"]
    assert rows["GBP"] == {"EUR": "box 2 (1½)", "USD": "box 1 (1)", "CHF": "box 2 (1½)",
                           "JPY": "box 2 (1½)", "CAD": "box 3 (2)", "CNY": "box 7 (4)"}
    assert rows["EUR"]["CNY"] == "box 6 (3½)" and rows["EUR"]["EUR"] == "—"
    assert rows["JPY"]["CNY"] == "box 5 (3)" and rows["CAD"]["CNY"] == "box 4 (2½)"
    assert rows["CAD"]["JPY"] == "—"
    assert sum(cell != "—" for row in table.rows for cell in row[1:]) == 21
    assert "stronger" in table.caption


def test_marks_name_the_weaker_side_of_each_counter_on_its_start_box(game):
    marks = forex.marks(forex.params(game))["start_positions"]
    assert marks[("GBP", 1)] == ("EUR", "CHF", "JPY")
    assert marks[("GBP", 0)] == ("USD",) and marks[("GBP", 6)] == ("CNY",)
    assert marks[("EUR", 0)] == ("USD", "CHF") and marks[("CAD", 3)] == ("CNY",)
    assert sum(len(labels) for labels in marks.values()) == 21
    assert not any(currency == "CNY" for currency, _ in marks)  # CNY starts weaker than all


def test_table_and_marks_follow_an_edited_spec():
    """Move GBP/CNY to box 9 and flip EUR/USD in components.yaml: the diagram follows."""
    text = default_spec_path().read_text(encoding="utf-8")
    text = text.replace("GBP/CNY: {stronger: GBP, position: 7}", "GBP/CNY: {stronger: GBP, position: 9}")
    text = text.replace("EUR/USD: {stronger: EUR, position: 1}", "EUR/USD: {stronger: USD, position: 3}")
    game = loads_spec(text).games["forex"]
    marks = forex.marks(forex.params(game))["start_positions"]
    assert marks[("GBP", 8)] == ("CNY",) and ("GBP", 6) not in marks
    assert marks[("USD", 2)] == ("EUR",)
    rows = {row[0]: row for row in forex.tables(forex.params(game))["start_positions"].rows}
    assert rows["GBP"][-1] == "box 9 (6)"


def test_start_strength_counts(p):
    """FOREX-2.4 / X1: GBP 6, EUR 5, USD 4, CHF 3, JPY 2, CAD 1, CNY 0."""
    assert strengths(start_pairs(p), p) == {"GBP": 6, "EUR": 5, "USD": 4, "CHF": 3, "JPY": 2, "CAD": 1, "CNY": 0}


def test_rates_are_exact_fractions(p):
    """FOREX-1.2 / 2.1: 1, 1½, 2, 2½, 3, 3½, 4, 5, 6, 8 — exact, no floats."""
    assert p.rates == tuple(Fraction(x) for x in ("1", "3/2", "2", "5/2", "3", "7/2", "4", "5", "6", "8"))
    pairs = start_pairs(p)
    assert value_in(pairs, p, Fraction(13), "CNY", "GBP") == Fraction(13, 4)
    assert value_in(pairs, p, Fraction(3), "GBP", "CNY") == 12


def test_strengthen_flips_at_one_to_one_and_stops_at_the_cap(p):
    """X6 (first half): strengthening USD flips GBP/USD and EUR/USD at 1:1."""
    pairs, moved = shift(start_pairs(p), p, "USD", stronger=True)
    assert moved == [  # what the FOREX-8.3 event reports: every pair USD is in, flips noted
        {"stronger": "USD", "weaker": "GBP", "position": 1, "note": "flip"},
        {"stronger": "USD", "weaker": "EUR", "position": 1, "note": "flip"},
        {"stronger": "USD", "weaker": "CHF", "position": 2, "note": None},
        {"stronger": "USD", "weaker": "JPY", "position": 3, "note": None},
        {"stronger": "USD", "weaker": "CAD", "position": 3, "note": None},
        {"stronger": "USD", "weaker": "CNY", "position": 7, "note": None},
    ]
    assert find(pairs, "GBP", "USD").stronger == "USD" and find(pairs, "GBP", "USD").position == 1
    capped = tuple(pair if pair.key != "GBP/CNY" else type(pair)("GBP", "CNY", "GBP", 10) for pair in pairs)
    again, moved = shift(capped, p, "GBP", stronger=True)
    assert find(again, "GBP", "CNY").position == 10
    assert {"stronger": "GBP", "weaker": "CNY", "position": 10, "note": "at the cap"} in moved


def test_order_matters_at_the_cap(p):
    """X7: GBP>CNY at 10; GBP then CNY → 9 (6); CNY then GBP → 10 (8)."""
    capped = tuple(pair if pair.key != "GBP/CNY" else type(pair)("GBP", "CNY", "GBP", 10) for pair in start_pairs(p))
    first, _ = shift(capped, p, "GBP", stronger=True)
    first, _ = shift(first, p, "CNY", stronger=True)
    assert find(first, "GBP", "CNY").position == 9 and p.rate(9) == 6
    second, _ = shift(capped, p, "CNY", stronger=True)
    second, _ = shift(second, p, "GBP", stronger=True)
    assert find(second, "GBP", "CNY").position == 10 and p.rate(10) == 8


def test_weaken_three_times(p):
    """X8: JPY weakened 3 times; JPY vs CAD 2 → 1 → flip → CAD>JPY 2 (1.5)."""
    pairs = start_pairs(p)
    for _ in range(3):
        pairs, moved = shift(pairs, p, "JPY", stronger=False)
    assert [(m["stronger"], m["weaker"], m["position"]) for m in moved] == [
        ("GBP", "JPY", 5), ("EUR", "JPY", 5), ("USD", "JPY", 5), ("CHF", "JPY", 5), ("CAD", "JPY", 2), ("JPY", "CNY", 2)]
    assert p.rate(find(pairs, "JPY", "CAD").position) == Fraction(3, 2)
    assert strengths(pairs, p)["CAD"] == 2 and strengths(pairs, p)["JPY"] == 1


def test_the_rules_file_numbers_the_dividend_cards_as_they_are_printed(game, p):
    """The printed Dividend cards are numbered 1 … 5 in the order they are resolved, paying the
    engine's dividends in that order; FOREX-1.5 quotes the same numbers with their payouts in
    the same order, and FOREX-4.5 puts the first one on top of the stack (the file once said
    4 … 0, a countdown no printed card carries)."""
    from pnp.rules import text
    from pnp.spec.faces import deck_pieces

    deck = next(c for c in game.components if c.id == "dividends")
    cards = [(piece.front.value, piece.data["pays"]) for piece in deck_pieces(game, deck)]
    assert cards == [(str(n), pays) for n, pays in enumerate(p.dividends, start=1)]
    components = text.rule("FOREX-1.5").text
    quoted = [int(n) for n in re.findall(r"“(\d+)”", components)]
    assert quoted == [int(value) for value, _ in cards]
    paid = [int(n) for n in re.findall(r"pays? (\d+)", components)]
    assert paid == [0, 2, 3] == sorted(set(p.dividends))  # “1” (pays 0), “2” … “4” (pay 2), “5” (pays 3)
    assert re.findall(r"“(\d+)” card on top", text.rule("FOREX-4.5").text) == [cards[0][0]]
