"""Imposition: same-size pieces (cards, tokens, bills) on sheets, with bleed, crop marks and backs.

The grid is planned one axis at a time. First the count: as many pieces as fit with room for
crop marks. Then the slack, given out in three rounds (`split`): every edge of every piece
first gets the same bleed up to `MIN_GUTTER_BLEED_MM` (less only where the art has less, or
the paper leaves less); then the edges that face the sheet's margin get the art's whole bleed
(`print.bleed_mm`); then the gaps between pieces grow towards twice that. So a piece's outer
edges have the spec's bleed wherever the sheet has room, and a gap between pieces is as wide
as the paper allows without costing a piece a sheet: a cut that strays at the sheet's edge
would show white paper (and a duplex back's misregistration shows there first), while one that
strays between pieces shows the neighbour's art, which on a deck's backs is the same design.
Neighbours sit `2e` apart with their art reaching `e` into the gutter; pieces never share a
cut line (unless their art has no bleed at all). The crop marks sit beyond the grid when that
costs no bleed; else they move into the gutters between the pieces — cut away with them — and
the grid takes the whole axis, with at least `INNER_BLEED_MM` either side of every cut. The
grid is centred on the paper, so mirroring it about the paper's centre gives the same slots:
the backs of a long-edge duplex sheet are the fronts' columns reversed, of a short-edge one the
rows reversed, and a fold sheet puts the backs in the other half, mirrored about the dashed
fold line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterator, Literal, Sequence

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
    up to `bleed` of art around them (see the module's docstring): crop marks beyond both ends
    when the bleed is the same that way, else in the gutters; None if the pieces do not fit."""
    if count is None:
        found = _axes(lo, hi, size, bleed)
        return found[0] if found else None
    options = _options(lo, hi, size, bleed, count)
    return max(options, key=lambda a: (round(a.outer, 6), round(a.gutter, 6), not a.inner)) if options else None


def _options(lo: float, hi: float, size: float, bleed: float, count: int) -> list[Axis]:
    """`count` pieces on [lo, hi] with the crop marks beyond both ends, and with them in the
    gutters: each that fits with its share of art either side of every cut."""
    if count < 1:
        return []
    least = min(bleed, MIN_GUTTER_BLEED_MM)
    found = []
    for inner, room in ((False, hi - lo - 2 * MARK_ZONE_MM), (True, hi - lo)):
        slack = room - count * size
        if slack < -1e-9 or (inner and (count < 2 or least <= 0)):
            continue
        outer, half = split(max(slack, 0.0), count, bleed)
        if count > 1 and half < (min(least, INNER_BLEED_MM) if inner else least) - 1e-9:
            continue
        extent = count * size + (count - 1) * 2 * half
        found.append(Axis(count, size, 2 * half, outer, lo + (hi - lo - extent) / 2, inner))
    return found


def split(slack: float, count: int, bleed: float) -> tuple[float, float]:
    """The bleed at the two outer edges and either side of each gap between `count` pieces that
    share `slack` mm (see the module's docstring): every edge the same up to
    `MIN_GUTTER_BLEED_MM`, then the outer edges up to `bleed`, then the gaps up to it."""
    edges = 2 * count  # two outer edges, and two sides of each of the count - 1 gaps
    each = min(bleed, MIN_GUTTER_BLEED_MM, slack / edges)
    if count == 1:
        return min(bleed, slack / 2), 0.0
    left = slack - edges * each
    outer = each + min(bleed - each, left / 2)
    left -= 2 * (outer - each)
    return outer, each + min(bleed - each, left / (edges - 2))


