"""What the panel generators (boards, mats, aids, forms) share: blocks, headings, paragraphs
and rules-computed tables.

A panel is built as a column of `Block`s — items drawn from their own (0, 0) with a known
size — so each generator says *what* goes on the sheet, top to bottom, and the arithmetic of
where it lands lives here once. Text always goes through `fit_text`, so nothing overflows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from pnp.components.art import asset_badge, picture
from pnp.display import Group, Item, Line, Rect, Style, translate
from pnp.errors import BuildError
from pnp.layout.sheet import content_size
from pnp.layout.text import Icon, fit_lines, fit_text, text_width
from pnp.rules.base import Table
from pnp.spec.faces import TemplateError, deck_pieces, fill
from pnp.spec.images import Art
from pnp.spec.model import Asset, CardsTable, Deck, Game, Print
from pnp.spec.source import PathKey

if TYPE_CHECKING:
    from pnp.components import Context

INK = "#1a1a1a"  # near-black: body text and lines
SOFT_INK = "#555555"  # English subtitles and small print
RULE = "#8c8c8c"  # thin grid lines
HEADER_FILL = "#e6e6e6"  # table header rows
PT = 25.4 / 72  # mm per point


@dataclass(frozen=True)
class Block:
    """Items drawn from (0, 0), `width` × `height` mm: the unit panels are stacked from."""

    items: tuple[Item, ...]
    width: float
    height: float


def tallest(context: "Context", make: Callable[["Context"], Block]) -> Block:
    """The block `make` draws in this kit's language, as tall as the tallest it draws in any of
    the game's languages: what follows it lands in the same place in every kit."""
    everywhere, own = context.everywhere_and_here(make)
    height = max(block.height for block in everywhere)
    return replace(own, height=max(own.height, height))


def widest(context: "Context", measure: Callable[["Context"], float]) -> float:
    """The largest of `measure` over the game's languages (a column's width, say)."""
    return max(context.everywhere(measure))


def page_area(settings: Print, landscape: bool = False) -> tuple[float, float]:
    """The largest panel that prints on one page of the configured paper, furniture included."""
    return content_size(settings.paper, settings.margin_mm, landscape=landscape)


def moved(block: Block, x: float, y: float) -> Group:
    """The block's items with its top-left corner at (x, y)."""
    return Group(block.items, translate(x, y))


def column(blocks: Iterable[Block], gap: float = 0.0) -> Block:
    """Blocks stacked top to bottom, left-aligned, `gap` mm apart."""
    items: list[Item] = []
    y = width = 0.0
    for block in blocks:
        if items:
            y += gap
        items.append(moved(block, 0, y))
        y += block.height
        width = max(width, block.width)
    return Block(tuple(items), width, y)


def picture_block(art: Art, width: float, height: float) -> Block:
    """The art `height` mm tall (narrower if `width` is too small for its proportions), centred
    in a block `width` wide: a logo or an illustration under a panel's title."""
    w = min(width, height * art.aspect)
    h = w / art.aspect
    return Block((picture(art, (width - w) / 2, 0, w, h),), width, h)


def heading(title: str, subtitle: str, width: float, *, size: float, what: str, align: str = "left") -> Block:
    """A title in the game's language, bold, with its English subtitle smaller beneath it.

    The subtitle is left out when it would only repeat the title (an English game)."""
    items: list[Item] = []
    height = 0.0
    for text, text_size, font, color in (
        (title, size, "bold", INK),
        (subtitle if subtitle != title else "", max(6.0, size * 0.7), "regular", SOFT_INK),
    ):
        if not text:
            continue
        fitted = fit_lines(text, width, 1e6, size=text_size, min_size=min(text_size, 6.0), font=font, what=what)
        items.append(
            fit_text(text, 0, height, width, fitted.height, size=fitted.size, min_size=fitted.size,
                     font=font, color=color, align=align, valign="top", what=what)
        )
        height += fitted.height + 0.8
    return Block(tuple(items), width, max(0.0, height - 0.8))


