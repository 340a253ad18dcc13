"""Tokens: small punch-out pieces (12–30 mm) with a front and a back from the spec.

A token is read from arm's length on a board, so it carries few things, large: the value
(a code, an initial, "+20"), the asset's symbol, and at most a line of small print above and
below. Text rows are fitted to the part of the shape they sit in — the chord of a circle is
narrower near its rim — so nothing leaves the cut. A token with an asset is filled with its
colour (to the bleed, so a slightly-off cut shows no white), with black or white ink by
contrast; a patterned asset also shows its pattern around the edge of a square token. The
ink saver leaves the ground paper: the ring and the pattern carry the colour, the badge the
symbol, and a token with a plain back gets its asset's badge and code there instead of a flood.
A face with elements (`layout: free`) is drawn by them instead (`pnp.components.free`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from pnp.components import Context, PieceArt, Pieces
from pnp.components.art import BLACK, WHITE, asset_badge, ink_on, pattern, symbol
from pnp.components.free import free_face
from pnp.display import (
    POLYGON_CUTS,
    ROUNDED_CUT,
    Circle,
    Cut,
    Drawing,
    Group,
    Item,
    Point,
    Polygon,
    Rect,
    Style,
    cut_polygon,
    safe_zone,
)
from pnp.errors import BuildError
from pnp.layout.text import block_height, fit_text, text_width
from pnp.spec.faces import Side, token_pieces
from pnp.spec.model import Asset, Tokens
from pnp.spec.source import PathKey

CUTS: dict[str, Cut] = {"circle": "circle", "square": "rect", "rounded": "rounded", "hexagon": "hexagon", "octagon": "octagon"}
SMALL_PT, VALUE_PT, MIN_PT = 7.0, 30.0, 6.0
MIN_SYMBOL = 0.16  # × the token's shorter side: a symbol any smaller no longer reads


@dataclass(frozen=True)
class Shape:
    """A token's outline and the margin its content keeps from the cut (mm)."""

    kind: str  # "circle" | "square" | "rounded" | "hexagon" | "octagon"
    width: float
    height: float
    bleed: float
    frame: float = 0.0  # width of a patterned border inside the cut, if any
    ink_saver: bool = False
    safe: float = 0.0  # the safe zone: words and symbols stay this far inside the cut

    @property
    def margin(self) -> float:
        return max(1.0, 0.07 * min(self.width, self.height), self.frame + 0.4, self.safe)

    def chord(self, y0: float, y1: float) -> tuple[float, float]:
        """The x-range inside the margin for a text row spanning y0…y1 (narrower near a
        circle's rim or a rounded corner)."""
        m = self.margin
        if self.kind == "square":
            return m, self.width - m
        if self.kind in POLYGON_CUTS:  # the narrower of the row's two edges, inside the moved-in outline
            top, bottom = (_span(self.outline(m), y) for y in (y0, y1))
            if top is None or bottom is None:
                return self.width / 2, self.width / 2
            return max(top[0], bottom[0]), min(top[1], bottom[1])
        if self.kind == "rounded":  # the corner arcs, moved in by the margin
            r = ROUNDED_CUT * min(self.width, self.height)
            depth = r - min(y0, self.height - y1)  # how far into the corner's height the row reaches
            inset = r - math.sqrt(max(r * r - depth * depth, 0.0)) if depth > 0 else 0.0
            return m + inset, self.width - m - inset
        r = min(self.width, self.height) / 2 - m
        cx, cy = self.width / 2, self.height / 2
        reach = max(abs(y0 - cy), abs(y1 - cy))
        half = math.sqrt(max(r * r - reach * reach, 0.0))
        return cx - half, cx + half

    def outline(self, inset: float) -> tuple[Point, ...]:
        """A hexagon's or octagon's cut line moved `inset` mm inwards."""
        return _inset_polygon(self.kind, self.width, self.height, inset)


