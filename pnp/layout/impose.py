"""Imposition: same-size pieces (cards, tokens, bills) on sheets, with bleed, crop marks and backs.

The grid is planned one axis at a time. First the count: as many pieces as fit with room for
crop marks. Then the slack: each piece gets the same bleed `e` on every edge of that axis, up
to the art's bleed, so neighbours sit `2e` apart with their art reaching into the gutter
(A4 has room for this across poker cards). When that gutter would be under a millimetre the
pieces are butted instead, sharing one cut line, and only the outer edges get bleed (poker
cards on Letter). The grid is centred on the paper, so mirroring it about the paper's centre
gives the same slots: the backs of a long-edge duplex sheet are the fronts' columns reversed,
of a short-edge one the rows reversed, and a fold sheet puts the backs in the other half,
mirrored about the dashed fold line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterator, Literal, Sequence

from pnp.display import (
    POLYGON_CUTS, ROUNDED_CUT, Circle, Drawing, Group, Item, Line, Page, PieceArt, Pieces, Polygon, Rect, Style,
    cut_polygon, translate,
)  # fmt: skip
from pnp.errors import BuildError
from pnp.i18n import _
from pnp.layout.sheet import (
    MARK_ZONE_MM,
    Box,
    Frame,
    Furniture,
    crop_marks,
    frame,
    furniture,
)

Duplex = Literal["long", "short", "fold", "none"]
Side = Literal["front", "back"]
MIN_GUTTER_BLEED_MM = 1.0  # below this, butt the pieces rather than cut twice per gutter
GOOD_BLEED_MM = 2.0  # bleed that hides a home printer's usual duplex misregistration
CUT_STYLE = Style(stroke="#000000", width=0.15)
FOLD_STYLE = Style(stroke="#000000", width=0.2, dash=(2.0, 1.5))
FULL = 10**6  # "as many pieces as a sheet holds": planning for this many maximises a sheet


@dataclass(frozen=True)
class Axis:
    """Where the pieces sit along one direction of the sheet."""

    count: int
    size: float  # a piece's trim size along this axis
    gutter: float  # between neighbouring trims; 0 = butted, one shared cut
    outer: float  # bleed beyond the first and the last trim
    start: float  # page coordinate of the first trim edge

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
    up to `bleed` of art around them, leaving room for crop marks at both ends; None if they
    do not fit."""
    room = hi - lo - 2 * MARK_ZONE_MM
    most = math.floor(room / size + 1e-9)
    count = most if count is None else count
    if count < 1 or count > most:
        return None
    slack = room - count * size
    each = min(bleed, slack / (2 * count))  # the same bleed on every edge, gutters = 2 × each
    if count == 1 or each >= min(bleed, MIN_GUTTER_BLEED_MM):
        gutter, outer = 2 * each, each
    else:
        gutter, outer = 0.0, min(bleed, slack / 2)
    extent = count * size + (count - 1) * gutter
    return Axis(count, size, gutter, outer, lo + (hi - lo - extent) / 2)


def _axes(lo: float, hi: float, size: float, bleed: float) -> list[Axis]:
    """Every way to fill [lo, hi]: one axis per count, from the most pieces down to one."""
    best = plan_axis(lo, hi, size, bleed)
    if best is None:
        return []
    return [a for a in (plan_axis(lo, hi, size, bleed, n) for n in range(best.count, 0, -1)) if a]


@dataclass(frozen=True)
class Grid:
    """Slots of one sheet: columns × rows in a region of a frame."""

    frame: Frame
    columns: Axis
    rows: Axis
    fold: Literal["", "upright", "across"] = ""  # fold mode: the fold line's direction

    @property
    def per_page(self) -> int:
        return self.columns.count * self.rows.count

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


@dataclass(frozen=True)
class Imposition:
    pages: tuple[Page, ...]
    placed: tuple[Placed, ...]
    grid: Grid  # the fronts' grid
    duplex: Duplex  # as printed: "none" when no piece has a back
    sheets: int  # sheets of paper


