"""Player mats: a grid of zones, each the size of a card, with the round in brief beneath.

Each zone is a header strip — a large zone number and the zone's title in the game's language
with its English subtitle — above a card-sized area with a dashed card outline. The strip sits
above the card, not under it, so the zone still reads when its stack of cards is in place.
"""

from __future__ import annotations

from pnp.components import Context, Panels
from pnp.components.tables import (
    INK,
    SOFT_INK,
    Block,
    column,
    heading,
    moved,
    page_area,
    paragraph,
    picture_block,
    title_bar,
)
from pnp.display import Circle, Drawing, Item, Rect, Style, with_role
from pnp.layout.text import fit_text
from pnp.spec.faces import filled
from pnp.spec.model import Mat, Zone

MARGIN = 5.0  # mm from the mat's edge to its content
GAP = 4.0  # mm between zones
BORDER = 3.0  # mm around the card inside its zone
STRIP = 10.0  # mm: the zone's header strip
FRAME_INSET = 2.0  # mm from the mat's cut edge to its frame: a cut that strays does not cut the frame
WATERMARK = "#e3e3e3"  # the large zone number printed faintly where the card goes


def mat(context: Context, mat: Mat) -> Panels:
    """One drawing per copy: title, zones (rows top to bottom), and the notes beneath them —
    or beside them, when beneath would make the mat taller than a page."""
    what = f"{context.game_id}/{mat.id}"
    mat = filled(context.game, mat)  # zone titles and notes are templates over the game
    grid = _grid(mat, mat.zone_mm or context.settings.card_mm, context.settings.ink_saver, what)
    page_w, page_h = page_area(context.settings)
    notes_below = _notes(context, mat, grid.width, what)
    body = _body(context, mat, grid, notes_below, what)
    if body.height + 2 * MARGIN > page_h and mat.notes:
        side_w = page_w - 2 * MARGIN - grid.width - GAP
        if side_w >= 35.0:
            beside = _notes(context, mat, side_w, what)
            row = Block((moved(grid, 0, 0), moved(beside, grid.width + GAP, 0)), grid.width + GAP + side_w,
                        max(grid.height, beside.height))
            body = _body(context, mat, row, None, what)
    w, h = body.width + 2 * MARGIN, body.height + 2 * MARGIN
    frame = Rect(FRAME_INSET, FRAME_INSET, w - 2 * FRAME_INSET, h - 2 * FRAME_INSET, Style(stroke=INK, width=0.6),
                 radius=3.0)
    return Panels((Drawing(w, h, (frame, moved(body, MARGIN, MARGIN))),) * mat.copies)


def _body(context: Context, mat: Mat, zones: Block, notes: Block | None, what: str) -> Block:
    title = title_bar(mat.name, mat.name_en, context.game.title, zones.width, size=14, what=what)
    image = [picture_block(context.art(mat.image), zones.width, mat.image_mm)] if mat.image else []
    return column([title, *image, zones, *([notes] if notes and notes.height else [])], gap=GAP)


def _grid(mat: Mat, card: tuple[float, float], ink_saver: bool, what: str) -> Block:
    card_w, card_h = card
    zone_w, zone_h = card_w + 2 * BORDER, STRIP + card_h + 2 * BORDER
    columns = max(len(row) for row in mat.zones)
    zones = tuple(
        moved(_zone(zone, zone_w, zone_h, card, ink_saver, f"{what} zone {zone.label}"), c * (zone_w + GAP),
              r * (zone_h + GAP))
        for r, row in enumerate(mat.zones)
        for c, zone in enumerate(row)
    )
    return Block(zones, columns * zone_w + (columns - 1) * GAP, len(mat.zones) * zone_h + (len(mat.zones) - 1) * GAP)


def _zone(zone: Zone, w: float, h: float, card: tuple[float, float], ink_saver: bool, what: str) -> Block:
    """A zone: its number on a disc (an outlined one with the ink saver), its titles, the card's
    dashed outline and, but for the ink saver, the number large and faint where the card goes."""
    card_w, card_h = card
    disc = STRIP - 2.0
    card_x, card_y = (w - card_w) / 2, STRIP + BORDER
    disc_style = Style(stroke=INK, width=0.5) if ink_saver else Style(fill=INK)
    items: list[Item] = [
        Rect(0, 0, w, h, Style(stroke=INK, width=0.5), radius=2.5),
        Circle(1.5 + disc / 2, 1.0 + disc / 2, disc / 2, disc_style),
        fit_text(zone.label, 1.5, 1.0, disc, disc, size=16, font="bold", color=INK if ink_saver else "#ffffff",
                 what=what),
        fit_text(zone.title, 3.5 + disc, 0.8, w - disc - 5.0, STRIP * 0.58, size=11, font="bold", color=INK,
                 align="left", valign="bottom", what=what),
        fit_text(zone.title_en, 3.5 + disc, 0.8 + STRIP * 0.58, w - disc - 5.0, STRIP * 0.42 - 0.8, size=8,
                 color=SOFT_INK, align="left", valign="top", what=what),
        Rect(card_x, card_y, card_w, card_h, Style(stroke=SOFT_INK, width=0.3, dash=(2.0, 1.5)), radius=3.0),
    ]
    if not ink_saver:
        items.append(with_role(fit_text(zone.label, card_x, card_y, card_w, card_h, size=120, min_size=20,
                                        font="bold", color=WATERMARK, what=what), "decoration"))
    return Block(tuple(items), w, h)


def _notes(context: Context, mat: Mat, width: float, what: str) -> Block:
    if not mat.notes:
        return Block((), width, 0.0)
    blocks = [heading(mat.notes_title, "", width, size=10, what=what)] if mat.notes_title else []
    icons = context.icons()
    blocks += [paragraph(note, width, size=8, what=what, icons=icons) for note in mat.notes]
    return column(blocks, gap=1.2)
