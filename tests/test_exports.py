"""Exports beyond the home printer: distinct faces as PNG, print-shop profiles, Tabletop
Simulator. Built on examples/tulips — a small game with every kind of piece (a board, two-sided
hexagon tokens, a poker deck with SVG art, a mini deck, money, an aid) — and on single
components of the bundled games."""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import shutil
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdf
import pytest
from PIL import Image

from pnp.build import Progress
from pnp.build import build as build_kit
from pnp.cache import Cache
from pnp.cli import main
from pnp.display import Drawing, Rect, Style
from pnp.export import faces_of, reused_files, tts
from pnp.export.profiles import PROFILES, fitted_png, profile_named, write
from pnp.spec.faces import piece_count
from pnp.spec.loader import load
from spec_text import drawn, spec_of

ROOT = Path(__file__).resolve().parents[1]
TULIPS = ROOT / "examples" / "tulips" / "components.yaml"
MM_PER_IN = 25.4


def build(out: Path, *args: str) -> int:
    return main(["build", "--spec", str(TULIPS), "--out", str(out), *args])


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Tulips with PNG faces, Tabletop Simulator files and The Game Crafter's cards."""
    out = tmp_path_factory.mktemp("exports") / "output"
    assert build(out, "--format", "png,tts", "--profile", "tgc") == 0
    return out


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


# --- distinct faces -------------------------------------------------------------------------


def test_png_writes_each_distinct_face_once_with_its_quantity_in_the_manifest(built):
    data = manifest(built)
    game = load(TULIPS).games["tulips"]
    faces = [f for f in data["faces"] if f["game"] == "tulips"]
    pngs = {f["path"] for f in data["files"] if f["format"] == "png" and "/png/" in f["path"]}
    assert pngs == {f"tulips/png/{f['component']}/{f['component']}-{f['face']}.png" for f in faces}
    for component in game.components:
        mine = [f for f in faces if f["component"] == component.id]
        fronts = [f for f in mine if f["side"] in ("front", "panel", "page")]
        assert sum(f["quantity"] for f in fronts) == (piece_count(game, component) if component.kind != "aid" else 1)
    bulbs = [f for f in faces if f["component"] == "bulbs"]
    assert {f["face"]: f["quantity"] for f in bulbs} == {"front-01": 8, "front-02": 8, "front-03": 8, "front-04": 8,
                                                          "back": 32}
    kinds = [p for p in data["pieces"] if p["component"] == "bulbs"]
    assert {(p["front"], p["back"], p["quantity"]) for p in kinds} == {(f"front-0{n}", "back", 8) for n in range(1, 5)}


def test_pieces_print_with_their_bleed_and_boards_at_full_size_at_300_dpi(built):
    card = Image.open(built / "tulips" / "png" / "bulbs" / "bulbs-front-01.png")
    assert card.size == (round(50 / MM_PER_IN * 300), round(69 / MM_PER_IN * 300))  # 44 × 63 mm + 2 × 3 mm
    face = next(f for f in manifest(built)["faces"] if f["component"] == "market_board")
    board = Image.open(built / "tulips" / "png" / "market_board" / "market_board-panel.png")
    assert board.size == tuple(round(v / MM_PER_IN * 300) for v in face["size_mm"])
    assert face["size_mm"][0] > 210  # one image of the whole board, not page tiles
    assert board.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_copies_share_one_face_and_equal_drawings_are_found_equal():
    mats = faces_of("bolsa", spec_of().games["bolsa"].component("player_mats"), drawn("bolsa", "player_mats"))
    assert [(f.name, f.quantity) for f in mats.faces] == [("panel", 6)]
    shares = faces_of("bolsa", spec_of().games["bolsa"].component("shares"), drawn("bolsa", "shares"))
    assert [f.quantity for f in shares.faces] == [18] * 5 + [90]


# --- print-shop profiles --------------------------------------------------------------------


def test_the_profiles_give_the_shops_published_sizes():
    tgc, mpc = PROFILES["tgc"], PROFILES["mpc"]
    assert tgc.pixels(tgc.products[0]) == (825, 1125)  # poker, 1/8 in bleed
    assert tgc.pixels(tgc.products[1]) == (600, 825)  # mini
    assert mpc.pixels(mpc.products[0]) == (822, 1122)
    assert PROFILES["dtc"].colour == "CMYK" and PROFILES["dtc"].pdfx == "x1a" and PROFILES["offset"].pdfx == "x1a"
    assert PROFILES["offset"].bleed_in * MM_PER_IN == pytest.approx(3.0) and PROFILES["pdf-trim"].colour == "RGB"


