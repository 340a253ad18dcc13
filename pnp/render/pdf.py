"""PDF backend: pages of display items → one vector PDF, with reportlab.

Each page starts with one transform that maps display-list millimetres (origin top-left, y
down) to PDF points (origin bottom-left, y up): x_pt = x·72/25.4, y_pt = H − y·72/25.4. Every
item is then drawn in millimetres as it is, so the geometry here is the geometry of the display
list, and the SVG backend, which draws the same numbers in a viewBox in mm, cannot disagree.
Text and images, which must not appear mirrored, get a local flip at their own origin.

Output is reproducible (reportlab's invariant mode: fixed dates and document ID), fonts are
embedded as subsets, text stays extractable, and the viewer preference PrintScaling /None asks
viewers to print at 100 %. A page that is one piece for a print shop carries its TrimBox and
BleedBox. With `pdfx` (a level of `pnp.render.cmyk.LEVELS`) the file is PDF/X for a shop: every
colour, every image (SVG art's too) converted to CMYK through the output profile, which the
catalog's OutputIntent embeds; the level's GTS_PDFXVersion in the Info dictionary (and, for
PDF/X-4, in its XMP metadata); see-through pixels as a colour-key mask, and transparency refused
where the level forbids it.
"""

from __future__ import annotations

import io
import logging
import math
import os
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple, Sequence, Union

from pnp import fonts
from pnp.display import IDENTITY, Circle, Group, Image, Item, Line, Page, Polygon, Rect, Style, Text
from pnp.errors import BuildError, shorten
from pnp.fonts import MM_PER_PT
from pnp.render.cmyk import CONDITION, INK_LIMIT, KEY, LEVELS, Level, cmyk, cmyk_image, profile_bytes
from pnp.render.dispatch import Dispatch
from pnp.render.embed import register_reportlab
from pnp.spec.images import MAX_PIXELS

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

PT_PER_MM = 72.0 / 25.4
Target = Union[str, "os.PathLike[str]", BinaryIO]



def write_pdf(pages: Sequence[Page], target: Target, *, title: str = "", subject: str = "",
              pdfx: str | None = None, compress: bool = True) -> None:
    """Write `pages` as one PDF to a path or a binary file; same pages → same bytes. Streams
    and fonts are deflated unless `compress` is off: a PDF only handed to the rasteriser in
    memory (`pnp.render.png`) is not worth the time (deflating is a sixth of a cold build).
    With `pdfx` ("x1a", "x3" or "x4") the file is PDF/X of that level (see the module).

    Raises `BuildError` if a text item uses a character its font cannot draw, or a PDF/X
    level meets what it forbids.
    """
    if not pages:
        raise ValueError("a PDF needs at least one page")
    sink = os.fspath(target) if isinstance(target, (str, os.PathLike)) else target
    level = LEVELS[pdfx] if pdfx else None
    canvas = _canvas(sink, compress, level)
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setCreator("pnp")
    canvas.setViewerPreference("PrintScaling", "None")
    forms: dict[str, tuple[float, float]] = {}  # SVG art drawn once per document, used by name
    repeated = _repeated(pages)
    for number, page in enumerate(pages, start=1):
        canvas.setPageSize((page.width * PT_PER_MM, page.height * PT_PER_MM))
        canvas.setTrimBox(_box(page.trim, page.width, page.height))
        canvas.setBleedBox(_box(page.bleed, page.width, page.height))
        canvas.transform(PT_PER_MM, 0, 0, -PT_PER_MM, 0, page.height * PT_PER_MM)
        _Painter(canvas, page.label or f"page {number}", forms, repeated).draw_all(page.items)
        canvas.showPage()
    if level is not None:
        _declare(canvas, level, title)
    canvas.save()