def title_bar(name: str, name_en: str, game_title: str, width: float, *, size: float, what: str) -> Block:
    """A panel's title line: its name (with the English subtitle) on the left, the game's
    title on the right, so every sheet says which game it belongs to."""
    game_w = min(width * 0.45, text_width(game_title, "bold", size * 0.75) + 0.5)
    name_block = heading(name, name_en, width - game_w - 4.0, size=size, what=what)
    game = fit_text(game_title, width - game_w, 0, game_w, name_block.height, size=size * 0.75,
                    min_size=6, font="bold", color=SOFT_INK, align="right", valign="top", what=what)
    return Block((*name_block.items, game), width, name_block.height)


def paragraph(text: str, width: float, *, size: float, what: str, color: str = INK,
              icons: Mapping[str, Icon] | None = None) -> Block:
    """`text` (with `**bold**` runs and `:ID:` icons) wrapped to `width` at exactly `size` pt."""
    fitted = fit_lines(text, width, 1e6, size=size, min_size=size, what=what, icons=icons)
    group = fit_text(text, 0, 0, width, fitted.height, size=size, min_size=size, color=color,
                     align="left", valign="top", what=what, icons=icons)
    return Block((group,), width, fitted.height)


def cards_table(game: Game, spec: CardsTable, what: str, at: PathKey = ()) -> Table:
    """A deck's distinct cards as a table, one column each in deck order (copies once), each
    row a template filled from the card's printed fields and its data: the numbers the cards
    themselves print, so an aid and the cards cannot disagree."""
    deck = next((c for c in game.components if c.id == spec.deck and isinstance(c, Deck)), None)
    if deck is None:
        raise BuildError(f"{what}: no deck {spec.deck!r} in this game for its table of cards", at=at + ("deck",))
    cards = list(dict.fromkeys((p.front, tuple(sorted(p.data.items()))) for p in deck_pieces(game, deck)))
    rows = []
    for label, template in spec.rows.items():
        try:
            rows.append((label, *(fill(template, {**_printed(front), **dict(data)}, "rows") for front, data in cards)))
        except TemplateError as error:
            raise BuildError(f"{what}: the table of {spec.deck} cards, row {label!r}: {error}") from None
    return Table(rows[0], tuple(rows[1:]), spec.caption)


def _printed(face: Any) -> dict[str, str]:
    """A card's printed texts by field name: plain strings, all a template may read of it."""
    return {name: getattr(face, name) for name in ("value", "other", "title", "subtitle", "text", "corner")}


def asset_named(text: str, assets: Sequence[Asset]) -> Asset | None:
    """The asset whose code (or initial) is exactly `text`, for badges beside table labels."""
    return next((a for a in assets if text in (a.id, a.initial) and text), None)


@dataclass(frozen=True)
class _Cells:
    """How a table's cells are set: the text size, the padding inside a cell, and the assets
    whose badge goes beside a header or label naming them."""

    size: float
    assets: Sequence[Asset]
    what: str
    pad: float = 1.6

    @property
    def badge(self) -> float:
        return self.size * PT * 1.1

    def width(self, text: str, bold: bool) -> float:
        """The width a cell needs for `text`, its badge included."""
        extra = self.badge + 1.0 if (bold and asset_named(text, self.assets)) else 0.0
        return text_width(text, "bold" if bold else "regular", self.size) + extra + 2 * self.pad

    def items(self, text: str, bold: bool, x: float, y: float, width: float, height: float) -> list[Item]:
        """One cell at (x, y): its text centred, after the badge of the asset it names."""
        items: list[Item] = []
        asset = asset_named(text, self.assets) if bold else None
        box_x, box_w = x + self.pad, width - 2 * self.pad
        if asset is not None:
            badge = self.badge
            label_w = text_width(text, "bold", self.size) + badge + 1.0
            start = x + (width - label_w) / 2
            items.append(asset_badge(asset, start + badge / 2, y + height / 2, badge))
            box_x, box_w = start + badge + 1.0, label_w - badge - 1.0 + 0.01
        if text:
            items.append(fit_text(text, box_x, y, box_w, height, size=self.size, font="bold" if bold else "regular",
                                  color=INK, align="center", what=self.what))
        return items


