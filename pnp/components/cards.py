"""Cards: every front of a deck from its expanded faces, and the deck's one common back.

A front is read at the table from three distances: across the table by its colour band and
large value, in a fanned hand by its corner index (top-left, and turned 180° bottom-right),
and up close by its name and small print. Colour is never alone: the band carries the asset's
badge (shape and pattern) and the index its code or initial. Backs are drawn so that a half
turn changes nothing, so a card held upside down gives nothing away.

Nothing here knows a game: only the face fields (`asset`, `value`, `other`, `title`,
`subtitle`, `text`, `corner`) and the deck's fields are read.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.components import Context, PieceArt, Pieces
from pnp.components.art import (
    BLACK, WHITE, asset_badge, contrast_ratio, fit_line_first, half_turn, ink_on, pattern, symbol, text_bounds, tint,
)  # fmt: skip
from pnp.display import Drawing, Group, Item, Rect, Style
from pnp.layout.text import fit_text
from pnp.spec.faces import Side, deck_pieces
from pnp.spec.model import Asset, Back, Deck, Game

PAPER = WHITE  # cards are printed on white stock; light backgrounds save ink
LARGE_TEXT_CONTRAST = 3.0  # WCAG AA for large text (≥ 14 pt bold)
INDEX_W, INDEX_H = 12.5, 14.0  # mm: the corner index chip
VALUE_PT, OTHER_PT, LARGE_MIN_PT = 44.0, 24.0, 14.0
INK_SAVER_TINT = 0.22  # how strong a band is when large fills are dropped
PATTERN_STRIP = 3.0  # mm: the strip under the band showing an asset's pattern


@dataclass(frozen=True)
class Card:
    """The geometry every face of a deck shares (mm)."""

    width: float
    height: float
    bleed: float
    safe: float
    ink_saver: bool
    dark_back: bool = False

    @property
    def band_bottom(self) -> float:
        """Lower edge of the colour band: it holds the index chip with some air below."""
        return self.safe + INDEX_H + 1.5


def deck(context: Context, deck: Deck) -> Pieces:
    """Every card of the deck (entry order, copies adjacent) with the deck's common back."""
    settings = context.settings
    width, height = deck.size_mm or settings.card_mm
    card = Card(width, height, settings.bleed_mm, settings.safe_mm, settings.ink_saver, settings.backs == "dark")
    where = f"{context.game_id}/{deck.id}"
    back = card_back(context.game, deck.back, card, what=f"{where} back")
    fronts: dict[Side, Drawing] = {}  # copies share one drawing
    pieces = []
    for number, piece in enumerate(deck_pieces(context.game, deck), 1):
        if piece.front not in fronts:
            fronts[piece.front] = card_front(piece.front, card, deck.back, what=f"{where} card {number}")
        pieces.append(PieceArt(fronts[piece.front], back))
    return Pieces(width, height, card.bleed, tuple(pieces) * deck.copies)


# --- fronts -------------------------------------------------------------------------------


def card_front(face: Side, card: Card, back: Back, *, what: str) -> Drawing:
    """One front: colour band with index, name and badge; the large value; small print."""
    w, h, s, b = card.width, card.height, card.safe, card.bleed
    asset = face.asset
    identity = asset.color if asset else back.color  # an asset's colour, else the deck's
    band = tint(identity, INK_SAVER_TINT) if card.ink_saver or asset is None else identity
    ink = ink_on(band)
    items: list[Item] = [Rect(-b, -b, w + 2 * b, card.band_bottom + b, Style(fill=band))]
    if band != identity:  # a light band keeps a solid edge of the identity colour
        items.append(Rect(-b, card.band_bottom - 1.0, w + 2 * b, 1.0, Style(fill=identity)))

    index = corner_index(face, card, band, ink, what=what)
    items += [index, half_turn([index], w / 2, h / 2)]

    if asset:
        items += _badge_plate(asset, w - s - INDEX_W, s, INDEX_W, INDEX_H)
        if asset.pattern != "none":  # a currency's pattern also runs along the band's edge
            strip = (-b, card.band_bottom, w + 2 * b, PATTERN_STRIP)
            items.append(pattern(asset.pattern, *strip, identity, spacing=1.6))
    left = s + INDEX_W + 1.5
    right = w - s - INDEX_W - 1.5  # the badge's place, kept free on plain cards for balance
    if face.title or face.subtitle:
        items += _titles(face, left, s, right - left, card.band_bottom - s - 2.0, ink, what)

    top, bottom = card.band_bottom + PATTERN_STRIP + 1.5, h - s - INDEX_H - 2.0
    if asset and not face.other:  # a large outline of the symbol frames a lone value
        mark, faint = min(w - 2 * s, bottom - top) * 0.92, Style(stroke=tint(identity, 0.28), width=1.0)
        items.append(symbol(asset.symbol, w / 2, (top + bottom) / 2, mark, faint))
    items += value_block(face, s, top, w - 2 * s, bottom - top, identity if asset else None, what)
    if face.text:
        items.append(
            fit_text(face.text, s, h - s - INDEX_H, w - 2 * s - INDEX_W - 1.5, INDEX_H, size=9.5, min_size=6,
                     color=BLACK, align="left", valign="bottom", leading=1.15, what=what)
        )  # fmt: skip
    return Drawing(w, h, tuple(items), b)


