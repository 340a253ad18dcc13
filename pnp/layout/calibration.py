"""The duplex checks: two lines on a front and two scales on its back, read against a lamp; and
for a cutting machine, circles it cuts through the sheet with rings printed behind them.

Home printers place the back of a double-sided sheet a millimetre or two off its front, and
every card back then lands off its card by the same amount. The check measures it: the front
carries a vertical and a horizontal line; the back carries, behind each line, a scale whose
tick `t` sits `t` mm from where the line should show through. Held against a lamp, each line
crosses its scale at the correction to add to `--back-offset` (the back of the check is shifted
by the current offset like every other back, so the reading is what is still missing).

The back is the front mirrored about the paper's long axis (flip on the long edge of a portrait
sheet: x → W − x) or its short one (y → H − y), as `impose` mirrors card slots.

The cutter's check (`pnp build --calibrate silhouette`) needs no lamp: the machine cuts circles
placed by the marks on the front, and behind each one the back carries a ring shifted by a known
step; after cutting, the ring that runs evenly round its hole names the back offset to use
(`cutter_check`).
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.display import Circle, Group, Item, Line, Page, Style, Text, translate
from pnp.i18n import _
from pnp.layout.registration import Registration
from pnp.layout.sheet import Box, Frame, Furniture, furniture
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


# --- the cutter's check: circles cut from the front, rings printed on the back ---------------------

CUT_RADIUS_MM = 4.0  # each circle the machine cuts
RING_GAP_MM = 0.6  # between the cut and the ring round it, when the back lands where it should
RING = Style(stroke="#000000", width=0.3)
STEP_MM = 0.5  # between the offsets of neighbouring rings
RINGS = 9  # a row: offsets from −2 to +2 mm round the current one
PITCH_MM = 15.0  # between neighbouring circles


@dataclass(frozen=True)
class CutterCheck:
    """The cutter's duplex check on one sheet: its front (marks, layout code, what to do), its
    back (the rings, each labelled with the back offset it stands for) and the circles to cut."""

    front: Page
    back: Page
    circles: tuple[tuple[str, float, float, float, float], ...]  # cut lines ("circle", x, y, w, h), page mm


def circle_offsets(offset: tuple[float, float]) -> list[tuple[float, float]]:
    """The back offset each circle's ring stands for, the upper row's first (X varies, Y as
    now), then the lower row's (Y varies): the current offset and `STEP_MM` steps either side."""
    half = RINGS // 2
    x, y = offset
    return ([(round(x + (n - half) * STEP_MM, 2), y) for n in range(RINGS)]
            + [(x, round(y + (n - half) * STEP_MM, 2)) for n in range(RINGS)])


def cutter_check(f: Frame, reg: Registration, edge: str, offset: tuple[float, float], info: Furniture,
                 code: str) -> CutterCheck:
    """The sheet: two rows of circles the machine cuts, centred on the page; behind each, on the
    back, a ring shifted by the difference between the offset it stands for and the current one
    (the back as a whole is shifted by the current offset, like every back). Cut, turn the sheet
    over: the circle whose ring runs evenly round it names the `--back-offset` to use."""
    centres = [(f.width / 2 + (n - RINGS // 2) * PITCH_MM, f.height / 2 + dy) for dy in (-22.0, 22.0)
               for n in range(RINGS)]
    offsets = circle_offsets(offset)
    circles = tuple(("circle", x - CUT_RADIUS_MM, y - CUT_RADIUS_MM, 2 * CUT_RADIUS_MM, 2 * CUT_RADIUS_MM)
                    for x, y in centres)
    rings: list[Item] = []
    for row, name in enumerate(("X", "Y")):  # beside each row, on the side its first ring is mirrored to
        x, y = centres[row * RINGS]
        bx, by = mirrored(f, edge, x - PITCH_MM, y)
        rings.append(Text(bx, by + 1.5, name, LABEL_PT + 4, "bold", anchor="middle"))
    for (x, y), (ox, oy) in zip(centres, offsets, strict=True):
        bx, by = mirrored(f, edge, x, y)
        tx, ty = ox - offset[0], oy - offset[1]  # the ring's own shift on top of the back's
        rings.append(Circle(bx + tx, by + ty, CUT_RADIUS_MM + RING_GAP_MM, RING))
        label = f"{ox:g},{oy:g}"
        rings.append(Text(bx + tx, by + ty + CUT_RADIUS_MM + RING_GAP_MM + 3.2, label, LABEL_PT, "bold", anchor="middle"))
    box = f.content.inset(4.0)
    text = _("**Cutter's duplex check.** Print this sheet double-sided, flipping on the **{edge} edge**, exactly as "
             "you print the game's sheets. Cut its file with the machine, the front up. Turn the sheet over: behind "
             "each circle the machine cut, a ring is printed, each shifted a little more than the last. Find the "
             "circle whose ring runs evenly round its hole, in the upper row and in the lower row: the numbers "
             "under those two rings are X and Y of pnp build --back-offset X,Y (the first from the upper row, the "
             "second from the lower). This sheet was printed with --back-offset {x},{y}.")
    caption = fit_text(text.format(edge=_("long") if edge == "long" else _("short"), x=f"{offset[0]:g}",
                                   y=f"{offset[1]:g}"),
                       box.x, box.y + 20.0, box.w, 40.0, size=9, min_size=7, align="left", valign="top",
                       what="the cutter's duplex check")
    where = _("cutter's duplex check")
    front = Page(f.width, f.height, (caption, *reg.items(), reg.code_item(f, code), furniture(f, info, where)),
                 f"{info.title}, {where}")
    back = Page(f.width, f.height, (Group(tuple(rings), translate(*offset)), furniture(f, info, where)),
                f"{info.title}, {where}, back")
    return CutterCheck(front, back, circles)
