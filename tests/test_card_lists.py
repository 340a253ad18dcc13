"""Decks from spreadsheets: `cards_from` a CSV file or an .xlsx sheet gives the very deck the
same rows give written in YAML, and a bad cell is reported at `file:row:column`."""

from __future__ import annotations

import openpyxl
import pytest

from pnp.errors import SpecError
from pnp.rules import rulebooks
from pnp.spec.faces import deck_pieces
from pnp.spec.loader import load

HEAD = """\
games:
  dash:
    title: Dash
    players: {min: 2, max: 4}
    companies:
      - {id: ORE, name: Ore Mining, color: "#8c564b", symbol: square}
      - {id: SUN, name: Sunrail, color: "#e69f00", symbol: circle}
    components:
      - id: market
        kind: deck
        name: Market
"""
YAML_CARDS = """\
        cards:
          - {count: 3, asset: ORE, value: "+2", title: Ore strike, text: "Ore rises {delta} steps",
             data: {delta: 2, rare: false}}
          - {count: 2, asset: SUN, value: "-1", title: Cloudy, data: {delta: -1, rare: true, note: "wet, grey"}}
          - {asset: SUN, value: "10", title: Heat wave, data: {delta: 3.5}}
          - {for_each: asset, value: "{id}", title: "{name}"}
"""
ROWS = [
    ["qty", "asset", "value", "title", "text", "delta", "rare", "note", "for_each"],
    [3, "ORE", "+2", "Ore strike", "Ore rises {delta} steps", 2, False, None, None],
    [2, "SUN", "-1", "Cloudy", None, -1, True, "wet, grey", None],
    [None, "SUN", 10, "Heat wave", None, 3.5, None, None, None],
    [None, None, "{id}", "{name}", None, None, None, None, "asset"],
]
CSV = """\
qty,asset,value,title,text,delta,rare,note,for_each
3,ORE,+2,Ore strike,Ore rises {delta} steps,2,false,,
2,SUN,-1,Cloudy,,-1,true,"wet, grey",

,SUN,10,Heat wave,,3.5,,,
,,{id},{name},,,,,asset
"""


def spec_with(folder, cards: str, files: dict[str, str] | None = None):
    for name, text in (files or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "dash.yaml").write_text(HEAD + cards, encoding="utf-8")
    return load(folder / "dash.yaml", rulebooks())


def workbook(path, rows, sheet: str = "Market") -> None:
    book = openpyxl.Workbook()
    book.active.title = "Notes"
    book.active.append(["not the cards"])
    page = book.create_sheet(sheet)
    for row in rows:
        page.append(row)
    book.save(path)


def deck_of(spec):
    game = spec.games["dash"]
    return game.component("market"), deck_pieces(game, game.component("market"))


def test_a_csv_deck_is_the_same_deck_as_in_yaml(tmp_path):
    yaml_deck, yaml_pieces = deck_of(spec_with(tmp_path, YAML_CARDS))
    csv_deck, csv_pieces = deck_of(spec_with(tmp_path, "        cards_from: market.csv\n", {"market.csv": CSV}))
    assert csv_deck.cards == yaml_deck.cards
    assert csv_pieces == yaml_pieces and len(csv_pieces) == 3 + 2 + 1 + 2
    assert csv_pieces[0].front.text == "Ore rises 2 steps" and csv_pieces[0].data == {"delta": 2, "rare": False}


def test_an_xlsx_sheet_is_the_same_deck_as_in_yaml(tmp_path):
    yaml_deck, yaml_pieces = deck_of(spec_with(tmp_path, YAML_CARDS))
    workbook(tmp_path / "market.xlsx", ROWS)
    xlsx_deck, xlsx_pieces = deck_of(spec_with(tmp_path, "        cards_from: {file: market.xlsx, sheet: Market}\n"))
    assert xlsx_deck.cards == yaml_deck.cards and xlsx_pieces == yaml_pieces


