"""Tiling: panels (boards, mats, aids, forms) on sheets, split over several when too large.

A panel that fits the content box of a sheet (portrait, or landscape if only that fits) is
centred on it; consecutive small panels of one size (account cards) share a sheet, each with
its crop marks. A larger one is cut into a grid of windows that overlap by `overlap` mm: each
window's left and top overlap strips are hatched "glue here" and slide under the neighbour,
whose art covers them. Where the drawing names places a seam may fall (`Drawing.seams_x`, the
edges between board cells), the visible seams are put there, never through a number. Alignment
marks go only where the finished board hides them: on the glue strip (the line the
neighbour's edge goes on, and ticks) and, matching those ticks, in the margin cut off the sheet
on top. A small map in the header shows where each part goes; when all parts of a board fit one
sheet together (a long, low price board), they share it. Boards are drawn at full size and
never scaled: cells keep their millimetres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.display import Drawing, Group, Item, Line, Page, Panels, Rect, Style, rotate, translate
from pnp.i18n import N_, _
from pnp.layout.sheet import (
    BAND_MM,
    MARK_GAP_MM,
    MARK_ZONE_MM,
    Badge,
    Box,
    Frame,
    Furniture,
    crop_marks,
    frame,
    furniture,
)
from pnp.layout.text import fit_text

OVERLAP_MM = 10.0
PACK_GAP_MM = 6.0  # between small panels sharing a sheet: two cuts, and room for their marks
HATCH = Style(stroke="#8c8c8c", width=0.2, opacity=0.8)
JOIN = Style(stroke="#000000", width=0.2)
GLUE_LABEL = N_("glue here")


@dataclass(frozen=True)
class Tile:
    """One window of one panel on one page: the tiling's machine-readable record."""

    drawing: int  # index into Panels.drawings
    page: int  # index into Tiling.pages
    row: int  # 1-based, as printed
    column: int
    rows: int
    columns: int
    window: Box  # the part of the drawing shown, in the drawing's mm
    at: Box  # where that part is on the page


@dataclass(frozen=True)
class Tiling:
    pages: tuple[Page, ...]
    tiles: tuple[Tile, ...]

    @property
    def sheets(self) -> int:
        return len(self.pages)

    @property
    def tiled(self) -> bool:
        """Whether some panel is split over several sheets (and must be assembled)."""
        return any(t.rows * t.columns > 1 for t in self.tiles)


@dataclass(frozen=True)
class _Split:
    frame: Frame
    rows: int
    columns: int
    window_w: float
    window_h: float
    column_x: tuple[float, ...] = ()  # each column's window: left edge and width in the drawing,
    column_w: tuple[float, ...] = ()  # when seams follow the drawing's `seams_x` (else equal widths)

    def window(self, row: int, column: int, overlap: float) -> Box:
        """The part of the drawing shown by the window at 0-based (row, column)."""
        y = row * (self.window_h - overlap)
        if self.column_x:
            return Box(self.column_x[column], y, self.column_w[column], self.window_h)
        return Box(column * (self.window_w - overlap), y, self.window_w, self.window_h)


def tile(panels: Panels, paper: str, margin: float, info: Furniture, overlap: float = OVERLAP_MM) -> Tiling:
    """Every panel on its sheet(s), in order; small panels of one size share a sheet, and so
    do the parts of a board that fit one sheet together."""
    sheets = _sheets(panels.drawings, paper, margin, overlap)
    plans = [(split, indexes, _together(panels.drawings[indexes[0]], split, paper, margin, overlap))
             for split, indexes in sheets]
    many = len(panels.drawings) > 1
    count = sum(1 if len(indexes) > 1 or together else split.rows * split.columns for split, indexes, together in plans)
    pages: list[Page] = []
    tiles: list[Tile] = []
    for split, indexes, together in plans:
        if len(indexes) > 1:
            placed = _packed(indexes, panels.drawings[indexes[0]], split.frame, len(pages))
            pages.append(_sheet_of(panels.drawings, placed, split.frame, info, _sheet(len(pages) + 1, count)))
            tiles += placed
            continue
        (index,), drawing = indexes, panels.drawings[indexes[0]]
        records = _parts(index, split, together, len(pages), overlap)
        if together:
            where = _("{where} · {parts} parts: cut them apart, then join").format(where=_sheet(len(pages) + 1, count),
                                                                                   parts=len(records))
            pages.append(_parts_page(drawing, records, together[0], info, where, overlap))
        else:
            for record in records:
                where = _where(record, len(pages) + 1, count, many)
                pages.append(_page(drawing, record, split.frame, info, where, overlap))
        tiles += records
    return Tiling(tuple(pages), tuple(tiles))


