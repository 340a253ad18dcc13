"""Forms: ruled sheets for pencil — account cards, play-by-mail move logs.

The spec gives columns; a column may repeat per asset or per player (`for_each`) and may group
sub-columns under a header (the prices; each player's shares and cash). Every column is titled
in the game's language with its English subtitle, asset columns also carry the asset's badge
and a light tint, and rows are at least `row_mm` tall for handwriting. A form with `players:
[2, 3, 4]` is drawn once per player count; one whose columns would be cramped on a portrait
page turns to landscape.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Mapping

from pnp.components import Context, Panels
from pnp.components.art import asset_badge, tint
from pnp.components.tables import HEADER_FILL, INK, RULE, SOFT_INK, Block, moved, page_area, tallest, title_bar
from pnp.display import Drawing, Item, Line, Rect, Style
from pnp.errors import BuildError
from pnp.layout.text import fit_text, text_width
from pnp.spec.faces import TemplateError, fill
from pnp.spec.model import Asset, Form, FormColumn, Game

LOW_RULE = Style(stroke="#c8c8c8", width=0.15, dash=(0.6, 1.2))  # the ink saver's rules between rows and columns: a pale dotted guide

MIN_COLUMN = 9.0  # mm: the narrowest column a number is written in comfortably
GROUP_ROW = 7.0  # mm: the header row over grouped columns
HEADER_ROW = 12.0  # mm: the column titles
FRAME = 4.0  # mm of margin inside a form with its own size (a card to cut out)
COLUMN_TINT = 0.12
MIN_ROW = 7.0  # mm: VISUAL.md's least row height for handwriting


@dataclass(frozen=True)
class Leaf:
    """One column as printed: its titles, width (None: share the rest) and asset, if any."""

    title: str
    title_en: str
    width: float | None
    asset: Asset | None = None


@dataclass(frozen=True)
class Band:
    """Consecutive leaves under one group header (title "" for a column with no group)."""

    title: str
    title_en: str
    leaves: tuple[Leaf, ...]


def bands(game: Game, columns: tuple[FormColumn, ...], players: int | None, what: str) -> tuple[Band, ...]:
    """The columns with every `for_each` expanded and templates filled, grouped into bands."""
    result: list[Band] = []
    for column in columns:
        if not column.columns:  # a plain column (once, or once per asset/player): a band each
            result += [Band("", "", (leaf,)) for leaf in _leaves(game, column, players, {}, what)]
            continue
        for values in _expansions(game, column, players):
            leaves = tuple(leaf for sub in column.columns for leaf in _leaves(game, sub, players, values, what))
            result.append(Band(_fill(column.title, values, what), _fill(column.title_en, values, what), leaves))
    return tuple(result)


def form(context: Context, form: Form) -> Panels:
    """The form's pages per player count (or once), repeated `copies` times."""
    drawings: list[Drawing] = []
    for players in form.players or (None,):
        drawings += list(_pages(context, form, players)) * form.copies
    return Panels(tuple(drawings))


def wanted_rows(context: Context, form: Form, players: int | None) -> int | None:
    """The rows the form must hold: `rows`, or with `rows: moves` one per move of a whole game
    for that many players (the engine's count: every card dealt is one move) and one for the
    starting position; None: as many as fit a page."""
    if form.rows != "moves":
        return form.rows
    from pnp.rules import engine

    try:
        rules = engine(context.game_id)
    except KeyError:
        rules = None
    moves = None if rules is None else rules.moves(rules.params(context.game), players or context.game.players.max)
    if moves is None:
        raise BuildError(f"{context.game_id}/{form.id}: `rows: moves` needs a rules engine that counts moves")
    return moves + 1


def _pages(context: Context, form: Form, players: int | None) -> tuple[Drawing, ...]:
    """Enough pages for the wanted rows: rows as tall as `row_mm`, or down to `MIN_ROW` so a
    whole game fits one page, else continued on more pages."""
    wanted = wanted_rows(context, form, players)
    first = _drawing(context, form, players, None, form.row_mm)
    room, fit = first[1], first[2]
    if wanted is None or wanted <= fit:  # a whole page of rows: spare ones cost nothing
        return (_drawing(context, form, players, form.rows if form.rows != "moves" else None, form.row_mm)[0],)
    row_mm = max(MIN_ROW, min(form.row_mm, room / wanted))
    count = math.ceil(wanted / int(room / row_mm + 1e-6))
    if count == 1:
        return (_drawing(context, form, players, None, row_mm)[0],)
    return tuple(_drawing(context, form, players, None, row_mm, (n, count))[0] for n in range(1, count + 1))


