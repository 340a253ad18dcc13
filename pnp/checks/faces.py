"""Checks of one drawn face — a card's front, a board, a booklet page — as a player holds it.

- **small-text**: text below the least size of its role (`pnp.display.ROLE_MIN_PT`): body
  text 7 pt, small print (marked `Text.role = "small"`: credits, a copyright line, what the
  spec marks as small print) 6 pt. Fitting may shrink long text that far; a player should not
  have to read it.
- **bleed** and **safe-zone**: text that runs past the cut into the bleed, or outside the safe
  zone of a piece (`print.safe_mm` inside the cut, at most a tenth of its shorter side: a
  token's margin is a millimetre or so). Backgrounds belong in the bleed; words do not.
- **glyph**: a character the font cannot draw (the PDF backend refuses these; the check says
  where, for a build that never renders a PDF).
- **contrast**: text on a fill with less luminance contrast than WCAG AA asks (4.5:1, large
  text 3:1), measured against what is drawn under the text's middle.
- **colour-blind** (`pnp.checks.colour`): areas of two companies' (colours', currencies')
  colours that carry no symbol or code, in colours a colour-blind player cannot tell apart.

A picture of a component inside another (the booklet pictures components in clipped frames,
mostly scaled) is checked where that component is drawn, not again in its picture. Each result
carries the box it is about, in mm on the face (origin at the trim's top-left), so the
gallery can outline it on the picture; `face_findings` places them (`pnp.findings.Finding`).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Hashable, Iterable, Iterator, Sequence, Union

from pnp.colours import contrast_ratio, over_paper, text_contrast_needed
from pnp.components.art import text_box
from pnp.display import (
    IDENTITY,
    ROLE_MIN_PT,
    Circle,
    Drawing,
    Group,
    Image,
    Item,
    Matrix,
    Polygon,
    Rect,
    Text,
    apply,
    compose,
    safe_zone,
)
from pnp.findings import Severity
from pnp.fonts import font, missing_glyphs

EPSILON = 0.01  # mm
PAPER = "#ffffff"
Box = tuple[float, float, float, float]  # x, y, w, h in mm on the face


@dataclass(frozen=True)
class Seen:
    """What a check saw on one face, before it is placed in a kit (`Finding`): about a text
    (located at the spec field that writes it), an asset (at its colour), or the face."""

    check: str
    severity: Severity
    message: str
    fix: str
    box: Box | None = None
    text: str = ""  # the text it is about
    asset: str = ""  # the asset whose colour it is about


def full_size(drawing: Drawing, *, page: bool = False) -> Iterator[tuple[Matrix, Item]]:
    """Every leaf item of a face with its transform, but those of a picture of another
    component inside it (checked where that component is drawn): drawn larger or smaller, or
    on a booklet's `page`, in a clipped frame."""
    for matrix, item, _ in _leaves(drawing.items, IDENTITY, 0, page):
        yield matrix, item


def _leaves(items: Sequence[Item], matrix: Matrix, parent: int, page: bool) -> Iterator[tuple[Matrix, Item, int]]:
    """`full_size`'s items, each with the id of the group that holds it (a fitted block of text)."""
    for item in items:
        if isinstance(item, Group):
            inner = compose(matrix, item.transform)
            if abs(scale_of(inner) - 1) < 1e-3 and not (page and item.clip is not None):
                yield from _leaves(item.items, inner, id(item), page)
        else:
            yield matrix, item, parent


def scale_of(matrix: Matrix) -> float:
    a, b, c, d, _, _ = matrix
    return math.sqrt(abs(a * d - b * c))


