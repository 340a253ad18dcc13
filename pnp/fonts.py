"""The bundled fonts and their metrics: one source of truth for measuring and for drawing.

Text fitting (`pnp.layout.text`) measures with exactly the advance widths the PDF backend
draws with, so a line measured to fit is a line that fits on paper. Fonts are package data
(DejaVu Sans, regular and bold), read through `importlib.resources`, so `pip install .` is
all a user needs and no system font is ever consulted.

Vertical metrics come from the font's `hhea` table (ascender 0.928 em, descender 0.236 em for
DejaVu Sans) rather than the typographic ones reportlab reports (0.76 / 0.24): the `hhea` box
holds accented capitals such as "Á" and descenders, so text fitted to it never pokes out of its
box, and centring that box centres capitals and digits optically.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from typing import Sequence

from pnp.errors import BuildError, shorten

MM_PER_PT = 25.4 / 72.0

# logical name → (file in pnp/data/fonts, name the font is registered under in reportlab)
FONT_FILES: dict[str, tuple[str, str]] = {
    "regular": ("DejaVuSans.ttf", "DejaVuSans"),
    "bold": ("DejaVuSans-Bold.ttf", "DejaVuSans-Bold"),
}
FAMILY = "DejaVu Sans"  # the family name SVG viewers look for
WIDTHS_KEPT = 100_000  # texts whose width a font remembers (a few MB at most, for a long `pnp watch`)


@dataclass(frozen=True)
class Font:
    """One font's metrics in em units (fractions of the point size)."""

    name: str  # logical name: "regular" | "bold"
    postscript_name: str  # what reportlab and PDF readers call it
    ascent: float  # above the baseline, positive
    descent: float  # below the baseline, positive
    advances: dict[int, float] = field(repr=False, compare=False)  # code point → advance, em
    widths: dict[str, float] = field(default_factory=dict, repr=False, compare=False)  # text → its width, em

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
    """The TrueType file of a logical font, read from the package data."""
    filename, _ = _entry(name)
    return files("pnp").joinpath("data").joinpath("fonts").joinpath(filename).read_bytes()


@lru_cache(maxsize=None)
def font(name: str) -> Font:
    """The metrics of a logical font ("regular" or "bold"), loaded once. They are read with
    fontTools, equal to reportlab's (a test checks it), so laying out text — and `pnp validate`,
    which lays out every component — needs no reportlab."""
    _, postscript_name = _entry(name)
    ascent, descent, advances = _metrics(font_bytes(name))
    return Font(name, postscript_name, ascent, descent, advances)


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
    text: str, missing: tuple[str, ...], font_name: str, what: str = ""
) -> BuildError:
    """The error for `text` (as the user wrote it) needing characters the font lacks."""
    chars = ", ".join(f"U+{ord(char):04X} {char!r}" for char in missing)
    where = f"{what}: " if what else ""
    return BuildError(f"{where}text {shorten(text)!r} uses {chars}, which font {FAMILY} ({font_name}) cannot draw",
                      text=text)


def register_reportlab(name: str) -> str:
    """Register a logical font with reportlab (once) and return its reportlab name."""
    from reportlab.pdfbase import pdfmetrics

    _, postscript_name = _entry(name)
    if postscript_name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(_tagged_font_class()(postscript_name, io.BytesIO(font_bytes(name))))
    return postscript_name


def subset_tag(postscript_name: str, code_points: Sequence[int]) -> str:
    """The six capital letters before "+" in an embedded subset's name, from a hash of the
    font and the characters it holds: different subsets get different names (reportlab numbers
    them AAAAAA, AAAAAB, … per file, so every file's first subset is "AAAAAA+DejaVuSans", which
    preflight tools flag and some drivers confuse once files are joined), equal ones the same."""
    digest = hashlib.sha256(f"{postscript_name}:{','.join(map(str, code_points))}".encode()).digest()
    return "".join(chr(ord("A") + byte % 26) for byte in digest[:6])


@lru_cache(maxsize=None)
def _tagged_font_class() -> type:
    """reportlab's TTFont, naming its subsets by `subset_tag`. reportlab builds the name from
    the module-level `SUBSETN(n)` while it writes the font objects, so that function is swapped
    for the length of that call only."""
    from reportlab.pdfbase import ttfonts

    class TaggedTTFont(ttfonts.TTFont):
        def addObjects(self, doc) -> None:  # reportlab's name
            subsets = self.state[doc].subsets
            numbered = ttfonts.SUBSETN
            ttfonts.SUBSETN = lambda n: subset_tag(self.face.name.decode("latin-1"), subsets[n]).encode("ascii")
            try:
                super().addObjects(doc)
            finally:
                ttfonts.SUBSETN = numbered

    return TaggedTTFont


def _entry(name: str) -> tuple[str, str]:
    try:
        return FONT_FILES[name]
    except KeyError:
        known = ", ".join(FONT_FILES)
        raise BuildError(f"unknown font {name!r} (known: {known})") from None


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
