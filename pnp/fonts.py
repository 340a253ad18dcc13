"""The fonts and their metrics: one source of truth for measuring and for drawing.

Text fitting (`pnp.layout.text`) measures with exactly the advance widths the PDF backend
draws with, so a line measured to fit is a line that fits on paper. The bundled fonts are
package data (DejaVu Sans, regular and bold), read through `importlib.resources`, so `pip
install .` is all a user needs and no system font is ever consulted. A spec may name fonts of
its own (`fonts:` of a game, TTF or OTF files in its folder): `add_font` makes the bytes of
such a file a logical font like the bundled ones, named by their digest (`font-…`), so a text
item says which font it is set in by content, the same in every process and every build.
OpenType files with PostScript (CFF) outlines are converted to TrueType outlines for drawing
(their metrics are the file's own); the PDF backend registers every font with reportlab and
embeds a subset of each (`pnp.render.embed`), and `subset` cuts one for an SVG page. Nothing
here imports reportlab: `pnp validate` and the referee never load it.

Vertical metrics come from the font's `hhea` table (ascender 0.928 em, descender 0.236 em for
DejaVu Sans) rather than the typographic ones reportlab reports (0.76 / 0.24): the `hhea` box
holds accented capitals such as "Á" and descenders, so text fitted to it never pokes out of its
box, and centring that box centres capitals and digits optically.
"""

from __future__ import annotations

import hashlib
import io
import re
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from typing import Any

from pnp.errors import BuildError, shorten

MM_PER_PT = 25.4 / 72.0

# logical name → (file in pnp/data/fonts, name the font is registered under in reportlab)
FONT_FILES: dict[str, tuple[str, str]] = {
    "regular": ("DejaVuSans.ttf", "DejaVuSans"),
    "bold": ("DejaVuSans-Bold.ttf", "DejaVuSans-Bold"),
}
FAMILY = "DejaVu Sans"  # the family name SVG viewers look for
ADDED_PREFIX = "font-"  # logical names of the spec's fonts: "font-<digest>", "font-<digest>+<bold's digest>"
WIDTHS_KEPT = 100_000  # texts whose width a font remembers (a few MB at most, for a long `pnp watch`)


@dataclass(frozen=True)
class Font:
    """One font's metrics in em units (fractions of the point size)."""

    name: str  # logical name: "regular" | "bold" | "font-…" (a spec's)
    postscript_name: str  # what reportlab and PDF readers call it
    ascent: float  # above the baseline, positive
    descent: float  # below the baseline, positive
    advances: dict[int, float] = field(repr=False, compare=False)  # code point → advance, em
    widths: dict[str, float] = field(default_factory=dict, repr=False, compare=False)  # text → its width, em
    family: str = FAMILY  # the family name in the font, as messages and SVG name it
    bold: str = "bold"  # the logical font `**…**` switches to in text set in this one
    label: str = ""  # what messages call it: the bundled font's weight, a spec font's file

    @property
    def file(self) -> str:
        """The logical name of the font file it is set in (a pair's regular one)."""
        return file_part(self.name)

    @property
    def added(self) -> bool:
        """Whether it is a spec's font (`add_font`), not a bundled one."""
        return self.name.startswith(ADDED_PREFIX)

    def has_glyph(self, char: str) -> bool:
        return ord(char) in self.advances

    def width(self, text: str, size: float) -> float:
        """Advance width of `text` at `size` pt, in mm (no kerning: reportlab draws none). Each
        text's sum of advances is kept (up to `WIDTHS_KEPT`): text fitting measures the same
        words at every size it tries, in every box and every language of a kit."""
        em = self.widths.get(text)
        if em is None:
            advances = self.advances
            try:
                em = sum(advances[ord(char)] for char in text)
            except KeyError:
                raise missing_glyph_error(text, missing_glyphs(text, self.name), self.name) from None
            if len(self.widths) < WIDTHS_KEPT:
                self.widths[text] = em
        return em * size * MM_PER_PT


def font_bytes(name: str) -> bytes:
    """The TrueType file of a logical font: read from the package data, or a spec's font
    as `add_font` took it, with TrueType outlines (what the PDF embeds)."""
    added = _ADDED.get(file_part(name))
    if added is not None:
        return _truetype(added[0])
    filename, _ = _entry(name)
    return files("pnp").joinpath("data").joinpath("fonts").joinpath(filename).read_bytes()


