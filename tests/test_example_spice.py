"""The fifth game, examples/spice: plain cards (no companies, colours or currencies) laid out
freely in millimetres in a font of the game's own, cards with backs of their own, and a
hexagonal sea tiled over two sheets — built as README shows it, and read back from the PDFs."""

from __future__ import annotations

import shlex
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from pnp.cli import main

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "examples" / "spice" / "components.yaml"
RED = (0x8B / 255, 0x1E / 255, 0x1E / 255)  # the storms' own back


def readme_command() -> list[str]:
    """The build command README's "Faces of your own" gives for the example."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Faces of your own", 1)[1].split("\n## ", 1)[0]
    (line,) = [line for line in section.splitlines() if line.startswith("pnp build --spec examples/spice")]
    return shlex.split(line.split("#")[0])[1:]


def build(tmp_path: Path, *extra: str) -> Path:
    args = readme_command()
    args[args.index("--out") + 1] = str(tmp_path)
    args[args.index("--spec") + 1] = str(SPEC)
    assert main([*args, "-q", *extra]) == 0
    return tmp_path / "spice"


@pytest.fixture(scope="module")
def cards_and_sea(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("spice"), "--component", "voyages", "--component", "sea")


def test_its_cards_are_set_in_its_own_font_embedded(cards_and_sea):
    with pikepdf.open(cards_and_sea / "voyages.pdf") as pdf:
        fonts = {str(font.BaseFont).split("+")[1]: font for page in pdf.pages for font in page.Resources.Font.values()}
        assert "DejaVuSerif-Bold" in fonts and fonts["DejaVuSerif-Bold"].FontDescriptor.FontFile2.read_bytes()
    with pdfplumber.open(cards_and_sea / "voyages.pdf") as pdf:
        titles = [w["text"] for w in pdf.pages[0].extract_words(extra_attrs=["fontname"])
                  if w["fontname"].endswith("DejaVuSerif-Bold")]
    assert titles.count("Fair") == 6 and titles.count("winds") == 6  # the titles, in the spec's font


def test_its_storms_show_their_own_back_behind_their_fronts(cards_and_sea):
    with pdfplumber.open(cards_and_sea / "voyages.pdf") as pdf:
        pages = [(page, [w["text"] for w in page.extract_words()]) for page in pdf.pages]
        fronts = [n for n, (_, words) in enumerate(pages) if "fronts" in " ".join(words[:12])]
        storms = sum(words.count("Storm") for n, (_, words) in enumerate(pages) if n in fronts)
        backs = sum(words.count("Storm") for n, (_, words) in enumerate(pages) if n not in fronts)
        red = [c for page, _ in pages for c in page.chars if c["text"] == "S" and c["non_stroking_color"]
               and tuple(c["non_stroking_color"]) == pytest.approx(RED, abs=1e-3)]
    assert storms == backs == 4  # each storm's own back behind it (the turned title reads upside down)
    assert len(red) == 2 * 4  # its title, in the red of that back, upright and turned


def test_its_sea_of_hexagons_tiles_over_two_sheets(cards_and_sea):
    with pdfplumber.open(cards_and_sea / "sea.pdf") as pdf:
        assert len(pdf.pages) == 2
        hexagons = [len([c for c in page.curves if len(c["pts"]) == 7]) for page in pdf.pages]
        words = " ".join(w["text"] for page in pdf.pages for w in page.extract_words())
    assert hexagons == [15 * 7, 15 * 7]
    assert all(port in words for port in ("Port", "Royal", "Tortuga", "Zanzibar"))


@pytest.mark.slow
def test_the_whole_example_builds_as_readme_shows(tmp_path):
    built = build(tmp_path)
    assert sorted(p.name for p in built.glob("*.pdf")) == [
        "aid.pdf", "doubloons.pdf", "sea.pdf", "ships.pdf", "spice-all.pdf", "voyages.pdf"]
    with pdfplumber.open(built / "spice-all.pdf") as pdf:
        assert len(pdf.pages) >= 10
