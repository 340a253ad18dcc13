"""Shared sheets: small components of one stock printed together, so no sheet goes out nearly
empty.

In turn: pieces of one size (big and small cards, contracts and dividends) are imposed as one
run when that saves a sheet, each piece keeping its own back. Then whatever takes one sheet of
its own — a component's pieces, or a panel alone on its sheet such as a player aid — goes into
the room the last sheet of another component of its stock leaves (`fill`, `fill_panels`):
beside the last cards of a run, or beside a board or a mat (seven tokens need no sheet of card
stock of their own beside a player mat), turned a quarter where only that fits. What is left
shares a sheet with the next of its stock, each in its own band (`gang`), and that sheet may in
turn fit another's room. A guest keeps the backs the game needs: behind it on a double-sided
run, beside it on a folded one; on a one-sided host such backs turn the host double-sided (its
other backs blank), which a one-sided build (`duplex: none`) cannot do, while backs that carry
nothing the game needs (a loan marker's, its front again) are left out, as a one-sided build
leaves them. Guests keep at least `GOOD_BLEED_MM` of bleed. Each component keeps its own file;
only the combined print file uses the shared sheets, and its print plan says which components
share them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from pnp.display import Drawing, Group, Item, Page, Panels, PieceArt, Pieces, translate
from pnp.i18n import _
from pnp.layout.impose import (
    GOOD_BLEED_MM,
    Duplex,
    Grid,
    Imposition,
    Placed,
    clear,
    coded,
    faces,
    flip,
    given_bleed,
    impose,
    mirror,
    page,
    plan_axis,
    record,
    regions,
    side_words,
    slot,
    within,
)
from pnp.layout.registration import Cutter, Registration, registration
from pnp.layout.sheet import MARK_ZONE_MM, Box, Frame, Furniture, bounds, frame
from pnp.layout.tile import Tiling, tile


@dataclass(frozen=True)
class Candidate:
    """A component made of pieces, or of panels, as laid out alone, with the stock it is
    printed on."""

    index: int  # the caller's index of the component
    output: Pieces | Panels
    layout: Imposition | Tiling
    stock: str


@dataclass(frozen=True)
class Shared:
    """Components printed on the same sheets, and those sheets."""

    members: tuple[int, ...]  # the candidates' indexes, in print order
    layout: Imposition


@dataclass(frozen=True)
class _Run:
    """Sheets being planned: their members, their own pieces (one run of one size, or the
    groups of a ganged sheet; none for a panel), their layout, and the pieces other components
    put in the room their last sheet leaves."""

    members: tuple[Candidate, ...]
    parts: tuple[Pieces, ...]
    layout: Imposition | Tiling
    guests: tuple[Pieces, ...] = ()

    @property
    def stock(self) -> str:
        return self.members[0].stock


Info = Callable[[tuple[int, ...]], Furniture]


def share_sheets(candidates: Sequence[Candidate], paper: str, margin: float, duplex: Duplex, info: Info,
                 back_offset: tuple[float, float] = (0.0, 0.0), cut: Callable[[str], Cutter | None] = lambda stock: None,
                 ) -> list[Shared]:
    """The groups of two or more candidates that print on fewer sheets together than apart;
    `info` gives the sheet furniture for a group of members, `cut` the cutting machine (if any)
    whose marks go on sheets of a stock. Runs of one size first; then each one-sheet component
    into another's room (`fill`); then what is left of one stock shares a sheet of its own
    (`gang`), which may in turn fit another's room. Panels only ever host or are a guest."""
    runs: list[_Run] = []
    for candidate in candidates:
        if isinstance(candidate.output, Panels):
            continue
        joined = _run_of_one_size(runs[-1], candidate, paper, margin, duplex, info, back_offset,
                                  cut(candidate.stock)) if runs else None
        if joined is not None:
            runs[-1] = joined
        else:
            runs.append(_Run((candidate,), (candidate.output,), candidate.layout))
    runs += [_Run((c,), (), c.layout) for c in candidates if isinstance(c.output, Panels)]
    runs = _filled(runs, paper, margin, duplex, info, back_offset, cut)
    runs = _ganged(runs, paper, margin, duplex, info, back_offset, cut)
    runs = _filled(runs, paper, margin, duplex, info, back_offset, cut)
    return [Shared(tuple(c.index for c in r.members), r.layout) for r in runs  # type: ignore[arg-type]  # shared runs are impositions
            if len(r.members) > 1]