def _canvas(sink: str | BinaryIO, compress: bool, level: Level | None) -> Canvas:
    """A reportlab canvas for the file: a plain one, or for PDF/X one that writes every colour
    and image in CMYK through the output profile (`_PdfXCanvas`). Its initial font is ours, so no
    unembedded Helvetica sneaks in."""
    from reportlab.pdfgen.canvas import Canvas

    options = {"invariant": 1, "pageCompression": int(compress), "initialFontName": register_reportlab("regular")}
    if level is None:
        return Canvas(sink, **options)
    return _pdfx_canvas_class()(sink, level, **options)


@lru_cache(maxsize=1)
def _pdfx_canvas_class() -> type:
    """`_PdfXCanvas`, defined once reportlab is imported."""
    from reportlab.lib.colors import CMYKColor, toColor
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    class _PdfXCanvas(Canvas):  # type: ignore[misc]  # reportlab ships no types: its classes are Any
        """A canvas whose every colour is CMYK through the profile (reportlab's colour
        enforcement hook also catches svglib's), whose images are converted likewise, and
        which refuses transparency and gradients the level forbids."""

        def __init__(self, sink: str | BinaryIO, level: Level, **options: object) -> None:
            self.level = level
            super().__init__(sink, pdfVersion=level.pdf_version, enforceColorSpace=self._to_cmyk, **options)

        def _to_cmyk(self, colour: object) -> CMYKColor:
            found = toColor(colour)
            alpha = getattr(found, "alpha", None)
            alpha = None if alpha is None or alpha >= 1 else alpha  # none when opaque: reportlab would set 1, a 1.4 feature
            self._opaque(1.0 if alpha is None else alpha)
            if isinstance(found, CMYKColor):
                c, m, y, k = (v * found.density for v in found.cmyk())
                if (c + m + y + k) * 100 > INK_LIMIT + 1e-6:
                    raise BuildError(f"a CMYK colour of {c + m + y + k:.0%} ink, above the {INK_LIMIT:g} % limit")
                return CMYKColor(c, m, y, k, alpha=alpha)
            r, g, b = (round(v * 255) for v in found.rgb())
            return CMYKColor(*cmyk(f"#{r:02x}{g:02x}{b:02x}"), alpha=alpha)

        def _opaque(self, alpha: float) -> None:
            if alpha < 1 and not self.level.transparency:
                raise BuildError(f"{self.level.version} allows no transparency, and the art is drawn "
                                 f"{alpha:.0%} opaque somewhere: make it opaque, or use --pdfx x4")

        def setFillAlpha(self, alpha: float) -> None:  # noqa: N802  # reportlab's name
            self._opaque(alpha)
            if self.level.transparency:  # else always opaque, as the page starts: nothing to set (a 1.4 feature)
                super().setFillAlpha(alpha)

        def setStrokeAlpha(self, alpha: float) -> None:  # noqa: N802
            self._opaque(alpha)
            if self.level.transparency:
                super().setStrokeAlpha(alpha)

        def linearGradient(self, *args: object, **kwargs: object) -> None:  # noqa: N802
            raise BuildError(f"{self.level.version}: SVG art with a gradient cannot be written in CMYK here; "
                             "flatten the gradient in the art")

        radialGradient = linearGradient

        def drawImage(self, image: object, x: float, y: float, width: float | None = None,  # noqa: N802
                      height: float | None = None, mask: object = None, **options: object) -> object:
            data = image if isinstance(image, bytes) else None
            if data is None:
                raise BuildError(f"{self.level.version}: an image inside SVG art cannot be written in CMYK here; "
                                 "embed it in the spec as its own PNG or JPEG")
            converted, keyed = cmyk_image(data)
            key = [v for v in KEY for _ in range(2)] if keyed else None
            return super().drawImage(ImageReader(converted), x, y, width, height, mask=key, **options)

    return _PdfXCanvas


