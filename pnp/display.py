"""The display list: what to draw, in millimetres, with no backend in sight.

Coordinates are mm with the origin at the top-left and y growing downwards, as on paper.
Generators build `Drawing`s from these items; layout places drawings on pages; backends
(PDF, SVG) render the same items with identical geometry. Text arrives here already fitted
and broken into lines (see `pnp.layout.text`), so no backend ever measures or wraps.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, Literal, Union

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]  # a b c d e f: x' = a x + c y + e, y' = b x + d y + f
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Style:
    """Fill and stroke; colours are "#rrggbb", None means none. Widths in mm."""

    fill: str | None = None
    stroke: str | None = None
    width: float = 0.25
    dash: tuple[float, ...] = ()  # mm on, mm off, …
    opacity: float = 1.0


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    style: Style = Style(stroke="#000000")
    radius: float = 0.0


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    style: Style = Style(stroke="#000000")


@dataclass(frozen=True)
class Polygon:
    """A polyline, closed (a polygon) or open."""

    points: tuple[Point, ...]
    style: Style = Style(stroke="#000000")
    closed: bool = True


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    style: Style = Style(stroke="#000000")


TextRole = Literal["body", "small", "decoration"]
# The least type size of each role (docs/validate.md): body text — everything a player reads to
# play — 7 pt; small print — a copyright or credits line, sheet furniture, stamps, and what the
# spec marks so (a deck's `layout.small_print`) — 6 pt, the least anything is set at (VISUAL.md);
# decoration — a faint watermark repeating what the face prints legibly elsewhere — none, and
# no contrast asked of it either.
ROLE_MIN_PT: dict[str, float] = {"body": 7.0, "small": 6.0, "decoration": 0.0}


@dataclass(frozen=True)
class Text:
    """One line of text. (x, y) is the baseline point the anchor refers to; size in points."""

    x: float
    y: float
    text: str
    size: float
    font: str = "regular"  # "regular" | "bold": logical names resolved by the backends
    color: str = "#000000"
    anchor: str = "start"  # "start" | "middle" | "end"
    outline: float = 0.0  # mm: above 0 the glyphs are outlined in `color` this wide, not filled (the ink saver's large type)
    role: TextRole = "body"  # what the text is for, which sets the least size the checks accept (`ROLE_MIN_PT`)


@dataclass(frozen=True)
class Image:
    """An image file's bytes stretched to the box: PNG or JPEG (embedded as they are) or SVG
    (drawn as vectors). Items compare and hash by `digest`, the SHA-256 of the bytes, so a hash
    of a display list covers its art without rereading it."""

    x: float
    y: float
    w: float
    h: float
    data: bytes = field(repr=False, compare=False)
    format: Literal["png", "jpeg", "svg"] = "png"
    digest: str = ""  # computed from `data` when not given
    pixels: tuple[int, int] = (0, 0)  # a raster's size, for its resolution at the printed size
    name: str = ""  # the file as the spec names it, for messages

    def __post_init__(self) -> None:
        if not self.digest:
            object.__setattr__(self, "digest", hashlib.sha256(self.data).hexdigest())


@dataclass(frozen=True)
class Group:
    """Items under a transform, optionally clipped to a rectangle in the group's own coordinates."""

    items: tuple["Item", ...]
    transform: Matrix = IDENTITY
    clip: Rect | None = None


Item = Union[Rect, Line, Polygon, Circle, Text, Image, Group]


@dataclass(frozen=True)
class Drawing:
    """A component face or a panel: `width` × `height` mm of trimmed size.

    Items may extend `bleed` mm beyond the trim on every side (cards printed to the edge);
    layout clips them there.
    """

    width: float
    height: float
    items: tuple[Item, ...]
    bleed: float = 0.0
    seams_x: tuple[float, ...] = ()  # where a tiled board may be split (between cells), never through a number