def _run_of_one_size(run: _Run, candidate: Candidate, paper: str, margin: float, duplex: Duplex, info: Info,
                     back_offset: tuple[float, float], cut: Cutter | None) -> _Run | None:
    """The run with `candidate`'s pieces added to its own, if they are of one size and stock
    and that saves a sheet."""
    pieces = candidate.output
    if (candidate.stock != run.stock or not isinstance(pieces, Pieces) or len(run.parts) != 1
            or not _same_size(run.parts[0], pieces)):
        return None
    last = run.parts[0]
    one = replace(last, pieces=last.pieces + pieces.pieces, two_sided=last.two_sided or pieces.two_sided)
    joined = impose(one, paper, margin, duplex, info(tuple(c.index for c in (*run.members, candidate))), back_offset, cut)
    return _Run((*run.members, candidate), (one,), joined) if joined.sheets < run.layout.sheets + candidate.layout.sheets else None


def _ganged(runs: list[_Run], paper: str, margin: float, duplex: Duplex, info: Info,
            back_offset: tuple[float, float], cut: Callable[[str], Cutter | None]) -> list[_Run]:
    """The runs with consecutive one-sheet runs of pieces of one stock (none hosting another's)
    on one sheet together, each in its band, where they fit (`gang`)."""
    out: list[_Run] = []
    for run in runs:
        last = out[-1] if out else None
        if (last is not None and last.stock == run.stock and last.parts and run.parts and not last.guests
                and not run.guests and last.layout.sheets == 1 and run.layout.sheets == 1):
            members = (*last.members, *run.members)
            shared = gang([*last.parts, *run.parts], paper, margin, duplex, info(tuple(c.index for c in members)),
                          back_offset, cut(run.stock))
            if shared is not None:
                out[-1] = _Run(members, (*last.parts, *run.parts), shared)
                continue
        out.append(run)
    return out


def _same_size(a: Pieces, b: Pieces) -> bool:
    return (a.width, a.height, a.bleed, a.cut) == (b.width, b.height, b.bleed, b.cut)


def _filled(runs: list[_Run], paper: str, margin: float, duplex: Duplex, info: Info,
            back_offset: tuple[float, float], cut: Callable[[str], Cutter | None]) -> list[_Run]:
    """The runs with each one-sheet run (and each panel alone on one sheet) moved into the room
    the last sheet of another run of its stock leaves: a host that needs not turn double-sided
    for it first, then one that could not move itself, then (turning) the fewest sheets, then in
    print order."""
    runs = list(runs)
    for guest in [r for r in runs if r.layout.sheets == 1]:
        parts = _pieces_of(guest)
        if parts is None or guest not in runs:  # it took a guest itself, or is one already
            continue
        machine = cut(guest.stock)  # a machine's marks are on impositions only: a panel's sheet cannot host then
        hosts = sorted((r for r in runs if r is not guest and _same_stock(r.stock, guest.stock)
                        and not (machine and isinstance(r.layout, Tiling))),
                       key=lambda r: (_turns(r, parts), r.layout.sheets == 1 and _pieces_of(r) is not None,
                                      r.layout.sheets if _turns(r, parts) else 0))
        for host in hosts:
            joined = _take(host, guest, parts, paper, margin, duplex, info, back_offset, machine)
            if joined is not None:
                runs[runs.index(host)] = joined
                runs.remove(guest)
                break
    return runs


def _pieces_of(run: _Run) -> tuple[Pieces, ...] | None:
    """What a one-sheet run brings to another's sheet: its pieces, or its one panel as a piece;
    None for what cannot move (a run that hosts, a board in parts, panels sharing a sheet)."""
    if run.guests:
        return None
    if run.parts:
        return run.parts
    tiles, output = run.layout.tiles, run.members[0].output  # type: ignore[union-attr]  # a panel's run is tiled
    if len(tiles) != 1 or tiles[0].rows * tiles[0].columns != 1:
        return None
    drawing: Drawing = output.drawings[0]  # type: ignore[union-attr]  # a panel's output
    return (Pieces(drawing.width, drawing.height, drawing.bleed, (PieceArt(drawing, None),)),)


