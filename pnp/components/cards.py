"""Cards: every front of a deck from its expanded faces, and the deck's one common back.

A front is read at the table from three distances: across the table by its colour band and
large value, in a fanned hand by its corner index (top-left, and turned 180° bottom-right),
and up close by its name and small print. Colour is never alone: the band carries the asset's
badge (shape and pattern) and the index its code or initial. Backs are drawn so that a half
turn changes nothing, so a card held upside down gives nothing away.

Nothing here knows a game: only the face fields (`asset`, `value`, `other`, `title`,
`subtitle`, `text`, `corner`, `image`) and the deck's fields are read. The deck's `layout`
says which field goes in the band, the centre and the footer, whether the corner index shows,
and the type sizes; the index, badge and type shrink with cards smaller than poker size, and
a name too long for a small card's band is abbreviated before the build gives up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pnp.components import Context, PieceArt, Pieces
from pnp.components.art import (
    BLACK,
    WHITE,
    contrast_ratio,
    fit_line_first,
    half_turn,
    identity,
    ink_on,
    outlined,
    pattern,
    picture,
    symbol,
    text_bounds,
    tint,
)
from pnp.display import ROLE_MIN_PT, Drawing, Group, Item, Rect, Style, with_role
from pnp.errors import BuildError
from pnp.layout.text import Icon, block_height, fit_name, fit_text
from pnp.spec.faces import Side, deck_pieces
from pnp.spec.images import Art
from pnp.spec.model import Asset, Back, CardLayout, Deck, Game

PAPER = WHITE  # cards are printed on white stock; light backgrounds save ink
LARGE_TEXT_CONTRAST = 3.0  # WCAG AA for large text (≥ 14 pt bold)
POKER = (63.0, 88.0)  # mm: the card size the constants below are drawn for
INDEX_W, INDEX_H = 12.5, 14.0  # mm: the corner index chip on a poker card
OTHER_PT = 24.0
PLAIN_TINT = 0.22  # how strong the band of a card without an asset is
PATTERN_STRIP = 3.0  # mm: the strip under the band showing an asset's pattern
ART_SHARE = 0.62  # of the centre box an illustration takes when a value shares it
OUTLINE = 0.3  # mm: the ink saver's outlined large type
BACK_TITLE_PT, LOW_BACK_TITLE_PT = 20.0, 15.0  # a back's title at most: normal, and in the ink saver's outline


@dataclass(frozen=True)
class Card:
    """The geometry and layout every face of a deck shares (mm), and the assets' logos."""

    width: float
    height: float
    bleed: float
    safe: float
    ink_saver: bool
    dark_back: bool = False
    layout: CardLayout = CardLayout()
    logos: Mapping[str, Art] = field(default_factory=dict, compare=False)  # asset id → logo
    icons: Mapping[str, Icon] = field(default_factory=dict, compare=False)  # what `:ID:` draws in text

    @property
    def scale(self) -> float:
        """1 on poker cards and larger; less on smaller cards (0.7 on a 44 × 63 mm mini card)."""
        return min(1.0, self.width / POKER[0], self.height / POKER[1])

    @property
    def index_w(self) -> float:
        return INDEX_W * self.scale

    @property
    def index_h(self) -> float:
        return INDEX_H * self.scale

    @property
    def band_bottom(self) -> float:
        """Lower edge of the colour band: it holds the index chip with some air below."""
        return self.safe + self.index_h + 1.5 * self.scale


def deck(context: Context, deck: Deck) -> Pieces:
    """Every card of the deck (entry order, copies adjacent) with the deck's common back."""
    settings = context.settings
    width, height = deck.size_mm or settings.card_mm
    logos = {a.id: context.art(a.image) for a in context.game.assets if a.image}
    card = Card(width, height, settings.bleed_mm, settings.safe_mm, settings.ink_saver, settings.backs == "dark",
                deck.layout, logos, context.icons())
    where = f"{context.game_id}/{deck.id}"
    back_art = context.art(deck.back.image) if deck.back.image else None
    back = card_back(context.game, deck.back, card, back_art, what=f"{where} back")
    fronts: dict[Side, Drawing] = {}  # copies share one drawing
    pieces = []
    for number, piece in enumerate(deck_pieces(context.game, deck), 1):
        if piece.front not in fronts:
            art = context.art(piece.front.image) if piece.front.image else None
            fronts[piece.front] = card_front(piece.front, card, deck.back, art, what=f"{where} card {number}")
        pieces.append(PieceArt(fronts[piece.front], back))
    return Pieces(width, height, card.bleed, tuple(pieces) * deck.copies,
                  two_sided=backs_tell_apart(context.game, deck, settings.card_mm))