def _axes(lo: float, hi: float, size: float, bleed: float) -> list[Axis]:
    """Every way to fill [lo, hi]: for each count, from the most pieces down to one, the
    marks beyond the ends and in the gutters."""
    top = math.floor((hi - lo) / size + 1e-9)
    return [a for n in range(top, 0, -1) for a in _options(lo, hi, size, bleed, n)]


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
    def edge(self) -> float:
        """The least art beyond a cut that faces the sheet's margin."""
        return min(self.columns.outer, self.rows.outer)

    @property
    def between(self) -> float:
        """The least art either side of a cut between two pieces (0 where they are butted);
        the edge's when no two pieces are neighbours."""
        return min((a.gutter / 2 for a in (self.columns, self.rows) if a.count > 1), default=self.edge)

    @property
    def bleed(self) -> float:
        """The least art any cut edge has beyond it."""
        return min(self.edge, self.between)

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

    def art_box(self, column: int, row: int, occupied: frozenset[tuple[int, int]]) -> Box:
        """The piece's bleed box where the slots in `occupied` hold pieces: a side facing an
        empty slot (the last sheet's) takes the sheet's edge bleed, as the sheet's own edges do:
        a cut that strays there shows paper, not a neighbour — unless that reaches a cutting
        machine's keep-out zone."""
        left, top, right, bottom = self.bleeds(column, row)
        c, r = self.columns, self.rows
        left = left if (column - 1, row) in occupied else max(left, c.outer)
        right = right if (column + 1, row) in occupied else max(right, c.outer)
        top = top if (column, row - 1) in occupied else max(top, r.outer)
        bottom = bottom if (column, row + 1) in occupied else max(bottom, r.outer)
        t = self.trim(column, row)
        box = Box(t.x - left, t.y - top, t.w + left + right, t.h + top + bottom)
        return self.bleed_box(column, row) if any(z.overlaps(box) for z in self.frame.keep_out) else box


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
    bleed: tuple[float, float] = (0.0, 0.0)  # the least art beyond a cut: at the sheet's edges, between pieces
    registration: Registration | None = None  # a cutting machine's marks, on every front page
    panels: tuple[tuple[int, Box], ...] = ()  # (page, where) of each panel part its pages print besides pieces
    gain: int = 0  # pieces a sheet holds more with the marks' inset than with the usual 10 mm


def given_bleed(grids: Sequence[Grid]) -> tuple[float, float]:
    """The least bleed any cut of these grids gets at the sheet's edges and between two
    pieces (the edge's again where no two are neighbours): what the print plan and the bleed
    check report against `print.bleed_mm`."""
    return round(min(g.edge for g in grids), 3), round(min(g.between for g in grids), 3)


@lru_cache(maxsize=512)  # every kit of a game plans the same pieces on the same paper
def plan(width: float, height: float, bleed: float, paper: str, margin: float,
         duplex: Duplex = "none", pieces: int | None = None, cut: Cutter | None = None) -> Grid:
    """The grid for `pieces` pieces (default: a full sheet's worth): fewest sheets first, then
    the most bleed at the sheet's edges (the art's whole bleed wherever the paper has room), then
    bleed up to `GOOD_BLEED_MM` between pieces (what a home duplex's misregistration needs),
    then crop marks beyond the grid rather than in its gutters, then portrait and furniture above
    and below (every sheet of a kit then reads the same way; landscape or at the sides only when
    that saves paper or buys that bleed), then more bleed between pieces, then the most pieces
    a sheet. Portrait or landscape, furniture
    above and below or at the sides; for `fold`, the fronts' half of the sheet. Duplex sheets
    stay portrait unless landscape saves paper: printer drivers turn landscape pages before
    flipping them, and a portrait sheet is the one case every driver agrees on. With `cut`, a
    cutting machine's registration marks are on the sheet: slots in their keep-out zones stay
    empty, and the furniture runs between them."""
    candidates: list[tuple[int, bool, float, float, int, bool, bool, float, int, int, Grid]] = []  # best first, the grid last
    for landscape in (False, True):
        for sideways in (False, True):
            f = frame(paper, margin, landscape=landscape, sideways=sideways)
            reg = registration(cut, f.width, f.height) if cut else None
            f = reg.kept_clear(f) if reg else f
            for fold, region in regions(within(f.content, reg), duplex):
                for columns in _axes(region.x, region.right, width, bleed):
                    for rows in _axes(region.y, region.bottom, height, bleed):
                        grid = clear(Grid(f, columns, rows, fold), reg)  # type: ignore[arg-type]  # fold: one of _regions' names
                        if grid.per_page < 1:
                            continue
                        sheets = math.ceil((pieces or FULL) / grid.per_page)
                        turned = landscape and duplex in ("long", "short")
                        edge, between = round(grid.edge, 6), round(grid.between, 6)
                        inner = columns.inner + rows.inner  # crop marks in the gutters only where they buy bleed
                        candidates.append((sheets, turned, -edge, -min(between, GOOD_BLEED_MM), inner, landscape,
                                           sideways, -between, -grid.per_page, len(candidates), grid))
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
             for _, region in regions(frame(paper, margin, landscape=landscape, sideways=sideways).content, duplex)]
    w, h = max(sizes, key=lambda size: size[0] * size[1])
    return math.floor(min(w, h) * 10) / 10, math.floor(max(w, h) * 10) / 10


