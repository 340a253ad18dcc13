"""PDF backend: pages of display items → one vector PDF, with reportlab.

Each page starts with one transform that maps display-list millimetres (origin top-left, y
down) to PDF points (origin bottom-left, y up): x_pt = x·72/25.4, y_pt = H − y·72/25.4. Every
item is then drawn in millimetres as it is, so the geometry here is the geometry of the display
list, and the SVG backend, which draws the same numbers in a viewBox in mm, cannot disagree.
Text and images, which must not appear mirrored, get a local flip at their own origin.

Output is reproducible (reportlab's invariant mode: fixed dates and document ID), fonts are
embedded as subsets, text stays extractable, and the viewer preference PrintScaling /None asks
viewers to print at 100 %. A page that is one piece for a print shop carries its TrimBox and
BleedBox; with `cmyk` every colour is written as CMYK (`cmyk_of`) for shops that print only that.
"""

from __future__ import annotations

import io
import logging
import math
import os
import re
from functools import lru_cache
from typing import TYPE_CHECKING, BinaryIO, NamedTuple, Sequence, Union

from pnp import fonts
from pnp.display import IDENTITY, Circle, Group, Image, Item, Line, Page, Polygon, Rect, Style, Text
from pnp.errors import BuildError, shorten
from pnp.fonts import MM_PER_PT
from pnp.spec.images import MAX_PIXELS

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

PT_PER_MM = 72.0 / 25.4
Target = Union[str, "os.PathLike[str]", BinaryIO]



def write_pdf(pages: Sequence[Page], target: Target, *, title: str = "", subject: str = "",
              cmyk: bool = False, compress: bool = True) -> None:
    """Write `pages` as one PDF to a path or a binary file; same pages → same bytes. Streams
    and fonts are deflated unless `compress` is off: a PDF only handed to the rasteriser in
    memory (`pnp.render.png`) is not worth the time (deflating is a sixth of a cold build).

    Raises `BuildError` if a text item uses a character its font cannot draw.
    """
    from reportlab.pdfgen.canvas import Canvas

    if not pages:
        raise ValueError("a PDF needs at least one page")
    sink = os.fspath(target) if isinstance(target, (str, os.PathLike)) else target
    canvas = Canvas(  # the initial font is ours, so no unembedded Helvetica sneaks in
        sink, invariant=1, pageCompression=int(compress), initialFontName=fonts.register_reportlab("regular")
    )
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setCreator("pnp")
    canvas.setViewerPreference("PrintScaling", "None")
    forms: dict[str, tuple[float, float]] = {}  # SVG art drawn once per document, used by name
    repeated = _repeated(pages)
    for number, page in enumerate(pages, start=1):
        canvas.setPageSize((page.width * PT_PER_MM, page.height * PT_PER_MM))
        canvas.setTrimBox(_box(page.trim, page.height))
        canvas.setBleedBox(_box(page.bleed, page.height))
        canvas.transform(PT_PER_MM, 0, 0, -PT_PER_MM, 0, page.height * PT_PER_MM)
        _Painter(canvas, page.label or f"page {number}", forms, cmyk, repeated).draw_all(page.items)
        canvas.showPage()
    canvas.save()


def prepare() -> None:
    """Import reportlab and register the fonts now: a build does it before forking its render
    workers, which inherit both instead of each importing and parsing them again (a tenth of a
    second of CPU a worker)."""
    import reportlab.pdfgen.canvas  # noqa: F401  # what `write_pdf` imports

    for name in fonts.FONT_FILES:
        fonts.register_reportlab(name)


def _repeated(pages: Sequence[Page]) -> dict[int, str]:
    """The groups' item lists drawn more than once in the document (a card's face on every
    copy of it), by identity, each with the name of the form XObject that draws it once."""
    seen: dict[int, int] = {}

    def visit(items: Sequence[Item]) -> None:
        for item in items:
            if isinstance(item, Group):
                seen[id(item.items)] = seen.get(id(item.items), 0) + 1
                if seen[id(item.items)] == 1:
                    visit(item.items)

    for page in pages:
        visit(page.items)
    return {key: f"pnpg{n}" for n, key in enumerate(k for k, count in seen.items() if count > 1)}


def pdf_bytes(pages: Sequence[Page], *, title: str = "", subject: str = "", cmyk: bool = False,
              compress: bool = True) -> bytes:
    """The PDF `write_pdf` would write, in memory."""
    buffer = io.BytesIO()
    write_pdf(pages, buffer, title=title, subject=subject, cmyk=cmyk, compress=compress)
    return buffer.getvalue()


