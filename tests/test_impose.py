"""Imposition, measured from the PDFs it makes: page sizes, trim boxes found from the crop
marks, marks outside every piece and inside the printable area, backs behind their fronts."""

from __future__ import annotations

import io

import pdfplumber
import pypdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.components import PieceArt, Pieces
from pnp.display import Drawing, Rect, Style, Text
from pnp.layout.impose import INNER_BLEED_MM, impose, plan, split
from pnp.layout.sheet import MARK_ZONE_MM, PAPERS, Box, Furniture
from pnp.render.pdf import pdf_bytes

PT = 25.4 / 72  # mm per point
INFO = Furniture("Test game", "Test cards", "pnp 0.0.0 · 00000000")
TOL = 0.1


def face(label: str, w: float, h: float, bleed: float, fill: str) -> Drawing:
    return Drawing(w, h, (Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, Style(fill=fill)),
                          Text(w / 2, h / 2, label, 10, "bold", "#000000", "middle")), bleed)


def deck(n: int, w: float = 63, h: float = 88, bleed: float = 3, backs: bool = True, cut: str = "rect") -> Pieces:
    return Pieces(w, h, bleed, tuple(
        PieceArt(face(f"F{i}", w, h, bleed, "#ddeeff"), face(f"B{i}", w, h, bleed, "#ffe0e0") if backs else None)
        for i in range(n)
    ), cut)  # type: ignore[arg-type]


def pdf_pages(imposition, count: int | None = None):
    """The imposition's pages as pdfplumber reads them: all, or the first `count` (only those
    rendered)."""
    return pdfplumber.open(io.BytesIO(pdf_bytes(imposition.pages[:count]))).pages


def marks_mm(page) -> list[tuple[float, float, float, float]]:
    """Thin black lines (crop marks and ruler ticks) in mm: x0, top, x1, bottom."""
    return [(l["x0"] * PT, l["top"] * PT, l["x1"] * PT, l["bottom"] * PT) for l in page.lines
            if abs(l["linewidth"] * PT - 0.15) < 0.01]


def crop_marks_of(page, content: Box) -> list[tuple[float, float, float, float]]:
    """The crop marks: the 0.15 mm lines in the content box (the ruler's ticks are outside it)."""
    return [m for m in marks_mm(page) if content.contains(Box(m[0], m[1], m[2] - m[0], m[3] - m[1]), 0.01)]


def trims_from_marks(page, content: Box) -> tuple[list[float], list[float]]:
    """Distinct x of vertical marks and y of horizontal marks: the cut lines."""
    marks = crop_marks_of(page, content)
    xs = sorted({round(m[0], 3) for m in marks if abs(m[0] - m[2]) < 1e-6})
    ys = sorted({round(m[1], 3) for m in marks if abs(m[1] - m[3]) < 1e-6})
    return xs, ys


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_cards_nine_a_page_with_trims_at_size_read_from_the_crop_marks(paper):
    imposition = impose(deck(18), paper, 5, "long", INFO)
    reader = pypdf.PdfReader(io.BytesIO(pdf_bytes(imposition.pages)))
    assert len(reader.pages) == 4  # fronts, backs, fronts, backs
    for page in reader.pages:
        w, h = float(page.mediabox.width) * PT, float(page.mediabox.height) * PT
        assert (round(w, 1), round(h, 1)) == PAPERS[paper]
    assert imposition.grid.per_page == 9
    first = pdf_pages(imposition, 1)[0]
    xs, ys = trims_from_marks(first, imposition.grid.frame.content)
    # butted pieces share a cut line; a gutter makes two: either way every card is 63 × 88
    widths = _spans(xs, 63)
    heights = _spans(ys, 88)
    assert len(widths) == 3 and len(heights) == 3
    placed = [p.trim for p in imposition.placed if p.page == 0]
    assert sorted({round(t.x, 3) for t in placed}) == pytest.approx([x for x, _ in widths], abs=TOL)
    assert sorted({round(t.y, 3) for t in placed}) == pytest.approx([y for y, _ in heights], abs=TOL)


