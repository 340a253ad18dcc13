"""Boards, measured from their display lists: cell sizes, rows in board order, one cell per
track value, the start cell marked by more than colour, marks and the setup table from the
rules engine, and spec edits (a sixth company, a 0–29 quote track) flowing through."""

from __future__ import annotations

import pytest

from panel_checks import SPEC, assert_legible, edit, inside, lines_of_text, panels, rects, texts, texts_in
from pnp.components.boards import cell_text
from pnp.rules import engine


def track_rows(drawing, cell_mm, box=None):
    """The board's cell grid: rows (top to bottom) of square cells of `cell_mm` (or of boxes
    `box` = (w, h) mm), left to right."""
    w, h = box or (cell_mm, cell_mm)
    cells = [r for r in rects(drawing) if abs(r.w - w) < 1e-6 and abs(r.h - h) < 1e-6 and r.style.width == 0.25]
    rows: dict[float, list] = {}
    for r in cells:
        rows.setdefault(round(r.y, 3), []).append(r)
    return [sorted(row, key=lambda r: r.x) for _, row in sorted(rows.items())]


def row_numbers(drawing, row):
    """The number printed in each cell: the largest text inside it."""
    found = texts(drawing)
    return [max((t for t in found if inside(t, cell)), key=lambda t: t.size).text for cell in row]


def start_cues(drawing, cell):
    """The non-colour cues inside a cell: words, and heavy stroke-only frames."""
    words = [t for t in texts_in(texts(drawing), cell) if t.isalpha()]
    frames = [r for r in rects(drawing) if r.style.fill is None and r.style.width >= 0.8
              and cell.x <= r.x and r.x + r.w <= cell.x + cell.w and cell.y <= r.y and r.y + r.h <= cell.y + cell.h]
    return words, frames


def test_cell_numbers_print_halves_as_fractions():
    assert [cell_text(v) for v in (1, 1.5, 2.5, 0.5, 10, 250, -2.5, 0.25)] == ["1", "1½", "2½", "½", "10", "250", "−2½", "0.25"]


def test_quote_board_has_the_round_track_and_one_row_per_company_in_board_order():
    board = SPEC.games["bolsa"].component("quote_board")
    (drawing,) = panels("bolsa", "quote_board").drawings
    rows = track_rows(drawing, board.cell_mm)
    assert board.cell_mm >= 12
    assert [len(row) for row in rows] == [10, 20, 20, 20, 20, 20]
    assert row_numbers(drawing, rows[0]) == [str(n) for n in range(1, 11)]
    for row in rows[1:]:
        assert row_numbers(drawing, row) == [str(n) for n in range(20)]
    found = texts(drawing)
    codes = [t for t in found if t.text in {"IBE", "SAN", "TEF", "ITX", "FER"}]
    assert [t.text for t in sorted(codes, key=lambda t: t.y0)] == ["IBE", "SAN", "TEF", "ITX", "FER"]
    for code, row in zip(sorted(codes, key=lambda t: t.y0), rows[1:], strict=True):  # each code heads its own row
        assert row[0].y <= code.cy <= row[0].y + row[0].h and code.x1 <= row[0].x


def test_start_cells_carry_a_frame_and_the_word_not_just_colour():
    board_spec = SPEC.games["bolsa"].component("quote_board")
    (drawing,) = panels("bolsa", "quote_board").drawings
    rows = track_rows(drawing, board_spec.cell_mm)
    for row, start, word in [(rows[0], 0, "INICIO")] + [(row, 10, "INICIO") for row in rows[1:]]:
        for index, cell in enumerate(row):
            words, frames = start_cues(drawing, cell)
            if index == start:
                assert words == [word] and len(frames) == 1
            else:
                assert words == [] and frames == []


def test_price_board_has_four_colour_rows_of_25_spaces_from_10_to_250():
    (drawing,) = panels("aktsioner", "price_board").drawings
    rows = track_rows(drawing, SPEC.games["aktsioner"].component("price_board").cell_mm)
    assert len(rows) == 4 and all(len(row) == 25 for row in rows)
    assert all(row_numbers(drawing, row) == [str(v) for v in range(10, 251, 10)] for row in rows)
    found = texts(drawing)
    initials = sorted((t for t in found if t.text in "СКЖЗ" and t.text), key=lambda t: t.y0)
    assert [t.text for t in initials] == ["С", "К", "Ж", "З"]
    for row in rows:
        assert start_cues(drawing, row[9]) != ([], []) and start_cues(drawing, row[9])[0] == ["СТАРТ"]


def currency_boxes(drawing):
    from pnp.components.boards import box_size

    board = SPEC.games["forex"].component("currency_board")
    return track_rows(drawing, board.cell_mm, box_size(SPEC.games["forex"], board.sections[0], board.cell_mm))


