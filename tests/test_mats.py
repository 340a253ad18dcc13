"""Player mats, measured from their display lists: six copies, zones laid out 3 | 4 over
1 | 2, each holding a poker card, titled in Spanish with English subtitles, the round's
phases printed, and one page per mat on A4 and Letter."""

from __future__ import annotations

import pytest

from panel_checks import SPEC, assert_legible, edit, inside, panels, rects, texts
from pnp.layout.sheet import content_size


def card_outlines(drawing):
    """The dashed card placeholders, one per zone."""
    return [r for r in rects(drawing) if r.style.dash]


def zone_numbers(drawing):
    """The zone labels in reading order (rows top to bottom, left to right): the big white
    numbers in each zone's header disc."""
    labels = [t for t in texts(drawing) if t.font == "bold" and t.text.isdigit() and t.size >= 14 and t.size < 40]
    rows: dict[float, list] = {}
    for t in labels:
        rows.setdefault(round(t.baseline, 1), []).append(t)
    return [[t.text for t in sorted(row, key=lambda t: t.x0)] for _, row in sorted(rows.items())]


def test_six_mats_with_zones_3_4_over_1_2():
    mats = panels("bolsa", "player_mats").drawings
    assert len(mats) == 6
    assert zone_numbers(mats[0]) == [["3", "4"], ["1", "2"]]


def test_every_zone_holds_a_poker_card():
    (drawing, *_) = panels("bolsa", "player_mats").drawings
    outlines = card_outlines(drawing)
    assert len(outlines) == 4
    assert all(r.w >= 63 and r.h >= 88 for r in outlines)
    zones = [r for r in rects(drawing) if r.radius == 2.5]
    for outline in outlines:  # each outline sits inside its own zone frame
        assert sum(z.x <= outline.x and outline.x + outline.w <= z.x + z.w
                   and z.y <= outline.y and outline.y + outline.h <= z.y + z.h for z in zones) == 1


def test_zones_follow_the_card_size_of_the_print_settings():
    (drawing, *_) = panels("bolsa", "player_mats", card_mm=(57, 89)).drawings
    assert {(r.w, r.h) for r in card_outlines(drawing)} == {(57, 89)}


def test_zone_titles_in_the_kits_spanish_and_the_round_in_brief():
    (drawing, *_) = panels("bolsa", "player_mats").drawings
    found = [t.text for t in texts(drawing)]
    words = " ".join(found)
    for title, english in [("Venta", "Selling"), ("Compra", "Buying"), ("Acciones en propiedad", "Owned"),
                           ("Pedidos", "Orders")]:
        assert title in words and english not in found  # one language per kit
    assert "Juego de la Bolsa de Valores" in words
    assert "Solicitud" in found and "Aprovisionamiento" in found
    for keyword in ("Solicitud", "Comercio", "Aprovisionamiento", "Fin"):
        assert keyword in found  # each phase's bold keyword


def test_zone_titles_sit_above_the_card_not_under_it():
    (drawing, *_) = panels("bolsa", "player_mats").drawings
    outlines = card_outlines(drawing)
    for t in texts(drawing):
        if t.text in ("Venta", "Compra", "Pedidos", "Selling"):
            assert not any(inside(t, outline) for outline in outlines)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_mat_prints_on_one_page(paper):
    (drawing, *_) = panels("bolsa", "player_mats", paper=paper).drawings
    w, h = content_size(paper, SPEC.print.margin_mm)
    assert drawing.width <= w and drawing.height <= h
    assert_legible(drawing, f"bolsa/player_mats on {paper}")


def test_a_mat_without_notes_and_with_three_zones_a_row():
    text = edit('            - {label: "4", title: Buying}',
                '            - {label: "4", title: Buying}\n'
                '            - {label: "5", title: Bank}')
    text = edit("        notes_title: The round\n", "", text)
    text = text.replace(text[text.index("        notes:\n          - \"**Declare**"):text.index("      - id: shares")], "", 1)
    (drawing, *_) = panels("bolsa", "player_mats", text).drawings
    assert zone_numbers(drawing) == [["3", "4", "5"], ["1", "2"]]
    assert "Solicitud" not in [t.text for t in texts(drawing)]
    assert_legible(drawing, "bolsa/player_mats with five zones")
