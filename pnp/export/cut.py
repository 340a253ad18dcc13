"""Cut files for print-and-cut machines: one per card-stock sheet of a build made for a machine
(`pnp build --cut silhouette|cricut|dxf`).

Every path is a piece's trim — a rectangle, a circle, a rounded rectangle, a hexagon or an
octagon, as the piece's `cut` says — in the sheet's own millimetres, so the file and the
printed sheet agree wherever the machine finds the registration marks (`pnp.layout.registration`):

- `silhouette` — an SVG the size of the sheet: a `registration` layer with the marks as printed
  (for reference: Silhouette Studio draws its own, set to the same geometry) and a `cut` layer.
  Silhouette Studio Designer Edition opens SVG.
- `cricut` — an SVG the size of Design Space's Print Then Cut area: a `print` layer holding
  that part of the sheet as a 300 dpi image (Design Space prints it, with its own marks) and
  the `cut` layer on top of it.
- `dxf` — a DXF (ezdxf) in millimetres, y up, with the layers `CUT` and `REGISTRATION`: for
  Silhouette Studio Basic and other cutter software.

Files are named `<unit>-sheet-NN.<svg|dxf>` after the sheet's number in its header. The same
sheet gives the same bytes: numbers are written to the micrometre, and ezdxf's time stamps
and GUIDs are fixed.
"""

from __future__ import annotations

import base64
import io
import math
from pathlib import Path
from typing import Callable, Sequence

from pnp import manifest
from pnp.display import ROUNDED_CUT, cut_polygon
from pnp.layout.impose import CutLine
from pnp.layout.registration import Registration, registration

SUFFIX = {"silhouette": "svg", "cricut": "svg", "dxf": "dxf"}
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
        for name, data in sheet_files(machine, unit, cuts, getattr(sheets, "pages_per_sheet", 1), pdf):
            (folder / name).write_bytes(data)
            entries.append(manifest.file_entry(root, folder / name, game_id, None, SUFFIX[machine], 1))
    return entries


def sheet_files(machine: str, unit: str, cuts: Sequence[tuple[int, float, float, Sequence[CutLine]]],
                pages_per_sheet: int, pdf: bytes | None = None) -> list[tuple[str, bytes]]:
    """The cut file of each front page in `cuts` (see `pnp.layout.impose.cut_lines`), named by
    its sheet's number; `pdf` (the unit's pages) is rasterised for Cricut's print layer."""
    files = []
    rasters = _rasters(pdf, [page for page, *_ in cuts]) if machine == "cricut" and pdf is not None else {}
    for page, width, height, lines in cuts:
        reg = registration(machine, width, height)
        name = f"{unit}-sheet-{page // max(1, pages_per_sheet) + 1:02d}.{SUFFIX[machine]}"
        title = f"{unit} · sheet {page // max(1, pages_per_sheet) + 1} · {machine}"
        if machine == "dxf":
            files.append((name, dxf(reg, lines)))
        else:
            art = _print_layer(rasters[page], reg) if page in rasters else None
            files.append((name, svg(reg, lines, title, art)))
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


def svg(reg: Registration, lines: Sequence[CutLine], title: str, art: bytes | None = None) -> bytes:
    """The cut file as SVG: the whole sheet (Silhouette), or Cricut's print area with `art` (a
    PNG of that area) to print under the cut lines."""
    area = reg.area if reg.machine == "cricut" else None
    width, height = (area.w, area.h) if area else (reg.width, reg.height)
    dx, dy = (-area.x, -area.y) if area else (0.0, 0.0)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
           f'width="{_n(width)}mm" height="{_n(height)}mm" viewBox="0 0 {_n(width)} {_n(height)}">',
           f"<title>{_escape(title)}</title>"]
    if art is not None:
        data = base64.b64encode(art).decode("ascii")
        out.append(f'<g id="print"><image x="0" y="0" width="{_n(width)}" height="{_n(height)}" '
                   f'preserveAspectRatio="none" xlink:href="data:image/png;base64,{data}"/></g>')
    if reg.marks:
        rects = "".join(f'<rect x="{_n(m.x)}" y="{_n(m.y)}" width="{_n(m.w)}" height="{_n(m.h)}"/>' for m in reg.marks)
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


def dxf(reg: Registration, lines: Sequence[CutLine]) -> bytes:
    """The cut file as DXF in millimetres, y up from the sheet's bottom edge."""
    import ezdxf

    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True  # no clock and no random GUIDs: the same bytes
    try:
        doc = ezdxf.new("R2010", setup=False, units=4)  # 4: millimetres
        doc.layers.add("CUT", color=1)
        doc.layers.add("REGISTRATION", color=7)
        space = doc.modelspace()
        height = reg.height

        def up(x: float, y: float) -> tuple[float, float]:
            return (round(x, 4), round(height - y, 4))

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
