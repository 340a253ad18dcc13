"""Cards: every front of a deck from its expanded faces, and the deck's common back or a card's own.

A front is read at the table from three distances: across the table by its colour band and
large value, in a fanned hand by its corner index (top-left, and turned 180° bottom-right),
and up close by its name and small print. Colour is never alone: the band carries the asset's
badge (shape and pattern) and the index its code or initial. Backs are drawn so that a half
turn changes nothing, so a card held upside down gives nothing away.

Nothing here knows a game: only the face fields (`asset`, `value`, `other`, `title`,
`subtitle`, `text`, `corner`, `image`) and the deck's fields are read. The deck's `layout`
says which field goes in the band, the centre and the footer, whether the corner index shows,
and the type sizes; the index, badge and type shrink with cards smaller than poker size, and
a name too long for a small card's band is abbreviated before the build gives up. A face with
elements (`layout: free`) is drawn by them instead (`pnp.components.free`). A card's own back
is the deck's back with its own words, colours or art, or a face drawn as the fronts are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pnp import fonts
from pnp.components import Context, PieceArt, Pieces
from pnp.components.art import (
    BLACK,
    bled,
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
from pnp.components.free import free_face
from pnp.components.values import OUTLINE, PAPER, value_block
from pnp.display import ROLE_MIN_PT, Drawing, Group, Item, Rect, Style, with_role
from pnp.errors import BuildError
from pnp.layout.text import Icon, block_height, fit_name, fit_text
from pnp.spec.elements import elements_at
from pnp.spec.faces import Side, deck_pieces
from pnp.spec.images import Art
from pnp.spec.model import Asset, Back, CardLayout, Deck, Game
from pnp.spec.source import PathKey

POKER = (63.0, 88.0)  # mm: the card size the constants below are drawn for
INDEX_W, INDEX_H = 12.5, 14.0  # mm: the corner index chip on a poker card
PLAIN_TINT = 0.22  # how strong the band of a card without an asset is
PATTERN_STRIP = 3.0  # mm: the strip under the band showing an asset's pattern
ART_SHARE = 0.62  # of the centre box an illustration takes when a value shares it
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
    font: str = "regular"  # the logical fonts its texts are set in (`CardLayout.font`), and its bold
    bold: str = "bold"

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
    """Every card of the deck (entry order, copies adjacent), each with its own back or the
    deck's common one; a face with elements is laid out by them (`layout: free`)."""
    settings = context.settings
    width, height = deck.size_mm or settings.card_mm
    logos = {a.id: context.art(a.image) for a in context.game.assets if a.image}
    stock = context.stock(deck.back.color)
    font = stock.fonts[deck.card_layout.font or "regular"]
    bold = fonts.font(font).bold if deck.card_layout.font else "bold"
    card = Card(width, height, settings.bleed_mm, settings.safe_mm, settings.ink_saver, settings.backs == "dark",
                deck.card_layout, logos, context.icons(), font, bold)
    where = f"{context.game_id}/{deck.id}"
    faces: dict[Side | Back, Drawing] = {}  # copies share one drawing, and so do equal backs

    def drawn(face: Side | Back, what: str, at: PathKey) -> Drawing:
        if face not in faces:
            if isinstance(face, Back):
                art = context.art(face.image.file, face.image.bleed) if face.image else None
                faces[face] = card_back(context.game, face, card, art, what=what)
            elif face.elements:
                faces[face] = free_face(face, width, height, card.bleed, stock, what=what, at=at)
            else:
                art = context.art(face.image, face.image_bleed) if face.image else None
                faces[face] = card_front(face, card, deck.back, art, what=what)
        return faces[face]

    pieces = []
    for number, piece in enumerate(deck_pieces(context.game, deck), 1):
        front = drawn(piece.front, f"{where} card {number}", elements_at(deck, piece.entry, "front"))
        back = drawn(piece.back or deck.back, f"{where} {'card ' + str(number) + ' ' if piece.back else ''}back",
                     elements_at(deck, piece.entry, "back"))
        pieces.append(PieceArt(front, back))
    own_backs = any(entry.back is not None for entry in deck.cards)  # a back that tells a card from the rest
    return Pieces(width, height, card.bleed, tuple(pieces) * deck.copies,
                  two_sided=own_backs or backs_tell_apart(context.game, deck, settings.card_mm))


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
        items.append(bled(art, w, h, b))  # type: ignore[arg-type]  # full_art: art is not None
    items += _band(face, card, identity_colour, what)
    items += _body(face, card, art, identity_colour, full_art, what)
    return Drawing(w, h, tuple(items), b)


def _index_room(card: Card) -> float:
    """The width the corner index takes from the band and the footer, its gap included."""
    return card.index_w + 1.5 * card.scale if card.layout.corner else 0.0


def _band_colour(card: Card, asset: Asset | None, identity_colour: str) -> str:
    """Paper with the ink saver (outlines instead of fills: the band edged in the identity
    colour), a tint of it on a card of no asset, else the identity colour itself."""
    if card.ink_saver:
        return PAPER
    return tint(identity_colour, PLAIN_TINT) if asset is None else identity_colour