def _box(box: tuple[float, float, float, float] | None, page_height: float) -> list[float] | None:
    """A box in mm from the top-left as PDF points from the bottom-left: [x0, y0, x1, y1]."""
    if box is None:
        return None
    x, y, w, h = box
    return [round(v * PT_PER_MM, 4) for v in (x, page_height - y - h, x + w, page_height - y)]


def cmyk_of(color: str) -> tuple[float, float, float, float]:
    """"#rrggbb" as CMYK in 0…1 with all the grey in black (full grey-component replacement):
    black prints as black ink alone, and no colour needs more ink than it must. Device
    CMYK, no ICC profile: what a shop's preflight reads as the file's colours."""
    r, g, b = _rgb(color)
    brightest = max(r, g, b)
    if brightest == 0:
        return (0.0, 0.0, 0.0, 1.0)
    c, m, y, k = (round(v, 4) for v in ((brightest - r) / brightest, (brightest - g) / brightest,
                                         (brightest - b) / brightest, 1 - brightest))
    return c, m, y, k


class _Pen(NamedTuple):
    """The graphics state the PDF content stream is in, so unchanged settings are not repeated
    (a tuple: one is made for every shape and text drawn)."""

    fill: str | None = None
    stroke: str | None = None
    width: float | None = None
    dash: tuple[float, ...] = ()
    fill_alpha: float = 1.0
    stroke_alpha: float = 1.0


_UNKNOWN = _Pen("?", "?", -1.0, (-1.0,), -1.0, -1.0)  # a state that any setting differs from
FORM_REACH = 10_000.0  # mm around a form's origin that its bounding box takes in: any piece, any board


