"""Drawing helpers every generator shares: symbols, patterns, ink choice, badges, guilloche.

Identity must survive a grayscale printer and colour-blind players, so an asset is never
just a colour: `asset_badge` pairs the colour with a shape, a pattern and a contrasting
outline, and `ink_on` picks text colour by measured contrast rather than by eye.
Patterns are laid out symmetrically about the centre of their box, so a deck back built
from them looks the same after a half turn. Everything is display items in mm (`pnp.display`);
`walk` and `text_bounds` read a display list back (transforms applied) for layout and tests.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from functools import lru_cache
from typing import Any, Iterator, Sequence

from pnp.colours import contrast_ratio as contrast_ratio  # the generators' colour helpers, from one module
from pnp.colours import luminance as luminance
from pnp.colours import tint as tint
from pnp.display import (
    IDENTITY,
    Circle,
    Group,
    Image,
    Item,
    Line,
    Matrix,
    Point,
    Polygon,
    Rect,
    Style,
    Text,
    apply,
    compose,
    rotate,
)
from pnp.errors import BuildError
from pnp.fonts import MM_PER_PT, font
from pnp.layout.text import block_height, fit_text
from pnp.spec.images import Art
from pnp.spec.model import PATTERNS, SYMBOLS, Asset

BLACK = "#000000"
WHITE = "#ffffff"
INK = "#1a1a1a"  # neutral dark ink for text on light backgrounds
_CIRCLE_SIDES = 48  # a circle seen as a polygon, for clipping patterns into it

# --- colour -------------------------------------------------------------------------------


def ink_on(fill: str) -> str:
    """Black or white, whichever contrasts more with `fill` (always ≥ 4.58:1, so AA holds)."""
    return BLACK if contrast_ratio(fill, BLACK) >= contrast_ratio(fill, WHITE) else WHITE


# --- symbols ------------------------------------------------------------------------------


def _regular(cx: float, cy: float, radius: float, sides: int, start_deg: float = -90.0) -> tuple[Point, ...]:
    """A regular polygon's corners, the first at `start_deg` (-90: straight up)."""
    angles = [math.radians(start_deg + i * 360.0 / sides) for i in range(sides)]
    return tuple((cx + radius * math.cos(a), cy + radius * math.sin(a)) for a in angles)


def _star(cx: float, cy: float, r: float) -> tuple[Point, ...]:
    """A five-pointed star of outer radius `r`, lowered as the pentagon is: its outer and inner
    corners taken in turn."""
    outer = _regular(cx, cy + r * 0.095, r, 5)
    inner = _regular(cx, cy + r * 0.095, r * 0.42, 5, -90.0 + 36.0)
    return tuple(p for pair in zip(outer, inner, strict=True) for p in pair)


def outline(shape: str, cx: float, cy: float, size: float) -> tuple[Point, ...]:
    """The shape's outline as a polygon fitting a `size` × `size` box centred on (cx, cy).

    Shapes are optically balanced (a triangle sits lower than its circumcircle, a square is
    a little smaller than the box) so that a row of different symbols looks even.
    """
    if shape not in SYMBOLS:
        raise ValueError(f"unknown symbol {shape!r} (known: {', '.join(SYMBOLS)})")
    half = size / 2
    if shape == "circle":
        return _regular(cx, cy, half, _CIRCLE_SIDES)
    if shape == "square":
        s = half * 0.84
        return ((cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s))
    if shape == "triangle":
        r = size / math.sqrt(3)  # width = size; height = 0.87 size, centred in the box
        return _regular(cx, cy + r / 4, r, 3)
    if shape == "diamond":
        return ((cx, cy - half), (cx + half * 0.78, cy), (cx, cy + half), (cx - half * 0.78, cy))
    if shape == "hexagon":
        return _regular(cx, cy, half, 6)
    if shape == "pentagon":
        r = half * 1.02
        return _regular(cx, cy + r * 0.095, r, 5)
    if shape == "star":
        return _star(cx, cy, half * 1.04)
    arm = half * 0.34  # cross: a Greek cross (plus sign)
    a, e = arm, half * 0.92
    return (
        (cx - a, cy - e), (cx + a, cy - e), (cx + a, cy - a), (cx + e, cy - a), (cx + e, cy + a), (cx + a, cy + a),
        (cx + a, cy + e), (cx - a, cy + e), (cx - a, cy + a), (cx - e, cy + a), (cx - e, cy - a), (cx - a, cy - a),
    )  # fmt: skip


