"""Player aids: one page of headings, short lines with the numbers that matter in bold, and
tables computed by the rules module (a penalty table), so the aid never drifts from the referee.

Everything must fit one page, so the aid is set at the largest body size (from 11 pt down to
6.5 pt) at which all of it fits the page's printable area; headings and tables scale with it.
"""

from __future__ import annotations

from dataclasses import replace

from pnp.components import Context, Panels
from pnp.components.tables import Block, heading, moved, paragraph, page_area, table, title_bar
from pnp.display import Drawing
from pnp.errors import BuildError
from pnp.spec.faces import filled
from pnp.spec.model import Aid

SIZES = tuple(s / 2 for s in range(22, 12, -1))  # 11, 10.5, … 6.5 pt


def aid(context: Context, aid: Aid) -> Panels:
    """One page per copy, at the largest body size that fits in every language of the game, set
    from the top of the page, `print.safe_mm` inside the cut like a card's text; each heading,
    table and line takes the room its longest language needs, so every kit's page is laid out alike."""
    what = f"{context.game_id}/{aid.id}"
    width, height = page_area(context.settings)
    safe = context.settings.safe_mm
    for size in SIZES:
        def blocks(c: Context) -> list[tuple[Block, float]]:
            return _blocks(c, filled(c.game, c.component(aid)), width - 2 * safe, size, what)  # templates over the game

        everywhere = context.everywhere(blocks)
        tallest = [max(block.height for block, _ in parts) for parts in zip(*everywhere)]
        own = [replace(block, height=tall) for (block, _), tall in zip(blocks(context), tallest)]
        body = _stacked(own, [gap for _, gap in everywhere[0]])
        if body.height <= height - 2 * safe:
            return Panels((Drawing(width, height, (moved(body, safe, safe),)),) * aid.copies)
    raise BuildError(f"{what}: the aid does not fit one {width:g} × {height:g} mm page even at {SIZES[-1]:g} pt")


def _blocks(context: Context, aid: Aid, width: float, size: float, what: str) -> list[tuple[Block, float]]:
    """The aid's blocks top to bottom, each with the gap above it."""
    found = [(title_bar(aid.name, aid.name_en, context.game.title, width, size=size * 1.6, what=what), 0.0)]
    icons = context.icons()
    for n, section in enumerate(aid.sections, 1):
        where = f"{what} section {n}"
        gap = size * 0.55
        if section.heading:
            found.append((heading(section.heading, section.heading_en, width, size=size * 1.25, what=where), gap))
            gap = size * 0.2
        if section.table:
            found.append((table(context.table(section.table), size=size * 1.15, what=where, assets=context.game.assets,
                                min_width=width, shaded=not context.settings.ink_saver,
                                also=context.everywhere(lambda other: other.table(section.table))), gap))
            gap = size * 0.2
        for line in section.lines:
            found.append((paragraph(line, width, size=size, what=where, icons=icons), gap))
            gap = size * 0.2
    return found


def _stacked(blocks: list[Block], gaps: list[float]) -> Block:
    items = []
    y = width = 0.0
    for block, gap in zip(blocks, gaps):
        y += gap
        items.append(moved(block, 0, y))
        y += block.height
        width = max(width, block.width)
    return Block(tuple(items), width, y)
