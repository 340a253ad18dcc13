"""Booklets: half-sheet pages (A5 on A4, half-letter on Letter) two to a sheet, imposed to
fold into a stapled booklet.

A sheet stays portrait (every printer driver agrees on how a portrait page turns over) and
holds two pages turned a quarter, one above and one below the fold line across its middle:
opened flat, the folded sheet reads as a spread. For a booklet of P pages (padded with blank
ones to a multiple of 4), sheet k carries pages P − 2k and 2k + 1 on its front and 2k + 2 and
P − 2k − 1 on its back; nested and folded, the sheets read 1 … P. The front's spread is turned
clockwise; its back is the same spread turned anticlockwise when the sheet flips on its long
edge and clockwise when on its short one, so each page lands behind the right one.

Without a duplex printer (`duplex: none` or `fold`) the pages go two to a side in reading
order, to be cut apart on the middle line: single half-sheet pages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.display import Drawing, Group, Item, Line, Matrix, Page, Rect, Style
from pnp.i18n import N_, _
from pnp.layout.sheet import Box, Frame, Furniture, frame, furniture

FOLD_CLEARANCE_MM = 6.0  # between the fold (or cut) line and a page's text
OUTER_CLEARANCE_MM = 2.0  # between a page's text and the sheet's header or footer band
MARK_MM = 4.0  # length of the fold or cut ticks at both ends of the middle line
FOLD_STYLE = Style(stroke="#000000", width=0.2, dash=(2.0, 1.5))
CUT_STYLE = Style(stroke="#000000", width=0.15)
PAGE_NAMES = {"a4": "A5", "letter": N_("half-letter")}  # a booklet page: half the sheet, by its name


@dataclass(frozen=True)
class Folding:
    """A booklet on sheets: the pages as printed and how they are to be printed."""

    pages: tuple[Page, ...]
    duplex: str  # "long" | "short": a folded booklet; "none": single pages to cut apart
    sheets: int
    book_pages: int  # pages of the booklet, blank padding included
    page_name: str = "A5"  # what a page is called on this paper ("A5", "half-letter")

    @property
    def folded(self) -> bool:
        return self.duplex in ("long", "short")


def page_size(paper: str, margin: float) -> tuple[float, float]:
    """Width and height (mm) of one booklet page's text area on `paper`."""
    f = frame(paper, margin)
    upper = _halves(f)[0]
    return (upper.h - FOLD_CLEARANCE_MM - OUTER_CLEARANCE_MM, upper.w - 2 * OUTER_CLEARANCE_MM)


def fold_booklet(pages: tuple[Drawing, ...], paper: str, margin: float, duplex: str, info: Furniture) -> Folding:
    """The booklet's pages imposed on sheets for `duplex` (see the module's docstring)."""
    f = frame(paper, margin)
    folded = duplex in ("long", "short")
    count = max(4, math.ceil(len(pages) / 4) * 4) if folded else max(2, math.ceil(len(pages) / 2) * 2)
    blank = Drawing(*page_size(paper, margin), ())
    book = list(pages) + [blank] * (count - len(pages))
    out: list[Page] = []
    sheets = count // 4 if folded else count // 2
    for k in range(sheets):
        where = _("sheet {n} of {count}").format(n=k + 1, count=sheets)
        if folded:
            front = (count - 2 * k, 2 * k + 1)  # (left, right) of the spread, 1-based
            back = (2 * k + 2, count - 2 * k - 1)
            out.append(_sheet(f, book, front, "clockwise", True, info, _("{where} · front").format(where=where)))
            turn = "anticlockwise" if duplex == "long" else "clockwise"
            back_where = (_("{where} · back, flip on the long edge") if duplex == "long"
                          else _("{where} · back, flip on the short edge"))
            out.append(_sheet(f, book, back, turn, True, info, back_where.format(where=where)))
        else:
            out.append(_sheet(f, book, (2 * k + 1, 2 * k + 2), "clockwise", False, info,
                              _("{where} · cut on the middle line").format(where=where)))
    return Folding(tuple(out), duplex if folded else "none", sheets, count, PAGE_NAMES[paper])


def _halves(f: Frame) -> tuple[Box, Box]:
    """The content box above and below the sheet's middle line."""
    c, middle = f.content, f.height / 2
    return Box(c.x, c.y, c.w, middle - c.y), Box(c.x, middle, c.w, c.bottom - middle)


def _sheet(f: Frame, book: list[Drawing], spread: tuple[int, int], turn: str, folded: bool, info: Furniture,
           where: str) -> Page:
    """One side of a sheet: the spread (left, right) turned a quarter `turn`; clockwise puts
    the left page above the middle line, anticlockwise below it."""
    upper, lower = _halves(f)
    left, right = spread
    above, below = (left, right) if turn == "clockwise" else (right, left)
    items: list[Item] = []
    for number, half in ((above, upper), (below, lower)):
        drawing = book[number - 1]
        items.append(Group(drawing.items, _placement(drawing, half, turn, half is upper),
                           Rect(0, 0, drawing.width, drawing.height, Style())))
    items += _middle_marks(f, folded)
    label = f"{info.component}, {where}"
    return Page(f.width, f.height, (*items, furniture(f, info, where)), label)


def _placement(drawing: Drawing, half: Box, turn: str, upper: bool) -> Matrix:
    """The transform putting a page, turned a quarter, in its half with its inner edge (the
    spine side) `FOLD_CLEARANCE_MM` from the middle line."""
    w, h = drawing.width, drawing.height  # on the sheet: h across, w along the height
    x0 = half.x + (half.w - h) / 2
    y0 = half.bottom - FOLD_CLEARANCE_MM - w if upper else half.y + FOLD_CLEARANCE_MM
    if turn == "clockwise":  # (u, v) → (x0 + h − v, y0 + u): the page's top faces right
        return (0.0, 1.0, -1.0, 0.0, x0 + h, y0)
    return (0.0, -1.0, 1.0, 0.0, x0, y0 + w)  # (u, v) → (x0 + v, y0 + w − u): its top faces left


def _middle_marks(f: Frame, folded: bool) -> list[Item]:
    """Short ticks at both ends of the middle line: dashed to fold on, solid to cut along."""
    c, y = f.content, f.height / 2
    style = FOLD_STYLE if folded else CUT_STYLE
    return [Line(c.x, y, c.x + MARK_MM, y, style), Line(c.right - MARK_MM, y, c.right, y, style)]
