"""The PNG backend: pixels at print size, rasterised from the very PDF the build writes."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image as PILImage

from pnp.display import Drawing, Page, Rect, Style, place
from pnp.layout.text import fit_text
from pnp.render.pdf import pdf_bytes, write_pdf
from pnp.render.png import drawing_png, page_png

BLUE, RED, WHITE = (0, 114, 178), (213, 94, 0), (255, 255, 255)


def poker_card() -> Drawing:
    """A 63 × 88 mm card with 3 mm of blue bleed and a red 20 × 10 mm box at (10, 15)."""
    return Drawing(63, 88, (
        Rect(-3, -3, 69, 94, Style(fill="#0072b2")),
        Rect(5, 5, 53, 78, Style(fill="#ffffff")),
        Rect(10, 15, 20, 10, Style(fill="#d55e00")),
        Rect(-10, -10, 90, 2, Style(fill="#000000")),  # beyond the bleed: must not widen the image
        fit_text("Акционер **½**", 8, 40, 47, 20, size=14),
    ), bleed=3)


def open_png(data: bytes) -> PILImage.Image:
    image = PILImage.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image


def at(x_mm: float, y_mm: float, dpi: int = 300) -> tuple[int, int]:
    return int(x_mm / 25.4 * dpi), int(y_mm / 25.4 * dpi)


def test_poker_card_with_bleed_is_815_by_1110_px_at_300_dpi() -> None:
    image = open_png(drawing_png(poker_card()))
    assert image.size == (815, 1110)
    assert image.mode == "RGB"
    assert tuple(round(v) for v in image.info["dpi"]) == (300, 300)


def test_pixels_land_where_the_mm_say() -> None:
    image = open_png(drawing_png(poker_card()))
    # trim coordinates + 3 mm of bleed = image coordinates
    assert image.getpixel(at(3 + 20, 3 + 20)) == RED
    assert image.getpixel(at(3 + 10.3, 3 + 15.3)) == RED
    assert image.getpixel(at(3 + 9.7, 3 + 15.3)) == WHITE
    assert image.getpixel(at(3 + 30.3, 3 + 20)) == WHITE
    assert image.getpixel((0, 0)) == BLUE  # the bleed is part of the image…
    assert image.getpixel((814, 1109)) == BLUE  # …up to the last pixel, nothing beyond it


def test_png_matches_the_pdf_rasterised_independently() -> None:
    drawing = poker_card()
    page = Page(69, 94, (place(drawing, 3, 3),))
    pdf = pypdfium2.PdfDocument(pdf_bytes([page]))[0].render(scale=300 / 72).to_pil().convert("RGB")
    png = open_png(drawing_png(drawing, 300))
    for point in [(30, 30), (100, 100), (300, 560), (400, 600), (500, 600), (700, 1000), (814, 1109)]:
        assert png.getpixel(point) == pdf.getpixel(point)
    text_pixels = [png.getpixel((x, y)) for x in range(100, 700, 7) for y in range(480, 700, 7)]
    assert any(p == (0, 0, 0) for p in text_pixels)  # the text is drawn, in black


def test_dpi_sets_the_pixel_size() -> None:
    image = open_png(drawing_png(poker_card(), 150))
    assert image.size == (round(69 / 25.4 * 150), round(94 / 25.4 * 150))
    assert image.getpixel(at(23, 23, 150)) == RED


def test_page_png_reads_bytes_or_a_path_and_picks_the_page(tmp_path: Path) -> None:
    pages = [Page(100, 50, (Rect(0, 0, 100, 50, Style(fill=f"#{c}")),)) for c in ("0072b2", "d55e00")]
    write_pdf(pages, tmp_path / "two.pdf")
    from_path = open_png(page_png(tmp_path / "two.pdf", 1, 72))
    from_bytes = open_png(page_png((tmp_path / "two.pdf").read_bytes(), 0, 72))
    assert from_path.size == from_bytes.size == (round(100 / 25.4 * 72), round(50 / 25.4 * 72))
    assert from_path.getpixel((10, 10)) == RED and from_bytes.getpixel((10, 10)) == BLUE


def test_same_drawing_same_png() -> None:
    assert drawing_png(poker_card(), 100) == drawing_png(poker_card(), 100)


@pytest.mark.parametrize("bleed", [0.0, 2.0])
def test_size_follows_the_bleed(bleed: float) -> None:
    drawing = Drawing(50.8, 25.4, (Rect(0, 0, 50.8, 25.4, Style(fill="#000000")),), bleed=bleed)
    image = open_png(drawing_png(drawing, 100))
    assert image.size == (round((50.8 + 2 * bleed) / 25.4 * 100), round((25.4 + 2 * bleed) / 25.4 * 100))
