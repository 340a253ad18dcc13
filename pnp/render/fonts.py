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
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from typing import Sequence

from pnp.errors import BuildError

MM_PER_PT = 25.4 / 72.0

# logical name → (file in pnp/data/fonts, name the font is registered under in reportlab)
FONT_FILES: dict[str, tuple[str, str]] = {
    "regular": ("DejaVuSans.ttf", "DejaVuSans"),
    "bold": ("DejaVuSans-Bold.ttf", "DejaVuSans-Bold"),
}
FAMILY = "DejaVu Sans"  # the family name SVG viewers look for


@dataclass(frozen=True)
class Font:
    """One font's metrics in em units (fractions of the point size)."""

    name: str  # logical name: "regular" | "bold"
    postscript_name: str  # what reportlab and PDF readers call it
    ascent: float  # above the baseline, positive
    descent: float  # below the baseline, positive
    advances: dict[int, float] = field(repr=False, compare=False)  # code point → advance, em

    def has_glyph(self, char: str) -> bool:
        return ord(char) in self.advances

    def width(self, text: str, size: float) -> float:
        """Advance width of `text` at `size` pt, in mm (no kerning: reportlab draws none)."""
        advances = self.advances
        try:
            return sum(advances[ord(char)] for char in text) * size * MM_PER_PT
        except KeyError:
            raise missing_glyph_error(text, missing_glyphs(text, self.name), self.name) from None


def font_bytes(name: str) -> bytes:
    """The TrueType file of a logical font, read from the package data."""
    filename, _ = _entry(name)
    return files("pnp").joinpath("data", "fonts", filename).read_bytes()


@lru_cache(maxsize=None)
def font(name: str) -> Font:
    """The metrics of a logical font ("regular" or "bold"), loaded once."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    _, postscript_name = _entry(name)
    data = font_bytes(name)
    face = TTFontFile(io.BytesIO(data))
    ascent, descent = _hhea_metrics(data)
    advances = {code: width / 1000.0 for code, width in face.charWidths.items()}
    return Font(name, postscript_name, ascent, descent, advances)


def text_width(text: str, font_name: str, size: float) -> float:
    """Width in mm of one line of `text` in a logical font at `size` pt."""
    return font(font_name).width(text, size)


def missing_glyphs(text: str, font_name: str) -> tuple[str, ...]:
    """The distinct characters of `text` the font cannot draw, in order of appearance."""
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
    return BuildError(
        f"{where}text {text!r} uses {chars}, which font {FAMILY} ({font_name}) cannot draw"
    )


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


def _hhea_metrics(data: bytes) -> tuple[float, float]:
    """(ascent, descent) in em from the `head` and `hhea` tables of a TrueType file."""
    (count,) = struct.unpack_from(">H", data, 4)
    offsets = {}
    for index in range(count):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * index)
        offsets[tag] = offset
    (units_per_em,) = struct.unpack_from(">H", data, offsets[b"head"] + 18)
    ascender, descender = struct.unpack_from(">hh", data, offsets[b"hhea"] + 4)
    return ascender / units_per_em, -descender / units_per_em
