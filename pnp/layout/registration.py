"""Registration marks for print-and-cut machines, and the zones they keep free of pieces.

A hobby cutter (Silhouette Cameo or Portrait, Cricut) cuts a printed sheet where its cut file
says, after finding the sheet's position from marks printed on it: an optical sensor looks for
them, and anything printed near a mark can be mistaken for it. So a sheet for the machine
carries the marks, and no piece, crop mark or header comes into a mark's *keep-out zone*: the
mark's box grown by `CLEARANCE_MM`.

- `silhouette` — Silhouette Studio's registration marks, style "Type 1": a filled square at the
  top-left corner and an L at the top-right and the bottom-left corners, `INSET_MM` from the
  paper's edges (Studio's smallest inset), the square `SQUARE_MM` wide, the L's arms `ARM_MM`
  long and `THICKNESS_MM` thick. Set the same in Studio's Registration Marks panel.
- `dxf` — the same marks, for any cutter software that reads DXF (Silhouette Studio Basic
  imports DXF; its marks are the ones above).
- `cricut` — Cricut Design Space prints its own marks round the image it prints, and Print Then
  Cut takes at most `CRICUT_AREA_MM` (6.75 × 9.25 in): the pieces stay inside that area,
  centred on the sheet (the sheet's header and footer are outside it, and not printed by it).

`docs/cutting.md` gives the geometry with a drawing; `pnp.export.cut` writes the cut files.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.display import Item, Rect, Style
from pnp.layout.sheet import Box

MACHINES = ("silhouette", "cricut", "dxf")
INSET_MM = 10.0  # from each paper edge to the marks' outer edges (Silhouette Studio's minimum)
SQUARE_MM = 5.0  # the top-left square
ARM_MM = 10.0  # each arm of an L, measured along its outer edge
THICKNESS_MM = 0.5  # an L's arms
CLEARANCE_MM = 5.0  # around a mark's box: nothing else is printed there
CRICUT_AREA_MM = (171.45, 234.95)  # Design Space's largest Print Then Cut image, portrait (6.75 × 9.25 in)
MARK_STYLE = Style(fill="#000000")


@dataclass(frozen=True)
class Registration:
    """A machine's marks on one sheet (page mm, y down) and where nothing else may go."""

    machine: str
    width: float
    height: float
    marks: tuple[Box, ...]  # filled rectangles: the square, then each L as its two arms
    keep_out: tuple[Box, ...]  # each mark's box grown by the clearance
    area: Box  # where pieces may go at all (the whole sheet but for Cricut's print area)

    def items(self) -> tuple[Item, ...]:
        """The marks as drawn on the sheet."""
        return tuple(Rect(m.x, m.y, m.w, m.h, MARK_STYLE) for m in self.marks)

    def clear(self, box: Box) -> bool:
        """Whether `box` stays inside the area and out of every keep-out zone."""
        return self.area.contains(box) and not any(zone.overlaps(box) for zone in self.keep_out)


def registration(machine: str, width: float, height: float) -> Registration:
    """The marks of `machine` on a `width` × `height` mm sheet, as it lies in the printer."""
    if machine == "cricut":
        w, h = CRICUT_AREA_MM if width <= height else CRICUT_AREA_MM[::-1]
        return Registration(machine, width, height, (), (), Box((width - w) / 2, (height - h) / 2, w, h))
    if machine not in MACHINES:
        raise ValueError(f"unknown cutting machine {machine!r} (known: {', '.join(MACHINES)})")
    square = Box(INSET_MM, INSET_MM, SQUARE_MM, SQUARE_MM)
    right, bottom = width - INSET_MM, height - INSET_MM
    top_right = (Box(right - ARM_MM, INSET_MM, ARM_MM, THICKNESS_MM), Box(right - THICKNESS_MM, INSET_MM, THICKNESS_MM, ARM_MM))
    bottom_left = (Box(INSET_MM, bottom - ARM_MM, THICKNESS_MM, ARM_MM), Box(INSET_MM, bottom - THICKNESS_MM, ARM_MM, THICKNESS_MM))
    zones = (square, Box(right - ARM_MM, INSET_MM, ARM_MM, ARM_MM), Box(INSET_MM, bottom - ARM_MM, ARM_MM, ARM_MM))
    keep_out = tuple(z.inset(-CLEARANCE_MM) for z in zones)
    return Registration(machine, width, height, (square, *top_right, *bottom_left), keep_out, Box(0, 0, width, height))


def mark_corners(reg: Registration) -> dict[str, tuple[float, float]]:
    """The reference point of each mark — the square's top-left corner, each L's outer corner —
    by which a cut file and a printed sheet are compared (they must agree to the 0.05 mm)."""
    if not reg.marks:
        return {"area": (reg.area.x, reg.area.y)}
    return {"square": (INSET_MM, INSET_MM), "top_right": (reg.width - INSET_MM, INSET_MM),
            "bottom_left": (INSET_MM, reg.height - INSET_MM)}
