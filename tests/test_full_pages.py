"""Full-page pieces (aids, forms, mats) are cut on their drawing's edge: like a card's, their
text and table rules keep `print.safe_mm` inside it, never on the cut line."""

from __future__ import annotations

from functools import partial

import pytest

from pnp.components import art
from pnp.display import Line, apply
from pnp.layout.sheet import Box
from spec_text import drawn, spec_of
from test_art import text_boxes

FULL_PAGES = [("bolsa", "player_aid"), ("bolsa", "player_mats"), ("aktsioner", "penalty_aid"),
              ("aktsioner", "mail_form"), ("forex", "player_aid")]  # fmt: skip


def _within(area: Box, x: float, y: float) -> bool:
    return area.contains(Box(x, y, 0, 0))


@pytest.mark.parametrize("game, component", FULL_PAGES)
def test_no_glyph_or_rule_within_the_safe_margin(game, component):
    safe = spec_of().print.safe_mm
    for drawing in set(drawn(game, component).drawings):
        area = Box(0, 0, drawing.width, drawing.height).inset(safe)
        inside = partial(_within, area)
        boxes = text_boxes(drawing.items)
        assert boxes, "a full page with no text"
        for text, (x0, y0, x1, y1) in boxes:
            assert inside(x0, y0) and inside(x1, y1), f"{text.text!r} at {x0:.1f},{y0:.1f}–{x1:.1f},{y1:.1f}"
        for matrix, item in art.walk(drawing.items):
            if isinstance(item, Line):
                for point in ((item.x1, item.y1), (item.x2, item.y2)):
                    assert inside(*apply(matrix, point)), f"a rule reaches {apply(matrix, point)}"
