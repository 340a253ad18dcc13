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
from pnp.components import Context, generate
from pnp.components.art import texts
from pnp.rules import load_spec

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "examples" / "spice" / "components.yaml"


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


def test_its_storms_treasure_maps_and_sealed_cargo_have_their_own_backs():
    spec = load_spec(SPEC)
    game = spec.games["spice"]
    cards = generate(Context("spice", game, spec.print, spec.folder), game.component("voyages")).pieces
    words = [[t.text for _, t in texts(piece.front.items)] for piece in cards]
    backs = [piece.back for piece in cards]
    storms = [back for front, back in zip(words, backs, strict=True) if "Storm" in front]
    assert len(storms) == 4 and len({id(back) for back in storms}) == 1  # one back of their own, shared
    assert [t.color for _, t in texts(storms[0].items) if t.text == "Storm"] == ["#8b1e1e"] * 2  # red, and turned
    maps = [back for front, back in zip(words, backs, strict=True) if "Treasure" in front]
    assert len(maps) == 2 and all(not list(texts(back.items)) for back in maps)  # the map's art alone
    common = {id(back) for front, back in zip(words, backs, strict=True) if "Fair winds" in front or "Calm" in front}
    assert len(common) == 1 and not common & {id(b) for b in storms + maps}  # the deck's own back for the rest


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