def _same_stock(host: str, guest: str) -> bool:
    """Whether a guest's stock is the host's: the same words, or card stock on the sheet of a
    board printed on "card stock, or paper glued to card" (glued to card with it)."""
    return host == guest or host.split(",", 1)[0] == guest


def _backs(groups: Sequence[Pieces]) -> bool:
    return any(p.back is not None for g in groups for p in g.pieces)


def _prints_backs(host: _Run) -> bool:
    return isinstance(host.layout, Imposition) and host.layout.duplex != "none"


def _turns(host: _Run, parts: Sequence[Pieces]) -> bool:
    """Whether `host` must print double-sided to take pieces whose backs the game needs."""
    return not _prints_backs(host) and any(p.two_sided for p in parts)


def _fronts_only(parts: Sequence[Pieces]) -> tuple[Pieces, ...]:
    """Pieces without the backs that carry nothing the game needs (a loan marker's, the same as
    its front): what a sheet printed one-sided takes of them, as a one-sided build prints them."""
    return tuple(p if p.two_sided else replace(p, pieces=tuple(PieceArt(a.front, None) for a in p.pieces))
                 for p in parts)


def _take(host: _Run, guest: _Run, parts: Sequence[Pieces], paper: str, margin: float, duplex: Duplex, info: Info,
          back_offset: tuple[float, float], cut: Cutter | None) -> _Run | None:
    """`host` with `guest`'s pieces (and those it already took) in the room its last sheet
    leaves, laid out anew under the furniture of all of them; None when they do not fit."""
    members = (*host.members, *guest.members)
    guests = (*host.guests, *(parts if _prints_backs(host) else _fronts_only(parts)))
    furniture = info(tuple(c.index for c in members))
    if isinstance(host.layout, Tiling):
        panels = tile(host.members[0].output, paper, margin, furniture)  # type: ignore[arg-type]  # a panel's output
        joined = fill_panels(panels, guests, paper, margin, duplex, furniture, back_offset)
    elif len(host.parts) == 1:
        one = host.parts[0]
        joined = fill(impose(one, paper, margin, duplex, furniture, back_offset, cut), len(one.pieces), guests,
                      back_offset)
    else:
        return None
    return _Run(members, host.parts, joined, guests) if joined is not None else None


# --- a sheet of its own for several small components -----------------------------------------


def gang(groups: Sequence[Pieces], paper: str, margin: float, duplex: Duplex, info: Furniture,
         back_offset: tuple[float, float] = (0.0, 0.0), cut: Cutter | None = None) -> Imposition | None:
    """Several components' pieces on one sheet (two pages with backs), each in its own band of
    rows, stacked top to bottom: seven tokens and six loan markers need not take a sheet of
    card stock each. Pieces are numbered through the groups in order. None when they do not
    all fit one portrait sheet, or when `duplex` is fold (each sheet has its own fold line).
    With `cut`, the front carries the machine's registration marks, as `impose` does."""
    if duplex == "fold" or not groups:
        return None
    if duplex == "none" and any(g.two_sided for g in groups):
        return None
    duplex = duplex if _backs(groups) else "none"
    f = frame(paper, margin)
    reg = registration(cut, f.width, f.height) if cut else None
    f = reg.kept_clear(f) if reg else f
    bands = _bands(groups, within(f.content, reg), f, reg)
    if bands is None:
        return None
    edge = flip(f, duplex) if duplex in ("long", "short") else ""
    front_items, back_items, placed = _banded_faces(bands, 0, (0, 1), edge, back_offset)
    grids = [grid for _, grid in bands]
    where = _("{where} · shared").format(where=_("sheet {n} of {count}").format(n=1, count=1))
    front_items += reg.items() if reg else ()
    pages = [page(f, tuple(front_items), info, side_words(where, duplex, "front"))]
    if edge:
        pages.append(page(f, (Group(tuple(back_items), translate(*back_offset)),), info,
                          side_words(where, duplex, "back")))
    return coded(Imposition(tuple(pages), tuple(placed), grids[0], duplex, 1, _given(bands), reg))


