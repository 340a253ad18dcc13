"""Sheet furniture, measured from the PDF: the ruler's bars are 100 mm and 1 inch, everything
sits inside the printable area and outside the content box, and nothing but the stamp changes
with the stamp."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from pnp.display import Page, fingerprint
from pnp.layout.sheet import MARK_ZONE_MM, PAPERS, Box, Furniture, content_size, crop_marks, frame, furniture, stamp
from pnp.render.pdf import pdf_bytes

PT = 25.4 / 72
INFO = Furniture("Акционер", "Большие карты · Big cards", stamp("0.1.0", "3f2a9c1e"))


def sheet_pdf(f, where="sheet 2 · backs"):
    page = Page(f.width, f.height, (furniture(f, INFO, where),))
    return pdfplumber.open(io.BytesIO(pdf_bytes([page]))).pages[0]


def black_bars(page) -> list[Box]:
    return [Box(r["x0"] * PT, r["top"] * PT, (r["x1"] - r["x0"]) * PT, (r["bottom"] - r["top"]) * PT)
            for r in page.rects if r["fill"] and r["non_stroking_color"] in ((0, 0, 0), (0.0, 0.0, 0.0), 0)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("landscape", [False, True])
@pytest.mark.parametrize("sideways", [False, True])
def test_the_ruler_measures_100_mm_and_1_inch_inside_the_printable_area(paper, landscape, sideways):
    f = frame(paper, 5, landscape=landscape, sideways=sideways)
    page = sheet_pdf(f)
    assert (page.width * PT, page.height * PT) == pytest.approx(
        PAPERS[paper][::-1] if landscape else PAPERS[paper], abs=0.01)
    bars = black_bars(page)
    lengths = sorted(max(b.w, b.h) for b in bars)
    assert lengths == pytest.approx([25.4, 100.0], abs=0.01)
    for bar in bars:
        assert f.printable.contains(bar, 0.01)
        assert not f.content.overlaps(bar)
        assert (bar.h > bar.w) == sideways  # side strips run the bars up the page
    for char in page.chars:
        box = Box(char["x0"] * PT, char["top"] * PT, (char["x1"] - char["x0"]) * PT, (char["bottom"] - char["top"]) * PT)
        assert f.printable.contains(box, 0.2), f"{char['text']!r} outside the printable area"
        assert not f.content.overlaps(box, 0.05), f"{char['text']!r} in the content box"


def test_header_and_footer_say_what_where_and_which_version():
    text = sheet_pdf(frame("a4", 5)).extract_text()
    assert "Акционер" in text and "Big cards" in text and "sheet 2 · backs" in text
    assert "100 mm" in text and "1 inch" in text
    assert "pnp 0.1.0 · 3f2a9c1e" in text


def test_side_strips_read_from_bottom_to_top():
    page = sheet_pdf(frame("letter", 5, sideways=True))
    chars = [c for c in page.chars if c["text"] != " "]
    assert chars and all(not c["upright"] for c in chars)
    header = [c for c in chars if c["x0"] * PT < 20]
    assert header and header[0]["text"] == "А"  # the title starts at the bottom of the strip
    assert header[0]["top"] > header[-1]["top"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("landscape", [False, True])
@pytest.mark.parametrize("sideways", [False, True])
def test_a_sheet_differs_from_another_stamp_only_by_the_stamp(paper, landscape, sideways):
    f = frame(paper, 5, landscape=landscape, sideways=sideways)
    # the widest digest and the narrowest: nothing else in the footer may move between them
    wide, narrow = (Furniture("Акционер", "Большие карты · Big cards", stamp("0.1.0", d)) for d in ("00000000", "ffffffff"))
    a, b = (Page(f.width, f.height, (furniture(f, info, "sheet 2 · backs"),)) for info in (wide, narrow))
    assert fingerprint(a) != fingerprint(b)
    assert fingerprint(a, mask=wide.stamp) == fingerprint(b, mask=narrow.stamp)


def test_crop_marks_continue_the_cut_lines_outside_the_bleed():
    trims = [Box(10, 20, 63, 88), Box(73, 20, 63, 88)]  # butted: three distinct x
    bleeds = [Box(7, 17, 66, 94), Box(73, 17, 66, 94)]
    marks = crop_marks(trims, bleeds)
    vertical = [m for m in marks if m.x1 == m.x2]
    horizontal = [m for m in marks if m.y1 == m.y2]
    assert sorted({m.x1 for m in vertical}) == [10, 73, 136]
    assert sorted({m.y1 for m in horizontal}) == [20, 108]
    for m in vertical:
        assert max(m.y1, m.y2) <= 17 or min(m.y1, m.y2) >= 111
    for m in horizontal:
        assert max(m.x1, m.x2) <= 7 or min(m.x1, m.x2) >= 139
    assert all(abs(m.x2 - m.x1) + abs(m.y2 - m.y1) == pytest.approx(MARK_ZONE_MM - 0.5) for m in marks)


def test_content_size_is_what_a_full_page_panel_may_measure():
    w, h = content_size("a4", 5)
    f = frame("a4", 5)
    assert w < f.printable.w and h < f.printable.h
    assert f.content.inset(MARK_ZONE_MM).w == pytest.approx(w)
