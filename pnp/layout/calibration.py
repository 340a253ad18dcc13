"""The duplex check: two lines on a front, two scales on its back, read against a lamp.

Home printers place the back of a double-sided sheet a millimetre or two off its front, and
every card back then lands off its card by the same amount. The check measures it: the front
carries a vertical and a horizontal line; the back carries, behind each line, a scale whose
tick `t` sits `t` mm from where the line should show through. Held against a lamp, each line
crosses its scale at the correction to add to `--back-offset` (the back of the check is shifted
by the current offset like every other back, so the reading is what is still missing).

The back is the front mirrored about the paper's long axis (flip on the long edge of a portrait
sheet: x → W − x) or its short one (y → H − y), as `impose` mirrors card slots.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.display import Group, Item, Line, Style, Text, translate
from pnp.i18n import _
from pnp.layout.sheet import Box, Frame
from pnp.layout.text import fit_text

REACH_MM = 5.0  # the scales read corrections from −5 to +5 mm
TICK_MM = 0.5
POINTER_MM = 16.0  # length of each front line
HEIGHT_MM = 34.0  # the check's block on the front, caption included
POINTER = Style(stroke="#000000", width=0.2)
TICK = Style(stroke="#000000", width=0.12)
LABEL_PT = 6.0


@dataclass(frozen=True)
class Pointers:
    """Where the front's two lines are, in page mm: the vertical one at x, spanning y0…y1,
    and the horizontal one at y, spanning x0…x1."""

    x: float
    y0: float
    y1: float
    y: float
    x0: float
    x1: float


def pointers(box: Box) -> Pointers:
    """The two lines inside `box` (the check's block on the front), below its caption."""
    cy = box.bottom - POINTER_MM / 2 - 3.0
    cx = box.x + box.w / 2
    return Pointers(cx - 30.0, cy - POINTER_MM / 2, cy + POINTER_MM / 2, cy, cx + 22.0, cx + 22.0 + POINTER_MM)


def check_front(box: Box, edge: str, what: str) -> tuple[Item, ...]:
    """The front half of the check in `box`: a caption and the two lines."""
    p = pointers(box)
    caption = (_("**Duplex check.** Print this sheet double-sided, flipping on the **long edge**, and hold it "
                 "against a lamp: each line crosses the scale printed behind it at the number of mm to add to "
                 "--back-offset X,Y (X from the upright line, Y from the level one). Both at 0: the backs line up.")
               if edge == "long" else
               _("**Duplex check.** Print this sheet double-sided, flipping on the **short edge**, and hold it "
                 "against a lamp: each line crosses the scale printed behind it at the number of mm to add to "
                 "--back-offset X,Y (X from the upright line, Y from the level one). Both at 0: the backs line up."))
    return (
        fit_text(caption, box.x, box.y, box.w, box.h - POINTER_MM - 6.0, size=8, min_size=6.5,
                 align="left", valign="top", what=what),
        Line(p.x, p.y0, p.x, p.y1, POINTER),
        Line(p.x0, p.y, p.x1, p.y, POINTER),
        Text(p.x + 1.0, p.y0 + 2.5, "X", LABEL_PT, "bold"),
        Text(p.x0, p.y - 1.0, "Y", LABEL_PT, "bold"),
    )


def mirrored(f: Frame, edge: str, x: float, y: float) -> tuple[float, float]:
    """The point of the back page behind front point (x, y) once the sheet is turned over."""
    return (f.width - x, y) if edge == "long" else (x, f.height - y)


def check_back(f: Frame, box: Box, edge: str, offset: tuple[float, float]) -> tuple[Item, ...]:
    """The scales behind the front's lines, shifted by the current back offset."""
    p = pointers(box)
    bx, by_mid = mirrored(f, edge, p.x, (p.y0 + p.y1) / 2)
    bx_mid, by = mirrored(f, edge, (p.x0 + p.x1) / 2, p.y)
    items: list[Item] = []
    steps = round(REACH_MM / TICK_MM)
    for n in range(-steps, steps + 1):
        t = n * TICK_MM
        whole = n % 2 == 0
        reach = 3.0 if whole else 1.8
        items.append(Line(bx + t, by_mid - reach, bx + t, by_mid + reach, TICK))  # the X scale: upright ticks
        items.append(Line(bx_mid - reach, by + t, bx_mid + reach, by + t, TICK))  # the Y scale: level ticks
        if n % 4 == 0:  # every 2 mm, alternately on either side of the scale
            label = f"{t:+g}" if t else "0"
            outside = n % 8 == 0
            items.append(Text(bx + t, by_mid - 4.0 if outside else by_mid + 6.2, label, LABEL_PT, "bold", anchor="middle"))
            items.append(Text(bx_mid + 3.6 if outside else bx_mid - 3.6, by + t + 0.8, label, LABEL_PT, "bold",
                              anchor="start" if outside else "end"))
    items.append(Text(bx - REACH_MM - 2.0, by_mid + 1.0, "X", LABEL_PT + 2, "bold", anchor="end"))
    items.append(Text(bx_mid, by - REACH_MM - 2.0, "Y", LABEL_PT + 2, "bold", anchor="middle"))
    return (Group(tuple(items), translate(*offset)),)
