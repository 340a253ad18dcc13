"""Colour as a player sees it: luminance contrast, colour difference, colour-blind vision.

Every number the checks judge colour by is computed here, from published definitions:

- **Relative luminance and contrast ratio**: WCAG 2.1, §1.4.3 and its definitions
  (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance): sRGB decoded to linear light,
  Y = 0.2126 R + 0.7152 G + 0.0722 B, ratio (L1 + 0.05) / (L2 + 0.05). Small text needs 4.5:1,
  large text (18 pt, or 14 pt bold) 3:1.
- **CIELAB**: IEC 61966-2-1 sRGB to CIE XYZ under D65 (the sRGB standard's matrix), then CIE
  1976 L*a*b* with the D65 white (0.95047, 1, 1.08883).
- **Colour difference ΔE00**: CIEDE2000 (CIE 142-2001), as written out by G. Sharma, W. Wu and
  E. N. Dalal, "The CIEDE2000 color-difference formula: implementation notes, supplementary
  test data, and mathematical observations", Color Res. Appl. 30 (1), 21–30, 2005 — whose 34
  test pairs `tests/test_colours.py` checks to four decimals. ΔE00 ≈ 1 is a just-noticeable
  difference side by side.
- **Colour-blind vision**: G. M. Machado, M. M. Oliveira and L. A. F. Fernandes, "A
  physiologically-based model for simulation of color vision deficiency", IEEE TVCG 15 (6),
  1291–1298, 2009: one 3×3 matrix per deficiency on linear sRGB, severity 1.0 (protanopia,
  deuteranopia, tritanopia: the dichromacies, the strongest form of each), from the
  authors' published table; the result is clipped to the sRGB gamut.

Nothing here knows about pieces or pages: the checks (`pnp.checks.colour`) and the generators
(black or white ink by contrast, tints of a company's colour) both read it.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal

Deficiency = Literal["protanopia", "deuteranopia", "tritanopia"]
Vision = Literal["normal", "protanopia", "deuteranopia", "tritanopia"]
DEFICIENCIES: tuple[Deficiency, ...] = ("protanopia", "deuteranopia", "tritanopia")
RGB = tuple[float, float, float]
Lab = tuple[float, float, float]

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear sRGB (rows give R', G', B').
MACHADO_2009: dict[Deficiency, tuple[RGB, RGB, RGB]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
SRGB_TO_XYZ = ((0.4124564, 0.3575761, 0.1804375), (0.2126729, 0.7151522, 0.0721750), (0.0193339, 0.1191920, 0.9503041))
D65_WHITE = (0.95047, 1.0, 1.08883)
SMALL_TEXT_CONTRAST = 4.5  # WCAG 2.1 AA, §1.4.3
LARGE_TEXT_CONTRAST = 3.0  # the same for large text: 18 pt, or 14 pt bold
LARGE_PT, LARGE_BOLD_PT = 18.0, 14.0


@lru_cache(maxsize=4096)
def rgb(colour: str) -> RGB:
    """"#rrggbb" (or "#rgb") as sRGB components 0…1."""
    value = colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def hex_colour(components: RGB) -> str:
    """sRGB components 0…1 (clipped) as "#rrggbb"."""
    return "#{:02x}{:02x}{:02x}".format(*(round(min(1.0, max(0.0, c)) * 255) for c in components))


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of "#rrggbb", 0 (black) … 1 (white)."""
    r, g, b = (_linear(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@lru_cache(maxsize=8192)
def contrast_ratio(a: str, b: str) -> float:
    """WCAG contrast ratio between two colours: 1 (same) … 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_contrast_needed(size_pt: float, bold: bool) -> float:
    """The contrast WCAG AA asks of text this size: 3:1 for large text, else 4.5:1."""
    large = size_pt >= LARGE_PT or (bold and size_pt >= LARGE_BOLD_PT)
    return LARGE_TEXT_CONTRAST if large else SMALL_TEXT_CONTRAST


def tint(colour: str, amount: float, ground: str = "#ffffff") -> str:
    """`colour` mixed with `ground` (white: light fills save ink): amount 0 is the ground, 1 is
    the colour itself."""
    r, g, b = ((1 - amount) * base + amount * c for c, base in zip(rgb(colour), rgb(ground), strict=True))
    return hex_colour((r, g, b))


def over_paper(colour: str, opacity: float) -> str:
    """`colour` laid at `opacity` over white paper: the colour the eye gets."""
    return tint(colour, opacity) if opacity < 1 else colour


@lru_cache(maxsize=8192)
def tint_of(colour: str, base: str, tolerance: float = 1.5 / 255) -> float | None:
    """How much of `base` `colour` is, when it is `base` mixed with white (`tint`): the amount
    0…1, or None when it is not (each component within `tolerance`, for the rounding to 8 bits)."""
    c, b = rgb(colour), rgb(base)
    spans = [1 - x for x in b]
    widest = max(range(3), key=lambda i: spans[i])
    if spans[widest] < tolerance:  # white itself: only white is a tint of it
        return 1.0 if all(abs(x - 1) <= tolerance for x in c) else None
    amount = (1 - c[widest]) / spans[widest]
    if not -tolerance <= amount <= 1 + tolerance:
        return None
    if any(abs((1 - amount * s) - x) > tolerance for s, x in zip(spans, c, strict=True)):
        return None
    return min(1.0, max(0.0, amount))


@lru_cache(maxsize=4096)
def seen(colour: str, vision: Vision = "normal") -> str:
    """`colour` as a dichromat of `vision` sees it (Machado 2009, severity 1.0), as "#rrggbb"
    rounded to 8 bits like any colour; `normal` returns it unchanged."""
    if vision == "normal":
        return colour.lower()
    linear = [_linear(c) for c in rgb(colour)]
    rows = MACHADO_2009[vision]
    return hex_colour(tuple(_encoded(sum(m * c for m, c in zip(row, linear, strict=True))) for row in rows))  # type: ignore[arg-type]  # three rows


@lru_cache(maxsize=4096)
def lab(colour: str) -> Lab:
    """CIE L*a*b* (D65) of an sRGB colour."""
    linear = [_linear(c) for c in rgb(colour)]
    xyz = [sum(m * c for m, c in zip(row, linear, strict=True)) / white
           for row, white in zip(SRGB_TO_XYZ, D65_WHITE, strict=True)]

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(t) for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: Lab, lab2: Lab) -> float:
    """The CIEDE2000 colour difference ΔE00 of two L*a*b* colours (kL = kC = kH = 1), as
    Sharma, Wu and Dalal (2005) write it out, equations (1)–(22)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_mean = (h1p + h2p) / 2
    else:
        hp_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp_mean - 30)) + 0.24 * math.cos(math.radians(2 * hp_mean))
         + 0.32 * math.cos(math.radians(3 * hp_mean + 6)) - 0.20 * math.cos(math.radians(4 * hp_mean - 63)))
    d_theta = 30 * math.exp(-(((hp_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_big_h / s_h) ** 2 + r_t * (dc / s_c) * (d_big_h / s_h))


def difference(a: str, b: str, vision: Vision = "normal") -> float:
    """ΔE00 between two sRGB colours as seen with `vision`."""
    return ciede2000(lab(seen(a, vision)), lab(seen(b, vision)))


def least_difference(a: str, b: str) -> tuple[float, Vision]:
    """The smallest ΔE00 of two colours under normal vision and each dichromacy, and the
    vision it is seen with (normal first when there is a tie)."""
    visions: tuple[Vision, ...] = ("normal", *DEFICIENCIES)
    return min(((difference(a, b, v), v) for v in visions), key=lambda found: found[0])
