"""fit_text: wraps, shrinks, respects both dimensions, and fails by name instead of clipping."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.display import Group, Text
from pnp.errors import BuildError
from pnp.fonts import MM_PER_PT, font
from pnp.layout.text import block_height, fit_lines, fit_text, line_height, text_width

SENTENCE = "Compra cinco acciones de Telefónica al precio de la cotización actual"


def lines_of(group: Group) -> dict[float, list[Text]]:
    """Text items grouped by baseline, left to right."""
    lines: dict[float, list[Text]] = {}
    for item in group.items:
        assert isinstance(item, Text)
        lines.setdefault(round(item.y, 6), []).append(item)
    return dict(sorted(lines.items()))


def extent(items: list[Text]) -> tuple[float, float]:
    """Left and right edge in mm of one line, measured with the font's advance widths."""
    edges = []
    for item in items:
        width = text_width(item.text, item.font, item.size)
        left = {"start": item.x, "middle": item.x - width / 2, "end": item.x - width}[item.anchor]
        edges.append((left, left + width))
    return min(e[0] for e in edges), max(e[1] for e in edges)


def test_short_text_stays_on_one_line_at_full_size() -> None:
    group = fit_text("Bolsa", 10, 20, 40, 10, size=14)
    (item,) = group.items
    assert isinstance(item, Text)
    assert (item.text, item.size, item.anchor, item.x) == ("Bolsa", 14, "middle", 30)


def test_long_text_wraps_to_several_lines_within_the_width() -> None:
    group = fit_text(SENTENCE, 0, 0, 30, 40, size=9, min_size=9)
    lines = lines_of(group)
    assert len(lines) >= 3
    assert " ".join(" ".join(i.text for i in items) for items in lines.values()) == SENTENCE
    for items in lines.values():
        left, right = extent(items)
        assert left >= -1e-9 and right <= 30 + 1e-9


def test_text_shrinks_to_fit_a_small_box() -> None:
    fitted = fit_lines(SENTENCE, 30, 10, size=12, min_size=6)
    assert 6 <= fitted.size < 12
    assert (12 - fitted.size) % 0.5 == 0
    assert fitted.height <= 10
    # one step larger would not have fitted
    with pytest.raises(BuildError):
        fit_lines(SENTENCE, 30, 10, size=fitted.size + 0.5, min_size=fitted.size + 0.5)


def test_not_fitting_even_at_min_size_names_the_component_and_text() -> None:
    with pytest.raises(BuildError) as raised:
        fit_text(SENTENCE, 0, 0, 20, 5, size=10, min_size=8, what="bolsa/shares card 3")
    message = str(raised.value)
    assert "bolsa/shares card 3" in message and SENTENCE[:40] in message and "8 pt" in message
    assert raised.value.text == SENTENCE and len(message) < len(SENTENCE) + 150  # the text whole, for locating it


def test_a_word_wider_than_the_box_is_an_error_not_a_clip() -> None:
    with pytest.raises(BuildError, match="Telefónica.*wider than the box"):
        fit_text("Telefónica", 0, 0, 8, 50, size=10, min_size=8, what="card")


def test_words_may_break_after_slash_middle_dot_and_em_dash_when_needed() -> None:
    fitted = fit_lines("compra/venta", 15, 20, size=10, min_size=10)
    assert [line[0].text for line in fitted.lines] == ["compra/", "venta"]
    fitted = fit_lines("Bolsa·Banco—Mercado", 20, 30, size=10, min_size=10)
    assert [line[0].text for line in fitted.lines] == ["Bolsa·", "Banco—", "Mercado"]
    # but spaces are preferred: a fitting word is not broken
    assert len(fit_lines("compra/venta", 40, 20, size=10).lines) == 1


def test_newline_forces_a_break() -> None:
    fitted = fit_lines("Акционер\nTelefónica", 100, 30, size=10)
    assert [line[0].text for line in fitted.lines] == ["Акционер", "Telefónica"]


