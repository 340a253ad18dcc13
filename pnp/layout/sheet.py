"""Sheet furniture: the paper, its bands, and what every sheet says about itself.

Every printed sheet carries a thin header (game, component, "sheet n"), a footer with a
calibration ruler (a 100 mm bar and a 1 inch bar, labelled) and a stamp (pnp version and a
short hash of what the sheet's component prints, see `pnp.build`), so that a sheet printed at
the wrong scale, or from an older version of its component, is caught at the table. Nothing
else on a sheet depends on the stamp's text, so two sheets that differ only by their stamps
print the same content. All of it sits inside the printable area (the paper minus
`print.margin_mm`), in two bands of equal thickness: above and below the content, or — when
pieces need the full height (poker cards on Letter) — in strips left and right of it, read
from bottom to top. Equal bands keep the content centred on the paper, so that duplex backs,
mirrored about the paper's centre line, land on the same grid as their fronts.

Crop marks live here too: imposition and tiling both draw them, only outside the pieces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

from pnp.display import Group, Item, Line, Matrix, Rect, Style, Text, translate
from pnp.i18n import N_, _, variants
from pnp.layout.text import fit_text, text_width

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait, mm
BAND_MM = 4.5  # thickness of the header band and of the footer band
MARK_GAP_MM = 0.5  # between the outermost bleed and a crop mark
MARK_LENGTH_MM = 2.0
MARK_ZONE_MM = MARK_GAP_MM + MARK_LENGTH_MM  # room a crop mark needs beyond the bleed
INNER_GAP_MM = 0.3  # between a trim and a crop mark that sits in a gutter
INK = "#000000"
QUIET = "#555555"  # furniture text: readable, but quieter than the game's own ink
MARK_STYLE = Style(stroke=INK, width=0.15)
TEXT_PT = 6.5  # furniture text; VISUAL.md's minimum is 6 pt
RULER_BAR_MM = 0.8
ZONE_GAP_MM = 0.5  # between a keep-out zone and the band's text or ruler (a line at its edge would reach into it)


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in mm, y down."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def inset(self, dx: float, dy: float | None = None) -> "Box":
        dy = dx if dy is None else dy
        return Box(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)

    def contains(self, other: "Box", tolerance: float = 1e-6) -> bool:
        return (
            other.x >= self.x - tolerance
            and other.y >= self.y - tolerance
            and other.right <= self.right + tolerance
            and other.bottom <= self.bottom + tolerance
        )

    def overlaps(self, other: "Box", tolerance: float = 1e-6) -> bool:
        return (
            other.x < self.right - tolerance
            and self.x < other.right - tolerance
            and other.y < self.bottom - tolerance
            and self.y < other.bottom - tolerance
        )


def bounds(boxes: Iterable[Box]) -> Box:
    """The smallest box around all `boxes`."""
    boxes = tuple(boxes)
    x, y = min(b.x for b in boxes), min(b.y for b in boxes)
    return Box(x, y, max(b.right for b in boxes) - x, max(b.bottom for b in boxes) - y)


def paper_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    """Width and height of the paper in mm, turned when `landscape`."""
    w, h = PAPERS[paper]
    return (h, w) if landscape else (w, h)


@dataclass(frozen=True)
class Frame:
    """A sheet's geometry: the paper, the printable area, the two furniture bands and the
    content box between them. `sideways` puts the bands left and right of the content."""

    width: float
    height: float
    margin: float
    sideways: bool = False
    keep_out: tuple[Box, ...] = ()  # a cutting machine's registration marks and their clearance: nothing here

    @property
    def landscape(self) -> bool:
        return self.width > self.height

    @property
    def printable(self) -> Box:
        return Box(0, 0, self.width, self.height).inset(self.margin)

    @property
    def content(self) -> Box:
        p = self.printable
        return p.inset(BAND_MM, 0) if self.sideways else p.inset(0, BAND_MM)

    @property
    def header(self) -> Box:
        p = self.printable
        return Box(p.x, p.y, BAND_MM, p.h) if self.sideways else Box(p.x, p.y, p.w, BAND_MM)

    @property
    def footer(self) -> Box:
        p = self.printable
        if self.sideways:
            return Box(p.right - BAND_MM, p.y, BAND_MM, p.h)
        return Box(p.x, p.bottom - BAND_MM, p.w, BAND_MM)


def frame(paper: str, margin: float, *, landscape: bool = False, sideways: bool = False) -> Frame:
    w, h = paper_size(paper, landscape)
    return Frame(w, h, margin, sideways)


def content_size(paper: str, margin: float, *, landscape: bool = False) -> tuple[float, float]:
    """The largest drawing (w, h in mm) that fits one sheet with its furniture and crop marks:
    what a full-page panel (an aid, a form) should measure to print on a single page."""
    box = frame(paper, margin, landscape=landscape).content.inset(MARK_ZONE_MM)
    return (box.w, box.h)


# --- what a sheet says ----------------------------------------------------------------------


@dataclass(frozen=True)
class Furniture:
    """What every sheet of one component says about itself."""

    title: str  # the game
    component: str  # the component's name
    stamp: str  # pnp version and the component's digest, see `stamp`


def stamp(version: str, digest: str) -> str:
    """The footer's stamp: `pnp 0.1.0 · 3f2a9c1e`."""
    return f"pnp {version} · {digest}"