@lru_cache(maxsize=64)
def _inset_polygon(kind: str, width: float, height: float, inset: float) -> tuple[Point, ...]:
    """A regular polygon shrunk about its centre: all its sides move in by `inset` (cached, as
    the layout search asks for the same outline hundreds of times)."""
    points = cut_polygon(kind, 0.0, 0.0, width, height)
    cx, cy = width / 2, height / 2
    apothem = math.hypot(points[0][0] - cx, points[0][1] - cy) * math.cos(math.pi / len(points))
    k = max(apothem - inset, 0.0) / apothem
    return tuple((cx + (x - cx) * k, cy + (y - cy) * k) for x, y in points)


def _span(polygon: tuple[Point, ...], y: float) -> tuple[float, float] | None:
    """Where the horizontal line at `y` crosses a convex polygon (None if it misses it)."""
    xs = [x1 + (y - y1) * (x2 - x1) / (y2 - y1)
          for (x1, y1), (x2, y2) in zip(polygon, (*polygon[1:], polygon[0]), strict=True)
          if y1 != y2 and min(y1, y2) - 1e-9 <= y <= max(y1, y2) + 1e-9]  # fmt: skip
    return (min(xs), max(xs)) if xs else None


def tokens(context: Context, tokens: Tokens) -> Pieces:
    """Every token of the entry list (entry order, copies adjacent), front and back."""
    width, height = tokens.size_mm
    shape = Shape(tokens.shape, width, height, context.settings.bleed_mm, ink_saver=context.settings.ink_saver,
                  safe=safe_zone(context.settings.safe_mm, width, height))
    where = f"{context.game_id}/{tokens.id}"
    drawn: dict[Side, Drawing] = {}

    def face(side: Side, what: str, at: PathKey) -> Drawing:
        if side not in drawn:
            if side.elements:
                drawn[side] = free_face(side, width, height, shape.bleed, context.stock(BLACK), what=what, at=at)
            else:
                drawn[side] = token_face(side, shape, what=what)
        return drawn[side]

    pieces = []
    for number, piece in enumerate(token_pieces(context.game, tokens), 1):
        front = face(piece.front, f"{where} token {number} front", ("tokens", piece.entry, "front"))
        if isinstance(piece.back, Side):
            back: Drawing | None = face(piece.back, f"{where} token {number} back", ("tokens", piece.entry, "back"))
        else:
            back = plain_back(piece.front.asset, shape)
        pieces.append(PieceArt(front, back))
    cut = CUTS[tokens.shape]
    two_sided = any(p.back is not None and p.back is not p.front for p in pieces)  # equal sides share a drawing
    return Pieces(width, height, shape.bleed, tuple(pieces) * tokens.copies, cut=cut, two_sided=two_sided)


def plain_back(asset: Asset | None, shape: Shape) -> Drawing | None:
    """The back of a token the spec gives no back: its asset colour (with the ink saver, its
    badge and code), or nothing at all."""
    if asset is None:
        return None
    if shape.ink_saver:
        return token_face(Side(asset, value=asset.initial or asset.id), shape, what=f"{asset.id} token back")
    w, h, b = shape.width, shape.height, shape.bleed
    return Drawing(w, h, (Rect(-b, -b, w + 2 * b, h + 2 * b, Style(fill=asset.color)),), b)


_FACES: dict[tuple[Side, Shape], Drawing] = {}  # a face depends on its side and shape alone
_MAX_FACES = 2048


def token_face(side: Side, shape: Shape, *, what: str) -> Drawing:
    """One side (`what` names it in errors); each side of each shape is laid out once a process
    (choosing its rows tries dozens of layouts), so rebuilds, `pnp watch` and the kits of other
    languages reuse it: a face never prints its asset's name, so a translated name (the pound's
    "Libra", "Фунт") finds the face its other languages laid out."""
    key = (replace(side, asset=_unnamed(side.asset)), shape)
    if key not in _FACES:
        if len(_FACES) >= _MAX_FACES:
            _FACES.clear()
        _FACES[key] = _token_face(side, shape, what)
    return _FACES[key]


