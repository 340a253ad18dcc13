"""Registration marks for print-and-cut machines, the zones they keep free of pieces, and the
code that ties a cut file to the sheet it cuts.

A hobby cutter (Silhouette Cameo or Portrait, Cricut) cuts a printed sheet where its cut file
says, after finding the sheet's position from marks printed on it: an optical sensor looks for
them, and anything printed near a mark can be mistaken for it. So a sheet for the machine
carries the marks, and no piece, crop mark or header comes into a mark's *keep-out zone*: the
mark's box grown by its clearance (`Registration.keep_out`, one box per mark: the one list
every check of a sheet reads).

The patterns (`docs/cutting.md` draws them and gives their sources):

- `silhouette` — Silhouette Studio's "Type 1": a filled square at the top-left corner and an L
  at the top-right and the bottom-left corners.
- `silhouette4` — the four-mark pattern the Cameo 5 Alpha reads: an L at every corner, no square.
- `dxf` — the Type 1 marks, for any cutter software that reads DXF (Silhouette Studio Basic).
- `cricut` — Cricut Design Space prints its own marks round the image it prints, and Print Then
  Cut takes at most `CRICUT_AREA_MM` (6.75 × 9.25 in): the pieces stay inside that area,
  centred on the sheet.

Every mark is drawn as Studio prints it, measured on its own output (a Letter page Studio
printed at 600 dpi): a line `THICKNESS_MM` thick centred on the *nominal* outline — the
square's edges, each L's two arms meeting at its corner point — whose corner point lies
`inset` from both paper edges. So the square is `SQUARE_MM` plus a thickness wide, and each
mark's outer edge lies half a thickness outside the inset line. `inset` is 10 mm (Studio's
smallest), or down to `LEAST_INSET_MM` for a printer that prints borderless: Studio then works on
a page larger by twice the difference (`virtual_size`), so its 10 mm lands where the marks are.

`layout_code` is a short digest of a sheet's marks and of every trim it cuts. The sheet prints
it beside the top-left mark and its cut file carries it, so `pnp cut check` can refuse a cut file
made for other marks or another layout; a sheet printed again keeps its code until one of those
moves.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, replace
from typing import Sequence

from pnp.display import Group, Item, Rect, Style, Text
from pnp.layout.sheet import BAND_MM, QUIET, TEXT_PT, Box, Frame
from pnp.spec.model import INSET_RANGE_MM

MACHINES = ("silhouette", "silhouette4", "cricut", "dxf")
PATTERNS = {"silhouette": "type1", "dxf": "type1", "silhouette4": "four"}  # the machines that print marks
LEAST_INSET_MM, INSET_MM = INSET_RANGE_MM  # from each paper edge to the marks' corner points: 10 mm (Silhouette
# Studio's smallest), or as little as 3 mm for a printer that prints to the paper's edge (borderless)
SQUARE_MM = 5.0  # the top-left square's nominal side
ARM_MM = 10.0  # each arm of an L, from its corner point
THICKNESS_MM = 0.5  # every mark's line, centred on its nominal outline
CLEARANCE_MM = 5.0  # around a mark's box: nothing else is printed there
# marks inset less than 10 mm (borderless): shorter arms and less room round them, so the corners
# a sheet loses shrink — the point of printing to the edge (silhouette-card-maker keeps 1.5 mm)
BORDERLESS_ARM_MM, BORDERLESS_CLEARANCE_MM = 5.0, 3.0
CRICUT_AREA_MM = (171.45, 234.95)  # Design Space's largest Print Then Cut image, portrait (6.75 × 9.25 in)
MARK_STYLE = Style(fill="#000000")
CODE_LETTERS = 8  # of the layout code, shown as two groups of four
CODE_WIDTH_MM = 23.0  # room the code takes beside the top-left mark, in the header band (the widest code, WWWW-WWWW, is 21.2 mm)
CODE_PATTERN = re.compile(r"[A-Z2-7]{4}-[A-Z2-7]{4}")  # a layout code as printed and as cut files carry it


@dataclass(frozen=True)
class Cutter:
    """The machine a sheet is made for, and how far in from the paper's edges its marks lie."""

    machine: str
    inset: float = INSET_MM

    def __post_init__(self) -> None:
        if self.machine not in MACHINES:
            raise ValueError(f"unknown cutting machine {self.machine!r} (known: {', '.join(MACHINES)})")


