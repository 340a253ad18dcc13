"""Boards: tracks of numbered cells and rules-computed tables, drawn whole at true size.

A board is its sections, top to bottom. A track section lays the game track's cells in one
row (`rows: single`: a round track) or one row per asset (`rows: each_asset`: a quote table),
each row headed by the asset's badge, code and name and tinted lightly in its colour so a
token's row is found at a glance — and, because tint is not enough, found again by the badge's
shape and the code. The start cell carries three cues besides colour: a heavy frame, a star
and the word. A table section prints a table the rules module computes (a setup diagram), so
the board can never disagree with the referee.

A track may also run as a grid (`layout: grid`, read like text) or as a loop round the board's
edge (`layout: loop`, clockwise from the top-left corner), with the title, the board's image
and its other sections inside the ring; the ring's cells grow beyond `cell_mm` only when its
count is too small to go round them.

A map (`layout: square` or `hex`) places its cells by coordinates, each with its own fill, mark
and label: a hexagonal map's cells are flat-topped, `cell_mm` across their flats, every odd
column half a cell lower.

Boards are usually larger than a page; layout tiles them, so nothing here is ever scaled.
"""

from __future__ import annotations

import math
from typing import Callable

from pnp.colours import SMALL_TEXT_CONTRAST
from pnp.components import Context, Panels
from pnp.components.art import WHITE, contrast_ratio, identity, ink_on, outlined, pattern, symbol, tint
from pnp.components.tables import (
    INK,
    SOFT_INK,
    Block,
    column,
    heading,
    moved,
    picture_block,
    table,
    tallest,
    title_bar,
    widest,
)
from pnp.display import Drawing, Item, Polygon, Rect, Style
from pnp.errors import BuildError
from pnp.fonts import MM_PER_PT
from pnp.layout.text import block_height, fit_text, text_width
from pnp.spec.faces import filled
from pnp.spec.images import Art
from pnp.spec.model import MAPS, Asset, Board, BoardSection, Game, MapCell

MARGIN = 5.0  # mm from the board's edge to its content
GAP = 5.0  # mm between sections
ROW_TINT = 0.22  # how much of the asset colour tints its row
PAD = 1.0  # mm inside a cell around its number
BAND = 3.0  # mm: the full-colour band at the left of an asset's row header
NOTE_SIZE = 7.0  # pt: marks, labels and the start word (body text: docs/validate.md)
MIN_NOTE_SIZE = 6.0  # pt: what they may shrink to in a small cell (then `pnp validate` warns)
CUE = 3.0  # mm: the row's symbol in each cell of an asset's row
_RAISED = 0.58  # the share of a cell's height its number takes when notes sit beneath
STAR = "#dcdcdc"  # the start cell's star where the row has no tint
STRIP = 6.0  # mm: the number strip at the top of a box that holds a stack
STRIP_PT = 11.0
OUTLINE = 0.3  # mm: the ink saver's outlined cell numbers
FRAME_INSET = 2.0  # mm from the board's cut edge to its frame: a cut that strays does not cut the frame
SPOT = Style(stroke="#9a9a9a", width=0.2, dash=(1.0, 0.8))  # a token's place in a box
Start = tuple[str | None, tuple[float, float, float, float]]  # a row's asset id (None for a single row), its start cell's box


def cell_text(value: float) -> str:
    """A cell's number as printed: 1.5 → "1½", 0.5 → "½", 10 → "10", −2 → "−2"."""
    sign = "−" if value < 0 else ""
    whole, fraction = divmod(abs(value), 1)
    if abs(fraction - 0.5) < 1e-9:
        return f"{sign}{int(whole) or ''}½"
    return f"{sign}{abs(value):g}"


def board(context: Context, board: Board) -> Panels:
    """One drawing per copy: the title, then every section at `board.cell_mm` per cell — all
    of it inside the ring of a loop track when the board has one."""
    return _board(context, board, None)


def start_cells(context: Context, board: Board) -> list[Start]:
    """Where the tokens start on the board's drawing: for each row of a track with a start
    cell (not a loop), the row's asset id (None for a single row) and the start cell's box
    (x, y, w, h in the drawing's mm) — what a setup diagram puts the tokens on."""
    found: list[Start] = []
    _board(context, board, found)
    return found


