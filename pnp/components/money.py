"""Money: one bill per note of `money.bills`, per currency when `for_each: asset`.

Bills must never pass for cards, and denominations must never pass for each other in a
quick count: every denomination has its own numeral size and its own guilloche line-work, the
value sits in all four corners (a fanned stack reads from any corner). In a game with one money
each denomination also has its own colour. In a game of currencies the currency is what a bill
is first: its colour fills the ground, the line-work, the border and the corner chips, its
pattern runs down both short edges and its badge stands beside its code — the denomination's
colour is not used at all, so a green 2 can never read as the green currency. The ink saver
prints no ground and no line-work: the border, the chips' outlines and the patterned edges (on
paper) carry the colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.components import Context, PieceArt, Pieces
from pnp.components.art import (
    BLACK,
    WHITE,
    asset_badge,
    contrast_ratio,
    fit_line_first,
    guilloche,
    ink_on,
    outlined,
    pattern,
    tint,
)
from pnp.components.toner import LOW_SPACING
from pnp.display import Drawing, Item, Line, Rect, Style, safe_zone
from pnp.layout.text import block_height, fit_text, text_width
from pnp.spec.faces import fill, game_context
from pnp.spec.model import Asset, Bill, Game, Money

PAPER = WHITE
CHIP_W, CHIP_H = 0.19, 0.22  # corner chip, as fractions of the bill's width and height
NUMERAL_PT = (24.0, 40.0)  # centre numeral of the smallest and the largest denomination
EDGE = 0.075  # the currency's patterned edge, as a fraction of the bill's width


@dataclass(frozen=True)
class Note:
    """What one bill shows: its denomination, its currency (if any), the game's words."""

    bill: Bill
    numeral_pt: float  # the centre numeral's size: larger for every larger denomination
    asset: Asset | None
    currency: str  # the currency text, e.g. "GBP"; "" for a game with one money
    title: str  # the game's title
    name: str  # the component's name, printed when there is no currency
    seed: str = ""  # what the guilloche is drawn from: the game's id, the same in every language

    @property
    def label(self) -> str:
        return self.bill.label or f"{self.bill.value:g}"

    @property
    def colour(self) -> str:
        """The bill's identity colour: its currency's, else its denomination's."""
        return self.asset.color if self.asset is not None else self.bill.color


@dataclass(frozen=True)
class Stock:
    """The bill's paper: trim size, bleed and safe margin in mm, and the ink saver."""

    width: float
    height: float
    bleed: float
    safe: float
    ink_saver: bool


def money(context: Context, money: Money) -> Pieces:
    """Every bill, currency by currency, denominations in spec order, copies adjacent."""
    game, settings = context.game, context.settings
    width, height = money.size_mm
    stock = Stock(width, height, settings.bleed_mm, safe_zone(settings.safe_mm, width, height), settings.ink_saver)
    sizes = numeral_sizes(money.bills, *_numeral_room(stock, money.for_each == "asset"))
    pieces: list[PieceArt] = []
    for asset in game.assets if money.for_each == "asset" else (None,):
        currency = _currency(game, money, asset)
        for bill in money.bills:
            note = Note(bill, sizes[bill.value], asset, currency, game.title, money.name, context.game_id)
            what = f"{context.game_id}/{money.id} bill {len(pieces) + 1}"
            pieces += [PieceArt(bill_front(note, stock, what), bill_back(note, stock, what))] * bill.count
    return Pieces(width, height, stock.bleed, tuple(pieces) * money.copies)


def numeral_sizes(bills: tuple[Bill, ...], room_w: float, room_h: float) -> dict[float, float]:
    """The centre numeral's size per denomination value: spread from 24 to 40 pt by rank,
    but never larger than fits the plate, and always at least 2 pt above the next smaller
    denomination — so a larger bill always has the larger numeral."""
    labels = {bill.value: bill.label or f"{bill.value:g}" for bill in bills}
    values = sorted(labels)
    low, high = NUMERAL_PT
    sizes: dict[float, float] = {}
    ceiling = high
    for rank, value in reversed(list(enumerate(values))):
        target = low + (high - low) * rank / max(len(values) - 1, 1)
        fits = min(room_w / text_width(labels[value], "bold", 1.0), room_h / block_height(1, 1.0))
        sizes[value] = math.floor(min(target, fits, ceiling) * 2) / 2  # fit_text steps by 0.5 pt
        ceiling = sizes[value] - 2.0
    return sizes