@dataclass(frozen=True)
class Registration:
    """A machine's marks on one sheet (page mm, y down) and where nothing else may go."""

    machine: str
    width: float
    height: float
    marks: tuple[Box, ...]  # filled rectangles: the square (Type 1), then each L as its two arms
    keep_out: tuple[Box, ...]  # each mark's box grown by the clearance, in the order of `corners`
    area: Box  # where pieces may go at all (the whole sheet but for Cricut's print area)
    corners: tuple[tuple[str, float, float], ...] = ()  # each mark's name and nominal corner point
    inset: float = INSET_MM
    arm: float = ARM_MM
    clearance: float = CLEARANCE_MM

    def items(self) -> tuple[Item, ...]:
        """The marks as drawn on the sheet."""
        return tuple(Rect(m.x, m.y, m.w, m.h, MARK_STYLE) for m in self.marks)

    def clear(self, box: Box) -> bool:
        """Whether `box` stays inside the area and out of every keep-out zone."""
        return self.area.contains(box) and not any(zone.overlaps(box) for zone in self.keep_out)

    @property
    def shift(self) -> float:
        """How far Studio's page lies beyond the paper on every side (`virtual_size`)."""
        return INSET_MM - self.inset if self.marks else 0.0

    @property
    def virtual_size(self) -> tuple[float, float]:
        """The page size to set in Studio: the paper, grown so that Studio's 10 mm inset lands on
        these marks (the paper itself with the usual inset)."""
        return self.width + 2 * self.shift, self.height + 2 * self.shift

    def kept_clear(self, frame: Frame) -> Frame:
        """The frame with the marks' keep-out zones and the box of their layout code, which its
        furniture runs between."""
        code = self.code_box(frame)
        return replace(frame, keep_out=(*self.keep_out, *((code,) if code else ())))

    def code_box(self, frame: Frame) -> Box | None:
        """Where the layout code goes: in the header band, just past the first mark's keep-out
        (along a side strip when the bands are at the sides); None for marks-free sheets."""
        if not self.marks:
            return None
        zone, header = self.keep_out[0], frame.header
        if frame.sideways:
            return Box(header.x, zone.bottom, BAND_MM, CODE_WIDTH_MM)
        return Box(zone.right, header.y, CODE_WIDTH_MM, BAND_MM)

    def code_item(self, frame: Frame, code: str) -> Group:
        """The code as printed in its box, read like the band it sits in."""
        box = self.code_box(frame)
        assert box is not None
        if frame.sideways:  # along the strip, read from bottom to top like its text
            return Group((Text(0.5, BAND_MM - 1.0, code, TEXT_PT, "bold", QUIET),), (0.0, -1.0, 1.0, 0.0, box.x, box.bottom))
        return Group((Text(box.x + 0.5, box.bottom - 1.0, code, TEXT_PT, "bold", QUIET),))


def _cricut(width: float, height: float) -> Registration:
    """Cricut's registration: no marks of ours (Design Space prints its own), the pieces kept
    inside its print area, centred on the sheet and turned as the sheet is."""
    w, h = CRICUT_AREA_MM if width <= height else CRICUT_AREA_MM[::-1]
    return Registration("cricut", width, height, (), (), Box((width - w) / 2, (height - h) / 2, w, h))


def registration(cutter: Cutter | str, width: float, height: float) -> Registration:
    """The marks of `cutter` on a `width` × `height` mm sheet, as it lies in the printer."""
    if isinstance(cutter, str):
        cutter = Cutter(cutter)
    if cutter.machine == "cricut":
        return _cricut(width, height)
    inset = cutter.inset
    arm, clearance = (ARM_MM, CLEARANCE_MM) if inset >= INSET_MM else (BORDERLESS_ARM_MM, BORDERLESS_CLEARANCE_MM)
    half = THICKNESS_MM / 2
    corners = {"top_left": (inset, inset, 1, 1), "top_right": (width - inset, inset, -1, 1),
               "bottom_left": (inset, height - inset, 1, -1), "bottom_right": (width - inset, height - inset, -1, -1)}
    named = ("top_left", "top_right", "bottom_left") if PATTERNS[cutter.machine] == "type1" else tuple(corners)
    marks: list[Box] = []
    boxes: list[Box] = []
    for name in named:
        cx, cy, sx, sy = corners[name]
        if name == "top_left" and PATTERNS[cutter.machine] == "type1":  # the square, its edge line centred on it
            square = Box(cx - half, cy - half, SQUARE_MM + THICKNESS_MM, SQUARE_MM + THICKNESS_MM)
            marks.append(square)
            boxes.append(square)
            continue
        across = _span(cx, sx, arm, half)  # from half a line beyond the corner point to the arm's end
        down = _span(cy, sy, arm, half)
        marks += [Box(across[0], cy - half, across[1] - across[0], THICKNESS_MM),
                  Box(cx - half, down[0], THICKNESS_MM, down[1] - down[0])]
        boxes.append(Box(across[0], down[0], across[1] - across[0], down[1] - down[0]))
    keep_out = tuple(b.inset(-clearance) for b in boxes)
    points = tuple((name, corners[name][0], corners[name][1]) for name in named)
    return Registration(cutter.machine, width, height, tuple(marks), keep_out, Box(0, 0, width, height), points,
                        inset, arm, clearance)


def _span(corner: float, inward: int, arm: float, half: float) -> tuple[float, float]:
    """An arm's extent along its axis: half a line outside the corner point, `arm` inside it."""
    ends = (corner - inward * half, corner + inward * arm)
    return min(ends), max(ends)


def layout_code(reg: Registration, trims: Sequence[tuple[str, float, float, float, float]]) -> str:
    """A short code of the marks' geometry and of every trim on the sheet ("K7Q2-F9M3"): the
    same sheet printed again has the same code; moved marks, another paper or another layout of
    pieces give another."""
    geometry = {"pattern": PATTERNS.get(reg.machine, reg.machine), "sheet": [round(reg.width, 3), round(reg.height, 3)],
                "marks": [[round(v, 3) for v in (m.x, m.y, m.w, m.h)] for m in reg.marks],
                "trims": sorted([shape, *(round(v, 3) for v in box)] for shape, *box in trims)}
    digest = hashlib.sha256(json.dumps(geometry, sort_keys=True).encode()).digest()
    letters = base64.b32encode(digest).decode()[:CODE_LETTERS]
    return f"{letters[:4]}-{letters[4:]}"