def coded(layout: Imposition) -> Imposition:
    """Each front page that carries marks with the code of its marks and trims beside them
    (`registration.layout_code`), in place of any code it had (`fill` adds pieces to a sheet)."""
    reg = layout.registration
    if reg is None or not reg.marks:
        return layout
    pages = list(layout.pages)
    f = layout.grid.frame
    for index, _width, _height, lines in cut_lines(layout):
        sheet = pages[index]
        kept = tuple(item for item in sheet.items[:-1] if not _is_code(item))
        pages[index] = replace(sheet, items=(*kept, reg.code_item(f, layout_code(reg, lines)), sheet.items[-1]))
    return replace(layout, pages=tuple(pages))


def _is_code(item: Item) -> bool:
    return (isinstance(item, Group) and len(item.items) == 1 and isinstance(item.items[0], Text)
            and item.items[0].font == "bold" and CODE_PATTERN.fullmatch(item.items[0].text) is not None)


def within(content: Box, reg: Registration | None) -> Box:
    """The content box, cut down to the machine's cutting area (Cricut's) if it has one."""
    if reg is None:
        return content
    a = reg.area
    x, y = max(content.x, a.x), max(content.y, a.y)
    return Box(x, y, max(0.0, min(content.right, a.right) - x), max(0.0, min(content.bottom, a.bottom) - y))


def clear(grid: Grid, reg: Registration | None) -> Grid:
    """The grid with the slots whose art (trim and bleed) would reach a keep-out zone blocked."""
    if reg is None:
        return grid
    blocked = frozenset((c, r) for r in range(grid.rows.count) for c in range(grid.columns.count)
                        if not reg.clear(grid.bleed_box(c, r)))
    return replace(grid, blocked=blocked)


def regions(content: Box, duplex: Duplex) -> Iterator[tuple[str, Box]]:
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
    duplex = _printed_duplex(pieces, duplex)
    cut = cut if duplex != "fold" else None
    grid = plan(pieces.width, pieces.height, pieces.bleed, paper, margin, duplex, len(pieces.pieces), cut)
    reg = registration(cut, grid.frame.width, grid.frame.height) if cut else None
    gain = _gain(pieces, paper, margin, duplex, cut, grid.per_page)
    batches = [range(i, min(i + grid.per_page, len(pieces.pieces))) for i in range(0, len(pieces.pieces), grid.per_page)]
    pages: list[Page] = []
    placed: list[Placed] = []
    for number, batch in enumerate(batches, 1):
        where = _("sheet {n} of {count}").format(n=number, count=len(batches))  # the digests leave "of m" out
        fronts = [(i, slot(grid, k)) for k, i in enumerate(batch)]
        if duplex == "fold":
            folded, on_it = _folded_sheet(pieces, grid, fronts, info, where, len(pages))
            pages.append(folded)
            placed += on_it
            continue
        items = faces(pieces, grid, fronts, "front") + (reg.items() if reg else ())
        pages.append(page(grid.frame, items, info, side_words(where, duplex, "front")))
        placed += record(grid, fronts, "front", len(pages) - 1, pieces)
        if duplex in ("long", "short"):
            backs = [(i, mirror(grid, slot, flip(grid.frame, duplex))) for i, slot in fronts]
            items = (Group(faces(pieces, grid, backs, "back"), translate(*back_offset)),)
            pages.append(page(grid.frame, items, info, side_words(where, duplex, "back")))
            placed += record(grid, backs, "back", len(pages) - 1, pieces, back_offset)
    return coded(Imposition(tuple(pages), tuple(placed), grid, duplex, len(batches), given_bleed([grid]), reg,
                            gain=gain))


def _printed_duplex(pieces: Pieces, duplex: Duplex) -> Duplex:
    """How the pieces print: `duplex` when they have backs; folded over when there is no
    duplex but their backs carry rules (`two_sided`); single-sided when they have no backs."""
    duplex = duplex if any(p.back is not None for p in pieces.pieces) else "none"
    return "fold" if duplex == "none" and pieces.two_sided else duplex


def _gain(pieces: Pieces, paper: str, margin: float, duplex: Duplex, cut: Cutter | None, per_page: int) -> int:
    """How many more pieces a sheet holds (`per_page`) with the cutter's own inset than with the
    usual one (0 without a cutter, or one with the usual inset)."""
    if not cut or cut.inset == INSET_MM:
        return 0
    usual = replace(cut, inset=INSET_MM)
    return per_page - plan(pieces.width, pieces.height, pieces.bleed, paper, margin, duplex, len(pieces.pieces),
                           usual).per_page


