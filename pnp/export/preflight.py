"""Pre-flight checks on one face: what a print shop's preflight, or a player, would trip on.

- **small text**: text set below 7 pt. Fitting shrinks long text down to 6 pt, which is legal
  but small; the designer should know where it happened.
- **bleed** and **safe zone**: text that runs past the cut into the bleed, or outside the safe
  zone (a piece's `print.safe_mm` inside the cut, at most a tenth of its shorter side: a
  token's margin is a millimetre or so). Backgrounds belong in the bleed; words do not.
- **hue only**: two colours of the face that differ only in hue — so close in lightness
  (contrast below 1.5:1) that a greyscale print, or a colour-blind player, sees one colour.
  Harmless where a symbol or code stands beside each; a problem where colour is alone.
- **glyph**: a character the font cannot draw (the PDF backend refuses these; the check says
  where, for a build that never renders a PDF).

Each finding carries the box it is about, in mm on the face (origin at the trim's top-left),
so the gallery can outline it on the picture.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, replace
from itertools import combinations

from pnp.components.art import contrast_ratio, text_box, walk
from pnp.display import Drawing, Text
from pnp.fonts import font, missing_glyphs

CHECKS = (("small-text", "text ≥ 7 pt"), ("bleed", "nothing in the bleed"), ("safe-zone", "inside the safe zone"),
          ("hue-only", "not hue alone"), ("glyph", "every glyph"))  # (check, what passing it means)
SMALL_PT = 7.0
SAFE_SHARE = 0.1  # the safe zone is never deeper than this share of a piece's shorter side
HUE_ONLY_CONTRAST = 1.5  # lightness this close reads as one colour in grey
CHROMATIC = 0.25  # saturation and value from which a colour counts as a hue (greys, black, tints do not)
EPSILON = 0.01  # mm


@dataclass(frozen=True)
class Finding:
    check: str  # "small-text" | "bleed" | "safe-zone" | "hue-only" | "glyph"
    message: str
    box: tuple[float, float, float, float] | None = None  # x, y, w, h in mm on the face


def preflight(drawing: Drawing, safe_mm: float, *, piece: bool) -> tuple[Finding, ...]:
    """Every finding on one face; a piece (card, token, bill) is also held to its safe zone."""
    found: list[Finding] = []
    w, h = drawing.width, drawing.height
    safe = min(safe_mm, SAFE_SHARE * min(w, h)) if piece else 0.0
    for matrix, text in ((m, t) for m, t in walk(drawing.items) if isinstance(t, Text) and t.text.strip()):
        missing = missing_glyphs(text.text, text.font)
        measured = replace(text, text=text.text.translate({ord(c): "?" for c in missing}))  # "?" has a width
        x0, y0, x1, y1 = text_box(matrix, measured)
        box = (round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2))
        quoted = _quote(text.text)
        if text.size < SMALL_PT - 1e-9:
            found.append(Finding("small-text", f"{quoted} is set at {text.size:g} pt, below {SMALL_PT:g} pt", box))
        if x0 < -EPSILON or y0 < -EPSILON or x1 > w + EPSILON or y1 > h + EPSILON:
            found.append(Finding("bleed", f"{quoted} runs past the cut into the bleed", box))
        elif piece and min(x0 - safe, y0 - safe, w - safe - x1, h - safe - y1) < -EPSILON:
            found.append(Finding("safe-zone", f"{quoted} lies outside the {safe:g} mm safe zone", box))
        if missing:
            chars = ", ".join(f"U+{ord(c):04X}" for c in missing)
            face = font(text.font)
            found.append(Finding("glyph", f"{quoted} needs {chars}, which the font {face.family} ({face.label}) cannot "
                                          "draw", box))
    found += _hue_only(drawing)
    return tuple(dict.fromkeys(found))


def _hue_only(drawing: Drawing) -> list[Finding]:
    colours = set()
    for _, item in walk(drawing.items):
        style = getattr(item, "style", None)
        colours |= {c.lower() for c in (getattr(style, "fill", None), getattr(style, "stroke", None),
                                        getattr(item, "color", None)) if c}
    hues = sorted(c for c in colours if _chromatic(c))
    return [Finding("hue-only", f"{a} and {b} differ only in hue (contrast {contrast_ratio(a, b):.2f}:1): "
                                f"in grey they look alike, so keep a symbol or code beside each")
            for a, b in combinations(hues, 2) if contrast_ratio(a, b) < HUE_ONLY_CONTRAST]


def _chromatic(colour: str) -> bool:
    value = colour.lstrip("#")
    if len(value) != 6:
        return False
    _, saturation, brightness = colorsys.rgb_to_hsv(*(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4)))
    return saturation >= CHROMATIC and brightness >= CHROMATIC


def _quote(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:39] + "…")
