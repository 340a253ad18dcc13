"""`pnp validate` catches what `build` and `referee` would refuse, all in one run: decks and
deals too small for some player count the game lists, too few player mats, text that does not
fit, a character the font lacks, pieces larger than the paper — each at the `file:line:col` of
the field to change, with the numbers to change it by, exit 2."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import pnp.checks as checks
from pnp.cli import main
from spec_text import BUNDLED, ROOT, edit, write_spec

LONG = "Long terms " * 80  # far more than a contract card's small print holds
ISSUE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<path>\S+): (?P<message>.*)$")


def where(text: str, line_holding: str, at: str) -> tuple[int, int]:
    """(line, column), 1-based, of `at` in the first line of `text` holding `line_holding`."""
    for number, line in enumerate(text.splitlines(), 1):
        if line_holding in line:
            return number, line.index(at) + 1
    raise AssertionError(f"test setup: {line_holding!r} not in the spec")


def numbers(message: str) -> set[float]:
    return {float(n) for n in re.findall(r"\d+(?:\.\d+)?", message)}


def validate(tmp_path: Path, text: str, capsys) -> tuple[int, dict[str, tuple[int, int, str]]]:
    """Exit code and the issues printed, by spec path: (line, column, message)."""
    spec = write_spec(tmp_path, text)
    capsys.readouterr()
    code = main(["validate", str(spec)])
    found = {}
    for line in capsys.readouterr().err.splitlines():
        match = ISSUE.match(line)
        assert match and match["file"].endswith("components.yaml"), line
        assert match["path"] not in found, f"reported twice: {line}"
        found[match["path"]] = (int(match["line"]), int(match["col"]), match["message"])
    return code, found


def test_every_unplayable_or_unprintable_game_is_reported_in_one_run_where_to_fix_it(tmp_path, capsys):
    text = edit("count: 18", "count: 2")  # 2 share cards a company
    text = edit("players: {min: 3, max: 6}", "players: {min: 3, max: 9}", text)  # 6 mats, 9 players
    text = edit("formula: 3+5", "formula: 3+50", text)  # 32 small cards
    text = edit('{count: 3, value: "A", title: Contract, text: "On the display: the amount to pay to the left of this '
                'card, the amount to receive to its right, in notes from the bank. Nothing is paid now."', f'{{count: 3, value: "A", title: Contract, text: "{LONG}"', text)
    text = edit('text: "Pays {pays} per certificate", data: {pays: 2}',
                'text: "Pays {pays} per certificate 株", data: {pays: 2}', text)  # DejaVu Sans has no CJK
    code, found = validate(tmp_path, text, capsys)
    assert code == 2
    assert set(found) == {
        "games.bolsa.players.min", "games.bolsa.components[2].copies", "games.aktsioner.players.min",
        "games.forex.components[3].cards[0].text", "games.forex.components[4].cards[1].text",
    }

    line, col, message = found["games.bolsa.players.min"]
    assert (line, col) == where(text, "players: {min: 3, max: 9}", "3")
    assert {3, 9, 27, 2} <= numbers(message)  # 3–9 players; 9 need 27 cards of each company, the deck has 2

    line, col, message = found["games.bolsa.components[2].copies"]
    assert (line, col) == where(text, "copies: 6", "6")
    assert {6, 9, 3} <= numbers(message)  # 6 mats for 9 players: add 3

    line, col, message = found["games.aktsioner.players.min"]
    assert (line, col) == where(text, "players: {min: 2, max: 6}", "2")
    assert {2, 100, 32} <= numbers(message)  # 2 players (the deal sets the most, AKT-1.10) are dealt 100 of 32

    line, col, message = found["games.forex.components[3].cards[0].text"]
    assert (line, col) == where(text, LONG, '"' + LONG)
    room = re.search(r"need ([\d.]+) mm, ([\d.]+) mm more than", message)
    assert room and float(room[2]) > 0 and LONG not in message  # how much to cut; the text not echoed whole

    line, col, message = found["games.forex.components[4].cards[1].text"]
    assert (line, col) == where(text, "per certificate 株", '"Pays')
    assert "U+682A" in message


def test_pieces_larger_than_the_paper_are_reported_once_at_their_size(tmp_path, capsys):
    text = edit("card_mm: [63, 88]", "card_mm: [295, 88]")  # within the model's 297 mm, beyond a4's margins either way
    code, found = validate(tmp_path, text, capsys)
    assert code == 2 and list(found) == ["print.card_mm"]  # once, though every deck has pieces of that size
    line, col, message = found["print.card_mm"]
    assert (line, col) == where(text, "card_mm: [295, 88]", "[")
    largest = re.search(r"at most ([\d.]+) × ([\d.]+) mm", message)
    assert largest and 63 < float(largest[1]) < float(largest[2]) < 297  # what fits a4: cut the 295 to that


def test_build_reports_text_that_does_not_fit_at_its_place_and_writes_nothing(tmp_path, capsys):
    text = edit('{count: 3, value: "A", title: Contract, text: "On the display: the amount to pay to the left of this '
                'card, the amount to receive to its right, in notes from the bank. Nothing is paid now."', f'{{count: 3, value: "A", title: Contract, text: "{LONG}"', BUNDLED)
    spec = tmp_path / "components.yaml"
    spec.write_text(text, encoding="utf-8")
    capsys.readouterr()
    out = tmp_path / "output"
    assert main(["build", "--spec", str(spec), "--out", str(out), "--game", "forex", "--component", "contracts",
                 "-q"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    match = ISSUE.match(line)
    assert match and match["path"] == "games.forex.components[3].cards[0].text"
    assert (int(match["line"]), int(match["col"])) == where(text, LONG, '"' + LONG)
    assert LONG not in line and not out.exists()


def test_shape_reference_and_engine_problems_come_in_the_same_run(tmp_path, capsys):
    text = edit("count: 18", 'count: "many"')  # shape: not a number
    text = edit('text: "Pays {pays} per certificate", data: {pays: 2}',
                'text: "Pays {payz} per certificate", data: {pays: 2}', text)  # reference: no such field
    text = edit("formula: 3+5", "formula: 3+50", text)  # the engine: 32 small cards
    code, found = validate(tmp_path, text, capsys)
    assert code == 2
    assert {path: (line, col) for path, (line, col, _) in found.items()} == {
        "games.bolsa.components[3].cards[0].count": where(text, 'count: "many"', '"many"'),
        "games.aktsioner.players.min": where(text, "players: {min: 2, max: 6}", "2"),
        "games.forex.components[4].cards[1].text": where(text, "{payz}", '"Pays'),
    }


def test_a_name_too_long_for_the_print_plan_is_found_by_validate_at_its_field(tmp_path, capsys):
    """The print plan opening the combined file is laid out by validate too: a spec that
    validates builds (a 39-letter word in a component's English name once validated, then
    failed the build without a place)."""
    word = "Aktienzertifikatsbestandsverzeichnisbla"  # 39 letters
    text = edit("name: Share cards", f"name: {word}")
    code, found = validate(tmp_path, text, capsys)
    assert code == 2
    assert list(found) == ["games.bolsa.components[3].name"]
    line, col, _ = found["games.bolsa.components[3].name"]
    assert (line, col) == where(text, f"name: {word}", word)
    assert main(["build", "-q", "--spec", str(tmp_path / "components.yaml"), "--game", "bolsa",
                 "--out", str(tmp_path / "out")]) != 0  # what validate said, build refuses


def counting_layouts(monkeypatch, tmp_path: Path) -> list[str]:
    """The games `pnp validate` lays out from now on (a fresh user cache in `tmp_path`)."""
    monkeypatch.setenv("PNP_CACHE", str(tmp_path / "cache"))
    laid: list[str] = []
    real = checks.lay_out_kits

    def lay_out_kits(spec, game_id, languages=None):
        laid.append(game_id)
        return real(spec, game_id, languages)

    monkeypatch.setattr(checks, "lay_out_kits", lay_out_kits)
    return laid


def test_validate_lays_out_again_only_a_game_whose_inputs_changed(tmp_path, monkeypatch, capsys):
    """A game that laid out without a problem is remembered by everything its layout reads:
    the same spec again lays out nothing; an image's new bytes, or an edit, lay out that game."""
    laid = counting_layouts(monkeypatch, tmp_path)
    folder = tmp_path / "tulips"
    shutil.copytree(ROOT / "examples" / "tulips", folder)
    spec = str(folder / "components.yaml")
    assert main(["validate", spec]) == 0 and laid == ["tulips"]
    assert main(["validate", spec]) == 0 and laid == ["tulips"]  # nothing laid out
    art = folder / "art" / "back.svg"
    art.write_bytes(art.read_bytes() + b"\n<!-- retouched -->\n")
    assert main(["validate", spec]) == 0 and laid == ["tulips"] * 2
    text = (folder / "components.yaml").read_text(encoding="utf-8")
    (folder / "components.yaml").write_text(text.replace("title: Tulip Mania\n", "title: Tulip Mania II\n", 1), encoding="utf-8")
    assert main(["validate", spec]) == 0 and laid == ["tulips"] * 3


