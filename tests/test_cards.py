"""Card decks from the spec: sizes, counts, safe zone, type sizes, contrast, corner indexes,
symmetric and distinct backs, the Aktsioner small cards' inks, and spec changes flowing through."""

from __future__ import annotations

import io

import pytest

from pnp.components import Context, art
from pnp.components.cards import deck as draw_deck
from pnp.display import Rect, Text
from pnp.errors import BuildError
from spec_text import drawn, edit, kit_of, spec_of
from test_art import half_turned, required_contrast, shapes_of, text_boxes, text_grounds

DECKS = [("bolsa", "shares"), ("aktsioner", "big_cards"), ("aktsioner", "small_cards"),
         ("forex", "contracts"), ("forex", "dividends"), ("forex", "certificates")]  # fmt: skip


def faces(pieces):
    """Each distinct drawing once (copies share one)."""
    seen = {}
    for piece in pieces.pieces:
        for face in (piece.front, piece.back):
            if face is not None:
                seen.setdefault(id(face), face)
    return list(seen.values())


# --- sizes and counts ---------------------------------------------------------------------


@pytest.mark.parametrize("game_id, deck_id, count", [
    ("bolsa", "shares", 90), ("aktsioner", "big_cards", 20), ("aktsioner", "small_cards", 32),
    ("forex", "contracts", 18), ("forex", "dividends", 5), ("forex", "certificates", 56),
])  # fmt: skip
def test_every_deck_has_its_count_at_its_size_with_the_print_bleed(game_id, deck_id, count):
    pieces = drawn(game_id, deck_id)
    settings = spec_of().print
    assert len(pieces.pieces) == count
    assert (pieces.width, pieces.height, pieces.bleed, pieces.cut) == (63, 88, settings.bleed_mm, "rect")
    for face in faces(pieces):
        assert (face.width, face.height, face.bleed) == (63, 88, settings.bleed_mm)
    assert len({id(p.back) for p in pieces.pieces}) == 1  # one common back


def test_a_deck_size_and_print_settings_flow_through():
    text = edit("        name: Contract cards\n", "        name: Contract cards\n        size_mm: [57, 89]\n")
    text = edit("bleed_mm: 3\n", "bleed_mm: 2\n", text)
    pieces = drawn("forex", "contracts", text)
    assert (pieces.width, pieces.height, pieces.bleed) == (57, 89, 2)
    assert all((f.width, f.height, f.bleed) == (57, 89, 2) for f in faces(pieces))


def test_asset_cards_follow_the_companies_in_board_order():
    pieces = drawn("bolsa", "shares")
    codes = [p.front for p in pieces.pieces[::18]]
    values = [[t.text for t, _ in text_boxes(face.items) if t.size >= 14] for face in codes]
    assert values == [["IBE"], ["SAN"], ["TEF"], ["ITX"], ["FER"]]


# --- what is printed where ------------------------------------------------------------------


@pytest.mark.parametrize("game_id, deck_id", DECKS)
def test_all_text_is_inside_the_safe_zone_at_six_points_or_more(game_id, deck_id):
    pieces = drawn(game_id, deck_id)
    safe = spec_of().print.safe_mm
    for face in faces(pieces):
        boxes = text_boxes(face.items)
        assert boxes
        for text, (x0, y0, x1, y1) in boxes:
            assert text.size >= 6, text
            where = (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))
            assert x0 >= safe - 1e-6 and y0 >= safe - 1e-6, (text.text, where)
            assert x1 <= face.width - safe + 1e-6 and y1 <= face.height - safe + 1e-6, (text.text, where)


@pytest.mark.parametrize("game_id, deck_id", DECKS)
def test_the_value_is_the_one_large_element(game_id, deck_id):
    spec = spec_of()
    game = spec.games[game_id]
    from pnp.spec.faces import deck_pieces

    pieces = drawn(game_id, deck_id)
    for piece, art_piece in zip(deck_pieces(game, game.component(deck_id)), pieces.pieces, strict=True):
        texts = [t for t, _ in text_boxes(art_piece.front.items)]
        largest = max(texts, key=lambda t: t.size)
        assert largest.text == piece.front.value and largest.size >= 14


@pytest.mark.parametrize("game_id, deck_id", DECKS)
def test_text_contrasts_with_what_it_is_printed_on(game_id, deck_id):
    for face in faces(drawn(game_id, deck_id)):
        for text, _, ground in text_grounds(face.items):
            assert art.contrast_ratio(text.color, ground) >= required_contrast(text), (text.text, text.color, ground)


def test_corner_index_top_left_and_turned_bottom_right():
    pieces = drawn("aktsioner", "small_cards")
    front = pieces.pieces[1].front  # red +30: the first entry (+30) for the four colours, red second
    corner = [(t, box) for t, box in text_boxes(front.items) if t.text in ("+30", "К") and t.size < 14]
    upright = [box for t, box in corner if box[0] < 20 and box[1] < 20]
    turned = [box for t, box in corner if box[2] > 63 - 20 and box[3] > 88 - 20]
    assert len(upright) == 2 and len(turned) == 2  # the number and the initial, at both corners
    matrices = [m for m, t in art.texts(front.items) if t.text == "К"]
    assert sorted(round(m[0]) for m in matrices) == [-1, 1]  # one of them is upside down


def test_asset_cards_have_a_band_of_their_colour_into_the_bleed_and_a_badge():
    pieces = drawn("bolsa", "shares")
    bleed = pieces.bleed
    for piece, colour in zip(pieces.pieces[::18], ("#009e73", "#d55e00", "#0072b2", "#000000", "#e69f00"), strict=True):
        rects = [i for _, i in art.walk(piece.front.items) if isinstance(i, Rect) and i.style.fill == colour]
        band = max(rects, key=lambda r: r.w * r.h)
        assert band.x == -bleed and band.y == -bleed and band.w == 63 + 2 * bleed and band.h > 15
        assert any(key[0] == "polygon" or key[0] == "circle" for key in shapes_of(piece.front.items))