def _parts(index: int, split: _Split, together: tuple[Frame, list[tuple[float, float]]] | None, first_page: int,
           overlap: float) -> list[Tile]:
    """The parts of one split panel, row by row: each on a page of its own from `first_page`,
    centred, or all on that one page where `together` places them."""
    records = []
    for n in range(split.rows * split.columns):
        row, column = divmod(n, split.columns)
        window = split.window(row, column, overlap)
        if together:
            x, y = together[1][n]
            at = Box(x, y, window.w, window.h)
        else:
            content = split.frame.content
            at = Box(content.x + (content.w - window.w) / 2, content.y + (content.h - window.h) / 2, window.w, window.h)
        records.append(Tile(index, first_page if together else first_page + n, row + 1, column + 1,
                            split.rows, split.columns, window, at))
    return records


def _together(drawing: Drawing, split: _Split, paper: str, margin: float,
              overlap: float) -> tuple[Frame, list[tuple[float, float]]] | None:
    """Where the parts of a split panel go when they all fit one sheet, stacked in reading
    order with cutting room between them (portrait first); None when they do not."""
    count = split.rows * split.columns
    if count == 1:
        return None
    windows = [split.window(*divmod(n, split.columns), overlap) for n in range(count)]
    width = max(w.w for w in windows)
    height = sum(w.h for w in windows) + (count - 1) * PACK_GAP_MM
    for landscape in (False, True):
        f = frame(paper, margin, landscape=landscape)
        room = f.content.inset(MARK_ZONE_MM)
        if width <= room.w + 1e-6 and height <= room.h + 1e-6:
            y = f.content.y + (f.content.h - height) / 2
            spots = []
            for w in windows:
                spots.append((f.content.x + (f.content.w - w.w) / 2, y))
                y += w.h + PACK_GAP_MM
            return f, spots
    return None


def _sheets(drawings: tuple[Drawing, ...], paper: str, margin: float, overlap: float) -> list[tuple[_Split, tuple[int, ...]]]:
    """Which drawings go on which sheet(s): consecutive one-page drawings of one size share a
    sheet as long as they fit (six 190 × 130 mm account cards: three A4 sheets, not six)."""
    sheets: list[tuple[_Split, tuple[int, ...]]] = []
    for index, drawing in enumerate(drawings):
        split = _split(drawing, paper, margin, overlap)
        if sheets and split.rows * split.columns == 1:
            last_split, last = sheets[-1]
            same = (drawings[last[0]].width, drawings[last[0]].height) == (drawing.width, drawing.height)
            if same and last_split.rows * last_split.columns == 1 and len(last) < _capacity(drawing, paper, margin)[1]:
                sheets[-1] = (_Split(_capacity(drawing, paper, margin)[0], 1, 1, drawing.width, drawing.height),
                              last + (index,))
                continue
        sheets.append((split, (index,)))
    return sheets