def _spans(cuts: list[float], size: float) -> list[tuple[float, float]]:
    """Cut lines paired into pieces `size` long (±0.1 mm): after a piece, the next one starts
    on the same cut if the pieces are butted, else on the next cut (across a gutter)."""
    def at(value: float) -> float | None:
        return next((c for c in cuts if abs(c - value) <= TOL), None)

    spans: list[tuple[float, float]] = []
    start: float | None = cuts[0]
    while start is not None and (end := at(start + size)) is not None:
        spans.append((start, end))
        start = end if at(end + size) is not None else next((c for c in cuts if c > end + TOL), None)
    return spans


def test_the_spec_bleed_at_the_sheets_edges_and_what_the_paper_leaves_between_pieces():
    """Poker cards nine a sheet: A4 leaves 200 − 189 = 11 mm across and 278 − 264 = 14 mm down
    (crop marks in the gutters, where they cost no bleed); every edge first gets 1 mm, the
    sheet's edges then their 3 mm, the gaps the rest: 1.25 and 2 mm either side. Letter leaves
    5.4 mm down (furniture at the sides): 0.9 mm on all six edges."""
    a4 = plan(63, 88, 3, "a4", 5, "long", 90)
    assert a4.per_page == 9 and not a4.frame.sideways
    assert (a4.columns.outer, a4.rows.outer) == pytest.approx((3, 3))
    assert (a4.columns.gutter / 2, a4.rows.gutter / 2) == pytest.approx((1.25, 2.0))
    assert a4.columns.inner and a4.rows.inner  # beyond the grid, the marks would take 2.5 mm a side from the bleed
    letter = plan(63, 88, 3, "letter", 5, "long", 90)
    assert letter.per_page == 9  # as many as before, when the rows butted (264 of 269.4 mm)
    assert letter.frame.sideways  # no room above and below: the furniture runs up the sides
    assert (letter.rows.outer, letter.rows.gutter / 2) == pytest.approx((0.9, 0.9))
    assert (letter.columns.outer, letter.columns.gutter / 2) == pytest.approx((1.95, 1.0))
    for axis in (letter.rows, letter.columns):  # no shared cut: a gutter with bleed either side of every cut
        assert axis.inner and axis.gutter / 2 >= INNER_BLEED_MM


@pytest.mark.parametrize("slack, count, bleed, expected", [
    (11, 3, 3, (3, 1.25)),  # 1 mm on six edges, 2 more at each end, 0.25 more either side of the two gaps
    (5.4, 3, 3, (0.9, 0.9)),  # less than 1 mm an edge: the same on every edge
    (40, 3, 3, (3, 3)),  # room to spare: the whole bleed everywhere
    (4, 1, 3, (2, 0)),  # one piece: half the slack at each end
    (9, 3, 0.5, (0.5, 0.5)),  # art with less bleed: never more than it has
])
def test_split_gives_every_edge_a_millimetre_then_the_sheets_edges_then_the_gaps(slack, count, bleed, expected):
    assert split(slack, count, bleed) == pytest.approx(expected)


def test_front_art_fills_its_share_of_the_gutter():
    imposition = impose(deck(9), "a4", 5, "none", INFO)
    grid = imposition.grid
    groups = [item for item in imposition.pages[0].items if getattr(item, "clip", None) is not None]
    assert len(groups) == 9
    for group in groups:
        clip = group.clip
        assert -clip.x == pytest.approx(grid.columns.gutter / 2) or -clip.x == pytest.approx(grid.columns.outer)
        assert clip.w == pytest.approx(63 + grid.columns.gutter / 2 + grid.columns.outer) or clip.w == pytest.approx(
            63 + grid.columns.gutter)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short", "fold", "none"])