def symbol(shape: str, cx: float, cy: float, size: float, style: Style) -> Item:
    """One of `SYMBOLS` in a `size` mm box centred on (cx, cy)."""
    if shape == "circle":
        return Circle(cx, cy, size / 2, style)
    return Polygon(outline(shape, cx, cy, size), style)


# --- patterns -----------------------------------------------------------------------------


def _lines(x: float, y: float, w: float, h: float, degrees: float, spacing: float, style: Style) -> list[Item]:
    """Parallel lines at `degrees` through the box centre and every `spacing` mm either side."""
    cx, cy = x + w / 2, y + h / 2
    reach = math.hypot(w, h) / 2 + spacing
    dx, dy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    nx, ny = -dy, dx
    count = int(reach / spacing) + 1
    return [
        Line(cx + k * spacing * nx - reach * dx, cy + k * spacing * ny - reach * dy,
             cx + k * spacing * nx + reach * dx, cy + k * spacing * ny + reach * dy, style)
        for k in range(-count, count + 1)
    ]  # fmt: skip


def _grid(
    x: float, y: float, w: float, h: float, spacing: float, offset: float
) -> Iterator[tuple[int, int, float, float]]:
    """Grid points (i, j, px, py) covering the box, centred on it (offset ½: the centre falls
    between points)."""
    cx, cy = x + w / 2, y + h / 2
    ni, nj = int(w / 2 / spacing) + 2, int(h / 2 / spacing) + 2
    last = 0 if offset else 1  # indices mirror about the centre: i ↔ -i (offset 0) or -i-1 (offset ½)
    for j in range(-nj, nj + last):
        for i in range(-ni, ni + last):
            yield i, j, cx + (i + offset) * spacing, cy + (j + offset) * spacing


def _pattern_items(
    name: str, x: float, y: float, w: float, h: float, colour: str, spacing: float, width: float
) -> list[Item]:
    """The pattern's marks covering the box (not clipped), laid out symmetrically about its centre."""
    line = Style(stroke=colour, width=width)
    if name in _STRIPES:
        return [mark for angle in _STRIPES[name] for mark in _lines(x, y, w, h, angle, spacing, line)]
    if name == "dots":
        dot = Style(fill=colour)
        return [Circle(px, py, spacing * 0.2, dot) for _, _, px, py in _grid(x, y, w, h, spacing, 0.0)]
    if name == "checks":
        return _checks(x, y, w, h, Style(fill=colour), spacing)
    if name == "waves":
        return _waves(x, y, w, h, line, spacing)
    if name == "none":
        return []
    raise ValueError(f"unknown pattern {name!r} (known: {', '.join(PATTERNS)})")


_STRIPES = {"hstripes": (0,), "vstripes": (90,), "diagonal": (-45,), "antidiagonal": (45,), "crosshatch": (-45, 45)}
"""The striped patterns: the angle of each set of lines."""


def _checks(x: float, y: float, w: float, h: float, cell: Style, spacing: float) -> list[Item]:
    """A chequerboard of `spacing` squares, one in two filled."""
    half = spacing / 2
    return [
        Rect(px - half, py - half, spacing, spacing, cell)
        for i, j, px, py in _grid(x, y, w, h, spacing, 0.5)
        if (i + j) % 2 == 0
    ]


def _waves(x: float, y: float, w: float, h: float, line: Style, spacing: float) -> list[Item]:
    """Rows of sine waves `spacing` apart, each a polyline of 16 points a wavelength."""
    cx, cy = x + w / 2, y + h / 2
    wavelength, amplitude = spacing * 2.4, spacing * 0.28
    reach = w / 2 + wavelength
    samples = int(reach / (wavelength / 16)) + 1
    xs = [cx + k * wavelength / 16 for k in range(-samples, samples + 1)]
    rows = int(h / 2 / spacing) + 2
    swing = [amplitude * math.sin(2 * math.pi * (px - cx) / wavelength) for px in xs]
    return [
        Polygon(tuple((px, cy + k * spacing + dy) for px, dy in zip(xs, swing, strict=True)), line, closed=False)
        for k in range(-rows, rows + 1)
    ]