def backs_tell_apart(game: Game, deck: Deck, card_mm: tuple[float, float]) -> bool:
    """Whether the deck's back is how players tell it from another deck of the game: one of the
    same size with another back (Акционер's big and small cards, AKT-1.9). Such a back must
    print even without a duplex printer (folded over), like a token's "+20" side."""
    size = tuple(deck.size_mm or card_mm)
    return any(other is not deck and other.kind == "deck" and tuple(other.size_mm or card_mm) == size
               and other.back != deck.back for other in game.components)


# --- fronts -------------------------------------------------------------------------------


def card_front(face: Side, card: Card, back: Back, art: Art | None = None, *, what: str) -> Drawing:
    """One front: colour band with index, name and badge (or logo); the large value, with the
    illustration if there is one; small print."""
    w, h, b = card.width, card.height, card.bleed
    identity_colour = face.asset.color if face.asset else back.color  # an asset's colour, else the deck's
    full_art = art is not None and card.layout.art == "full"
    items: list[Item] = []
    if full_art:  # art to the bleed, under everything
        items.append(picture(art, -b, -b, w + 2 * b, h + 2 * b, cover=True))  # type: ignore[arg-type]  # full_art: art is not None
    items += _band(face, card, identity_colour, what)
    items += _body(face, card, art, identity_colour, full_art, what)
    return Drawing(w, h, tuple(items), b)


def _index_room(card: Card) -> float:
    """The width the corner index takes from the band and the footer, its gap included."""
    return card.index_w + 1.5 * card.scale if card.layout.corner else 0.0


def _band(face: Side, card: Card, identity_colour: str, what: str) -> list[Item]:
    """The colour band across the top: the corner index (and its turned copy at the bottom
    right), the asset's badge and pattern strip, the name and subtitle between them."""
    w, h, s, b, k = card.width, card.height, card.safe, card.bleed, card.scale
    layout, asset = card.layout, face.asset
    if card.ink_saver:  # outlines instead of fills: the band is paper, edged in the identity colour
        band = PAPER
    else:
        band = tint(identity_colour, PLAIN_TINT) if asset is None else identity_colour
    ink = ink_on(band)
    items: list[Item] = [Rect(-b, -b, w + 2 * b, card.band_bottom + b, Style(fill=band))]
    if band != identity_colour:  # a light band keeps a solid edge of the identity colour (a hairline's worth with the ink saver)
        edge = 0.5 if card.ink_saver else 1.0
        items.append(Rect(-b, card.band_bottom - edge, w + 2 * b, edge, Style(fill=identity_colour)))
    if layout.corner:
        index = corner_index(face, card, band, ink, identity_colour if card.ink_saver else None, what=what)
        items += [index, half_turn([index], w / 2, h / 2)]
    if asset:
        logo = card.logos.get(asset.id)
        items += _badge_plate(asset, logo, w - s - card.index_w, s, card.index_w, card.index_h)
        if asset.pattern != "none":  # a currency's pattern also runs along the band's edge
            strip = (-b, card.band_bottom, w + 2 * b, PATTERN_STRIP * k)
            items.append(pattern(asset.pattern, *strip, identity_colour, spacing=1.6))
    left = s + _index_room(card)
    right = w - s - card.index_w - 1.5 * k  # the badge's place, kept free on plain cards for balance
    primary = _field(face, layout.band)
    secondary = face.subtitle if layout.band != "subtitle" else ""
    if primary or secondary:
        items += _titles(primary, secondary, left, s, right - left, card.band_bottom - s - 2.0 * k, ink,
                         layout.band_pt, card.icons, what)
    return items