def _capacity(drawing: Drawing, paper: str, margin: float) -> tuple[Frame, int]:
    """The sheet orientation holding most copies of `drawing` with cutting room between them."""
    best = []
    for landscape in (False, True):
        f = frame(paper, margin, landscape=landscape)
        room = f.content.inset(MARK_ZONE_MM)
        columns = int((room.w + PACK_GAP_MM) // (drawing.width + PACK_GAP_MM))
        rows = int((room.h + PACK_GAP_MM) // (drawing.height + PACK_GAP_MM))
        best.append((columns * rows, not landscape, f))
    count, _, f = max(best, key=lambda option: option[:2])
    return f, max(count, 1)


def _packed(indexes: tuple[int, ...], drawing: Drawing, f: Frame, page: int) -> list[Tile]:
    """Tiles for several same-size drawings on one sheet: a centred grid, row by row."""
    room = f.content.inset(MARK_ZONE_MM)
    columns = max(1, int((room.w + PACK_GAP_MM) // (drawing.width + PACK_GAP_MM)))
    rows = math.ceil(len(indexes) / columns)
    columns = min(columns, len(indexes))
    grid_w = columns * drawing.width + (columns - 1) * PACK_GAP_MM
    grid_h = rows * drawing.height + (rows - 1) * PACK_GAP_MM
    x0, y0 = f.content.x + (f.content.w - grid_w) / 2, f.content.y + (f.content.h - grid_h) / 2
    window = Box(0, 0, drawing.width, drawing.height)
    tiles = []
    for n, index in enumerate(indexes):
        row, column = divmod(n, columns)
        at = Box(x0 + column * (drawing.width + PACK_GAP_MM), y0 + row * (drawing.height + PACK_GAP_MM),
                 drawing.width, drawing.height)
        tiles.append(Tile(index, page, 1, 1, 1, 1, window, at))
    return tiles


def _sheet_of(drawings: tuple[Drawing, ...], tiles: list[Tile], f: Frame, info: Furniture, where: str) -> Page:
    """A sheet of whole panels, each with its crop marks."""
    items: list[Item] = [Group(drawings[t.drawing].items, translate(t.at.x, t.at.y), Rect(0, 0, t.at.w, t.at.h, Style()))
                         for t in tiles]
    boxes = [t.at for t in tiles]
    items += crop_marks(boxes, boxes)
    items.append(furniture(f, info, where, None))
    return Page(f.width, f.height, tuple(items), f"{info.component}, {where}")


def _split(drawing: Drawing, paper: str, margin: float, overlap: float) -> _Split:
    """One page if the drawing fits (portrait first), else the fewest tiles."""
    frames = [frame(paper, margin, landscape=landscape) for landscape in (False, True)]
    for f in frames:
        box = f.content
        if drawing.width <= box.w + 1e-6 and drawing.height <= box.h + 1e-6:
            return _Split(f, 1, 1, drawing.width, drawing.height)
    options = []
    for f in frames:
        room = f.content.inset(MARK_ZONE_MM)
        columns, rows = _count(drawing.width, room.w, overlap), _count(drawing.height, room.h, overlap)
        window_w = (drawing.width + (columns - 1) * overlap) / columns
        column_x, column_w = _seamed(drawing, columns, room.w, overlap)
        options.append((rows * columns, f.landscape, _Split(
            f, rows, columns, max(column_w, default=window_w), (drawing.height + (rows - 1) * overlap) / rows,
            column_x, column_w,
        )))
    return min(options, key=lambda option: option[:2])[2]


def _seamed(drawing: Drawing, columns: int, room: float, overlap: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Column windows whose visible seams (each window's right edge) fall on the drawing's
    `seams_x`, each seam the allowed one nearest an even split; () when there are no seams to
    follow or they cannot keep every window within `room`."""
    if columns < 2 or not drawing.seams_x:
        return (), ()
    starts, ends = [0.0], []
    for k in range(1, columns):
        target = k * drawing.width / columns
        left = columns - k  # windows still to come after this seam: the rest of the drawing must fit them
        fits = [x for x in drawing.seams_x if starts[-1] + overlap < x <= starts[-1] + room + 1e-6
                and drawing.width - (x - overlap) <= left * room - (left - 1) * overlap + 1e-6]
        if not fits:
            return (), ()
        seam = min(fits, key=lambda x: abs(x - target))
        ends.append(seam)
        starts.append(seam - overlap)
    ends.append(drawing.width)
    widths = tuple(end - start for start, end in zip(starts, ends, strict=True))
    return (tuple(starts), widths) if max(widths) <= room + 1e-6 else ((), ())


def _count(length: float, room: float, overlap: float) -> int:
    if length <= room + 1e-6:
        return 1
    return math.ceil((length - overlap) / (room - overlap) - 1e-9)


def _sheet(n: int, count: int) -> str:
    return _("sheet {n} of {count}").format(n=n, count=count)


def _where(t: Tile, sheet: int, count: int, many: bool) -> str:
    """"sheet 3 of 6", or a tiled panel's place: "page 2 of 4, row 1, column 2" (after its
    sheet's number when the component has other panels)."""
    parts = t.rows * t.columns
    place = _("page {n} of {count}, row {row}, column {column}").format(
        n=(t.row - 1) * t.columns + t.column, count=parts, row=t.row, column=t.column)
    if parts == 1:
        return _sheet(sheet, count)
    return _("{where} · {place}").format(where=_sheet(sheet, count), place=place) if many else place


def _page(drawing: Drawing, t: Tile, f: Frame, info: Furniture, where: str, overlap: float) -> Page:
    w, at = t.window, t.at
    art = Group(drawing.items, translate(at.x - w.x, at.y - w.y), Rect(w.x, w.y, w.w, w.h, Style()))
    items: list[Item] = [art]
    if t.column > 1:
        items.append(_glue(Box(at.x, at.y, overlap, at.h), upright=True))
    if t.row > 1:
        items.append(_glue(Box(at.x, at.y, at.w, overlap), upright=False))
    items += _joins(t, overlap)
    if f.content.inset(MARK_ZONE_MM).contains(at) or t.rows * t.columns > 1:
        items += crop_marks([at], [at])
    badge = _map(t) if t.rows * t.columns > 1 else None
    items.append(furniture(f, info, where, badge))
    return Page(f.width, f.height, tuple(items), f"{info.component}, {where}")


def _parts_page(drawing: Drawing, tiles: list[Tile], f: Frame, info: Furniture, where: str, overlap: float) -> Page:
    """All parts of one board on one sheet, each with its glue strips, marks and crop marks."""
    items: list[Item] = []
    for t in tiles:
        part = _page(drawing, t, f, info, where, overlap)
        items += part.items[:-1]  # everything but that page's furniture
    items.append(furniture(f, info, where, None))
    return Page(f.width, f.height, tuple(items), f"{info.component}, {where}")


def _glue(strip: Box, upright: bool) -> Group:
    """A lightly hatched strip, labelled, that the neighbouring sheet covers."""
    step = 2.5
    lines: list[Item] = []
    span = strip.w + strip.h
    for i in range(int(span / step) + 1):
        d = i * step
        lines.append(Line(strip.x + d, strip.y, strip.x + d - strip.h, strip.bottom, HATCH))
    label_w = 12.0
    if upright:
        cx, cy = strip.x + strip.w / 2, strip.y + strip.h / 2
        box = (cx - label_w / 2, cy - 1.75, label_w, 3.5)
        label = Group((_label(box),), rotate(-90, cx, cy))
    else:
        label = _label((strip.x + (strip.w - label_w) / 2, strip.y + strip.h / 2 - 1.75, label_w, 3.5))
    clip = Rect(strip.x, strip.y, strip.w, strip.h, Style())
    return Group((Group(tuple(lines), clip=clip), label))


def _label(box: tuple[float, float, float, float]) -> Group:
    x, y, w, h = box
    text = fit_text(_(GLUE_LABEL), x, y, w, h, size=6.5, min_size=6, color="#333333", what="a glue strip")
    return Group((Rect(x, y, w, h, Style(fill="#ffffff", opacity=0.85)), text))


def _joins(t: Tile, overlap: float) -> list[Item]:
    """Alignment marks only where the finished board hides them. On a glue strip (left or top
    edge): a line where the neighbour's cut edge goes, and two ticks across the strip. Where
    this tile lays over its neighbour's strip (right or bottom edge): the same two ticks, in the
    margin beyond the cut. Tiles of a row share their height, of a column their width, so the
    ticks meet."""
    at = t.at
    items: list[Item] = []
    if t.column > 1:
        x = at.x + overlap - 0.3
        items.append(Line(x, at.y, x, at.bottom, JOIN))
        items += [Line(at.x + 1.0, y, x, y, JOIN) for y in _ticks(at.y, at.h)]
    if t.row > 1:
        y = at.y + overlap - 0.3
        items.append(Line(at.x, y, at.right, y, JOIN))
        items += [Line(x, at.y + 1.0, x, y, JOIN) for x in _ticks(at.x, at.w)]
    if t.column < t.columns:
        items += [Line(at.right + MARK_GAP_MM, y, at.right + MARK_ZONE_MM, y, JOIN) for y in _ticks(at.y, at.h)]
    if t.row < t.rows:
        items += [Line(x, at.bottom + MARK_GAP_MM, x, at.bottom + MARK_ZONE_MM, JOIN) for x in _ticks(at.x, at.w)]
    return items


def _ticks(start: float, length: float) -> tuple[float, float]:
    return (start + 0.25 * length, start + 0.75 * length)


def _map(t: Tile) -> Badge:
    """The grid of tiles with this one filled, sized to the header band."""
    cell_h = (BAND_MM - 0.8) / t.rows
    cell_w = min(cell_h * t.window.w / t.window.h, 12.0 / t.columns)
    items: list[Item] = []
    for r in range(t.rows):
        for c in range(t.columns):
            here = (r + 1, c + 1) == (t.row, t.column)
            style = Style(fill="#555555" if here else "#ffffff", stroke="#555555", width=0.15)
            items.append(Rect(c * cell_w, 0.4 + r * cell_h, cell_w, cell_h, style))
    return Badge(tuple(items), cell_w * t.columns)