def test_a_remembered_game_keeps_its_findings_at_their_lines(tmp_path, monkeypatch, capsys):
    """A game validated before gives its findings without being laid out again, each located in
    the file as it is: three lines added above move Tulip Mania's findings (its bulbs' names set
    at 6 pt) three lines down."""
    laid = counting_layouts(monkeypatch, tmp_path)
    folder = tmp_path / "tulips"
    shutil.copytree(ROOT / "examples" / "tulips", folder)
    spec = folder / "components.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("footer: none}", "footer: none, band_pt: [6, 6]}"),
                    encoding="utf-8")

    def findings() -> list[dict]:
        capsys.readouterr()
        assert main(["validate", "--json", str(spec)]) == 0
        return json.loads(capsys.readouterr().out)["findings"]

    first = findings()
    assert len(first) == 4 and {(f["check"], f["path"]) for f in first} == {
        ("small-text", "games.tulips.components[3].cards[0]")} and laid == ["tulips"]  # {name} or {id}: the entry
    assert findings() == first and laid == ["tulips"]  # remembered
    spec.write_text("# a note\n# on three\n# lines\n" + spec.read_text(encoding="utf-8"), encoding="utf-8")
    moved = findings()
    assert laid == ["tulips"] and moved == [dict(f, line=f["line"] + 3) for f in first]


