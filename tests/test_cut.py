"""Print and cut (`pnp build --cut silhouette|cricut|dxf`): registration marks on card-stock
sheets, kept clear of every piece, and a cut file per sheet whose paths are the pieces' trims,
measured against the printed PDF relative to the marks, on A4 and Letter."""

from __future__ import annotations

import io
import re
from functools import lru_cache

import ezdxf
import pdfplumber
import pytest

from pnp.build import with_print
from pnp.checks.layout import lay_out_game
from pnp.components.art import text_box, texts, walk
from pnp.display import Line
from pnp.export.cut import sheet_files
from pnp.layout import registration as r
from pnp.layout.sheet import Box
from pnp.render.pdf import pdf_bytes
from spec_text import spec_of

PT = 25.4 / 72
TOLERANCE = 0.05  # mm: a cut path on its trim, as the issue asks


@lru_cache(maxsize=None)  # laid out once, read by every test of that paper and machine
def machine_units(paper: str, machine: str, game: str = "forex"):
    """The print units of a game laid out for a machine: those whose sheets carry marks."""
    spec = with_print(spec_of(), paper=paper, cut=machine)
    return tuple(u for u in lay_out_game(spec, game).units if u.sheets.machine == machine)


def pdf_page(unit, index: int):
    return pdfplumber.open(io.BytesIO(pdf_bytes(unit.pages[index:index + 1]))).pages[0]


def printed_square(page) -> tuple[float, float]:
    """The top-left corner of the printed registration square, read from the PDF."""
    (square,) = [q for q in page.rects if q.get("fill") and abs(q["width"] * PT - r.SQUARE_MM) < 0.01
                 and abs(q["height"] * PT - r.SQUARE_MM) < 0.01]
    return square["x0"] * PT, square["top"] * PT


def cut_marks(page) -> tuple[list[float], list[float]]:
    """The cut lines the crop marks draw: distinct x of the vertical marks, y of the horizontal ones."""
    lines = [q for q in page.lines if abs(q["linewidth"] * PT - 0.15) < 0.01]
    xs = sorted({round(q["x0"] * PT, 3) for q in lines if abs(q["x0"] - q["x1"]) < 1e-6})
    ys = sorted({round(q["top"] * PT, 3) for q in lines if abs(q["top"] - q["bottom"]) < 1e-6})
    return xs, ys