def _unnamed(asset: Asset | None) -> Asset | None:
    return asset.model_copy(update={"name": "", "name_en": ""}) if asset is not None else None


def _token_face(side: Side, shape: Shape, what: str) -> Drawing:
    """One side: colour fill, an inner ring following the cut, then the rows of content."""
    w, h, b = shape.width, shape.height, shape.bleed
    asset = side.asset
    fill = asset.color if asset and not shape.ink_saver else WHITE
    ink = ink_on(fill)
    line, width = _ring_line(asset, shape, ink)
    items: list[Item] = [] if fill == WHITE else [Rect(-b, -b, w + 2 * b, h + 2 * b, Style(fill=fill))]
    if asset is not None and asset.pattern != "none" and shape.kind != "circle":
        shape = replace(shape, frame=round(0.07 * min(w, h), 2))
        items += _pattern_frame(asset, shape, line, fill)
        items.append(_ring(shape, shape.frame, Style(stroke=line, width=width)))
    else:
        items.append(_ring(shape, shape.margin * 0.45, Style(stroke=line, width=width)))
    items += _rows(side, shape, ink, what)
    return Drawing(w, h, tuple(items), b)


def _ring(shape: Shape, inset: float, style: Style) -> Item:
    w, h = shape.width, shape.height
    if shape.kind == "circle":
        return Circle(w / 2, h / 2, min(w, h) / 2 - inset, style)
    if shape.kind in POLYGON_CUTS:
        return Polygon(shape.outline(inset), style)
    radius = ROUNDED_CUT * min(w, h) - inset if shape.kind == "rounded" else 0.0
    return Rect(inset, inset, w - 2 * inset, h - 2 * inset, style, radius=max(radius, 0.0))


def _pattern_frame(asset: Asset, shape: Shape, ink: str, ground: str) -> list[Item]:
    """The asset's pattern in a border from the bleed to `shape.frame` inside the cut: on a
    token too small for a patterned badge, the second cue besides colour runs round the edge.
    The pattern covers the whole face once and a plain panel of the colour covers its middle
    (four clipped copies would quadruple the lines in the PDF)."""
    w, h, b, f = shape.width, shape.height, shape.bleed, shape.frame
    spacing = max(0.9, f * 0.75)
    middle = Style(fill=ground)
    if shape.kind in POLYGON_CUTS:
        panel: Item = Polygon(shape.outline(f), middle)
    else:
        panel = Rect(f, f, w - 2 * f, h - 2 * f, middle)
    return [
        pattern(asset.pattern, -b, -b, w + 2 * b, h + 2 * b, ink, spacing=spacing, width=spacing * 0.22),
        panel,
    ]


@dataclass(frozen=True)
class Row:
    """One row of a token's content: what it shows, where (mm), and the x-range it may use."""

    kind: str  # "title" | "badge" | "value" | "subtitle" | "text"
    y: float
    height: float
    x0: float
    x1: float


def _rows(side: Side, shape: Shape, ink: str, what: str) -> list[Item]:
    """The value in the middle, the symbol and the title above it, the subtitle and small
    print below — laid out to give the value the largest type the shape allows.

    The rows near a circle's rim are narrow, so candidate layouts (value heights, the block
    nudged up or down, small print on one line or two) are measured from font metrics
    without drawing, and the one with the largest value that still fits every row wins — of
    those that fit the small print at 7 pt (body text: docs/validate.md) when any does, else
    at 6 pt.
    """
    return [Group(tuple(_row_item(row, side, shape, ink, what) for row in _best_rows(side, shape, what)))]


def _ring_line(asset: Asset | None, shape: Shape, ink: str) -> tuple[str, float]:
    """The inner ring's colour and width (mm): with the ink saver, a heavier line in the asset's
    colour (the token is paper); else a thin one in the ink on the fill (black with no asset)."""
    if asset and shape.ink_saver:
        return asset.color, 0.5
    return (ink if asset else BLACK), 0.25