def _board(context: Context, board: Board, starts: list[Start] | None) -> Panels:
    """The board, and (when `starts` is a list) its start cells collected into it."""
    what = f"{context.game_id}/{board.id}"
    board = filled(context.game, board)  # section titles are templates over the game
    header_w = widest(context, lambda c: _row_header_width(c.game, c.component(board)))  # the same in every language
    inside = [(index, s) for index, s in enumerate(board.sections) if s.layout != "loop"]
    loop = next((index for index, s in enumerate(board.sections) if s.layout == "loop"), None)
    cells: dict[int, list[Start]] = {index: [] for index, _ in inside}
    sections, width = _sections(context, board, inside, loop, header_w, cells, what)
    title = tallest(context, lambda c: _title(c.game, c.component(board), width, what))
    image = [picture_block(context.art(board.image), width, board.image_mm)] if board.image else []
    body = column([title, *image, *sections], gap=GAP)
    if starts is not None and loop is None:  # each section's offset in the column, as `column` stacks them
        y = title.height + GAP + sum(b.height + GAP for b in image)
        for (index, _), block in zip(inside, sections, strict=True):
            starts += [(asset, (MARGIN + x, MARGIN + y + top, w, h)) for asset, (x, top, w, h) in cells[index]]
            y += block.height + GAP
    if loop is None:
        seams = _seams(context.game, board, header_w)
    else:
        body, ring_cell = _loop(context, board.sections[loop], board.cell_mm, body, f"{what} section {loop + 1}")
        seams = {MARGIN + k * ring_cell for k in range(round(body.width / ring_cell) + 1)}
    return Panels((_framed(body, seams),) * board.copies)


def _seams(game: Game, board: Board, header_w: float) -> set[float]:
    """Where a tiled board without a loop may be cut without cutting a number: its row tracks'
    cell edges, its maps' (`map_seams`)."""
    seams = {MARGIN + header_w + k * box_size(game, s, board.cell_mm)[0]
             for s in board.sections if s.track and s.layout == "row" for k in range(len(game.tracks[s.track].cells) + 1)}
    return seams | {MARGIN + x for s in board.sections if s.layout in MAPS for x in map_seams(s, board.cell_mm)}


def _sections(context: Context, board: Board, inside: list[tuple[int, BoardSection]], loop: int | None,
              header_w: float, cells: dict[int, list[Start]], what: str) -> tuple[list[Block], float]:
    """The sections inside the ring (all of them, without one), each track's start cells put in
    `cells`, and the width they share: the widest track's, or a lone ring's as square as its
    cells allow; tables stretch to it."""
    tracks = {
        index: _track(context, section, board.cell_mm, header_w, f"{what} section {index + 1}", cells[index])
        for index, section in inside
        if section.table is None
    }
    width = max((block.width for block in tracks.values()), default=0.0)
    if loop is not None and not tracks:
        width = _ring_width(context, board.sections[loop], board.cell_mm)
    sections = [
        tracks[index] if index in tracks else _table_section(context, section, width, f"{what} section {index + 1}")
        for index, section in inside
    ]
    return sections, max(width, *(block.width for block in sections))


def _framed(body: Block, seams: set[float]) -> Drawing:
    """The board's drawing: `body` within its margin and a rounded frame, with the x of the
    seams where a tiled board may be cut."""
    w, h = body.width + 2 * MARGIN, body.height + 2 * MARGIN
    frame = Rect(FRAME_INSET, FRAME_INSET, w - 2 * FRAME_INSET, h - 2 * FRAME_INSET, Style(stroke=INK, width=0.6),
                 radius=3.0)
    return Drawing(w, h, (frame, moved(body, MARGIN, MARGIN)), seams_x=tuple(sorted(seams)))


def _title(game: Game, board: Board, width: float, what: str) -> Block:
    return title_bar(board.name, board.name_en, game.title, width, size=16, what=what)


def _table_section(context: Context, section: BoardSection, width: float, what: str) -> Block:
    data = context.table(section.table or "")
    grid = table(data, size=9, what=what, assets=context.game.assets, min_width=width,
                 shaded=not context.settings.ink_saver, also=context.everywhere(lambda c: c.table(section.table or "")))
    return column([heading(section.title, section.title_en, grid.width, size=11, what=what), grid], gap=2.0)


