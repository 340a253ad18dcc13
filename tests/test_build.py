"""`pnp build` end to end: files, manifest, combined file, atomicity, reproducibility, options.

Most tests run the real spec through simple stand-in generators (fast, and independent of how
the cards look); `test_the_real_games_*` builds the real components once.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from PIL import Image

from pdf_text import pages_text
from pnp import build as build_module
from pnp import sheets as sheets_module
from pnp.cli import main
from pnp.components import Panels, PieceArt, Pieces
from pnp.display import Drawing, Rect, Style, Text
from pnp.errors import BuildError
from pnp.layout.sheet import PAPERS
from pnp.rules import load_spec
from pnp.spec.faces import piece_count
from pnp.spec.model import Deck, Money, Tokens

PT = 25.4 / 72
GAMES = ("bolsa", "aktsioner", "forex")


def stand_in(context, component, *, same_faces: bool = False):
    """A plain drawing per piece or panel, at the component's real size and count (with
    `same_faces`, every piece of a component shares one front and one back, like real decks)."""
    game, settings = context.game, context.settings
    count = piece_count(game, component)
    if isinstance(component, (Deck, Tokens, Money)):
        w, h = getattr(component, "size_mm", None) or settings.card_mm
        bleed = settings.bleed_mm

        def face(i: int, side: str) -> Drawing:
            return Drawing(w, h, (Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, Style(fill="#e0f0ff")),
                                  Text(w / 2, h / 2, f"{component.id} {side} {i}", 6, "regular")), bleed)

        cut = {"circle": "circle", "rounded": "rounded"}.get(getattr(component, "shape", ""), "rect")
        faces = [PieceArt(face(0 if same_faces else i, "front"), face(0 if same_faces else i, "back")) for i in range(count)]
        return Pieces(w, h, bleed, tuple(faces), cut)
    size = (420.0, 150.0) if component.kind == "board" else (150.0, 200.0)
    return Panels(tuple(Drawing(*size, (Rect(0, 0, *size, Style(stroke="#000000")),
                                        Text(10, 10, f"{component.id} {i}", 8, "regular"))) for i in range(count)))


def alike(context, component):
    """The stand-ins with one front and one back per component: a quarter of the faces to draw,
    picture and store, for the tests that read files, pages and instructions, not faces."""
    return stand_in(context, component, same_faces=True)


def drawing_with(patch: pytest.MonkeyPatch, generator) -> None:
    """The build draws with `generator` (`pnp.sheets.draw`) and names it in its cache keys."""
    patch.setattr(build_module, "generate", generator)
    patch.setattr(sheets_module, "generate", generator)


@pytest.fixture
def fake(monkeypatch):
    drawing_with(monkeypatch, stand_in)


@pytest.fixture
def fake_alike(monkeypatch):
    drawing_with(monkeypatch, alike)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of an output folder but its cache."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.relative_to(folder).as_posix().startswith(".cache/")}


def run(*args: str) -> int:
    return main(["build", *args])


@pytest.fixture(scope="module")
def every_game(tmp_path_factory) -> tuple[Path, str]:
    """Every game built once through the stand-in generators (`alike`), and what the build said:
    read it as it is, or copy it (`copy_of`) to build over it."""
    out = tmp_path_factory.mktemp("every-game") / "output"
    said = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(said):
        drawing_with(patch, alike)
        assert run("--out", str(out)) == 0
    return out, said.getvalue()


def copy_of(every_game: tuple[Path, str], tmp_path: Path) -> Path:
    out = tmp_path / "output"
    shutil.copytree(every_game[0], out, symlinks=True)
    return out


def test_build_writes_every_component_the_combined_file_and_a_true_manifest(every_game):
    out, said_out = every_game
    said = re.search(r"built bolsa, aktsioner, forex from (\S+): (\d+) pages to print \((\d+) files\)", said_out)
    spec = load_spec(None)
    manifest = json.loads((out / "manifest.json").read_text())
    combined = [f for f in manifest["files"] if f["path"].endswith("-all.pdf")]
    assert said and said[1] == "components.yaml" and int(said[3]) == len(manifest["files"])
    assert int(said[2]) == sum(f["pages"] for f in combined)  # each page once, not again in the component files
    listed = {f["path"] for f in manifest["files"]}
    on_disk = {p for p in snapshot(out) if p not in ("manifest.json", "index.html") and "/gallery/" not in p}
    assert listed == on_disk  # the gallery (index.html and its pictures) is the manifest's view, not in it
    for game_id, game in spec.games.items():
        for component in game.components:
            assert f"{game_id}/{component.id}.pdf" in listed
        assert f"{game_id}/{game_id}-all.pdf" in listed
    for entry in manifest["files"]:
        data = (out / entry["path"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert entry["pages"] == len(pypdf.PdfReader(io.BytesIO(data)).pages)
        assert entry["format"] == "pdf"
        assert entry["component"] == (None if entry["path"].endswith("-all.pdf") else Path(entry["path"]).stem)
    components = {(c["game"], c["id"]): c for c in manifest["components"]}
    shares = components[("bolsa", "shares")]
    assert (shares["kind"], shares["count"], shares["size_mm"]) == ("deck", 90, [63, 88])
    assert components[("bolsa", "money")]["count"] == 110
    assert components[("bolsa", "player_mats")]["count"] == 6
    assert components[("bolsa", "quote_board")]["size_mm"] == [420, 150]
    assert len(components) == sum(len(g.components) for g in spec.games.values())


def test_the_combined_file_opens_with_instructions_whose_page_numbers_are_right(fake, tmp_path):
    out = tmp_path / "output"
    assert run("--out", str(out), "--game", "bolsa", "--lang", "en") == 0  # Bolsa's English kit, beside its Spanish one
    kit = out / "bolsa.en"
    pdf = pdfplumber.open(kit / "bolsa.en-all.pdf")
    first = pdf.pages[0].extract_text()
    combined = pages_text(kit / "bolsa.en-all.pdf")
    flowing = " ".join(first.split())  # the words, wherever the lines and table cells break them
    for phrase in ("print instructions", "100 %", "100 mm", "flip on the long edge", "crop marks", "glue here",
                   "card stock", "paper", "A4", "copies"):
        assert phrase in flowing, phrase
    spec = load_spec(None)
    game = spec.games["bolsa"]
    ranges = {}
    for component in game.components:
        name = component.name
        row = next(line for line in first.splitlines() if name in line)
        first_page, last_page = map(int, re.match(r"(\d+)(?:–(\d+))?", row).groups(default=row.split()[0]))
        ranges[(first_page, last_page)] = row
        if " + " in row:  # sheets several components share: their own, not the component's file
            continue
        pages = len(pypdf.PdfReader(kit / f"{component.id}.pdf").pages)
        assert last_page - first_page + 1 == pages
        alone = pages_text(kit / f"{component.id}.pdf")
        for here, there in ((first_page - 1, 0), (last_page - 1, pages - 1)):  # the same text on both (PDFium's reading)
            assert combined[here] == alone[there]
    for (first_page, _), row in ranges.items():
        if "double-sided" in row:  # fronts on odd pages, so the whole file prints back to back
            assert first_page % 2 == 1
    in_order = sorted(ranges)
    assert in_order[0][0] == 3 and all(a[1] + 1 == b[0] for a, b in zip(in_order, in_order[1:], strict=False))
    # the instructions and their blank back, then every range once, in order
    assert len(pdf.pages) == len(combined) == 2 + sum(last - first + 1 for first, last in ranges)


@pytest.mark.parametrize("games", [["--game", "aktsioner"], pytest.param([], marks=pytest.mark.slow)],
                         ids=["aktsioner", "every-game"])
def test_same_input_gives_the_same_bytes(fake, tmp_path, games):
    assert run("--out", str(tmp_path / "a"), "--format", "pdf,svg", *games) == 0
    assert run("--out", str(tmp_path / "b"), "--format", "pdf,svg", *games) == 0
    a, b = snapshot(tmp_path / "a"), snapshot(tmp_path / "b")
    assert a.keys() == b.keys() and len(a) > (40 if not games else 20)
    assert [name for name in a if a[name] != b[name]] == []


def test_a_failed_build_leaves_the_previous_output_untouched(every_game, tmp_path, monkeypatch, capsys):
    out = copy_of(every_game, tmp_path)
    before = snapshot(out)

    def failing(context, component):
        if context.game_id == "aktsioner":  # after bolsa was built
            raise BuildError("aktsioner/big_cards card 3: text 'x' does not fit")
        return stand_in(context, component)

    drawing_with(monkeypatch, failing)
    capsys.readouterr()
    assert run("--out", str(out)) == 2  # located, like a spec error: every component that failed, in one run
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == len(load_spec(None).games["aktsioner"].components)
    assert all(re.match(r"components\.yaml:\d+:\d+: games\.aktsioner\.components\[\d\]: .*does not fit", line)
               for line in lines), lines
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]  # no staging folder left


def test_a_bad_spec_exits_2_and_touches_nothing(every_game, fake, tmp_path, capsys):
    out = copy_of(every_game, tmp_path)  # an earlier good build
    before = snapshot(out)
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\ngames:\n  g:\n    title: 3\n")
    assert run("--spec", str(bad), "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:" in err and "Traceback" not in err
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml", "output"]


def test_one_game_is_rebuilt_without_losing_the_others(every_game, fake_alike, tmp_path):
    out = copy_of(every_game, tmp_path)
    before = snapshot(out)
    (out / "notes.txt").write_text("my own notes")
    assert run("--out", str(out), "--game", "bolsa", "--paper", "letter") == 0
    after = snapshot(out)
    assert after["notes.txt"] == b"my own notes"
    for path, data in before.items():
        if path.startswith(("aktsioner/", "forex/")):
            assert after[path] == data
    manifest = json.loads(after["manifest.json"])
    assert {f["game"] for f in manifest["files"]} == set(GAMES)
    for entry in manifest["files"]:
        assert entry["sha256"] == hashlib.sha256(after[entry["path"]]).hexdigest()
    letter = pypdf.PdfReader(out / "bolsa" / "shares.pdf").pages[0].mediabox
    assert sorted((round(float(letter.width) * PT, 1), round(float(letter.height) * PT, 1))) == sorted(PAPERS["letter"])
    a4 = pypdf.PdfReader(out / "forex" / "contracts.pdf").pages[0].mediabox
    assert sorted((round(float(a4.width) * PT, 1), round(float(a4.height) * PT, 1))) == sorted(PAPERS["a4"])


def test_duplex_fold_from_the_command_line_puts_backs_beside_fronts(fake_alike, tmp_path):
    out = tmp_path / "output"
    assert run("--out", str(out), "--game", "aktsioner", "--duplex", "fold", "--lang", "en") == 0  # the English kit
    pdf = pdfplumber.open(out / "aktsioner.en" / "big_cards.pdf")
    for page in pdf.pages:
        text = page.extract_text()
        assert "big_cards front" in text and "big_cards back" in text
        assert any(line.get("dash") and line["dash"][0] for line in page.lines)
    first = pdfplumber.open(out / "aktsioner.en" / "aktsioner.en-all.pdf").pages[0].extract_text()
    assert "fold" in first and "flip on the long edge" not in " ".join(first.split())
    steps = [int(n) for n in re.findall(r"^(\d) [A-Z][a-z]+[^|\n]*?\.", first, re.M)]  # a step's title, on its line
    assert steps == list(range(1, len(steps) + 1)) and len(steps) >= 4  # numbered without gaps
    assert "mat" not in first.split("What to print")[1].split("\n")[0]  # Aktsioner has no mats


def test_back_offset_and_ink_from_the_command_line(monkeypatch, tmp_path):
    seen = []
    drawing_with(monkeypatch, lambda context, component: seen.append(context.settings) or alike(context, component))
    out = tmp_path / "output"
    assert run("--out", str(out), "--game", "aktsioner", "--back-offset", "1.5,-0.5", "--ink", "low",
               "--lang", "en", "--lang", "ru") == 0
    assert {(tuple(s.back_offset_mm), s.ink_saver) for s in seen} == {((1.5, -0.5), True)}
    english = pdfplumber.open(out / "aktsioner.en" / "aktsioner.en-all.pdf").pages[0].extract_text()
    assert "shifted by 1.5, -0.5 mm" in english
    russian = pdfplumber.open(out / "aktsioner" / "aktsioner-all.pdf").pages[0].extract_text()
    assert "сдвинуты на 1.5, -0.5 мм" in " ".join(russian.split())  # the Russian kit says so too


@pytest.mark.parametrize("offset", ["1.5", "a,b", "1,2,3", "40,0", "nan,0"])
def test_a_bad_back_offset_is_a_usage_error(fake, tmp_path, capsys, offset):
    assert run("--out", str(tmp_path / "o"), "--back-offset", offset) == 2
    assert "--back-offset" in capsys.readouterr().err and not (tmp_path / "o").exists()


def test_unknown_game_or_format_is_a_usage_error(fake, tmp_path, capsys):
    assert run("--out", str(tmp_path / "o"), "--game", "chess") == 2
    assert "no such game (known: bolsa, aktsioner, forex)" in capsys.readouterr().err
    assert run("--out", str(tmp_path / "o"), "--format", "pdf,jpg") == 2
    assert not (tmp_path / "o").exists()


def test_a_folder_pnp_did_not_write_is_never_replaced(fake, tmp_path, capsys):
    (tmp_path / "precious.txt").write_text("keep me")
    assert run("--out", str(tmp_path), "--game", "forex") == 1
    assert "not a pnp output folder" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["precious.txt"]


def test_svg_pages_have_the_geometry_of_the_pdf_pages(fake, tmp_path):
    """On Bolsa's shares, built alone (`--component`): the other components' files are not read."""
    out = tmp_path / "output"
    assert run("--out", str(out), "--game", "bolsa", "--component", "shares", "--format", "pdf,svg") == 0
    svg = out / "bolsa" / "svg" / "shares-p02.svg"
    pdf_page = pdfplumber.open(out / "bolsa" / "shares.pdf").pages[1]
    from_pdf = sorted((round(l["x0"] * PT, 2), round(l["top"] * PT, 2), round(l["x1"] * PT, 2), round(l["bottom"] * PT, 2))
                      for l in pdf_page.lines)
    from_svg = sorted(_svg_lines(svg))
    assert len(from_pdf) > 30
    assert from_svg == from_pdf
    pages = len(pypdf.PdfReader(out / "bolsa" / "shares.pdf").pages)
    assert len(list((out / "bolsa" / "svg").glob("shares-p*.svg"))) == pages


def _svg_lines(path: Path) -> list[tuple[float, float, float, float]]:
    """Every <line>, with its group transforms applied, as (x0, top, x1, bottom) in mm."""
    lines = []

    def walk(element, matrix):
        transform = element.get("transform")
        if transform:
            a, b, c, d, e, f = map(float, re.match(r"matrix\(([^)]*)\)", transform).group(1).split())
            A, B, C, D, E, F = matrix
            matrix = (A * a + C * b, B * a + D * b, A * c + C * d, B * c + D * d, A * e + C * f + E, B * e + D * f + F)
        if element.tag.endswith("}line"):
            A, B, C, D, E, F = matrix
            x1, y1, x2, y2 = (float(element.get(k)) for k in ("x1", "y1", "x2", "y2"))
            p = (A * x1 + C * y1 + E, B * x1 + D * y1 + F)
            q = (A * x2 + C * y2 + E, B * x2 + D * y2 + F)
            lines.append((round(min(p[0], q[0]), 2), round(min(p[1], q[1]), 2),
                          round(max(p[0], q[0]), 2), round(max(p[1], q[1]), 2)))
        for child in element:
            walk(child, matrix)

    walk(ET.parse(path).getroot(), (1, 0, 0, 1, 0, 0))
    return lines


def test_png_writes_each_distinct_face_once_pieces_with_bleed_and_panels_whole(tmp_path, fake_alike):
    """For-Ex's contracts (pieces) and player aid (panels), built alone: the faces read below."""
    out = tmp_path / "output"
    assert run("--out", str(out), "--game", "forex", "--component", "contracts", "--component", "player_aid",
               "--format", "png") == 0
    data = json.loads((out / "manifest.json").read_text())
    assert {f["format"] for f in data["files"]} == {"png"}  # no PDF asked for, none written
    folder = out / "forex" / "png" / "contracts"
    assert sorted(p.name for p in folder.glob("*.png")) == ["contracts-back.png", "contracts-front-01.png"]
    assert Image.open(folder / "contracts-front-01.png").size == (815, 1110)  # 69 × 94 mm at 300 dpi
    quantities = {(f["component"], f["face"]): f["quantity"] for f in data["faces"]}
    assert quantities[("contracts", "front-01")] == quantities[("contracts", "back")] == 18
    aid = Image.open(out / "forex" / "png" / "player_aid" / "player_aid-panel-01.png")  # six differing stand-ins
    assert aid.size == (round(150 / 25.4 * 300), round(200 / 25.4 * 300))  # the whole panel, not a page