def _folded_sheet(pieces: Pieces, grid: Grid, fronts: list[tuple[int, Slot]], info: Furniture, where: str,
                  number: int) -> tuple[Page, list[Placed]]:
    """A sheet folded over (page `number` from 0): fronts on one half, backs mirrored on the
    other, the fold line between; and where each face lies on it."""
    backs = [(i, mirror(grid, slot, "fold")) for i, slot in fronts]
    items = faces(pieces, grid, fronts, "front") + faces(pieces, grid, backs, "back") + (fold_line(grid),)
    folded = page(grid.frame, items, info, _("{where} · fold on the dashed line, then cut").format(where=where))
    return folded, record(grid, fronts, "front", number, pieces) + record(grid, backs, "back", number, pieces)


def side_words(where: str, duplex: Duplex, side: Side) -> str:
    """A sheet's header after "sheet n of m": which side, and how to turn the paper for its back."""
    if duplex not in ("long", "short"):
        return where
    if side == "front":
        return _("{where} · fronts").format(where=where)
    return (_("{where} · backs, flip on the long edge") if duplex == "long"
            else _("{where} · backs, flip on the short edge")).format(where=where)


# --- slots and mirrors ----------------------------------------------------------------------

Slot = tuple[Grid, int, int]  # the grid (fronts' or mirrored) and the column and row in it


def slot(grid: Grid, k: int) -> Slot:
    if not grid.blocked:
        return grid, k % grid.columns.count, k // grid.columns.count
    column, row = grid.free[k]
    return grid, column, row


def flip(f: Frame, duplex: Duplex) -> str:
    """Which page axis the paper turns over: about its long edge, the axis along that edge."""
    along_long_edge_is_vertical = not f.landscape
    vertical = along_long_edge_is_vertical if duplex == "long" else not along_long_edge_is_vertical
    return "columns" if vertical else "rows"


def mirror(grid: Grid, slot: Slot, how: str) -> Slot:
    """The slot behind `slot` once the sheet is turned over about its upright centre line
    ("columns") or its level one ("rows"), or folded on its fold line: the grid reflected about
    the paper's centre, so a grid in a band of the sheet (a ganged sheet) mirrors right too."""
    _, column, row = slot
    f, c, r = grid.frame, grid.columns, grid.rows
    if how == "fold":
        how = "columns" if grid.fold == "upright" else "rows"
    if how == "columns":
        return Grid(f, reflect(c, f.width), r), c.count - 1 - column, row
    return Grid(f, c, reflect(r, f.height)), column, r.count - 1 - row


def reflect(axis: Axis, length: float) -> Axis:
    return replace(axis, start=length - axis.start - axis.extent)


# --- drawing ------------------------------------------------------------------------------


def faces(pieces: Pieces, grid: Grid, slots: list[tuple[int, Slot]], side: Side) -> tuple[Item, ...]:
    """The faces in their slots, clipped to their share of the gutter (or, beside an empty
    slot, to the sheet's edge bleed: `Grid.art_box`), then the cut outlines (fronts of round
    pieces) and the crop marks around all the slots."""
    art: list[Item] = []
    outlines: list[Item] = []
    occupied = frozenset((c, r) for _, (_, c, r) in slots)
    boxes = [g.art_box(c, r, occupied) for _, (g, c, r) in slots]
    for (index, (g, column, row)), box in zip(slots, boxes, strict=True):
        drawing = _face(pieces.pieces[index], side)
        trim = g.trim(column, row)
        if drawing is not None:
            art.append(_placed(drawing, trim, (trim.x - box.x, trim.y - box.y, box.right - trim.right,
                                                box.bottom - trim.bottom)))
        if side == "front" and pieces.cut != "rect":
            outlines.append(_outline(pieces.cut, trim))
    trims = [g.trim(c, r) for _, (g, c, r) in slots]
    marks = clear_of(crop_marks(trims, boxes, across=grid.rows.inner, along=grid.columns.inner), grid.frame.keep_out)
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


def fold_line(grid: Grid) -> Line:
    f, content = grid.frame, grid.frame.content
    if grid.fold == "upright":
        return Line(f.width / 2, content.y, f.width / 2, content.bottom, FOLD_STYLE)
    return Line(content.x, f.height / 2, content.right, f.height / 2, FOLD_STYLE)


def page(f: Frame, items: tuple[Item, ...], info: Furniture, where: str) -> Page:
    return Page(f.width, f.height, (*items, furniture(f, info, where)), f"{info.component}, {where}")


def record(grid: Grid, slots: list[tuple[int, Slot]], side: Side, page: int, pieces: Pieces,
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

