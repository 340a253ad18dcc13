"""Cut files for print-and-cut machines: one per card-stock sheet of a build made for a machine
(`pnp build --cut silhouette|cricut|dxf`).

Every path is a piece's trim — a rectangle, a circle, a rounded rectangle, a hexagon or an
octagon, as the piece's `cut` says — in the sheet's own millimetres, so the file and the
printed sheet agree wherever the machine finds the registration marks (`pnp.layout.registration`):

- `silhouette`, `silhouette4` — an SVG the size of the sheet (of Studio's page, larger than the
  sheet, for marks inset less than 10 mm): a `registration` layer with the marks as printed (for
  reference: Silhouette Studio draws its own, set to the same geometry) and a `cut` layer.
  Silhouette Studio Designer Edition opens SVG.
- `cricut` — an SVG the size of Design Space's Print Then Cut area: a `print` layer holding
  that part of the sheet as a 300 dpi image (Design Space prints it, with its own marks) and
  the `cut` layer on top of it.
- `dxf` — a DXF (ezdxf) in millimetres, y up, with the layers `CUT` and `REGISTRATION`: for
  Silhouette Studio Basic and other cutter software.

Files are named `<unit>-sheet-NN.<svg|dxf>` after the sheet's number in its header, and carry
the sheet's layout code (`registration.layout_code`: the SVG's `data-pnp-layout` attribute and
title, the DXF's `$PNP_LAYOUT` header variable), which `pnp cut check` compares with the code
printed on the sheet. The same sheet gives the same bytes: numbers are written to the
micrometre, and ezdxf's time stamps and GUIDs are fixed.
"""

from __future__ import annotations

import base64
import io
import math
import re
from pathlib import Path
from typing import Callable, Sequence

from pnp import manifest
from pnp.display import ROUNDED_CUT, cut_polygon
from pnp.i18n import _, ngettext
from pnp.layout.impose import CutLine
from pnp.layout.registration import CODE_PATTERN, INSET_MM, Cutter, Registration, layout_code, registration
from pnp.spec.model import Print

SUFFIX = {"silhouette": "svg", "silhouette4": "svg", "cricut": "svg", "dxf": "dxf"}
DXF_CODE = "$PNP_LAYOUT"  # the DXF header variable holding the layout code
CUT_COLOUR = "#ff0000"
CUT_WIDTH_MM = 0.1
CRICUT_DPI = 300
_BULGE = math.tan(math.pi / 8)  # a DXF bulge for a quarter circle


def write_cuts(root: Path, game_id: str, units: Sequence[tuple[str, object, bytes]]) -> list[manifest.FileEntry]:
    """Every cut file of one game's print units — (unit id, its `Sheets`, its PDF) in print
    order — under `root/<game>/cut/`, with their manifest entries."""
    entries: list[manifest.FileEntry] = []
    for unit, sheets, pdf in units:
        machine, cuts = getattr(sheets, "machine", None), getattr(sheets, "cuts", ())
        if not machine or not cuts:
            continue
        folder = root / game_id / "cut"
        folder.mkdir(parents=True, exist_ok=True)
        cutter = Cutter(machine, getattr(sheets, "inset", INSET_MM))
        for name, data in sheet_files(cutter, unit, cuts, getattr(sheets, "pages_per_sheet", 1), pdf):
            (folder / name).write_bytes(data)
            entries.append(manifest.file_entry(root, folder / name, game_id, None, SUFFIX[machine], 1))
    return entries