def corner_index(face: Side, card: Card, fill: str, ink: str, *, what: str) -> Item:
    """The top-left index: the corner text, the asset's initial or code when the text lacks
    it, and the asset's symbol, on a chip of the band colour (so the bottom-right copy,
    turned 180°, sits on white paper as a coloured tab)."""
    s = card.safe
    x, y, pad = s, s, 0.6
    items: list[Item] = [Rect(x, y, INDEX_W, INDEX_H, Style(fill=fill), radius=1.2)]
    asset = face.asset
    label, tag = face.corner, (asset.initial or asset.id) if asset else ""
    if not label:
        label, tag = tag, ""
    elif tag.casefold() in label.casefold():
        tag = ""  # "IBE" already names its company
    if asset is None:
        items.append(fit_text(label, x + pad, y + pad, INDEX_W - 2 * pad, INDEX_H - 2 * pad,
                              size=18, min_size=7, font="bold", color=ink, what=what))  # fmt: skip
        return Group(tuple(items))
    rows = [(label, 5.2, 11.0)] + ([(tag, 3.6, 8.0)] if tag else [])
    cursor = y + pad
    for text, height, size in rows:
        items.append(fit_text(text, x + pad, cursor, INDEX_W - 2 * pad, height, size=size, min_size=6,
                              font="bold", color=ink, what=what))  # fmt: skip
        cursor += height
    room = y + INDEX_H - pad - cursor
    items.append(symbol(asset.symbol, x + INDEX_W / 2, cursor + room / 2, min(4.0, room), Style(fill=ink)))
    return Group(tuple(items))


def _badge_plate(asset: Asset, x: float, y: float, w: float, h: float) -> list[Item]:
    """The asset badge on a paper-white plate, so its own colour and pattern show on the band."""
    size = min(w, h) - 3.0
    return [
        Rect(x + (w - size) / 2 - 1.0, y + (h - size) / 2 - 1.0, size + 2.0, size + 2.0, Style(fill=PAPER), radius=1.5),
        asset_badge(asset, x + w / 2, y + h / 2, size - 1.2),
    ]


def _titles(face: Side, x: float, y: float, w: float, h: float, ink: str, what: str) -> list[Item]:
    """The name in bold over its subtitle, both centred in the band between index and badge."""
    if not face.subtitle:
        return [fit_text(face.title, x, y, w, h, size=12, min_size=7, font="bold", color=ink, what=what)]
    if not face.title:
        return [fit_text(face.subtitle, x, y, w, h, size=9, min_size=6, color=ink, what=what)]
    split = h * 0.58
    return [
        fit_text(face.title, x, y, w, split, size=12, min_size=7, font="bold", color=ink, valign="bottom", what=what),
        fit_line_first(face.subtitle, x, y + split + 0.4, w, h - split - 0.4, size=8, color=ink, valign="top",
                       what=what),
    ]