def test_currency_board_tracks_marks_and_setup_table_come_from_the_rules():
    game = SPEC.games["forex"]
    (drawing,) = panels("forex", "currency_board").drawings
    rows = currency_boxes(drawing)
    assert len(rows) == 7 and all(len(row) == 10 for row in rows)
    assert row_numbers(drawing, rows[0]) == ["1", "1½", "2", "2½", "3", "3½", "4", "5", "6", "8"]
    found = texts(drawing)
    assert all("“8” space" in " ".join(texts_in(found, row[9])) for row in rows)
    marks = engine("forex").marks(engine("forex").params(game))["start_positions"]
    ids = [a.id for a in game.assets]
    placed = 0
    for (asset_id, index), names in marks.items():
        words = " ".join(texts_in(found, rows[ids.index(asset_id)][index])).split()
        assert all(name in words for name in names), (asset_id, index, names, words)
        placed += len(names)
    assert placed == 21  # every pair counter has a marked starting box
    table = engine("forex").tables(engine("forex").params(game))["start_positions"]
    printed = lines_of_text(found)
    first = next(i for i, line in enumerate(printed) if line[0] == table.header[0])
    assert printed[first] == list(table.header)
    assert printed[first + 1 : first + 1 + len(table.rows)] == [list(row) for row in table.rows]


def test_a_sixth_company_and_a_0_to_29_quote_track_flow_through():
    text = edit("      - {id: FER, name: Ferrovial,",
                '      - {id: REP, name: Repsol, color: "#cc79a7", symbol: star}\n'
                "      - {id: FER, name: Ferrovial,")
    text = edit("quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 29, start: 15}", text)
    (drawing,) = panels("bolsa", "quote_board", text).drawings
    rows = track_rows(drawing, SPEC.games["bolsa"].component("quote_board").cell_mm)
    assert [len(row) for row in rows] == [10] + [30] * 6
    assert all(row_numbers(drawing, row) == [str(n) for n in range(30)] for row in rows[1:])
    assert all(start_cues(drawing, row[15])[0] == ["INICIO"] for row in rows[1:])
    assert "REP" in [t.text for t in texts(drawing)]


def test_cell_size_follows_the_spec_and_never_scales():
    text = edit("        cell_mm: 16                 # a 15 mm token sits inside a cell\n        sections:\n          - {title: Round",
                "        cell_mm: 20\n        sections:\n          - {title: Round")
    (drawing,) = panels("bolsa", "quote_board", text).drawings
    rows = track_rows(drawing, 20)
    assert [len(row) for row in rows] == [10, 20, 20, 20, 20, 20]
    assert drawing.width > 20 * 20  # drawn whole; layout tiles it


def test_rows_are_tinted_lightly_in_their_asset_colour_unless_ink_saver():
    from pnp.components.art import luminance

    (tinted,) = panels("bolsa", "quote_board").drawings
    (saver,) = panels("bolsa", "quote_board", ink_saver=True).drawings
    fills = [{cell.style.fill for cell in row} for row in track_rows(tinted, SPEC.games["bolsa"].component("quote_board").cell_mm)[1:]]
    assert all(len(row) == 1 for row in fills) and len({next(iter(row)) for row in fills}) == 5
    for row, asset in zip(fills, SPEC.games["bolsa"].assets, strict=True):
        fill = next(iter(row))
        assert luminance(asset.color) < luminance(fill) < 1.0
    assert {cell.style.fill for row in track_rows(saver, SPEC.games["bolsa"].component("quote_board").cell_mm) for cell in row} == {None}


def test_copies_give_one_drawing_each():
    text = edit("        name: Quote board\n", "        name: Quote board\n        copies: 2\n")
    assert len(panels("bolsa", "quote_board", text).drawings) == 2


@pytest.mark.parametrize("game_id, board_id", [("bolsa", "quote_board"), ("aktsioner", "price_board"), ("forex", "currency_board")])
def test_every_text_is_legible_and_inside_the_board(game_id, board_id):
    for drawing in panels(game_id, board_id).drawings:
        assert_legible(drawing, f"{game_id}/{board_id}")


def test_every_box_of_the_currency_board_holds_the_largest_stack_side_by_side():
    """A currency is the stronger side of at most one pair per other currency (FOREX-2.1), and
    they can all meet in one box: each box has a place for each (6), wide enough for a counter."""
    from pnp.components.boards import SPOT

    game = SPEC.games["forex"]
    counter = max(game.component("pair_counters").size_mm)
    (drawing,) = panels("forex", "currency_board").drawings
    rows = currency_boxes(drawing)
    places = [r for r in rects(drawing) if r.style == SPOT]
    assert len(places) == 7 * 10 * (len(game.assets) - 1)
    assert all(min(p.w, p.h) >= counter for p in places)  # a 14 mm counter sits in its place
    for row in rows:
        for box in row:
            inside_box = [p for p in places if box.x <= p.x and p.x + p.w <= box.x + box.w and box.y <= p.y and p.y + p.h <= box.y + box.h]
            assert len(inside_box) == len(game.assets) - 1