def text_checks(drawing: Drawing, safe_mm: float, *, piece: bool, page: bool = False) -> list[Seen]:
    """Type size by role, bleed, safe zone and glyphs of every text of one face: a block of
    lines once (the lines of one fitted text), each text once however often the face sets it
    ("(7 times)"); a piece is also held to its safe zone."""
    blocks: dict[tuple[str, int, float], list[tuple[Seen, str]]] = {}
    w, h = drawing.width, drawing.height
    safe = safe_zone(safe_mm, w, h) if piece else 0.0
    for matrix, text, parent in _leaves(drawing.items, IDENTITY, 0, page):
        if not isinstance(text, Text) or not text.text.strip():
            continue
        missing = missing_glyphs(text.text, text.font)
        box = text_box_of(matrix, text)
        for seen in _about_text(text, box, missing, w, h, safe, piece):
            blocks.setdefault((seen.check, parent or id(text), text.size), []).append((seen, text.text))
    found = []
    for (check, _, size), lines in blocks.items():
        seen = _block_seen(lines)
        found.append(((check, seen.text, size), seen))
    return _once(found)


def _block_seen(lines: list[tuple[Seen, str]]) -> Seen:
    """What a check saw on each line of one block, said once of the block: its words quoted
    whole, its box round every line."""
    first = lines[0][0]
    if len(lines) == 1:
        return first
    words = " ".join(text for _, text in lines)
    return replace(first, message=first.message.replace(quote(first.text), quote(words), 1), text=words,
                   box=union([seen.box for seen, _ in lines if seen.box is not None]))


def _small_text(text: Text, box: Box, quoted: str) -> Seen | None:
    """A text set below its role's least size (body text, small print), or None."""
    least = ROLE_MIN_PT.get(text.role, ROLE_MIN_PT["body"])
    if text.size >= least - 1e-9:
        return None
    role = "small print" if text.role == "small" else "body text"
    return Seen("small-text", "warning", f"{quoted} is set at {text.size:g} pt, below the {least:g} pt of {role}",
                f"give it room for {least:g} pt: fewer words, or a larger piece, box or cell"
                + (f" (a credit or copyright line may be marked small print: {ROLE_MIN_PT['small']:g} pt)"
                   if text.role == "body" else ""),
                box, text.text)


def _about_text(text: Text, box: Box, missing: Sequence[str], w: float, h: float, safe: float, piece: bool) -> Iterator[Seen]:
    quoted = quote(text.text)
    small = _small_text(text, box, quoted)
    if small is not None:
        yield small
    x, y, bw, bh = box
    if x < -EPSILON or y < -EPSILON or x + bw > w + EPSILON or y + bh > h + EPSILON:
        yield Seen("bleed", "warning", f"{quoted} runs past the cut into the bleed",
                   "move it inside the cut: what lies beyond it is cut off", box, text.text)
    elif piece and min(x - safe, y - safe, w - safe - x - bw, h - safe - y - bh) < -EPSILON:
        yield Seen("safe-zone", "warning", f"{quoted} lies outside the {safe:g} mm safe zone",
                   f"keep words {safe:g} mm inside the cut (a cut that strays takes them): a smaller text, or a "
                   "larger piece", box, text.text)
    if missing:
        chars = ", ".join(f"U+{ord(c):04X}" for c in missing)
        face = font(text.font)
        yield Seen("glyph", "error", f"{quoted} needs {chars}, which the font {face.family} ({face.label}) cannot draw",
                   "use another character, or a font that has it", box, text.text)


def _once(found: Iterable[tuple[Hashable, Seen]]) -> list[Seen]:
    """Each finding once by its key, the first with how many times the face has it."""
    first: dict[Hashable, Seen] = {}
    times: Counter[Hashable] = Counter()
    for key, seen in found:
        first.setdefault(key, seen)
        times[key] += 1
    return [replace(seen, message=f"{seen.message} ({times[key]} times on this face)") if times[key] > 1 else seen
            for key, seen in first.items()]