def pattern(
    name: str, x: float, y: float, w: float, h: float, color: str, *, spacing: float = 2.5, width: float | None = None
) -> Group:
    """One of `PATTERNS` in `color`, filling the box and clipped to it ("none" → empty group).

    The pattern is centred on the box, so it is unchanged by a half turn about the centre.
    `width` is the line width (default: a fifth of the spacing).
    """
    items = _pattern_items(name, x, y, w, h, color, spacing, spacing * 0.2 if width is None else width)
    return Group(tuple(items), clip=Rect(x, y, w, h, Style()))


# --- clipping patterns into a symbol ------------------------------------------------------


def _inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd point-in-polygon test."""
    px, py = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
        if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _clip_segment(p: Point, q: Point, polygon: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The parts of segment p–q inside the polygon (any simple polygon, convex or not)."""
    (px, py), (qx, qy) = p, q
    dx, dy = qx - px, qy - py
    cuts = [0.0, 1.0]
    for (x1, y1), (x2, y2) in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
        ex, ey = x2 - x1, y2 - y1
        denominator = dx * ey - dy * ex
        if abs(denominator) < 1e-12:
            continue
        t = ((x1 - px) * ey - (y1 - py) * ex) / denominator
        u = ((x1 - px) * dy - (y1 - py) * dx) / denominator
        if 0 < t < 1 and 0 <= u <= 1:
            cuts.append(t)
    cuts.sort()
    parts = []
    for t0, t1 in zip(cuts, cuts[1:], strict=False):
        middle = (px + dx * (t0 + t1) / 2, py + dy * (t0 + t1) / 2)
        if t1 - t0 > 1e-9 and _inside(middle, polygon):
            parts.append(((px + dx * t0, py + dy * t0), (px + dx * t1, py + dy * t1)))
    return parts


def _clip_into(items: Sequence[Item], polygon: Sequence[Point]) -> list[Item]:
    """Pattern items cut to a polygon (the display list can only clip to rectangles)."""
    kept: list[Item] = []
    for item in items:
        if isinstance(item, Line):
            ends = ((item.x1, item.y1), (item.x2, item.y2))
            kept += [Line(*a, *b, item.style) for a, b in _clip_segment(*ends, polygon)]
        elif isinstance(item, Polygon):  # an open wave: clip it segment by segment
            for a, b in zip(item.points, item.points[1:], strict=False):
                kept += [Line(*s, *e, item.style) for s, e in _clip_segment(a, b, polygon)]
        elif isinstance(item, Circle):
            if _inside((item.cx, item.cy), polygon):
                kept.append(item)
        elif isinstance(item, Rect):
            corners = [(x, y) for x in (item.x, item.x + item.w) for y in (item.y, item.y + item.h)]
            if all(_inside(c, polygon) for c in corners):
                kept.append(item)
    return kept


# --- identity -----------------------------------------------------------------------------


def asset_badge(asset: Asset, cx: float, cy: float, size: float) -> Group:
    """The asset's identity mark: its symbol in its colour, its pattern inside, a contrasting outline.

    A thin white halo under a dark outline keeps the badge visible on any background —
    a black symbol on a black band, a yellow one on white paper — and in grayscale the
    shape and the pattern still tell assets apart.
    """
    polygon = outline(asset.symbol, cx, cy, size)
    stroke = max(0.2, size * 0.045)
    items: list[Item] = [
        symbol(asset.symbol, cx, cy, size, Style(fill=WHITE, stroke=WHITE, width=stroke * 3)),
        symbol(asset.symbol, cx, cy, size, Style(fill=asset.color)),
    ]
    if asset.pattern != "none":
        spacing = max(0.9, size / 7)
        box = (cx - size / 2, cy - size / 2, size, size)
        items += _clip_into(_pattern_items(asset.pattern, *box, ink_on(asset.color), spacing, spacing * 0.22), polygon)
    items.append(symbol(asset.symbol, cx, cy, size, Style(stroke=INK, width=stroke)))
    return Group(tuple(items))


