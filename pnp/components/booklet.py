"""The rules booklet: the game's rules, every number read from the spec, over A5 pages.

A booklet is sections of templated lines, as an aid is, but as long as the rules need: the
lines are flowed from page to page, a heading never left alone at the foot of a page. Templates
see what aid lines see (`{tracks[quote].last}`, `{vars[...]}`) and, for a game with a rules
engine, every house rule with the value in effect (`{rules[start_cash]}`, defaults included)
and the engine's parameters (`{params.rounds}`), so a rule change in components.yaml reprints a
correct booklet. Tables come from the rules module (`table: deal`), and a section with
`house_rules: true` lists every house rule with its value, its default and its rule ID.

Rule IDs in a line (`BOLSA-2.2 Each player …`) print in bold, so the table and the referee cite
the same numbers.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Mapping

from pnp.components import Context
from pnp.components.tables import INK, SOFT_INK, Block, column, heading, moved, paragraph, table
from pnp.display import BookPages, Drawing, Item, Line, Style
from pnp.errors import BuildError
from pnp.i18n import _, ngettext
from pnp.layout.booklet import page_size
from pnp.layout.text import fit_text
from pnp.rules.base import Table
from pnp.spec.faces import TemplateError, fill, game_context
from pnp.spec.model import Booklet, BookletSection

BODY_PT = 8.0
FOOTER_MM = 5.0  # the page number's band at the foot of each page
RULE_ID = re.compile(r"(?<![*\w-])([A-Z]{2,}-X?\d+(?:\.\d+)*)(?![*\w])")


def booklet(context: Context, booklet: Booklet) -> BookPages:
    """The booklet's pages in reading order (layout pads and imposes them)."""
    what = f"{context.game_id}/{booklet.id}"
    width, height = page_size(context.settings.paper, context.settings.margin_mm)
    values = template_values(context)
    blocks = [(_title(context, booklet, width, what), False)]
    for number, section in enumerate(booklet.sections, 1):
        blocks += _section(context, section, values, width, f"{what} section {number}")
    pages = _paginate(blocks, height - FOOTER_MM, what)
    title = context.game.title
    drawings = tuple(Drawing(width, height, (*items, *_footer(title, n, width, height, what)))
                     for n, items in enumerate(pages, 1))
    return BookPages(drawings * booklet.copies)


def template_values(context: Context) -> dict[str, Any]:
    """What booklet lines may name: the game's template context (`{assets}`, `{counts[shares]}`
    and all, see `game_context`), and for a game with a rules engine `rules` holding every house
    rule in effect (the spec's values over the engine's defaults) and `params` the engine's
    parameters."""
    values = game_context(context.game)
    engine = _engine(context.game_id)
    if engine is not None:
        values["rules"] = {**engine.RULEBOOK.defaults(), **context.game.rules}
        values["params"] = engine.params(context.game)
    return values


def _engine(game_id: str) -> Any:
    from pnp.rules import engine

    try:
        return engine(game_id)
    except KeyError:
        return None


def _title(context: Context, booklet: Booklet, width: float, what: str) -> Block:
    game = context.game
    subtitle = game.title_en if game.title_en and game.title_en != game.title else ""
    players = (_("{min}–{max} players").format(min=game.players.min, max=game.players.max)
               if game.players.min != game.players.max else
               ngettext("{n} player", "{n} players", game.players.min).format(n=game.players.min))
    name = booklet.name if not booklet.name_en or booklet.name_en == booklet.name else f"{booklet.name} · {booklet.name_en}"
    blocks = [heading(game.title, subtitle, width, size=18, what=what),
              paragraph(f"**{name}** · {players}", width, size=BODY_PT + 1, what=what, color=SOFT_INK)]
    return column(blocks, gap=1.5)