@lru_cache(maxsize=None)
def font(name: str) -> Font:
    """The metrics of a logical font ("regular", "bold", or one `add_font` made), loaded once.
    They are read with fontTools, equal to reportlab's (a test checks it), so laying out text —
    and `pnp validate`, which lays out every component — needs no reportlab."""
    added = _ADDED.get(file_part(name))
    if added is None:
        _, postscript_name = _entry(name)
        ascent, descent, advances = _metrics(font_bytes(name))
        return Font(name, postscript_name, ascent, descent, advances, label=name)
    data, label = added
    ascent, descent, advances = _metrics(data)  # the same in the file as drawn: only the outlines are converted
    family, postscript_name = _names(data)
    bold = name.split("+", 1)[1] if "+" in name else name  # a spec font without a bold one stays itself in **…**
    return Font(name, postscript_name, ascent, descent, advances, family=family, bold=bold, label=label)


def add_font(data: bytes, label: str) -> str:
    """The logical name of a spec's font file (TTF or OTF, checked by `font_problem`), made
    drawable: "font-" and the digest of its bytes, so the same file is one font however many
    names a spec gives it. `label` (the file as the spec names it) is what messages call it."""
    name = ADDED_PREFIX + hashlib.sha256(data).hexdigest()[:16]
    if name not in _ADDED:
        _ADDED[name] = (data, label)
    return name


def with_bold(name: str, bold: str) -> str:
    """The logical font set in `name` whose `**…**` runs are set in `bold` (both `add_font`'s)."""
    return f"{name}+{bold}" if bold != name else name


def font_problem(data: bytes) -> str:
    """Why `data` is no font pnp can set text in ("" when it is one): not a TrueType or
    OpenType file, damaged, or without the tables text needs (a Unicode character map,
    metrics, outlines)."""
    from fontTools.ttLib import TTFont, TTLibError

    if data[:4] not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
        return "not a TrueType or OpenType font (.ttf, .otf)"
    try:
        face = TTFont(io.BytesIO(data), lazy=True)
        missing = [tag for tag in ("head", "hhea", "hmtx", "cmap", "name") if tag not in face]
        if missing or ("glyf" not in face and "CFF " not in face):
            return f"a damaged font: without its {', '.join(missing) or 'outlines'}"
        if face.getBestCmap() is None:
            return "a font with no Unicode character map: text cannot be set in it"
        _metrics(data)
        _names(data)
    except (TTLibError, KeyError, ValueError, AssertionError, struct.error) as error:
        return f"a damaged font ({shorten(str(error), 80)})"
    return ""


def text_width(text: str, font_name: str, size: float) -> float:
    """Width in mm of one line of `text` in a logical font at `size` pt."""
    return font(font_name).width(text, size)


@lru_cache(maxsize=65536)
def missing_glyphs(text: str, font_name: str) -> tuple[str, ...]:
    """The distinct characters of `text` the font cannot draw, in order of appearance
    (remembered: every text is checked when it is fitted and again when it is drawn)."""
    face = font(font_name)
    return tuple(dict.fromkeys(char for char in text if not face.has_glyph(char)))


def check_glyphs(text: str, font_name: str, what: str = "") -> None:
    """Raise `BuildError` naming the text and the character if the font lacks a glyph.

    Line breaks are not glyphs: callers pass text already split into lines.
    """
    missing = missing_glyphs(text, font_name)
    if missing:
        raise missing_glyph_error(text, missing, font_name, what)


def missing_glyph_error(
    text: str, missing: tuple[str, ...], font_name: str, what: str = "", at: tuple[Any, ...] = ()
) -> BuildError:
    """The error for `text` (as the user wrote it) needing characters the font lacks (`at`: the
    field that sets it in that font, when the generator knows it)."""
    chars = ", ".join(f"U+{ord(char):04X} {char!r}" for char in missing)
    where = f"{what}: " if what else ""
    face = font(font_name)
    return BuildError(f"{where}text {shorten(text)!r} uses {chars}, which font {face.family} ({face.label}) cannot "
                      "draw", text=text, at=at)


_ADDED: dict[str, tuple[bytes, str]] = {}  # a spec font's logical name → its file's bytes and name


def file_part(name: str) -> str:
    """The logical name of the file a (paired) logical font is set in."""
    return name.split("+", 1)[0]