def table(
    data: Table,
    *,
    size: float,
    what: str,
    assets: Sequence[Asset] = (),
    min_width: float = 0.0,
    cell_h: float | None = None,
    shaded: bool = True,
    also: Sequence[Table] = (),
    caption_size: float | None = None,
) -> Block:
    """A rules-computed `Table`: a header row (shaded unless the ink saver says not), bold row
    labels, centred cells, its caption beneath (at `caption_size`, else smaller than the cells). Columns are as wide as their widest text; `min_width` stretches the
    table evenly. A header or label naming an asset gets that asset's badge, so the table
    reads in grayscale like the rest of the board. `also`: the same table in the game's other
    languages, whose columns and caption it makes room for, so every kit's lines fall alike."""
    cells = _Cells(size, assets, what)
    row_h = cell_h or size * PT * 1.25 + 2 * cells.pad + 1.0
    grid = _grid(data)
    columns = max(len(row) for row in grid)
    grid = [row + ("",) * (columns - len(row)) for row in grid]
    grids = [grid] + [_grid(other) for other in also if len(other.rows) == len(data.rows)]
    widths = _column_widths(grids, cells, row_h, min_width)
    total_w = sum(widths)
    items: list[Item] = [Rect(0, 0, total_w, row_h, Style(fill=HEADER_FILL))] if shaded else []
    drawn, height = _cell_items(cells, grid, widths, row_h)
    items += drawn
    items += _table_rules(widths, row_h, len(grid), height)
    if data.caption:
        caption = paragraph(data.caption, total_w, size=caption_size or max(6.0, size * 0.8), what=what, color=SOFT_INK)
        items.append(moved(caption, 0, height + 1.5))
        height += 1.5 + _caption_room(caption.height, also, total_w, size, what)
    return Block(tuple(items), total_w, height)


def _cell_items(cells: _Cells, grid: list[tuple[str, ...]], widths: list[float],
                row_h: float) -> tuple[list[Item], float]:
    """Every cell of the grid drawn, the header row and the label column in bold; and the
    height of the rows."""
    items: list[Item] = []
    y = 0.0
    for r, row in enumerate(grid):
        x = 0.0
        for c, text in enumerate(row):
            items += cells.items(text, r == 0 or c == 0, x, y, widths[c], row_h)
            x += widths[c]
        y += row_h
    return items, y


def _grid(data: Table) -> list[tuple[str, ...]]:
    """A table's rows of cell texts, its header first."""
    return [tuple(data.header)] + [tuple(row) for row in data.rows]


def _caption_room(height: float, also: Sequence[Table], width: float, size: float, what: str) -> float:
    """The height a caption needs: its own `height`, or the tallest of the other languages'."""
    return max([height] + [paragraph(other.caption, width, size=max(6.0, size * 0.8), what=what).height
                           for other in also if other.caption])


def _column_widths(grids: list[list[tuple[str, ...]]], cells: _Cells, row_h: float, min_width: float) -> list[float]:
    """Each column as wide as its widest cell in any of the `grids` (the first one's languages
    and the others'), at least square, all stretched evenly to `min_width`."""

    def needed(grid: list[tuple[str, ...]], r: int, c: int) -> float:
        text = grid[r][c] if c < len(grid[r]) else ""
        return cells.width(text, r == 0 or c == 0)

    rows, columns = len(grids[0]), len(grids[0][0])
    widths = [max(row_h, max(needed(grid, r, c) for grid in grids for r in range(rows))) for c in range(columns)]
    spare = min_width - sum(widths)
    if spare > 0:
        widths = [w + spare / columns for w in widths]
    return widths


def _table_rules(widths: list[float], row_h: float, rows: int, height: float) -> list[Item]:
    """The grid's lines: dark around the table and under the header and beside the labels, light between cells."""
    columns = len(widths)
    lines: list[Item] = []
    total_w = sum(widths)
    for r in range(rows + 1):
        lines.append(Line(0, r * row_h, total_w, r * row_h, Style(stroke=INK if r in (0, 1, rows) else RULE, width=0.3)))
    x = 0.0
    for c in range(columns + 1):
        lines.append(Line(x, 0, x, height, Style(stroke=INK if c in (0, 1, columns) else RULE, width=0.3)))
        x += widths[c] if c < columns else 0.0
    return lines