def test_every_crop_mark_is_outside_every_piece_and_inside_the_printable_area(paper, duplex):
    imposition = impose(deck(12, cut="circle"), paper, 5, duplex, INFO)
    for number, page in enumerate(pdf_pages(imposition)):
        frame = imposition.grid.frame
        printable = frame.printable
        trims = [p.trim for p in imposition.placed if p.page == number]
        marks = crop_marks_of(page, frame.content)
        assert marks, f"page {number + 1} has no crop marks"
        for x0, top, x1, bottom in marks:
            box = Box(x0, top, x1 - x0, bottom - top)
            assert printable.contains(box, 0.01)
            for trim in trims:
                assert not trim.overlaps(box, 0.01), f"a crop mark crosses the piece at {trim}"


def test_long_edge_backs_mirror_the_columns_and_short_edge_the_rows():
    W, H = PAPERS["a4"]
    for duplex, mirror in (("long", lambda t: (W - t.x - t.w, t.y)), ("short", lambda t: (t.x, H - t.y - t.h))):
        imposition = impose(deck(11), "a4", 5, duplex, INFO)
        fronts = {(p.piece): p for p in imposition.placed if p.side == "front"}
        backs = {(p.piece): p for p in imposition.placed if p.side == "back"}
        assert fronts.keys() == backs.keys()
        for index, back in backs.items():
            front = fronts[index]
            assert back.page == front.page + 1
            assert (back.trim.x, back.trim.y) == pytest.approx(mirror(front.trim))
        # and the PDF draws each back there: its fill starts at the trim minus its 3 mm of bleed
        page = pdf_pages(imposition, 2)[1]
        pink = {(round(r["x0"] * PT + 3, 2), round(r["top"] * PT + 3, 2)) for r in page.rects
                if _close(r["non_stroking_color"], (1, 0xE0 / 255, 0xE0 / 255))}
        assert pink == {(round(p.trim.x, 2), round(p.trim.y, 2)) for p in backs.values() if p.page == 1}


def _close(colour, rgb) -> bool:
    return isinstance(colour, tuple) and len(colour) == 3 and all(abs(a - b) < 0.01 for a, b in zip(colour, rgb, strict=True))


def test_landscape_sheets_turn_over_their_long_edge_which_is_horizontal():
    imposition = impose(deck(8, w=130, h=90), "a4", 5, "long", INFO)  # 4 a sheet only in landscape
    frame = imposition.grid.frame
    assert frame.landscape
    fronts = {p.piece: p.trim for p in imposition.placed if p.side == "front"}
    for back in (p for p in imposition.placed if p.side == "back"):
        front = fronts[back.piece]
        assert (back.trim.x, back.trim.y) == pytest.approx((front.x, frame.height - front.y - front.h))


def test_back_offset_shifts_the_backs_and_their_marks_only():
    plain = impose(deck(9), "a4", 5, "long", INFO)
    shifted = impose(deck(9), "a4", 5, "long", INFO, back_offset=(1.5, -0.5))
    for a, b in zip(plain.placed, shifted.placed, strict=True):
        dx, dy = (1.5, -0.5) if a.side == "back" else (0, 0)
        assert (b.trim.x, b.trim.y) == pytest.approx((a.trim.x + dx, a.trim.y + dy))
    content = plain.grid.frame.content.inset(-1)
    before = trims_from_marks(pdf_pages(plain, 2)[1], content)
    after = trims_from_marks(pdf_pages(shifted, 2)[1], content)
    assert after[0] == pytest.approx([x + 1.5 for x in before[0]], abs=1e-3)
    assert after[1] == pytest.approx([y - 0.5 for y in before[1]], abs=1e-3)