# --- tracks ---------------------------------------------------------------------------------


def box_size(game: Game, section: BoardSection, cell: float) -> tuple[float, float]:
    """A track cell's width and height: square, or with `holds` a box with a place for each
    token it may hold side by side (columns × rows of `cell`) under a strip for its number."""
    holds = len(game.assets) - 1 if section.holds == "pairs" else section.holds
    if holds <= 1:
        return cell, cell
    rows = math.ceil(math.sqrt(holds))
    return math.ceil(holds / rows) * cell, rows * cell + STRIP


def _track(context: Context, section: BoardSection, cell: float, header_w: float, what: str,
           starts: list[Start] | None = None) -> Block:
    """A row of cells per asset (or one, headed by the section's title), a grid, or a map; each
    row's start cell (asset id, box) goes into `starts`."""
    if section.layout == "grid":
        return _grid(context, section, cell, what)
    if section.layout in MAPS:
        return _map(context, section, cell, what)
    game = context.game
    rows: tuple[Asset | None, ...] = game.assets if section.rows == "each_asset" else (None,)
    count = game.tracks[section.track or ""].size
    cw, ch = box_size(game, section, cell)
    items: list[Item] = []
    for row, asset in enumerate(rows):
        drawn, start = _track_row(context, section, asset, row * ch, cell, header_w, what)
        items += drawn
        if starts is not None and start is not None:
            starts.append(start)
    body = Block(tuple(items), header_w + count * cw, len(rows) * ch)
    if section.rows == "single":
        return body
    return _headed(section, body, starts, what)


def _headed(section: BoardSection, body: Block, starts: list[Start] | None, what: str) -> Block:
    """The rows under the section's title, their start cells in `starts` moved down with them."""
    title = heading(section.title, section.title_en, body.width, size=11, what=what)
    if starts is not None:
        starts[:] = [(a, (x, y + title.height + 2.0, w, h)) for a, (x, y, w, h) in starts]
    return column([title, body], gap=2.0)


def _track_row(context: Context, section: BoardSection, asset: Asset | None, y: float, cell: float, header_w: float,
               what: str) -> tuple[list[Item], Start | None]:
    """One row of the track at `y`: its header (the asset's, tinted, or the section's title)
    and its cells; and its start cell (asset id, box), if the track has a start."""
    cw, ch = box_size(context.game, section, cell)
    track = context.game.tracks[section.track or ""]
    fill = None if context.settings.ink_saver or asset is None else tint(asset.color, ROW_TINT)
    if asset is None:
        items = _title_header(section, header_w, y, ch, what)
    else:
        items = _asset_header(asset, context.logo(asset), header_w, y, ch, fill, what)
    places = [(header_w + index * cw, y) for index in range(track.size)]
    items += _cells(context, section, places, cell, fill, asset, what)
    if track.start is None:
        return items, None
    x = places[list(track.cells).index(track.start)][0]
    return items, (asset.id if asset else None, (x, y, cw, ch))


def _cells(context: Context, section: BoardSection, places: list[tuple[float, float]], cell: float,
           fill: str | None, asset: Asset | None, what: str) -> list[Item]:
    """The track's cells (or boxes holding a stack) at `places`, their top-left corners in track
    order: numbers, start cues, labels and the rules module's marks."""
    game = context.game
    track = game.tracks[section.track or ""]
    marks = context.marks(section.marks) if section.marks else {}
    numbers = [cell_text(value) for value in track.cells]
    cw, ch = box_size(game, section, cell)
    boxes = (cw, ch) != (cell, cell)
    raised = bool(marks) or asset is not None  # notes on many cells, or a symbol in each: numbers in the upper part
    size = _number_size(numbers, cell, raised or track.start is not None or bool(track.labels))
    items: list[Item] = []
    for index, ((x, y), value, number) in enumerate(zip(places, track.cells, numbers, strict=True)):
        marked = " ".join(marks.get((asset.id if asset else "", index), ()))
        notes = tuple(text for text in (track.labels.get(value, ""), marked) if text)
        start = track.start is not None and value == track.start
        where = f"{what} cell {number}"
        if boxes:
            items += _box(x, y, cw, ch, cell, number, fill, start=start, word=section.start_label, notes=notes,
                          what=where, asset=asset)
        else:
            items += _cell(x, y, cell, number, size, fill, start=start, word=section.start_label,
                           notes=notes, raised=raised, what=where,
                           outline=context.settings.ink_saver, asset=asset)
    return items