def _body(face: Side, card: Card, art: Art | None, identity_colour: str, full_art: bool, what: str) -> list[Item]:
    """Below the band: the small print at the foot, then the centre between — the illustration
    (unless it fills the card) over the value, or a lone value framed by the asset's symbol."""
    w, h, s, k = card.width, card.height, card.safe, card.scale
    layout, asset = card.layout, face.asset
    items: list[Item] = []
    top = card.band_bottom + PATTERN_STRIP * k + 1.5 * k
    footer, footer_h = _field(face, layout.footer), card.index_h
    if footer:  # small print first: on a small card it may take room from the centre
        small, footer_h = _small_print(footer, card, top, _index_room(card), what)
        if full_art:  # small print on art gets paper under it
            x0, y0, x1, y1 = text_bounds([small])  # type: ignore[misc]  # a text item has bounds
            items.append(Rect(x0 - 1.0, y0 - 0.8, x1 - x0 + 2.0, y1 - y0 + 1.6, Style(fill=PAPER), radius=1.0))
        items.append(small)
    bottom = h - s - (footer_h + 2.0 * k if layout.corner or footer else 0.0)
    value = _field(face, layout.centre)
    if art is not None and not full_art:  # the illustration takes the centre, the value beneath it
        share = ART_SHARE if value or face.other else 1.0
        items.append(picture(art, s, top, w - 2 * s, (bottom - top) * share))
        top += (bottom - top) * share
    elif asset and not face.other and not full_art and not card.ink_saver:  # a large outline frames a lone value
        mark, faint = min(w - 2 * s, bottom - top) * 0.92, Style(stroke=tint(identity_colour, 0.28), width=1.0)
        items.append(symbol(asset.symbol, w / 2, (top + bottom) / 2, mark, faint))
    colour = identity_colour if asset else None
    items += value_block(value, face.other, s, top, w - 2 * s, bottom - top, colour, layout.centre_pt,
                         on_paper=full_art, ink_saver=card.ink_saver, icons=card.icons, what=what)
    return items


def _small_print(text: str, card: Card, top: float, index_room: float, what: str) -> tuple[Item, float]:
    """The footer beside the turned index, as tall as the index; taller (up to half the card
    below the band) when the text needs it to keep the size of body text, else at the layout's
    smallest; and its height. A footer the layout marks as small print (`small_print`: credits,
    a copyright line) is fitted down to its smallest at once, and marked so (`Text.role`)."""
    s, k, sizes = card.safe, card.scale, card.layout.footer_pt
    width, most = card.width - 2 * s - index_room, (card.height - s - top) / 2
    body = ROLE_MIN_PT["body"]
    tries = (body, sizes[0]) if sizes[0] < body <= sizes[1] and not card.layout.small_print else (sizes[0],)
    for least in tries:
        height = card.index_h
        while True:
            try:
                small = fit_text(text, s, card.height - s - height, width, height, size=sizes[1],
                                 min_size=least, color=BLACK, align="left", valign="bottom", leading=1.15, what=what,
                                 icons=card.icons)
                return (with_role(small, "small") if card.layout.small_print else small), height
            except BuildError:
                if height >= most:
                    if least == tries[-1]:
                        raise
                    break
                height = min(most, height + 1.5 * k)
    raise AssertionError("unreachable: the last try raises")


def _field(face: Side, name: str) -> str:
    """The text of the face field a layout slot names ("none": nothing)."""
    return "" if name == "none" else getattr(face, name)


def corner_index(face: Side, card: Card, fill: str, ink: str, edge: str | None = None, *, what: str) -> Item:
    """The top-left index: the corner text, the asset's initial or code when the text lacks
    it, and the asset's symbol, on a chip of the band colour (so the bottom-right copy,
    turned 180°, sits on white paper as a coloured tab); the ink saver's chip is paper with
    an `edge` of the identity colour."""
    s, k, index_w, index_h = card.safe, card.scale, card.index_w, card.index_h
    x, y, pad = s, s, 0.6 * k
    chip = Style(fill=fill, stroke=edge, width=0.4 * k) if edge else Style(fill=fill)
    items: list[Item] = [Rect(x, y, index_w, index_h, chip, radius=1.2 * k)]
    asset = face.asset
    label, tag = face.corner, (asset.initial or asset.id) if asset else ""
    if not label:
        label, tag = tag, ""
    elif tag.casefold() in label.casefold():
        tag = ""  # "IBE" already names its company
    if asset is None:
        items.append(fit_text(label, x + pad, y + pad, index_w - 2 * pad, index_h - 2 * pad,
                              size=18, min_size=6, font="bold", color=ink, what=what))  # fmt: skip
        return Group(tuple(items))
    rows = [(label, 5.2 * k, 11.0)] + ([(tag, max(3.6 * k, 2.5), 8.0)] if tag else [])
    cursor = y + pad
    for text, height, size in rows:
        items.append(fit_text(text, x + pad, cursor, index_w - 2 * pad, height, size=size, min_size=6,
                              font="bold", color=ink, what=what))  # fmt: skip
        cursor += height
    room = y + index_h - pad - cursor
    items.append(symbol(asset.symbol, x + index_w / 2, cursor + room / 2, min(4.0 * k, room), Style(fill=ink)))
    return Group(tuple(items))


def _badge_plate(asset: Asset, logo: Art | None, x: float, y: float, w: float, h: float) -> list[Item]:
    """The asset's badge (or logo) on a paper-white plate, so its own colours show on the band."""
    size = min(w, h) - 3.0 * min(w / INDEX_W, 1.0)
    return [
        Rect(x + (w - size) / 2 - 1.0, y + (h - size) / 2 - 1.0, size + 2.0, size + 2.0, Style(fill=PAPER), radius=1.5),
        identity(asset, logo, x + w / 2, y + h / 2, size - 1.2),
    ]


