"""Print and cut (`pnp build --cut silhouette|silhouette4|cricut|dxf`, `--inset`): registration
marks on card-stock sheets where the docs say, kept clear of every piece, a cut file per sheet
whose paths are the pieces' trims, measured against the printed PDF relative to the marks, on
A4 and Letter; and the layout code that ties a cut file to its sheet."""

from __future__ import annotations

import io
import re
from functools import lru_cache

import ezdxf
import pdfplumber
import pytest

from pnp.build import with_print
from pnp.checks.layout import lay_out_game
from pnp.cli import main
from pnp.components.art import text_box, texts, walk
from pnp.display import Line, apply
from pnp.export.cut import file_code, sheet_codes, sheet_files
from pnp.layout import registration as r
from pnp.layout.sheet import Box
from pnp.render.pdf import pdf_bytes
from spec_text import BUNDLED, edit, spec_of

PT = 25.4 / 72
TOLERANCE = 0.01  # mm: a cut path on its trim, a mark where the docs put it


@lru_cache(maxsize=None)  # laid out once, read by every test of that paper and machine
def machine_units(paper: str, machine: str, game: str = "forex", inset: float = 10.0):
    """The print units of a game laid out for a machine: those whose sheets carry marks."""
    spec = with_print(spec_of(), paper=paper, cut=machine, cut_inset_mm=inset)
    return tuple(u for u in lay_out_game(spec, game).units if u.sheets.machine == machine)


def pdf_page(unit, index: int):
    return pdfplumber.open(io.BytesIO(pdf_bytes(unit.pages[index:index + 1]))).pages[0]


def printed_marks(page) -> list[tuple[float, float, float, float]]:
    """The registration marks printed on a page as (x0, y0, x1, y1) in mm from its top-left:
    its filled black rectangles a line thick, or a square and a line wide, within 30 mm of a
    paper corner."""
    w, h = page.width * PT, page.height * PT
    found = []
    for q in page.rects:
        x0, y0, x1, y1 = (q["x0"] * PT, q["top"] * PT, q["x1"] * PT, q["bottom"] * PT)
        sizes = sorted((x1 - x0, y1 - y0))
        mark = abs(sizes[0] - r.THICKNESS_MM) < 1e-3 or abs(sizes[0] - r.SQUARE_MM - r.THICKNESS_MM) < 1e-3
        cornered = min(x0, w - x1) < 30 and min(y0, h - y1) < 30
        if q.get("fill") and tuple(q.get("non_stroking_color") or ()) in ((0, 0, 0), (0,)) and mark and cornered:
            found.append(tuple(round(v, 4) for v in (x0, y0, x1, y1)))
    return sorted(found)


def printed_square(page) -> tuple[float, float]:
    """The nominal corner of the top-left mark (the square's, or the L's), read from the PDF: the
    top-left mark's outer corner, half a line further in."""
    x0, y0, *_ = min(printed_marks(page))
    return x0 + r.THICKNESS_MM / 2, y0 + r.THICKNESS_MM / 2


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
    """The nominal corner of the top-left mark in a cut file (its first rectangle's corner, half a
    line in)."""
    x, y = re.search(r'<g id="registration"[^>]*><rect x="([\d.]+)" y="([\d.]+)"', text).groups()
    return float(x) + r.THICKNESS_MM / 2, float(y) + r.THICKNESS_MM / 2


def near(value: float, candidates: list[float]) -> bool:
    return any(abs(value - c) <= TOLERANCE for c in candidates)


PATTERNS = [("silhouette", 10.0), ("silhouette4", 10.0), ("silhouette4", 3.0)]
SHEETS = [("silhouette", 10.0), pytest.param("silhouette4", 10.0, marks=pytest.mark.slow), ("silhouette4", 3.0)]
# the fast lane reads the sheets of Type 1 marks and of four marks at 3 mm; four marks at 10 mm in the slow lane


@pytest.mark.parametrize("machine, inset", SHEETS, ids=["type1", "four", "four-inset3"])
@pytest.mark.parametrize("paper, games", [("a4", ("bolsa",)), pytest.param("a4", ("forex",), marks=pytest.mark.slow),
                                          pytest.param("letter", ("forex", "bolsa"), marks=pytest.mark.slow)],
                         ids=["a4-bolsa", "a4-forex", "letter"])