def _banded_faces(bands: Sequence[tuple[Pieces, Grid]], first: int, pages: tuple[int, int], edge: str,
                  back_offset: tuple[float, float]) -> tuple[list[Item], list[Item], list[Placed]]:
    """Each group's fronts in its band and, when there is an `edge` to flip about (or "fold"),
    its backs mirrored behind (or beside) them; and where each piece went, numbered on from
    `first`, on the (front, back) `pages`."""
    front_items: list[Item] = []
    back_items: list[Item] = []
    placed: list[Placed] = []
    offset = first
    for group, grid in bands:
        fronts = [(k, slot(grid, k)) for k in range(len(group.pieces))]
        front_items += faces(group, grid, fronts, "front")
        placed += [replace(p, piece=p.piece + offset) for p in record(grid, fronts, "front", pages[0], group)]
        if edge:
            backs = [(i, mirror(grid, s, edge)) for i, s in fronts]
            back_items += faces(group, grid, backs, "back")
            placed += [replace(p, piece=p.piece + offset)
                       for p in record(grid, backs, "back", pages[1], group, back_offset if edge != "fold" else (0, 0))]
        offset += len(group.pieces)
    return front_items, back_items, placed


# --- room another component's last sheet leaves ------------------------------------------------


def fill(host: Imposition, pieces: int, groups: Sequence[Pieces],
         back_offset: tuple[float, float] = (0.0, 0.0)) -> Imposition | None:
    """`host` (an imposition of `pieces` pieces) with small components' pieces in the room its
    last sheet leaves — below its last row, else beside the last row's last piece — each in its
    band of rows, backs behind their fronts (beside them, mirrored about the fold line, on a
    folded sheet): four price tokens need no sheet of their own when the cards' last sheet has
    two empty slots. None when they do not all fit there, or need backs the host's sheets do
    not print."""
    if not groups or (_backs(groups) and host.duplex == "none"):
        return None
    grid, f = host.grid, host.grid.frame
    front_page, rooms = _room_left(host)
    bands = next((found for found in (_bands(groups, room, f, host.registration) for room in rooms) if found), None)
    if bands is None:
        return None
    if host.duplex == "fold":
        bands = [(group, replace(g, fold=grid.fold)) for group, g in bands]
    edge = flip(f, host.duplex) if host.duplex in ("long", "short") else "fold" if host.duplex == "fold" else ""
    back_page = front_page if edge == "fold" else front_page + 1
    fronts_items, backs_items, placed = _banded_faces(bands, pieces, (front_page, back_page), edge, back_offset)
    pages = list(host.pages)
    pages[front_page] = _with(pages[front_page], tuple(fronts_items))
    if edge == "fold":
        pages[front_page] = _with(pages[front_page], tuple(backs_items))
    elif edge:
        pages[back_page] = _with(pages[back_page], (Group(tuple(backs_items), translate(*back_offset)),))
    return coded(Imposition(tuple(pages), (*host.placed, *placed), grid, host.duplex, host.sheets, _given(bands, grid),
                            host.registration, gain=host.gain))


def fill_panels(host: Tiling, groups: Sequence[Pieces], paper: str, margin: float, duplex: Duplex, info: Furniture,
                back_offset: tuple[float, float] = (0.0, 0.0)) -> Imposition | None:
    """Panels on sheets (`host`: boards, mats, aids) with small components' pieces in the room
    beside the panels of one of its sheets — the one giving them the most bleed, the last of
    those; its panels moved to the sheet's top left when that leaves more room — numbered from
    0. Pieces with backs turn the sheets double-sided (the other backs blank), which a `duplex`
    of none or fold cannot. None when they do not fit."""
    backs = _backs(groups)
    room = _beside_panels(host, groups, paper, margin) if groups and (not backs or duplex in ("long", "short")) else None
    if room is None:
        return None
    at, shift, f, bands = room
    edge = flip(f, duplex) if backs else ""
    fronts_items, backs_items, placed = _banded_faces(bands, 0, (2 * at, 2 * at + 1) if backs else (at, at), edge,
                                                      back_offset)
    pages = list(host.pages)
    pages[at] = _with(_shifted(pages[at], shift), tuple(fronts_items))
    if backs:
        pages = [side for n, front in enumerate(pages)
                 for side in (front, _back_of(front, f, info, duplex, backs_items if n == at else [], back_offset))]
    per_sheet = 2 if backs else 1
    panels = tuple((t.page * per_sheet, _moved(t.at, shift) if t.page == at else t.at) for t in host.tiles)
    return Imposition(tuple(pages), tuple(placed), bands[0][1], duplex if backs else "none", host.sheets,
                      _given(bands), None, panels)