def _numeral_room(stock: Stock, with_edges: bool) -> tuple[float, float]:
    """Width and height (mm) of the text box inside the front's numeral plate."""
    _, _, width, height = _numeral_plate(stock, *_content_x(stock, with_edges))
    return width - height * 0.6, height - 1.2


def _content_x(stock: Stock, with_edges: bool) -> tuple[float, float]:
    """The x-range for content between the border (and the currency edges, if any)."""
    inset = (stock.width * EDGE if with_edges else 0.0) + stock.safe * 0.5
    return inset + stock.safe * 0.5 + 0.3, stock.width - inset - stock.safe * 0.5 - 0.3


def _numeral_plate(stock: Stock, left: float, right: float) -> tuple[float, float, float, float]:
    """The front's numeral plate (x, y, w, h): between the corner chips, in the middle."""
    chip_w = stock.width * CHIP_W
    x = left + chip_w + 1.0
    return x, stock.height * 0.27, right - chip_w - 1.0 - x, stock.height * 0.46


def _currency(game: Game, money: Money, asset: Asset | None) -> str:
    """The currency text: `money.currency` filled for the asset (its id by default)."""
    context = game_context(game)
    if asset is not None:
        context |= {**asset.model_dump(), "asset": asset}
    if not money.currency:
        return asset.id if asset is not None else ""
    return fill(money.currency, context, "currency")


def bill_front(note: Note, stock: Stock, what: str) -> Drawing:
    """Guilloche ground, patterned currency edges, the value in four corners and large in
    the middle, the game's title above and the currency (or the money's name) below."""
    w, h, s = stock.width, stock.height, stock.safe
    items, left, right = _frame(note, stock, seed=f"{note.seed}/{note.currency}/{note.label}")
    chip_w, chip_h = w * CHIP_W, h * CHIP_H
    for x in (left, right - chip_w):
        for y in (s, h - s - chip_h):
            items += _chip(note.label, x, y, chip_w, chip_h, note.colour, stock.ink_saver, what)
    middle_x, plate_y, middle_w, plate_h = _numeral_plate(stock, left, right)
    items += _numeral(note, middle_x, plate_y, middle_w, plate_h, stock.ink_saver, what)
    items.append(fit_line_first(note.title, middle_x, s, middle_w, chip_h, size=8, min_size=6, font="bold",
                                color=BLACK, what=what))  # fmt: skip
    bottom = h - s - chip_h
    if note.asset is not None:  # badge and code side by side, centred under the numeral
        badge = min(chip_h, 5.5)
        code_w = min(text_width(note.currency, "bold", 10), middle_w - badge - 1.0)
        x = middle_x + (middle_w - badge - 1.0 - code_w) / 2
        items.append(asset_badge(note.asset, x + badge / 2, bottom + chip_h / 2, badge))
        items.append(fit_text(note.currency, x + badge + 1.0, bottom, code_w, chip_h, size=10, min_size=6,
                              font="bold", color=BLACK, align="left", what=what))  # fmt: skip
    elif note.currency or note.name:
        items.append(fit_line_first(note.currency or note.name, middle_x, bottom, middle_w, chip_h, size=8, min_size=6,
                                    font="bold" if note.currency else "regular", color=BLACK, what=what))  # fmt: skip
    return Drawing(w, h, tuple(items), stock.bleed)