def _band(face: Side, card: Card, identity_colour: str, what: str) -> list[Item]:
    """The colour band across the top: the corner index (and its turned copy at the bottom
    right), the asset's badge and pattern strip, the name and subtitle between them."""
    w, h, s, b, k = card.width, card.height, card.safe, card.bleed, card.scale
    layout, asset = card.layout, face.asset
    band = _band_colour(card, asset, identity_colour)
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
        items += _titles(primary, secondary, left, s, right - left, card.band_bottom - s - 2.0 * k, ink, card, what)
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
                         on_paper=full_art, ink_saver=card.ink_saver, icons=card.icons, font=card.bold, what=what)
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
                                 min_size=least, font=card.font, color=BLACK, align="left", valign="bottom", leading=1.15, what=what,
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
                              size=18, min_size=6, font=card.bold, color=ink, what=what))  # fmt: skip
        return Group(tuple(items))
    rows = [(label, 5.2 * k, 11.0)] + ([(tag, max(3.6 * k, 2.5), 8.0)] if tag else [])
    cursor = y + pad
    for text, height, size in rows:
        items.append(fit_text(text, x + pad, cursor, index_w - 2 * pad, height, size=size, min_size=6,
                              font=card.bold, color=ink, what=what))  # fmt: skip
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


def _titles(title: str, subtitle: str, x: float, y: float, w: float, h: float, ink: str, card: Card,
            what: str) -> list[Item]:
    """The name in bold over its subtitle, both centred in the band between index and badge;
    a name too long for a small card is abbreviated rather than failing the build."""
    low, high = card.layout.band_pt
    style: dict[str, Any] = {"color": ink, "what": what, "icons": card.icons}
    if not subtitle:
        return [fit_name(title, x, y, w, h, size=high, min_size=low, font=card.bold, **style)]
    if not title:
        return [fit_text(subtitle, x, y, w, h, size=high * 0.75, min_size=6, font=card.font, **style)]
    split = h * 0.58
    return [
        fit_name(title, x, y, w, split, size=high, min_size=low, font=card.bold, valign="bottom", **style),
        fit_line_first(subtitle, x, y + split + 0.4, w, h - split - 0.4, size=max(6.0, high * 2 / 3), valign="top",
                       font=card.font, **style),
    ]


# --- backs --------------------------------------------------------------------------------


def _back_ground(back: Back, card: Card, whole: tuple[float, float, float, float]) -> tuple[list[Item], str, str]:
    """A back's ground without art, and its panel's fill and ink: nothing with the ink saver
    (the panel's frame and title tell the deck), the pattern in a tint on paper (light), or the
    card flooded in the colour (dark)."""
    colour = back.color
    if card.dark_back and not card.ink_saver:
        return ([Rect(*whole, Style(fill=tint(colour, 0.16))), pattern(back.pattern, *whole, colour, spacing=3.6, width=0.6)],
                colour, ink_on(colour))
    ground: list[Item] = [] if card.ink_saver else [pattern(back.pattern, *whole, tint(colour, 0.45), spacing=4.0, width=0.3)]
    return ground, PAPER, colour if contrast_ratio(colour, PAPER) >= 4.5 else BLACK


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
        items: list[Item] = [bled(art, w, h, b)]
        if not back.title:
            return Drawing(w, h, tuple(items), b)
        panel_fill, ink = colour, ink_on(colour)
    else:
        items, panel_fill, ink = _back_ground(back, card, whole)
    px, py, pw, ph = panel
    items += [
        Rect(px - 1.2, py - 1.2, pw + 2.4, ph + 2.4, Style(fill=PAPER), radius=3.2),
        Rect(px, py, pw, ph, Style(fill=panel_fill, stroke=colour, width=0.5), radius=2.4),
    ]
    if not card.ink_saver:  # a second, inner frame
        items.append(Rect(px + 1.6, py + 1.6, pw - 3.2, ph - 3.2, Style(stroke=ink, width=0.3), radius=1.6))
    title_pt = LOW_BACK_TITLE_PT if card.ink_saver and art is None else BACK_TITLE_PT
    half = _back_half(back.title or game.title, back.subtitle, (px + 3.5 * k, py + 4.0 * k, pw - 7.0 * k,
                      ph / 2 - 8.0 * k), ink, card, what, title_pt)
    if card.ink_saver and art is None:  # the title in outline, the small subtitle as it is
        half[0] = outlined(half[0], OUTLINE)
    ornament = symbol("diamond", w / 2, h / 2, 5.0 * k, Style(fill=ink))
    items += [*half, half_turn(half, w / 2, h / 2), ornament]
    return Drawing(w, h, tuple(items), b)


def _back_half(title: str, subtitle: str, box: tuple[float, float, float, float], ink: str, card: Card, what: str,
               size: float = 20.0) -> list[Item]:
    """Title (at most `size` pt) and subtitle for the upper half of the back panel (the lower
    half is its turn)."""
    x, y, w, h = box
    if not subtitle:
        return [fit_name(title, x, y, w, h, size=size, min_size=9, font=card.bold, color=ink, what=what)]
    split = min(h * 0.66, h - 0.6 - block_height(2, 6.0, font=card.font))  # room for two lines of subtitle on small cards
    return [
        fit_name(title, x, y, w, split, size=size, min_size=9, font=card.bold, color=ink, valign="bottom", what=what),
        fit_line_first(subtitle, x, y + split + 0.6, w, h - split - 0.6, size=9, font=card.font, color=ink,
                       valign="top", what=what),
    ]