def test_fold_puts_fronts_and_backs_on_one_page_mirrored_about_a_dashed_line():
    imposition = impose(deck(8), "a4", 5, "fold", INFO)
    assert imposition.duplex == "fold"
    frame = imposition.grid.frame
    page = pdf_pages(imposition, 1)[0]
    dashed = [l for l in page.lines if l.get("dash") and l["dash"][0]]
    assert len(dashed) == 1
    fold = dashed[0]
    upright = abs(fold["x0"] - fold["x1"]) < 1e-6
    fronts = {p.piece: p for p in imposition.placed if p.side == "front"}
    backs = [p for p in imposition.placed if p.side == "back"]
    assert len(backs) == 8 and all(b.page == fronts[b.piece].page for b in backs)
    for back in backs:
        f = fronts[back.piece].trim
        if upright:
            assert fold["x0"] * PT == pytest.approx(frame.width / 2, abs=0.01)
            assert (back.trim.x, back.trim.y) == pytest.approx((frame.width - f.x - f.w, f.y))
            assert f.right <= frame.width / 2 <= back.trim.x
        else:
            assert fold["top"] * PT == pytest.approx(frame.height / 2, abs=0.01)
            assert (back.trim.x, back.trim.y) == pytest.approx((f.x, frame.height - f.y - f.h))
            assert f.bottom <= frame.height / 2 <= back.trim.y


def test_none_prints_no_backs_and_pieces_without_a_back_leave_the_place_empty():
    assert all(p.side == "front" for p in impose(deck(10), "a4", 5, "none", INFO).placed)
    assert len(impose(deck(10), "a4", 5, "none", INFO).pages) == 2
    mixed = deck(9)
    mixed = Pieces(mixed.width, mixed.height, mixed.bleed,
                   tuple(PieceArt(p.front, None if i == 4 else p.back) for i, p in enumerate(mixed.pieces)))
    imposition = impose(mixed, "a4", 5, "long", INFO)
    backs = [p.piece for p in imposition.placed if p.side == "back"]
    assert 4 not in backs and len(backs) == 8
    text = pypdf.PdfReader(io.BytesIO(pdf_bytes(imposition.pages))).pages[1].extract_text()
    assert "B3" in text and "B4" not in text
    # no piece has a back: one-sided whatever the setting
    assert impose(deck(9, backs=False), "a4", 5, "long", INFO).duplex == "none"


def test_round_tokens_get_their_cut_outline_on_the_fronts():
    imposition = impose(deck(7, w=20, h=20, cut="circle"), "a4", 5, "long", INFO)
    fronts, backs = pdf_pages(imposition, 2)
    outlines = [c for c in fronts.curves if abs((c["x1"] - c["x0"]) * PT - 20) < 0.05]
    assert len(outlines) == 7
    trims = {(round(p.trim.x, 2), round(p.trim.y, 2)) for p in imposition.placed if p.side == "front"}
    assert {(round(c["x0"] * PT, 2), round(c["top"] * PT, 2)) for c in outlines} == trims
    assert not [c for c in backs.curves if abs((c["x1"] - c["x0"]) * PT - 20) < 0.05]


def test_few_pieces_get_full_bleed_gutters_rather_than_a_crowded_grid():
    grid = plan(20, 20, 3, "a4", 5, "long", 7)
    assert grid.bleed == pytest.approx(3)
    assert grid.per_page >= 7


def test_pdfs_ask_viewers_to_print_at_actual_size():
    reader = pypdf.PdfReader(io.BytesIO(pdf_bytes(impose(deck(2), "a4", 5, "long", INFO).pages)))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


def test_a_piece_larger_than_the_paper_is_a_build_error():
    from pnp.errors import BuildError

    with pytest.raises(BuildError, match="300 × 400 mm do not fit on a4"):
        impose(deck(1, w=300, h=400), "a4", 5, "long", INFO)


@settings(max_examples=40, deadline=None)
@given(w=st.floats(10, 150), h=st.floats(10, 150), bleed=st.floats(0, 5), n=st.integers(1, 40),
       paper=st.sampled_from(["a4", "letter"]), duplex=st.sampled_from(["long", "short", "fold", "none"]),
       margin=st.floats(0, 12))