def _best_rows(side: Side, shape: Shape, what: str) -> tuple[Row, ...]:
    """The rows of the candidate layout with the largest value that fits (small print at 7 pt
    when any layout fits it, else at 6 pt); a BuildError when none fits at 6 pt."""
    for least in (SMALL_PT, MIN_PT):  # small print at 7 pt, a body text's size, before a larger value
        best = _best_plan(side, shape, least)
        if best:
            return best
    words = " / ".join(t for t in (side.title, side.value, side.subtitle, side.text) if t)
    raise BuildError(f"{what}: the {shape.width:g} × {shape.height:g} mm token has no room for {words!r} at 6 pt")


def _row_item(row: Row, side: Side, shape: Shape, ink: str, what: str) -> Item:
    """One row drawn: the asset's badge (on paper its colour, else its symbol in ink), or a
    text fitted to the row."""
    if row.kind == "badge" and side.asset is not None:
        cy = row.y + row.height / 2
        size = _symbol_size(shape, cy, row.height * 0.85)
        if shape.ink_saver:  # on paper the badge carries the colour, and its outline the shape
            return asset_badge(side.asset, shape.width / 2, cy, size)
        return symbol(side.asset.symbol, shape.width / 2, cy, size, Style(fill=ink))
    size, font = (VALUE_PT, "bold") if row.kind == "value" else (SMALL_PT, _font(row.kind))
    return fit_text(getattr(side, row.kind), row.x0, row.y, row.x1 - row.x0, row.height,
                    size=size, min_size=MIN_PT, font=font, color=ink, what=what)  # fmt: skip


def _best_plan(side: Side, shape: Shape, least: float) -> tuple[Row, ...]:
    """The rows of the candidate layout with the largest value that fits with the small print
    at `least` pt or more; none when no candidate fits."""
    best: tuple[float, tuple[Row, ...]] | None = None
    for height, shift, wrap in _candidates(shape):  # the first of the largest values wins
        if best is not None and _largest(height) <= best[0]:
            break  # the candidates left have values this tall or shorter: none can be larger
        score, found = _plan(side, shape, height, shift, wrap, least)
        if found and (best is None or score > best[0]):
            best = (score, found)
    return best[1] if best is not None else ()


def _candidates(shape: Shape) -> list[tuple[float, float, bool]]:
    """(value height, vertical shift, wrap small print) to try, tallest value first."""
    inner = shape.height - 2 * shape.margin
    heights = [inner * k / 40 for k in range(40, 7, -1)]
    shifts = (0.0, -0.05, 0.05, -0.1, 0.1, -0.15, 0.15)
    return [(h, shift * shape.height, wrap) for h in heights for shift in shifts for wrap in (False, True)]


def _plan(side: Side, shape: Shape, value_h: float, shift: float, wrap: bool, least: float = MIN_PT,
          ) -> tuple[float, tuple[Row, ...]]:
    """Rows around a value `value_h` tall — the whole block centred, then moved `shift` mm
    down —, the small print at `least` pt or more, and the value's type size (0 with no rows
    when something would not fit)."""
    stack, value_at = _stack(side, shape, value_h, shift, wrap, least)
    m = shape.margin
    (_, top, _, _), (_, last, height, _) = stack[0], stack[-1]
    if top < m - 1e-9 or last + height > shape.height - m + 1e-9:  # `_rows_fit`'s first test, before any chord
        return 0.0, ()
    rows = [Row(kind, y0, h, *shape.chord(y0, y1)) for kind, y0, h, y1 in stack]
    if not _rows_fit(side, shape, rows, least):
        return 0.0, ()
    value = rows[value_at]
    by_width = (value.x1 - value.x0) / text_width(side.value, "bold", 1.0) if side.value else VALUE_PT
    size = min(_largest(value.height), by_width)
    return (size, tuple(rows)) if size >= MIN_PT else (0.0, ())


