"""A designer's own art: logos, illustrations, backs and board images from PNG, JPEG and SVG
files next to the spec — checked by `validate`, placed where the layout says (read back from
the PDF), vector art kept vector, low resolution warned about at its place in the spec."""

from __future__ import annotations

import base64
import io
import re

import pdfplumber
import pytest
from PIL import Image as PILImage

from pnp.cli import main
from pnp.components import Context, generate
from pnp.components.art import walk
from pnp.components.resolution import resolution_findings
from pnp.display import Image, Page, Text, place
from pnp.errors import SpecError
from pnp.layout.text import ICON_EM
from pnp.render.pdf import pdf_bytes
from pnp.render.svg import svg_bytes
from pnp.rules import rulebooks
from pnp.spec.loader import load

PT = 72 / 25.4
LOGO_BLUE = (0.0, 0.447059, 0.698039)  # #0072b2, the logo's only rectangle
LOGO = b"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20">
  <rect x="0" y="0" width="40" height="20" fill="#0072b2"/>
  <circle cx="10" cy="10" r="8" fill="#e69f00"/>
</svg>
"""

SPEC = """\
games:
  dash:
    title: Dash
    players: {min: 2, max: 4}
    companies:
      - {id: ORE, name: Ore Mining, color: "#8c564b", symbol: square, image: art/logo.svg}
      - {id: SUN, name: Sunrail, color: "#e69f00", symbol: circle}
    tracks:
      price: {from: 1, to: 8, start: 3}
    components:
      - id: board
        kind: board
        name: Board
        image: art/photo.jpg
        image_mm: 30
        sections:
          - {title: Prices, track: price, rows: each_asset}
      - id: shares
        kind: deck
        name: Shares
        back: {image: art/back.png}
        cards:
          - {for_each: asset, value: "{id}", title: "{name}", image: art/photo.png, text: "pays :ORE: 2"}