def plan(width: float, height: float, bleed: float, paper: str, margin: float,
         duplex: Duplex = "none", pieces: int | None = None) -> Grid:
    """The grid for `pieces` pieces (default: a full sheet's worth): fewest sheets first, then
    bleed up to `GOOD_BLEED_MM` on every cut (what a home duplex's misregistration needs), then
    furniture above and below (every sheet of a kit then reads the same way; at the sides only
    when that saves paper or buys that bleed), then more bleed, then the most pieces a sheet. Portrait or landscape, furniture
    above and below or at the sides; for `fold`, the fronts' half of the sheet. Duplex sheets
    stay portrait unless landscape saves paper: printer drivers turn landscape pages before
    flipping them, and a portrait sheet is the one case every driver agrees on."""
    candidates = []
    for landscape in (False, True):
        for sideways in (False, True):
            f = frame(paper, margin, landscape=landscape, sideways=sideways)
            for fold, region in _regions(f.content, duplex):
                for columns in _axes(region.x, region.right, width, bleed):
                    for rows in _axes(region.y, region.bottom, height, bleed):
                        grid = Grid(f, columns, rows, fold)
                        sheets = math.ceil((pieces or FULL) / grid.per_page)
                        turned = landscape and duplex in ("long", "short")
                        edge = round(grid.bleed, 6)
                        candidates.append((sheets, turned, -min(edge, GOOD_BLEED_MM), sideways, -edge, -grid.per_page,
                                           landscape, len(candidates), grid))
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


def _regions(content: Box, duplex: Duplex) -> Iterator[tuple[str, Box]]:
    """Where the fronts go: all the content box, or for `fold` the half left of an upright
    fold line or above a fold line across."""
    if duplex != "fold":
        yield "", content
        return
    yield "upright", Box(content.x, content.y, content.w / 2, content.h)
    yield "across", Box(content.x, content.y, content.w, content.h / 2)


def impose(pieces: Pieces, paper: str, margin: float, duplex: Duplex, info: Furniture,
           back_offset: tuple[float, float] = (0.0, 0.0)) -> Imposition:
    """Every piece on sheets, fronts and backs in print order for `duplex`. Without duplex,
    pieces whose backs carry rules (`two_sided`: a token's "+20" side) are folded over instead,
    so no face the game needs is lost."""
    has_backs = any(p.back is not None for p in pieces.pieces)
    duplex = duplex if has_backs else "none"
    if duplex == "none" and pieces.two_sided:
        duplex = "fold"
    grid = plan(pieces.width, pieces.height, pieces.bleed, paper, margin, duplex, len(pieces.pieces))
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
            placed += _record(grid, fronts, "front", len(pages) - 1) + _record(grid, backs, "back", len(pages) - 1, pieces)
            continue
        items = _faces(pieces, grid, fronts, "front")
        front_where = _("{where} · fronts").format(where=where) if duplex != "none" else where
        pages.append(_page(grid.frame, items, info, front_where))
        placed += _record(grid, fronts, "front", len(pages) - 1)
        if duplex in ("long", "short"):
            backs = [(i, _mirror(grid, slot, _flip(grid.frame, duplex))) for i, slot in fronts]
            items = (Group(_faces(pieces, grid, backs, "back"), translate(*back_offset)),)
            backs_where = (_("{where} · backs, flip on the long edge") if duplex == "long"
                           else _("{where} · backs, flip on the short edge"))
            pages.append(_page(grid.frame, items, info, backs_where.format(where=where)))
            placed += _record(grid, backs, "back", len(pages) - 1, pieces, back_offset)
    return Imposition(tuple(pages), tuple(placed), grid, duplex, len(batches))


