"""Tiling, measured from the PDF: small panels centred on one page, large ones split into
overlapping windows that cover the whole drawing, with glue strips, hidden alignment marks and a map."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from pnp.components import Panels, art
from pnp.display import Drawing, Line, Rect, Style
from pnp.layout.sheet import MARK_ZONE_MM, Box, Furniture, frame
from pnp.layout.tile import JOIN, OVERLAP_MM, tile
from pnp.render.pdf import pdf_bytes

PT = 25.4 / 72
INFO = Furniture("Test game", "Quote board", "pnp 0.0.0 · 00000000")
MARKER = Style(stroke="#ff0000", width=0.3)


def board(w: float, h: float) -> Drawing:
    """A frame and a red diagonal: where the diagonal lands tells where the art went."""
    return Drawing(w, h, (Rect(0, 0, w, h, Style(stroke="#000000", width=0.5)), Line(0, 0, w, h, MARKER)))


def pages_of(tiling):
    return pdfplumber.open(io.BytesIO(pdf_bytes(tiling.pages))).pages


def test_a_panel_that_fits_is_centred_on_one_portrait_page():
    tiling = tile(Panels((board(150, 200),)), "a4", 5, INFO)
    assert len(tiling.pages) == 1 and not tiling.tiled
    (t,) = tiling.tiles
    page = tiling.pages[0]
    assert (page.width, page.height) == (210, 297)
    assert t.at.x + t.at.w / 2 == pytest.approx(105) and t.at.y + t.at.h / 2 == pytest.approx(148.5)
    red = [l for l in pages_of(tiling)[0].lines if l["stroking_color"] == (1, 0, 0)]
    assert len(red) == 1
    assert red[0]["x0"] * PT == pytest.approx(t.at.x, abs=0.01)
    assert red[0]["x1"] * PT == pytest.approx(t.at.right, abs=0.01)


def test_a_panel_that_only_fits_sideways_goes_on_a_landscape_page():
    tiling = tile(Panels((board(260, 150),)), "a4", 5, INFO)
    assert len(tiling.pages) == 1
    assert (tiling.pages[0].width, tiling.pages[0].height) == (297, 210)


def test_a_large_board_is_covered_by_windows_that_overlap_by_the_strip():
    w, h = 420, 250
    tiling = tile(Panels((board(w, h),)), "a4", 5, INFO)
    assert tiling.tiled
    tiles = tiling.tiles
    rows, columns = tiles[0].rows, tiles[0].columns
    assert len(tiles) == rows * columns == len(tiling.pages) > 1
    # the windows cover the drawing exactly, neighbours sharing a strip of OVERLAP_MM
    assert min(t.window.x for t in tiles) == 0 and min(t.window.y for t in tiles) == 0
    assert max(t.window.right for t in tiles) == pytest.approx(w)
    assert max(t.window.bottom for t in tiles) == pytest.approx(h)
    for t in tiles:
        right = [u for u in tiles if (u.row, u.column) == (t.row, t.column + 1)]
        below = [u for u in tiles if (u.row, u.column) == (t.row + 1, t.column)]
        if right:
            assert t.window.right - right[0].window.x == pytest.approx(OVERLAP_MM)
        if below:
            assert t.window.bottom - below[0].window.y == pytest.approx(OVERLAP_MM)
    # every window is on its page at full size, inside the content box with room for marks
    for t, page in zip(tiles, tiling.pages, strict=True):
        f = frame("a4", 5, landscape=page.width > page.height)
        assert f.content.inset(MARK_ZONE_MM).contains(t.at, 1e-6)
        assert (t.at.w, t.at.h) == pytest.approx((t.window.w, t.window.h))


def test_the_art_on_each_tile_is_the_right_part_at_full_size():
    w, h = 420, 250
    tiling = tile(Panels((board(w, h),)), "a4", 5, INFO)
    for t, page in zip(tiling.tiles, pages_of(tiling), strict=True):
        red = [l for l in page.curves + page.lines if l["stroking_color"] == (1, 0, 0)]
        assert len(red) == 1
        # the diagonal y = x·h/w drawn in drawing coordinates, shifted by the window's offset
        (x0, y0), (x1, y1) = red[0]["pts"][0], red[0]["pts"][-1]
        dx, dy = t.at.x - t.window.x, t.at.y - t.window.y
        assert (y0 * PT - dy) == pytest.approx((x0 * PT - dx) * h / w, abs=0.01)
        assert (y1 * PT - dy) == pytest.approx((x1 * PT - dx) * h / w, abs=0.01)


@pytest.mark.parametrize("size", [(420, 250), (450, 330)])
def test_tiles_carry_glue_strips_alignment_marks_hidden_on_the_finished_board_and_their_place(size):
    tiling = tile(Panels((board(*size),)), "a4", 5, INFO)
    pages = pages_of(tiling)
    ticks: dict[tuple[int, int], dict[str, set[float]]] = {}
    for t, page, laid in zip(tiling.tiles, pages, tiling.pages, strict=True):
        text = page.extract_text()
        n = (t.row - 1) * t.columns + t.column
        assert f"page {n} of {t.rows * t.columns}, row {t.row}, column {t.column}" in text
        turned = "".join(c["text"] for c in sorted((c for c in page.chars if not c["upright"]), key=lambda c: -c["top"]))
        assert ("glue here" in text + turned) == (t.row > 1 or t.column > 1)
        # the part of this tile the finished board shows: the window less its glue strips
        shown = Box(t.at.x + (OVERLAP_MM if t.column > 1 else 0), t.at.y + (OVERLAP_MM if t.row > 1 else 0),
                    t.at.w - (OVERLAP_MM if t.column > 1 else 0), t.at.h - (OVERLAP_MM if t.row > 1 else 0))
        dx, dy = t.at.x - t.window.x, t.at.y - t.window.y
        found = ticks.setdefault((t.row, t.column), {"x": set(), "y": set()})
        marks = [l for _, l in art.walk(laid.items) if isinstance(l, Line) and l.style == JOIN]
        assert marks
        for m in marks:
            box = Box(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1), abs(m.y2 - m.y1))
            assert not shown.overlaps(box), "an alignment mark shows on the finished board"
            if m.y1 == m.y2 and m.x2 - m.x1 < OVERLAP_MM:  # a level tick: its height on the board
                found["y"].add(round(m.y1 - dy, 3))
            if m.x1 == m.x2 and m.y2 - m.y1 < OVERLAP_MM:
                found["x"].add(round(m.x1 - dx, 3))
        # the assembly map in the header: one cell per tile, this one filled
        cells = [r for r in page.rects if r["top"] * PT < 10 and abs((r["bottom"] - r["top"]) * PT - 3.7 / t.rows) < 0.01]
        assert len(cells) == t.rows * t.columns
        assert sum(1 for r in cells if r["non_stroking_color"] != (1, 1, 1)) == 1
    # the ticks of neighbours meet: the same heights across a vertical join, the same x across a level one
    for (row, column), marks in ticks.items():
        if (row, column + 1) in ticks:
            assert len(marks["y"] & ticks[(row, column + 1)]["y"]) == 2
        if (row + 1, column) in ticks:
            assert len(marks["x"] & ticks[(row + 1, column)]["x"]) == 2


def test_seams_fall_where_the_drawing_allows_them():
    cells = tuple(20.0 + 16 * k for k in range(26))  # cell edges of a 16 mm track
    drawing = Drawing(440, 100, board(440, 100).items, seams_x=cells)
    tiling = tile(Panels((drawing,)), "a4", 5, INFO)
    seams = [t.window.right for t in tiling.tiles if t.column < t.columns]
    assert seams and all(any(abs(s - c) < 1e-6 for c in cells) for s in seams)


def test_the_parts_of_a_low_board_share_one_sheet():
    tiling = tile(Panels((board(360, 90),)), "a4", 5, INFO)
    assert tiling.tiled and len(tiling.pages) == 1 and len(tiling.tiles) == 2
    first, second = (t.at for t in tiling.tiles)
    assert second.y >= first.bottom + 5 and frame("a4", 5).content.inset(MARK_ZONE_MM).contains(second)


def test_several_panels_each_get_their_sheets_in_order():
    tiling = tile(Panels((board(150, 200), board(150, 200), board(420, 250))), "a4", 5, INFO)
    assert [t.drawing for t in tiling.tiles][:2] == [0, 1]
    assert len(tiling.pages) == 2 + tiling.tiles[-1].rows * tiling.tiles[-1].columns
    texts = [page.extract_text() for page in pages_of(tiling)]
    count = len(tiling.pages)
    assert f"sheet 1 of {count}" in texts[0] and f"sheet 2 of {count}" in texts[1]  # VISUAL.md: "sheet n of m"
    assert all(f"sheet {n} of {count}" in text for n, text in enumerate(texts, 1))


def test_small_panels_of_one_size_share_a_sheet_each_with_its_crop_marks():
    tiling = tile(Panels((board(190, 130),) * 5), "a4", 5, INFO)
    assert len(tiling.pages) == 3 and [t.page for t in tiling.tiles] == [0, 0, 1, 1, 2]
    for page_number in (0, 1):
        first, second = (t.at for t in tiling.tiles if t.page == page_number)
        assert second.y >= first.bottom + 5  # room to cut twice
        assert frame("a4", 5).content.inset(MARK_ZONE_MM).contains(first)
        red = [l for l in pages_of(tiling)[page_number].lines if l["stroking_color"] == (1, 0, 0)]
        assert len(red) == 2  # both panels drawn whole
        marks = [l for l in pages_of(tiling)[page_number].lines if l["stroking_color"] != (1, 0, 0)
                 and abs(l["y0"] - l["y1"]) < 1e-6 and l["x1"] * PT <= first.x + 1e-3]
        for y in (first.y, first.bottom, second.y, second.bottom):  # a mark left of every cut
            assert any(abs((pages_of(tiling)[page_number].height - m["y0"]) * PT - y) < 0.05 for m in marks)


def test_panels_of_different_sizes_keep_their_own_sheets():
    tiling = tile(Panels((board(190, 130), board(150, 100))), "a4", 5, INFO)
    assert len(tiling.pages) == 2


@pytest.mark.parametrize("paper", ["a4", pytest.param("letter", marks=pytest.mark.slow)])
def test_the_bundled_boards_are_split_between_cells_never_through_a_number(paper):
    """Every visible seam of the bundled boards (a window's right edge that is not the board's)
    is a cell edge the drawing allows, on either paper: Aktsioner's seam went through "120"."""
    from spec_text import laid_out

    checked = 0
    for game in ("bolsa", "aktsioner", "forex"):
        for laid in laid_out(game, paper=paper).laid:
            if laid.component.kind != "board":
                continue
            drawing = laid.output.drawings[0]
            for t in laid.layout.tiles:
                if t.column < t.columns:
                    assert any(abs(t.window.right - x) < 1e-6 for x in drawing.seams_x), (game, paper, t.window)
                    checked += 1
    assert checked >= 3