def _path_box(d: str) -> tuple[float, float, float, float]:
    """The box (x, y, w, h) round an SVG path of M, H, V, A and Z commands (the cut files' own)."""
    tokens, xs, ys, x, y, i = d.split(), [], [], 0.0, 0.0, 0
    while i < len(tokens):
        command = tokens[i]
        if command == "M":
            x, y, i = float(tokens[i + 1]), float(tokens[i + 2]), i + 3
        elif command == "H":
            x, i = float(tokens[i + 1]), i + 2
        elif command == "V":
            y, i = float(tokens[i + 1]), i + 2
        elif command == "A":
            x, y, i = float(tokens[i + 6]), float(tokens[i + 7]), i + 8
        else:
            i += 1
            continue
        xs.append(x)
        ys.append(y)
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def svg_shapes(text: str) -> tuple[list[tuple[float, float, float, float]], list[tuple[float, float, float]]]:
    """The cut layer's rectangles, rounded rectangles and polygons (hexagons, octagons) as boxes
    (x, y, w, h), and its circles (cx, cy, r)."""
    layer = text[text.index('<g id="cut"'):]
    rects = [_path_box(d) for d in re.findall(r'<path d="([^"]+)"', layer)]
    for points in re.findall(r'<polygon points="([^"]+)"', layer):
        xs, ys = zip(*(tuple(map(float, p.split(","))) for p in points.split()), strict=True)
        rects.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    circles = [tuple(map(float, c)) for c in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', layer)]
    return rects, circles


def svg_square(text: str) -> tuple[float, float]:
    x, y = re.search(r'<g id="registration"[^>]*><rect x="([\d.]+)" y="([\d.]+)"', text).groups()
    return float(x), float(y)


def near(value: float, candidates: list[float]) -> bool:
    return any(abs(value - c) <= TOLERANCE for c in candidates)


@pytest.mark.parametrize("paper, games", [("a4", ("bolsa",)), pytest.param("a4", ("forex",), marks=pytest.mark.slow),
                                          pytest.param("letter", ("forex", "bolsa"), marks=pytest.mark.slow)],
                         ids=["a4-bolsa", "a4-forex", "letter"])
def test_silhouette_cut_paths_lie_on_the_printed_trims(paper, games):
    """Every rectangle of every Silhouette cut file has its four edges on cut lines the sheet's
    crop marks print, and every circle on a printed cut outline, within 0.05 mm once the file's
    registration square is laid on the printed one; one path per piece on the sheet. The fast
    lane cuts Bolsa's A4 sheets."""
    checked = 0
    for game in games:
        for unit in machine_units(paper, "silhouette", game):
            per = unit.sheets.pages_per_sheet
            files = dict(sheet_files("silhouette", unit.id, unit.sheets.cuts, per))
            for (index, _, _, lines), (name, data) in zip(unit.sheets.cuts, sorted(files.items()), strict=True):
                page, text = pdf_page(unit, index), data.decode()
                (px, py), (sx, sy) = printed_square(page), svg_square(text)
                dx, dy = px - sx, py - sy
                rects, circles = svg_shapes(text)
                assert len(rects) + len(circles) == len([p for p in unit.layout.placed if p.page == index
                                                         and p.side == "front"]) == len(lines)
                xs, ys = cut_marks(page)
                for x, y, w, h in rects:
                    assert near(x + dx, xs) and near(x + w + dx, xs), (name, x, xs)
                    assert near(y + dy, ys) and near(y + h + dy, ys), (name, y, ys)
                outlines = [(c["x0"] * PT, c["top"] * PT, (c["x1"] - c["x0"]) * PT) for c in page.curves
                            if abs(c["linewidth"] * PT - 0.15) < 0.01]
                for cx, cy, radius in circles:
                    assert any(abs(cx - radius + dx - x0) <= TOLERANCE and abs(cy - radius + dy - y0) <= TOLERANCE
                               and abs(2 * radius - d) <= TOLERANCE for x0, y0, d in outlines), (name, cx, cy)
                checked += len(rects) + len(circles)
    assert checked > 80 * len(games)


@pytest.mark.parametrize("paper, games", [("a4", ("bolsa",)), pytest.param("a4", ("forex",), marks=pytest.mark.slow),
                                          pytest.param("letter", ("forex", "bolsa"), marks=pytest.mark.slow)],
                         ids=["a4-bolsa", "a4-forex", "letter"])
@pytest.mark.parametrize("machine", ["silhouette", "cricut"])
def test_no_piece_crop_mark_or_header_reaches_a_keep_out_zone(paper, games, machine):
    """On every machine sheet (fronts): the art of every piece (trim and bleed), every crop mark
    and every text of the header and footer stay out of the marks' keep-out zones, and for
    Cricut every piece lies inside Design Space's print area. The fast lane: Bolsa's A4 sheets."""
    for game in games:
        for unit in machine_units(paper, machine, game):
            reg = unit.layout.registration
            for index, *_ in unit.sheets.cuts:
                page = unit.layout.pages[index]
                trims = [p.trim for p in unit.layout.placed if p.page == index and p.side == "front"]
                assert trims
                for trim in trims:
                    assert reg.area.contains(trim) and not any(z.overlaps(trim.inset(-1.0)) for z in reg.keep_out)
                for _, item in walk(page.items):
                    if isinstance(item, Line) and item.style.width == 0.15:
                        box = Box(min(item.x1, item.x2), min(item.y1, item.y2), abs(item.x2 - item.x1),
                                  abs(item.y2 - item.y1))
                        assert not any(z.overlaps(box, -1e-6) for z in reg.keep_out), (game, unit.id, item)
                for matrix, text in texts(page.items):
                    x0, y0, x1, y1 = text_box(matrix, text)
                    assert not any(z.overlaps(Box(x0, y0, x1 - x0, y1 - y0)) for z in reg.keep_out), text.text


def test_the_marks_are_printed_where_the_docs_say():
    """Silhouette's Type 1 marks: the square `INSET_MM` from the top-left corner, an L in the
    top-right and the bottom-left corners, their outer corners `INSET_MM` in from both edges."""
    for width, height in ((210.0, 297.0), (215.9, 279.4), (297.0, 210.0)):
        reg = r.registration("silhouette", width, height)
        square, *arms = reg.marks
        assert (square.x, square.y, square.w) == (r.INSET_MM, r.INSET_MM, r.SQUARE_MM)
        right = max(a.right for a in arms)
        bottom = max(a.bottom for a in arms)
        assert right == pytest.approx(width - r.INSET_MM) and bottom == pytest.approx(height - r.INSET_MM)
        assert {round(a.w, 3) for a in arms} == {r.ARM_MM, r.THICKNESS_MM}
    cricut = r.registration("cricut", 210.0, 297.0)
    assert cricut.marks == () and (cricut.area.w, cricut.area.h) == r.CRICUT_AREA_MM
    assert cricut.area.x == pytest.approx((210 - r.CRICUT_AREA_MM[0]) / 2)


def test_cricut_files_hold_the_print_area_picture_and_the_trims_inside_it():
    """A Cricut file is Design Space's print area: a 300 dpi picture of it, and the trims
    relative to its corner, each on the sheet's trim within 0.05 mm. Bolsa's first Cricut sheet
    (cards: rectangles), laid out once for this and the keep-out test; only the pages up to that
    sheet are rendered, the file rasterising just its own page."""
    unit = machine_units("a4", "cricut", "bolsa")[0]
    reg = unit.layout.registration
    first = unit.sheets.cuts[0][0]
    pdf = pdf_bytes(unit.pages[:first + 1])
    (name, data), *_ = sheet_files("cricut", unit.id, unit.sheets.cuts[:1], unit.sheets.pages_per_sheet, pdf)
    text = data.decode()
    assert f'width="{reg.area.w:g}mm"' in text and 'id="print"' in text and "data:image/png;base64," in text
    rects, circles = svg_shapes(text)
    trims = [p.trim for p in unit.layout.placed if p.page == first and p.side == "front"]
    assert len(rects) + len(circles) == len(trims) and rects
    for x, y, w, _ in rects:
        assert any(abs(x + reg.area.x - t.x) <= TOLERANCE and abs(y + reg.area.y - t.y) <= TOLERANCE
                   and abs(w - t.w) <= TOLERANCE for t in trims)


def test_dxf_cut_lines_match_the_svg_ones_with_y_up():
    """The DXF of a sheet has its trims on layer CUT and the marks on REGISTRATION, in mm with
    y up: every polyline's corners are the SVG rectangle's, mirrored about the sheet's height."""
    unit = machine_units("a4", "dxf")[0]
    cuts = unit.sheets.cuts[:1]
    (_, data), = sheet_files("dxf", unit.id, cuts, unit.sheets.pages_per_sheet)
    (_, svg_data), = sheet_files("silhouette", unit.id, cuts, unit.sheets.pages_per_sheet)
    doc = ezdxf.read(io.StringIO(data.decode()))
    height = cuts[0][2]
    layers = {e.dxf.layer for e in doc.modelspace()}
    assert layers == {"CUT", "REGISTRATION"}
    shapes = sorted((round(min(x for x, _ in pts), 3), round(height - max(y for _, y in pts), 3))
                    for e in doc.modelspace().query('LWPOLYLINE[layer=="CUT"]')
                    for pts in [[(p[0], p[1]) for p in e.get_points()]])
    circles = sorted((round(c.dxf.center.x - c.dxf.radius, 3), round(height - c.dxf.center.y - c.dxf.radius, 3))
                     for c in doc.modelspace().query('CIRCLE[layer=="CUT"]'))
    rects, svg_circles = svg_shapes(svg_data.decode())
    expected = sorted([(round(x, 3), round(y, 3)) for x, y, _, _ in rects])
    expected_circles = sorted((round(cx - rad, 3), round(cy - rad, 3)) for cx, cy, rad in svg_circles)
    assert shapes == expected and circles == expected_circles and shapes
    bulged = [e for e in doc.modelspace().query('LWPOLYLINE[layer=="CUT"]') if any(p[4] for p in e.get_points())]
    assert len(bulged) == sum(1 for line in cuts[0][3] if line[0] == "rounded")  # quarter circles at the corners


def test_cut_files_are_the_same_bytes_every_time():
    unit = machine_units("a4", "dxf")[0]
    a = sheet_files("dxf", unit.id, unit.sheets.cuts, unit.sheets.pages_per_sheet)
    b = sheet_files("dxf", unit.id, unit.sheets.cuts, unit.sheets.pages_per_sheet)
    assert a == b and all(b"$TDCREATE" in data for _, data in a)