def test_bold_runs_use_the_bold_font_and_sit_side_by_side() -> None:
    group = fit_text("Pay **5 €** now", 0, 0, 60, 10, size=10, align="left")
    items = [i for i in group.items if isinstance(i, Text)]
    assert [(i.text, i.font) for i in items] == [("Pay ", "regular"), ("5 €", "bold"), (" now", "regular")]
    assert items[0].x == 0
    assert items[1].x == pytest.approx(text_width("Pay ", "regular", 10))
    assert items[2].x == pytest.approx(items[1].x + text_width("5 €", "bold", 10))
    assert text_width("Pay **5 €** now", size=10) == pytest.approx(extent(items)[1])


@pytest.mark.parametrize(
    ("align", "expected"), [("left", "start"), ("center", "middle"), ("right", "end")]
)
def test_alignment_anchors_single_run_lines(align: str, expected: str) -> None:
    (item,) = fit_text("Forex", 10, 0, 20, 10, size=10, align=align).items
    assert isinstance(item, Text)
    assert item.anchor == expected
    assert item.x == {"start": 10, "middle": 20, "end": 30}[expected]


def test_vertical_alignment_uses_ascent_and_descent() -> None:
    ascent = font("regular").ascent * 10 * MM_PER_PT
    descent = font("regular").descent * 10 * MM_PER_PT
    (top,) = fit_text("Ñ", 0, 5, 20, 20, size=10, valign="top").items
    (bottom,) = fit_text("Ñ", 0, 5, 20, 20, size=10, valign="bottom").items
    (middle,) = fit_text("Ñ", 0, 5, 20, 20, size=10, valign="middle").items
    assert top.y == pytest.approx(5 + ascent)
    assert bottom.y == pytest.approx(25 - descent)
    assert middle.y == pytest.approx((top.y + bottom.y) / 2)


def test_height_counts_every_line() -> None:
    assert block_height(1, 10) == pytest.approx((font("regular").ascent + font("regular").descent) * 10 * MM_PER_PT)
    assert block_height(3, 10) - block_height(1, 10) == pytest.approx(2 * line_height(10))
    assert line_height(10, 1.5) == pytest.approx(15 * 25.4 / 72)


def test_missing_glyph_is_an_error_naming_the_character() -> None:
    with pytest.raises(BuildError) as raised:
        fit_text("Yen 漢", 0, 0, 50, 10, size=10, what="forex/money")
    assert "forex/money" in str(raised.value) and "U+6F22" in str(raised.value)
    with pytest.raises(BuildError) as raised:
        fit_text("Clef **𝄞**", 0, 0, 50, 10, size=10)
    assert "U+1D11E" in str(raised.value) and "'Clef **𝄞**'" in str(raised.value)


def test_empty_text_draws_nothing() -> None:
    assert fit_text("  ", 0, 0, 1, 1, size=10).items == ()


WORDS = st.sampled_from(
    ["Bolsa", "Акционер", "Telefónica", "€", "100", "½", "compra/venta", "**bold**", "a", "ÁÉÍ"]
)


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(WORDS, min_size=1, max_size=25),
    w=st.floats(20, 80),
    h=st.floats(8, 60),
    size=st.sampled_from([8.0, 10.0, 14.0]),
    align=st.sampled_from(["left", "center", "right"]),
    valign=st.sampled_from(["top", "middle", "bottom"]),
)
def test_fitted_text_always_stays_inside_its_box(words, w, h, size, align, valign) -> None:
    text = " ".join(words)
    try:
        group = fit_text(text, 3, 4, w, h, size=size, align=align, valign=valign)
    except BuildError as error:
        assert "does not fit" in str(error)
        return
    ascent = font("regular").ascent
    descent = font("regular").descent
    lines = lines_of(group)
    for baseline, items in lines.items():
        left, right = extent(items)
        assert left >= 3 - 1e-6 and right <= 3 + w + 1e-6
        item_size = items[0].size
        assert baseline - ascent * item_size * MM_PER_PT >= 4 - 1e-6
        assert baseline + descent * item_size * MM_PER_PT <= 4 + h + 1e-6
    assert "".join(i.text for i in group.items).replace(" ", "") == text.replace("**", "").replace(" ", "")
