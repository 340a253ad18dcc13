"""Imposition: same-size pieces (cards, tokens, bills) on sheets, with bleed, crop marks and backs.

The grid is planned one axis at a time. First the count: as many pieces as fit with room for
crop marks. Then the slack: each piece gets the same bleed `e` on every edge of that axis, up
to the art's bleed, so neighbours sit `2e` apart with their art reaching into the gutter: a cut
that strays shows the piece's own art, never its neighbour's. Pieces never share a cut line
(unless their art has no bleed at all): every cut gets at least `MIN_GUTTER_BLEED_MM` of art
either side. When that and the crop marks beyond the grid do not both fit (three rows of poker
cards on Letter), the marks move into the gutters between the pieces — cut away with them —
and the grid takes the whole axis, with at least `INNER_BLEED_MM` either side of every cut. The
grid is centred on the paper, so mirroring it about the paper's centre gives the same slots:
the backs of a long-edge duplex sheet are the fronts' columns reversed, of a short-edge one the
rows reversed, and a fold sheet puts the backs in the other half, mirrored about the dashed
fold line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Iterator, Literal, Sequence

from pnp.display import (
    POLYGON_CUTS,
    ROUNDED_CUT,
    Circle,
    Drawing,
    Group,
    Item,
    Line,
    Page,
    PieceArt,
    Pieces,
    Polygon,
    Rect,
    Style,
    Text,
    cut_polygon,
    translate,
)
from pnp.errors import BuildError
from pnp.i18n import _
from pnp.layout.registration import CODE_PATTERN, INSET_MM, Cutter, Registration, layout_code, registration
from pnp.layout.sheet import MARK_ZONE_MM, Box, Frame, Furniture, clear_of, crop_marks, frame, furniture

Duplex = Literal["long", "short", "fold", "none"]
Side = Literal["front", "back"]
MIN_GUTTER_BLEED_MM = 1.0  # art either side of every cut between pieces (less only where the art has less)
INNER_BLEED_MM = 0.75  # the least either side of a cut when the crop marks sit in the gutters
GOOD_BLEED_MM = 2.0  # bleed that hides a home printer's usual duplex misregistration
CUT_STYLE = Style(stroke="#000000", width=0.15)
FOLD_STYLE = Style(stroke="#000000", width=0.2, dash=(2.0, 1.5))
FULL = 10**6  # "as many pieces as a sheet holds": planning for this many maximises a sheet


@dataclass(frozen=True)
class Axis:
    """Where the pieces sit along one direction of the sheet."""

    count: int
    size: float  # a piece's trim size along this axis
    gutter: float  # between neighbouring trims; 0 = butted, one shared cut (art without bleed only)
    outer: float  # bleed beyond the first and the last trim
    start: float  # page coordinate of the first trim edge
    inner: bool = False  # no room for crop marks beyond the ends: the marks of the cuts across sit in the gutters

    @property
    def extent(self) -> float:
        return self.count * self.size + (self.count - 1) * self.gutter

    def position(self, index: int) -> float:
        return self.start + index * (self.size + self.gutter)

    def bleed_before(self, index: int) -> float:
        return self.outer if index == 0 else self.gutter / 2

    def bleed_after(self, index: int) -> float:
        return self.outer if index == self.count - 1 else self.gutter / 2


def plan_axis(lo: float, hi: float, size: float, bleed: float, count: int | None = None) -> Axis | None:
    """The best use of [lo, hi] for `count` pieces (default: as many as fit) `size` long with
    up to `bleed` of art around them, every cut between pieces with its share of art (see the
    module's docstring): crop marks beyond both ends when they fit, else in the gutters; None
    if the pieces do not fit."""
    if count is None:
        found = [a for a in (plan_axis(lo, hi, size, bleed, n) for n in range(math.floor((hi - lo) / size + 1e-9), 0, -1))
                 if a is not None]
        return found[0] if found else None
    if count < 1:
        return None
    least = min(bleed, MIN_GUTTER_BLEED_MM)
    for inner, room in ((False, hi - lo - 2 * MARK_ZONE_MM), (True, hi - lo)):
        slack = room - count * size
        if slack < -1e-9 or (inner and (count < 2 or least <= 0)):
            continue
        each = min(bleed, max(slack, 0.0) / (2 * count))  # the same bleed on every edge, gutters = 2 × each
        if count > 1 and each < (min(least, INNER_BLEED_MM) if inner else least) - 1e-9:
            continue
        extent = count * size + (count - 1) * 2 * each
        return Axis(count, size, 2 * each, each, lo + (hi - lo - extent) / 2, inner)
    return None


def _axes(lo: float, hi: float, size: float, bleed: float) -> list[Axis]:
    """Every way to fill [lo, hi]: one axis per count, from the most pieces down to one."""
    top = math.floor((hi - lo) / size + 1e-9)
    return [a for a in (plan_axis(lo, hi, size, bleed, n) for n in range(top, 0, -1)) if a]


@dataclass(frozen=True)
class Grid:
    """Slots of one sheet: columns × rows in a region of a frame."""

    frame: Frame
    columns: Axis
    rows: Axis
    fold: Literal["", "upright", "across"] = ""  # fold mode: the fold line's direction
    blocked: frozenset[tuple[int, int]] = frozenset()  # (column, row) slots a cutting machine's marks keep free

    @property
    def per_page(self) -> int:
        return self.columns.count * self.rows.count - len(self.blocked)

    @property
    def free(self) -> tuple[tuple[int, int], ...]:
        """The slots pieces go in, row by row: (column, row)."""
        return tuple((c, r) for r in range(self.rows.count) for c in range(self.columns.count)
                     if (c, r) not in self.blocked)

    @property
    def bleed(self) -> float:
        """The least art any cut edge has beyond it (0 where pieces are butted)."""
        return min(a.gutter / 2 if a.count > 1 else a.outer for a in (self.columns, self.rows))

    def trim(self, column: int, row: int) -> Box:
        return Box(self.columns.position(column), self.rows.position(row), self.columns.size, self.rows.size)

    def bleeds(self, column: int, row: int) -> tuple[float, float, float, float]:
        """Art allowed beyond the trim: left, top, right, bottom."""
        c, r = self.columns, self.rows
        return c.bleed_before(column), r.bleed_before(row), c.bleed_after(column), r.bleed_after(row)

    def bleed_box(self, column: int, row: int) -> Box:
        left, top, right, bottom = self.bleeds(column, row)
        t = self.trim(column, row)
        return Box(t.x - left, t.y - top, t.w + left + right, t.h + top + bottom)


@dataclass(frozen=True)
class Placed:
    """One face of one piece on one page: the imposition's machine-readable record."""

    piece: int  # index into Pieces.pieces
    side: Side
    page: int  # index into Imposition.pages
    trim: Box
    cut: str = "rect"  # the cut line's shape (`Pieces.cut`)


@dataclass(frozen=True)
class Imposition:
    pages: tuple[Page, ...]
    placed: tuple[Placed, ...]
    grid: Grid  # the fronts' grid (a shared sheet's first band)
    duplex: Duplex  # as printed: "none" when no piece has a back
    sheets: int  # sheets of paper
    bleed: tuple[float, float] = (0.0, 0.0)  # the least art beyond any cut: at the sides, above and below
    registration: Registration | None = None  # a cutting machine's marks, on every front page
    gain: int = 0  # pieces a sheet holds more with the marks' inset than with the usual 10 mm


def given_bleed(grids: Sequence[Grid]) -> tuple[float, float]:
    """The least bleed any cut of these grids gets, across (left and right) and down (above and
    below): what the print plan reports against `print.bleed_mm`."""
    def least(axis: Axis) -> float:
        return min(axis.outer, axis.gutter / 2) if axis.count > 1 else axis.outer

    return (round(min(least(g.columns) for g in grids), 3), round(min(least(g.rows) for g in grids), 3))


@lru_cache(maxsize=512)  # every kit of a game plans the same pieces on the same paper
def plan(width: float, height: float, bleed: float, paper: str, margin: float,
         duplex: Duplex = "none", pieces: int | None = None, cut: Cutter | None = None) -> Grid:
    """The grid for `pieces` pieces (default: a full sheet's worth): fewest sheets first, then
    crop marks beyond the grid rather than in its gutters, then bleed up to `GOOD_BLEED_MM` on every cut (what a home duplex's misregistration needs), then
    furniture above and below (every sheet of a kit then reads the same way; at the sides only
    when that saves paper or buys that bleed), then more bleed, then the most pieces a sheet. Portrait or landscape, furniture
    above and below or at the sides; for `fold`, the fronts' half of the sheet. Duplex sheets
    stay portrait unless landscape saves paper: printer drivers turn landscape pages before
    flipping them, and a portrait sheet is the one case every driver agrees on. With `cut`, a
    cutting machine's registration marks are on the sheet: slots in their keep-out zones stay
    empty, and the furniture runs between them."""
    candidates: list[tuple[Any, ...]] = []
    for landscape in (False, True):
        for sideways in (False, True):
            f = frame(paper, margin, landscape=landscape, sideways=sideways)
            reg = registration(cut, f.width, f.height) if cut else None
            f = reg.kept_clear(f) if reg else f
            for fold, region in _regions(_within(f.content, reg), duplex):
                for columns in _axes(region.x, region.right, width, bleed):
                    for rows in _axes(region.y, region.bottom, height, bleed):
                        grid = _clear(Grid(f, columns, rows, fold), reg)  # type: ignore[arg-type]  # fold: one of _regions' names
                        if grid.per_page < 1:
                            continue
                        sheets = math.ceil((pieces or FULL) / grid.per_page)
                        turned = landscape and duplex in ("long", "short")
                        edge = round(grid.bleed, 6)
                        inner = columns.inner + rows.inner  # crop marks in the gutters only where they must
                        candidates.append((sheets, turned, inner, -min(edge, GOOD_BLEED_MM), sideways, -edge,
                                           -grid.per_page, landscape, len(candidates), grid))
    if not candidates:
        where = "half a sheet of " if duplex == "fold" else ""
        advice = " (print them with duplex long or short)" if duplex == "fold" else ""
        short, long = _largest_piece(paper, margin, duplex)
        raise BuildError(f"pieces of {width:g} × {height:g} mm do not fit on {where}{paper} paper with its "
                         f"margins and crop marks: at most {short:g} × {long:g} mm, either way round{advice}",
                         size=True)
    return min(candidates)[-1]


def _largest_piece(paper: str, margin: float, duplex: Duplex) -> tuple[float, float]:
    """The largest piece (short side, long side in mm, to 0.1 mm) one sheet holds, for the
    error that says how much a piece must lose."""
    sizes = [(region.w - 2 * MARK_ZONE_MM, region.h - 2 * MARK_ZONE_MM)
             for landscape in (False, True) for sideways in (False, True)
             for _, region in _regions(frame(paper, margin, landscape=landscape, sideways=sideways).content, duplex)]
    w, h = max(sizes, key=lambda size: size[0] * size[1])
    return math.floor(min(w, h) * 10) / 10, math.floor(max(w, h) * 10) / 10


def _coded(layout: Imposition) -> Imposition:
    """Each front page that carries marks with the code of its marks and trims beside them
    (`registration.layout_code`), in place of any code it had (`fill` adds pieces to a sheet)."""
    reg = layout.registration
    if reg is None or not reg.marks:
        return layout
    pages = list(layout.pages)
    f = layout.grid.frame
    for index, _width, _height, lines in cut_lines(layout):
        page = pages[index]
        kept = tuple(item for item in page.items[:-1] if not _is_code(item))
        pages[index] = replace(page, items=(*kept, reg.code_item(f, layout_code(reg, lines)), page.items[-1]))
    return replace(layout, pages=tuple(pages))


def _is_code(item: Item) -> bool:
    return (isinstance(item, Group) and len(item.items) == 1 and isinstance(item.items[0], Text)
            and item.items[0].font == "bold" and CODE_PATTERN.fullmatch(item.items[0].text) is not None)


def _within(content: Box, reg: Registration | None) -> Box:
    """The content box, cut down to the machine's cutting area (Cricut's) if it has one."""
    if reg is None:
        return content
    a = reg.area
    x, y = max(content.x, a.x), max(content.y, a.y)
    return Box(x, y, max(0.0, min(content.right, a.right) - x), max(0.0, min(content.bottom, a.bottom) - y))


def _clear(grid: Grid, reg: Registration | None) -> Grid:
    """The grid with the slots whose art (trim and bleed) would reach a keep-out zone blocked."""
    if reg is None:
        return grid
    blocked = frozenset((c, r) for r in range(grid.rows.count) for c in range(grid.columns.count)
                        if not reg.clear(grid.bleed_box(c, r)))
    return replace(grid, blocked=blocked)


def _regions(content: Box, duplex: Duplex) -> Iterator[tuple[str, Box]]:
    """Where the fronts go: all the content box, or for `fold` the half left of an upright
    fold line or above a fold line across."""
    if duplex != "fold":
        yield "", content
        return
    yield "upright", Box(content.x, content.y, content.w / 2, content.h)
    yield "across", Box(content.x, content.y, content.w, content.h / 2)


def impose(pieces: Pieces, paper: str, margin: float, duplex: Duplex, info: Furniture,
           back_offset: tuple[float, float] = (0.0, 0.0), cut: Cutter | None = None) -> Imposition:
    """Every piece on sheets, fronts and backs in print order for `duplex`. Without duplex,
    pieces whose backs carry rules (`two_sided`: a token's "+20" side) are folded over instead,
    so no face the game needs is lost. With `cut` every front page carries that machine's
    registration marks, kept clear of pieces, and the code of its layout; folded sheets (glued
    before they are cut) carry none."""
    has_backs = any(p.back is not None for p in pieces.pieces)
    duplex = duplex if has_backs else "none"
    if duplex == "none" and pieces.two_sided:
        duplex = "fold"
    cut = cut if duplex != "fold" else None
    grid = plan(pieces.width, pieces.height, pieces.bleed, paper, margin, duplex, len(pieces.pieces), cut)
    reg = registration(cut, grid.frame.width, grid.frame.height) if cut else None
    usual = replace(cut, inset=INSET_MM) if cut and cut.inset != INSET_MM else None
    gain = grid.per_page - plan(pieces.width, pieces.height, pieces.bleed, paper, margin, duplex, len(pieces.pieces),
                                usual).per_page if usual else 0
    batches = [range(i, min(i + grid.per_page, len(pieces.pieces))) for i in range(0, len(pieces.pieces), grid.per_page)]
    pages: list[Page] = []
    placed: list[Placed] = []
    for number, batch in enumerate(batches, 1):
        where = _("sheet {n}").format(n=number)  # not "of m": a sheet reads the same when later sheets are added
        fronts = [(i, _slot(grid, k)) for k, i in enumerate(batch)]
        if duplex == "fold":
            backs = [(i, _mirror(grid, slot, "fold")) for i, slot in fronts]
            items = _faces(pieces, grid, fronts, "front") + _faces(pieces, grid, backs, "back") + (_fold_line(grid),)
            pages.append(_page(grid.frame, items, info, _("{where} · fold on the dashed line, then cut").format(where=where)))
            placed += (_record(grid, fronts, "front", len(pages) - 1, pieces)
                       + _record(grid, backs, "back", len(pages) - 1, pieces))
            continue
        items = _faces(pieces, grid, fronts, "front") + (reg.items() if reg else ())
        front_where = _("{where} · fronts").format(where=where) if duplex != "none" else where
        pages.append(_page(grid.frame, items, info, front_where))
        placed += _record(grid, fronts, "front", len(pages) - 1, pieces)
        if duplex in ("long", "short"):
            backs = [(i, _mirror(grid, slot, _flip(grid.frame, duplex))) for i, slot in fronts]
            items = (Group(_faces(pieces, grid, backs, "back"), translate(*back_offset)),)
            backs_where = (_("{where} · backs, flip on the long edge") if duplex == "long"
                           else _("{where} · backs, flip on the short edge"))
            pages.append(_page(grid.frame, items, info, backs_where.format(where=where)))
            placed += _record(grid, backs, "back", len(pages) - 1, pieces, back_offset)
    return _coded(Imposition(tuple(pages), tuple(placed), grid, duplex, len(batches), given_bleed([grid]), reg, gain))


def gang(groups: Sequence[Pieces], paper: str, margin: float, duplex: Duplex, info: Furniture,
         back_offset: tuple[float, float] = (0.0, 0.0), cut: Cutter | None = None) -> Imposition | None:
    """Several components' pieces on one sheet (two pages with backs), each in its own band of
    rows, stacked top to bottom: seven tokens and six loan markers need not take a sheet of
    card stock each. Pieces are numbered through the groups in order. None when they do not
    all fit one portrait sheet, or when `duplex` is fold (each sheet has its own fold line).
    With `cut`, the front carries the machine's registration marks, as `impose` does."""
    if duplex == "fold" or not groups:
        return None
    if duplex == "none" and any(g.two_sided for g in groups):
        return None
    has_backs = any(p.back is not None for g in groups for p in g.pieces)
    duplex = duplex if has_backs else "none"
    f = frame(paper, margin)
    reg = registration(cut, f.width, f.height) if cut else None
    f = reg.kept_clear(f) if reg else f
    grids = _bands(groups, _within(f.content, reg), f, reg)
    if grids is None:
        return None
    edge = _flip(f, duplex) if duplex in ("long", "short") else ""
    front_items, back_items, placed = _banded_faces(groups, grids, 0, (0, 1), edge, back_offset)
    where = _("sheet 1 of 1 · shared")
    front_items += reg.items() if reg else ()
    pages = [_page(f, tuple(front_items), info, f"{where} · fronts" if edge else where)]
    if edge:
        pages.append(_page(f, (Group(tuple(back_items), translate(*back_offset)),), info,
                           f"{where} · backs, flip on the {duplex} edge"))
    return _coded(Imposition(tuple(pages), tuple(placed), grids[0], duplex, 1, given_bleed(grids), reg))


def _banded_faces(groups: Sequence[Pieces], grids: Sequence[Grid], first: int, pages: tuple[int, int], edge: str,
                  back_offset: tuple[float, float]) -> tuple[list[Item], list[Item], list[Placed]]:
    """Each group's fronts in its band and, when there is an `edge` to flip about, its backs
    mirrored behind them; and where each piece went, numbered on from `first`, on the
    (front, back) `pages`."""
    front_items: list[Item] = []
    back_items: list[Item] = []
    placed: list[Placed] = []
    offset = first
    for group, grid in zip(groups, grids, strict=True):
        fronts = [(k, _slot(grid, k)) for k in range(len(group.pieces))]
        front_items += _faces(group, grid, fronts, "front")
        placed += [replace(p, piece=p.piece + offset) for p in _record(grid, fronts, "front", pages[0], group)]
        if edge:
            backs = [(i, _mirror(grid, slot, edge)) for i, slot in fronts]
            back_items += _faces(group, grid, backs, "back")
            placed += [replace(p, piece=p.piece + offset)
                       for p in _record(grid, backs, "back", pages[1], group, back_offset)]
        offset += len(group.pieces)
    return front_items, back_items, placed


def fill(host: Imposition, pieces: int, groups: Sequence[Pieces], paper: str, margin: float,
         back_offset: tuple[float, float] = (0.0, 0.0)) -> Imposition | None:
    """`host` (an imposition of `pieces` pieces) with small components' pieces in the room its
    last sheet leaves — below its last row, else beside the last row's last piece — each in its
    band of rows, backs behind their fronts: four price tokens need no sheet of their own when
    the cards' last sheet has two empty slots. None when they do not all fit there, or need
    backs the host's sheets do not print."""
    has_backs = any(p.back is not None for g in groups for p in g.pieces)
    if not groups or host.duplex == "fold" or (has_backs and host.duplex == "none"):
        return None
    grid, f = host.grid, host.grid.frame
    front_page, regions = _room_left(host)
    for region in regions:  # below the last row, else beside its last piece
        grids = _bands(groups, region, f, host.registration)
        if grids is not None:
            break
    if grids is None:
        return None
    duplex = host.duplex in ("long", "short")
    edge = _flip(f, host.duplex) if duplex else ""
    fronts_items, backs_items, placed = _banded_faces(groups, grids, pieces, (front_page, front_page + 1), edge,
                                                      back_offset)
    pages = list(host.pages)
    pages[front_page] = _with(pages[front_page], tuple(fronts_items))
    if duplex:
        pages[front_page + 1] = _with(pages[front_page + 1], (Group(tuple(backs_items), translate(*back_offset)),))
    bleed = given_bleed([grid, *grids])
    return _coded(Imposition(tuple(pages), (*host.placed, *placed), grid, host.duplex, host.sheets, bleed,
                             host.registration, host.gain))


def _room_left(host: Imposition) -> tuple[int, tuple[Box, Box]]:
    """The page of the host's last fronts, and the room on it: below its last row across the
    content, and beside the last row's last piece, each down to the content's foot."""
    grid, f = host.grid, host.grid.frame
    content = _within(f.content, host.registration)
    last_page = max(p.page for p in host.placed if p.side == "front")
    last = [p for p in host.placed if p.side == "front" and p.page == last_page]
    boxes = [_bleed_box(grid, p.trim) for p in last]
    bottom_row = [b for b in boxes if abs(b.y - max(c.y for c in boxes)) < 1e-6]
    below = Box(content.x, max(b.bottom for b in boxes) + MARK_ZONE_MM, content.w, 0.0)
    below = replace(below, h=content.bottom - below.y)
    beside_x = max(b.right for b in bottom_row) + MARK_ZONE_MM
    beside = Box(beside_x, bottom_row[0].y + MARK_ZONE_MM, content.right - beside_x, 0.0)
    beside = replace(beside, h=content.bottom - beside.y)
    return last[0].page, (below, beside)


def _bleed_box(grid: Grid, trim: Box) -> Box:
    """The art box of a piece placed at `trim` in `grid` (its slot found by position)."""
    column = round((trim.x - grid.columns.start) / (grid.columns.size + grid.columns.gutter))
    row = round((trim.y - grid.rows.start) / (grid.rows.size + grid.rows.gutter))
    return grid.bleed_box(column, row)


def _bands(groups: Sequence[Pieces], region: Box, f: Frame, reg: Registration | None) -> list[Grid] | None:
    """Each group's band of rows in `region`, top to bottom, with the most bleed that lets all
    of them fit (as `gang` does on a sheet of their own); None when they do not."""
    if region.w <= 0 or region.h <= 0:
        return None
    for cap in (math.inf, GOOD_BLEED_MM, MIN_GUTTER_BLEED_MM, 0.0):
        grids, y = [], region.y
        for group in groups:
            band = _band(group, region, y, min(group.bleed, cap), f, reg)
            if band is None:
                break
            grids.append(band[0])
            y += band[1]
        if len(grids) == len(groups):
            return grids
    return None


def _with(page: Page, items: tuple[Item, ...]) -> Page:
    """The page with `items` added under its furniture (which `_page` puts last)."""
    return replace(page, items=(*page.items[:-1], *items, page.items[-1]))


def _band(group: Pieces, content: Box, y: float, bleed: float, f: Frame,
          reg: Registration | None) -> tuple[Grid, float] | None:
    """One component's band of rows on a shared sheet, from `y` down, and its height: as many
    columns as fit with `bleed`, and as many rows as its pieces need once the slots a machine's
    marks keep free are left out; None when it does not fit above the content's foot."""
    room = content.w - 2 * MARK_ZONE_MM
    count = max(1, min(len(group.pieces), math.floor(room / (group.width + 2 * bleed) + 1e-9)))
    columns = plan_axis(content.x, content.right, group.width, group.bleed, count)
    if columns is None:
        return None
    lines = math.ceil(len(group.pieces) / count)
    while True:
        height = lines * (group.height + 2 * bleed) + 2 * MARK_ZONE_MM
        if y + height > content.bottom + 1e-6:
            return None
        rows = plan_axis(y, y + height, group.height, group.bleed, lines)
        if rows is None:
            return None
        grid = _clear(Grid(f, columns, rows), reg)
        if grid.per_page >= len(group.pieces):
            return grid, height
        lines += 1


# --- slots and mirrors ----------------------------------------------------------------------

Slot = tuple[Grid, int, int]  # the grid (fronts' or mirrored) and the column and row in it


def _slot(grid: Grid, k: int) -> Slot:
    if not grid.blocked:
        return grid, k % grid.columns.count, k // grid.columns.count
    column, row = grid.free[k]
    return grid, column, row


def _flip(f: Frame, duplex: Duplex) -> str:
    """Which page axis the paper turns over: about its long edge, the axis along that edge."""
    along_long_edge_is_vertical = not f.landscape
    vertical = along_long_edge_is_vertical if duplex == "long" else not along_long_edge_is_vertical
    return "columns" if vertical else "rows"


def _mirror(grid: Grid, slot: Slot, how: str) -> Slot:
    """The slot behind `slot` once the sheet is turned over about its upright centre line
    ("columns") or its level one ("rows"), or folded on its fold line: the grid reflected about
    the paper's centre, so a grid in a band of the sheet (a ganged sheet) mirrors right too."""
    _, column, row = slot
    f, c, r = grid.frame, grid.columns, grid.rows
    if how == "fold":
        how = "columns" if grid.fold == "upright" else "rows"
    if how == "columns":
        return Grid(f, _reflect(c, f.width), r), c.count - 1 - column, row
    return Grid(f, c, _reflect(r, f.height)), column, r.count - 1 - row


def _reflect(axis: Axis, length: float) -> Axis:
    return replace(axis, start=length - axis.start - axis.extent)


# --- drawing ------------------------------------------------------------------------------


def _faces(pieces: Pieces, grid: Grid, slots: list[tuple[int, Slot]], side: Side) -> tuple[Item, ...]:
    """The faces in their slots, clipped to their share of the gutter, then the cut outlines
    (fronts of round pieces) and the crop marks around all the slots."""
    art: list[Item] = []
    outlines: list[Item] = []
    for index, (g, column, row) in slots:
        drawing = _face(pieces.pieces[index], side)
        trim = g.trim(column, row)
        if drawing is not None:
            art.append(_placed(drawing, trim, g.bleeds(column, row)))
        if side == "front" and pieces.cut != "rect":
            outlines.append(_outline(pieces.cut, trim))
    trims = [g.trim(c, r) for _, (g, c, r) in slots]
    marks = clear_of(crop_marks(trims, [g.bleed_box(c, r) for _, (g, c, r) in slots], across=grid.rows.inner,
                                along=grid.columns.inner), grid.frame.keep_out)
    return (*art, *outlines, *marks)


def _face(piece: PieceArt, side: Side) -> Drawing | None:
    return piece.front if side == "front" else piece.back


def _placed(drawing: Drawing, trim: Box, bleeds: tuple[float, float, float, float]) -> Group:
    left, top, right, bottom = (min(b, drawing.bleed) for b in bleeds)
    clip = Rect(-left, -top, drawing.width + left + right, drawing.height + top + bottom, Style())
    return Group(drawing.items, translate(trim.x, trim.y), clip)


def _outline(cut: str, trim: Box) -> Item:
    if cut == "circle":
        return Circle(trim.x + trim.w / 2, trim.y + trim.h / 2, min(trim.w, trim.h) / 2, CUT_STYLE)
    if cut in POLYGON_CUTS:
        return Polygon(cut_polygon(cut, trim.x, trim.y, trim.w, trim.h), CUT_STYLE)
    return Rect(trim.x, trim.y, trim.w, trim.h, CUT_STYLE, radius=ROUNDED_CUT * min(trim.w, trim.h))


def _fold_line(grid: Grid) -> Line:
    f, content = grid.frame, grid.frame.content
    if grid.fold == "upright":
        return Line(f.width / 2, content.y, f.width / 2, content.bottom, FOLD_STYLE)
    return Line(content.x, f.height / 2, content.right, f.height / 2, FOLD_STYLE)


def _page(f: Frame, items: tuple[Item, ...], info: Furniture, where: str) -> Page:
    return Page(f.width, f.height, (*items, furniture(f, info, where)), f"{info.component}, {where}")


def _record(grid: Grid, slots: list[tuple[int, Slot]], side: Side, page: int, pieces: Pieces,
            offset: tuple[float, float] = (0.0, 0.0)) -> list[Placed]:
    """Placed faces (backs only where the piece has one), shifted by the back offset."""
    dx, dy = offset
    out = []
    for index, (g, column, row) in slots:
        if side == "back" and pieces.pieces[index].back is None:
            continue
        t = g.trim(column, row)
        out.append(Placed(index, side, page, Box(t.x + dx, t.y + dy, t.w, t.h), pieces.cut))
    return out


CutLine = tuple[str, float, float, float, float]  # shape, x, y, w, h of a trim, page mm


def cut_lines(layout: Imposition) -> tuple[tuple[int, float, float, tuple[CutLine, ...]], ...]:
    """For each front page that carries a machine's registration marks: its index, its width and
    height, and the trims of the pieces on it — what a cut file for that sheet cuts
    (`pnp.export.cut`)."""
    if layout.registration is None:
        return ()
    pages: dict[int, list[CutLine]] = {}
    for p in layout.placed:
        if p.side == "front":
            pages.setdefault(p.page, []).append((p.cut, p.trim.x, p.trim.y, p.trim.w, p.trim.h))
    return tuple((page, layout.pages[page].width, layout.pages[page].height, tuple(lines))
                 for page, lines in sorted(pages.items()))

