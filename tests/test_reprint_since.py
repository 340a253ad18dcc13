"""Reprint since the paper: a build marked as printed (`pnp build --printed`) is what every later
change list and `<game>-reprint.pdf` count from, however many builds come between — of other
games, of one game, broken saves — until another mark; `--since MANIFEST` counts from any
earlier build.

"Changed" is checked as a playtester would see it (`test_reprint`'s helpers): every sheet of
the marked and of the last combined file rendered with its stamp painted over and compared."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pypdfium2
import pytest

from pnp.changes import SINCE_PRINT, Since
from pnp.cli import main
from pnp.i18n.catalogs import language
from pnp.spec.loader import load
from spec_text import BUNDLED, edit, write_spec
from test_reprint import EDITS, pages, sheets, units

GAMES = ("bolsa", "aktsioner", "forex")
CONTRACT = "On the display: the amount to pay to the left of this card"
SECOND_FOREX_EDIT = (CONTRACT, "On display: the amount to pay to the left of this card")
BROKEN = ("symbol: circle", "symbol: blob")


def build(folder: Path, text: str, *options: str) -> tuple[int, dict]:
    spec = write_spec(folder, text)  # with the catalogs: each kit in its own language
    code = main(["build", "-q", "--spec", str(spec), "--out", str(folder / "output"), *options])
    return code, json.loads((folder / "output" / "manifest.json").read_text(encoding="utf-8"))


def changed_sheets(before: Path, before_manifest: dict, after: Path, after_manifest: dict, game: str) -> dict:
    """unit id → the 1-based sheets of the last build that look different from the marked
    build's (stamps masked), in print order."""
    old, new = units(before, game, before_manifest), units(after, game, after_manifest)
    found = {}
    for unit in (u for u in after_manifest["units"] if u["game"] == game):
        now = sheets(unit, new[unit["id"]])
        earlier_unit = next((u for u in before_manifest["units"] if u["game"] == game and u["id"] == unit["id"]), None)
        was = sheets(earlier_unit, old[unit["id"]]) if earlier_unit else []
        differ = [n for n, sheet in enumerate(now, 1) if n > len(was) or was[n - 1] != sheet]
        if differ:
            found[unit["id"]] = differ
    return found


SECOND_AKTSIONER_EDIT = (('value: "+40", other: "−50"', 'value: "+45", other: "−55"'),
                         ('value: "−50", other: "+40"', 'value: "−55", other: "+45"'))


@dataclass(frozen=True)
class Builds:
    folder: Path
    marked: dict
    last: dict
    games: tuple[str, ...]  # marked as printed
    edited: tuple[str, ...]  # of those, the games edited since the mark


@pytest.fixture(scope="module", params=[pytest.param("three", marks=pytest.mark.slow), "aktsioner"])
def five_builds(tmp_path_factory, request) -> Builds:
    """The three games: a build marked as printed, then: a For-Ex edit (every game built), an
    Aktsioner edit (only Aktsioner built), a broken save, a second For-Ex edit (every game
    built). The fast lane's smaller sequence, Aktsioner's alone: marked, an edit, a build of
    another game (one Bolsa component, its tokens: the whole games are the slow lane's), a
    broken save, a second edit."""
    folder = tmp_path_factory.mktemp("since")
    if request.param == "aktsioner":
        code, marked = build(folder, BUNDLED, "--printed", "--game", "aktsioner")
        assert code == 0
        shutil.copytree(folder / "output", folder / "marked")
        text = EDITS["aktsioner"](BUNDLED)
        assert build(folder, text, "--game", "aktsioner")[0] == 0
        reprint = (folder / "output" / "aktsioner" / "aktsioner-reprint.pdf").read_bytes()
        assert build(folder, text, "--game", "bolsa", "--component", "tokens")[0] == 0
        assert (folder / "output" / "aktsioner" / "aktsioner-reprint.pdf").read_bytes() == reprint  # kept
        before_broken = {p: p.read_bytes() for p in (folder / "output").rglob("*") if p.is_file()}
        assert build(folder, edit(*BROKEN, text), "--game", "aktsioner")[0] == 2
        assert {p: p.read_bytes() for p in (folder / "output").rglob("*") if p.is_file()} == before_broken
        for old, new in SECOND_AKTSIONER_EDIT:
            text = edit(old, new, text)
        code, last = build(folder, text, "--game", "aktsioner")
        assert code == 0
        return Builds(folder, marked, last, ("aktsioner",), ("aktsioner",))
    code, marked = build(folder, BUNDLED, "--printed")
    assert code == 0
    shutil.copytree(folder / "output", folder / "marked")
    text = EDITS["forex"](BUNDLED)
    assert build(folder, text)[0] == 0
    forex_reprint = (folder / "output" / "forex" / "forex-reprint.pdf").read_bytes()
    text = EDITS["aktsioner"](text)
    code, after_other_game = build(folder, text, "--game", "aktsioner")
    assert code == 0
    assert (folder / "output" / "forex" / "forex-reprint.pdf").read_bytes() == forex_reprint  # kept
    before_broken = {p: p.read_bytes() for p in (folder / "output").rglob("*") if p.is_file()}
    assert build(folder, edit(*BROKEN, text))[0] == 2
    assert {p: p.read_bytes() for p in (folder / "output").rglob("*") if p.is_file()} == before_broken
    code, last = build(folder, edit(*SECOND_FOREX_EDIT, text))
    assert code == 0
    return Builds(folder, marked, last, GAMES, ("forex", "aktsioner"))


