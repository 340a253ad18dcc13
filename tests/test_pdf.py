"""The PDF backend, measured from the files it writes (pypdf, pdfplumber, pypdfium2)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pypdf
import pypdfium2
import pytest
from PIL import Image as PILImage

from pnp.display import Circle, Group, Image, Line, Page, Polygon, Rect, Style, Text, compose, rotate, scale, translate
from pnp.errors import BuildError
from pnp.layout.text import fit_text, text_width
from pnp.render.pdf import pdf_bytes, write_pdf

PT = 72 / 25.4  # points per mm
A4 = (210.0, 297.0)
GAME_TEXT = ("Акционер", "Telefónica", "½ × ÷ − €", "año → £ ¥ $ ₽")


def plumber(data: bytes, index: int = 0) -> pdfplumber.page.Page:
    return pdfplumber.open(io.BytesIO(data)).pages[index]


def mm_box(obj: dict) -> tuple[float, float, float, float]:
    """A pdfplumber object's bounding box in mm, top-left origin (pdfplumber's top is y-down)."""
    return tuple(round(obj[key] / PT, 3) for key in ("x0", "top", "x1", "bottom"))  # type: ignore[return-value]


def flat(values) -> list[float]:
    """Nested tuples of numbers as one flat list, for pytest.approx."""
    if isinstance(values, (int, float)):
        return [values]
    return [number for value in values for number in flat(value)]


def raster(data: bytes, index: int = 0, dpi: int = 72) -> PILImage.Image:
    document = pypdfium2.PdfDocument(data)
    return document[index].render(scale=dpi / 72).to_pil().convert("RGB")


def pixel(image: PILImage.Image, x_mm: float, y_mm: float, dpi: int) -> tuple[int, int, int]:
    return image.getpixel((int(x_mm / 25.4 * dpi), int(y_mm / 25.4 * dpi)))


def test_page_sizes_are_the_pages_mm_sizes() -> None:
    sizes = [A4, (215.9, 279.4), (69.0, 94.0)]
    data = pdf_bytes([Page(w, h, ()) for w, h in sizes])
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 3
    for page, (w, h) in zip(reader.pages, sizes, strict=True):
        box = page.mediabox
        assert (float(box.left), float(box.bottom)) == (0, 0)
        assert float(box.width) == pytest.approx(w * PT, abs=0.01)
        assert float(box.height) == pytest.approx(h * PT, abs=0.01)


def test_rect_line_and_circle_land_at_their_mm_positions() -> None:
    page = Page(*A4, (
        Rect(10, 20, 30, 40, Style(fill="#ff0000", stroke="#0000ff", width=0.5)),
        Line(50, 60, 120, 90, Style(stroke="#000000", width=0.3)),
        Circle(150, 200, 12.5, Style(fill="#00ff00")),
    ))
    pdf = plumber(pdf_bytes([page]))
    (rect,) = pdf.rects
    assert mm_box(rect) == pytest.approx((10, 20, 40, 60), abs=0.001)
    assert rect["linewidth"] / PT == pytest.approx(0.5, abs=1e-4)
    assert rect["non_stroking_color"] == (1, 0, 0) and rect["stroking_color"] == (0, 0, 1)
    (line,) = pdf.lines
    assert flat((x / PT, y / PT) for x, y in line["pts"]) == pytest.approx([50, 60, 120, 90], abs=0.001)
    (circle,) = pdf.curves
    assert mm_box(circle) == pytest.approx((137.5, 187.5, 162.5, 212.5), abs=0.001)
    assert circle["fill"] and not circle["stroke"]


def test_rounded_rect_polygons_and_dashes() -> None:
    page = Page(100, 100, (
        Rect(10, 10, 30, 20, Style(stroke="#000000", dash=(2, 1)), radius=3),
        Polygon(((50, 10), (90, 10), (70, 40)), Style(fill="#0000ff")),
        Polygon(((10, 50), (30, 80), (50, 50)), Style(stroke="#000000"), closed=False),
    ))
    rounded, triangle, zigzag = plumber(pdf_bytes([page])).curves
    assert mm_box(rounded) == pytest.approx((10, 10, 40, 30), abs=0.001)
    assert any(step[0] == "c" for step in rounded["path"])  # real arcs at the corners
    assert rounded["dash"][0] == pytest.approx([2, 1])  # mm, scaled by the page transform
    assert flat((x / PT, y / PT) for x, y in triangle["pts"][:3]) == pytest.approx(
        [50, 10, 90, 10, 70, 40], abs=0.001)
    assert triangle["path"][-1] == ("h",) and triangle["fill"]
    assert zigzag["path"][-1] != ("h",) and not zigzag["fill"]


def test_group_transforms_compose() -> None:
    moved = Group((Rect(0, 0, 10, 5, Style(fill="#000000")),), translate(20, 30))
    scaled = Group((Rect(1, 1, 10, 5, Style(fill="#000000")),), compose(translate(100, 100), scale(2)))
    boxes = sorted(mm_box(r) for r in plumber(pdf_bytes([Page(*A4, (moved, scaled))])).rects)
    assert flat(boxes) == pytest.approx([20, 30, 30, 35, 102, 102, 122, 112], abs=0.001)


def test_text_in_a_group_rotated_180_comes_out_mirrored() -> None:
    w, h = A4
    text = Text(30, 40, "Bolsa", 12)
    page = Page(w, h, (Group((text,), rotate(180, w / 2, h / 2)), Text(30, 40, "Forex", 12)))
    chars = plumber(pdf_bytes([page])).chars
    upright = [c for c in chars if c["matrix"][0] > 0]
    turned = [c for c in chars if c["matrix"][0] < 0]
    assert "".join(c["text"] for c in upright) == "Forex" and len(turned) == 5
    width = text_width("Bolsa", "regular", 12)
    # the upright word starts at x = 30 on baseline 40; the turned one ends at x = 210 − 30
    assert min(c["x0"] for c in upright) / PT == pytest.approx(30, abs=0.01)
    assert max(c["x1"] for c in turned) / PT == pytest.approx(w - 30, abs=0.01)
    assert min(c["x0"] for c in turned) / PT == pytest.approx(w - 30 - width, abs=0.01)
    for char in turned:  # glyph origins lie on the mirrored baseline y = 297 − 40
        assert char["matrix"][0] < 0 and char["matrix"][3] < 0
        assert h - char["matrix"][5] / PT == pytest.approx(h - 40, abs=0.01)


def test_clip_hides_what_lies_outside_it() -> None:
    clipped = Group(
        (Rect(0, 0, 50, 50, Style(fill="#ff0000")),),
        translate(10, 10),
        clip=Rect(0, 0, 20, 20, Style()),
    )
    image = raster(pdf_bytes([Page(100, 100, (clipped,))]), dpi=100)
    assert pixel(image, 20, 20, 100) == (255, 0, 0)  # inside the clip
    assert pixel(image, 40, 40, 100) == (255, 255, 255)  # drawn, but clipped away
    assert pixel(image, 29, 15, 100) == (255, 0, 0) and pixel(image, 31, 15, 100) == (255, 255, 255)


def test_opacity_blends_with_what_is_below() -> None:
    page = Page(50, 50, (Rect(10, 10, 20, 20, Style(fill="#ff0000", opacity=0.5)),
                         Rect(30, 10, 10, 10, Style(fill="#0000ff"))))
    image = raster(pdf_bytes([page]), dpi=100)
    red = pixel(image, 20, 20, 100)
    assert red[0] == 255 and 120 <= red[1] <= 135 and 120 <= red[2] <= 135
    assert pixel(image, 35, 15, 100) == (0, 0, 255)  # opacity does not leak to the next item


def test_image_is_placed_upright_in_its_box() -> None:
    png = io.BytesIO()
    picture = PILImage.new("RGB", (4, 4), (255, 0, 0))
    picture.paste((0, 0, 255), (0, 2, 4, 4))  # bottom half blue
    picture.save(png, "PNG")
    image = raster(pdf_bytes([Page(60, 60, (Image(10, 20, 40, 20, png.getvalue()),))]), dpi=100)
    assert pixel(image, 30, 24, 100) == (255, 0, 0)  # top of the box: the picture's top
    assert pixel(image, 30, 36, 100) == (0, 0, 255)
    assert pixel(image, 30, 18, 100) == (255, 255, 255) and pixel(image, 52, 30, 100) == (255, 255, 255)


def test_same_pages_give_identical_bytes(tmp_path: Path) -> None:
    pages = [
        Page(*A4, (fit_text("Акционер **Telefónica** ½", 10, 10, 60, 20, size=12), Circle(50, 50, 5)), "a"),
        Page(*A4, (Text(20, 20, "Bolsa", 20, "bold"),), "b"),
    ]
    first = pdf_bytes(pages, title="Bolsa", subject="shares")
    write_pdf(pages, tmp_path / "again.pdf", title="Bolsa", subject="shares")
    assert (tmp_path / "again.pdf").read_bytes() == first
    assert pdf_bytes(pages, title="Bolsa", subject="shares") == first
    assert pdf_bytes(pages, title="Forex", subject="shares") != first


def test_bytes_do_not_depend_on_the_process(tmp_path: Path) -> None:
    """Another interpreter, with another hash seed, writes the very same file."""
    script = (
        "import sys\n"
        "from pnp.display import Page, Text, Circle, Group, Rect, Style, rotate\n"
        "from pnp.render.pdf import write_pdf\n"
        "page = Page(100, 100, (Text(10, 20, 'Акционер ½ €', 12, 'bold'), Circle(50, 50, 9),\n"
        "    Group((Rect(1, 1, 5, 5, Style(fill='#ff0000', opacity=0.4)),), rotate(90, 50, 50))))\n"
        "write_pdf([page], sys.argv[1], title='T')\n"
    )
    outputs = []
    for seed in ("1", "2"):
        target = tmp_path / f"{seed}.pdf"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", script, str(target)], check=True, env=env)
        outputs.append(target.read_bytes())
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith(b"%PDF-")


@pytest.mark.parametrize("library", ["pypdf", "pdfplumber"])
def test_accented_cyrillic_and_symbol_text_is_extractable(library: str) -> None:
    items = tuple(Text(10, 20 + 10 * i, text, 12) for i, text in enumerate(GAME_TEXT))
    data = pdf_bytes([Page(*A4, items)])
    if library == "pypdf":
        extracted = pypdf.PdfReader(io.BytesIO(data)).pages[0].extract_text()
    else:
        extracted = plumber(data).extract_text()
    for text in GAME_TEXT:
        assert text in extracted


def test_fonts_are_embedded_as_subsets() -> None:
    data = pdf_bytes([Page(*A4, (Text(10, 10, "Акционер", 12), Text(10, 30, "Bolsa", 12, "bold")))])
    reader = pypdf.PdfReader(io.BytesIO(data))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    names = set()
    for ref in fonts.values():
        font = ref.get_object()
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor  # the TrueType program is in the file
        embedded = descriptor["/FontFile2"].get_object().get_data()
        assert len(embedded) < 60_000  # a subset, not the 700 kB font
        names.add(str(font["/BaseFont"]).lstrip("/"))
    assert {name.split("+", 1)[1] for name in names} == {"DejaVuSans", "DejaVuSans-Bold"}
    assert all(len(name.split("+")[0]) == 6 and name.split("+")[0].isupper() for name in names)  # the subset tag


def _subset_names(data: bytes) -> set[str]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return {str(ref.get_object()["/BaseFont"]) for page in reader.pages for ref in page["/Resources"]["/Font"].values()}


def test_subset_names_differ_with_their_characters_and_repeat_with_them() -> None:
    """Joined component files must not hold two different "AAAAAA+DejaVuSans" subsets."""
    bolsa = _subset_names(pdf_bytes([Page(*A4, (Text(10, 10, "Bolsa", 12),))]))
    akts = _subset_names(pdf_bytes([Page(*A4, (Text(10, 10, "Акционер", 12),))]))
    assert len(bolsa) == len(akts) == 1 and bolsa.isdisjoint(akts)
    assert _subset_names(pdf_bytes([Page(*A4, (Text(10, 10, "Bolsa", 12),))])) == bolsa


def test_metadata_and_print_scaling_none() -> None:
    reader = pypdf.PdfReader(io.BytesIO(pdf_bytes([Page(*A4, ())], title="Bolsa", subject="shares")))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert reader.metadata.title == "Bolsa" and reader.metadata.subject == "shares"


def test_text_anchors_use_the_font_widths() -> None:
    width = text_width("Акционер", "regular", 14)
    items = (Text(100, 30, "Акционер", 14, anchor="start"),
             Text(100, 60, "Акционер", 14, anchor="middle"),
             Text(100, 90, "Акционер", 14, anchor="end"))
    chars = plumber(pdf_bytes([Page(*A4, items)])).chars
    by_line: dict[int, list[dict]] = {}
    for char in chars:
        by_line.setdefault(round(char["matrix"][5]), []).append(char)
    starts = sorted((min(c["x0"] for c in line) / PT, max(c["x1"] for c in line) / PT)
                    for line in by_line.values())
    expected = [(100 - width, 100), (100 - width / 2, 100 + width / 2), (100, 100 + width)]
    assert flat(starts) == pytest.approx(flat(expected), abs=0.01)


def test_bold_runs_of_fitted_text_use_the_bold_font() -> None:
    group = fit_text("Cobra **20 €** por acción", 10, 10, 120, 20, size=12)
    chars = plumber(pdf_bytes([Page(*A4, (group,))])).chars
    fonts = {c["text"]: c["fontname"].split("+")[1] for c in chars if c["text"] in "C2€ó"}
    assert fonts == {"C": "DejaVuSans", "2": "DejaVuSans-Bold", "€": "DejaVuSans-Bold", "ó": "DejaVuSans"}


@pytest.mark.parametrize("text, code", [("Clef 𝄞", "U+1D11E"), ("漢字", "U+6F22")])
def test_a_glyph_missing_from_the_font_is_a_build_error(text: str, code: str) -> None:
    page = Page(*A4, (Group((Text(10, 10, text, 12),)),), "forex — aid 1/1")
    with pytest.raises(BuildError) as raised:
        pdf_bytes([page])
    message = str(raised.value)
    assert code in message and text in message and "forex — aid 1/1" in message