def _largest(value_h: float) -> float:
    """The largest type a value `value_h` mm tall may have, however wide its row: what lets
    `_rows` stop trying shorter values once one as large has been found."""
    return min(VALUE_PT, value_h / block_height(1, 1.0))


def _stack(side: Side, shape: Shape, value_h: float, shift: float, wrap: bool, least: float = MIN_PT,
           ) -> tuple[list[tuple[str, float, float, float]], int]:
    """The side's rows top to bottom — badge and title above the value, subtitle and text
    below —, each as (kind, top, height, bottom), and the index of the value's row: where they go,
    before how wide they may be (the shape's chord at each) is worked out."""
    heights = _row_heights(side, shape, value_h, wrap, least)
    above: list[str] = [k for k in ("badge", "title") if k in heights]  # outward from the value
    below = [k for k in ("subtitle", "text") if k in heights]
    over, under = sum(heights[k] for k in above), sum(heights[k] for k in below)
    cy = shape.height / 2 + (over - under) / 2 + shift
    rows = [("value", cy - value_h / 2, value_h, cy + value_h / 2)]
    y = cy - value_h / 2
    for kind in above:
        y -= heights[kind]
        rows.insert(0, (kind, y, heights[kind], y + heights[kind]))
    y = cy + value_h / 2
    for kind in below:
        rows.append((kind, y, heights[kind], y + heights[kind]))
        y += heights[kind]
    return rows, len(above)


def _rows_fit(side: Side, shape: Shape, rows: list[Row], least: float = MIN_PT) -> bool:
    """Whether the rows stay inside the margin, the badge is not too small to tell, and each
    line of small print (or its longest word, when it wraps) fits its row at `least` pt."""
    m = shape.margin
    if rows[0].y < m - 1e-9 or rows[-1].y + rows[-1].height > shape.height - m + 1e-9:
        return False
    for row in rows:
        room = row.x1 - row.x0
        if row.kind == "badge":
            smallest = MIN_SYMBOL * min(shape.width, shape.height)
            if _symbol_size(shape, row.y + row.height / 2, row.height * 0.85) < smallest:
                return False
        elif row.kind != "value":
            text = getattr(side, row.kind)
            one_line = row.height < block_height(2, SMALL_PT)
            if text_width(text if one_line else _longest_word(text), _font(row.kind), least) > room:
                return False
    return True


def _font(kind: str) -> str:
    """Small print is set in the regular weight: For-Ex's "USD⁄CAD" keeps 7 pt on a 14 mm counter."""
    return "regular"


def _longest_word(text: str) -> str:
    return max(text.split(), key=len, default="")


def _row_heights(side: Side, shape: Shape, value_h: float, wrap: bool, least: float) -> dict[str, float]:
    """The height of each row the side has besides its value: the badge (an asset's side), then
    the title, subtitle and text it prints."""
    heights = {"badge": value_h * 0.55} if side.asset is not None else {}
    for kind in ("title", "subtitle", "text"):
        if getattr(side, kind):
            heights[kind] = _small_height(getattr(side, kind), kind, shape, wrap, least)
    return heights


def _small_height(text: str, kind: str, shape: Shape, wrap: bool, least: float = MIN_PT) -> float:
    """One line of small print; with `wrap`, two when one line at `least` pt would be wider
    than the token (a token's words are short: never more)."""
    lines = 2 if wrap and text_width(text, _font(kind), least) > shape.width - 2 * shape.margin else 1
    return block_height(lines, SMALL_PT) * 1.04


def _symbol_size(shape: Shape, cy: float, most: float) -> float:
    """The largest symbol (up to `most` mm) centred at height `cy` that stays inside the margin."""
    size = most
    while size > 0:
        x0, x1 = shape.chord(cy - size / 2, cy + size / 2)
        if x1 - x0 >= size:
            return size
        size -= 0.1
    return 0.0