def test_semicolons_and_renamed_columns(tmp_path):
    text = "Anzahl;Firma;Wert;Name\n2;ORE;+1;Fund\n"
    columns = "{Anzahl: count, Firma: asset, Wert: value, Name: title}"
    deck, pieces = deck_of(spec_with(tmp_path, f"        cards_from: {{file: m.csv, columns: {columns}}}\n",
                                     {"m.csv": text}))
    assert [(p.front.value, p.front.title, p.front.asset.id) for p in pieces] == [("+1", "Fund", "ORE")] * 2


def only_issue(tmp_path, cards: str, files: dict[str, str] | None = None):
    with pytest.raises(SpecError) as caught:
        spec_with(tmp_path, cards, files)
    (issue,) = caught.value.issues
    return issue


def test_a_bad_csv_cell_is_reported_at_its_row_and_column(tmp_path):
    from_csv = "        cards_from: market.csv\n"
    issue = only_issue(tmp_path, from_csv, {"market.csv": CSV.replace("2,SUN,-1", "2,SUM,-1")})
    assert (issue.file.endswith("market.csv"), issue.line, issue.col) == (True, 3, 2)
    assert issue.path == "games.dash.components[0].cards[1].asset" and 'unknown asset "SUM"' in issue.message
    issue = only_issue(tmp_path, from_csv, {"market.csv": CSV.replace("\n,SUN,10", "\nsome,SUN,10")})
    assert (issue.line, issue.col, issue.path) == (5, 1, "games.dash.components[0].cards[2].count")  # line 4 is blank
    assert 'expected a whole number, got "some"' in issue.message


def test_a_bad_xlsx_cell_is_reported_at_its_sheet_row_and_column(tmp_path):
    rows = [list(row) for row in ROWS]
    rows[3][0] = 0
    workbook(tmp_path / "market.xlsx", rows)
    issue = only_issue(tmp_path, "        cards_from: {file: market.xlsx, sheet: Market}\n")
    assert (issue.file.endswith("market.xlsx[Market]"), issue.line, issue.col) == (True, 4, 1)
    assert issue.path == "games.dash.components[0].cards[2].count" and "at least 1" in issue.message


@pytest.mark.parametrize("cards, files, message", [
    ("        cards_from: nope.csv\n", {}, "nope.csv: no such file"),
    ("        cards_from: {file: m.xlsx, sheet: Cards}\n", {"m.xlsx": "not a zip"}, "not a readable .xlsx workbook"),
    ("        cards_from: m.txt\n", {"m.txt": "a,b"}, "a .csv or .xlsx file"),
    ("        cards_from: ../m.csv\n", {}, "inside the spec's folder"),
    ("        cards_from: {file: m.csv, sheet: A}\n", {"m.csv": "value\n1\n"}, "has no sheets"),
    ("        cards_from: m.csv\n        cards: [{value: x}]\n", {"m.csv": "value\n1\n"}, "not both"),
])  # fmt: skip
def test_an_unusable_card_list_is_an_error_at_cards_from(tmp_path, cards, files, message):
    issue = only_issue(tmp_path, cards, files)
    assert issue.file.endswith("dash.yaml") and issue.line == 12 and message in issue.message


def test_an_unknown_sheet_names_the_sheets_there_are(tmp_path):
    workbook(tmp_path / "market.xlsx", ROWS)
    issue = only_issue(tmp_path, "        cards_from: {file: market.xlsx, sheet: Shares}\n")
    assert issue.line == 12 and issue.message.endswith('no sheet "Shares" (sheets: Notes, Market)')


def test_header_problems_point_at_the_header_cell(tmp_path):
    issue = only_issue(tmp_path, "        cards_from: m.csv\n", {"m.csv": "value,title,Value\n1,a,2\n"})
    assert (issue.line, issue.col) == (1, 3) and "second column for 'value'" in issue.message
    issue = only_issue(tmp_path, "        cards_from: m.csv\n", {"m.csv": "value,,title\n1,2,a\n"})
    assert (issue.line, issue.col) == (2, 2) and "no header" in issue.message