ROUND = "          - {title: Round, track: round, start_label: START}"


def cells_of(drawing):
    """Every square track cell (thin outline) with the number inside it: {number: rect}."""
    found = texts(drawing)
    squares = [r for r in rects(drawing) if abs(r.w - r.h) < 1e-6 and r.w >= 12 and r.style.width < 0.5
               and r.style.stroke is not None]  # fmt: skip
    numbers = {}
    for r in squares:
        inside_texts = [t for t in found if inside(t, r)]
        if inside_texts:
            numbers[max(inside_texts, key=lambda t: t.size).text] = r
    return numbers


def test_a_loop_track_runs_round_the_board_edge_clockwise_around_everything_else():
    text = edit(ROUND, "          - {title: Round, track: round, start_label: START, layout: loop}")
    text = edit("round: {from: 1, to: 10, start: 1}", "round: {from: 101, to: 161, start: 101}", text)
    (drawing,) = panels("bolsa", "quote_board", text).drawings
    cells = cells_of(drawing)
    ring = [cells[str(n)] for n in range(101, 162)]  # numbers the quote rows (0-19) do not have
    size = ring[0].w
    left, top = min(r.x for r in ring), min(r.y for r in ring)
    right, bottom = max(r.x + r.w for r in ring), max(r.y + r.h for r in ring)
    assert (ring[0].x, ring[0].y) == (left, top)  # the first cell in the top-left corner
    for a, b in zip(ring, ring[1:], strict=False):  # each next cell touches the one before, turning clockwise
        assert abs(a.x - b.x) + abs(a.y - b.y) == pytest.approx(size)
    on_edge = [r.x == left or r.y == top or r.x + r.w == pytest.approx(right) or r.y + r.h == pytest.approx(bottom)
               for r in ring]  # fmt: skip
    assert all(on_edge)
    assert ring[-1].x == left and ring[-1].y >= top + size  # 61 cells: the ring closes on the left side
    for t in texts(drawing):  # the quote rows and the title sit inside the ring
        if t.text in {"IBE", "FER", "Tablero de cotización"}:
            assert left + size < t.x0 and t.x1 < right - size and top + size < t.y0 and t.y1 < bottom - size
    assert_legible(drawing, "bolsa/quote_board")


@pytest.mark.parametrize("last, spare", [(110, 0), (111, 1)])
def test_an_odd_loop_leaves_one_hatched_cell_and_cells_grow_rather_than_crowd(last, spare):
    text = edit(ROUND, "          - {title: Round, track: round, start_label: START, layout: loop}")
    text = edit("round: {from: 1, to: 10, start: 1}", f"round: {{from: 101, to: {last}, start: 101}}", text)
    (drawing,) = panels("bolsa", "quote_board", text).drawings  # 10 or 11 cells round a wide quote table
    ring = [cells_of(drawing)[str(n)] for n in range(101, last + 1)]
    size = ring[0].w
    assert len({round(r.w, 6) for r in ring}) == 1 and size > 16  # larger than cell_mm, to go round
    found = texts(drawing)
    empty = [r for r in rects(drawing) if abs(r.w - size) < 1e-6 and abs(r.h - size) < 1e-6
             and not any(inside(t, r) for t in found)]  # fmt: skip
    assert len(empty) == spare


def test_a_grid_track_reads_like_text_in_its_columns():
    text = edit(ROUND, "          - {title: Round, track: round, start_label: START, layout: grid, "
                       "columns: 4}")
    text = edit("round: {from: 1, to: 10, start: 1}", "round: {from: 101, to: 110, start: 101}", text)
    (drawing,) = panels("bolsa", "quote_board", text).drawings
    cells = cells_of(drawing)
    grid = [cells[str(n)] for n in range(101, 111)]
    rows = sorted({round(r.y, 3) for r in grid})
    assert len(rows) == 3 and [sum(round(r.y, 3) == y for r in grid) for y in rows] == [4, 4, 2]
    assert [r.x for r in grid[:4]] == sorted(r.x for r in grid[:4]) and grid[4].x == grid[0].x


@pytest.mark.parametrize("section, message", [
    ("{title: Ronda, table: setup, layout: loop}", "give `track`"),
    ("{title: Ronda, track: round, rows: each_asset, layout: grid}", "rows: single"),
    ("{title: Ronda, track: round, columns: 3}", "`columns` is for `layout: grid`"),
])  # fmt: skip
def test_loop_and_grid_mistakes_are_located(section, message):
    from pnp.errors import SpecError
    from pnp.rules import rulebooks
    from pnp.spec.loader import loads

    with pytest.raises(SpecError) as caught:
        loads(edit(ROUND, f"          - {section}"), rulebooks())
    issue = caught.value.issues[0]
    assert issue.path == "games.bolsa.components[0].sections[0]" and message in issue.message
