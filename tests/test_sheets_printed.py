"""The sheets a build prints, measured on its combined PDF (issue 39): every piece has the
spec's bleed at the sheet's edges wherever the paper has room, and between pieces what the
paper leaves (the print plan saying how much); no sheet goes out under a quarter covered; every
header says "sheet n of m", in the kit's language; and `pnp validate`'s sheet checks warn
exactly where a designer should know (`pnp.printfile.sheet_findings`).

Pieces are read from what each page draws (`pdf_pieces`): each one's art is clipped to its
bleed box and its cut lines continue its crop marks. The fast lane builds Bolsa on A4 (cards,
bills, tokens beside a player mat, an aid on the money's last sheet); every game on A4 and
Letter is slow.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pypdf
import pytest

from pdf_pieces import Piece, pieces
from pdf_text import pages_text
from pnp.cli import main
from pnp.layout.instructions import COVERED_LEAST

GAMES = ("bolsa", "aktsioner", "forex")
HEADER = re.compile(r"(?:sheet|page|hoja|página|лист|страница) (\d+) (?:of|de|из) (\d+)")  # "sheet n of m" (a board's
# parts: "page n of m") in the kits' languages
TOL = 0.06  # mm: what the drawing's rounding leaves


@pytest.fixture(scope="module", params=[pytest.param((paper, game), marks=() if (paper, game) == ("a4", "bolsa")
                                                     else pytest.mark.slow, id=f"{paper}-{game}")
                                        for paper in ("a4", "letter") for game in GAMES])
def built(request, tmp_path_factory) -> tuple[str, str, Path, dict]:
    """One game's default kit built on one paper: the paper, the game, its combined file and
    the manifest."""
    paper, game = request.param
    out = tmp_path_factory.mktemp(f"{paper}-{game}") / "output"
    assert main(["build", "--game", game, "--paper", paper, "--out", str(out), "-q"]) == 0
    return paper, game, out / game / f"{game}-all.pdf", json.loads((out / "manifest.json").read_text())


def units_with_pages(built) -> list[tuple[dict, list[int]]]:
    """Each row of the print plan with the 0-based pages of the combined file it names."""
    _, game, _, manifest = built
    return [(row, list(range(row["pages"][0] - 1, row["pages"][1]))) for row in manifest["plan"] if row["game"] == game]


def sizes(built) -> set[tuple[float, float]]:
    """Every piece size the game's components print (width, height in mm)."""
    _, game, _, manifest = built
    return {tuple(c["size_mm"]) for c in manifest["components"] if c["game"] == game}


def fronts(row: dict, pages: list[int]) -> list[int]:
    """The pages of a row that are the fronts of its sheets."""
    return pages[::len(pages) // row["sheets"]]


def sides(piece: Piece, others: list[Piece]) -> list[tuple[float, bool]]:
    """Each side's bleed, with whether another piece's art lies beyond that side (a cut between
    pieces) or not (the sheet's edge)."""
    t = piece.trim
    beyond = [
        any(o.trim.right <= t.x + TOL and o.art.right > t.x - 10 and _overlap(o.trim.y, o.trim.bottom, t.y, t.bottom) for o in others),
        any(o.trim.bottom <= t.y + TOL and o.art.bottom > t.y - 10 and _overlap(o.trim.x, o.trim.right, t.x, t.right) for o in others),
        any(o.trim.x >= t.right - TOL and o.art.x < t.right + 10 and _overlap(o.trim.y, o.trim.bottom, t.y, t.bottom) for o in others),
        any(o.trim.y >= t.bottom - TOL and o.art.y < t.bottom + 10 and _overlap(o.trim.x, o.trim.right, t.x, t.right) for o in others),
    ]
    return list(zip(piece.bleeds, beyond, strict=True))


def _overlap(a0: float, a1: float, b0: float, b1: float) -> bool:
    return min(a1, b1) - max(a0, b0) > TOL


def test_every_piece_has_the_plans_bleed_and_a4_gives_the_specs_at_the_sheets_edges(built):
    """Measured on every front of every row with bleed: the least bleed at the sheet's edges
    and between pieces is what the print plan says; on A4 the edges have the 3 mm
    print.bleed_mm asks for and every cut between pieces at least 1.25 mm either side."""
    paper, _, pdf, _ = built
    reader = pypdf.PdfReader(str(pdf))
    checked = 0
    for row, pages in units_with_pages(built):
        if row["bleed"] is None:
            continue
        edges, between = [], []
        for page in fronts(row, pages):
            found = pieces(reader.pages[page], sizes(built))
            for piece in (p for p in found if max(p.bleeds) > TOL):  # pieces with bleed (a panel on the sheet has none)
                for bleed, neighbour in sides(piece, [o for o in found if o is not piece]):
                    (between if neighbour else edges).append(bleed)
        assert edges and min(edges) == pytest.approx(row["bleed"][0], abs=TOL), row["name"]
        assert min(between, default=row["bleed"][1]) >= row["bleed"][1] - TOL, row["name"]
        if paper == "a4":
            assert min(edges) == pytest.approx(3.0, abs=TOL) and min(between, default=3.0) >= 1.25 - TOL, row["name"]
        checked += 1
    assert checked >= 1


def test_no_sheet_goes_out_nearly_empty(built):
    """Every sheet (after the print instructions; a booklet's pages fill theirs) is at least a
    quarter covered by the trims of its pieces and panels, measured on its front, as the print
    plan's facts say; with duplex none or fold too, on A4, a sheet under it is one the plan
    names."""
    _, _, pdf, _ = built
    reader = pypdf.PdfReader(str(pdf))
    for row, pages in units_with_pages(built):
        if row["finish"]:  # a booklet
            continue
        for number, page in enumerate(fronts(row, pages)):
            sheet = reader.pages[page]
            area = float(sheet.mediabox.width) * float(sheet.mediabox.height) * (25.4 / 72) ** 2
            covered = sum(p.trim.w * p.trim.h for p in pieces(sheet, sizes(built))) / area
            assert covered == pytest.approx(row["covered"][number], abs=0.01), (row["name"], number + 1)
            assert covered >= COVERED_LEAST, (row["name"], number + 1, covered)


def test_every_header_says_sheet_n_of_m_in_the_kits_language(built):
    """Every page of every row after the instructions names its sheet "n of m" (Bolsa's kit
    in Spanish, Акционер's in Russian), n counting each row's sheets from 1 to m, its sheets."""
    _, _, pdf, _ = built
    text = pages_text(pdf)
    for row, pages in units_with_pages(built):
        said = [HEADER.search(text[page]) for page in pages]
        assert all(said), (row["name"], [page + 1 for page, s in zip(pages, said, strict=True) if not s])
        numbers = [(int(s[1]), int(s[2])) for s in said if s]
        per = len(pages) // row["sheets"]
        assert numbers == [(n // per + 1, row["sheets"]) for n in range(len(pages))], row["name"]