def test_built_pdfs_ask_for_actual_size(every_game):
    paths = sorted(every_game[0].glob("*/*.pdf"))
    assert len(paths) > 20  # every game's component files and combined files
    for path in paths:
        reader = pypdf.PdfReader(path)
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


# --- the real generators ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> Path:
    """Bolsa and Aktsioner built with the real generators, once for the tests below."""
    out = tmp_path_factory.mktemp("real") / "output"
    assert main(["build", "--out", str(out), "--game", "bolsa", "--game", "aktsioner"]) == 0
    return out


def test_the_real_games_build_with_their_counts_and_readable_text(real):
    manifest = json.loads((real / "manifest.json").read_text())
    counts = {(c["game"], c["id"]): (c["count"], c["size_mm"]) for c in manifest["components"]}
    assert counts[("bolsa", "shares")] == (90, [63, 88])
    assert counts[("bolsa", "money")][0] == 110
    assert counts[("aktsioner", "big_cards")] == (20, [63, 88])
    assert counts[("aktsioner", "small_cards")] == (32, [63, 88])
    for entry in manifest["files"]:
        reader = pypdf.PdfReader(real / entry["path"])
        assert len(reader.pages) == entry["pages"]
        for page in reader.pages:
            size = sorted((round(float(page.mediabox.width) * PT, 1), round(float(page.mediabox.height) * PT, 1)))
            assert size == sorted(PAPERS["a4"])
    akt = pdfplumber.open(real / "aktsioner" / "aktsioner-all.pdf")  # the Russian kit, Aktsioner's own
    assert "Акционер" in akt.pages[0].extract_text() and "как печатать" in akt.pages[0].extract_text()
    assert "Telefónica" in pdfplumber.open(real / "bolsa" / "shares.pdf").pages[8].extract_text()