def test_profile_list_describes_every_profile(capsys):
    assert main(["build", "--profile", "list"]) == 0
    text = capsys.readouterr().out
    assert [line.split()[0] for line in text.splitlines()] == list(PROFILES)
    assert "825×1125 px" in text and "822×1122 px" in text


def test_an_unknown_profile_is_a_usage_error(tmp_path, capsys):
    assert build(tmp_path / "out", "--profile", "lulu") == 2
    assert "--profile lulu: no such profile" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_tgc_gets_every_deck_face_at_its_product_size_in_rgb(built):
    folder = built / "tulips" / "tgc"
    assert sorted(p.name for p in folder.iterdir()) == ["bulbs", "market"]  # decks only
    sizes = {(p.parent.name, Image.open(p).size, Image.open(p).mode) for p in folder.rglob("*.png")}
    assert sizes == {("market", (825, 1125), "RGB"), ("bulbs", (600, 825), "RGB")}
    market = [f for f in manifest(built)["faces"] if f["component"] == "market"]
    assert len(list((folder / "market").glob("*.png"))) == len(market)


def _bands(drawing_w: float, drawing_h: float, bleed: float, safe: float) -> Drawing:
    """Red bleed, white card, a black frame at the safe zone's edge."""
    return Drawing(drawing_w, drawing_h, (
        Rect(-bleed, -bleed, drawing_w + 2 * bleed, drawing_h + 2 * bleed, Style(fill="#ff0000")),
        Rect(0, 0, drawing_w, drawing_h, Style(fill="#ffffff")),
        Rect(safe, safe, drawing_w - 2 * safe, drawing_h - 2 * safe, Style(stroke="#000000", width=0.5)),
    ), bleed)


@pytest.mark.parametrize("name, bleed_px", [("tgc", 37), ("mpc", 36)])
def test_the_bleed_is_stretched_and_the_card_never_cropped(name, bleed_px):
    """A 63 × 88 mm card with 3 mm bleed onto a 2.5 × 3.5 in product: the card's edge lands on
    the product's trim, the bleed fills the product's bleed, the safe-zone frame is whole."""
    profile = PROFILES[name]
    image = Image.open(io.BytesIO(fitted_png(_bands(63, 88, 3, 3.5), profile, profile.products[0]))).convert("RGB")
    assert image.size == profile.pixels(profile.products[0])
    middle_y, middle_x = image.height // 2, image.width // 2
    def red(x: int, y: int) -> bool:
        r, g, b = image.getpixel((x, y))
        return r > 220 and max(g, b) < 40

    assert red(bleed_px - 3, middle_y) and red(middle_x, bleed_px - 3)  # the bleed just outside the trim
    assert red(0, 0) and red(image.width - 1, image.height - 1)
    assert min(image.getpixel((bleed_px + 4, middle_y))) > 240  # white card just inside it
    safe_px = 3.5 / MM_PER_IN * 300
    for x, y in ((bleed_px + safe_px, middle_y), (image.width - bleed_px - safe_px, middle_y),
                 (middle_x, bleed_px + safe_px), (middle_x, image.height - bleed_px - safe_px)):
        dark = [max(image.getpixel((round(x) + dx, round(y) + dy))) for dx in range(-3, 4) for dy in range(-3, 4)]
        assert min(dark) < 80, (name, x, y)  # the frame is still there, where the designer put it


def test_a_deck_that_fits_no_product_stops_the_build_before_anything_is_written(tmp_path, capsys):
    out = tmp_path / "out"
    assert build(out, "--profile", "mpc") == 1
    err = capsys.readouterr().err
    assert "--profile mpc: tulips/bulbs: cards are 44 × 63 mm; MakePlayingCards prints poker 63.5 × 88.9 mm" in err
    assert "tulips/market" not in err  # 63 × 88 mm is a poker card within 2 %
    assert not out.exists()