def test_cut_paths_lie_on_the_printed_trims(paper, games, machine, inset):
    """Every rectangle of every Silhouette cut file has its four edges on cut lines the sheet's
    crop marks print, and every circle on a printed cut outline, within 0.01 mm once the file's
    top-left mark is laid on the printed one (a borderless file's page is larger than the sheet:
    the offset takes that in); one path per piece on the sheet. Type 1 and four marks, inset 10
    and 3 mm; the fast lane cuts Bolsa's A4 sheets."""
    checked = missing = 0
    for game in games:
        for unit in machine_units(paper, machine, game, inset):
            per = unit.sheets.pages_per_sheet
            files = dict(sheet_files(r.Cutter(machine, inset), unit.id, unit.sheets.cuts, per))
            for (index, _, _, lines), (name, data) in zip(unit.sheets.cuts, sorted(files.items()), strict=True):
                page, text = pdf_page(unit, index), data.decode()
                (px, py), (sx, sy) = printed_square(page), svg_square(text)
                assert (sx - px, sy - py) == pytest.approx((r.INSET_MM - inset,) * 2, abs=1e-6)
                dx, dy = px - sx, py - sy
                rects, circles = svg_shapes(text)
                assert len(rects) + len(circles) == len([p for p in unit.layout.placed if p.page == index
                                                         and p.side == "front"]) == len(lines)
                xs, ys = cut_marks(page)
                trims = [p.trim for p in unit.layout.placed if p.page == index and p.side == "front"]
                for x, y, w, h in rects:
                    edges = [(x + dx, xs), (x + w + dx, xs), (y + dy, ys), (y + h + dy, ys)]
                    unmarked = [edge for edge, printed in edges if not near(edge, printed)]
                    assert any(abs(t.x - x - dx) <= TOLERANCE and abs(t.y - y - dy) <= TOLERANCE for t in trims)
                    assert len(unmarked) <= 1 and all(_at_a_mark(edge, unit.layout.registration) for edge in unmarked), \
                        (name, x, y, unmarked)
                    missing += len(unmarked)
                outlines = [(c["x0"] * PT, c["top"] * PT, (c["x1"] - c["x0"]) * PT) for c in page.curves
                            if abs(c["linewidth"] * PT - 0.15) < 0.01]
                for cx, cy, radius in circles:
                    assert any(abs(cx - radius + dx - x0) <= TOLERANCE and abs(cy - radius + dy - y0) <= TOLERANCE
                               and abs(2 * radius - d) <= TOLERANCE for x0, y0, d in outlines), (name, cx, cy)
                checked += len(rects) + len(circles)
    assert checked > 80 * len(games) and missing <= 4 * checked * 0.2  # of the edges, most shown by crop marks


def _at_a_mark(edge: float, reg) -> bool:
    """Whether a cut line at `edge` (x or y) runs into a mark's keep-out near its corner, where
    the crop marks that would show it are left out (nothing is printed near a mark)."""
    return any(min(abs(edge - v) for v in (z.x, z.right, z.y, z.bottom)) < z.w + z.h for z in reg.keep_out)


@pytest.mark.parametrize("paper, games", [("a4", ("bolsa",)), pytest.param("a4", ("forex",), marks=pytest.mark.slow),
                                          pytest.param("letter", ("forex", "bolsa"), marks=pytest.mark.slow)],
                         ids=["a4-bolsa", "a4-forex", "letter"])
@pytest.mark.parametrize("machine, inset", [*SHEETS, ("cricut", 10.0)], ids=["type1", "four", "four-inset3", "cricut"])
def test_no_piece_crop_mark_or_header_reaches_a_keep_out_zone(paper, games, machine, inset):
    """On every machine sheet (fronts): the art of every piece (trim and bleed), every crop mark
    and every text of the header and footer stay out of the marks' keep-out zones, and for
    Cricut every piece lies inside Design Space's print area. The fast lane: Bolsa's A4 sheets."""
    for game in games:
        for unit in machine_units(paper, machine, game, inset):
            reg = unit.layout.registration
            for index, *_ in unit.sheets.cuts:
                page = unit.layout.pages[index]
                trims = [p.trim for p in unit.layout.placed if p.page == index and p.side == "front"]
                assert trims
                for trim in trims:
                    assert reg.area.contains(trim) and not any(z.overlaps(trim.inset(-1.0)) for z in reg.keep_out)
                for matrix, item in walk(page.items):
                    if isinstance(item, Line) and item.style.width == 0.15:
                        (x1, y1), (x2, y2) = apply(matrix, (item.x1, item.y1)), apply(matrix, (item.x2, item.y2))
                        box = Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
                        assert not any(z.overlaps(box, -1e-6) for z in reg.keep_out), (game, unit.id, item)
                for matrix, text in texts(page.items):
                    x0, y0, x1, y1 = text_box(matrix, text)
                    assert not any(z.overlaps(Box(x0, y0, x1 - x0, y1 - y0)) for z in reg.keep_out), text.text


