"""The bundled fonts: found as package data, cover the scripts the games print, measure right."""

from __future__ import annotations

import pytest

from pnp import fonts
from pnp.errors import BuildError
from pnp.render.embed import register_reportlab

GAME_TEXT = "Акционер Telefónica año ÁÉÑÓ × ÷ − → € £ ¥ $ ₽ ½ ·—"


@pytest.mark.parametrize("name", ["regular", "bold"])
def test_fonts_are_package_data_and_truetype(name: str) -> None:
    data = fonts.font_bytes(name)
    assert data[:4] == b"\x00\x01\x00\x00"  # TrueType outlines
    assert len(data) > 100_000


@pytest.mark.parametrize("name", ["regular", "bold"])
def test_fonts_cover_accents_cyrillic_and_symbols(name: str) -> None:
    assert fonts.missing_glyphs(GAME_TEXT, name) == ()


def test_missing_glyph_names_text_and_code_point() -> None:
    assert fonts.missing_glyphs("a漢b𝄞漢", "regular") == ("漢", "𝄞")
    with pytest.raises(BuildError) as raised:
        fonts.check_glyphs("Clef 𝄞", "regular", "forex/aid")
    message = str(raised.value)
    assert "forex/aid" in message and "Clef 𝄞" in message and "U+1D11E" in message


def test_measuring_a_missing_glyph_is_a_build_error_too() -> None:
    with pytest.raises(BuildError, match="U\\+6F22"):
        fonts.text_width("漢", "regular", 10)


def test_vertical_metrics_hold_accented_capitals_and_descenders() -> None:
    face = fonts.font("regular")
    # DejaVu Sans hhea: ascender 1901, descender -483 on a 2048 em
    assert face.ascent == pytest.approx(1901 / 2048)
    assert face.descent == pytest.approx(483 / 2048)


def test_width_scales_with_size_and_matches_reportlab() -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    name = register_reportlab("bold")
    text = "Акционер 1 000 €"
    points = stringWidth(text, name, 11)
    assert fonts.text_width(text, "bold", 11) == pytest.approx(points * 25.4 / 72)
    assert fonts.text_width(text, "bold", 22) == pytest.approx(2 * fonts.text_width(text, "bold", 11))
    assert fonts.text_width("WWW", "regular", 10) > fonts.text_width("iii", "regular", 10)
    assert fonts.text_width("Bolsa", "bold", 10) > fonts.text_width("Bolsa", "regular", 10)


def test_unknown_font_is_a_build_error() -> None:
    with pytest.raises(BuildError, match="unknown font 'italic'"):
        fonts.font("italic")


def test_metrics_are_read_without_reportlab_and_equal_reportlabs():
    """Text is measured from the TrueType tables directly (so `pnp validate` can lay out
    components without the renderer); every advance equals reportlab's, float for float."""
    import io

    from reportlab.pdfbase.ttfonts import TTFontFile

    from pnp.fonts import font, font_bytes

    for name in ("regular", "bold"):
        theirs = TTFontFile(io.BytesIO(font_bytes(name))).charWidths
        assert font(name).advances == {code: width / 1000.0 for code, width in theirs.items()}
        assert len(theirs) > 5000
