"""The fourth game, examples/tulips: a designer's own game built as README shows it — a deck
from a spreadsheet, an SVG logo per variety kept vector, `vars` in the aid, the year round the
board's edge, hexagon tokens, mini cards — and a referee that says it has none."""

from __future__ import annotations

import csv
import re
import shlex
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from pnp.cli import main
from pnp.rules import GAMES, rulebooks
from pnp.spec.loader import load

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "tulips"
SPEC = EXAMPLE / "components.yaml"
BLUE = (0.0, 0.447059, 0.698039)  # Semper Augustus, the colour of its logo's cup


def readme_command() -> list[str]:
    """The build command README's "Changing a game" gives for the example."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Changing a game", 1)[1].split("\n## ", 1)[0]
    (line,) = [line for line in section.splitlines() if line.startswith("pnp build --spec examples/tulips")]
    return shlex.split(line.split("#")[0])[1:]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tulips")
    args = readme_command()
    args[args.index("--out") + 1] = str(out)
    args[args.index("--spec") + 1] = str(SPEC)
    assert main(args) == 0
    return out / "tulips"


def test_the_example_builds_as_readme_shows(built):
    assert sorted(p.name for p in built.glob("*.pdf")) == [
        "aid.pdf", "bulbs.pdf", "guilders.pdf", "markers.pdf", "market.pdf", "market_board.pdf",
        "tulips-all.pdf"]  # fmt: skip
    with pdfplumber.open(built / "market_board.pdf") as pdf:
        assert len(pdf.pages) == 1  # the whole board, year round its edge, on one sheet


def test_its_logos_stay_vector_and_show_on_cards_and_board(built):
    reader = pypdf.PdfReader(built / "tulips-all.pdf")
    kinds = [kind for page in reader.pages for kind in xobject_kinds(page.get("/Resources"))]
    assert "/Form" in kinds and "/Image" not in kinds  # SVG art drawn as forms of paths: no bitmaps at all
    with pdfplumber.open(built / "market.pdf") as pdf:
        first = pdf.pages[0]
        cups = [c for c in first.curves if c["non_stroking_color"] == BLUE and c["width"] < 12]
        assert len(cups) >= 9  # the Semper Augustus cup on the band of each card of the first sheet


def xobject_kinds(resources) -> list[str]:
    """The subtypes of every XObject a page uses, forms' own XObjects included."""
    if resources is None:
        return []
    objects = resources.get_object().get("/XObject", {})
    kinds = []
    for reference in objects.values():
        obj = reference.get_object()
        kinds.append(obj["/Subtype"])
        kinds += xobject_kinds(obj.get("/Resources"))
    return kinds


def test_its_market_deck_is_the_spreadsheet(built):
    with open(EXAMPLE / "market.csv", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    spec = load(SPEC, rulebooks())
    deck = spec.games["tulips"].component("market")
    assert len(deck.cards) == len(rows) and sum(entry.count for entry in deck.cards) == sum(int(r["qty"]) for r in rows)
    assert deck.cards[0].data == {"delta": int(rows[0]["delta"])}
    with pdfplumber.open(built / "market.pdf") as pdf:
        words = pdf.pages[0].extract_text()  # the first sheet of fronts: the first rows of the sheet
    assert "Rumour in" in words and "Night frost" in words


def test_vars_and_tracks_fill_the_aid(built):
    game = load(SPEC, rulebooks()).games["tulips"]
    with pdfplumber.open(built / "aid.pdf") as pdf:
        text = re.sub(r"\s+", " ", pdf.pages[0].extract_text())
    assert f"{game.vars['start_guilders']} guilders" in text and f"falls {game.vars['crash']}" in text
    assert f"markers on {game.tracks['price'].start} and" in text  # 4, not 4.0


def test_the_year_runs_round_the_board(built):
    with pdfplumber.open(built / "market_board.pdf") as pdf:
        words = pdf.pages[0].extract_words()
    numbers = [int(w["text"]) for w in words if w["text"].isdigit()]
    assert set(range(1, 53)) <= set(numbers)
    assert {"Crash", "Fair"} <= {w["text"] for w in words}


def test_the_referee_says_the_example_has_no_rules_engine(capsys):
    assert main(["referee", "new", "tulips", "--players", "Ana,Ben", "--spec", str(SPEC)]) == 2
    assert f"(games with one: {', '.join(GAMES)};" in capsys.readouterr().err