def contrast_checks(drawing: Drawing, *, page: bool = False) -> list[Seen]:
    """Each text with less contrast against what lies under its middle than WCAG AA asks for
    its size (4.5:1; large text 3:1), each ink on each ground once a face."""
    found: list[tuple[Hashable, Seen]] = []
    under: list[tuple[Matrix, Shape]] = []  # what was drawn before, the last on top
    for matrix, item in full_size(drawing, page=page):
        if isinstance(item, Text) and item.text.strip() and item.role != "decoration":
            box = text_box_of(matrix, item)
            ground = _ground(under, (box[0] + box[2] / 2, box[1] + box[3] / 2))
            if ground is not None:
                ratio, need = contrast_ratio(item.color, ground), text_contrast_needed(item.size, item.font == "bold")
                if ratio < need - 1e-9:
                    found.append(((item.color, ground, item.size), Seen(
                        "contrast", "warning", f"{quote(item.text)} in {item.color} on {ground} has a contrast of "
                        f"{ratio:.2f}:1, below the {need:g}:1 text of {item.size:g} pt needs to be read (WCAG AA)",
                        "set it in black or white, whichever contrasts more with the ground, or change the ground",
                        box, item.text)))
        elif isinstance(item, (Rect, Circle, Polygon, Image)):
            under.append((matrix, item))
    return _once(found)


Shape = Union[Rect, Circle, Polygon, Image]


def _ground(under: Sequence[tuple[Matrix, Shape]], point: tuple[float, float]) -> str | None:
    """The colour under `point`: the last filled shape drawn there, white paper when none;
    None under an image (what it shows there is not known)."""
    for matrix, item in reversed(under):
        if isinstance(item, Image):
            if inside(matrix, item, point):
                return None
            continue
        fill = item.style.fill
        if fill and inside(matrix, item, point):
            return over_paper(fill.lower(), item.style.opacity)
    return PAPER


def inside(matrix: Matrix, item: Any, point: tuple[float, float]) -> bool:
    """Whether `point` (face mm) lies inside a shape placed by `matrix`."""
    if isinstance(item, Circle):
        cx, cy = apply(matrix, (item.cx, item.cy))
        return math.hypot(point[0] - cx, point[1] - cy) <= item.r * scale_of(matrix)
    return _in_polygon(outline(matrix, item), point)


def outline(matrix: Matrix, item: Any) -> list[tuple[float, float]]:
    """A rectangle's, an image's or a polygon's corners on the face."""
    if isinstance(item, Polygon):
        return [apply(matrix, p) for p in item.points]
    x, y, w, h = item.x, item.y, item.w, item.h
    return [apply(matrix, p) for p in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]


def bounds(matrix: Matrix, item: Any) -> Box:
    """A shape's box on the face (x, y, w, h)."""
    if isinstance(item, Circle):
        cx, cy = apply(matrix, (item.cx, item.cy))
        r = item.r * scale_of(matrix)
        return (cx - r, cy - r, 2 * r, 2 * r)
    points = outline(matrix, item)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _upright_rectangle(points: Sequence[tuple[float, float]]) -> bool:
    """Four corners joined by upright and level edges."""
    return len(points) == 4 and all(abs(a[0] - b[0]) < 1e-9 or abs(a[1] - b[1]) < 1e-9
                                    for a, b in zip(points, (*points[1:], points[0]), strict=True))


def _in_polygon(points: Sequence[tuple[float, float]], point: tuple[float, float]) -> bool:
    """Even-odd rule; a point on an edge counts as inside."""
    x, y = point
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    if not (min(xs) - EPSILON <= x <= max(xs) + EPSILON and min(ys) - EPSILON <= y <= max(ys) + EPSILON):
        return False
    if _upright_rectangle(points):
        return True  # its box is it
    hit = False
    for (x1, y1), (x2, y2) in zip(points, (*points[1:], points[0]), strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def text_box_of(matrix: Matrix, text: Text) -> Box:
    """Where a text lies on the face (a character the font lacks measured as a "?")."""
    missing = missing_glyphs(text.text, text.font)
    if missing:
        text = replace(text, text=text.text.translate({ord(c): "?" for c in missing}))
    x0, y0, x1, y1 = text_box(matrix, text)
    return (round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2))


def union(boxes: Sequence[Box]) -> Box:
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
    return (round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2))


def quote(text: str) -> str:
    """A text as a finding quotes it: in quotes, at most 40 characters."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= 40 else flat[:39] + "…")
