"""The one verdict (`pnp.checks`): each check on drawn faces, and each kind of defect injected
into a small game — 6 pt body text, a red/green pair told apart by colour alone, text outside
the safe zone, a stale translation, a piece under a cutting machine's registration mark —
found once, located, failing `validate --strict`, and shown by `build` and its gallery from
the same list. The bundled kits pass: Акционер's three here, every kit in the slow lane."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pnp.checks.colour import colour_checks
from pnp.checks.faces import contrast_checks, text_checks
from pnp.cli import main
from pnp.colours import contrast_ratio, tint
from pnp.display import Circle, Drawing, Group, Rect, Style, Text, scale
from pnp.spec.model import Asset
from spec_text import BUNDLED, ROOT

RED, GREEN = "#d62728", "#2ca02c"  # Акционер's old red and green: 4.8 ΔE00 apart with deuteranopia
ASSETS = (Asset(id="RED", name="Red", color=RED, symbol="circle"),
          Asset(id="GRN", name="Green", color=GREEN, symbol="square"))


def kinds(drawing: Drawing, *, piece: bool = True) -> list[str]:
    return [s.check for s in (*text_checks(drawing, 3.5, piece=piece), *contrast_checks(drawing),
                              *colour_checks(drawing, ASSETS))]


# --- each check on a face --------------------------------------------------------------------


def test_text_size_is_judged_by_its_role():
    card = Drawing(63, 88, (Text(31.5, 44, "Move a price up one.", 6.5, anchor="middle"),), 3)
    (seen,) = text_checks(card, 3.5, piece=True)
    assert (seen.check, seen.text) == ("small-text", "Move a price up one.") and "7 pt of body text" in seen.message
    small = Text(31.5, 80, "© 2025 Mini Games", 6.5, anchor="middle", role="small")
    assert kinds(Drawing(63, 88, (small,), 3)) == []  # small print may be 6 pt
    assert kinds(Drawing(63, 88, (Text(31.5, 80, "© 2025", 5.5, anchor="middle", role="small"),), 3)) == ["small-text"]
    watermark = Text(31.5, 60, "3", 120, anchor="middle", color="#eeeeee", role="decoration")
    assert kinds(Drawing(63, 88, (watermark,), 3)) == []  # neither size nor contrast asked of it
    picture = Group((Text(10, 10, "a card's small print, pictured", 8),), scale(0.4))  # 3.2 pt as printed
    assert kinds(Drawing(63, 88, (picture,), 3)) == []  # checked on the card itself


def test_a_block_of_lines_and_a_repeated_text_are_one_finding_each():
    block = Group(tuple(Text(5, 60 + 3 * n, line, 6.5) for n, line in enumerate(["On the display: pay", "to the left."])))
    repeated = tuple(Text(10 + 12 * n, 20, "“8” space", 6) for n in range(3))
    found = text_checks(Drawing(63, 88, (block, *repeated), 3), 3.5, piece=False)
    assert [(s.check, s.text) for s in found] == [("small-text", "On the display: pay to the left."),
                                                  ("small-text", "“8” space")]
    assert found[1].message.endswith("(3 times on this face)")
    x, y, w, h = found[0].box
    assert (x, y) == pytest.approx((5, 60 - 6.5 * 0.3528 * 0.93), abs=0.3) and h > 3  # both lines in its box


def test_text_in_the_bleed_outside_the_safe_zone_or_without_glyphs():
    assert kinds(Drawing(63, 88, (Text(-1, 44, "cut", 10),), 3)) == ["bleed"]
    assert kinds(Drawing(63, 88, (Text(1.0, 44, "edge", 10),), 3)) == ["safe-zone"]
    assert kinds(Drawing(63, 88, (Text(1.0, 44, "edge", 10),), 3), piece=False) == []  # a board has no safe zone
    assert kinds(Drawing(63, 88, (Text(31.5, 44, "clef 𝄞", 10, anchor="middle"),), 3)) == ["glyph"]
    token = Drawing(30, 16, (Text(15, 3.5, "LOAN", 8, anchor="middle"),), 3)  # the safe zone of a 16 mm token: 1.6 mm
    (seen,) = text_checks(token, 3.5, piece=True)
    assert seen.check == "safe-zone" and "1.6 mm safe zone" in seen.message


def test_text_contrast_is_wcag_aa_for_its_size():
    grey = "#949494"  # 3.03:1 on white
    assert contrast_ratio(grey, "#ffffff") == pytest.approx(3.03, abs=0.01)
    assert kinds(Drawing(63, 88, (Text(5, 40, "small", 9, color=grey),))) == ["contrast"]
    assert kinds(Drawing(63, 88, (Text(5, 40, "LARGE", 18, color=grey),))) == []  # large text needs 3:1
    band = Rect(0, 30, 63, 15, Style(fill="#0072b2"))
    assert kinds(Drawing(63, 88, (band, Text(5, 40, "on blue", 9, color="#000000")))) == ["contrast"]  # 4.23:1
    assert kinds(Drawing(63, 88, (band, Text(5, 40, "on blue", 9, color="#ffffff")))) == []  # 4.96:1
    assert kinds(Drawing(63, 88, (band, Text(5, 60, "below it", 9, color="#000000")))) == []  # on paper


def test_a_colour_and_its_own_tint_are_no_finding():
    """The old "hue only" check took a blue and its own lighter tint for two colours (#56b4e9 and
    #9ad2f2, 1.41:1); areas of one company's colour and its tint are one company, and text in
    the colour on its tint at 4.5:1 reads."""
    blue = "#0072b2"
    pale = tint(blue, 0.08)
    assert contrast_ratio(blue, pale) == pytest.approx(4.65, abs=0.01)
    cells = tuple(Rect(12 * n, 0, 12, 12, Style(fill=blue if n % 2 else pale)) for n in range(6))
    text = Text(2, 8, "7", 9, color=blue)  # the colour's own ink on its tint
    face = Drawing(72, 12, (*cells, text))
    assets = (Asset(id="GBP", name="Pound", color=blue, symbol="circle"),
              Asset(id="CAD", name="Canadian dollar", color="#56b4e9", symbol="diamond"))
    assert colour_checks(face, assets) == [] and contrast_checks(face) == []
    sky = tuple(Rect(12 * n, 0, 12, 12, Style(fill="#56b4e9" if n % 2 else "#9ad2f2")) for n in range(6))
    assert colour_checks(Drawing(72, 12, sky), assets) == []


def test_two_companies_told_apart_by_tint_alone_in_colours_deuteranopes_confuse():
    rows = tuple(Rect(12 * n, 12 * r, 12, 12, Style(fill=tint(colour, 0.22))) for r, colour in enumerate((RED, GREEN))
                 for n in range(10))
    (seen,) = colour_checks(Drawing(120, 24, rows), ASSETS)
    assert (seen.check, seen.asset) == ("colour-blind", "RED")
    assert "1 in 12 men with red–green colour blindness" in seen.message and "deuteranopia" in seen.message
    assert seen.box == (0, 0, 120, 24)
    coded = rows + tuple(Text(12 * n + 1, 12 * r + 10, a.id, 7) for r, a in enumerate(ASSETS) for n in range(10))
    assert colour_checks(Drawing(120, 24, coded), ASSETS) == []  # a code in every cell
    symbols = rows + tuple(Circle(12 * n + 3, 12 * r + 9, 1.5, Style(fill=a.color)) for r, a in enumerate(ASSETS)
                           for n in range(10))
    assert colour_checks(Drawing(120, 24, symbols), ASSETS) == []  # or a symbol in its colour
    far = (Asset(id="BLU", name="Blue", color="#0072b2", symbol="circle"),
           Asset(id="ORA", name="Orange", color="#e69f00", symbol="square"))
    apart = tuple(Rect(12 * n, 12 * r, 12, 12, Style(fill=a.color)) for r, a in enumerate(far) for n in range(10))
    assert colour_checks(Drawing(120, 24, apart), far) == []  # Okabe–Ito blue and orange: apart in every vision


# --- each defect in a small game, through validate, build and the gallery -------------------------

MINI = """\
version: 1
print: {paper: a4, card_mm: [63, 88]}
games:
  mini:
    title: Mini
    language: en
    players: {min: 2, max: 4}
    companies:
      - {id: RED, name: Red, color: "#d62728", symbol: circle}
      - {id: GRN, name: Green, color: "#2ca02c", symbol: square}
    tracks:
      price: {from: 1, to: 6, start: 3}
    components:
      - id: board
        kind: board
        name: Board
        cell_mm: 16
        sections:
          - {title: Prices, track: price, rows: each_asset, start_label: START}
      - id: cards
        kind: deck
        name: Cards
        cards:
          - {count: 4, value: "X", title: Card, text: "Move a price up one."}
      - id: markers
        kind: tokens
        name: Markers
        shape: rounded
        size_mm: [30, 16]
        tokens:
          - {front: {value: LOAN}}
"""


def verdict(spec: Path, capsys, *args: str) -> tuple[int, list[dict]]:
    """`pnp validate --json` of a spec: its exit status and findings."""
    capsys.readouterr()
    code = main(["validate", "--json", *args, str(spec)])
    return code, json.loads(capsys.readouterr().out)["findings"]


def written(folder: Path, text: str) -> Path:
    spec = folder / "components.yaml"
    spec.write_text(text, encoding="utf-8")
    return spec


@pytest.fixture
def mini(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("PNP_CACHE", "off")  # injected defects must not reach, nor come from, remembered verdicts
    return written(tmp_path, MINI)


def test_the_small_game_is_clean(mini, capsys):
    assert verdict(mini, capsys, "--strict") == (0, [])


def small_text(spec: Path, monkeypatch) -> None:
    written(spec.parent, MINI.replace('        cards:\n', '        layout: {footer_pt: [6, 6]}\n        cards:\n'))


def red_green(spec: Path, monkeypatch) -> None:
    from pnp.components import boards

    monkeypatch.setattr(boards, "_cue", lambda *args: Group(()))  # the cells without the row's symbol, as before


def safe_zone(spec: Path, monkeypatch) -> None:
    from pnp.components import tokens

    monkeypatch.setattr(tokens, "safe_zone", lambda *args: 0.0)  # tokens laid out to their old margin
    monkeypatch.setattr(tokens, "_FACES", {})


def keep_out(spec: Path, monkeypatch) -> None:
    from pnp.layout import impose

    text = MINI.replace("print: {paper: a4,", "print: {cut: silhouette, paper: a4,")
    text = text[:text.index("      - id: markers")].replace("count: 4,", "count: 9,")  # a sheet of cards, alone on card stock
    written(spec.parent, text)
    monkeypatch.setattr(impose, "clear", lambda grid, reg: grid)  # slots under the marks not kept empty
    impose.plan.cache_clear()
    monkeypatch.setattr(impose, "plan", impose.plan.__wrapped__)


def stale(spec: Path, monkeypatch) -> None:
    """A Spanish kit whose catalog translates every text (as the source, here), then the aid's
    line edited in English: its translation is fuzzy."""
    from pnp.i18n.catalogs import catalog_path, read, write

    text = MINI.replace("    language: en\n", "    language: en\n    languages: [en, es]\n")
    written(spec.parent, text)
    assert main(["translate", "update", "--spec", str(spec)]) == 0
    path = catalog_path(spec.parent, "mini", "es")
    catalog = read(path, "es")
    for message in catalog:
        if message.id:
            plural = not isinstance(message.id, str)
            message.string = tuple(message.id[min(n, 1)] for n in range(catalog.num_plurals)) if plural else message.id
    write(path, catalog)
    written(spec.parent, text.replace("Move a price up one.", "Move any price up one."))
    assert main(["translate", "update", "--spec", str(spec)]) == 0


DEFECTS = {  # kind: (how it is injected, the field it is located at)
    "small-text": (small_text, "games.mini.components[1].cards[0].text"),
    "colour-blind": (red_green, "games.mini.companies[0].color"),
    "safe-zone": (safe_zone, "games.mini.components[2].tokens[0].front.value"),
    "keep-out": (keep_out, "games.mini.components[1]"),
    "translation": (stale, ""),
}
@pytest.mark.parametrize("kind", list(DEFECTS))
def test_each_defect_is_one_located_finding_in_validate_build_and_gallery(kind, mini, monkeypatch, capsys, tmp_path):
    """Each kind of defect, injected alone, is exactly one finding, at its field (or catalog
    line); `--strict` exits 1; the build prints it, records it in its manifest — the very
    finding validate gave — and its gallery shows it."""
    inject, path = DEFECTS[kind]
    inject(mini, monkeypatch)
    code, (found, *more) = verdict(mini, capsys)
    assert code == 0 and more == [] and (found["check"], found["severity"]) == (kind, "warning")
    assert found["line"] > 0 and found["path"] == path
    assert found["file"].endswith("es/mini.po" if kind == "translation" else "components.yaml")
    assert found["component"] == {"translation": ""}.get(kind, {"colour-blind": "board", "safe-zone": "markers"}
                                                           .get(kind, "cards"))
    assert main(["validate", "--strict", str(mini)]) == 1
    capsys.readouterr()
    out = tmp_path / "out"
    assert main(["build", "-q", "--spec", str(mini), "--out", str(out), "--lang", "all"]) == 0
    said = capsys.readouterr().err.splitlines()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["findings"] == [found]  # the same list, found by the same functions
    assert [line for line in said if "warning:" in line] == [line for line in said if found["message"][:40] in line]
    assert len([line for line in said if "warning:" in line]) == 1
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count('data-check="' + kind + '"') == 1 and '1 finding</span>' in page


# --- the bundled kits pass ---------------------------------------------------------------------


def one_game(folder: Path, game: str) -> Path:
    """The bundled spec with `game` alone, beside a copy of the bundled catalogs."""
    starts = sorted(BUNDLED.index(f"\n  {g}:\n") for g in ("bolsa", "aktsioner", "forex"))
    start = BUNDLED.index(f"\n  {game}:\n")
    end = next((b for b in starts if b > start), len(BUNDLED))
    shutil.copytree(ROOT / "pnp" / "data" / "locale", folder / "locale")
    return written(folder, BUNDLED[:starts[0]] + BUNDLED[start:end])


@pytest.mark.parametrize("game", [None, pytest.param("all", marks=pytest.mark.slow)])
def test_the_bundled_kits_pass_validate_strict_in_every_language(game, tmp_path, capsys):
    """`validate --strict --lang all`: Акционер's three kits in the fast lane, all nine in the slow one."""
    spec = one_game(tmp_path, "aktsioner") if game is None else ROOT / "pnp" / "data" / "components.yaml"
    assert verdict(spec, capsys, "--strict", "--lang", "all") == (0, [])


def test_the_bundled_companies_colours_are_told_apart_in_every_vision():
    """Symbols tell every area apart; the colours do too, for every reader: no two companies',
    colours' or currencies' colours of a bundled game closer than ΔE00 10 to normal vision or
    under any dichromacy (Акционер's red and green were 4.8 under deuteranopia)."""
    from itertools import combinations

    from pnp.checks.colour import DISTINCT
    from pnp.colours import least_difference
    from pnp.rules import load_spec

    spec = load_spec(ROOT / "pnp" / "data" / "components.yaml")
    closest = {g: min(least_difference(a.color, b.color)[0] for a, b in combinations(game.assets, 2))
               for g, game in spec.games.items()}
    assert all(d >= DISTINCT for d in closest.values()), closest
    red, green = (spec.games["aktsioner"].asset(c).color for c in ("red", "green"))
    assert least_difference(red, green)[0] > 14


def test_a_kept_finding_is_located_again_in_the_spec_as_it_is_now():
    """A finding kept from an earlier run (validate's cache, a build's cached component) follows
    its field: lines added above move it, and its component found by id wherever it moved."""
    from pnp.findings import Finding
    from pnp.rules import loads_spec
    from pnp.spec.located import parse_path, relocated

    before = loads_spec(MINI)
    at = before.issue(("games", "mini", "components", 1, "cards", 0, "text"), "")
    kept = Finding("small-text", "warning", "…", "", at.file, at.line, at.col, at.path, game="mini", component="cards")
    assert Finding.from_json(kept.as_json()) == kept and Finding.from_json({"check": "x"}) is None
    assert parse_path(kept.path) == ("games", "mini", "components", 1, "cards", 0, "text")
    board = MINI[MINI.index("      - id: board"):MINI.index("      - id: cards")]
    moved = loads_spec("# a note\n" + MINI.replace(board, "").replace("      - id: markers", board + "      - id: markers"))
    again = relocated(moved, kept)
    assert again.path == "games.mini.components[0].cards[0].text" and again.line == at.line + 1 - board.count("\n")


def test_the_ink_savers_board_and_cards_are_clean_too(tmp_path, capsys):
    """The ink saver tones type and drops the rows' tints: no false finding comes of it (its start
    star is outlined, a row's colour band is told by the badge beside it). Акционер's own kit."""
    spec = one_game(tmp_path, "aktsioner")
    spec.write_text(spec.read_text(encoding="utf-8").replace("ink_saver: false", "ink_saver: true", 1), encoding="utf-8")
    assert verdict(spec, capsys, "--strict", "--lang", "ru") == (0, [])
