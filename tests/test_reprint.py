"""The rule-change loop: after an edit, `pnp build` names exactly the sheets whose content
changed and puts just those in `<game>-reprint.pdf`; unchanged components keep their stamps.

"Changed" is checked the way a playtester would see it: every page of the old and the new
component files is rendered, the stamp in its footer and its header (which names the sheet)
painted over, and compared pixel for pixel. The three edits are those of issue 14: a sixth Bolsa company, one For-Ex dividend
value, two Aktsioner cards.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pypdfium2
import pytest
from PIL import ImageDraw

from pnp import __version__
from pnp.changes import action, compare
from pnp.cli import main
from pnp.manifest import Change
from spec_text import BUNDLED, edit

DPI = 50
PT = 25.4 / 72  # mm per point
MARGIN, BAND = 5.0, 4.5  # the bundled print.margin_mm, and pnp.layout.sheet.BAND_MM: where the header is
SIXTH = '      - {id: REP, name: Repsol,     name_en: Repsol,     color: "#cc79a7", symbol: star}\n'
EDITS = {
    "bolsa": lambda text: edit("    tracks:\n      round:", SIXTH + "\n    tracks:\n      round:", text),
    "forex": lambda text: edit('{value: "3", title: Dividend, text: "Pays {pays} per certificate", data: {pays: 2}}',
                               '{value: "3", title: Dividend, text: "Pays {pays} per certificate", data: {pays: 4}}', text),
    "aktsioner": lambda text: edit('value: "−60", other: "+30"', 'value: "−65", other: "+35"',
                                   edit('value: "+30", other: "−60"', 'value: "+35", other: "−65"', text)),
}


def build(folder: Path, text: str, game: str) -> dict:
    spec = folder / "components.yaml"
    spec.write_text(text, encoding="utf-8")
    assert main(["build", "--spec", str(spec), "--game", game, "--out", str(folder / "output"), "-q"]) == 0
    return json.loads((folder / "output" / "manifest.json").read_text())


def pages(pdf: Path, *stamps: str, skip: int = 0) -> list[bytes | None]:
    """Every page (after the first `skip`) at 50 dpi with its footer's stamp — one of `stamps` —
    and its header painted over, as raw pixels (None for a page with nothing else than its
    footer: a blank back): the header names the sheet ("sheet 3 of 10", the components that
    share it), which a sheet already printed need not repeat."""
    document = pypdfium2.PdfDocument(str(pdf))
    images = []
    for index in range(skip, len(document)):
        page = document[index]
        image = page.render(scale=DPI / 72).to_pil().convert("L")
        text = page.get_textpage()
        found = next(filter(None, (text.search(f"pnp {__version__} · {s}").get_next() for s in stamps)), None)
        assert found, f"{pdf.name} page {index + 1}: none of the stamps {stamps}"
        first, count = found
        boxes = [text.get_charbox(i) for i in range(first, first + count)]
        left, right = min(b[0] for b in boxes) - 2, max(b[2] for b in boxes) + 2
        bottom, top = min(b[1] for b in boxes) - 2, max(b[3] for b in boxes) + 2
        width, height, scale = page.get_width(), page.get_height(), DPI / 72
        draw = ImageDraw.Draw(image)
        draw.rectangle((left * scale, (height - top) * scale, right * scale, (height - bottom) * scale), fill=255)
        band = (MARGIN + BAND) / PT * scale  # the header: above the content, or left of it on a sheet whose footer runs up its side
        sideways = top - bottom > right - left
        draw.rectangle((0, 0, band, height * scale) if sideways else (0, 0, width * scale, band), fill=255)
        footer = (width * scale - band, 0, width * scale, height * scale) if sideways else (
            0, height * scale - band, width * scale, height * scale)
        blank = image.copy()
        ImageDraw.Draw(blank).rectangle(footer, fill=255)
        images.append(image.tobytes() if blank.getextrema()[0] < 255 else None)  # a blank back: none
    return images


def units(folder: Path, game: str, manifest: dict) -> dict[str, list[bytes]]:
    """The pages of each print unit of the game's combined file, rendered with stamps masked."""
    listed = [u for u in manifest["units"] if u["game"] == game]
    combined = folder / game / f"{game}-all.pdf"
    lead = len(pypdfium2.PdfDocument(str(combined))) - sum(u["pages"] for u in listed)
    rendered = pages(combined, *(u["stamp"] for u in listed), skip=lead)
    found, start = {}, 0
    for u in listed:
        found[u["id"]] = rendered[start:start + u["pages"]]
        start += u["pages"]
    return found