def test_any_size_lands_inside_the_content_box_without_overlaps(w, h, bleed, n, paper, duplex, margin):
    from pnp.errors import BuildError

    try:
        imposition = impose(deck(n, w, h, bleed), paper, margin, duplex, INFO)
    except BuildError as error:  # only a fold can fail for these sizes: half a sheet is too small
        assert duplex == "fold" and "half a sheet" in str(error)
        imposition = impose(deck(n, w, h, bleed), paper, margin, "long", INFO)
    frame, grid = imposition.grid.frame, imposition.grid
    assert len({p.piece for p in imposition.placed if p.side == "front"}) == n
    room = frame.content.inset(0 if grid.columns.inner else MARK_ZONE_MM - 1e-6,
                               0 if grid.rows.inner else MARK_ZONE_MM - 1e-6)
    by_page: dict[int, list[Box]] = {}
    for p in imposition.placed:
        assert (p.trim.w, p.trim.h) == pytest.approx((w, h))
        assert room.contains(p.trim, 1e-6)
        by_page.setdefault(p.page, []).append(p.trim)
    for trims in by_page.values():
        for i, a in enumerate(trims):
            assert not any(a.overlaps(b, 1e-6) for b in trims[i + 1:])


def test_two_millimetres_of_bleed_wherever_it_costs_no_sheet():
    """A home duplex printer misregisters by a millimetre or two: bills get 3 mm at the sheet's
    edges and 2 mm or more between them (furniture at the sides if need be) when that takes no
    more sheets; poker cards on A4 keep 3 mm at the edges and what the paper allows between."""
    bills = plan(80, 42, 3, "a4", 5, "long", 110)
    assert bills.edge == pytest.approx(3) and bills.between >= 2.0 and -(-110 // bills.per_page) == 10
    cards = plan(63, 88, 3, "a4", 5, "long", 90)
    assert cards.per_page == 9 and cards.edge == pytest.approx(3) and cards.between >= 1.25


SHEETS = {"bolsa": 2, "aktsioner": 2, "forex": 4}  # shares, money; big and small cards; contracts, dividends, certificates, money


@pytest.mark.parametrize("paper, game", [
    # the fast lane: For-Ex on A4, cards and bills butted between rows; every game on both papers: slow
    pytest.param(paper, game, marks=() if (paper, game) == ("a4", "forex") else pytest.mark.slow)
    for paper in ("a4", "letter") for game in SHEETS])
def test_no_two_cards_or_bills_of_the_bundled_kit_share_a_cut(paper, game):
    """Measured from the vector drawing: the crop marks of every card and bill sheet (first
    front page of each) give cut lines that pair into pieces of the trim size with a gutter of
    at least twice `INNER_BLEED_MM` between every two pieces — no piece shares a cut with its
    neighbour (For-Ex bills butted between rows, Letter cards in both directions)."""
    from spec_text import laid_out

    checked = 0
    for laid in laid_out(game, kinds=("deck", "money"), paper=paper).laid:  # the card and bill sheets alone
        layout = laid.layout
        page = pdf_pages(layout, 1)[0]
        xs, ys = trims_from_marks(page, layout.grid.frame.content)
        for cuts, size, count in ((xs, laid.output.width, layout.grid.columns.count),
                                  (ys, laid.output.height, layout.grid.rows.count)):
            assert len(cuts) == 2 * count, (game, laid.component.id, cuts)  # two cuts a piece: none shared
            for k in range(count):
                assert cuts[2 * k + 1] - cuts[2 * k] == pytest.approx(size, abs=TOL)
                if k:
                    assert cuts[2 * k] - cuts[2 * k - 1] >= 2 * INNER_BLEED_MM - TOL, (game, laid.component.id)
        checked += 1
    assert checked == SHEETS[game]