def documented_marks(machine: str, inset: float, width: float, height: float) -> list[tuple[float, ...]]:
    """The marks as docs/cutting.md draws them, worked out here from its table: a line 0.5 mm
    thick centred on each mark's nominal outline; the Type 1 square 5 mm nominal at (inset,
    inset), an L's arms `arm` long from its corner point (inset from both edges), reaching half a
    line beyond it; arms of 10 mm at a 10 mm inset, 5 mm below it."""
    t, arm = 0.5, 10.0 if inset >= 10 else 5.0
    boxes = []
    corners = {"tl": (inset, inset, 1, 1), "tr": (width - inset, inset, -1, 1), "bl": (inset, height - inset, 1, -1),
               "br": (width - inset, height - inset, -1, -1)}
    names = ("tr", "bl") if machine == "silhouette" else ("tl", "tr", "bl", "br")
    if machine == "silhouette":
        boxes.append((inset - t / 2, inset - t / 2, inset + 5 + t / 2, inset + 5 + t / 2))
    for name in names:
        cx, cy, sx, sy = corners[name]
        along_x = sorted((cx - sx * t / 2, cx + sx * arm))
        along_y = sorted((cy - sy * t / 2, cy + sy * arm))
        boxes += [(along_x[0], cy - t / 2, along_x[1], cy + t / 2), (cx - t / 2, along_y[0], cx + t / 2, along_y[1])]
    return sorted(boxes)


@pytest.mark.parametrize("machine, inset", PATTERNS, ids=["type1", "four", "four-inset3"])
def test_the_marks_are_printed_where_the_docs_say(machine, inset):
    """The marks read back from a rendered sheet (the first machine sheet of Bolsa, A4) are the
    documented geometry within 0.01 mm, and so are those on Letter and on a landscape A4 sheet
    (from the geometry's own boxes)."""
    unit = machine_units("a4", machine, "bolsa", inset)[0]
    index = unit.sheets.cuts[0][0]
    page = pdf_page(unit, index)
    width, height = page.width * PT, page.height * PT
    expected = documented_marks(machine, inset, width, height)
    printed = printed_marks(page)
    assert len(printed) == len(expected) == (5 if machine == "silhouette" else 8)
    for got, want in zip(printed, expected, strict=True):
        assert got == pytest.approx(want, abs=TOLERANCE), (got, want)
    for width, height in ((215.9, 279.4), (297.0, 210.0)):
        reg = r.registration(r.Cutter(machine, inset), width, height)
        boxes = sorted((m.x, m.y, m.right, m.bottom) for m in reg.marks)
        for got, want in zip(boxes, documented_marks(machine, inset, width, height), strict=True):
            assert got == pytest.approx(want, abs=1e-9)
    cricut = r.registration("cricut", 210.0, 297.0)
    assert cricut.marks == () and (cricut.area.w, cricut.area.h) == r.CRICUT_AREA_MM
    assert cricut.area.x == pytest.approx((210 - r.CRICUT_AREA_MM[0]) / 2)


def test_a_3_mm_inset_gains_pieces_and_the_print_plan_says_how_many():
    """Bolsa's 90 share cards: 6 a sheet with Type 1 marks at 10 mm (three corner slots lost),
    9 with four marks at 3 mm, as at home; the print plan says 3 more a sheet, and the page size
    to set in Studio (A4 grown by 2 × 7 mm)."""
    from pnp.layout.instructions import machine_step
    from pnp.printfile import print_plan

    usual = [u for u in machine_units("a4", "silhouette", "bolsa") if u.id == "shares"][0]
    tight = [u for u in machine_units("a4", "silhouette4", "bolsa", 3.0) if u.id == "shares"][0]
    assert usual.layout.grid.per_page == 6 and tight.layout.grid.per_page == 9
    assert len(usual.sheets.sheets) == 15 and len(tight.sheets.sheets) == 10
    assert tight.sheets.gain == 3 and usual.sheets.gain == 0
    (job,) = [j for j in print_plan([tight]) if j.machine]
    said = machine_step(4, [job], "a4")
    assert "224 × 311 mm" in said and ": 3 more a sheet" in said


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