def sheets(unit: dict, images: list[bytes | None], blanks: bool = False) -> list[list[bytes | None]]:
    """Each sheet's pages, a blank back left out unless `blanks` (a sheet printed one-sided is
    the same sheet)."""
    per = unit["pages"] // len(unit["sheets"])
    return [[image for image in images[i:i + per] if blanks or image is not None] for i in range(0, len(images), per)]


@pytest.fixture(scope="module", params=[g if g == "aktsioner" else pytest.param(g, marks=pytest.mark.slow) for g in sorted(EDITS)])
def rebuilt(request, tmp_path_factory):
    """A game built from the bundled spec, kept aside, then rebuilt in place after its edit
    (Aktsioner's edit in the fast lane, Bolsa's and For-Ex's in the slow lane), with what that
    rebuild said on the terminal."""
    game = request.param
    folder = tmp_path_factory.mktemp(game)
    old = build(folder, BUNDLED, game)
    shutil.copytree(folder / "output", folder / "before")
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        new = build(folder, EDITS[game](BUNDLED), game)
    return game, folder, old, new, said.getvalue()


def test_the_change_list_is_exactly_the_sheets_of_the_print_that_look_different(rebuilt):
    game, folder, old, new, _ = rebuilt
    was, now = units(folder / "before", game, old), units(folder / "output", game, new)
    before = {u["id"]: u for u in old["units"] if u["game"] == game}
    hosts = {u["id"].split("+")[0]: u for u in before.values()}  # a unit that took or lost a guest: by its first component
    listed = {c["component"]: tuple(c["sheets"]) for c in new["changed"]}
    for unit in (u for u in new["units"] if u["game"] == game):
        match = before.get(unit["id"]) or hosts.get(unit["id"].split("+")[0])
        earlier = sheets(match, was[match["id"]]) if match else []
        differ = tuple(n for n, sheet in enumerate(sheets(unit, now[unit["id"]]), 1)
                       if n > len(earlier) or sheet != earlier[n - 1])
        assert listed.get(unit["id"], ()) == differ, unit["id"]
        if not differ and unit["id"] in before:  # what did not change keeps its stamp
            assert unit["stamp"] == before[unit["id"]]["stamp"], unit["id"]
    for component in new["components"]:  # and so does every component file whose sheets did not change
        earlier = next(c for c in old["components"] if c["id"] == component["id"])
        if component["sheets"] == earlier["sheets"]:
            assert component["stamp"] == earlier["stamp"], component["id"]


def test_the_three_edits_name_the_sheets_a_designer_expects(rebuilt):
    game, _, _, new, _ = rebuilt
    listed = {c["component"]: (c["status"], c["sheets"]) for c in new["changed"]}
    if game == "bolsa":  # a sixth company: its row on the board, its token, two more sheets of shares, the booklet;
        # the tokens, beside the last player mat before, now go on the board's second sheet: that mat
        # sheet changes too (the mats' sheets compare with what they were)
        booklet = listed.pop("rules_booklet")
        assert listed == {"quote_board+tokens": ("changed", [1, 2]), "player_mats": ("changed", [6]),
                          "shares": ("changed", [11, 12])}
        assert booklet[0] == "changed" and booklet[1]  # it names the companies
    elif game == "forex":  # one dividend value: the dividend cards (sharing sheets with the certificates),
        # the booklet's dividend table and the aid that lists the payouts
        # (the pair counters fill the last sheet of that run)
        assert listed["dividends+certificates+pair_counters"] == ("changed", [1])
        assert listed["player_aid"] == ("changed", [1, 2, 3])  # six copies, two a sheet
        assert set(listed) == {"dividends+certificates+pair_counters", "player_aid", "rules_booklet"}
        assert listed["rules_booklet"][0] == "changed" and listed["rules_booklet"][1]
    else:  # two small cards, on the third shared sheet of cards and the last (where the price tokens are too);
        # the penalty aid, and the rulebook's pictures, deal table and penalty table
        booklet = listed.pop("rules_booklet")
        assert listed == {"big_cards+small_cards+price_tokens": ("changed", [3, 6]), "penalty_aid": ("changed", [1])}
        assert booklet[0] == "changed" and booklet[1]


