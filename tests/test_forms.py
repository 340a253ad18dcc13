"""Forms, measured from their display lists: the play-by-mail form once per player count with
2 + 4 + 5 × players columns, landscape when the columns need it, rows at least 7 mm filling the
page; account cards with a sector per colour and one for cash; titles in Russian with English
subtitles."""

from __future__ import annotations

import pytest

from panel_checks import SPEC, assert_legible, edit, panels, rects, texts
from pnp.components.art import walk
from pnp.display import Line, apply
from pnp.errors import BuildError
from pnp.layout.sheet import content_size


def row_lines(drawing):
    """The y of every horizontal line that spans the whole table (one between two rows)."""
    found = []
    for matrix, item in walk(drawing.items):
        if isinstance(item, Line) and item.y1 == item.y2:
            (x1, y), (x2, _) = apply(matrix, (item.x1, item.y1)), apply(matrix, (item.x2, item.y2))
            found.append((round(y, 6), round(x2 - x1, 6)))
    width = max(w for _, w in found)
    return sorted(y for y, w in found if w == width)


def table_frame(drawing):
    """The outer frame of the ruled table: the tallest stroke-only rectangle with a 0.5 mm line."""
    return max((r for r in rects(drawing) if r.style.fill is None and r.style.width == 0.5), key=lambda r: r.h)


def columns(drawing):
    """The columns: rectangles running down to the table's bottom, left to right."""
    frame = table_frame(drawing)
    bottom = frame.y + frame.h
    return sorted((r for r in rects(drawing) if abs(r.y + r.h - bottom) < 1e-6 and r is not frame and r.w < frame.w),
                  key=lambda r: r.x)


def pages_for(players: int):
    """The mail form's pages for one player count."""
    return panels("aktsioner", "mail_form", edit("players: [2, 3, 4]", f"players: [{players}]")).drawings


def test_mail_form_has_one_variant_per_player_count_with_2_4_and_5_per_player_columns():
    form = SPEC.games["aktsioner"].component("mail_form")
    assert form.players == (2, 3, 4)
    assert len(panels("aktsioner", "mail_form").drawings) == sum(len(pages_for(n)) for n in form.players)
    for players in form.players:
        for drawing in pages_for(players):
            assert len(columns(drawing)) == 2 + 4 + players * 5
            words = [t.text for t in texts(drawing)]
            assert [f"Игрок {n}" in " ".join(words) for n in range(1, 6)] == [n <= players for n in range(1, 6)]


def test_mail_form_turns_landscape_only_when_its_columns_need_it():
    (two,), four = pages_for(2), pages_for(4)
    assert two.width < two.height
    assert all(page.width > page.height for page in four)
    for drawing in (two, *pages_for(3), *four):
        page = content_size("a4", SPEC.print.margin_mm, landscape=drawing.width > drawing.height)
        assert (drawing.width, drawing.height) == pytest.approx(page)
        assert all(c.w >= 9.0 for c in columns(drawing))


def body_rows(drawing) -> list[float]:
    """The heights of the rows of the table's body, top to bottom."""
    frame = table_frame(drawing)
    lines = row_lines(drawing)
    body = [y for y in lines if y > lines[0] + 1e-6] + [round(frame.y + frame.h, 6)]
    return [round(b - a, 6) for a, b in zip(body, body[1:], strict=False)]


@pytest.mark.parametrize("players, formula", [(2, "3+5"), (3, "3+5"), (4, "3+5"), (4, "4+6")])
def test_the_mail_form_has_a_row_for_every_move_of_a_whole_game(players, formula):
    """One row per card dealt (each card is one move, AKT-3.2) plus the starting position —
    counted from the deal formula, so a longer deal gets more rows — at least 7 mm each."""
    big, small = map(int, formula.split("+"))
    text = edit("players: [2, 3, 4]", f"players: [{players}]", edit("formula: 3+5", f"formula: {formula}"))
    pages = panels("aktsioner", "mail_form", text).drawings
    rows = [body_rows(page) for page in pages]
    assert sum(len(r) + 1 for r in rows) >= players * (big + small) + 1
    assert min(min(r) for r in rows) >= 7.0
    for page, heights in zip(pages, rows, strict=True):
        assert len(set(heights)) == 1  # one row height on a page
        frame = table_frame(page)
        assert page.height - (frame.y + frame.h) < heights[0] + SPEC.print.safe_mm  # no room left for another row


def test_a_fixed_number_of_rows_and_a_taller_row_are_honoured():
    text = edit("        rows: moves ", "        row_mm: 12\n        rows: 10 ")
    drawing = panels("aktsioner", "mail_form", text).drawings[0]
    heights = body_rows(drawing)
    assert len(heights) + 1 == 10 and set(heights) == {12}


def test_column_titles_are_in_the_kits_russian_with_asset_badges():
    drawing = panels("aktsioner", "mail_form").drawings[0]
    found = [t.text for t in texts(drawing)]
    for russian, english in [("Игрок", "Mover"), ("Карта", "Card"), ("Деньги", "Cash"), ("С", "Blue"), ("З", "Green")]:
        assert russian in found and english not in found  # one language per kit
    assert found.count("Деньги") == 2 and found.count("К") == 3  # prices + two players
    assert "Акционер" in found


def test_account_cards_have_a_sector_per_colour_and_one_for_free_cash():
    cards = panels("aktsioner", "account_cards").drawings
    assert len(cards) == 6 and all((d.width, d.height) == (190, 130) for d in cards)
    sectors = columns(cards[0])
    assert len(sectors) == 5 and sum(s.w for s in sectors) == pytest.approx(190 - 8)
    found = texts(cards[0])
    titles = [next(t.text for t in found if t.font == "bold" and s.x <= t.cx <= s.x + s.w and s.y <= t.cy) for s in sectors]
    assert titles == ["Синие", "Красные", "Жёлтые", "Зелёные", "Свободный капитал"]
    assert [s.style.fill is not None for s in sectors] == [True, True, True, True, False]  # colour tints, cash plain
    assert len(row_lines(cards[0])) >= 10  # a pencil grid


def test_a_fifth_colour_adds_a_column_everywhere_with_no_code_change():
    text = edit("      - {id: green,", '      - {id: black,  name: Чёрные, name_en: Black, color: "#333333", symbol: star, initial: Ч}\n'
                                      "      - {id: green,")
    assert len(columns(panels("aktsioner", "account_cards", text).drawings[0])) == 6
    pages = panels("aktsioner", "mail_form", text).drawings
    two, four = pages[0], pages[-1]
    assert len(columns(two)) == 2 + 5 + 2 * 6 and len(columns(four)) == 2 + 5 + 4 * 6
    landscape = content_size("a4", SPEC.print.margin_mm, landscape=True)
    assert four.width > landscape[0] and four.height == pytest.approx(landscape[1])  # wider than a page: tiled
    assert all(c.w >= 9.0 for c in columns(four))


def test_an_unknown_placeholder_in_a_title_is_a_build_error_naming_the_form():
    with pytest.raises(BuildError, match=r"aktsioner/account_cards.*\{colour\}"):
        panels("aktsioner", "account_cards", edit('title: "{name}"}\n          - {title: Free cash',
                                                  'title: "{colour}"}\n          - {title: Free cash'))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("form_id", ["mail_form", "account_cards"])
def test_every_form_is_legible(form_id, paper):
    for drawing in panels("aktsioner", form_id, paper=paper).drawings:
        assert_legible(drawing, f"aktsioner/{form_id} on {paper}")
