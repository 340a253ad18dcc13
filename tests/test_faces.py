"""The faces a designer expects, measured in the PDFs they make: a card's own back behind its
own front in every duplex mode, a font of the spec's own embedded and used (in the SVG too),
a free layout's elements where the spec puts them, plain cards in a game with no assets — and
each bad input one located message with exit status 2."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pdfplumber
import pikepdf
import pytest
from PIL import Image

from font_files import font_file
from pnp import fonts
from pnp.cli import main
from pnp.components import Context, generate
from pnp.components.art import text_bounds, texts
from pnp.errors import BuildError, SpecError
from pnp.layout.impose import impose
from pnp.layout.sheet import Furniture
from pnp.layout.text import _vertical_metrics
from pnp.render.pdf import pdf_bytes
from pnp.render.svg import svg_bytes
from pnp.rules import load_spec, loads_spec
from pnp.spec.faces import deck_pieces
from pnp.spec.model import Back
from pnp.spec.typefaces import game_fonts

PT = 25.4 / 72  # mm per point
INFO = Furniture("Faces", "Cards", "pnp 0.0.0 · 00000000")
EXACT = 0.01  # mm

PLAIN = """\
games:
  plain:
    title: Plain
    players: {min: 2, max: 4}
    fonts: {display: fonts/display.ttf}
    components:
"""


def game_spec(folder: Path, components: str, *, characters: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 +-?.") -> Path:
    """A plain game (no assets) of `components` in `folder`, with a font of its own."""
    (folder / "fonts").mkdir(exist_ok=True)
    (folder / "fonts" / "display.ttf").write_bytes(font_file(characters, "Pnp Display"))
    path = folder / "components.yaml"
    path.write_text(PLAIN + components, encoding="utf-8")
    return path


def pieces_of(path: Path, component: str, **print_settings):
    spec = load_spec(path)
    game = spec.games["plain"]
    settings = spec.print.model_copy(update=print_settings)
    return generate(Context("plain", game, settings, spec.folder), game.component(component))


# --- a card's own back -------------------------------------------------------------------------

NUMBERED = """\
      - id: cards
        kind: deck
        name: Cards
        layout: free
        elements:
          - {shape: rect, at: [11.5, 29], size: [40, 30], stroke: "#ff0000"}
          - {value: "{value}", at: [11.5, 29], size: [40, 30], pt: 20}
        cards:
""" + "".join(f"          - {{value: F{n}, back: {{face: {{value: B{n}}}}}}}\n" for n in range(1, 13))


def centres(page, prefix: str) -> dict[str, tuple[float, float]]:
    """Each card face on the page whose label starts with `prefix` ("F3", "B3"): its number →
    the centre of the red frame round the label (the card's centre), in mm from the page's
    top-left corner."""
    frames = [r for r in page.rects if r["stroking_color"] == (1, 0, 0)]
    found = {}
    for word in page.extract_words():
        if re.fullmatch(rf"{prefix}\d+", word["text"]):
            x, y = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
            (frame,) = [r for r in frames if r["x0"] < x < r["x1"] and r["top"] < y < r["bottom"]]
            found[word["text"][1:]] = ((frame["x0"] + frame["x1"]) / 2 * PT, (frame["top"] + frame["bottom"]) / 2 * PT)
    return found


@pytest.mark.parametrize("duplex", ["long", "short", "fold", "none"])
def test_each_card_back_prints_behind_its_own_front_in_every_duplex_mode(tmp_path, duplex):
    path = game_spec(tmp_path, NUMBERED)
    cards = pieces_of(path, "cards")
    assert cards.two_sided  # its backs tell its cards apart: printed even without duplex (folded)
    layout = impose(cards, "a4", 5, duplex, INFO)
    pdf = pdfplumber.open(io.BytesIO(pdf_bytes(layout.pages)))
    width, height = pdf.pages[0].width * PT, pdf.pages[0].height * PT
    fronts, backs = {}, {}
    for number, page in enumerate(pdf.pages):
        fronts |= {label: (number, *at) for label, at in centres(page, "F").items()}
        backs |= {label: (number, *at) for label, at in centres(page, "B").items()}
    assert sorted(fronts, key=int) == sorted(backs, key=int) == [str(n) for n in range(1, 13)]
    turned = set()
    for label, (page, x, y) in fronts.items():
        back_page, bx, by = backs[label]
        if duplex in ("long", "short"):
            assert back_page == page + 1  # the back of a sheet follows its front
            expected = (width - x, y) if duplex == "long" else (x, height - y)
        else:  # folded: the same sheet, mirrored about its fold line (upright or across)
            assert back_page == page
            expected = (width - x, y) if abs(by - y) < EXACT else (x, height - y)
            turned.add(abs(by - y) < EXACT)
        assert bx == pytest.approx(expected[0], abs=EXACT) and by == pytest.approx(expected[1], abs=EXACT)
    assert len(turned) == (duplex in ("fold", "none"))  # one fold line for every card


def test_a_card_back_is_an_image_the_decks_back_changed_or_a_face(tmp_path):
    (tmp_path / "art").mkdir()
    Image.new("RGB", (60, 80), "#336699").save(tmp_path / "art" / "map.png")
    path = game_spec(tmp_path, """\
      - id: cards
        kind: deck
        name: Cards
        back: {title: Plain, subtitle: Deck, color: "#1f4e79", pattern: dots}
        cards:
          - {value: "1"}
          - {value: "2", back: {title: STORM, color: "#8b1e1e"}}
          - {value: "3", back: art/map.png}
          - {value: "4", back: {face: {value: "?", title: SEALED}}}
""")
    spec = load_spec(path)
    deck = spec.games["plain"].component("cards")
    common, storm, image, face = (piece.back for piece in deck_pieces(spec.games["plain"], deck))
    assert common is None  # the deck's own
    assert isinstance(storm, Back) and (storm.title, storm.subtitle, storm.color, storm.pattern) == (
        "STORM", "Deck", "#8b1e1e", "dots")  # what the card does not give is the deck's
    assert isinstance(image, Back) and image.image.file == "art/map.png" and image.title == ""  # the art alone
    assert (face.value, face.title) == ("?", "SEALED")
    drawn = pieces_of(path, "cards").pieces
    assert len({id(p.back) for p in drawn}) == 4
    art = [item for item in drawn[2].back.items if type(item).__name__ in ("Image", "Group")]
    assert len(drawn[2].back.items) == 1 and art  # the image to the bleed, no title panel over it


# --- a font of the spec's own ----------------------------------------------------------------

FONTED = """\
      - id: cards
        kind: deck
        name: Cards
        layout: free
        elements:
          - {text: "{title}", at: [5, 5], size: [53, 12], font: display, pt: [8, 14]}
          - {value: "{value}", at: [5, 30], size: [53, 20]}
        cards:
          - {title: HARBOUR, value: "7"}
"""


@pytest.mark.parametrize("cff", [False, True], ids=["ttf", "otf-cff"])
def test_a_spec_font_is_subset_embedded_and_set_in_the_pdf(tmp_path, cff):
    path = game_spec(tmp_path, FONTED)
    if cff:  # PostScript outlines: converted to TrueType ones, which the PDF embeds
        (tmp_path / "fonts" / "display.ttf").write_bytes(font_file("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ", "Pnp Display",
                                                                   cff=True))
    cards = pieces_of(path, "cards")
    data = pdf_bytes(impose(cards, "a4", 5, "none", INFO).pages)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        named = {str(font.BaseFont): font for font in pdf.pages[0].Resources.Font.values()}
        (ours,) = [name for name in named if name.endswith("+PnpDisplay-Regular")]
        assert re.fullmatch(r"/[A-Z]{6}\+PnpDisplay-Regular", ours)  # a subset, tagged
        assert len(named[ours].FontDescriptor.FontFile2.read_bytes()) > 200  # its glyphs, embedded
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        chars = pdf.pages[0].chars
    assert "".join(c["text"] for c in chars if c["fontname"].endswith("PnpDisplay-Regular")) == "HARBOUR"
    assert {c["fontname"].split("+")[1] for c in chars if c["text"] == "7"} == {"DejaVuSans-Bold"}  # the default


def test_a_spec_font_is_embedded_in_the_svg_too(tmp_path):
    path = game_spec(tmp_path, FONTED)
    cards = pieces_of(path, "cards")
    svg = svg_bytes(impose(cards, "a4", 5, "none", INFO).pages[0]).decode()
    (rule,) = re.findall(r"@font-face\{font-family:(font-[0-9a-f]+);src:url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\)", svg)
    family, _data = rule
    assert re.search(rf'font-family="{family}, Pnp Display"[^>]*>HARBOUR<', svg)
    assert fonts.font(family).family == "Pnp Display"


def test_a_character_the_spec_font_lacks_is_a_located_validate_error(tmp_path, capsys):
    path = game_spec(tmp_path, FONTED.replace("HARBOUR", "HARBOUR ÅS"))
    assert main(["validate", str(path)]) == 2
    (line,) = [line for line in capsys.readouterr().err.splitlines() if "U+00C5" in line]
    row = path.read_text().splitlines().index("          - {text: \"{title}\", at: [5, 5], size: [53, 12], font: "
                                              "display, pt: [8, 14]}") + 1
    assert f"components.yaml:{row}:" in line and "components[0].elements[0].text" in line
    assert "Pnp Display (fonts/display.ttf)" in line


# --- free layout ---------------------------------------------------------------------------------


def test_free_elements_sit_where_the_spec_puts_them(tmp_path):
    (tmp_path / "art").mkdir()
    Image.new("RGB", (200, 100), "#aa3300").save(tmp_path / "art" / "wide.png")
    path = game_spec(tmp_path, """\
      - id: cards
        kind: deck
        name: Cards
        layout: free
        elements:
          - {shape: rect, at: [4.25, 7.5], size: [20.5, 10.25], fill: "#123456"}
          - {image: art/wide.png, at: [30.4, 40.2], size: [20, 10]}
          - {text: "{title}", at: [5.3, 60.7], size: [40, 10], font: display, pt: 10, align: left, valign: top}
          - {shape: line, at: [2, 84], size: [59, 0], stroke: "#654321", stroke_mm: 0.5}
        cards:
          - {title: ABC}
""")
    cards = pieces_of(path, "cards")
    layout = impose(cards, "a4", 5, "none", INFO)
    (front,) = [p for p in layout.placed if p.side == "front"]
    x0, y0 = front.trim.x, front.trim.y
    with pdfplumber.open(io.BytesIO(pdf_bytes(layout.pages))) as pdf:
        page = pdf.pages[0]
        (rect,) = [r for r in page.rects if r["non_stroking_color"] == pytest.approx((0x12 / 255, 0x34 / 255, 0x56 / 255), abs=1e-4)]
        (image,) = page.images
        chars = [c for c in page.chars if c["text"] in "ABC"]
        (line,) = [li for li in page.lines if li["stroking_color"] == pytest.approx((0x65 / 255, 0x43 / 255, 0x21 / 255), abs=1e-4)]
    assert (rect["x0"] * PT - x0, rect["top"] * PT - y0) == pytest.approx((4.25, 7.5), abs=EXACT)
    assert ((rect["x1"] - rect["x0"]) * PT, (rect["bottom"] - rect["top"]) * PT) == pytest.approx((20.5, 10.25), abs=EXACT)
    assert (image["x0"] * PT - x0, image["top"] * PT - y0) == pytest.approx((30.4, 40.2), abs=EXACT)
    assert (image["x1"] * PT - x0, image["bottom"] * PT - y0) == pytest.approx((50.4, 50.2), abs=EXACT)
    assert chars[0]["x0"] * PT - x0 == pytest.approx(5.3, abs=EXACT)  # left-aligned: the text starts at the box
    baseline = layout.pages[0].height - chars[0]["matrix"][5] * PT
    display = game_fonts(tmp_path, load_spec(path).games["plain"])["display"]
    assert baseline - y0 == pytest.approx(60.7 + _vertical_metrics(display)[0] * 10 * PT, abs=EXACT)  # top-aligned
    assert (line["x0"] * PT - x0, line["top"] * PT - y0, line["x1"] * PT - x0) == pytest.approx((2, 84, 61), abs=EXACT)


def test_a_turned_element_keeps_its_box(tmp_path):
    path = game_spec(tmp_path, """\
      - id: cards
        kind: deck
        name: Cards
        layout: free
        elements:
          - {text: "A", at: [50, 70], size: [8, 12], pt: 10, align: left, valign: top, turn: 180}
        cards:
          - {title: X}
""")
    text = pieces_of(path, "cards").pieces[0].front
    x0, y0, x1, y1 = text_bounds(text.items)
    assert 50 - EXACT <= x0 and x1 <= 58 + EXACT and 70 - EXACT <= y0 and y1 <= 82 + EXACT
    assert x1 == pytest.approx(58, abs=EXACT) and y1 == pytest.approx(82, abs=EXACT)  # its start, turned: bottom right


def test_a_free_text_that_cannot_fit_stops_the_build_at_its_element(tmp_path, capsys):
    path = game_spec(tmp_path, FONTED.replace("size: [53, 12], font: display, pt: [8, 14]",
                                              "size: [10, 4], font: display, pt: [8, 14]"))
    assert main(["validate", str(path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()[-1:]
    assert "components[0].elements[0].text" in line and "does not fit in 10 × 4 mm" in line


# --- plain cards -----------------------------------------------------------------------------------


def test_a_game_of_plain_cards_with_no_assets_builds(tmp_path, capsys):
    path = game_spec(tmp_path, """\
      - id: cards
        kind: deck
        name: Cards
        back: {title: PLAIN}
        cards:
          - {value: "1", title: ONE, count: 3}
          - {value: "2", title: TWO, text: "Draw a card."}
""")
    assert main(["validate", str(path)]) == 0
    assert "plain: Plain — plain pieces, 1 components" in capsys.readouterr().out
    assert main(["build", "--spec", str(path), "--out", str(tmp_path / "out"), "-q"]) == 0
    with pdfplumber.open(tmp_path / "out" / "plain" / "cards.pdf") as pdf:
        words = [w["text"] for w in pdf.pages[0].extract_words()]
    assert words.count("ONE") == 3 and words.count("TWO") == 1


# --- bad input: one located message each, exit 2 ---------------------------------------------------

BAD = {
    "a font that is not a font": (lambda folder: (folder / "fonts" / "display.ttf").write_bytes(b"<html>a page</html>"),
                                  "", "games.plain.fonts.display", "not a TrueType or OpenType font"),
    "a missing font file": (lambda folder: (folder / "fonts" / "display.ttf").unlink(), "", "games.plain.fonts.display",
                            "no such file"),
    "a free element off the card": (None, "at: [5, 5], size: [53, 12]|at: [40, 5], size: [53, 12]",
                                    "games.plain.components[0].elements[0].at", "reaches 27 mm off the card"),
    "an unknown font": (None, "font: display|font: dispaly", "games.plain.components[0].elements[0].font",
                        'unknown font "dispaly"'),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_faces_are_one_located_message_and_exit_2(tmp_path, capsys, case):
    spoil, edit, where, message = BAD[case]
    text = FONTED if not edit else FONTED.replace(*edit.split("|"))
    path = game_spec(tmp_path, text)
    if spoil:
        spoil(tmp_path)
    assert main(["validate", str(path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert re.match(rf".*components\.yaml:\d+:\d+: {re.escape(where)}: .*{re.escape(message)}", line), line


def test_a_hex_board_with_no_cells_is_one_located_message(tmp_path, capsys):
    path = game_spec(tmp_path, """\
      - id: sea
        kind: board
        name: Sea
        sections:
          - {title: Islands, layout: hex}
""")
    assert main(["validate", str(path)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "components.yaml:11:13: games.plain.components[0].sections[0]: a hex map has no cells" in line


def test_element_fields_belong_to_their_kind(tmp_path):
    for bad, message in [("{text: A, shape: rect, at: [1, 1], size: [5, 5]}", "exactly one of"),
                         ("{shape: rect, font: display, at: [1, 1], size: [5, 5]}", "`font` is not for a shape"),
                         ("{symbol: moon, at: [1, 1], size: [5, 5]}", "expected one of")]:
        text = PLAIN.replace("    fonts: {display: fonts/display.ttf}\n", "") + f"""\
      - id: cards
        kind: deck
        name: Cards
        layout: free
        elements: [{bad}]
        cards: [{{value: "1"}}]
"""
        with pytest.raises(SpecError) as caught:
            loads_spec(text)
        (issue,) = caught.value.issues
        assert message in issue.message and issue.line == 10


def test_a_per_asset_entry_in_a_game_of_plain_pieces_is_located():
    text = PLAIN.replace("    fonts: {display: fonts/display.ttf}\n", "") + """\
      - id: cards
        kind: deck
        name: Cards
        cards: [{value: "1", for_each: asset}]
"""
    with pytest.raises(SpecError) as caught:
        loads_spec(text)
    (issue,) = caught.value.issues
    assert issue.path == "games.plain.components[0].cards[0].for_each" and "no companies, colours or currencies" \
        in issue.message


def test_a_missing_glyph_in_a_bundled_font_is_still_a_build_error():
    with pytest.raises(BuildError, match="DejaVu Sans"):
        fonts.text_width("漢", "regular", 10)


def test_a_changed_font_file_reprints_what_is_set_in_it(tmp_path):
    path = game_spec(tmp_path, FONTED)
    out = tmp_path / "out"
    assert main(["build", "--spec", str(path), "--out", str(out), "-q"]) == 0
    (tmp_path / "fonts" / "display.ttf").write_bytes(font_file("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ", "Pnp Other"))
    assert main(["build", "--spec", str(path), "--out", str(out), "-q"]) == 0  # the same spec, the cache kept
    with pdfplumber.open(out / "plain" / "cards.pdf") as pdf:
        fonts_used = {c["fontname"].split("+")[1] for c in pdf.pages[0].chars if c["text"] in "HARBOU"}
    assert fonts_used == {"PnpOther-Regular"}


def test_bold_in_a_spec_font_is_set_in_its_bold_file(tmp_path):
    path = game_spec(tmp_path, FONTED.replace('text: "{title}"', 'text: "HAR **BOUR**"'))
    (tmp_path / "fonts" / "bold.ttf").write_bytes(font_file("ABCDEFGHIJKLMNOPQRSTUVWXYZ ", "Pnp Heavy"))
    path.write_text(path.read_text().replace("fonts: {display: fonts/display.ttf}",
                                             "fonts: {display: {file: fonts/display.ttf, bold: fonts/bold.ttf}}"))
    front = pieces_of(path, "cards").pieces[0].front
    set_in = {text.text.strip(): fonts.font(text.font).family for _, text in texts(front.items)}
    assert set_in["HAR"] == "Pnp Display" and set_in["BOUR"] == "Pnp Heavy"


def test_the_kinds_card_layout_sets_its_texts_in_a_spec_font(tmp_path, capsys):
    path = game_spec(tmp_path, """\
      - id: cards
        kind: deck
        name: Cards
        layout: {font: display}
        back: {title: BACK}
        cards:
          - {value: "7", title: HARBOUR, text: "A PORT"}
""")
    piece = pieces_of(path, "cards").pieces[0]
    families = {text.text: fonts.font(text.font).family for face in (piece.front, piece.back)
                for _, text in texts(face.items)}
    assert families == {"7": "Pnp Display", "HARBOUR": "Pnp Display", "A PORT": "Pnp Display", "BACK": "Pnp Display"}
    path.write_text(path.read_text().replace("{font: display}", "{font: serif}"))
    assert main(["validate", str(path)]) == 2
    assert 'games.plain.components[0].layout.font: unknown font "serif"' in capsys.readouterr().err