Box = tuple[float, float, float, float]  # x, y, width, height in mm
Cut = Literal["rect", "circle", "rounded", "hexagon", "octagon"]  # a piece's cut line


@dataclass(frozen=True)
class Page:
    """One sheet of paper in a document; width and height in mm."""

    width: float
    height: float
    items: tuple[Item, ...]
    label: str = ""  # e.g. "shares — fronts 1/10", for file names and the assembly map
    trim: Box | None = None  # where a print shop cuts a page that is one piece (PDF TrimBox)
    bleed: Box | None = None  # how far its printing may run past the cut (PDF BleedBox)


# --- what generators hand to layout ---------------------------------------------------------

SAFE_SHARE = 0.1  # a piece's safe zone is never deeper than this share of its shorter side


def safe_zone(safe_mm: float, width: float, height: float) -> float:
    """How far inside its cut a piece keeps its words and symbols: `print.safe_mm`, but at most
    a tenth of its shorter side (a 14 mm token's margin is 1.4 mm)."""
    return min(safe_mm, SAFE_SHARE * min(width, height))


ROUNDED_CUT = 0.2  # × the shorter side: the corner radius of a "rounded" piece's cut line,
# which generators draw inside and layout cuts along
POLYGON_CUTS = {"hexagon": 6, "octagon": 8}  # cut lines that are regular polygons: their sides


def cut_polygon(cut: str, x: float, y: float, w: float, h: float) -> tuple[Point, ...]:
    """The regular hexagon (corners left and right, flat top and bottom) or octagon (flat on
    all four sides) as large as fits the box, centred in it: the cut line of such a piece."""
    sides = POLYGON_CUTS[cut]
    if sides == 6:
        radius, start = min(w / 2, h / math.sqrt(3)), 0.0
    else:
        radius, start = min(w, h) / (2 * math.cos(math.pi / 8)), math.pi / 8
    cx, cy = x + w / 2, y + h / 2
    return tuple((cx + radius * math.cos(start + 2 * math.pi * i / sides),
                  cy + radius * math.sin(start + 2 * math.pi * i / sides)) for i in range(sides))


@dataclass(frozen=True)
class PieceArt:
    """One physical piece: its front and its back, both drawn at the same trim size."""

    front: Drawing
    back: Drawing | None  # None: nothing printed on the back


@dataclass(frozen=True)
class Pieces:
    """Cards, tokens or bills of one size, in print order."""

    width: float  # trim size, mm
    height: float
    bleed: float
    pieces: tuple[PieceArt, ...]
    cut: Cut = "rect"  # the cut line's shape
    two_sided: bool = False  # the backs carry rules (a "+20" side) or tell decks apart: printed even without duplex


@dataclass(frozen=True)
class Panels:
    """Boards, mats, aids and forms: each drawing gets its own page(s)."""

    drawings: tuple[Drawing, ...]


@dataclass(frozen=True)
class BookPages:
    """A booklet's pages in reading order, all one size: layout imposes them for folding."""

    pages: tuple[Drawing, ...]


def with_role(item: Item, role: TextRole) -> Item:
    """`item` with every text in it given `role` (`Text.role`: small print, decoration)."""
    if isinstance(item, Text):
        return replace(item, role=role)
    if isinstance(item, Group):
        return replace(item, items=tuple(with_role(part, role) for part in item.items))
    return item


# --- transforms ---------------------------------------------------------------------------


def translate(dx: float, dy: float) -> Matrix:
    return (1.0, 0.0, 0.0, 1.0, dx, dy)


def scale(sx: float, sy: float | None = None) -> Matrix:
    return (sx, 0.0, 0.0, sx if sy is None else sy, 0.0, 0.0)


def rotate(degrees: float, cx: float = 0.0, cy: float = 0.0) -> Matrix:
    """Rotation by `degrees` (clockwise on paper, since y points down) about (cx, cy)."""
    r = math.radians(degrees)
    c, s = round(math.cos(r), 12), round(math.sin(r), 12)
    return (c, s, -s, c, cx - c * cx + s * cy, cy - s * cx - c * cy)


