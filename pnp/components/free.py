"""Free layout: a face's elements drawn where the spec puts them (`layout: free`), in millimetres.

A designer who lays out cards in Squib or nanDECK places each thing in a box on the card: a
text, the large value, a picture, a shape, a symbol. Here each element's box is exactly the
one written (`at`, `size`, from the trim's top-left corner), so what the spec says is what the
sheet measures; inside its box a text is still fitted from the font's metrics — wrapped, then
shrunk down to its smallest size — and a text that cannot fit stops the build at its element,
never clipped. Elements are drawn in list order, the first under the rest; a turned element
(`turn`) is laid out in its box turned, the box keeping its place. Colours may name the face's
asset (`asset`): its colour, or the deck's back's on a plain card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from pnp.components.art import BLACK, identity, picture, symbol
from pnp.components.values import value_block
from pnp.display import Circle, Drawing, Group, Item, Line, Rect, Style, rotate
from pnp.errors import BuildError
from pnp.layout.text import Icon, fit_text
from pnp.spec.faces import Side
from pnp.spec.images import Art
from pnp.spec.model import ASSET_INK, Element
from pnp.spec.source import PathKey

TEXT_PT, VALUE_PT = (6.0, 10.0), (14.0, 44.0)  # [smallest, largest] when an element gives no `pt`


@dataclass(frozen=True)
class Stock:
    """What a free face's elements are drawn with: the game's fonts by name (→ logical fonts),
    its images, its icons for `:ID:` in text, the assets' logos, the colour `asset` names on a
    face without one, and how errors name the face and place it in the spec."""

    fonts: Mapping[str, str]
    art: Callable[[str, str], Art]  # (file, bleed) → the checked image
    identity: str  # the colour `asset` names on a face without an asset
    icons: Mapping[str, Icon] = field(default_factory=dict)
    logos: Mapping[str, Art] = field(default_factory=dict)
    ink_saver: bool = False


def free_face(face: Side, width: float, height: float, bleed: float, stock: Stock, *, what: str,
              at: PathKey = ()) -> Drawing:
    """The face's elements, each in its box, as one drawing of the piece's size; a `BuildError`
    at the element at fault (`at`: where the elements are written, in the component)."""
    items: list[Item] = []
    for index, element in enumerate(face.elements):
        here = at + ("elements", index, element.kind)
        try:
            items += _element(element, face, stock, f"{what} element {index + 1}")
        except BuildError as error:
            raise BuildError(str(error), text=error.text, at=here) from None
    return Drawing(width, height, tuple(items), bleed)


def _element(element: Element, face: Side, stock: Stock, what: str) -> list[Item]:
    (x, y), (w, h) = element.at, element.size
    kind = element.kind
    if kind == "shape":
        return [_shape(element, x, y, w, h, face, stock)]
    if kind == "symbol":
        return [_symbol(element, x + w / 2, y + h / 2, min(w, h), face, stock, what)]
    if element.turn in (90, 270):  # laid out across the turned box: its width is the box's height
        x, y, w, h = x + (w - h) / 2, y + (h - w) / 2, h, w
    items = _boxed(element, x, y, w, h, face, stock, what)
    if element.turn:
        (x0, y0), (w0, h0) = element.at, element.size
        return [Group(tuple(items), rotate(element.turn, x0 + w0 / 2, y0 + h0 / 2))]
    return items


def _boxed(element: Element, x: float, y: float, w: float, h: float, face: Side, stock: Stock,
           what: str) -> list[Item]:
    """An image, text or value element drawn in its box (as laid out before it turns)."""
    if element.kind == "image":
        return [picture(stock.art(element.image or "", "cover"), x, y, w, h, cover=element.fit == "cover")]
    if element.kind == "text":
        low, high = element.pt or TEXT_PT
        return [fit_text(element.text or "", x, y, w, h, size=high, min_size=low, font=_font(element, stock, "regular"),
                         color=_ink(element.color, face, stock) or BLACK, align=element.align, valign=element.valign,
                         what=what, icons=stock.icons)]
    colour = _ink(element.color, face, stock) or (face.asset.color if face.asset else None)
    return value_block(element.value or "", "", x, y, w, h, colour, element.pt or VALUE_PT,
                       ink_saver=stock.ink_saver, icons=stock.icons, font=_font(element, stock, "bold"), what=what)


def _shape(element: Element, x: float, y: float, w: float, h: float, face: Side, stock: Stock) -> Item:
    fill = _ink(element.fill, face, stock)
    stroke = _ink(element.stroke, face, stock) or (BLACK if fill is None or element.shape == "line" else None)
    style = Style(fill=fill, stroke=stroke if element.stroke_mm > 0 else None, width=element.stroke_mm)
    if element.shape == "line":
        return Line(x, y, x + w, y + h, style)
    if element.shape == "circle":
        return Circle(x + w / 2, y + h / 2, min(w, h) / 2, style)
    return Rect(x, y, w, h, style, radius=min(element.radius_mm, w / 2, h / 2) if element.shape == "rounded" else 0.0)


def _symbol(element: Element, cx: float, cy: float, size: float, face: Side, stock: Stock, what: str) -> Item:
    """A symbol in the element's colours, or (`symbol: asset`) the face's asset's badge or logo."""
    if element.symbol == ASSET_INK:
        if face.asset is None:
            raise BuildError(f"{what}: `symbol: asset` on a face with no asset; name a symbol, or give the card an "
                             "`asset`")
        return identity(face.asset, stock.logos.get(face.asset.id), cx, cy, size)
    fill = _ink(element.fill, face, stock) or (face.asset.color if face.asset else stock.identity)
    stroke = _ink(element.stroke, face, stock)
    style = Style(fill=fill, stroke=stroke if element.stroke_mm > 0 else None, width=element.stroke_mm)
    return symbol(element.symbol or "circle", cx, cy, size, style)


def _ink(colour: str | None, face: Side, stock: Stock) -> str | None:
    """A colour an element names: as written, or `asset`: the face's asset's (else the stock's)."""
    if colour != ASSET_INK:
        return colour
    return face.asset.color if face.asset is not None else stock.identity


def _font(element: Element, stock: Stock, default: str) -> str:
    """The logical font of a text or value element (its `font` is checked against the game's)."""
    name = element.font or default
    try:
        return stock.fonts[name]
    except KeyError:
        raise BuildError(f"unknown font {name!r} (known: {', '.join(stock.fonts)})") from None