class _Painter:
    """Draws display items on a reportlab canvas whose user space is already mm, y down."""

    def __init__(self, canvas, where: str, forms: dict[str, tuple[float, float]], cmyk: bool = False,
                 repeated: dict[int, str] | None = None) -> None:
        self.canvas = canvas
        self.where = where  # names the page in errors
        self.pen = _Pen()
        self.forms = forms
        self.cmyk = cmyk
        self.repeated = repeated or {}  # item lists drawn once as a form XObject, then used by name

    def draw_all(self, items: Sequence[Item]) -> None:
        for item in items:
            self.draw(item)

    def draw(self, item: Item) -> None:
        if isinstance(item, Group):
            self.group(item)
        elif isinstance(item, Text):
            self.text(item)
        elif isinstance(item, Image):
            self.image(item)
        elif isinstance(item, (Rect, Line, Circle, Polygon)):
            self.shape(item)
        else:
            raise TypeError(f"not a display item: {item!r}")

    def shape(self, item: Rect | Line | Circle | Polygon) -> None:
        canvas = self.canvas
        stroke, fill = self.use(item.style)
        if isinstance(item, Rect):
            if item.radius > 0:
                canvas.roundRect(item.x, item.y, item.w, item.h, item.radius, stroke, fill)
            else:
                canvas.rect(item.x, item.y, item.w, item.h, stroke, fill)
        elif isinstance(item, Line):
            if stroke:  # a line has nothing to fill
                canvas.line(item.x1, item.y1, item.x2, item.y2)
        elif isinstance(item, Circle):
            canvas.addLiteral(_circle(item.cx, item.cy, item.r, _paint(canvas, stroke, fill)))
        elif item.points:
            canvas.addLiteral(_polygon(item.points, item.closed, _paint(canvas, stroke, fill)))

    def group(self, group: Group) -> None:
        canvas = self.canvas
        saved = self.pen
        canvas.saveState()
        if group.transform != IDENTITY:
            canvas.transform(*group.transform)
        if group.clip is not None:
            clip = group.clip
            path = canvas.beginPath()
            if clip.radius > 0:
                path.roundRect(clip.x, clip.y, clip.w, clip.h, clip.radius)
            else:
                path.rect(clip.x, clip.y, clip.w, clip.h)
            canvas.clipPath(path, stroke=0, fill=0)
        name = self.repeated.get(id(group.items))
        if name is None:
            self.draw_all(group.items)
        else:
            if name not in self.forms:
                self._define(name, group.items)
            canvas.doForm(name)
        canvas.restoreState()
        self.pen = saved  # Q restored the graphics state the pen describes

    def _define(self, name: str, items: Sequence[Item]) -> None:
        """A form XObject drawing `items` (in the coordinates they are placed in): it sets every
        colour, width and dash it needs, whatever the state it is drawn in."""
        saved, self.pen = self.pen, _UNKNOWN
        self.canvas.beginForm(name, -FORM_REACH, -FORM_REACH, FORM_REACH, FORM_REACH)
        self.draw_all(items)
        self.canvas.endForm()
        self.forms[name] = (0.0, 0.0)
        self.pen = saved

    def text(self, text: Text) -> None:
        if not text.text:
            return
        fonts.check_glyphs(text.text, text.font, self.where)
        name = fonts.register_reportlab(text.font)
        width = fonts.text_width(text.text, text.font, text.size)
        x = text.x - {"start": 0.0, "middle": width / 2, "end": width}[text.anchor]
        if text.outline:  # stroked glyphs, in a saved state: the text render mode outlives the text object
            saved = self.pen
            self.canvas.saveState()
            self.use(Style(stroke=text.color, width=text.outline))
        else:
            self.use(Style(fill=text.color))
        obj = self.canvas.beginText()
        obj.setTextTransform(1, 0, 0, -1, x, text.y)  # upright glyphs in the y-down space
        obj.setFont(name, text.size * MM_PER_PT)
        if text.outline:
            obj.setTextRenderMode(1)
        obj.textOut(text.text)
        self.canvas.drawText(obj)
        if text.outline:
            self.canvas.restoreState()
            self.pen = saved

    def image(self, image: Image) -> None:
        """Rasters become image XObjects (reportlab embeds each distinct one once); SVG art is
        converted by svglib into a form XObject of vector paths, defined once and reused."""
        from reportlab.lib.utils import ImageReader

        canvas = self.canvas
        canvas.saveState()
        canvas.transform(1, 0, 0, -1, image.x, image.y + image.h)
        if image.format == "svg":
            name = f"svg{image.digest[:16]}"
            if name not in self.forms:
                self.forms[name] = _define_form(canvas, name, image)
            width, height = self.forms[name]
            canvas.scale(image.w / width, image.h / height)
            canvas.doForm(name)
        else:
            from PIL import Image as Pillow

            Pillow.MAX_IMAGE_PIXELS = MAX_PIXELS  # Pillow's decompression-bomb limit: the spec's own, for any art
            try:
                reader = ImageReader(io.BytesIO(image.data))
                canvas.drawImage(reader, 0, 0, image.w, image.h, mask="auto")
            except Exception as error:  # reportlab and pillow raise many kinds for a bad file
                raise BuildError(f"{self.where}: cannot draw the image {_named(image)}: {_reason(error)}") from None
        canvas.restoreState()

    def use(self, style: Style) -> tuple[int, int]:
        """Set what `style` needs on the canvas; return (stroke, fill) flags for drawing."""
        canvas, pen = self.canvas, self.pen
        fill, stroke = style.fill, style.stroke
        wanted = _Pen(
            fill or pen.fill,
            stroke or pen.stroke,
            style.width if stroke else pen.width,
            style.dash if stroke else pen.dash,
            style.opacity if fill else pen.fill_alpha,
            style.opacity if stroke else pen.stroke_alpha,
        )
        if wanted == pen:
            return int(stroke is not None), int(fill is not None)
        if wanted.fill is not None and wanted.fill != pen.fill:  # never None then: wanted falls back on pen
            if self.cmyk:
                canvas.setFillColorCMYK(*cmyk_of(wanted.fill))
            else:
                canvas.setFillColorRGB(*_rgb(wanted.fill))
        if wanted.stroke is not None and wanted.stroke != pen.stroke:
            if self.cmyk:
                canvas.setStrokeColorCMYK(*cmyk_of(wanted.stroke))
            else:
                canvas.setStrokeColorRGB(*_rgb(wanted.stroke))
        if wanted.width != pen.width:
            canvas.setLineWidth(wanted.width)
        if wanted.dash != pen.dash:
            canvas.setDash(list(wanted.dash) if wanted.dash else [], 0)
        if wanted.fill_alpha != pen.fill_alpha:
            canvas.setFillAlpha(wanted.fill_alpha)
        if wanted.stroke_alpha != pen.stroke_alpha:
            canvas.setStrokeAlpha(wanted.stroke_alpha)
        self.pen = wanted
        return int(stroke is not None), int(fill is not None)


def _define_form(canvas, name: str, image: Image) -> tuple[float, float]:
    """Draw SVG art into a form XObject at its natural size (points); return that size."""
    from reportlab.graphics import renderPDF

    drawing = _svg_drawing(image)
    canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.endForm()
    return drawing.width, drawing.height


_SVG_PARSED: dict[str, object] = {}  # digest → svglib's drawing of it
SVG_KEPT = 64


