"""The ink saver's toner: no colour of a component darker than it needs to be to read.

After the generators have drawn outlines and patterns instead of fills, what is left is line
and type, most of it black. A printer's toner-save mode prints such pages lighter; the ink
saver does the same once, in the display list: a colour darker (by the darkness
`pnp.render.png.mean_ink` measures, 1 minus the grey value) than its limit is mixed with white
until it is that dark, keeping its hue; lighter colours stay. Type and fills stop at
`DARKEST`: black type becomes a grey that reads at 4.7:1 on paper (WCAG AA asks 4.5:1).
Lines and outlined large type stop at `DARKEST_LINE`, 3.4:1 (WCAG asks 3:1 of large type and
of the lines a reader needs). Every colour keeps the contrast order it had, so a text chosen
for contrast stays above what it was chosen for. The toner is idempotent, so a booklet's
pictures of toned components are not toned twice. Sheet marks (crop marks, registration
marks, rulers) are drawn by layout, outside this, and stay black.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Union

from pnp.components.art import contrast_ratio
from pnp.display import (
    BookPages,
    Circle,
    Drawing,
    Group,
    Item,
    Line,
    Panels,
    PieceArt,
    Pieces,
    Polygon,
    Rect,
    Style,
    Text,
)

DARKEST = 0.55  # darkness of the darkest type and fill the ink saver prints: black becomes #737373
DARKEST_LINE = 0.45  # of the darkest line and outlined type: black becomes #8c8c8c
FLOOR = {DARKEST: 4.5, DARKEST_LINE: 3.0}  # the contrast on paper each limit never goes below (WCAG AA)
LOW_SPACING = 4.0  # mm: the ink saver's patterns (a bill's currency edges, a card back's ring), sparse

Output = Union[Pieces, Panels, BookPages]  # what a generator returns (as `pnp.components.Output`)


@cache
def toned(colour: str, darkest: float = DARKEST) -> str:
    """`colour` ("#rgb" or "#rrggbb") mixed with white to at most `darkest` darkness, but never
    below the contrast on paper its limit keeps (`FLOOR`): a bright green is left darker than
    the limit rather than fall under 3:1."""
    value = colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    r, g, b = (int(value[i : i + 2], 16) / 255 for i in (0, 2, 4))
    darkness = 1.0 - (0.299 * r + 0.587 * g + 0.114 * b)  # the grey value PIL's "L" and mean_ink use
    if darkness <= darkest + 0.5 / 255.0:  # within a rounding of the limit: toned already (idempotent)
        return colour
    floor = FLOOR[darkest] if darkest in FLOOR else 0.0
    if contrast_ratio(colour, "#ffffff") <= floor * 1.02:  # at the floor (toned already) or under it
        return colour
    keep = darkest / darkness
    while keep < 1.0:  # the lightest mix on the way from white to the colour that keeps the floor
        mixed = "#{:02x}{:02x}{:02x}".format(*(round((1.0 - (1.0 - c) * keep) * 255) for c in (r, g, b)))
        if contrast_ratio(mixed, "#ffffff") >= floor:
            return mixed
        keep += 1.0 / 255.0
    return colour


def _style(style: Style) -> Style:
    fill = toned(style.fill) if style.fill else style.fill
    stroke = toned(style.stroke, DARKEST_LINE) if style.stroke else style.stroke
    return style if (fill, stroke) == (style.fill, style.stroke) else replace(style, fill=fill, stroke=stroke)


def _item(item: Item) -> Item:
    if isinstance(item, Group):
        return replace(item, items=tuple(_item(child) for child in item.items))
    if isinstance(item, Text):
        return replace(item, color=toned(item.color, DARKEST_LINE if item.outline else DARKEST))
    if isinstance(item, (Rect, Line, Polygon, Circle)):
        return replace(item, style=_style(item.style))
    return item  # an image prints as its file says


def _drawing(drawing: Drawing) -> Drawing:
    return replace(drawing, items=tuple(_item(item) for item in drawing.items))


def tone(output: Output) -> Output:
    """A generator's output with every colour toned (see the module's docstring)."""
    if isinstance(output, Pieces):
        pieces = tuple(PieceArt(_drawing(p.front), None if p.back is None else _drawing(p.back)) for p in output.pieces)
        return replace(output, pieces=pieces)
    if isinstance(output, Panels):
        return replace(output, drawings=tuple(_drawing(d) for d in output.drawings))
    return replace(output, pages=tuple(_drawing(d) for d in output.pages))
