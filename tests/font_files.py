"""Small fonts made for the tests with fontTools' FontBuilder: TrueType (glyf) or OpenType with
PostScript outlines (CFF), holding just the characters asked for, each glyph a box as wide as
its advance — enough to set, measure, embed and find in a PDF."""

from __future__ import annotations

import io

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen

UNITS = 1000
ADVANCE = 600
ASCENT, DESCENT = 800, 200


def _box(pen, width: int) -> None:
    pen.moveTo((50, 0))
    pen.lineTo((50, 700))
    pen.lineTo((width - 50, 700))
    pen.lineTo((width - 50, 0))
    pen.closePath()


def font_file(characters: str, family: str = "Pnp Test", *, cff: bool = False) -> bytes:
    """The bytes of a font named `family` drawing each of `characters` (and a space) as a box."""
    chars = sorted(set(characters) | {" "})
    names = [".notdef"] + [f"uni{ord(c):04X}" for c in chars]
    builder = FontBuilder(UNITS, isTTF=not cff)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(c): f"uni{ord(c):04X}" for c in chars})
    metrics = {name: (ADVANCE, 50) for name in names}
    if cff:
        strings = {}
        for name in names:
            pen = T2CharStringPen(ADVANCE, None)
            if name not in (".notdef", "uni0020"):
                _box(pen, ADVANCE)
            strings[name] = pen.getCharString()
        builder.setupCFF(family.replace(" ", ""), {"FullName": family}, strings, {})
    else:
        glyphs = {}
        for name in names:
            pen = TTGlyphPen(None)
            if name not in (".notdef", "uni0020"):
                _box(pen, ADVANCE)
            glyphs[name] = pen.glyph()
        builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(ascent=ASCENT, descent=-DESCENT)
    builder.setupNameTable({"familyName": family, "styleName": "Regular",
                            "psName": family.replace(" ", "") + "-Regular"})
    builder.setupOS2(sTypoAscender=ASCENT, sTypoDescender=-DESCENT, usWinAscent=ASCENT, usWinDescent=DESCENT)
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()