def _section(context: Context, section: BookletSection, values: dict[str, Any], width: float,
             what: str) -> list[tuple[Block, bool]]:
    """The section's blocks, each with whether it stays with the next (the heading does)."""
    blocks: list[tuple[Block, bool]] = []
    if section.heading:
        blocks.append((heading(section.heading, section.heading_en, width, size=BODY_PT * 1.35, what=what), True))
    for line in section.lines:
        try:
            text = fill(line, values, "lines")
        except TemplateError as error:
            raise BuildError(f"{what}: {error}") from None
        blocks.append((paragraph(_bold_id(text), width, size=BODY_PT, what=what), False))
    if section.table:
        blocks.append((_table(context.table(section.table), width, not context.settings.ink_saver, what), False))
    if section.house_rules:
        blocks.append((_table(house_rules(context), width, not context.settings.ink_saver, what), False))
    return blocks


def _bold_id(text: str) -> str:
    """Every rule ID in bold: "BOLSA-3.4.1 Sold cards…" → "**BOLSA-3.4.1** Sold cards…"."""
    return RULE_ID.sub(r"**\1**", text)


def _table(data: Table, width: float, shaded: bool, what: str) -> Block:
    """A rules table at the body size, or smaller until it fits the page's width."""
    for size in (BODY_PT, 7.5, 7.0, 6.5, 6.0):
        block = table(data, size=size, what=what, min_width=0.0, shaded=shaded)
        if block.width <= width + 1e-6:
            return block
    raise BuildError(f"{what}: the table {data.header[0]!r} is wider than the {width:g} mm booklet page even at 6 pt")


def house_rules(context: Context) -> Table:
    """Every house rule of the game's engine with its rule ID and the value in effect (the
    engine's own reading, so values set by a track show the track's number), the default
    beside it when they differ. A table-sized value (a setup chart) is printed elsewhere."""
    if _engine(context.game_id) is None:
        raise BuildError(f"{context.game_id}: `house_rules` needs a rules engine; this game has none")
    from pnp.rules.lookup import house_rules as in_effect

    rows = []
    for option in in_effect(context.game_id, context.game):
        shown = _show(option.value)
        if option.set_by:
            shown += _(" (from {track})").format(track=option.set_by)
        elif _show(option.default) != shown:
            shown += _(" (default {value})").format(value=_show(option.default))
        rows.append((option.rule, option.name, shown))
    return Table((_("Rule"), _("House rule"), _("In effect")), tuple(rows),
                 _("Set under rules: in components.yaml; the referee applies the same values."))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping) or (isinstance(value, (list, tuple)) and len(value) > 8):
        return _("see the setup table")
    if isinstance(value, (list, tuple)):
        return ", ".join(_show(v) for v in value)
    if isinstance(value, (float, Fraction)):
        return f"{float(value):g}"
    return str(value)


def _paginate(blocks: list[tuple[Block, bool]], height: float, what: str) -> list[tuple[Item, ...]]:
    """Blocks stacked page after page; a block kept with the next (a heading) moves on with it."""
    gap = BODY_PT * 0.25
    pages: list[list[Item]] = [[]]
    y = 0.0
    for index, (block, keep) in enumerate(blocks):
        if block.height > height:
            raise BuildError(f"{what}: a block {block.height:.0f} mm tall does not fit a {height:.0f} mm booklet page")
        before = gap * (4 if keep else 1) if pages[-1] else 0.0
        need = block.height + (gap + blocks[index + 1][0].height if keep and index + 1 < len(blocks) else 0.0)
        if pages[-1] and y + before + need > height:
            pages.append([])
            y, before = 0.0, 0.0
        y += before
        pages[-1].append(moved(block, 0, y))
        y += block.height
    return [tuple(items) for items in pages]


def _footer(title: str, number: int, width: float, height: float, what: str) -> tuple[Item, ...]:
    y = height - FOOTER_MM
    return (Line(0, y + 1.0, width, y + 1.0, Style(stroke=SOFT_INK, width=0.2)),
            fit_text(f"{title} · {number}", 0, y + 1.5, width, FOOTER_MM - 1.5, size=7, min_size=6, color=INK,
                     align="center", what=what))