def _titles(title: str, subtitle: str, x: float, y: float, w: float, h: float, ink: str,
            sizes: tuple[float, float], icons: Mapping[str, Icon], what: str) -> list[Item]:
    """The name in bold over its subtitle, both centred in the band between index and badge;
    a name too long for a small card is abbreviated rather than failing the build."""
    low, high = sizes
    style: dict[str, Any] = {"color": ink, "what": what, "icons": icons}
    if not subtitle:
        return [fit_name(title, x, y, w, h, size=high, min_size=low, font="bold", **style)]
    if not title:
        return [fit_text(subtitle, x, y, w, h, size=high * 0.75, min_size=6, **style)]
    split = h * 0.58
    return [
        fit_name(title, x, y, w, split, size=high, min_size=low, font="bold", valign="bottom", **style),
        fit_line_first(subtitle, x, y + split + 0.4, w, h - split - 0.4, size=max(6.0, high * 2 / 3), valign="top",
                       **style),
    ]


def value_block(value: str, other: str, x: float, y: float, w: float, h: float, colour: str | None,
                sizes: tuple[float, float], *, on_paper: bool = False, ink_saver: bool = False,
                icons: Mapping[str, Icon] | None = None, what: str) -> list[Item]:
    """The one large element (`value`) and the neutral `other`, stacked in the box.

    When both are signed numbers the increase sits above the decrease, as on the seed's
    small cards («верхняя цифра» raises, «нижняя» lowers). The value is drawn in the asset
    colour when that reads on paper (≥ 3:1, large text); otherwise in dark ink on a bar of
    the asset colour, so the number still carries its colour. With `on_paper` (art behind the
    card) every number gets a plate of paper. The ink saver draws a colour that does not read
    on paper as an outlined bar round a black number, and needs no plate under a readable one.
    """
    entries = [("value", value), ("other", other)]
    entries = [(kind, text) for kind, text in entries if text]
    if len(entries) == 2 and other.startswith("+") and value[:1] in ("-", "−"):
        entries.reverse()
    if not entries:
        return []
    heights = {"value": 0.6, "other": 0.4} if len(entries) == 2 else {"value": 1.0, "other": 1.0}
    items: list[Item] = []
    style = _ValueStyle(sizes, on_paper, ink_saver, icons, what)
    cursor = y
    for kind, text in entries:
        box = (x, cursor, w, h * heights[kind])
        items += _large_value(text, box, colour, style) if kind == "value" else _other_value(text, box, style)
        cursor += box[3]
    return items


@dataclass(frozen=True)
class _ValueStyle:
    """What the value and `other` of one card share: the type sizes, art behind, the ink saver."""

    sizes: tuple[float, float]
    on_paper: bool
    ink_saver: bool
    icons: Mapping[str, Icon] | None
    what: str


def _large_value(text: str, box: tuple[float, float, float, float], colour: str | None,
                 style: _ValueStyle) -> list[Item]:
    """The value in its colour when that reads on paper, else in ink on a bar of the colour (an
    outlined bar with the ink saver); on art, on a plate of paper."""
    x, y, w, h = box
    low, high = style.sizes
    readable = colour is None or contrast_ratio(colour, PAPER) >= LARGE_TEXT_CONTRAST
    ink = BLACK if colour is None else colour if readable else BLACK if style.ink_saver else ink_on(colour)
    large = fit_text(text, x + 3.0, y + 2.0, w - 6.0, h - 4.0, size=high, min_size=low,
                     font="bold", color=ink, what=style.what, icons=style.icons)  # fmt: skip
    bar = None
    if style.ink_saver and not style.on_paper:
        bar = None if readable else Style(stroke=colour, width=0.8)
    elif colour is not None or style.on_paper:  # a bar of the asset colour, or paper that breaks the watermark
        bar = Style(fill=PAPER if readable else colour)
    items: list[Item] = []
    if bar is not None:
        x0, y0, x1, y1 = text_bounds([large])  # type: ignore[misc]  # a text item has bounds
        items.append(Rect(x0 - 3.0, y0 - 1.5, x1 - x0 + 6.0, y1 - y0 + 3.0, bar, radius=2.0))
    items.append(outlined(large, OUTLINE) if style.ink_saver else large)
    return items