def _beside_panels(host: Tiling, groups: Sequence[Pieces], paper: str, margin: float,
                   ) -> tuple[int, tuple[float, float], Frame, list[tuple[Pieces, Grid]]] | None:
    """Where on `host`'s sheets the groups' bands fit beside the panels (see `fill_panels`):
    the page, the panels' shift, its frame and the bands; None when nowhere."""
    found = []
    for at, sheet in enumerate(host.pages):
        f = frame(paper, margin, landscape=sheet.width > sheet.height)
        used = bounds(t.at for t in host.tiles if t.page == at).inset(-MARK_ZONE_MM)
        for shift in ((0.0, 0.0), (f.content.x - used.x, f.content.y - used.y)):
            for room in _around(f.content, _moved(used, shift)):
                bands = _bands(groups, room, f, None)
                if bands is not None:
                    found.append((given_bleed([g for _, g in bands]), shift == (0.0, 0.0), at, shift, f, bands))
    if not found:
        return None
    _, _, at, shift, f, bands = max(found, key=lambda option: option[:3])
    return at, shift, f, bands


def _moved(box: Box, shift: tuple[float, float]) -> Box:
    return Box(box.x + shift[0], box.y + shift[1], box.w, box.h)


def _around(content: Box, used: Box) -> list[Box]:
    """The room in `content` below, right of, above and left of the `used` box, widest first."""
    rooms = [Box(content.x, used.bottom, content.w, content.bottom - used.bottom),
             Box(used.right, content.y, content.right - used.right, content.h),
             Box(content.x, content.y, content.w, used.y - content.y),
             Box(content.x, content.y, used.x - content.x, content.h)]
    return sorted((r for r in rooms if r.w > 0 and r.h > 0), key=lambda r: -r.w * r.h)


def _shifted(sheet: Page, shift: tuple[float, float]) -> Page:
    """The page with everything but its furniture (its last item) moved by `shift`."""
    if shift == (0.0, 0.0):
        return sheet
    return replace(sheet, items=(Group(sheet.items[:-1], translate(*shift)), sheet.items[-1]))


def _back_of(front: Page, f: Frame, info: Furniture, duplex: Duplex, items: list[Item],
             back_offset: tuple[float, float]) -> Page:
    """The back of a panel's sheet that now prints double-sided: blank, or the backs of the
    pieces that came to its front."""
    where = front.label[len(info.component) + 2:]  # the front's header after its component's name
    art = (Group(tuple(items), translate(*back_offset)),) if items else ()
    return page(f, art, info, side_words(where, duplex, "back"))


def _given(bands: Sequence[tuple[Pieces, Grid]], *grids: Grid) -> tuple[float, float]:
    """The bleed the pieces of `bands` (those whose art has any: a player aid's has none) and
    `grids` get (`given_bleed`)."""
    return given_bleed([*grids, *(g for group, g in bands if group.bleed > 0)] or [bands[0][1]])


def _room_left(host: Imposition) -> tuple[int, tuple[Box, Box]]:
    """The page of the host's last fronts, and the room on it: below its last row across the
    fronts' part of the sheet (a folded sheet's half), and beside the last row's last piece,
    each down to that part's foot."""
    grid, f = host.grid, host.grid.frame
    content = within(f.content, host.registration)
    if host.duplex == "fold":
        content = next(box for name, box in regions(content, "fold") if name == grid.fold)
    last_page = max(p.page for p in host.placed if p.side == "front")
    last = [p for p in host.placed if p.side == "front" and p.page == last_page]
    slots = [_slot_of(grid, p.trim) for p in last]
    boxes = [grid.art_box(c, r, frozenset(slots)) for c, r in slots]
    bottom_row = [b for b in boxes if abs(b.y - max(c.y for c in boxes)) < 1e-6]
    below_y = max(b.bottom for b in boxes) + MARK_ZONE_MM
    below = Box(content.x, below_y, content.w, content.bottom - below_y)
    beside_x = max(b.right for b in bottom_row) + MARK_ZONE_MM
    beside_y = bottom_row[0].y + MARK_ZONE_MM
    beside = Box(beside_x, beside_y, content.right - beside_x, content.bottom - beside_y)
    return last[0].page, (below, beside)