def _svg_drawing(image: Image):
    """SVG art parsed by svglib, once a process for each distinct file: every PDF of a build
    (and of every save in `pnp watch`) that shows a logo defines its form again, and parsing
    it was most of that (13 parses, a third of a one-card rebuild of the example game)."""
    from svglib.svglib import svg2rlg

    drawing = _SVG_PARSED.get(image.digest)
    if drawing is not None:
        return drawing
    logging.getLogger("svglib").setLevel(logging.ERROR)  # unsupported bits are skipped, not fatal
    try:
        drawing = svg2rlg(io.BytesIO(image.data))
    except Exception as error:  # svglib raises whatever its parser meets
        raise BuildError(f"cannot draw the SVG image {_named(image)}: {error}") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise BuildError(f"cannot draw the SVG image {_named(image)}: svglib found nothing to draw")
    drawing.initialFontName = fonts.register_reportlab("regular")  # renderPDF's first font: ours, not Helvetica
    if len(_SVG_PARSED) >= SVG_KEPT:
        _SVG_PARSED.clear()
    _SVG_PARSED[image.digest] = drawing
    return drawing


def _named(image: Image) -> str:
    return image.name or f"(SHA-256 {image.digest[:12]}…)"


def _reason(error: Exception) -> str:
    """Why Pillow or reportlab could not draw a raster, in plain words: their messages name
    Python objects (`<_io.BytesIO object at 0x7f…>`), which say nothing to a designer."""
    text = re.sub(r"\bidentity=\[[^\]]*\]\s*", "", str(error))  # reportlab's name for its reader
    text = re.sub(r"<[^<>]*\bat 0x[0-9a-f]+>|\bfileName=\S+", "the file", text).strip()
    return shorten(text or type(error).__name__, 200)


def _rgb(color: str | None) -> tuple[float, float, float]:
    """"#rrggbb" → (r, g, b) in 0…1."""
    assert color is not None
    value = color.lstrip("#")
    if len(value) != 6:
        raise ValueError(f"colours are #rrggbb, not {color!r}")
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


# --- circles and polygons --------------------------------------------------------------------
# Written as reportlab's `Canvas.circle` and `Canvas.drawPath` write them (the same operators and
# numbers, so the same bytes), without a path object per shape or the unit circle's arcs worked
# out again for each: drawn through reportlab, the kits' dots, pips and line-work took a fifth
# of the time their sheets take to render.


def _paint(canvas: Canvas, stroke: int, fill: int) -> str:
    """The operator that strokes and/or fills the path just written."""
    from reportlab.pdfgen.canvas import PATH_OPS

    return str(PATH_OPS[stroke, fill, canvas._fillMode])


@lru_cache(maxsize=1)
def _unit_arcs() -> tuple[tuple[float, ...], ...]:
    """reportlab's four Bézier arcs of a full circle (`pdfgeom.bezierArc`) as (cos θ0, sin θ0,
    then the two control points' and the end's terms) to scale by a radius."""
    k = abs(4.0 / 3.0 * (1.0 - math.cos(math.pi / 4)) / math.sin(math.pi / 4))
    arcs = []
    for i in range(4):
        t0, t1 = i * 90.0 * math.pi / 180.0, (i + 1) * 90.0 * math.pi / 180.0
        c0, s0, c1, s1 = math.cos(t0), math.sin(t0), math.cos(t1), math.sin(t1)
        arcs.append((c0, s0, c0 - k * s0, s0 + k * c0, c1 + k * s1, s1 - k * c1, c1, s1))
    return tuple(arcs)


def _circle(cx: float, cy: float, r: float, paint: str) -> str:
    from reportlab.lib.rl_accel import fp_str

    x1, x2, y1, y2 = cx - r, cx + r, cy + r, cy - r  # as `Canvas.circle` hands them to `bezierArc`
    x, y, rx, ry = (x1 + x2) / 2.0, (y1 + y2) / 2.0, (x2 - x1) / 2.0, (y2 - y1) / 2.0
    arcs = _unit_arcs()
    code = ["n", f"{fp_str(x + rx * arcs[0][0], y - ry * arcs[0][1])} m"]
    code += [f"{fp_str(x + rx * a[2], y - ry * a[3], x + rx * a[4], y - ry * a[5], x + rx * a[6], y - ry * a[7])} c"
             for a in arcs]
    return "\n".join([*code, paint])


def _polygon(points: Sequence[tuple[float, float]], closed: bool, paint: str) -> str:
    from reportlab.lib.rl_accel import fp_str

    code = ["n", f"{fp_str(*points[0])} m", *(f"{fp_str(*point)} l" for point in points[1:])]
    return " ".join([*code, "h"] if closed else code) + "\n" + paint