def test_the_mark_names_the_stamp_on_the_printed_instructions(five_builds):
    folder, marked, last = five_builds.folder, five_builds.marked, five_builds.last
    assert [m["game"] for m in marked["printed"]] == sorted(five_builds.games)
    assert last["printed"] == marked["printed"]  # later builds keep the mark
    for mark in marked["printed"]:
        first = pypdfium2.PdfDocument(str(folder / "marked" / mark["game"] / f"{mark['game']}-all.pdf"))[0]
        assert f"· {mark['stamp']}" in first.get_textpage().get_text_range()


def test_the_reprint_holds_exactly_the_sheets_that_changed_since_the_mark(five_builds):
    folder, marked, last = five_builds.folder, five_builds.marked, five_builds.last
    for game in five_builds.edited:
        expected = changed_sheets(folder / "marked", marked, folder / "output", last, game)
        assert expected  # the edits changed something of this game
        listed = {c["component"]: list(c["sheets"]) for c in last["changed"] if c["game"] == game}
        assert listed == expected
        if game == "forex":  # both edits, though a build came between them
            assert {"dividends", "contracts"} <= {name for unit in expected for name in unit.split("+")}
        reprint = folder / "output" / game / f"{game}-reprint.pdf"
        current = units(folder / "output", game, last)
        wanted = [page for u in last["units"] if u["game"] == game and u["id"] in expected
                  for n, sheet in enumerate(sheets(u, current[u["id"]]), 1) if n in expected[u["id"]] for page in sheet]
        lead = len(pypdfium2.PdfDocument(str(reprint))) - len(wanted)
        assert lead in (1, 2)  # the reprint instructions, with their back when sheets are double-sided
        held = pages(reprint, *[u["stamp"] for u in last["units"] if u["game"] == game], skip=lead)
        assert held == wanted
        mark = next(m for m in marked["printed"] if m["game"] == game)
        code = load(folder / "components.yaml").games[game].language  # the kit's own language words the mark
        words = Since(SINCE_PRINT, mark["stamp"]).words(language(folder, game, code).gettext)
        said = pypdfium2.PdfDocument(str(reprint))[0].get_textpage().get_text_range()
        assert mark["stamp"] in words and " ".join(words.split()) in " ".join(said.split())
        assert code == "en" or "print marked" not in said


def test_a_game_unchanged_since_the_mark_has_no_reprint(five_builds):
    folder, last = five_builds.folder, five_builds.last
    assert "bolsa" not in five_builds.edited
    assert not (folder / "output" / "bolsa" / "bolsa-reprint.pdf").exists()
    assert [c for c in last["changed"] if c["game"] == "bolsa"] == []


def test_since_counts_from_any_earlier_manifest(five_builds, tmp_path, capsys):
    folder, game = five_builds.folder, five_builds.games[-1]  # For-Ex, or the fast lane's Aktsioner
    shutil.copytree(folder / "output", tmp_path / "output")
    spec = write_spec(tmp_path)
    capsys.readouterr()
    assert main(["build", "-q", "--spec", str(spec), "--out", str(tmp_path / "output"), "--game", game,
                 "--since", str(folder / "marked" / "manifest.json")]) == 0
    assert f"{game}: nothing changed since the build of" in capsys.readouterr().out  # the bundled spec again
    assert main(["build", "-q", "--spec", str(spec), "--out", str(tmp_path / "output"), "--game", game,
                 "--since", str(spec)]) == 2  # not a manifest: one line, exit 2