def _cue(asset: Asset, x: float, y: float, size: float) -> Item:
    """The row's symbol in its colour, outlined in ink, `size` mm square at (x, y): in every cell
    of an asset's row, so that no cell tells its row by its tint alone (a tiled board's far part
    shows no row header)."""
    return symbol(asset.symbol, x + size / 2, y + size / 2, size, Style(fill=asset.color, stroke=INK, width=0.2))


def _grid(context: Context, section: BoardSection, cell: float, what: str) -> Block:
    """The track's cells in rows of `columns`, read like text, under the section's title."""
    count = context.game.tracks[section.track or ""].size
    columns = section.columns or math.ceil(math.sqrt(count))
    places = [(index % columns * cell, index // columns * cell) for index in range(count)]
    body = Block(tuple(_cells(context, section, places, cell, None, None, what)), min(columns, count) * cell,
                 math.ceil(count / columns) * cell)
    if not section.title:
        return body
    return column([heading(section.title, section.title_en, body.width, size=11, what=what), body], gap=2.0)


# --- maps: square or hexagonal cells by coordinates --------------------------------------------


def map_place(section: BoardSection, cell: float, at: tuple[int, int]) -> tuple[float, float, float, float]:
    """The box (x, y, w, h in the map's mm) of the cell at [column, row]: a `cell` mm square,
    or a flat-topped hexagon `cell` mm across its flats, each column ¾ of a hexagon's width to
    the right of the last and every odd one half a cell lower."""
    column, row = at
    if section.layout == "square":
        return column * cell, row * cell, cell, cell
    radius = cell / math.sqrt(3)
    return column * 1.5 * radius, row * cell + (cell / 2 if column % 2 else 0.0), 2 * radius, cell


def map_seams(section: BoardSection, cell: float) -> list[float]:
    """Where a tiled map may be cut across (x in the map's mm) without cutting a cell's label:
    between square columns, or through the corners where two hexagonal columns overlap."""
    columns = section.map_size[0]
    if section.layout == "square":
        return [k * cell for k in range(columns + 1)]
    radius = cell / math.sqrt(3)
    return [k * 1.5 * radius + 1.75 * radius for k in range(columns - 1)]


def _map(context: Context, section: BoardSection, cell: float, what: str) -> Block:
    """A map's cells, each at its coordinates with its fill, a faint mark and its label (and,
    with `coordinates`, column.row small at its top), under the section's title."""
    items: list[Item] = []
    width = height = 0.0
    for place in section.map_cells:
        x, y, w, h = map_place(section, cell, place.at)
        width, height = max(width, x + w), max(height, y + h)
        items += _map_cell(section, place, x, y, w, h, f"{what} cell [{place.at[0]}, {place.at[1]}]")
    body = Block(tuple(items), width, height)
    if not section.title:
        return body
    return column([heading(section.title, section.title_en, body.width, size=11, what=what), body], gap=2.0)


def _map_cell(section: BoardSection, place: MapCell, x: float, y: float, w: float, h: float, what: str) -> list[Item]:
    outline: Item
    if section.layout == "hex":
        radius, cx, cy = w / 2, x + w / 2, y + h / 2
        points = tuple((cx + radius * math.cos(math.radians(60 * k)), cy + radius * math.sin(math.radians(60 * k)))
                       for k in range(6))
        outline = Polygon(points, Style(fill=place.color, stroke=INK, width=0.3))
        inner = (cx - 0.72 * radius, cy - 0.3 * h, 1.44 * radius, 0.6 * h)  # clear of the slanted sides
    else:
        outline = Rect(x, y, w, h, Style(fill=place.color, stroke=INK, width=0.3))
        inner = (x + PAD, y + 0.2 * h, w - 2 * PAD, 0.6 * h)
    ink = INK if place.color is None else ink_on(place.color)
    items: list[Item] = [outline]
    if place.symbol is not None:
        mark = _faint(ink, place.color or WHITE)
        items.append(symbol(place.symbol, x + w / 2, y + h / 2, min(inner[2], h) * 0.8, Style(fill=mark)))
    if section.coordinates:
        items.append(fit_text(f"{place.at[0]}.{place.at[1]}", inner[0], y + 0.6, inner[2], inner[1] - y - 0.6,
                              size=NOTE_SIZE, min_size=NOTE_SIZE, color=ink, what=what))
    if place.label:
        items.append(fit_text(place.label, *inner, size=min(10.0, cell_size_pt(h)), min_size=NOTE_SIZE, font="bold",
                              color=ink, leading=1.1, what=what))
    return items


def _faint(ink: str, ground: str) -> str:
    """A cell's symbol: its ink at most a quarter over its ground, faint enough that the label
    set on it in that ink still reads (4.5:1, as on the ground itself)."""
    amount = 0.25
    while amount > 0.05 and contrast_ratio(ink, tint(ink, amount, ground)) < SMALL_TEXT_CONTRAST:
        amount -= 0.025
    return tint(ink, amount, ground)


def cell_size_pt(cell: float) -> float:
    """The largest type a label of a map cell `cell` mm tall starts from: a fifth of it."""
    return max(NOTE_SIZE, cell / 5 / MM_PER_PT)


# --- a loop round the board's edge ------------------------------------------------------------


def _ring(count: int, cell: float, width: float, height: float) -> tuple[int, int, float]:
    """(cells across, cells down — corners counted in both — and the cell size) of the ring
    holding `count` cells round a `width` × `height` content with GAP on every side. Cells
    stay `cell` mm when the content allows, else grow; of equal sizes, the ring whose inside
    is shaped most like the content wins (√2, a landscape sheet, when there is none)."""
    total = math.ceil((count + 4) / 2)  # across + down: 2·across + 2·down − 4 ≥ count
    target = width / height if width and height else math.sqrt(2)
    options = []
    for across in range(3, total - 2):
        down = total - across
        size = max(cell, (width + 2 * GAP) / (across - 2), (height + 2 * GAP) / (down - 2))
        options.append((round(size, 6), abs(math.log((across - 2) / (down - 2) / target)), across, down))
    size, _, across, down = min(options)
    return across, down, size


def _ring_places(across: int, down: int, cell: float) -> list[tuple[float, float]]:
    """Top-left corners of the ring's cells, clockwise from the top-left corner."""
    top = [(i * cell, 0.0) for i in range(across)]
    right = [((across - 1) * cell, j * cell) for j in range(1, down)]
    bottom = [(i * cell, (down - 1) * cell) for i in range(across - 2, -1, -1)]
    left = [(0.0, j * cell) for j in range(down - 2, 0, -1)]
    return top + right + bottom + left


def _ring_width(context: Context, section: BoardSection, cell: float) -> float:
    """The inside width of the ring the track makes on its own, for a board with nothing else."""
    across, _, size = _ring(context.game.tracks[section.track or ""].size, cell, 0.0, 0.0)
    return (across - 2) * size - 2 * GAP


def _loop(context: Context, section: BoardSection, cell: float, inside: Block, what: str) -> tuple[Block, float]:
    """The track's cells round the edge, clockwise from the top-left corner, with `inside` (the
    board's title, image and other sections) centred within; a spare cell, when the count is
    odd, is hatched. Returns the ring and its cell size."""
    count = context.game.tracks[section.track or ""].size
    across, down, size = _ring(count, cell, inside.width, inside.height)
    places = _ring_places(across, down, size)
    items = _cells(context, section, places[:count], size, None, None, what)
    for x, y in places[count:]:
        items += [Rect(x, y, size, size, Style(stroke=INK, width=0.25)),
                  pattern("diagonal", x, y, size, size, SOFT_INK, spacing=2.0, width=0.2)]  # fmt: skip
    width, height = across * size, down * size
    items.append(moved(inside, (width - inside.width) / 2, (height - inside.height) / 2))
    return Block(tuple(items), width, height), size


def _number_size(numbers: list[str], cell: float, raised: bool) -> float:
    """One size for every number of a track: the largest at which the widest fits its cell."""
    zone = cell * _RAISED - PAD - 1.3 if raised else cell - 2 * PAD
    widest = max(text_width(number, "bold", 1.0) for number in numbers)
    size = min(cell * 1.3, (cell - 2 * PAD) / widest, zone / block_height(1, 1.0))
    return max(6.0, int(size * 2) / 2)


def _cell(x: float, y: float, c: float, number: str, size: float, fill: str | None, *, start: bool,
          word: str, notes: tuple[str, ...], raised: bool, what: str, outline: bool = False,
          asset: Asset | None = None) -> list[Item]:
    """One cell: its number (in outline with the ink saver, where it is large), its start cues,
    its notes, and in an asset's row the asset's symbol at the lower left, the notes beside it."""
    items: list[Item] = [Rect(x, y, c, c, Style(fill=fill, stroke=INK, width=0.25))]
    below = ((word,) if start else ()) + notes
    number_h = c * _RAISED if (raised or below) else c
    if start:  # cues beyond colour: a star behind the number, a heavy frame, the word
        items += _start_marks(x, y, c, fill, outline)
    top = y + (1.3 if start else PAD * 0.6 if below else PAD)  # clear of the start frame
    fitted = fit_text(number, x + PAD, top, c - 2 * PAD, y + number_h - PAD - top, size=size, font="bold",
                      color=INK, what=what)
    items.append(outlined(fitted, OUTLINE) if outline else fitted)
    inset = 1.3 if start else PAD  # clear of the start frame
    cue = min(CUE, c - number_h - PAD - inset)

    def notes_after(room: float, least: float) -> list[Item]:
        return [fit_text("\n".join(below), x + inset + room, y + number_h, c - 2 * inset - room, c - number_h - PAD,
                         size=NOTE_SIZE, min_size=least, font="bold", color=INK, leading=1.1, what=what)] if below else []

    return items + _beside_cue(asset, x + inset, y + c - inset - cue, cue, cue + 0.25, notes_after)


def _start_marks(x: float, y: float, c: float, fill: str | None, outline: bool) -> list[Item]:
    """A start cell's star behind its number and its heavy frame (the word goes with the notes)."""
    star = "#ffffff" if fill else STAR  # a pale star behind the number: seen, never in the way
    style = Style(stroke=STAR, width=0.4) if outline else Style(fill=star)  # the ink saver's toned type: no ground
    return [symbol("star", x + c / 2, y + c * 0.5, c * 0.92, style),
            Rect(x + 0.7, y + 0.7, c - 1.4, c - 1.4, Style(stroke=INK, width=1.0))]


def _beside_cue(asset: Asset | None, x: float, y: float, size: float, room: float,
                notes_after: Callable[[float, float], list[Item]]) -> list[Item]:
    """In an asset's row, its symbol (`_cue`, `size` mm at x, y) with the notes `room` mm after
    it; where they do not fit so at 7 pt (a small start cell), the notes at 7 pt without it —
    its neighbours' symbols tell the row —, else either at 6 pt (then `pnp validate` warns)."""
    for least in (NOTE_SIZE, MIN_NOTE_SIZE):
        if asset is not None:
            try:
                return [*notes_after(room, least), _cue(asset, x, y, size)]
            except BuildError:
                pass
        try:
            return notes_after(0.0, least)
        except BuildError:
            if least == MIN_NOTE_SIZE:
                raise
    raise AssertionError("unreachable: the last size raises")


def _box(x: float, y: float, w: float, h: float, cell: float, number: str, fill: str | None, *, start: bool,
         word: str, notes: tuple[str, ...], what: str, asset: Asset | None = None) -> list[Item]:
    """A box that holds a stack of tokens side by side: its number (in an asset's row with the
    asset's symbol after it) and notes in a strip at the top, then a faint place for each token."""
    items: list[Item] = [Rect(x, y, w, h, Style(fill=fill, stroke=INK, width=0.25))]
    if start:
        items.append(Rect(x + 0.7, y + 0.7, w - 1.4, h - 1.4, Style(stroke=INK, width=1.0)))
    number_w = min(w * 0.45, text_width(number, "bold", STRIP_PT) + 2 * PAD)
    items.append(fit_text(number, x + PAD, y + 0.4, number_w, STRIP - 0.6, size=STRIP_PT, min_size=7, font="bold",
                          color=INK, align="left", what=what))
    below = ((word,) if start else ()) + notes

    def notes_after(room: float, least: float) -> list[Item]:
        return [fit_text(" · ".join(below), x + PAD + number_w + room, y + 0.4, w - 2 * PAD - number_w - room,
                         STRIP - 0.6, size=NOTE_SIZE, min_size=least, color=INK, align="right", what=what)] if below else []

    items += _beside_cue(asset, x + PAD + number_w, y + (STRIP - CUE) / 2, CUE, CUE + 0.6, notes_after)
    columns, rows = round(w / cell), round((h - STRIP) / cell)
    for r in range(rows):
        for c in range(columns):
            items.append(Rect(x + c * cell + 0.3, y + STRIP + r * cell + 0.3, cell - 0.6, cell - 0.6, SPOT, radius=1.0))
    return items


# --- row headers ----------------------------------------------------------------------------


def _code(asset: Asset) -> str:
    return asset.initial or asset.id


def _names(asset: Asset) -> str:
    return asset.name if asset.name_en in ("", asset.name) else f"{asset.name}\n{asset.name_en}"


def _row_header_width(game: Game, board: Board) -> float:
    """Wide enough for the longest code and name (or single track's title), within reason."""
    cell = board.cell_mm
    needs = [0.0]
    for section in board.sections:
        if section.track is None:
            continue
        if section.rows == "each_asset":
            badge = _badge_size(cell)
            needs += [  # names may wrap at spaces: their longest word counts
                BAND + badge + 4.5 + max(text_width(_code(a), "bold", 12), *(text_width(word, "regular", 8) for word in _names(a).split()))
                for a in game.assets
            ]
        else:
            needs.append(3.0 + max(text_width(section.title, "bold", 10), text_width(section.title_en, "regular", 7)))
    return min(60.0, max(cell * 2.2, *needs))


def _badge_size(cell: float) -> float:
    return min(9.0, cell * 0.55)


def _asset_header(asset: Asset, logo: Art | None, w: float, y: float, c: float, fill: str | None,
                  what: str) -> list[Item]:
    """The row's header: a band of the asset's colour, its badge, its code and its names, the
    names in the quieter ink only where that keeps small-text contrast (4.5:1) on the row's
    tint (a black company's grey row takes the dark ink)."""
    badge = _badge_size(c)
    names_ink = readable(SOFT_INK, fill)
    text_x = BAND + badge + 3.0
    text_w = w - text_x - 1.5
    return [
        Rect(0, y, w, c, Style(fill=fill, stroke=INK, width=0.25)),
        Rect(0, y, BAND, c, Style(fill=asset.color, stroke=INK, width=0.25)),
        identity(asset, logo, BAND + 1.5 + badge / 2, y + c / 2, badge),
        fit_text(_code(asset), text_x, y + 0.8, text_w, c * 0.45, size=12, font="bold", color=INK,
                 align="left", valign="bottom", what=what),
        fit_text(_names(asset), text_x, y + c * 0.45 + 0.8, text_w, c * 0.55 - 1.6, size=8, min_size=6,
                 color=names_ink, align="left", valign="top", leading=1.1, what=what),
    ]


def readable(ink: str, fill: str | None) -> str:
    """`ink`, or the body ink where `ink` on `fill` would fall below WCAG AA for small text."""
    return ink if fill is None or contrast_ratio(ink, fill) >= SMALL_TEXT_CONTRAST else INK


def _title_header(section: BoardSection, w: float, y: float, c: float, what: str) -> list[Item]:
    text = f"**{section.title}**" + (f"\n{section.title_en}" if section.title_en else "")
    return [
        Rect(0, y, w, c, Style(stroke=INK, width=0.25)),
        fit_text(text, 1.5, y + 1, w - 3, c - 2, size=10, min_size=6, color=INK, align="left", what=what),
    ]