# --- the layout code: a cut file belongs to its sheet ------------------------------------------------


def _shares(paper: str, machine: str, inset: float, text: str = BUNDLED):
    spec = with_print(spec_of(text), paper=paper, cut=machine, cut_inset_mm=inset)
    return next(u for u in lay_out_game(spec, "bolsa").units if "shares" in u.ids)


def _sheet_and_file(tmp_path, unit, tag: str, machine: str = "silhouette", inset: float = 10.0):
    """The unit's first machine sheet as a one-page PDF, and its cut file, written under `tmp_path`."""
    index = unit.sheets.cuts[0][0]
    pdf = tmp_path / f"{tag}.pdf"
    pdf.write_bytes(pdf_bytes(unit.pages[index:index + 1]))
    (name, data), *_ = sheet_files(r.Cutter(machine, inset), unit.id, unit.sheets.cuts[:1], unit.sheets.pages_per_sheet)
    cut = tmp_path / f"{tag}-{name}"
    cut.write_bytes(data)
    return pdf, cut


def test_a_cut_file_is_accepted_by_its_own_sheet_and_a_reprint_and_refused_by_another_layout(tmp_path, capsys):
    """The code printed beside the marks is the one the cut file carries: `pnp cut check` accepts
    the sheet's own file (exit 0), and a reprint of the sheet after its text changed (same
    marks, same trims: same code); it refuses, in one sentence (exit 1), the file of the same
    cards laid out with four marks at 3 mm, and of Letter paper."""
    own = machine_units("a4", "silhouette", "bolsa")
    shares = next(u for u in own if u.id == "shares")
    sheet, cut = _sheet_and_file(tmp_path, shares, "own")
    reprint = _shares("a4", "silhouette", 10.0, edit("subtitle: Share\n", "subtitle: Share certificate\n"))
    assert reprint.sheets.stamp != shares.sheets.stamp  # its art changed …
    reprinted, _ = _sheet_and_file(tmp_path, reprint, "reprint")
    other = next(u for u in machine_units("a4", "silhouette4", "bolsa", 3.0) if u.id == "shares")
    other_sheet, other_cut = _sheet_and_file(tmp_path, other, "other", "silhouette4", 3.0)
    letter_sheet, letter_cut = _sheet_and_file(tmp_path, _shares("letter", "silhouette", 10.0), "letter")
    code = re.search(r'data-pnp-layout="([^"]+)"', cut.read_text()).group(1)
    assert r.CODE_PATTERN.fullmatch(code) and sheet_codes(sheet) == {1: code}
    assert main(["cut", "check", str(sheet), str(cut)]) == 0
    assert main(["cut", "check", str(reprinted), str(cut)]) == 0  # … its code did not
    assert code in capsys.readouterr().out
    for printed, wrong in ((sheet, other_cut), (other_sheet, cut), (letter_sheet, cut), (sheet, letter_cut)):
        assert main(["cut", "check", str(printed), str(wrong)]) == 1
        said = capsys.readouterr().err.strip()
        assert "\n" not in said and ". " not in said and said.endswith(".") and "does not belong to" in said
    codes = {re.search(r'data-pnp-layout="([^"]+)"', f.read_text()).group(1) for f in (cut, other_cut, letter_cut)}
    assert len(codes) == 3


def test_dxf_files_carry_the_code_too(tmp_path):
    unit = machine_units("a4", "dxf")[0]
    (_, data), = sheet_files("dxf", unit.id, unit.sheets.cuts[:1], unit.sheets.pages_per_sheet)
    (_, svg_data), = sheet_files("silhouette", unit.id, unit.sheets.cuts[:1], unit.sheets.pages_per_sheet)
    doc = ezdxf.read(io.StringIO(data.decode()))
    path = tmp_path / "sheet.dxf"
    path.write_bytes(data)
    assert dict(doc.header.custom_vars)["$PNP_LAYOUT"] == file_code(path)
    assert f'data-pnp-layout="{file_code(path)}"' in svg_data.decode()  # the same marks and trims: the same code