def sheet_files(cutter: Cutter | str, unit: str, cuts: Sequence[tuple[int, float, float, Sequence[CutLine]]],
                pages_per_sheet: int, pdf: bytes | None = None) -> list[tuple[str, bytes]]:
    """The cut file of each front page in `cuts` (see `pnp.layout.impose.cut_lines`), named by
    its sheet's number; `pdf` (the unit's pages) is rasterised for Cricut's print layer."""
    cutter = Cutter(cutter) if isinstance(cutter, str) else cutter
    machine = cutter.machine
    files = []
    rasters = _rasters(pdf, [page for page, *_ in cuts]) if machine == "cricut" and pdf is not None else {}
    for page, width, height, lines in cuts:
        reg = registration(cutter, width, height)
        code = layout_code(reg, lines) if reg.marks else ""
        name = f"{unit}-sheet-{page // max(1, pages_per_sheet) + 1:02d}.{SUFFIX[machine]}"
        title = f"{unit} · sheet {page // max(1, pages_per_sheet) + 1} · {machine}" + (f" · {code}" if code else "")
        if machine == "dxf":
            files.append((name, dxf(reg, lines, code)))
        else:
            art = _print_layer(rasters[page], reg) if page in rasters else None
            files.append((name, svg(reg, lines, title, art, code)))
    return files


# --- SVG --------------------------------------------------------------------------------------------