def bill_back(note: Note, stock: Stock, what: str) -> Drawing:
    """The back: the same ground and edges, the game's title, the value large, the currency."""
    h, s = stock.height, stock.safe
    items, left, right = _frame(note, stock, seed=f"{note.seed}/{note.currency}/{note.label}/back")
    inner_w = right - left
    items.append(fit_line_first(note.title, left, s, inner_w, h * 0.2, size=9, min_size=6, font="bold",
                                color=BLACK, what=what))  # fmt: skip
    items += _numeral(note, left + inner_w * 0.2, h * 0.26, inner_w * 0.6, h * 0.48, stock.ink_saver, what)
    if note.currency:
        name = note.asset.name if note.asset is not None and note.asset.name != note.currency else ""
        caption = f"**{note.currency}** · {name}" if name else f"**{note.currency}**"
        items.append(fit_line_first(caption, left, h - s - h * 0.2, inner_w, h * 0.2, size=9, min_size=6,
                                    color=BLACK, what=what))  # fmt: skip
    return Drawing(stock.width, h, tuple(items), stock.bleed)


def _frame(note: Note, stock: Stock, seed: str) -> tuple[list[Item], float, float]:
    """Ground, currency edges and the border line; returns the items and the x-range left
    for the content between the edges."""
    w, h, b, s = stock.width, stock.height, stock.bleed, stock.safe
    colour = note.colour
    items: list[Item] = []
    if not stock.ink_saver:  # a pale wash and guilloche line-work, both dropped by the ink saver
        items.append(Rect(-b, -b, w + 2 * b, h + 2 * b, Style(fill=tint(colour, 0.14))))
        items.append(guilloche(-b, -b, w + 2 * b, h + 2 * b, tint(colour, 0.6), seed))
    edge = w * EDGE if note.asset is not None else 0.0
    if note.asset is not None:  # both short edges in the currency's colour and pattern
        currency = note.asset
        for x in (-b, w - edge):
            strip = (x, -b, edge + b, h + 2 * b)
            if stock.ink_saver:  # the pattern in the colour on paper, sparse, the strip's inner side ruled
                items.append(pattern(currency.pattern, *strip, currency.color, spacing=LOW_SPACING, width=0.15))
                rule = x + b if x < 0 else x
                items.append(Line(rule, -b, rule, h + b, Style(stroke=currency.color, width=0.4)))
            else:
                items.append(Rect(*strip, Style(fill=currency.color)))
                items.append(pattern(currency.pattern, *strip, ink_on(currency.color), spacing=1.6, width=0.35))
    inset = edge + s * 0.5
    items.append(Rect(inset, s * 0.5, w - 2 * inset, h - s, Style(stroke=colour, width=0.6), radius=1.5))
    return items, *_content_x(stock, note.asset is not None)


def _chip(label: str, x: float, y: float, w: float, h: float, colour: str, ink_saver: bool, what: str) -> list[Item]:
    """A corner value: black or white figures on the denomination's colour (ink saver:
    coloured or black figures on paper)."""
    if ink_saver:
        fill_colour, ink = PAPER, colour if contrast_ratio(colour, PAPER) >= 4.5 else BLACK
    else:
        fill_colour, ink = colour, ink_on(colour)
    return [
        Rect(x, y, w, h, Style(fill=fill_colour, stroke=colour, width=0.4), radius=1.2),
        fit_text(label, x + 0.5, y + 0.3, w - 1.0, h - 0.6, size=14, min_size=6, font="bold", color=ink, what=what),
    ]


def _numeral(note: Note, x: float, y: float, w: float, h: float, ink_saver: bool, what: str) -> list[Item]:
    """The value in the middle on a paper plate, at the denomination's numeral size; in the
    bill's colour where that reads on paper (≥ 3:1, large text), else black; in outline with
    the ink saver."""
    colour = note.colour
    ink = colour if contrast_ratio(colour, PAPER) >= 3.0 else BLACK
    numeral = fit_text(note.label, x + h * 0.3, y + 0.6, w - h * 0.6, h - 1.2, size=note.numeral_pt, min_size=14,
                       font="bold", color=ink, what=what)
    return [
        Rect(x, y, w, h, Style(fill=PAPER, stroke=colour, width=0.4), radius=h / 2),
        outlined(numeral, 0.3) if ink_saver else numeral,
    ]