@dataclass(frozen=True)
class Badge:
    """A small drawing at the header's right end (a tiled board's assembly map), in its own
    box of `width` × `BAND_MM` mm with the origin at its top-left."""

    items: tuple[Item, ...]
    width: float


def furniture(frame: Frame, info: Furniture, where: str, badge: Badge | None = None) -> Group:
    """Header and footer of one sheet; `where` says which sheet it is ("sheet 2 of 9 · backs").
    Each band runs its full length, or between the keep-out zones of a cutting machine's marks."""
    parts = []
    bands: tuple[tuple[Box, Callable[[float], tuple[Item, ...]]], ...] = (
        (frame.header, lambda length: _header(length, info, where, badge)), (frame.footer, lambda length: _footer(length, info)))
    for band, draw in bands:
        start, length = _band_span(frame, band)
        parts.append(Group((Group(draw(length), translate(start, 0)),), _band_transform(frame, band)))
    return Group(tuple(parts))


def _band_span(frame: Frame, band: Box) -> tuple[float, float]:
    """Where a band's text may run, in its own coordinates (along it, from its start): all of it,
    or what the keep-out zones at its ends leave."""
    along = band.h if frame.sideways else band.w
    start, end = 0.0, along
    for zone in frame.keep_out:
        if not zone.overlaps(band):
            continue
        if frame.sideways:  # band coordinates run up the page: from band.bottom towards band.y
            lo, hi = band.bottom - zone.bottom, band.bottom - zone.y
        else:
            lo, hi = zone.x - band.x, zone.right - band.x
        if (lo + hi) / 2 < along / 2:
            start = max(start, hi + ZONE_GAP_MM)
        else:
            end = min(end, lo - ZONE_GAP_MM)
    return start, max(end - start, 0.0)


def _band_transform(frame: Frame, band: Box) -> Matrix:
    """Band coordinates (x along the band, y across it) → page coordinates. Side strips are
    turned a quarter anticlockwise, so they read from bottom to top, their top towards the
    left, like the spine of a book."""
    if not frame.sideways:
        return translate(band.x, band.y)
    return (0.0, -1.0, 1.0, 0.0, band.x, band.bottom)


def _header(length: float, info: Furniture, where: str, badge: Badge | None) -> tuple[Item, ...]:
    what = f"the sheet header of {info.component}"
    badge_w = badge.width + 1.5 if badge else 0.0
    where_w = min(length * 0.45, _label_width(where, "regular") + 1)
    title_w = length - badge_w - where_w - 2
    items: list[Item] = [
        fit_text(f"**{info.title}** · {info.component}", 0, 0, title_w, BAND_MM, size=TEXT_PT,
                 min_size=6, color=QUIET, align="left", what=what),
        fit_text(where, title_w + 2, 0, where_w, BAND_MM, size=TEXT_PT, min_size=6, color=QUIET,
                 align="right", what=what),
    ]
    if badge:
        items.append(Group(badge.items, translate(length - badge.width, 0)))
    return tuple(items)


def _footer(length: float, info: Furniture) -> tuple[Item, ...]:
    """Two ruler bars with ticks, labelled, then the stamp at the far end."""
    base = BAND_MM - 0.6  # bottom of the bars
    items: list[Item] = []
    x = 0.0
    for bar, label, ticks, every in ((100.0, N_("100 mm"), 21, 5.0), (25.4, N_("1 inch"), 5, 25.4 / 4)):
        items.append(Rect(x, base - RULER_BAR_MM, bar, RULER_BAR_MM, Style(fill=INK)))
        for i in range(ticks):
            tick = 1.3 if i % 2 == 0 or ticks == 5 else 0.7
            items.append(Line(x + i * every, base - RULER_BAR_MM, x + i * every, base - RULER_BAR_MM - tick, MARK_STYLE))
        items.append(Text(x + bar + 1.2, base, _(label), TEXT_PT, "bold", INK))
        x += bar + 1.2 + max(_label_width(word) for word in variants(label)) + 4  # the next bar where every language puts it
    room = length - x - _label_width(_widest(info.stamp), "regular") - 3
    for note in (N_("print at 100 %: the bars must measure 100 mm and 1 inch"), N_("print at 100 %")):
        if _label_width(_(note), "regular") <= room:
            items.append(Text(x, base, _(note), TEXT_PT, "regular", QUIET))
            break
    items.append(Text(length, base, info.stamp, TEXT_PT, "regular", QUIET, "end"))
    return tuple(items)


def _label_width(text: str, font: str = "bold") -> float:
    return text_width(text, font, TEXT_PT)


