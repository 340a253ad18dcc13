"""Raster art checked at the size it prints: a PNG or JPEG below 300 dpi on paper looks soft.

Only the generators know how large an image prints (a logo on a card's band, an illustration
in its centre, a back to the bleed), so the check reads their display lists, transforms and
all, and reports each file once, at the place the spec names it, as a warning: the build goes
on. SVG art is vector, sharp at any size.
"""

from __future__ import annotations

import math
from typing import Iterable, Iterator

from pnp.components import Output, Panels, Pieces
from pnp.components.art import walk
from pnp.display import Drawing, Image
from pnp.findings import Finding
from pnp.spec.loader import named_images
from pnp.spec.model import Spec

MIN_DPI = 300


def resolution_findings(spec: Spec, game_id: str, outputs: Iterable[Output]) -> list[Finding]:
    """PNG and JPEG art printed below `MIN_DPI` at its size on paper, one finding per file at
    the place the spec names it (SVG art is vector: any size is sharp)."""
    lowest: dict[str, tuple[float, float, float, Image]] = {}  # file → (dpi, w mm, h mm, item)
    for drawing in _drawings(outputs):
        for matrix, image in walk(drawing.items):
            if not isinstance(image, Image) or not image.pixels[0]:
                continue
            scale = math.hypot(matrix[0], matrix[1])  # turns keep sizes
            w, h = image.w * scale, image.h * scale
            dpi = min(image.pixels[0] / (w / 25.4), image.pixels[1] / (h / 25.4))
            if dpi < MIN_DPI and dpi < lowest.get(image.name, (math.inf,))[0]:
                lowest[image.name] = (dpi, w, h, image)
    named = named_images(spec.games[game_id], ("games", game_id))
    found = []
    for file, (dpi, w, h, image) in lowest.items():
        need = (math.ceil(w / 25.4 * MIN_DPI), math.ceil(h / 25.4 * MIN_DPI))
        where = spec.issue(named.get(file, ("games", game_id)), "")
        found.append(Finding("art", "warning", f"{file} prints at {dpi:.0f} dpi ({image.pixels[0]} × {image.pixels[1]} "
                                               f"px scaled to {w:.1f} × {h:.1f} mm), below {MIN_DPI} dpi: it looks soft",
                             f"give it at least {need[0]} × {need[1]} px (or use SVG art)", where.file, where.line,
                             where.col, where.path, game=game_id))
    return found


def _drawings(outputs: Iterable[Output]) -> Iterator[Drawing]:
    seen: set[int] = set()
    for output in outputs:
        if isinstance(output, Pieces):
            drawings = [face for piece in output.pieces for face in (piece.front, piece.back) if face is not None]
        else:
            drawings = list(output.drawings if isinstance(output, Panels) else output.pages)
        for drawing in drawings:
            if id(drawing) not in seen:
                seen.add(id(drawing))
                yield drawing