def test_ink_saver_keeps_the_bands_light():
    pieces = drawn("bolsa", "shares", edit("ink_saver: false", "ink_saver: true"))
    band = next(i for _, i in art.walk(pieces.pieces[0].front.items) if isinstance(i, Rect) and i.y == -pieces.bleed)
    assert art.luminance(band.style.fill) > 0.6
    back_fills = [i.style.fill for _, i in art.walk(pieces.pieces[0].back.items) if isinstance(i, Rect)]
    assert "#3b4a5a" not in back_fills  # the back's dark panel is gone too


def _ink(drawing) -> float:
    """The share of ink on a face at 40 dpi: 0 for white paper, 1 for solid black."""
    from PIL import Image

    from pnp.render.png import drawing_png

    grey = Image.open(io.BytesIO(drawing_png(drawing, 40))).convert("L")
    return 1 - sum(grey.histogram()[v] * v for v in range(256)) / 255 / (grey.width * grey.height)


@pytest.mark.parametrize("game, deck", [("bolsa", "shares"), ("forex", "certificates")])
def test_backs_are_light_by_default_and_dark_on_request(game, deck):
    """VISUAL.md asks for light backgrounds, and a home duplex printer's misregistration shows
    least on a light back: the default back inks less than the front; `backs: dark` floods it."""
    light = drawn(game, deck).pieces[0]
    dark = drawn(game, deck, edit("backs: light", "backs: dark")).pieces[0]
    assert _ink(light.back) < min(0.12, _ink(light.front))
    assert _ink(dark.back) > 0.3


# --- Aktsioner small cards: the seed's two inks ------------------------------------------------


def test_small_cards_print_the_coloured_number_in_the_card_colour_and_the_other_neutral():
    spec = spec_of()
    game = spec.games["aktsioner"]
    from pnp.spec.faces import deck_pieces

    pieces = drawn("aktsioner", "small_cards")
    for piece, art_piece in zip(deck_pieces(game, game.component("small_cards")), pieces.pieces, strict=True):
        colour = piece.front.asset.color
        texts = {t.text: (t, box, ground) for t, box, ground in text_grounds(art_piece.front.items) if t.size >= 14}
        value, value_box, value_ground = texts[piece.front.value]
        other, other_box, _ = texts[piece.front.other]
        assert other.color == "#000000"
        if art.contrast_ratio(colour, "#ffffff") >= 3:
            assert value.color == colour
        else:  # yellow: dark figures on a bar of the card's colour
            assert value_ground == colour
        increase, decrease = (value_box, other_box) if piece.front.value.startswith("+") else (other_box, value_box)
        assert increase[3] <= decrease[1]  # «верхняя цифра» raises, «нижняя» lowers


# --- backs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id, deck_id", DECKS)
def test_backs_are_unchanged_by_a_half_turn(game_id, deck_id):
    back = drawn(game_id, deck_id).pieces[0].back
    assert half_turned(back.items, back.width / 2, back.height / 2) == shapes_of(back.items)
    upright = " ".join(t.text for t, box in text_boxes(back.items) if box[3] < back.height / 2)
    deck = kit_of(game_id).game.component(deck_id)  # the back's words as the default kit prints them
    assert deck.back.title in upright and deck.back.subtitle in upright


def test_a_front_is_not_symmetric_so_the_symmetry_test_can_fail():
    front = drawn("bolsa", "shares").pieces[0].front
    assert half_turned(front.items, 31.5, 44) != shapes_of(front.items)


def test_distinct_decks_have_distinct_backs():
    backs = [frozenset(shapes_of(drawn(g, d).pieces[0].back.items).items()) for g, d in DECKS]
    assert len(set(backs)) == len(DECKS)


# --- the spec drives everything -------------------------------------------------------------


def test_a_sixth_company_gets_its_own_cards_with_no_code_change():
    sixth = '      - {id: REP, name: Repsol,     name_en: Repsol,     color: "#cc79a7", symbol: star}\n'
    text = edit("    tracks:\n      round:", sixth + "\n    tracks:\n      round:")
    pieces = drawn("bolsa", "shares", text)
    assert len(pieces.pieces) == 108
    last = pieces.pieces[-1].front
    texts = [t.text for t, _ in text_boxes(last.items)]
    assert "REP" in texts and "Repsol" in texts
    assert any(isinstance(i, Rect) and i.style.fill == "#cc79a7" for _, i in art.walk(last.items))


def test_text_that_cannot_fit_fails_naming_the_card():
    text = edit('value: "{id}"\n            title: "{name}"', 'value: "{id}{id}{id}{id}"\n            title: "{name}"')
    spec = spec_of(text)
    game = spec.games["bolsa"]
    with pytest.raises(BuildError, match=r"bolsa/shares card 1\b"):
        draw_deck(Context("bolsa", game, spec.print), game.component("shares"))


def test_a_card_renders_to_815_by_1110_pixels_with_its_band_colour():
    from PIL import Image

    from pnp.render.png import drawing_png

    image = Image.open(io.BytesIO(drawing_png(drawn("bolsa", "shares").pieces[18].front, 300)))
    assert image.size == (815, 1110)
    assert image.convert("RGB").getpixel((400, 20)) == (0xD5, 0x5E, 0x00)  # Santander's band, in the bleed


def test_copies_share_one_drawing():
    pieces = drawn("bolsa", "shares")
    assert len({id(p.front) for p in pieces.pieces}) == 5
    assert all(isinstance(t, Text) for t, _ in text_boxes(pieces.pieces[0].front.items))