def _widest(stamp: str) -> str:
    """The stamp with every hex digit as "0", the widest of them: the room it is given is then
    the same for every digest, and nothing else on the sheet moves when the stamp changes."""
    return re.sub("[0-9a-f]", "0", stamp)


# --- crop marks ---------------------------------------------------------------------------


def crop_marks(trims: Iterable[Box], bleeds: Iterable[Box], *, across: bool = False,
               along: bool = False) -> tuple[Line, ...]:
    """Short lines continuing every trim edge beyond the bleed, never across a piece.

    Vertical marks at every distinct trim x sit above and below the pieces that have that edge;
    horizontal marks at every distinct trim y sit left and right of the pieces that have it (on
    a full grid: outside all of them). Where a grid has no room for them there (`across`: none
    above and below; `along`: none left and right), they sit in the gutters between its rows
    (or columns) instead, `INNER_GAP_MM` clear of the trims: that strip is cut away, and two
    marks in two gutters line up a ruler as well as two at the ends; a last sheet's single row
    (column) has no gutter, and its marks go below (right of) it, where its empty places are.
    Remembered: every full sheet of a deck has the same marks.
    """
    return _crop_marks(tuple(trims), tuple(bleeds), across, along)


@lru_cache(maxsize=1024)
def _crop_marks(trims: tuple[Box, ...], bleeds: tuple[Box, ...], across: bool, along: bool) -> tuple[Line, ...]:
    if not trims:
        return ()
    edges = tuple(zip(trims, bleeds, strict=True))
    return (*_vertical_marks(trims, edges, in_gutters=across), *_horizontal_marks(trims, edges, in_gutters=along))


def _vertical_marks(trims: tuple[Box, ...], edges: tuple[tuple[Box, Box], ...], *,
                    in_gutters: bool) -> list[Line]:
    """The marks of every distinct x of the `trims`: above and below the bleeds of the
    (trim, bleed) `edges` that have it, or across each gutter between rows."""
    xs = sorted({round(v, 6) for t in trims for v in (t.x, t.right)})
    near, far = MARK_GAP_MM, MARK_ZONE_MM
    marks: list[Line] = []
    gutters = _gutters([(t.y, t.bottom) for t in trims]) if in_gutters else []
    for top, bottom in gutters:
        marks += [Line(x, top + INNER_GAP_MM, x, bottom - INNER_GAP_MM, MARK_STYLE) for x in xs]
    if gutters:
        return marks
    for x in xs:  # beyond the pieces; of a last sheet's one row (no gutter), below it only: above is the margin
        owners = bounds(b for t, b in edges if abs(t.x - x) < 1e-6 or abs(t.right - x) < 1e-6)
        if not in_gutters:
            marks.append(Line(x, owners.y - far, x, owners.y - near, MARK_STYLE))
        marks.append(Line(x, owners.bottom + near, x, owners.bottom + far, MARK_STYLE))
    return marks


def _horizontal_marks(trims: tuple[Box, ...], edges: tuple[tuple[Box, Box], ...], *,
                      in_gutters: bool) -> list[Line]:
    """The marks of every distinct y of the `trims`: left and right of the bleeds of the
    (trim, bleed) `edges` that have it, or across each gutter between columns."""
    ys = sorted({round(v, 6) for t in trims for v in (t.y, t.bottom)})
    near, far = MARK_GAP_MM, MARK_ZONE_MM
    marks: list[Line] = []
    gutters = _gutters([(t.x, t.right) for t in trims]) if in_gutters else []
    for left, right in gutters:
        marks += [Line(left + INNER_GAP_MM, y, right - INNER_GAP_MM, y, MARK_STYLE) for y in ys]
    if gutters:
        return marks
    for y in ys:  # beyond the pieces; of a last sheet's one column (no gutter), right of it only
        owners = bounds(b for t, b in edges if abs(t.y - y) < 1e-6 or abs(t.bottom - y) < 1e-6)
        if not in_gutters:
            marks.append(Line(owners.x - far, y, owners.x - near, y, MARK_STYLE))
        marks.append(Line(owners.right + near, y, owners.right + far, y, MARK_STYLE))
    return marks


def clear_of(items: Iterable[Line], zones: Iterable[Box]) -> tuple[Line, ...]:
    """The lines that keep out of every zone (crop marks near a cutting machine's marks go)."""
    zones = tuple(zones)
    return tuple(line for line in items if not any(z.overlaps(Box(min(line.x1, line.x2), min(line.y1, line.y2),
                                                                 abs(line.x2 - line.x1), abs(line.y2 - line.y1)),
                                                             -1e-6) for z in zones))


def _gutters(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The gaps between consecutive bands of pieces along one axis, as (end of one, start of next)."""
    bands = sorted({(round(a, 6), round(b, 6)) for a, b in spans})
    return [(end, start) for (_, end), (start, _) in zip(bands, bands[1:], strict=False) if start - end > 2 * INNER_GAP_MM]