def _declare(canvas: Canvas, level: Level, title: str) -> None:
    """What makes the file PDF/X: the OutputIntent with the embedded profile in the catalog,
    GTS_PDFXVersion (and conformance) in the Info dictionary, XMP metadata for PDF/X-4."""
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString

    doc = canvas._doc
    icc = PDFStream(PDFDictionary({"N": 4}), profile_bytes(), filters=[pdfdoc.PDFZCompress])
    intent = PDFDictionary({"Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
                            "OutputConditionIdentifier": PDFString(CONDITION.identifier),
                            "OutputCondition": PDFString(CONDITION.info),
                            "RegistryName": PDFString(CONDITION.registry), "Info": PDFString(CONDITION.info),
                            "DestOutputProfile": doc.Reference(icc)})
    catalog = doc.Catalog
    catalog.OutputIntents = PDFArray([intent])
    extra = ["OutputIntents"]
    if level.name == "x4":
        xmp = PDFStream(PDFDictionary({"Type": PDFName("Metadata"), "Subtype": PDFName("XML")}),
                        _xmp(level, title, doc._timeStamp), filters=[])
        catalog.Metadata = doc.Reference(xmp)
    catalog.__NoDefault__ = [*pdfdoc.PDFCatalog.__NoDefault__, *extra]  # the keys reportlab's catalog writes
    info = doc.info
    keys = {"GTS_PDFXVersion": level.version, **({"GTS_PDFXConformance": level.conformance} if level.conformance else {})}
    plain = info.format

    def format_with_version(document: object) -> bytes:
        text: bytes = plain(document)
        added = b"".join(b"/%s %s " % (name.encode(), PDFString(value).format(document)) for name, value in keys.items())
        return text.replace(b"<<", b"<< " + added, 1)

    info.format = format_with_version


def _xmp(level: Level, title: str, stamp: object) -> bytes:
    """PDF/X-4's XMP packet: the version and, matching the Info dictionary, the title, dates,
    producer and trapping."""
    y, mo, d, h, mi, s = stamp.YMDhms  # type: ignore[attr-defined]  # reportlab's TimeStamp
    when = f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z"
    safe = title.replace("&", "&amp;").replace("<", "&lt;")
    return (f'<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
            'xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" '
            'xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">'
            f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{safe}</rdf:li></rdf:Alt></dc:title>'
            f"<xmp:CreateDate>{when}</xmp:CreateDate><xmp:ModifyDate>{when}</xmp:ModifyDate>"
            "<xmp:CreatorTool>pnp</xmp:CreatorTool><pdf:Producer>ReportLab PDF Library - (opensource)</pdf:Producer>"
            f"<pdf:Trapped>False</pdf:Trapped><pdfxid:GTS_PDFXVersion>{level.version}</pdfxid:GTS_PDFXVersion>"
            '</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>').encode("utf-8")


def prepare() -> None:
    """Import reportlab and register the fonts (the spec's the process knows too) now: a build
    does it before forking its render workers, which inherit both instead of each importing and
    parsing them again (a tenth of a second of CPU a worker)."""
    import reportlab.pdfgen.canvas  # noqa: F401  # what `write_pdf` imports

    for name in (*fonts.FONT_FILES, *fonts.added_fonts()):  # the spec's fonts too, their outlines converted once
        register_reportlab(name)


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


def pdf_bytes(pages: Sequence[Page], *, title: str = "", subject: str = "", pdfx: str | None = None,
              compress: bool = True) -> bytes:
    """The PDF `write_pdf` would write, in memory."""
    buffer = io.BytesIO()
    write_pdf(pages, buffer, title=title, subject=subject, pdfx=pdfx, compress=compress)
    return buffer.getvalue()