def _drawing(context: Context, form: Form, players: int | None, rows: int | None, row_mm: float,
             part: tuple[int, int] | None = None) -> tuple[Drawing, float, int]:
    """One page with `rows` rows (None: as many as fit) of `row_mm`; also the height left for
    rows and how many of `row_mm` fit it."""
    what = f"{context.game_id}/{form.id}" + (f" for {players} players" if players else "")
    layout = bands(context.game, form.columns, players, what)
    leaves = [leaf for band in layout for leaf in band.leaves]
    needs = _needs(context, form, players, what)
    w, h, inset = _size(context, form, sum(needs))
    inner_w = w - 2 * inset
    widths = _widths(leaves, inner_w, what, needs)

    def title_of(c: Context) -> Block:
        own = c.component(form)
        name = f"{own.name} ({part[0]}/{part[1]})" if part else own.name
        return title_bar(name, own.name_en, c.game.title, inner_w, size=12, what=what)

    title = tallest(context, title_of)
    grouped = any(band.title for band in layout)
    top = title.height + 3.0
    header_h = (GROUP_ROW if grouped else 0.0) + HEADER_ROW
    body_top = top + header_h
    room = h - 2 * inset - body_top
    fit = int((room + 1e-6) // row_mm)
    rows = rows or fit
    if rows < 1 or body_top + rows * row_mm > h - 2 * inset + 1e-6:
        raise BuildError(f"{what}: {rows or 'no'} rows of {row_mm:g} mm fit on a {w:g} × {h:g} mm form")
    bottom = body_top + rows * row_mm
    items: list[Item] = [moved(title, 0, 0)]
    items += _columns(layout, widths, top, grouped, bottom, context.settings.ink_saver, what)
    rule = LOW_RULE if context.settings.ink_saver else Style(stroke=RULE, width=0.2)  # handwriting needs only a guide
    items += [Line(0, body_top + r * row_mm, inner_w, body_top + r * row_mm, rule) for r in range(1, rows)]
    items += [Rect(0, top, inner_w, bottom - top, Style(stroke=INK, width=0.5))]
    content: tuple[Item, ...] = (moved(Block(tuple(items), inner_w, h - 2 * inset), inset, inset),)
    if form.size_mm:  # a card of its own: its cut line
        content = (Rect(0, 0, w, h, Style(stroke=INK, width=0.4), radius=2.0), *content)
    return Drawing(w, h, content), room, fit


def _needs(context: Context, form: Form, players: int | None, what: str) -> list[float]:
    """Each column's width as its widest language needs it."""
    return [max(column) for column in zip(*context.everywhere(
        lambda c: [_need(leaf) for band in bands(c.game, c.component(form).columns, players, what) for leaf in band.leaves]),
        strict=True)]


def _size(context: Context, form: Form, need: float) -> tuple[float, float, float]:
    """The form's width, height and inset: its own size as a card; else a page, turned to
    landscape and then widened when its columns `need` more than the page's width."""
    if form.size_mm:
        (w, h), inset = form.size_mm, FRAME
        return w, h, inset
    inset = context.settings.safe_mm  # a full page: its cut line is the drawing's edge
    w, h = page_area(context.settings)
    if need > w - 2 * inset:
        w, h = page_area(context.settings, landscape=True)
        w = max(w, need + 2 * inset)  # wider than any page: layout tiles it rather than cramp the columns
    return w, h, inset


def _columns(layout: tuple[Band, ...], widths: list[float], top: float, grouped: bool, bottom: float,
             ink_saver: bool, what: str) -> list[Item]:
    items: list[Item] = []
    leaf_top = top + (GROUP_ROW if grouped else 0.0)
    x, index = 0.0, 0
    for band in layout:
        band_w = sum(widths[index : index + len(band.leaves)])
        if band.title:
            items.append(Rect(x, top, band_w, GROUP_ROW, Style(fill=None if ink_saver else HEADER_FILL, stroke=INK,
                                                               width=0.4)))
            text = f"**{band.title}**" + (f" · {band.title_en}" if band.title_en and band.title_en != band.title else "")
            items.append(fit_text(text, x + 1, top, band_w - 2, GROUP_ROW, size=8, color=INK, what=what))
        for number, leaf in enumerate(band.leaves):
            w = widths[index]
            head_top = leaf_top if (band.title or not grouped) else top
            fill = tint(leaf.asset.color, COLUMN_TINT) if leaf.asset and not ink_saver else None
            inner = LOW_RULE if ink_saver else Style(stroke=RULE, width=0.3)
            first = number == 0 and not ink_saver  # the ink saver's bands are told apart by their lines alone
            edge = Style(fill=fill, stroke=INK, width=0.3) if first else replace(inner, fill=fill)
            items.append(Rect(x, head_top, w, bottom - head_top, edge))
            items += _leaf_header(leaf, x, head_top, w, leaf_top + HEADER_ROW - head_top, what)
            x += w
            index += 1
        items.append(Line(x, top, x, bottom, Style(stroke=INK, width=0.5)))
    items.append(Line(0, leaf_top + HEADER_ROW, x, leaf_top + HEADER_ROW, Style(stroke=INK, width=0.5)))
    return items


def _leaf_header(leaf: Leaf, x: float, y: float, w: float, h: float, what: str) -> list[Item]:
    items: list[Item] = []
    if leaf.asset is not None:
        badge = min(4.0, w * 0.35)
        items.append(asset_badge(leaf.asset, x + w / 2, y + 1.0 + badge / 2, badge))
        y, h = y + badge + 1.2, h - badge - 1.2
    english = leaf.title_en if leaf.title_en != leaf.title else ""
    title_h = h * (0.55 if english else 1.0)
    items.append(fit_text(leaf.title, x + 0.8, y + 0.5, w - 1.6, title_h - 0.5, size=9, font="bold", color=INK,
                          valign="bottom" if english else "middle", what=what))
    if english:
        items.append(fit_text(english, x + 0.8, y + title_h, w - 1.6, h - title_h - 0.5, size=6.5, min_size=6,
                              color=SOFT_INK, valign="top", leading=1.05, what=what))
    return items


def _need(leaf: Leaf) -> float:
    """The narrowest a column may be: its longest title word at the header's smallest sizes
    (titles wrap at spaces, never inside a word), and never below `MIN_COLUMN`."""
    def longest(text: str, font: str, size: float) -> float:
        return max((text_width(word, font, size) for word in text.split()), default=0.0)

    return max(leaf.width or MIN_COLUMN, longest(leaf.title, "bold", 6.5) + 2.2, longest(leaf.title_en, "regular", 6) + 2.2)


def _widths(leaves: list[Leaf], width: float, what: str, needs: list[float]) -> list[float]:
    """Fixed widths as given; the other columns get what they `needs` (in the widest language)
    plus an equal share of the rest (only fixed columns: stretched in proportion to the form's
    width)."""
    auto = [leaf.width is None for leaf in leaves]
    spare = width - sum(needs)
    if spare < -1e-6:
        raise BuildError(f"{what}: {len(leaves)} columns need {sum(needs):.0f} mm, more than the {width:g} mm of the form")
    if not any(auto):
        return [need * width / sum(needs) for need in needs]
    return [need + (spare / sum(auto) if is_auto else 0.0) for need, is_auto in zip(needs, auto, strict=True)]


def _expansions(game: Game, column: FormColumn, players: int | None) -> list[dict[str, Any]]:
    if column.for_each == "asset":
        return [{**asset.model_dump(), "asset": asset} for asset in game.assets]
    if column.for_each == "player":
        return [{"player": n} for n in range(1, (players or game.players.max) + 1)]
    return [{}]


def _leaves(game: Game, column: FormColumn, players: int | None, outer: Mapping[str, Any], what: str) -> list[Leaf]:
    leaves = []
    for values in _expansions(game, column, players):
        values = {**outer, **values}
        title, title_en = _fill(column.title, values, what), _fill(column.title_en, values, what)
        if column.columns:
            leaves += [leaf for sub in column.columns for leaf in _leaves(game, sub, players, values, what)]
        else:
            leaves.append(Leaf(title, title_en, column.width_mm, values.get("asset")))
    return leaves


def _fill(template: str, values: Mapping[str, Any], what: str) -> str:
    try:
        return fill(template, values, "title")
    except TemplateError as error:
        raise BuildError(f"{what}: column title {template!r}: {error}") from None