def test_the_reprint_file_holds_exactly_the_changed_sheets_fronts_with_backs(rebuilt):
    game, folder, _, new, _ = rebuilt
    out = folder / "output"
    listed = {u["id"]: u for u in new["units"] if u["game"] == game}
    printed = units(out, game, new)
    reprint = out / game / f"{game}-reprint.pdf"
    files = {f["path"]: f for f in new["files"]}
    assert files[f"{game}/{game}-reprint.pdf"]["pages"] == len(pypdfium2.PdfDocument(str(reprint)))
    lead = pypdfium2.PdfDocument(str(reprint))[0].get_textpage().get_text_range()
    assert "reprint after a change" in lead
    expected = [page for c in new["changed"] for n in c["sheets"]
                for page in sheets(listed[c["component"]], printed[c["component"]], blanks=True)[n - 1]]
    double = any(listed[c["component"]]["duplex"] in ("long", "short") for c in new["changed"])
    lead_pages = 2 if double else 1  # a blank back keeps every front on an odd page
    assert len(pypdfium2.PdfDocument(str(reprint))) == lead_pages + len(expected)
    assert pages(reprint, *(u["stamp"] for u in listed.values()), skip=lead_pages) == expected  # in print order


def test_the_terminal_report_names_the_sheets_and_the_reprint_file(rebuilt):
    game, _, _, new, said = rebuilt  # what the edit's build printed
    total = sum(len(c["sheets"]) for c in new["changed"])
    assert f"{game}: {total} sheet{'s' if total != 1 else ''} to print → " in said
    assert f"{game}-reprint.pdf" in said
    for change in new["changed"]:
        assert f"  {change['component']}: " in said


def test_a_rebuild_with_nothing_changed_writes_no_reprint_and_the_same_files(rebuilt, capsys):
    game, folder, _, new, _ = rebuilt
    out = folder / "output"
    snapshot = {p: p.read_bytes() for p in (out / game).glob("*.pdf") if "reprint" not in p.name}
    assert main(["build", "--spec", str(folder / "components.yaml"), "--game", game, "--out", str(out), "-q"]) == 0
    assert f"{game}: nothing changed since the last build" in capsys.readouterr().out
    assert not (out / game / f"{game}-reprint.pdf").exists()
    assert json.loads((out / "manifest.json").read_text())["changed"] == []
    assert {p: p.read_bytes() for p in (out / game).glob("*.pdf")} == snapshot


# --- the comparison itself ---------------------------------------------------------------------


def entry(component: str, sheets: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    return component, sheets


def test_compare_finds_changed_added_dropped_and_removed_sheets():
    old = [{"id": "a", "sheets": ["1", "2", "3"]}, {"id": "b", "sheets": ["1", "2"]}, {"id": "c", "sheets": ["x"]},
           {"id": "gone", "sheets": ["1", "2"]}]
    new = [entry("a", ("1", "9", "3", "4", "5")), entry("b", ("1",)), entry("c", ("x",)), entry("fresh", ("1",))]
    found = {c.component: c for c in compare("g", old, new)}
    assert found["a"] == Change("g", "a", "changed", (2, 4, 5), (), 3)
    assert action(found["a"]) == "replace sheet 2; add sheets 4–5 after sheet 3"
    assert found["b"] == Change("g", "b", "changed", (), (2,), 2)
    assert action(found["b"]) == "discard sheet 2"
    assert "c" not in found
    assert found["fresh"].status == "added" and found["fresh"].sheets == (1,)
    assert found["gone"] == Change("g", "gone", "removed", (), (1, 2), 2)
    assert action(found["gone"]) == "removed: discard its sheets 1–2"
    assert list(found) == ["a", "b", "fresh", "gone"]


def test_there_is_nothing_to_compare_without_an_earlier_record():
    assert compare("g", [], [entry("a", ("1",))]) is None
    assert compare("g", [{"id": "a", "pages": 2}], [entry("a", ("1",))]) is None  # written by an older pnp
