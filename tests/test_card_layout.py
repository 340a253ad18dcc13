"""Card layouts that adapt: the bundled decks on 44 × 63 mm mini cards, a deck's `layout`
options, long names abbreviated before failing, and failures that say how much is missing."""

from __future__ import annotations

import math

import pytest

from pnp.components import art
from pnp.display import Group, Rect
from pnp.errors import BuildError, SpecError
from pnp.layout.impose import impose
from pnp.layout.sheet import Furniture
from pnp.layout.text import abbreviations, fit_name, text_width
from pnp.rules import rulebooks
from pnp.spec.loader import loads
from spec_text import drawn, edit
from test_art import required_contrast, text_boxes, text_grounds
from test_cards import DECKS, faces

MINI = edit("card_mm: [63, 88]", "card_mm: [44, 63]")


@pytest.mark.parametrize("game_id, deck_id", DECKS)
def test_the_bundled_decks_print_on_mini_cards_inside_the_safe_zone(game_id, deck_id):
    pieces = drawn(game_id, deck_id, MINI)
    assert (pieces.width, pieces.height) == (44, 63)
    sheets = impose(pieces, "a4", 5, "long", Furniture("game", deck_id, "stamp"))
    assert len(sheets.pages) <= 2 * math.ceil(len(pieces.pieces) / 16)  # 16 or more mini cards a sheet (9 poker)
    for face in faces(pieces):
        assert (face.width, face.height) == (44, 63)
        for text, (x0, y0, x1, y1) in text_boxes(face.items):
            assert text.size >= 6, text
            assert x0 >= 3.5 - 1e-6 and y0 >= 3.5 - 1e-6 and x1 <= 44 - 3.5 + 1e-6 and y1 <= 63 - 3.5 + 1e-6, text.text
        for text, _, ground in text_grounds(face.items):
            assert art.contrast_ratio(text.color, ground) >= required_contrast(text), text.text


def band_texts(face) -> list:
    """The texts in the colour band (above its lower edge), index chip excluded."""
    return [t for t, (x0, y0, x1, y1) in text_boxes(face.items) if y1 < 20 and x0 > 12]


def test_a_long_name_is_abbreviated_on_a_mini_card_instead_of_failing():
    text = edit("{id: IBE, name: Iberdrola,", "{id: IBE, name: Chipworks Semiconductor,", MINI)
    front = drawn("bolsa", "shares", text).pieces[0].front
    (name,) = [t for t in band_texts(front) if t.font == "bold"]
    assert name.text in list(abbreviations("Chipworks Semiconductor")) and name.text.startswith("Chipw")
    assert name.size >= 7  # the band's smallest type, as the deck's layout allows


def test_abbreviations_shorten_later_words_first_then_the_first_word():
    assert list(abbreviations("Banco Santander Central")) == [
        "Banco Santander C.", "Banco S. C.", "Banc. S. C.", "Ban. S. C."]  # fmt: skip
    assert list(abbreviations("Chipworks"))[-1] == "Chi." and list(abbreviations("Ore")) == []


def test_a_name_that_fits_no_way_says_how_much_room_is_missing():
    with pytest.raises(BuildError) as caught:
        fit_name("Chipworks", 0, 0, 4, 10, size=12, min_size=7, font="bold", what="dash/shares card 1")
    message = str(caught.value)
    assert message.startswith("dash/shares card 1: text 'Chipworks' does not fit in 4 × 10 mm even at 7 pt")
    missing = float(message.split("is ")[1].split(" mm wider")[0])
    assert missing == pytest.approx(text_width("Chipworks", "bold", 7) - 4, abs=0.05)
    assert "abbreviated, down to 'Chi.'" in message


LAYOUT = "        name: Share cards\n"


def with_layout(layout: str) -> str:
    return edit(LAYOUT, f"{LAYOUT}        layout: {layout}\n")


def test_layout_puts_the_chosen_fields_in_band_centre_and_footer():
    text = with_layout("{band: value, centre: title, footer: subtitle, corner: false}")
    front = drawn("bolsa", "shares", text).pieces[0].front
    boxes = {t.text: (t, box) for t, box in text_boxes(front.items)}
    value, (_, vy0, _, vy1) = boxes["IBE"]
    title, (_, ty0, _, ty1) = boxes["Iberdrola"]
    footer, (_, fy0, _, _) = boxes["Acción"]  # "Share" in the Spanish kit, Bolsa's own
    assert value.font == "bold" and vy1 < 20  # the code in the band
    assert ty0 > 20 and title.size > value.size  # the name large in the centre
    assert fy0 > 63 and footer.size <= 9.5  # the subtitle as small print at the foot
    assert not any(isinstance(i, Group) and i.transform[0] == -1 for i in front.items)  # no turned index
    assert not any(isinstance(i, Rect) and (i.w, i.h) == (12.5, 14.0) for _, i in art.walk(front.items))


def test_layout_type_bounds_are_honoured():
    small = drawn("bolsa", "shares", with_layout("{centre_pt: [14, 20]}")).pieces[0].front
    large = drawn("bolsa", "shares").pieces[0].front
    size = lambda face: max(t.size for t, _ in text_boxes(face.items))  # noqa: E731
    assert size(small) == 20 and size(large) > 20


@pytest.mark.parametrize("layout, path, message", [
    ("{band: name}", ".band", "expected one of"), ("{centre_pt: [20, 14]}", "", "[smallest, largest]"),
    ("{footer_pt: [4, 8]}", ".footer_pt[0]", "at least 6"), ("{corner: yes please}", ".corner", "true or false"),
])  # fmt: skip
def test_bad_layout_options_are_located_errors(layout, path, message):
    text = with_layout(layout)
    with pytest.raises(SpecError) as caught:
        loads(text, rulebooks())
    (issue,) = caught.value.issues
    assert issue.line == text.splitlines().index(f"        layout: {layout}") + 1
    assert issue.path == "games.bolsa.components[3].layout" + path and message in issue.message