"""


@pytest.fixture
def folder(tmp_path):
    """The spec and its art: an SVG logo, a 300 × 200 px PNG and JPEG, a 500 × 700 px back
    (all of them too coarse for 300 dpi where they print)."""
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "logo.svg").write_bytes(LOGO)
    photo = PILImage.new("RGB", (300, 200), "#336699")
    photo.save(tmp_path / "art" / "photo.png")
    photo.save(tmp_path / "art" / "photo.jpg", quality=90)
    PILImage.new("RGB", (500, 700), "#993333").save(tmp_path / "art" / "back.png")
    (tmp_path / "dash.yaml").write_text(SPEC, encoding="utf-8")
    return tmp_path


def spec_in(folder, text: str = SPEC):
    path = folder / "dash.yaml"
    path.write_text(text, encoding="utf-8")
    return load(path, rulebooks())


def drawn(spec, component: str):
    game = spec.games["dash"]
    return generate(Context("dash", game, spec.print, spec.folder), game.component(component))


def images(items) -> list[Image]:
    return [item for _, item in walk(items) if isinstance(item, Image)]


def line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


# --- validate: located errors -----------------------------------------------------------------


def issue_of(folder, old: str, new: str):
    with pytest.raises(SpecError) as caught:
        spec_in(folder, SPEC.replace(old, new))
    (issue,) = caught.value.issues
    return issue


def test_a_missing_image_is_an_error_at_its_line_and_column(folder):
    issue = issue_of(folder, "image: art/photo.jpg", "image: art/nope.jpg")
    line = line_of(SPEC, "image: art/photo.jpg")
    assert (issue.file.endswith("dash.yaml"), issue.line, issue.col) == (True, line, 16)
    assert issue.path == "games.dash.components[0].image"
    assert issue.message.startswith("art/nope.jpg: no such file")


@pytest.mark.parametrize("content, reason", [
    (b"hello, not an image", "not a PNG, JPEG or SVG image"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "damaged"),
    (b"<svg xmlns='http://www.w3.org/2000/svg'><rect width='4' height='4'/></svg>", "needs a viewBox"),
    (b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 4 4'><rect", "not readable SVG"),
    (b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 4 4'><text>Ore</text></svg>", "convert it to paths"),
    (b"<svg xmlns='http://www.w3.org/2000/svg' xmlns:x='http://www.w3.org/1999/xlink' viewBox='0 0 4 4'>"
     b"<image x:href='/etc/hostname' width='4' height='4'/></svg>", "refers to another file"),
])  # fmt: skip
def test_an_unreadable_image_is_an_error_saying_why(folder, content, reason):
    (folder / "art" / "logo.svg").write_bytes(content)
    issue = issue_of(folder, "", "")
    assert issue.path == "games.dash.companies[0].image" and reason in issue.message


def test_a_truncated_png_is_caught_before_the_build(folder):
    data = (folder / "art" / "back.png").read_bytes()
    (folder / "art" / "back.png").write_bytes(data[: len(data) // 2])
    issue = issue_of(folder, "", "")
    assert issue.path == "games.dash.components[1].back.image" and "PNG" in issue.message


@pytest.mark.parametrize("path", ["../photo.png", "/etc/hostname", "art\\\\photo.png", "C:/art/photo.png"])
def test_an_image_path_must_stay_inside_the_spec_folder(folder, path):
    issue = issue_of(folder, "image: art/photo.jpg", f'image: "{path}"')
    assert issue.line == line_of(SPEC, "image: art/photo.jpg") and issue.path == "games.dash.components[0].image"


def test_card_image_templates_are_checked_for_every_card(folder):
    (folder / "art" / "SUN.png").write_bytes((folder / "art" / "photo.png").read_bytes())
    issue = issue_of(folder, "image: art/photo.png", 'image: "art/{id}.png"')
    assert issue.path == "games.dash.components[1].cards[0].image"
    assert issue.message.startswith("art/ORE.png: no such file")


# --- drawing: where art goes --------------------------------------------------------------------


def test_art_is_placed_where_the_layout_says_read_back_from_the_pdf(folder):
    spec = spec_in(folder)
    pieces = drawn(spec, "shares")
    front, back = pieces.pieces[1].front, pieces.pieces[1].back  # Sunrail: no logo, one PNG illustration
    (illustration,) = [i for i in images(front.items) if i.format == "png"]
    s = spec.print.safe_mm
    assert illustration.w <= 63 - 2 * s + 1e-9 and illustration.x >= s - 1e-9  # inside the safe zone
    assert illustration.w / illustration.h == pytest.approx(300 / 200)
    page = Page(100, 120, (place(front, 10, 15), place(back, 10, 15)))
    with pdfplumber.open(io.BytesIO(pdf_bytes([page]))) as pdf:
        found = sorted(pdf.pages[0].images, key=lambda i: i["width"])
    (art, full) = found
    assert (art["x0"], art["top"]) == pytest.approx(((10 + illustration.x) * PT, (15 + illustration.y) * PT), abs=0.01)
    assert (art["width"], art["height"]) == pytest.approx((illustration.w * PT, illustration.h * PT), abs=0.01)
    assert art["srcsize"] == (300, 200)
    bleed = spec.print.bleed_mm  # the back's art covers the card and its bleed (cropped, not squeezed)
    assert full["x0"] <= (10 - bleed) * PT + 0.01 and full["top"] <= (15 - bleed) * PT + 0.01
    assert full["x0"] + full["width"] >= (10 + 63 + bleed) * PT - 0.01
    assert full["top"] + full["height"] >= (15 + 88 + bleed) * PT - 0.01
    assert full["width"] / full["height"] == pytest.approx(500 / 700)


def test_a_board_image_prints_at_the_height_the_spec_gives(folder, tmp_path):
    spec_in(folder)
    assert main(["build", "--spec", str(folder / "dash.yaml"), "--out", str(tmp_path / "out")]) == 0
    with pdfplumber.open(tmp_path / "out" / "dash" / "board.pdf") as pdf:
        (photo,) = pdf.pages[0].images
    assert photo["height"] == pytest.approx(30 * PT, abs=0.01) and photo["srcsize"] == (300, 200)
    assert photo["stream"]["Filter"][-1].name == "DCTDecode"  # the JPEG itself, not re-encoded


def test_svg_art_stays_vector_in_the_pdf_and_in_svg_output(folder):
    spec = spec_in(folder)
    front = drawn(spec, "shares").pieces[0].front  # Ore Mining: the SVG logo on the band, in text
    logos = [i for i in images(front.items) if i.format == "svg"]
    assert len(logos) == 2 and all(i.data == LOGO for i in logos)
    page = Page(80, 100, (place(front, 5, 5),))
    data = pdf_bytes([page])
    assert b"Helvetica" not in data  # the SVG drawing brings no font the PDF does not embed
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        found = pdf.pages[0]
        assert [i["srcsize"] for i in found.images] == [(300, 200)]  # only the PNG is an image
        blue = [r for r in found.rects if r["non_stroking_color"] == LOGO_BLUE]
    placed = sorted((m[0] * i.w, m[0] * i.x + m[4], m[3] * i.y + m[5]) for m, i in walk(front.items) if i in logos)
    assert len(blue) == 2  # the band's logo and the inline icon, each the logo's rectangle
    for (width, x, y), rect in zip(placed, sorted(blue, key=lambda r: r["width"]), strict=True):
        expected = ((5 + x) * PT, (5 + y) * PT, width * PT)
        assert (rect["x0"], rect["top"], rect["width"]) == pytest.approx(expected, abs=0.05)
    svg = svg_bytes(page).decode()
    hrefs = re.findall(r'href="data:image/svg\+xml;base64,([^"]+)"', svg)
    assert hrefs and all(base64.b64decode(h) == LOGO for h in hrefs)


def test_inline_icons_draw_the_logo_at_text_size(folder):
    spec = spec_in(folder)
    front = drawn(spec, "shares").pieces[1].front
    icon = next(i for m, i in walk(front.items) if isinstance(i, Image) and i.format == "svg")
    matrix = next(m for m, i in walk(front.items) if i is icon)
    (pays,) = [t for _, t in walk(front.items) if isinstance(t, Text) and t.text.startswith("pays")]
    assert icon.h * matrix[3] == pytest.approx(ICON_EM * pays.size * 25.4 / 72)  # the size of the text around it
    assert matrix[4] + icon.x > pays.x  # after "pays", in the line
    with pytest.raises(SpecError) as caught:
        spec_in(folder, SPEC.replace('text: "pays :ORE: 2"', 'text: "pays {icon[ORX]} 2"'))
    assert caught.value.issues[0].path == "games.dash.components[1].cards[0].text"


def test_image_bytes_are_part_of_what_the_display_list_compares(folder):
    spec = spec_in(folder)
    before = drawn(spec, "shares").pieces[1].front
    PILImage.new("RGB", (300, 200), "#aa0000").save(folder / "art" / "photo.png")  # same name, new art
    after = drawn(spec_in(folder), "shares").pieces[1].front
    assert before != after and hash(before) != hash(after)
    assert drawn(spec_in(folder), "shares").pieces[1].front == after
    assert pdf_bytes([Page(70, 95, (place(after, 3, 3),))]) == pdf_bytes([Page(70, 95, (place(after, 3, 3),))])


# --- resolution ---------------------------------------------------------------------------------


def test_art_below_300_dpi_at_its_printed_size_is_a_located_warning(folder, capsys):
    spec = spec_in(folder)
    warnings = resolution_findings(spec, "dash", [drawn(spec, "shares"), drawn(spec, "board")])
    by_file = {w.message.split()[0]: w for w in warnings}
    assert {w.check for w in warnings} == {"art"} and {w.severity for w in warnings} == {"warning"}
    assert set(by_file) == {"art/photo.png", "art/back.png", "art/photo.jpg"}
    back = by_file["art/back.png"]
    assert (back.line, back.path) == (line_of(SPEC, "back.png"), "games.dash.components[1].back.image")
    dpi = 500 / ((63 + 6) / 25.4)  # 500 px across the card and its bleed
    assert f"prints at {dpi:.0f} dpi" in back.message
    assert main(["validate", str(folder / "dash.yaml")]) == 0  # a warning, not an error
    assert "back.image: shares: warning: art/back.png prints at" in capsys.readouterr().err
    assert main(["validate", "--strict", str(folder / "dash.yaml")]) == 1


def test_sharp_enough_art_gets_no_warning(folder):
    PILImage.new("RGB", (2000, 2800), "#993333").save(folder / "art" / "back.png")
    spec = spec_in(folder)
    warnings = resolution_findings(spec, "dash", [drawn(spec, "shares")])
    assert "art/back.png" not in " ".join(w.message for w in warnings)
