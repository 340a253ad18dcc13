"""Maps: boards of square or hexagonal cells by coordinates, measured in the PDF — a hexagon
`cell_mm` across its flats, odd columns half a cell lower, labels inside their cells — and a
map larger than a sheet tiled like any board, the cells split across two parts meeting exactly."""

from __future__ import annotations

import io
import math

import pdfplumber
import pytest

from pnp.components import Context, Panels, generate
from pnp.errors import SpecError
from pnp.layout.sheet import Furniture
from pnp.layout.tile import OVERLAP_MM, tile
from pnp.render.pdf import pdf_bytes
from pnp.rules import loads_spec

PT = 25.4 / 72
EXACT = 0.01
INFO = Furniture("Maps", "Sea", "pnp 0.0.0 · 00000000")


def board(section: str, cell_mm: float = 22) -> str:
    return f"""\
games:
  sea:
    title: Sea
    players: {{min: 2, max: 4}}
    components:
      - id: sea
        kind: board
        name: The sea
        cell_mm: {cell_mm}
        sections:
          - {section}
"""


def drawing(text: str):
    spec = loads_spec(text)
    game = spec.games["sea"]
    (drawn,) = generate(Context("sea", game, spec.print), game.component("sea")).drawings
    return drawn


def hexagons(page) -> list[tuple[tuple[float, float], ...]]:
    """The hexagons on a page: each its six corners (mm, from the page's top-left), rounded."""
    return [tuple((round(x * PT, 3), round(y * PT, 3)) for x, y in curve["pts"][:6]) for curve in page.curves
            if len(curve["pts"]) == 7]


def test_a_hexagon_is_cell_mm_across_its_flats_and_odd_columns_sit_half_a_cell_lower():
    cells = "{at: [0, 0]}, {at: [1, 0]}, {at: [2, 0]}, {at: [0, 1]}"
    pages = tile_of(board(f"{{layout: hex, cells: [{cells}]}}", cell_mm=20))
    shapes = hexagons(pdfplumber.open(io.BytesIO(pdf_bytes(pages.pages))).pages[0])
    assert len(shapes) == 4
    boxes = sorted((min(x for x, _ in s), min(y for _, y in s), max(x for x, _ in s), max(y for _, y in s))
                   for s in shapes)
    for x0, y0, x1, y1 in boxes:
        assert y1 - y0 == pytest.approx(20, abs=EXACT)  # across the flats
        assert x1 - x0 == pytest.approx(40 / math.sqrt(3), abs=EXACT)  # corner to corner
    (a, b, c, d) = boxes  # [0, 0] and [0, 1] share column 0; [1, 0] is in an odd column; [2, 0]
    assert b[1] - a[1] == pytest.approx(20, abs=EXACT) and b[0] == pytest.approx(a[0], abs=EXACT)
    assert c[1] - a[1] == pytest.approx(10, abs=EXACT)  # half a cell lower
    assert c[0] - a[0] == pytest.approx(1.5 * 20 / math.sqrt(3), abs=EXACT)  # ¾ of a hexagon's width along
    assert d[1] == pytest.approx(a[1], abs=EXACT)


def tile_of(text: str):
    return tile(Panels((drawing(text),)), "a4", 5, INFO)


def test_a_hex_map_larger_than_a_sheet_tiles_with_its_cells_meeting_across_the_parts():
    labels = ", ".join(f"{{at: [{c}, 1], label: C{c}}}" for c in range(16))
    tiling = tile_of(board(f"{{title: Islands, layout: hex, area: [16, 6], coordinates: true, cells: [{labels}]}}"))
    assert tiling.tiled and len(tiling.pages) == 2
    first, second = tiling.tiles
    pdf = pdfplumber.open(io.BytesIO(pdf_bytes(tiling.pages)))
    origins = []
    for page, part in zip(pdf.pages, tiling.tiles, strict=True):
        shapes = hexagons(page)
        assert len(shapes) == 16 * 6  # the whole map is drawn on each part, cut by its window
        # the drawing's mm of each part: the page's less where the part's window is put on it
        origins.append(sorted(tuple((x - part.at.x + part.window.x, y - part.at.y + part.window.y) for x, y in shape)
                              for shape in shapes))
    for one, other in zip(*origins, strict=True):  # every hexagon at the same place of the board on both parts
        assert [c for corner in one for c in corner] == pytest.approx([c for corner in other for c in corner], abs=EXACT)
    seam = first.window.x + first.window.w  # where the first part is cut: its window's right edge
    assert second.window.x + OVERLAP_MM == pytest.approx(seam, abs=EXACT)  # where the second's visible part starts
    split = [shape for shape in origins[0] if min(x for x, _ in shape) < seam < max(x for x, _ in shape)]
    assert len(split) == 2 * 6  # where two columns overlap: their cells cut, each part on its sheet, meeting there
    for shape in split:  # through their corners, never through a label (±0.72 of a corner radius round the centre)
        centre, radius = sum(x for x, _ in shape) / 6, 22 / math.sqrt(3)
        assert abs(seam - centre) > 0.72 * radius
    texts = [w["text"] for page in pdf.pages for w in page.extract_words()]
    assert {f"C{c}" for c in range(16)} <= set(texts)


def test_a_square_map_puts_each_cell_at_its_coordinates_with_its_label_inside():
    tiling = tile_of(board('{layout: square, area: [3, 2], cells: [{at: [2, 1], label: Port, color: "#8fbf6f", '
                           'symbol: star}, {at: [4, 0], label: Rock}]}', cell_mm=15))
    page = pdfplumber.open(io.BytesIO(pdf_bytes(tiling.pages))).pages[0]
    squares = sorted((round(r["x0"] * PT, 2), round(r["top"] * PT, 2)) for r in page.rects
                     if abs(r["width"] * PT - 15) < EXACT and abs(r["height"] * PT - 15) < EXACT)
    assert len(squares) == 7  # the 3 × 2 area and the cell beyond it at [4, 0]
    x0, y0 = squares[0]
    assert {(round(x - x0, 2), round(y - y0, 2)) for x, y in squares} == {
        (0, 0), (15, 0), (30, 0), (0, 15), (15, 15), (30, 15), (60, 0)}
    words = {w["text"]: w for w in page.extract_words()}
    for label, (column, row) in (("Port", (2, 1)), ("Rock", (4, 0))):
        word = words[label]
        assert x0 + column * 15 < word["x0"] * PT < word["x1"] * PT < x0 + (column + 1) * 15
        assert y0 + row * 15 < word["top"] * PT < word["bottom"] * PT < y0 + (row + 1) * 15


@pytest.mark.parametrize("section, where, message", [
    ("{layout: hex, area: [300, 2]}", "sections[0]", "lays out"),
    ("{layout: square, area: [40, 30]}", "sections", "1,200 cells"),
    ("{layout: hex, cells: [{at: [1, 1]}, {at: [1, 1]}]}", "sections[0]", "two cells at [1, 1]"),
    ("{layout: hex, area: [2, 2], track: price}", "sections[0]", "not a `track`"),
    ("{track: price, cells: [{at: [0, 0]}]}", "sections[0]", "`cells` is for a map"),
])  # fmt: skip
def test_a_map_out_of_bounds_or_muddled_is_a_located_error(section, where, message):
    with pytest.raises(SpecError) as caught:
        loads_spec(board(section).replace("    components:", "    tracks: {price: {from: 1, to: 5}}\n    components:"))
    (issue,) = caught.value.issues
    assert issue.path == f"games.sea.components[0].{where}" and message in issue.message, issue