def _other_value(text: str, box: tuple[float, float, float, float], style: _ValueStyle) -> list[Item]:
    """The neutral `other` in black bold, smaller than the value; on art, on a plate of paper."""
    x, y, w, h = box
    low, high = style.sizes
    plain = fit_text(text, x, y + 1.0, w, h - 2.0, size=min(OTHER_PT, high), min_size=min(10, low),
                     font="bold", color=BLACK, what=style.what, icons=style.icons)  # fmt: skip
    items: list[Item] = []
    if style.on_paper:
        x0, y0, x1, y1 = text_bounds([plain])  # type: ignore[misc]  # a text item has bounds
        items.append(Rect(x0 - 2.0, y0 - 1.0, x1 - x0 + 4.0, y1 - y0 + 2.0, Style(fill=PAPER), radius=1.5))
    items.append(outlined(plain, OUTLINE) if style.ink_saver else plain)
    return items


# --- backs --------------------------------------------------------------------------------


def card_back(game: Game, back: Back, card: Card, art: Art | None = None, *, what: str) -> Drawing:
    """The deck's back: its pattern and colour, a panel with the title, and the same panel
    text turned 180°, so the back looks the same either way up. Light by default: the pattern
    in a tint on paper and the panel in the deck's colour ink — a back that a home printer's
    duplex misregistration cannot betray with a white sliver, and that costs little ink; dark
    backs (`print.backs: dark`) flood the card in the colour. A back with an image prints it to
    the bleed, with the panel on top only when the back names a title."""
    w, h, b = card.width, card.height, card.bleed
    colour = back.color
    k = card.scale
    inset_x, inset_y = max(card.safe, 6.0 * k) + 1.5 * k, h * 0.16
    panel = (inset_x, inset_y, w - 2 * inset_x, h - 2 * inset_y)
    whole = (-b, -b, w + 2 * b, h + 2 * b)
    if art is not None:
        items: list[Item] = [picture(art, *whole, cover=True)]
        if not back.title:
            return Drawing(w, h, tuple(items), b)
        panel_fill, ink = colour, ink_on(colour)
    elif card.ink_saver:  # no pattern: the panel's frame and title tell the deck
        items = []
        panel_fill, ink = PAPER, colour if contrast_ratio(colour, PAPER) >= 4.5 else BLACK
    elif not card.dark_back:
        items = [pattern(back.pattern, *whole, tint(colour, 0.45), spacing=4.0, width=0.3)]
        panel_fill, ink = PAPER, colour if contrast_ratio(colour, PAPER) >= 4.5 else BLACK
    else:
        items = [Rect(*whole, Style(fill=tint(colour, 0.16))),
                 pattern(back.pattern, *whole, colour, spacing=3.6, width=0.6)]  # fmt: skip
        panel_fill, ink = colour, ink_on(colour)
    px, py, pw, ph = panel
    items += [
        Rect(px - 1.2, py - 1.2, pw + 2.4, ph + 2.4, Style(fill=PAPER), radius=3.2),
        Rect(px, py, pw, ph, Style(fill=panel_fill, stroke=colour, width=0.5), radius=2.4),
    ]
    if not card.ink_saver:  # a second, inner frame
        items.append(Rect(px + 1.6, py + 1.6, pw - 3.2, ph - 3.2, Style(stroke=ink, width=0.3), radius=1.6))
    title_pt = LOW_BACK_TITLE_PT if card.ink_saver and art is None else BACK_TITLE_PT
    half = _back_half(back.title or game.title, back.subtitle, px + 3.5 * k, py + 4.0 * k, pw - 7.0 * k,
                      ph / 2 - 8.0 * k, ink, what, title_pt)
    if card.ink_saver and art is None:  # the title in outline, the small subtitle as it is
        half[0] = outlined(half[0], OUTLINE)
    ornament = symbol("diamond", w / 2, h / 2, 5.0 * k, Style(fill=ink))
    items += [*half, half_turn(half, w / 2, h / 2), ornament]
    return Drawing(w, h, tuple(items), b)


def _back_half(title: str, subtitle: str, x: float, y: float, w: float, h: float, ink: str, what: str,
               size: float = 20.0) -> list[Item]:
    """Title (at most `size` pt) and subtitle for the upper half of the back panel (the lower
    half is its turn)."""
    if not subtitle:
        return [fit_name(title, x, y, w, h, size=size, min_size=9, font="bold", color=ink, what=what)]
    split = min(h * 0.66, h - 0.6 - block_height(2, 6.0))  # room for two lines of subtitle on small cards
    return [
        fit_name(title, x, y, w, split, size=size, min_size=9, font="bold", color=ink, valign="bottom", what=what),
        fit_line_first(subtitle, x, y + split + 0.6, w, h - split - 0.6, size=9, color=ink, valign="top", what=what),
    ]