def gang(groups: Sequence[Pieces], paper: str, margin: float, duplex: Duplex, info: Furniture,
         back_offset: tuple[float, float] = (0.0, 0.0)) -> Imposition | None:
    """Several components' pieces on one sheet (two pages with backs), each in its own band of
    rows, stacked top to bottom: seven tokens and six loan markers need not take a sheet of
    card stock each. Pieces are numbered through the groups in order. None when they do not
    all fit one portrait sheet, or when `duplex` is fold (each sheet has its own fold line)."""
    if duplex == "fold" or not groups:
        return None
    if duplex == "none" and any(g.two_sided for g in groups):
        return None
    has_backs = any(p.back is not None for g in groups for p in g.pieces)
    duplex = duplex if has_backs else "none"
    f = frame(paper, margin)
    content = f.content
    for cap in (GOOD_BLEED_MM, MIN_GUTTER_BLEED_MM, 0.0):  # the most bleed with which all bands fit
        grids, y = [], content.y
        for group in groups:
            bleed = min(group.bleed, cap)
            room = content.w - 2 * MARK_ZONE_MM
            count = max(1, min(len(group.pieces), math.floor(room / (group.width + 2 * bleed) + 1e-9)))
            columns = plan_axis(content.x, content.right, group.width, group.bleed, count)
            lines = math.ceil(len(group.pieces) / count)
            height = lines * (group.height + 2 * bleed) + 2 * MARK_ZONE_MM
            rows = plan_axis(y, y + height, group.height, group.bleed, lines)
            if columns is None or rows is None:
                break
            grids.append(Grid(f, columns, rows))
            y += height
        if len(grids) == len(groups) and y <= content.bottom + 1e-6:
            break
    else:
        return None
    front_items: list[Item] = []
    back_items: list[Item] = []
    placed: list[Placed] = []
    offset = 0
    edge = _flip(f, duplex) if duplex in ("long", "short") else ""
    for group, grid in zip(groups, grids):
        fronts = [(i, _slot(grid, k)) for k, i in enumerate(range(len(group.pieces)))]
        front_items += _faces(group, grid, fronts, "front")
        placed += [replace(p, piece=p.piece + offset) for p in _record(grid, fronts, "front", 0)]
        if edge:
            backs = [(i, _mirror(grid, slot, edge)) for i, slot in fronts]
            back_items += _faces(group, grid, backs, "back")
            placed += [replace(p, piece=p.piece + offset) for p in _record(grid, backs, "back", 1, group, back_offset)]
        offset += len(group.pieces)
    where = _("sheet 1 of 1 · shared")
    pages = [_page(f, tuple(front_items), info, f"{where} · fronts" if edge else where)]
    if edge:
        pages.append(_page(f, (Group(tuple(back_items), translate(*back_offset)),), info,
                           f"{where} · backs, flip on the {duplex} edge"))
    return Imposition(tuple(pages), tuple(placed), grids[0], duplex, 1)


# --- slots and mirrors ----------------------------------------------------------------------

Slot = tuple[Grid, int, int]  # the grid (fronts' or mirrored) and the column and row in it


def _slot(grid: Grid, k: int) -> Slot:
    return grid, k % grid.columns.count, k // grid.columns.count


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
    return Axis(axis.count, axis.size, axis.gutter, axis.outer, length - axis.start - axis.extent)


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
    marks = crop_marks(trims, [g.bleed_box(c, r) for _, (g, c, r) in slots])
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


def _record(grid: Grid, slots: list[tuple[int, Slot]], side: Side, page: int,
            pieces: Pieces | None = None, offset: tuple[float, float] = (0.0, 0.0)) -> list[Placed]:
    """Placed faces (backs only where the piece has one), shifted by the back offset."""
    dx, dy = offset
    out = []
    for index, (g, column, row) in slots:
        if side == "back" and pieces is not None and pieces.pieces[index].back is None:
            continue
        t = g.trim(column, row)
        out.append(Placed(index, side, page, Box(t.x + dx, t.y + dy, t.w, t.h)))
    return out