def _box(box: tuple[float, float, float, float] | None, page_width: float, page_height: float) -> list[float] | None:
    """A box in mm from the top-left as PDF points from the bottom-left: [x0, y0, x1, y1], to
    four decimals and never past the page (a bleed box that is the whole page rounded up past
    the MediaBox reportlab writes to five: 59.5276 against 59.52756)."""
    if box is None:
        return None
    x, y, w, h = box
    limits = (page_width, page_height) * 2
    return [min(round(v * PT_PER_MM, 4), math.floor(limit * PT_PER_MM * 1e4) / 1e4)
            for v, limit in zip((x, page_height - y - h, x + w, page_height - y), limits, strict=True)]


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

    def __init__(self, canvas: Any, where: str, forms: dict[str, tuple[float, float]],
                 repeated: dict[int, str] | None = None) -> None:
        self.canvas = canvas
        self.where = where  # names the page in errors
        self.pen = _Pen()
        self.forms = forms
        self.repeated = repeated or {}  # item lists drawn once as a form XObject, then used by name

    def draw_all(self, items: Sequence[Item]) -> None:
        for item in items:
            _DRAW(self, item)

    def rect(self, item: Rect) -> None:
        stroke, fill = self.use(item.style)
        if item.radius > 0:
            self.canvas.roundRect(item.x, item.y, item.w, item.h, item.radius, stroke, fill)
        else:
            self.canvas.rect(item.x, item.y, item.w, item.h, stroke, fill)

    def line(self, item: Line) -> None:
        stroke, _ = self.use(item.style)
        if stroke:  # a line has nothing to fill
            self.canvas.line(item.x1, item.y1, item.x2, item.y2)

    def circle(self, item: Circle) -> None:
        stroke, fill = self.use(item.style)
        self.canvas.addLiteral(_circle(item.cx, item.cy, item.r, _paint(self.canvas, stroke, fill)))

    def polygon(self, item: Polygon) -> None:
        stroke, fill = self.use(item.style)
        if item.points:
            self.canvas.addLiteral(_polygon(item.points, item.closed, _paint(self.canvas, stroke, fill)))

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
        name = register_reportlab(text.font)
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
                source = image.data if hasattr(canvas, "level") else ImageReader(io.BytesIO(image.data))
                canvas.drawImage(source, 0, 0, image.w, image.h, mask="auto")  # a PDF/X canvas converts the bytes
            except BuildError:
                raise
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
        if wanted != pen:
            _change(canvas, pen, wanted)
            self.pen = wanted
        return int(stroke is not None), int(fill is not None)


_DRAW: Dispatch[_Painter, None] = Dispatch({
    Rect: _Painter.rect, Line: _Painter.line, Polygon: _Painter.polygon, Circle: _Painter.circle,
    Text: _Painter.text, Image: _Painter.image, Group: _Painter.group,
})


def _change(canvas: Canvas, pen: _Pen, wanted: _Pen) -> None:
    """Write to the content stream only the settings `wanted` changes from `pen`."""
    if wanted.fill is not None and wanted.fill != pen.fill:  # never None then: wanted falls back on pen
        canvas.setFillColorRGB(*_rgb(wanted.fill))  # a PDF/X canvas writes it in CMYK
    if wanted.stroke is not None and wanted.stroke != pen.stroke:
        canvas.setStrokeColorRGB(*_rgb(wanted.stroke))
    if wanted.width != pen.width:
        canvas.setLineWidth(wanted.width)
    if wanted.dash != pen.dash:
        canvas.setDash(list(wanted.dash) if wanted.dash else [], 0)
    if wanted.fill_alpha != pen.fill_alpha:
        canvas.setFillAlpha(wanted.fill_alpha)
    if wanted.stroke_alpha != pen.stroke_alpha:
        canvas.setStrokeAlpha(wanted.stroke_alpha)


def _define_form(canvas: Any, name: str, image: Image) -> tuple[float, float]:
    """Draw SVG art into a form XObject at its natural size (points); return that size."""
    from reportlab.graphics import renderPDF

    drawing = _svg_drawing(image)
    canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.endForm()
    return drawing.width, drawing.height


_SVG_PARSED: dict[str, object] = {}  # digest → svglib's drawing of it
SVG_KEPT = 64


def _svg_drawing(image: Image) -> Any:
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
    drawing.initialFontName = register_reportlab("regular")  # renderPDF's first font: ours, not Helvetica
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