WITHOUT_FOREX = BUNDLED[:BUNDLED.index("\n  forex:\n") + 1]  # Bolsa and Акционер: one game edited, one remembered


# the fast lane: two games (For-Ex is the longest to lay out); the full lane: the bundled three
@pytest.mark.parametrize("games", [pytest.param(("bolsa", "aktsioner"), id="two-games"),
                                   pytest.param(("bolsa", "aktsioner", "forex"), id="bundled", marks=pytest.mark.slow)])
def test_a_game_with_a_layout_problem_is_laid_out_and_reported_every_time(tmp_path, monkeypatch, capsys, games):
    laid = counting_layouts(monkeypatch, tmp_path)
    spec = BUNDLED if "forex" in games else WITHOUT_FOREX
    code, found = validate(tmp_path, spec, capsys)
    assert code == 0 and laid == list(games)
    word = "Aktienzertifikatsbestandsverzeichnisbla"  # too long for the print plan's table
    text = edit("name: Share cards", f"name: {word}", spec)
    for runs in (1, 2):
        code, found = validate(tmp_path, text, capsys)
        assert code == 2 and list(found) == ["games.bolsa.components[3].name"]
        assert laid == [*games] + ["bolsa"] * runs  # the others remembered
    code, found = validate(tmp_path, spec, capsys)
    assert code == 0 and laid == [*games, "bolsa", "bolsa"]  # the fix: as validated before
