"""The SVG backend: mm user units, the PDF's geometry, deterministic bytes."""

from __future__ import annotations

import base64
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest

from pnp.display import Circle, Group, Image, Line, Page, Polygon, Rect, Style, Text, rotate, translate
from pnp.errors import BuildError
from pnp.layout.text import fit_text
from pnp.render.pdf import pdf_bytes
from pnp.render.svg import svg_bytes, write_svg

NS = {"svg": "http://www.w3.org/2000/svg"}
PT = 72 / 25.4
A4 = (210.0, 297.0)


def parse(page: Page) -> ET.Element:
    return ET.fromstring(svg_bytes(page))


def find(root: ET.Element, tag: str) -> list[ET.Element]:
    return root.findall(f".//svg:{tag}", NS)


def number(element: ET.Element, name: str) -> float:
    return float(element.attrib[name])


def test_size_in_mm_and_one_user_unit_per_mm() -> None:
    root = parse(Page(215.9, 279.4, ()))
    assert (root.attrib["width"], root.attrib["height"]) == ("215.9mm", "279.4mm")
    assert root.attrib["viewBox"] == "0 0 215.9 279.4"


def test_shapes_sit_where_the_pdf_puts_them() -> None:
    page = Page(*A4, (
        Rect(10, 20, 30, 40, Style(fill="#ff0000")),
        Line(50, 60, 120, 90),
        Circle(150, 200, 12.5),
    ))
    root = parse(page)
    (rect,) = find(root, "rect")
    (line,) = find(root, "line")
    (circle,) = find(root, "circle")
    svg_rect = (number(rect, "x"), number(rect, "y"),
                number(rect, "x") + number(rect, "width"), number(rect, "y") + number(rect, "height"))
    svg_line = tuple(number(line, name) for name in ("x1", "y1", "x2", "y2"))
    r = number(circle, "r")
    svg_circle = (number(circle, "cx") - r, number(circle, "cy") - r,
                  number(circle, "cx") + r, number(circle, "cy") + r)

    pdf = pdfplumber.open(io.BytesIO(pdf_bytes([page]))).pages[0]
    box = lambda obj: tuple(obj[k] / PT for k in ("x0", "top", "x1", "bottom"))  # noqa: E731
    pdf_line = tuple(v / PT for point in pdf.lines[0]["pts"] for v in point)
    assert svg_rect == pytest.approx(box(pdf.rects[0]), abs=0.001)
    assert svg_line == pytest.approx(pdf_line, abs=0.001)
    assert svg_circle == pytest.approx(box(pdf.curves[0]), abs=0.001)
    assert svg_rect == (10, 20, 40, 60) and svg_line == (50, 60, 120, 90)


def test_styles_become_presentation_attributes() -> None:
    root = parse(Page(100, 100, (
        Rect(1, 1, 10, 10, Style(fill="#112233", opacity=0.5), radius=2),
        Polygon(((0, 0), (5, 5), (0, 5)), Style(stroke="#445566", width=0.4, dash=(2, 1)), closed=False),
        Polygon(((0, 0), (5, 5), (0, 5)), Style(fill="#000000")),
    )))
    (rect,) = find(root, "rect")
    assert rect.attrib["fill"] == "#112233" and rect.attrib["fill-opacity"] == "0.5"
    assert rect.attrib["rx"] == rect.attrib["ry"] == "2" and "stroke" not in rect.attrib
    (polyline,) = find(root, "polyline")
    assert polyline.attrib["points"] == "0,0 5,5 0,5"
    assert (polyline.attrib["fill"], polyline.attrib["stroke"]) == ("none", "#445566")
    assert polyline.attrib["stroke-width"] == "0.4" and polyline.attrib["stroke-dasharray"] == "2 1"
    assert len(find(root, "polygon")) == 1


def test_groups_keep_their_matrix_and_clip_in_their_own_coordinates() -> None:
    page = Page(*A4, (
        Group((Text(30, 40, "Bolsa", 12),), rotate(180, 105, 148.5)),
        Group((Rect(0, 0, 50, 50, Style(fill="#ff0000")),), translate(10, 10), Rect(0, 0, 20, 25, Style())),
    ))
    root = parse(page)
    turned, clipped = [g for g in find(root, "g") if "transform" in g.attrib]
    assert turned.attrib["transform"] == "matrix(-1 0 0 -1 210 297)"
    assert clipped.attrib["transform"] == "matrix(1 0 0 1 10 10)"
    (clip_path,) = find(root, "clipPath")
    assert clipped.attrib["clip-path"] == f"url(#{clip_path.attrib['id']})"
    (clip_rect,) = clip_path.findall("svg:rect", NS)
    assert [clip_rect.attrib[k] for k in ("x", "y", "width", "height")] == ["0", "0", "20", "25"]


def test_text_keeps_font_size_anchor_weight_and_script() -> None:
    page = Page(*A4, (
        Text(10, 20, "Акционер", 12, anchor="middle"),
        fit_text("Paga **½ × 20 €** ya", 10, 30, 100, 20, size=10, align="left"),
    ))
    texts = find(parse(page), "text")
    first = texts[0]
    assert first.text == "Акционер" and first.attrib["text-anchor"] == "middle"
    assert first.attrib["font-family"] == "DejaVu Sans"
    assert float(first.attrib["font-size"]) == pytest.approx(12 * 25.4 / 72, abs=1e-4)
    assert (number(first, "x"), number(first, "y")) == (10, 20)
    runs = [(t.text, t.attrib.get("font-weight", "normal")) for t in texts[1:]]
    assert runs == [("Paga ", "normal"), ("½ × 20 €", "bold"), (" ya", "normal")]
    assert texts[1].attrib["{http://www.w3.org/XML/1998/namespace}space"] == "preserve"


def test_image_is_embedded_as_the_same_png() -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"pretend"
    (image,) = find(parse(Page(50, 50, (Image(1, 2, 30, 40, png),))), "image")
    href = image.attrib.get("{http://www.w3.org/1999/xlink}href") or image.attrib["href"]
    assert base64.b64decode(href.split(",", 1)[1]) == png
    assert [image.attrib[k] for k in ("x", "y", "width", "height")] == ["1", "2", "30", "40"]
    assert image.attrib["preserveAspectRatio"] == "none"


def test_same_page_gives_identical_bytes(tmp_path: Path) -> None:
    clip = Rect(0, 0, 5, 5, Style())
    page = Page(*A4, tuple(Group((Circle(1, 1, 1),), translate(i, i), clip) for i in range(5)))
    first = svg_bytes(page)
    write_svg(page, tmp_path / "page.svg")
    buffer = io.BytesIO()
    write_svg(page, buffer)
    assert (tmp_path / "page.svg").read_bytes() == first == buffer.getvalue() == svg_bytes(page)
    assert first.count(b'id="clip') == 5 and b'id="clip1"' in first


def test_text_file_targets_get_text() -> None:
    buffer = io.StringIO()
    write_svg(Page(10, 10, (Text(1, 5, "Акционер", 8),)), buffer)
    assert "Акционер" in buffer.getvalue()


def test_a_glyph_missing_from_the_font_is_a_build_error() -> None:
    with pytest.raises(BuildError, match="U\\+6F22"):
        svg_bytes(Page(*A4, (Text(10, 10, "漢", 12),)))