def compose(outer: Matrix, inner: Matrix) -> Matrix:
    """The matrix applying `inner` first, then `outer`."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


def apply(matrix: Matrix, point: Point) -> Point:
    a, b, c, d, e, f = matrix
    x, y = point
    return (a * x + c * y + e, b * x + d * y + f)


def place(drawing: Drawing, x: float, y: float, *, clip_bleed: bool = True) -> Group:
    """The drawing's items positioned with its trim's top-left corner at (x, y)."""
    clip = None
    if clip_bleed:
        b = drawing.bleed
        clip = Rect(-b, -b, drawing.width + 2 * b, drawing.height + 2 * b, Style())
    return Group(drawing.items, translate(x, y), clip)


# --- fingerprints ---------------------------------------------------------------------------


_SCALARS = (str, int, float, bool, type(None))
_CONTAINERS = (Group, Drawing, Page, PieceArt, Pieces, Panels, BookPages, Image)  # digested field by field
_BY_FIELD, _BY_PART, _AS_BYTES, _BY_REPR = range(4)  # how a type of value is digested
_KINDS: dict[type, tuple[bytes, int, tuple[str, ...]]] = {}  # type → its name, how, its fields (`_kind`)

for _leaf in (Style, Rect, Line, Polygon, Circle, Text):  # immutable trees, never cycles: no recursion guard
    _leaf.__repr__ = _leaf.__repr__.__wrapped__  # type: ignore[attr-defined,method-assign]  # dataclass's own repr, unguarded


def fingerprint(value: Any, *, mask: str = "", memo: dict[int, bytes] | None = None) -> str:
    """A stable hex digest of display items (pages, drawings, pieces, tuples of them) by value.

    Equal structures give equal digests in any process, however their objects are shared
    (copies of a card share one drawing), so a digest can stand for what is printed: it keys
    the build cache and says which sheets changed. Text equal to `mask` counts as blank, so a
    sheet's digest leaves out the stamp printed on it. `memo` shares the digests of sub-trees
    between calls with the same `mask` (the sheets of one component): every value digested
    with it must stay alive as long as it is used (it is keyed by `id`). A leaf (a shape, a
    text, a style, a number) is digested by its exact repr.
    """
    memo = {} if memo is None else memo  # by id: shared sub-trees are digested once
    blake2b = hashlib.blake2b

    def digest(item: Any) -> bytes:
        known = memo.get(id(item))
        if known is not None:
            return known
        name, how, names = _KINDS.get(type(item)) or _kind(type(item))
        h = blake2b(name, digest_size=16)
        if how == _BY_REPR:
            shown = item
            if mask and isinstance(item, Text) and item.text == mask:
                shown = replace(item, text="")
            h.update(repr(shown).encode())
        elif how == _BY_FIELD:
            for field_name in names:
                h.update(digest(getattr(item, field_name)))
        elif how == _BY_PART:
            if all(type(part) in _SCALARS for part in item):
                h.update(repr(item).encode())
            else:
                for part in item:
                    h.update(digest(part))
        else:
            h.update(item)
        memo[id(item)] = result = h.digest()
        return result

    return digest(value).hex()


def _kind(kind: type) -> tuple[bytes, int, tuple[str, ...]]:
    """How `fingerprint` digests a value of this type, found once."""
    if issubclass(kind, _CONTAINERS):
        how, names = _BY_FIELD, tuple(f.name for f in fields(kind))
    elif issubclass(kind, (tuple, list)):
        how, names = _BY_PART, ()
    elif issubclass(kind, bytes):
        how, names = _AS_BYTES, ()
    elif is_dataclass(kind) or kind in _SCALARS:
        how, names = _BY_REPR, ()
    else:
        raise TypeError(f"cannot fingerprint a {kind.__name__}")
    _KINDS[kind] = found = (kind.__name__.encode(), how, names)
    return found
