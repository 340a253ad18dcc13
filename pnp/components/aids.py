"""Player aids: one page of headings, short lines with the numbers that matter in bold, and
tables computed by the rules module (a penalty table), so the aid never drifts from the referee.

Everything must fit one page, so the aid is set at the largest body size (from 11 pt down to
6.5 pt) at which all of it fits the page's printable area; headings and tables scale with it.
The drawing is as tall as what it holds, not the page: an aid that takes half a page prints two
to a sheet (six For-Ex aids on three sheets), as layout packs panels of one size.
"""

from __future__ import annotations

import math
from dataclasses import replace

from pnp.components import Context, Panels
from pnp.components.tables import Block, cards_table, heading, moved, page_area, paragraph, table, title_bar
from pnp.display import Drawing
from pnp.errors import BuildError
from pnp.layout.tile import PACK_GAP_MM
from pnp.spec.faces import filled
from pnp.spec.model import Aid

SIZES = tuple(s / 2 for s in range(22, 12, -1))  # 11, 10.5, … 6.5 pt
SHARED_MIN_PT = 8.0  # an aid printed several times goes two to a sheet if it fits at this size or larger


def aid(context: Context, aid: Aid) -> Panels:
    """One panel per copy, the page's width and as tall as its text at the largest body size
    that fits a page in every language of the game, set `print.safe_mm` inside the cut like a
    card's text; each heading, table and line takes the room its longest language needs, so
    every kit's panel is laid out alike."""
    what = f"{context.game_id}/{aid.id}"
    width, height = page_area(context.settings)
    safe = context.settings.safe_mm
    half = (height - PACK_GAP_MM) / 2

    def largest(sizes: tuple[float, ...], room: float) -> Block | None:
        """The aid's body at the largest of `sizes` at which it fits `room` mm of height."""
        bodies = (_body(context, aid, width - 2 * safe, size, what) for size in sizes)
        return next((body for body in bodies if body.height + 2 * safe <= room), None)

    body = largest(SIZES, height)
    if body is not None:
        if aid.copies > 1:  # two to a sheet, when that keeps the text large enough
            body = largest(tuple(s for s in SIZES if s >= SHARED_MIN_PT), half) or body
        drawing = Drawing(width, min(height, math.ceil(body.height + 2 * safe)), (moved(body, safe, safe),))
        return Panels((drawing,) * aid.copies)
    raise BuildError(f"{what}: the aid does not fit one {width:g} × {height:g} mm page even at {SIZES[-1]:g} pt")


def _body(context: Context, aid: Aid, width: float, size: float, what: str) -> Block:
    """The aid's blocks stacked, each as tall as its tallest language makes it (the other
    languages' heights measured once: `Context.measured`)."""
    def blocks(c: Context) -> list[tuple[Block, float]]:  # templates over the game, once a language and size
        return c.once(("aid body", aid.id, width, size),
                      lambda: _blocks(c, filled(c.game, c.component(aid)), width, size, what))

    def heights(c: Context) -> list[float]:
        return c.measured(("aid heights", aid.id, width, size), aid, lambda: [block.height for block, _ in blocks(c)])

    here = blocks(context)
    tallest = [max(parts) for parts in zip(*context.everywhere(heights), strict=True)]
    own = [replace(block, height=tall) for (block, _), tall in zip(here, tallest, strict=True)]
    return _stacked(own, [gap for _, gap in here])


def _blocks(context: Context, aid: Aid, width: float, size: float, what: str) -> list[tuple[Block, float]]:
    """The aid's blocks top to bottom, each with the gap above it."""
    found = [(title_bar(aid.name, aid.name_en, context.game.title, width, size=size * 1.6, what=what), 0.0)]
    icons = context.icons()
    shaded = not context.settings.ink_saver
    for n, section in enumerate(aid.sections, 1):
        where = f"{what} section {n}"
        gap = size * 0.55
        if section.heading:
            found.append((heading(section.heading, section.heading_en, width, size=size * 1.25, what=where), gap))
            gap = size * 0.2
        if section.table:
            found.append((table(context.table(section.table), size=size * 1.15, what=where, assets=context.game.assets,
                                min_width=width, shaded=shaded,
                                also=context.everywhere(lambda other: other.table(section.table or ""))), gap))  # noqa: B023  # called at once
            gap = size * 0.2
        for line in section.lines:
            found.append((paragraph(line, width, size=size, what=where, icons=icons), gap))
            gap = size * 0.2
        if section.cards:
            at = ("sections", n - 1, "cards")
            found.append((table(cards_table(context.game, section.cards, where, at), size=size * 1.15, what=where,
                                assets=context.game.assets, min_width=width, shaded=shaded,
                                also=context.everywhere(lambda other: cards_table(
                                    other.game, other.component(aid).sections[n - 1].cards, where, at))), gap))  # type: ignore[arg-type]  # noqa: B023  # called at once; every kit has the section's cards
            gap = size * 0.2
    return found


def _stacked(blocks: list[Block], gaps: list[float]) -> Block:
    items = []
    y = width = 0.0
    for block, gap in zip(blocks, gaps, strict=True):
        y += gap
        items.append(moved(block, 0, y))
        y += block.height
        width = max(width, block.width)
    return Block(tuple(items), width, y)