def identity(asset: Asset, logo: Art | None, cx: float, cy: float, size: float) -> Item:
    """The asset's logo when the spec gives one, else its badge, in a `size` mm box."""
    if logo is None:
        return asset_badge(asset, cx, cy, size)
    return picture(logo, cx - size / 2, cy - size / 2, size, size)


# --- images -------------------------------------------------------------------------------


def picture(art: Art, x: float, y: float, w: float, h: float, *, cover: bool = False) -> Item:
    """The art in the box, its proportions kept: whole and centred, or (`cover`) filling the box
    and cropped to it — art that runs into a card's bleed."""
    scale = (max if cover else min)(w / art.width, h / art.height)
    iw, ih = art.width * scale, art.height * scale
    pixels = (0, 0) if art.vector else (int(art.width), int(art.height))
    image = Image(x + (w - iw) / 2, y + (h - ih) / 2, iw, ih, art.data, art.format,
                  art.digest, pixels, art.file)
    return Group((image,), clip=Rect(x, y, w, h, Style())) if cover else image


def bled(art: Art, w: float, h: float, b: float) -> Item:
    """Art to the bleed of a `w` × `h` mm face with `b` mm of bleed. By default (`cover`) it is
    enlarged to fill trim and bleed, its edges cut off; art marked `bleed: extend` (cut to the
    trim: a scan, a drawing) fills the trim, and each of the eight bleed strips shows the art
    mirrored about the trim's edge, so the strip continues the edge's pixels and a cut off the
    line never shows white."""
    if art.bleed != "extend" or b <= 0:
        return picture(art, -b, -b, w + 2 * b, h + 2 * b, cover=True)
    centre = picture(art, 0, 0, w, h, cover=True)
    image = centre.items[0] if isinstance(centre, Group) else centre  # mirrored whole: the strips clip it
    return Group((*_mirrored_strips(image, w, h, b), centre))


def _mirrored_strips(image: Item, w: float, h: float, b: float) -> list[Item]:
    """The eight bleed strips round a `w` × `h` mm trim, each showing `image` mirrored about the
    trim edge (or corner) it touches, clipped to the strip."""
    copies: list[Item] = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx == dy == 0:
                continue
            mirror = (-1.0 if dx else 1.0, 0.0, 0.0, -1.0 if dy else 1.0, 2 * w if dx == 1 else 0.0,
                      2 * h if dy == 1 else 0.0)
            x, width = _strip(dx, w, b)
            y, height = _strip(dy, h, b)
            copies.append(Group((Group((image,), mirror),), clip=Rect(x, y, width, height, Style())))
    return copies


def _strip(side: int, length: float, b: float) -> tuple[float, float]:
    """Where a bleed strip starts along one axis and how long it is: before the trim (−1), along
    it (0) or after it (+1)."""
    return {-1: (-b, b), 0: (0.0, length), 1: (length, b)}[side]


def generated_bleed(items: Sequence[Item]) -> bool:
    """Whether a face shows bleed made by mirroring its art (`bled` with `bleed: extend`): an
    image drawn mirrored — nothing else in pnp mirrors a picture."""
    for matrix, item in walk(items):
        if isinstance(item, Image) and matrix[0] * matrix[3] - matrix[1] * matrix[2] < 0:
            return True
    return False