def _n(value: float) -> str:
    """A coordinate to the micrometre, without trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def svg_path(line: CutLine, dx: float = 0.0, dy: float = 0.0) -> str:
    """One trim as an SVG element, shifted by (dx, dy)."""
    shape, x, y, w, h = line
    x, y = x + dx, y + dy
    if shape == "circle":
        return f'<circle cx="{_n(x + w / 2)}" cy="{_n(y + h / 2)}" r="{_n(min(w, h) / 2)}"/>'
    if shape in ("hexagon", "octagon"):
        points = " ".join(f"{_n(px)},{_n(py)}" for px, py in cut_polygon(shape, x, y, w, h))
        return f'<polygon points="{points}"/>'
    if shape == "rounded":
        r = ROUNDED_CUT * min(w, h)
        arc = f"A {_n(r)} {_n(r)} 0 0 1"
        return (f'<path d="M {_n(x + r)} {_n(y)} H {_n(x + w - r)} {arc} {_n(x + w)} {_n(y + r)} '
                f'V {_n(y + h - r)} {arc} {_n(x + w - r)} {_n(y + h)} H {_n(x + r)} {arc} {_n(x)} {_n(y + h - r)} '
                f'V {_n(y + r)} {arc} {_n(x + r)} {_n(y)} Z"/>')
    return f'<path d="M {_n(x)} {_n(y)} H {_n(x + w)} V {_n(y + h)} H {_n(x)} Z"/>'


def svg(reg: Registration, lines: Sequence[CutLine], title: str, art: bytes | None = None, code: str = "") -> bytes:
    """The cut file as SVG: Studio's page (the sheet, grown by `Registration.shift` on every
    side), or Cricut's print area with `art` (a PNG of that area) to print under the cut lines;
    `code` is the sheet's layout code."""
    area = reg.area if reg.machine == "cricut" else None
    width, height = (area.w, area.h) if area else reg.virtual_size
    dx, dy = (-area.x, -area.y) if area else (reg.shift, reg.shift)
    layout = f' data-pnp-layout="{code}"' if code else ""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"{layout} '
           f'width="{_n(width)}mm" height="{_n(height)}mm" viewBox="0 0 {_n(width)} {_n(height)}">',
           f"<title>{_escape(title)}</title>"]
    if art is not None:
        data = base64.b64encode(art).decode("ascii")
        out.append(f'<g id="print"><image x="0" y="0" width="{_n(width)}" height="{_n(height)}" '
                   f'preserveAspectRatio="none" xlink:href="data:image/png;base64,{data}"/></g>')
    if reg.marks:
        rects = "".join(f'<rect x="{_n(m.x + dx)}" y="{_n(m.y + dy)}" width="{_n(m.w)}" height="{_n(m.h)}"/>'
                        for m in reg.marks)
        out.append(f'<g id="registration" fill="#000000" stroke="none">{rects}</g>')
    paths = "".join(svg_path(line, dx, dy) for line in lines)
    out.append(f'<g id="cut" fill="none" stroke="{CUT_COLOUR}" stroke-width="{_n(CUT_WIDTH_MM)}">{paths}</g>')
    out.append("</svg>")
    return ("\n".join(out) + "\n").encode("utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _rasters(pdf: bytes, pages: Sequence[int]) -> dict[int, bytes]:
    """Those pages of the PDF as PNGs at `CRICUT_DPI`, the PDF opened once."""
    from pnp.render.png import pages_png

    return dict(zip(pages, pages_png(pdf, [(page, CRICUT_DPI) for page in pages]), strict=True))


def _print_layer(page_png: bytes, reg: Registration) -> bytes:
    """The part of a page (a PNG at `CRICUT_DPI`) inside Cricut's print area, as a PNG."""
    from PIL import Image

    image = Image.open(io.BytesIO(page_png))
    scale = CRICUT_DPI / 25.4
    a = reg.area
    box = (round(a.x * scale), round(a.y * scale), round(a.right * scale), round(a.bottom * scale))
    buffer = io.BytesIO()
    image.crop(box).save(buffer, "PNG", dpi=(CRICUT_DPI, CRICUT_DPI))
    return buffer.getvalue()


# --- DXF --------------------------------------------------------------------------------------------


def dxf(reg: Registration, lines: Sequence[CutLine], code: str = "") -> bytes:
    """The cut file as DXF in millimetres, y up from the bottom edge of Studio's page (the
    sheet, grown by `Registration.shift`), the layout code in the header's `DXF_CODE`."""
    import ezdxf

    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True  # no clock and no random GUIDs: the same bytes
    try:
        doc = ezdxf.new("R2010", setup=False, units=4)  # 4: millimetres
        doc.layers.add("CUT", color=1)
        doc.layers.add("REGISTRATION", color=7)
        if code:
            doc.header.custom_vars.append(DXF_CODE, code)
        space = doc.modelspace()
        height, shift = reg.virtual_size[1], reg.shift

        def up(x: float, y: float) -> tuple[float, float]:
            return (round(x + shift, 4), round(height - y - shift, 4))

        for m in reg.marks:
            corners = [up(m.x, m.y), up(m.right, m.y), up(m.right, m.bottom), up(m.x, m.bottom)]
            space.add_lwpolyline(corners, close=True, dxfattribs={"layer": "REGISTRATION"})
        for shape, x, y, w, h in lines:
            cut = {"layer": "CUT"}
            if shape == "circle":
                space.add_circle(up(x + w / 2, y + h / 2), round(min(w, h) / 2, 4), dxfattribs=cut)
            elif shape in ("hexagon", "octagon"):
                space.add_lwpolyline([up(px, py) for px, py in cut_polygon(shape, x, y, w, h)], close=True, dxfattribs=cut)
            elif shape == "rounded":
                space.add_lwpolyline(_rounded(x, y, w, h, up), format="xyb", close=True, dxfattribs=cut)
            else:
                space.add_lwpolyline([up(x, y), up(x + w, y), up(x + w, y + h), up(x, y + h)], close=True, dxfattribs=cut)
        stream = io.StringIO()
        doc.write(stream)
        return stream.getvalue().encode("utf-8")
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed


def _rounded(x: float, y: float, w: float, h: float,
             up: Callable[[float, float], tuple[float, float]]) -> list[tuple[float, float, float]]:
    """A rounded rectangle's outline as (x, y, bulge) vertices, clockwise on paper: each corner
    a quarter circle."""
    r = ROUNDED_CUT * min(w, h)
    bulge = -_BULGE  # clockwise on paper is counter-clockwise once y points up: arcs turn right
    points = [(x + r, y, 0.0), (x + w - r, y, bulge), (x + w, y + r, 0.0), (x + w, y + h - r, bulge),
              (x + w - r, y + h, 0.0), (x + r, y + h, bulge), (x, y + h - r, 0.0), (x, y + r, bulge)]
    return [(*up(px, py), b) for px, py, b in points]


# --- checking a cut file against its sheet ---------------------------------------------------------


def file_code(path: Path) -> str | None:
    """The layout code a cut file carries (None: it has none, a Cricut file or an older one);
    `BuildError` when it is not a file pnp writes."""
    from pnp.errors import BuildError

    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise BuildError(_("{file}: cannot read it ({why})").format(file=path, why=error.strerror or error)) from None
    if path.suffix.lower() == ".dxf":
        found = re.search(rf"\n\s*9\s*\n\s*\$CUSTOMPROPERTYTAG\s*\n\s*1\s*\n\s*{re.escape(DXF_CODE)}\s*\n\s*9\s*\n"
                          r"\s*\$CUSTOMPROPERTY\s*\n\s*1\s*\n\s*(\S+)", text)
    else:
        found = re.search(r'data-pnp-layout="([^"]+)"', text)
    return found.group(1) if found else None


def sheet_codes(path: Path) -> dict[int, str]:
    """The layout code printed on each page of a PDF of sheets (page number from 1 → code);
    `BuildError` when it cannot be read."""
    import pypdf

    from pnp.errors import BuildError

    try:
        reader = pypdf.PdfReader(path)
        texts = [page.extract_text() or "" for page in reader.pages]
    except (OSError, pypdf.errors.PyPdfError, ValueError) as error:
        raise BuildError(_("{file}: cannot read it as a PDF ({why})").format(file=path, why=error)) from None
    return {number: found.group(0) for number, text in enumerate(texts, 1)
            if (found := CODE_PATTERN.search(text)) is not None}


def check_files(sheet: Path, cut_file: Path) -> tuple[bool, str]:
    """Whether `cut_file` cuts a sheet of `sheet` (a PDF): its layout code is printed on one of
    its pages. The sentence says so, or why not."""
    code, printed = file_code(cut_file), sheet_codes(sheet)
    if code is None:
        return False, _("{cut} carries no layout code (a Cricut file, or one made before pnp printed codes), so "
                        "nothing shows it belongs to {sheet}.").format(cut=cut_file.name, sheet=sheet.name)
    if not printed:
        return False, _("{sheet} has no sheet with registration marks and a layout code (build it with --cut).").format(
            sheet=sheet.name)
    pages = [number for number, found in printed.items() if found == code]
    if pages:
        return True, ngettext("{cut} cuts page {pages} of {sheet} (layout {code}).",
                              "{cut} cuts pages {pages} of {sheet} (layout {code}).", len(pages)).format(
            cut=cut_file.name, pages=", ".join(map(str, pages)), sheet=sheet.name, code=code)
    return False, _("{cut} does not belong to {sheet}: it cuts layout {code}, and the sheets printed {printed}.").format(
        cut=cut_file.name, sheet=sheet.name, code=code, printed=", ".join(sorted(set(printed.values()))))


# --- the cutter's duplex check -------------------------------------------------------------------


def write_calibration(out: Path, cutter: Cutter, settings: Print) -> list[Path]:
    """`pnp build --calibrate MACHINE`: the cutter's duplex check (`pnp.layout.calibration.cutter_check`)
    as a two-page PDF and its cut file, in `out/calibration/`, each written whole or not at all."""
    from pnp import __version__
    from pnp.layout.calibration import cutter_check
    from pnp.layout.sheet import Furniture, frame, stamp
    from pnp.render.pdf import pdf_bytes

    f = frame(settings.paper, settings.margin_mm)
    reg = registration(cutter, f.width, f.height)
    edge = settings.duplex if settings.duplex in ("long", "short") else "long"
    probe = cutter_check(reg.kept_clear(f), reg, edge, settings.back_offset_mm, Furniture("pnp", "", ""), "")
    code = layout_code(reg, probe.circles)
    info = Furniture("pnp", _("cutter's duplex check"), stamp(__version__, code.replace("-", "").lower()))
    check = cutter_check(reg.kept_clear(f), reg, edge, settings.back_offset_mm, info, code)
    folder = out / "calibration"
    folder.mkdir(parents=True, exist_ok=True)
    files = [(f"{cutter.machine}-check.pdf", pdf_bytes([check.front, check.back], title=info.component, subject="pnp"))]
    files += [(name.replace("calibration-sheet-01", f"{cutter.machine}-check"), data) for name, data in
              sheet_files(cutter, "calibration", [(0, f.width, f.height, check.circles)], 2)]
    written = []
    for name, data in files:
        partial = folder / f".{name}.partial"
        partial.write_bytes(data)
        partial.replace(folder / name)
        written.append(folder / name)
    return written
