"""The one large element of a card's face: its value, and the neutral `other` beside it.

Read across the table, the value is a card's largest type, in its asset's colour where that
colour reads on paper and in dark ink on a bar of the colour where it does not, so the number
always carries its colour; the ink saver outlines it. The kinds' card layout and a free layout's
`value` element draw it alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from pnp.components.art import BLACK, WHITE, contrast_ratio, ink_on, outlined, text_bounds
from pnp.display import Item, Rect, Style
from pnp.layout.text import Icon, fit_text

PAPER = WHITE  # cards are printed on white stock
LARGE_TEXT_CONTRAST = 3.0  # WCAG AA for large text (≥ 14 pt bold)
OTHER_PT = 24.0
OUTLINE = 0.3  # mm: the ink saver's outlined large type


def value_block(value: str, other: str, x: float, y: float, w: float, h: float, colour: str | None,
                sizes: tuple[float, float], *, on_paper: bool = False, ink_saver: bool = False,
                icons: Mapping[str, Icon] | None = None, font: str = "bold", what: str) -> list[Item]:
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
    style = _ValueStyle(sizes, on_paper, ink_saver, icons, what, font)
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
    font: str = "bold"  # the value's (a free layout's value may name the game's)


def _bar(colour: str | None, readable: bool, style: _ValueStyle) -> Style | None:
    """The bar behind a large value: with the ink saver, an outline where the colour does not
    read on paper (else none); otherwise a bar of the colour, or paper that breaks the watermark
    where the value reads on paper or lies on art."""
    if style.ink_saver and not style.on_paper:
        return None if readable else Style(stroke=colour, width=0.8)
    if colour is not None or style.on_paper:
        return Style(fill=PAPER if readable else colour)
    return None


def _large_value(text: str, box: tuple[float, float, float, float], colour: str | None,
                 style: _ValueStyle) -> list[Item]:
    """The value in its colour when that reads on paper, else in ink on a bar of the colour (an
    outlined bar with the ink saver); on art, on a plate of paper."""
    x, y, w, h = box
    low, high = style.sizes
    readable = colour is None or contrast_ratio(colour, PAPER) >= LARGE_TEXT_CONTRAST
    ink = BLACK if colour is None else colour if readable else BLACK if style.ink_saver else ink_on(colour)
    large = fit_text(text, x + 3.0, y + 2.0, w - 6.0, h - 4.0, size=high, min_size=low,
                     font=style.font, color=ink, what=style.what, icons=style.icons)  # fmt: skip
    bar = _bar(colour, readable, style)
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
                     font=style.font, color=BLACK, what=style.what, icons=style.icons)  # fmt: skip
    items: list[Item] = []
    if style.on_paper:
        x0, y0, x1, y1 = text_bounds([plain])  # type: ignore[misc]  # a text item has bounds
        items.append(Rect(x0 - 2.0, y0 - 1.0, x1 - x0 + 4.0, y1 - y0 + 2.0, Style(fill=PAPER), radius=1.5))
    items.append(outlined(plain, OUTLINE) if style.ink_saver else plain)
    return items