# --- money --------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def guilloche(x: float, y: float, w: float, h: float, color: str, seed: int | str) -> Group:
    """Bands of interlaced waves covering the box, the fine line-work of banknotes, clipped to it.

    Each band is a rope of phase-shifted sine strands whose swing breathes along the band;
    the seed picks the strand count, the wavelengths and the twist. Deterministic: the same
    seed always gives the same lines (`random.Random` hashes a string seed with SHA-512,
    independent of PYTHONHASHSEED), so builds stay reproducible — and each is drawn once a
    process (cached): a bill's ground is the same in every language's kit.
    """
    rng = random.Random(str(seed))
    style = Style(stroke=color, width=0.12)
    strands = rng.randint(5, 7)
    waves = rng.choice((3, 4, 5, 6))
    wavelength = w / waves
    envelope = w / rng.choice((1, 1.5, 2, 3))
    twist = rng.uniform(0, 2 * math.pi)
    bands = max(2, round(h / 13))
    amplitude = h / (2 * bands) * 1.1  # neighbouring ropes just touch, leaving no bare stripe
    samples = waves * 11  # enough for a smooth sine; every point costs PDF bytes on every bill
    items: list[Item] = []
    for band in range(bands):
        centre = y + (band + 0.5) * h / bands
        drift = band * math.pi / bands  # each rope twists a little later than the one above
        for k in range(strands):
            phase = 2 * math.pi * k / strands
            points = []
            for i in range(samples + 1):
                px = x + w * i / samples
                swing = math.sin(2 * math.pi * (px - x) / wavelength + phase + drift)
                breathe = 0.45 + 0.55 * math.cos(2 * math.pi * (px - x) / envelope + twist + phase / 2 + drift)
                points.append((px, centre + amplitude * swing * breathe))
            items.append(Polygon(tuple(points), style, closed=False))
    return Group(tuple(items), clip=Rect(x, y, w, h, Style()))


# --- geometry -----------------------------------------------------------------------------


OUTLINED_PT = 14.0  # type this large or larger reads as well in outline as filled


def outlined(item: Item, width: float = 0.3) -> Item:
    """The item with its large text (`OUTLINED_PT` and up) drawn as glyph outlines `width` mm
    wide instead of filled: the ink saver's numerals and titles, as legible for a fraction of
    the ink. Smaller text stays filled."""
    if isinstance(item, Text):
        return replace(item, outline=width) if item.size >= OUTLINED_PT else item
    if isinstance(item, Group):
        return replace(item, items=tuple(outlined(part, width) for part in item.items))
    return item


def half_turn(items: Sequence[Item], cx: float, cy: float) -> Group:
    """The items turned 180° about (cx, cy): the upside-down copy of a corner index or a back."""
    return Group(tuple(items), rotate(180, cx, cy))


def walk(items: Sequence[Item], transform: Matrix = IDENTITY) -> Iterator[tuple[Matrix, Item]]:
    """Every leaf item of a display list with the transform that places it on the drawing."""
    for item in items:
        if isinstance(item, Group):
            yield from walk(item.items, compose(transform, item.transform))
        else:
            yield transform, item


def texts(items: Sequence[Item]) -> Iterator[tuple[Matrix, Text]]:
    """Every text item with its placing transform."""
    for matrix, item in walk(items):
        if isinstance(item, Text):
            yield matrix, item


# --- text -----------------------------------------------------------------------------------


def text_bounds(items: Sequence[Item]) -> tuple[float, float, float, float] | None:
    """The box (x0, y0, x1, y1) in mm that the text items in `items` cover (transforms applied),
    from font metrics (advance width, ascent, descent); None when there is no text.

    Used to fit a coloured bar snugly behind a fitted value.
    """
    boxes = [text_box(matrix, item) for matrix, item in texts(items)]
    if not boxes:
        return None
    x0s, y0s, x1s, y1s = zip(*boxes, strict=True)
    return min(x0s), min(y0s), max(x1s), max(y1s)


def text_box(matrix: Matrix, item: Text) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) in mm one text item covers once `matrix` places it."""
    face = font(item.font)
    width = face.width(item.text, item.size)
    x0 = item.x - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
    em = item.size * MM_PER_PT
    top, bottom = item.y - face.ascent * em, item.y + face.descent * em
    corners = [apply(matrix, (x, y)) for x in (x0, x0 + width) for y in (top, bottom)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def fit_line_first(text: str, x: float, y: float, w: float, h: float, *, size: float, **style: Any) -> Group:
    """`fit_text`, but shrinking to one line before wrapping: a short name or subtitle reads
    better a little smaller on one line than with a lone word on a second."""
    line = min(h, block_height(1, size))
    offset = {"top": 0.0, "middle": (h - line) / 2, "bottom": h - line}[style.get("valign", "middle")]
    try:
        return fit_text(text, x, y + offset, w, line, size=size, **style)
    except BuildError:
        return fit_text(text, x, y, w, h, size=size, **style)
