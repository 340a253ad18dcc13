"""The pieces on a built PDF's page, measured from what the page draws: each piece's art is
clipped to its bleed box (`W n` in the content stream), and its cut lines continue its crop
marks (thin lines). A piece is an outermost clip box with cut lines inside it: its trim is
the box those lines bound, its bleed the distance from each trim edge to the clip's.

Read with pypdf's content-stream parser, following `q`/`Q` and `cm`, in millimetres with y
down from the page's top, as pnp's layout measures.
"""

from __future__ import annotations

from dataclasses import dataclass

from pypdf import PageObject
from pypdf.generic import ContentStream

PT = 25.4 / 72  # mm per point
MARK_WIDTH_MM = 0.15  # pnp.layout.sheet.MARK_STYLE
Matrix = tuple[float, float, float, float, float, float]


@dataclass(frozen=True)
class Box:
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

    def contains(self, other: "Box", tolerance: float = 0.05) -> bool:
        return (other.x >= self.x - tolerance and other.y >= self.y - tolerance
                and other.right <= self.right + tolerance and other.bottom <= self.bottom + tolerance)


@dataclass(frozen=True)
class Piece:
    trim: Box  # where it is cut
    art: Box  # how far its art reaches (its clip)

    @property
    def bleeds(self) -> tuple[float, float, float, float]:
        """Art beyond the trim: left, top, right, bottom (mm)."""
        t, a = self.trim, self.art
        return t.x - a.x, t.y - a.y, a.right - t.right, a.bottom - t.bottom


def _times(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF's `cm` pre-multiplies: the new CTM is m × CTM)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _point(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def drawn(page: PageObject) -> tuple[list[Box], list[tuple[float, float, float, float]]]:
    """The page's clip boxes and its crop marks (x1, y1, x2, y2), in mm from the top left, as
    its own content stream draws them (not inside form XObjects): the thin lines of the mark
    width, but the ticks of the footer's ruler (by its 100 mm bar)."""
    height = float(page.mediabox.height)
    ctm: Matrix = (1, 0, 0, 1, 0, 0)
    stack: list[tuple[Matrix, float]] = []
    width = 1.0
    path: list[tuple[float, ...]] = []
    clips: list[Box] = []
    fills: list[Box] = []
    lines: list[tuple[float, float, float, float]] = []
    start = (0.0, 0.0)

    def mm(x: float, y: float) -> tuple[float, float]:
        px, py = _point(ctm, x, y)
        return px * PT, (height - py) * PT

    for operands, operator in ContentStream(page.get_contents(), page.pdf).operations:
        op = operator.decode()
        values = [float(v) for v in operands if isinstance(v, (int, float)) or hasattr(v, "as_numeric")]
        if op == "q":
            stack.append((ctm, width))
        elif op == "Q":
            ctm, width = stack.pop()
        elif op == "cm":
            ctm = _times(tuple(values), ctm)  # type: ignore[arg-type]
        elif op == "w":
            scale = (abs(ctm[0] * ctm[3] - ctm[1] * ctm[2])) ** 0.5
            width = values[0] * scale * PT
        elif op == "re":
            x, y, w, h = values
            corners = [mm(x, y), mm(x + w, y + h)]
            path.append(("re", min(c[0] for c in corners), min(c[1] for c in corners),
                         abs(corners[1][0] - corners[0][0]), abs(corners[1][1] - corners[0][1])))
        elif op == "m":
            start = mm(*values)
        elif op == "l":
            end = mm(*values)
            path.append(("l", *start, *end))
            start = end
        elif op in ("W", "W*"):
            clips += [Box(*p[1:]) for p in path if p[0] == "re"]
        elif op in ("S", "s") and abs(width - MARK_WIDTH_MM) < 0.02:
            lines += [p[1:] for p in path if p[0] == "l"]  # type: ignore[misc]
        elif op in ("f", "F", "f*", "B", "b"):
            fills += [Box(*p[1:]) for p in path if p[0] == "re"]
        if op in ("n", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*"):
            path = []
    bar = next(b for b in fills if abs(max(b.w, b.h) - 100) < 0.1 and abs(min(b.w, b.h) - 0.8) < 0.05)
    if bar.w > bar.h:  # the footer below the content: its ticks rise from the bar
        lines = [line for line in lines if min(line[1], line[3]) < bar.y - 1.4]
    else:  # up the right side
        lines = [line for line in lines if min(line[0], line[2]) < bar.x - 1.4]
    return clips, lines


def pieces(page: PageObject, sizes: set[tuple[float, float]]) -> list[Piece]:
    """The pieces on the page whose trims have one of `sizes` (width, height in mm, either way
    round), and the panels (art without bleed): each outermost clip box with two cut lines
    each way inside it (the page's crop marks continued) that far apart — its trim — or on its
    edges, or (a form filling the page) none."""
    clips, lines = drawn(page)
    xs = sorted({round(x1, 2) for x1, y1, x2, y2 in lines if abs(x1 - x2) < 1e-6})
    ys = sorted({round(y1, 2) for x1, y1, x2, y2 in lines if abs(y1 - y2) < 1e-6})
    outer = [c for c in clips if not any(o != c and o.contains(c, 0.0) for o in clips)]
    found = []
    for art in dict.fromkeys(outer):
        turned = {size for wide, high in sizes for size in ((wide, high), (high, wide))}
        for w, h in [*sorted(turned, key=lambda size: -size[0] * size[1]), (art.w, art.h)]:  # the largest that fits
            across, down = _pair(xs, art.x, art.right, w), _pair(ys, art.y, art.bottom, h)
            if across and down:  # a piece of one of the sizes, else art without bleed cut on its edges (a panel)
                found.append(Piece(Box(across[0], down[0], w, h), art))
                break
        else:
            if art.w > 100 and art.h > 100:  # a form or aid filling the page, cut nowhere
                found.append(Piece(art, art))
    return found


def _pair(cuts: list[float], low: float, high: float, size: float) -> tuple[float, float] | None:
    """Two cut lines in [low, high] `size` apart, the most central pair if several."""
    inside = [c for c in cuts if low - 0.05 <= c <= high + 0.05]
    pairs = [(a, b) for a in inside for b in inside if abs(b - a - size) < 0.06]
    return min(pairs, key=lambda p: abs((p[0] - low) - (high - p[1])), default=None)