def value_block(face: Side, x: float, y: float, w: float, h: float, colour: str | None, what: str) -> list[Item]:
    """The one large element (`value`) and the neutral `other`, stacked in the box.

    When both are signed numbers the increase sits above the decrease, as on the seed's
    small cards («верхняя цифра» raises, «нижняя» lowers). The value is drawn in the asset
    colour when that reads on paper (≥ 3:1, large text); otherwise in dark ink on a bar of
    the asset colour, so the number still carries its colour.
    """
    entries = [("value", face.value), ("other", face.other)]
    entries = [(kind, text) for kind, text in entries if text]
    if len(entries) == 2 and face.other.startswith("+") and face.value[:1] in ("-", "−"):
        entries.reverse()
    if not entries:
        return []
    heights = {"value": 0.6, "other": 0.4} if len(entries) == 2 else {"value": 1.0, "other": 1.0}
    items: list[Item] = []
    cursor = y
    for kind, text in entries:
        box_h = h * heights[kind]
        if kind == "value":
            on_paper = colour is None or contrast_ratio(colour, PAPER) >= LARGE_TEXT_CONTRAST
            ink = BLACK if colour is None else colour if on_paper else ink_on(colour)
            value = fit_text(text, x + 3.0, cursor + 2.0, w - 6.0, box_h - 4.0, size=VALUE_PT,
                             min_size=LARGE_MIN_PT, font="bold", color=ink, what=what)  # fmt: skip
            if colour is not None:  # a bar of the asset colour, or paper that breaks the watermark
                x0, y0, x1, y1 = text_bounds([value])  # type: ignore[misc]
                bar = Style(fill=PAPER if on_paper else colour)
                items.append(Rect(x0 - 3.0, y0 - 1.5, x1 - x0 + 6.0, y1 - y0 + 3.0, bar, radius=2.0))
            items.append(value)
        else:
            items.append(fit_text(text, x, cursor + 1.0, w, box_h - 2.0, size=OTHER_PT, min_size=10,
                                  font="bold", color=BLACK, what=what))  # fmt: skip
        cursor += box_h
    return items


# --- backs --------------------------------------------------------------------------------


def card_back(game: Game, back: Back, card: Card, *, what: str) -> Drawing:
    """The deck's back: its pattern and colour, a panel with the title, and the same panel
    text turned 180°, so the back looks the same either way up. Light by default: the pattern
    in a tint on paper and the panel in the deck's colour ink — a back that a home printer's
    duplex misregistration cannot betray with a white sliver, and that costs little ink; dark
    backs (`print.backs: dark`) flood the card in the colour."""
    w, h, b = card.width, card.height, card.bleed
    colour = back.color
    inset_x, inset_y = max(card.safe, 6.0) + 1.5, h * 0.16
    panel = (inset_x, inset_y, w - 2 * inset_x, h - 2 * inset_y)
    whole = (-b, -b, w + 2 * b, h + 2 * b)
    if card.ink_saver or not card.dark_back:
        items: list[Item] = [pattern(back.pattern, *whole, tint(colour, 0.45), spacing=4.0, width=0.3)]
        panel_fill, ink = PAPER, colour if contrast_ratio(colour, PAPER) >= 4.5 else BLACK
    else:
        items = [Rect(*whole, Style(fill=tint(colour, 0.16))),
                 pattern(back.pattern, *whole, colour, spacing=3.6, width=0.6)]  # fmt: skip
        panel_fill, ink = colour, ink_on(colour)
    px, py, pw, ph = panel
    items += [
        Rect(px - 1.2, py - 1.2, pw + 2.4, ph + 2.4, Style(fill=PAPER), radius=3.2),
        Rect(px, py, pw, ph, Style(fill=panel_fill, stroke=colour, width=0.5), radius=2.4),
        Rect(px + 1.6, py + 1.6, pw - 3.2, ph - 3.2, Style(stroke=ink, width=0.3), radius=1.6),
    ]
    half = _back_half(back.title or game.title, back.subtitle, px + 3.5, py + 4.0, pw - 7.0, ph / 2 - 8.0, ink, what)
    ornament = symbol("diamond", w / 2, h / 2, 5.0, Style(fill=ink))
    items += [*half, half_turn(half, w / 2, h / 2), ornament]
    return Drawing(w, h, tuple(items), b)


def _back_half(title: str, subtitle: str, x: float, y: float, w: float, h: float, ink: str, what: str) -> list[Item]:
    """Title and subtitle for the upper half of the back panel (the lower half is its turn)."""
    if not subtitle:
        return [fit_text(title, x, y, w, h, size=20, min_size=9, font="bold", color=ink, what=what)]
    split = h * 0.66
    return [
        fit_text(title, x, y, w, split, size=20, min_size=9, font="bold", color=ink, valign="bottom", what=what),
        fit_line_first(subtitle, x, y + split + 0.6, w, h - split - 0.6, size=9, color=ink, valign="top", what=what),
    ]