def test_pdfx_refuses_svg_art_with_a_gradient_and_takes_the_rest(tmp_path, capsys):
    """Tulips' SVG art is drawn in flat colours, which PDF/X takes through the profile; a
    gradient is refused before anything is written, naming the file."""
    spec = tmp_path / "spec"
    shutil.copytree(TULIPS.parent, spec)
    back = spec / "art" / "back.svg"
    text = back.read_text(encoding="utf-8")
    back.write_text(text.replace("</svg>", '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/>'
                                           '</linearGradient></defs></svg>'), encoding="utf-8")
    assert main(["build", "--spec", str(spec / "components.yaml"), "--out", str(tmp_path / "out"), "--profile",
                 "dtc"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert ("--profile dtc: tulips/market: art/back.svg has a gradient or an image inside, which PDF/X-1a:2003 for "
            "DriveThruCards cannot hold in CMYK: flatten it, or give the art as PNG") in err
    assert not (tmp_path / "out").exists()


def test_dtc_writes_one_cmyk_pdf_per_deck_back_then_front_with_trim_and_bleed_boxes(tmp_path):
    spec = spec_of()
    component = spec.games["forex"].component("contracts")
    faces = faces_of("forex", component, drawn("forex", "contracts"))
    (entry,) = write(tmp_path, profile_named("dtc"), [faces])
    reader = pypdf.PdfReader(tmp_path / entry.path)
    count = piece_count(spec.games["forex"], component)
    assert entry.pages == len(reader.pages) == 2 * count
    inch = 72.0
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 2.75 * inch, 3.75 * inch], abs=0.01)
        trim = [v * inch for v in (0.125, 0.125, 2.625, 3.625)]
        assert [float(v) for v in page.trimbox] == pytest.approx(trim, abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([float(v) for v in page.mediabox])
    texts = [page.extract_text() for page in reader.pages[:4]]
    assert "For-Ex" in texts[0] and "Contract" in texts[1]  # the back, then the front of card 1
    stream = drawn_on(reader.pages[1])
    assert b" k\n" in stream and b" rg\n" not in stream  # colours in CMYK only
    assert reader.trailer["/Root"]["/OutputIntents"][0]["/OutputConditionIdentifier"] == "FOGRA39"


def drawn_on(page) -> bytes:
    """Everything a PDF page draws: its content stream and those of the form XObjects it uses
    (a face placed many times is drawn once as a form)."""
    found = [page.get_contents().get_data()]

    def forms(resources) -> None:
        for xobject in (resources or {}).get("/XObject", {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                found.append(xobject.get_data())
                forms(xobject.get("/Resources"))

    forms(page.get("/Resources"))
    return b"\n".join(found)


def test_pdf_trim_gives_every_page_its_trim_and_bleed_boxes(tmp_path):
    out = tmp_path / "out"
    assert build(out, "--profile", "pdf-trim") == 0
    files = sorted((out / "tulips" / "pdf-trim").glob("*.pdf"))
    assert [p.stem for p in files] == sorted(c.id for c in load(TULIPS).games["tulips"].components)
    market = pypdf.PdfReader(out / "tulips" / "pdf-trim" / "market.pdf")
    assert len(market.pages) == 2 * 30  # front then back of each of the 30 cards
    for path in files:
        for page in pypdf.PdfReader(path).pages:
            assert "/TrimBox" in page and "/BleedBox" in page
    trim = [float(v) for v in market.pages[0].trimbox]
    assert trim == pytest.approx([v * 72 / MM_PER_IN for v in (3, 3, 66, 91)], abs=0.01)


# --- Tabletop Simulator ---------------------------------------------------------------------

COMMON = {"GUID": str, "Name": str, "Nickname": str, "Transform": dict, "Locked": bool}
BY_NAME = {  # the fields TTS reads for each kind of object (kb.tabletopsimulator.com, save file format)
    "DeckCustom": {"DeckIDs": list, "CustomDeck": dict, "ContainedObjects": list},
    "Card": {"CardID": int, "CustomDeck": dict},
    "Custom_Token": {"CustomImage": dict},
    "Custom_Tile": {"CustomImage": dict},
    "Custom_Board": {"CustomImage": dict},
}
CUSTOM_DECK = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
               "UniqueBack": bool}
TRANSFORM = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")


def _check_fields(thing: dict, fields: dict, where: str) -> None:
    for key, kind in fields.items():
        assert isinstance(thing.get(key), kind), f"{where}: {key}"


def _local(url: str) -> Path:
    assert url.startswith("file:///")
    path = Path(unquote(urlparse(url).path))
    assert path.is_file(), url
    return path


def test_the_tts_save_follows_the_documented_format(built):
    save = json.loads((built / "tulips" / "tulips-tts.json").read_text(encoding="utf-8"))
    assert isinstance(save["ObjectStates"], list) and save["SaveName"] == "Tulip Mania"
    names = Counter(o["Name"] for o in save["ObjectStates"])
    assert names["DeckCustom"] == 3  # market, bulbs, guilders
    assert names["Custom_Board"] == 1 and names["Custom_Tile"] >= 1
    guids = [o["GUID"] for o in save["ObjectStates"]]
    assert len(set(guids)) == len(guids)
    for thing in save["ObjectStates"]:
        _check_fields(thing, {**COMMON, **BY_NAME[thing["Name"]]}, thing["Nickname"])
        assert set(TRANSFORM) <= set(thing["Transform"])
        if "CustomImage" in thing:
            _local(thing["CustomImage"]["ImageURL"])
        for key, deck in thing.get("CustomDeck", {}).items():
            assert key.isdigit()
            _check_fields(deck, CUSTOM_DECK, f"{thing['Nickname']} deck {key}")


def test_tts_decks_hold_every_card_with_its_id_on_its_sheet(built):
    save = json.loads((built / "tulips" / "tulips-tts.json").read_text(encoding="utf-8"))
    game = load(TULIPS).games["tulips"]
    decks = [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]
    for deck in decks:
        component = next(c for c in game.components if deck["Nickname"].startswith(c.name))
        assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == piece_count(game, component)
        assert [card["CardID"] for card in deck["ContainedObjects"]] == deck["DeckIDs"]
        for card_id in deck["DeckIDs"]:
            sheet = deck["CustomDeck"][str(card_id // 100)]
            assert card_id % 100 < sheet["NumWidth"] * sheet["NumHeight"] - 1  # never the hidden slot
        for sheet in deck["CustomDeck"].values():
            faces = Image.open(_local(sheet["FaceURL"]))
            assert faces.width <= tts.MAX_SHEET_PX and faces.height <= tts.MAX_SHEET_PX
            assert 2 <= sheet["NumWidth"] <= 10 and 2 <= sheet["NumHeight"] <= 7
            assert faces.width % sheet["NumWidth"] == 0 and faces.height % sheet["NumHeight"] == 0
            back = Image.open(_local(sheet["BackURL"]))
            assert back.size == (faces.size if sheet["UniqueBack"] else
                                 (faces.width // sheet["NumWidth"], faces.height // sheet["NumHeight"]))
    guilders = next(d for d in decks if d["Nickname"].startswith("Guilders"))
    assert all(sheet["UniqueBack"] for sheet in guilders["CustomDeck"].values())  # each value its own back


def test_tokens_become_custom_tokens_cut_along_their_shape(built):
    save = json.loads((built / "tulips" / "tulips-tts.json").read_text(encoding="utf-8"))
    game = load(TULIPS).games["tulips"]
    markers = [o for o in save["ObjectStates"] if o["Nickname"].startswith("markers")]
    assert len(markers) == piece_count(game, game.component("markers"))  # both sides alike: one image
    for marker in markers:
        assert marker["Name"] == "Custom_Token" and marker["CustomImage"]["CustomToken"]["Stackable"]
        front = Image.open(_local(marker["CustomImage"]["ImageURL"]))
        assert front.mode == "RGBA" and front.getpixel((0, 0))[3] == 0  # cut along the hexagon
        assert front.getpixel((front.width // 2, front.height // 2))[3] == 255


def test_tokens_with_a_second_side_become_tiles_with_both_faces(tmp_path):
    """Bolsa's company tokens turn over to their "+20" side: a custom token has one image, so
    they are custom tiles, octagons (a box cut to the octagon by its transparent corners), with
    the back as the secondary image."""
    spec = spec_of()
    faces = faces_of("bolsa", spec.games["bolsa"].component("tokens"), drawn("bolsa", "tokens"))
    tts.write(tmp_path, tmp_path, "bolsa", "Bolsa", [faces])
    save = json.loads((tmp_path / "bolsa" / "bolsa-tts.json").read_text(encoding="utf-8"))
    tiles = save["ObjectStates"]
    assert len(tiles) == piece_count(spec.games["bolsa"], spec.games["bolsa"].component("tokens"))
    for tile in tiles:
        assert tile["Name"] == "Custom_Tile" and tile["CustomImage"]["CustomTile"]["Type"] == 0  # a box, see-through corners
        front, back = (Image.open(_local(tile["CustomImage"][key])) for key in ("ImageURL", "ImageSecondaryURL"))
        assert front.size == back.size and front.getpixel((0, 0))[3] == 0


@pytest.mark.parametrize("count, sheets", [(1, 1), (69, 1), (70, 2), (150, 3)])
def test_tts_sheets_hold_69_faces_and_the_hidden_slot(count, sheets):
    from pnp.export.faces import Kind

    found = tts.sheets([Kind(f"front-{n}", "back", 1) for n in range(count)], 5)
    assert len(found) == sheets == math.ceil(count / 69)
    assert [s.deck_id for s in found] == list(range(5, 5 + sheets))
    for sheet in found:
        assert len(sheet.kinds) <= 69
        assert 2 <= sheet.columns <= 10 and 2 <= sheet.rows <= 7
        assert sheet.columns * sheet.rows >= len(sheet.kinds) + 1
        assert sheet.hidden_slot == sheet.columns * sheet.rows - 1 >= len(sheet.kinds)
    assert tts.grid(69) == (10, 7)


def test_a_full_sheet_of_poker_cards_stays_within_4096_px():
    spec = spec_of()
    faces = faces_of("bolsa", spec.games["bolsa"].component("shares"), drawn("bolsa", "shares"))
    full = [tts.Sheet(1, faces.kinds * 14, 10, 7)]
    w, h = tts.card_pixels(faces, full)
    assert 10 * w <= 4096 and 7 * h <= 4096
    assert 10 * w > 4000  # as fine as the width allows
    assert w / h == pytest.approx(63 / 88, abs=0.01)


def test_the_gallery_lists_each_export_folder_with_its_files(built):
    files = [f["path"] for f in manifest(built)["files"]]
    page = (built / "index.html").read_text(encoding="utf-8")
    listed = dict(re.findall(r'data-folder="([^"]+)" data-files="(\d+)"', page))
    assert sorted(listed) == ["tulips/png/", "tulips/tgc/", "tulips/tts/"]
    for folder, count in listed.items():
        assert (built / folder).is_dir() and f'href="{folder}"' in page
        assert int(count) == len([p for p in files if p.startswith(folder)]) > 0


def test_a_second_build_takes_png_faces_and_profile_files_from_the_cache(built, tmp_path):
    class Drawn(Progress):
        def __init__(self) -> None:
            self.drawn: list[str] = []

        def doing(self, game: str, what: str) -> None:
            self.drawn += [what] if what.startswith("drawing") else []

    out = tmp_path / "output"
    shutil.copytree(built, out, symlinks=True)
    before = {f["path"]: f["sha256"] for f in manifest(built)["files"] if f["path"].split("/")[1] in ("png", "tgc")}
    progress = Drawn()
    build_kit(load(TULIPS), out, ["tulips"], ("pdf", "png"), profile="tgc", progress=progress)
    assert progress.drawn == []  # nothing drawn, nothing rasterised
    after = {f["path"]: f["sha256"] for f in manifest(out)["files"] if f["path"].split("/")[1] in ("png", "tgc")}
    assert after == before and len(after) == 41 + 23
    for path, sha in after.items():
        assert hashlib.sha256((out / path).read_bytes()).hexdigest() == sha
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count('<figure class="face"') == len(manifest(out)["faces"]) == 41


def test_only_files_a_cache_note_records_in_their_own_folder_are_reused():
    cache = Cache(None)
    sha = cache.put_blob("g", b"face", "png")
    cache.put_note("g", "export-png-k", [["g/png/c/c-front-01.png", "png", 1, sha]])
    assert reused_files(cache, "g", "k", ["png"]) == [("g/png/c/c-front-01.png", "png", 1, b"face")]
    assert reused_files(cache, "g", "k", ["png", "tgc"]) is None  # no tgc files recorded: drawn again
    for path, fmt, digest in (("g/png/../../x.png", "png", sha), ("h/png/c.png", "png", sha),
                              ("g/png/c.pdf", "png", sha), ("g/png/c.png", "png", "../" + sha[3:])):
        cache.put_note("g", "export-png-k", [[path, fmt, 1, digest]])
        assert reused_files(cache, "g", "k", ["png"]) is None