def test_the_real_cards_are_cut_to_size_and_marked_only_outside_them(real):
    from pnp.layout.impose import plan
    from pnp.layout.sheet import Box

    grid = plan(63, 88, 3, "a4", 5, "long", 20)  # the grid the 20 big cards get
    page = pdfplumber.open(real / "aktsioner" / "big_cards.pdf").pages[0]
    lines = [(l["x0"] * PT, l["top"] * PT, l["x1"] * PT, l["bottom"] * PT) for l in page.lines
             if abs(l["linewidth"] * PT - 0.15) < 0.01]
    marks = [m for m in lines if grid.frame.content.contains(Box(m[0], m[1], m[2] - m[0], m[3] - m[1]), 0.01)]
    xs = sorted({round(m[0], 2) for m in marks if m[0] == m[2]})
    ys = sorted({round(m[1], 2) for m in marks if m[1] == m[3]})
    # cut lines pair up into 63 mm columns and 88 mm rows (gutters make the other gaps)
    columns = [(a, b) for a in xs for b in xs if abs(b - a - 63) <= 0.1]
    rows = [(a, b) for a in ys for b in ys if abs(b - a - 88) <= 0.1]
    assert len(columns) * len(rows) == grid.per_page >= 8
    for x0, top, x1, bottom in marks:
        for left, right in columns:
            for upper, lower in rows:
                inside_x = x1 > left + 0.01 and x0 < right - 0.01
                inside_y = bottom > upper + 0.01 and top < lower - 0.01
                assert not (inside_x and inside_y), "a crop mark crosses a card"


def test_the_real_board_is_tiled_with_an_assembly_note(real):
    first = pdfplumber.open(real / "bolsa" / "bolsa-all.pdf").pages[0].extract_text()
    row = next(line for line in first.splitlines() if "Tablero de cotización" in line)
    if "parts" in row:  # tiled: the instructions explain the assembly
        assert "Assemble" in first and "glue here" in first