def subset(name: str, text: str) -> bytes:
    """The font file of a logical font cut down to the characters of `text` (and what shaping
    them needs), with TrueType outlines: what an SVG page embeds of a spec's font. The same
    font and text give the same bytes (no time stamp is set)."""
    import logging

    from fontTools import subset as subsetter
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # tables it drops are no news
    face = TTFont(io.BytesIO(font_bytes(name)), recalcTimestamp=False)
    options = subsetter.Options()
    options.layout_features, options.name_IDs, options.notdef_outline = [], [1, 2, 6], True
    cut = subsetter.Subsetter(options)
    cut.populate(text="".join(sorted(set(text))))
    cut.subset(face)
    out = io.BytesIO()
    face.save(out)
    return out.getvalue()


def added_fonts() -> tuple[str, ...]:
    """The logical names of the spec fonts this process knows (rendering registers them)."""
    return tuple(_ADDED)


def _entry(name: str) -> tuple[str, str]:
    try:
        return FONT_FILES[name]
    except KeyError:
        known = ", ".join(FONT_FILES)
        raise BuildError(f"unknown font {name!r} (known: {known})") from None


def _names(data: bytes) -> tuple[str, str]:
    """The family name and the postscript name a font file gives itself (the postscript one
    kept to what a PDF name may hold; made from the family when the file has none)."""
    from fontTools.ttLib import TTFont

    table = TTFont(io.BytesIO(data), lazy=True)["name"]
    family = (table.getBestFamilyName() or "").strip() or "Unnamed"
    postscript = (table.getDebugName(6) or family).strip()
    return family, re.sub(r"[^A-Za-z0-9_.-]", "", postscript)[:63] or "Unnamed"


@lru_cache(maxsize=8)
def _truetype(data: bytes) -> bytes:
    """The font with TrueType outlines: as it is, or an OpenType file's PostScript (CFF) outlines
    converted to quadratic curves (within a thousandth of an em), which reportlab can embed —
    once a process, when it is first drawn (a second or more for a large font; its metrics,
    all that laying out and `pnp validate` read, are the file's own)."""
    if not data.startswith(b"OTTO"):
        return data
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    face = TTFont(io.BytesIO(data))
    order = face.getGlyphOrder()
    glyphs = face.getGlyphSet()
    error = face["head"].unitsPerEm / 1000
    outlines = {}
    for glyph_name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[glyph_name].draw(Cu2QuPen(pen, error, reverse_direction=True))
        outlines[glyph_name] = pen.glyph()
    face["loca"] = newTable("loca")
    face["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, outlines
    del face["CFF "]
    if "VORG" in face:
        del face["VORG"]
    glyf.compile(face)  # works out each glyph's bounds, which the left side bearings follow
    metrics = face["hmtx"].metrics
    for glyph_name, outline in outlines.items():
        metrics[glyph_name] = (metrics[glyph_name][0], getattr(outline, "xMin", 0))
    maxp = face["maxp"]  # fontTools' otf2ttf recipe: the TrueType profile, with no hinting
    maxp.tableVersion, maxp.maxZones, maxp.maxTwilightPoints, maxp.maxStorage = 0x00010000, 1, 0, 0
    maxp.maxFunctionDefs = maxp.maxInstructionDefs = maxp.maxStackElements = maxp.maxSizeOfInstructions = 0
    maxp.maxComponentElements = max((len(getattr(g, "components", ())) for g in outlines.values()), default=0)
    post = face["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    face["head"].glyphDataFormat = 0
    face.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    face.save(out)
    return out.getvalue()


def _metrics(data: bytes) -> tuple[float, float, dict[int, float]]:
    """(ascent, descent, advances) in em, read with fontTools: the `hhea` box, and the advance
    of each code point as reportlab's `TTFontFile.charWidths` / 1000 gives it (its best Unicode
    cmap and `hmtx`, scaled to 1000 units the way reportlab scales, a no-break space as wide as
    a space), so every width is the same float reportlab draws with."""
    from fontTools.ttLib import TTFont

    face = TTFont(io.BytesIO(data), lazy=True)
    units_per_em = face["head"].unitsPerEm
    hhea, advances = face["hhea"], face["hmtx"].metrics

    def em(units: int) -> float:
        return (units if units_per_em == 1000 else units * (1000 / units_per_em)) / 1000.0

    widths = {code: em(advances[glyph][0]) for code, glyph in face.getBestCmap().items()}
    if 0x20 in widths:
        widths[0xA0] = widths[0x20]
    return hhea.ascent / units_per_em, -hhea.descent / units_per_em, widths