def _slot_of(grid: Grid, trim: Box) -> tuple[int, int]:
    """The (column, row) of `grid` a piece placed at `trim` sits in."""
    return (round((trim.x - grid.columns.start) / (grid.columns.size + grid.columns.gutter)),
            round((trim.y - grid.rows.start) / (grid.rows.size + grid.rows.gutter)))


def _bands(groups: Sequence[Pieces], region: Box, f: Frame, reg: Registration | None) -> list[tuple[Pieces, Grid]] | None:
    """Each group's band of rows in `region`, top to bottom — a group turned a quarter where
    only that fits — with the most bleed that lets all of them fit, never less than
    `GOOD_BLEED_MM` (less only where the art has less); None when they do not fit. Each group
    comes back as placed (turned or not) with its grid."""
    if region.w <= 0 or region.h <= 0:
        return None
    for cap in (math.inf, GOOD_BLEED_MM):
        placed: list[tuple[Pieces, Grid]] = []
        y = region.y
        for group in groups:
            band = next(((way, found) for way in (group, turned(group))
                         if (found := _band(way, region, y, min(way.bleed, cap), f, reg)) is not None), None)
            if band is None:
                break
            placed.append((band[0], band[1][0]))
            y += band[1][1]
        if len(placed) == len(groups):
            return placed
    return None


def turned(pieces: Pieces) -> Pieces:
    """The pieces turned a quarter anticlockwise (their tops to the left), their backs the other
    way, so that a back still stands behind its front once the sheet is turned over."""
    def turn(drawing: Drawing | None, anticlockwise: bool) -> Drawing | None:
        if drawing is None:
            return None
        w, h = drawing.width, drawing.height
        matrix = (0.0, -1.0, 1.0, 0.0, 0.0, w) if anticlockwise else (0.0, 1.0, -1.0, 0.0, h, 0.0)
        return Drawing(h, w, (Group(drawing.items, matrix),), drawing.bleed)

    art = tuple(PieceArt(turn(p.front, True), turn(p.back, False)) for p in pieces.pieces)  # type: ignore[arg-type]  # a front is never None
    return replace(pieces, width=pieces.height, height=pieces.width, pieces=art)


def _with(sheet: Page, items: tuple[Item, ...]) -> Page:
    """The page with `items` added under its furniture (which `page` puts last)."""
    return replace(sheet, items=(*sheet.items[:-1], *items, sheet.items[-1]))


def _band(group: Pieces, content: Box, y: float, bleed: float, f: Frame,
          reg: Registration | None) -> tuple[Grid, float] | None:
    """One component's band of rows on a shared sheet, from `y` down, and its height: as many
    columns as fit with `bleed`, and as many rows as its pieces need once the slots a machine's
    marks keep free are left out; None when it does not fit above the content's foot or
    within its sides."""
    room = content.w - 2 * MARK_ZONE_MM
    count = min(len(group.pieces), math.floor(room / (group.width + 2 * bleed) + 1e-9))
    columns = plan_axis(content.x, content.right, group.width, bleed, count) if count else None
    if columns is None:
        return None
    lines = math.ceil(len(group.pieces) / count)
    while True:
        height = lines * (group.height + 2 * bleed) + 2 * MARK_ZONE_MM
        if y + height > content.bottom + 1e-6:
            return None
        rows = plan_axis(y, y + height, group.height, bleed, lines)
        if rows is None:
            return None
        grid = clear(Grid(f, columns, rows), reg)
        if grid.per_page >= len(group.pieces):
            return grid, height
        lines += 1
