"""Player aids: one page of headings, short lines with the numbers that matter in bold, and
tables computed by the rules module (a penalty table), so the aid never drifts from the referee.

Everything must fit one page, so the aid is set at the largest body size (from 11 pt down to
6.5 pt) at which all of it fits the page's printable area; headings and tables scale with it.
"""

from __future__ import annotations

from pnp.components import Context, Panels
from pnp.components.tables import Block, column, heading, moved, paragraph, page_area, table, title_bar
from pnp.display import Drawing
from pnp.errors import BuildError
from pnp.spec.faces import filled
from pnp.spec.model import Aid

SIZES = tuple(s / 2 for s in range(22, 12, -1))  # 11, 10.5, … 6.5 pt


def aid(context: Context, aid: Aid) -> Panels:
    """One page per copy, at the largest body size that fits, set from the top of the page,
    `print.safe_mm` inside the cut like a card's text."""
    what = f"{context.game_id}/{aid.id}"
    aid = filled(context.game, aid)  # headings and lines are templates over the game
    width, height = page_area(context.settings)
    safe = context.settings.safe_mm
    for size in SIZES:
        body = _body(context, aid, width - 2 * safe, size, what)
        if body.height <= height - 2 * safe:
            return Panels((Drawing(width, height, (moved(body, safe, safe),)),) * aid.copies)
    raise BuildError(f"{what}: the aid does not fit one {width:g} × {height:g} mm page even at {SIZES[-1]:g} pt")


def _body(context: Context, aid: Aid, width: float, size: float, what: str) -> Block:
    title = title_bar(aid.name, aid.name_en, context.game.title, width, size=size * 1.6, what=what)
    sections = [_section(context, section, width, size, f"{what} section {n}") for n, section in enumerate(aid.sections, 1)]
    return column([title, *sections], gap=size * 0.55)


def _section(context: Context, section, width: float, size: float, what: str) -> Block:
    blocks = [heading(section.heading, section.heading_en, width, size=size * 1.25, what=what)] if section.heading else []
    if section.table:
        blocks.append(table(context.table(section.table), size=size * 1.15, what=what, assets=context.game.assets,
                            min_width=width, shaded=not context.settings.ink_saver))
    icons = context.icons()
    blocks += [paragraph(line, width, size=size, what=what, icons=icons) for line in section.lines]
    return column(blocks, gap=size * 0.2)
