"""`pnp build`: the spec → components → sheets → files, atomically and reproducibly.

Each game's components are generated and laid out (pieces imposed with their backs, panels on
their own sheets or tiled) before anything is written. Each component's sheets are rendered to
PDF once — by forked workers when the machine has several cores — and written to
`<out>/<game>/`; the game's combined print file `<game>-all.pdf` joins those very PDFs behind a
page of print instructions. SVG pages and PNG pieces are written on request. Everything goes to
a staging folder that replaces the output only when the whole build succeeded (see
`pnp.manifest`). The same spec gives the same bytes: PDFs are written in reportlab's invariant
mode and the manifest carries no time.
"""

from __future__ import annotations

import argparse
import io
import math
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from pnp import __version__, manifest
from pnp.components import BookPages, Context, Panels, Pieces, generate
from pnp.components.resolution import resolution_warnings
from pnp.display import Page
from pnp.errors import BuildError, Issue, UsageError
from pnp.layout.booklet import Folding, fold_booklet
from pnp.layout.gang import Candidate, share_sheets
from pnp.layout.impose import Imposition, impose
from pnp.layout.instructions import Job, instructions_back, instructions_page, sides_text
from pnp.layout.sheet import Furniture, frame, stamp
from pnp.layout.tile import Tiling, tile
from pnp.spec.faces import piece_count
from pnp.spec.model import Game, Print, Spec

FORMATS = ("pdf", "svg", "png")
MAX_OFFSET_MM = 10.0  # a printer further off than this needs fixing, not compensating
PIECE_DPI = 300
PANEL_DPI = 150
NOUNS = {"deck": "card", "tokens": "token", "money": "bill", "board": "board", "mat": "mat", "aid": "aid", "form": "form",
         "booklet": "page"}
STOCK = {"deck": "card stock", "tokens": "card stock", "money": "paper", "board": "card stock, or paper glued to card",
         "mat": "card stock", "aid": "paper", "form": "paper", "booklet": "paper"}


@dataclass(frozen=True)
class Laid:
    """One component, generated and laid out on sheets."""

    component: Any
    output: Pieces | Panels | BookPages
    layout: Imposition | Tiling | Folding

    @property
    def pages(self) -> tuple[Page, ...]:
        return self.layout.pages

    @property
    def double_sided(self) -> bool:
        return _double_sided(self.layout)


def _double_sided(layout: Imposition | Tiling | Folding) -> bool:
    return isinstance(layout, (Imposition, Folding)) and layout.duplex in ("long", "short")


@dataclass(frozen=True)
class Unit:
    """One range of the combined print file: a component's sheets, or the sheets several
    small components share (`pnp.layout.gang`)."""

    members: tuple[int, ...]  # indexes into GameLayout.laid
    layout: Imposition | Tiling | Folding

    @property
    def pages(self) -> tuple[Page, ...]:
        return self.layout.pages

    @property
    def shared(self) -> bool:
        return len(self.members) > 1


@dataclass(frozen=True)
class GameLayout:
    """A game's components on sheets, in spec order, and the combined file's print units."""

    game_id: str
    game: Game
    laid: tuple[Laid, ...]
    units: tuple[Unit, ...]  # the combined file's ranges, in print order
    lead: tuple[Page, ...]  # the instructions (and their blank back) opening the combined file


@dataclass(frozen=True)
class Summary:
    games: tuple[str, ...]
    files: int
    pages: int  # PDF pages, combined files included
    warnings: tuple[Issue, ...] = ()  # e.g. art printed below 300 dpi: built anyway


# --- command line ---------------------------------------------------------------------------


def build_from_args(args: argparse.Namespace) -> int:
    """`pnp build` with the CLI's options; prints a summary and returns the exit status."""
    from pnp.rules import load_spec

    started = time.perf_counter()
    formats = parse_formats(args.format)
    ink_saver = None if args.ink is None else args.ink == "low"
    spec = with_print(load_spec(args.spec), paper=args.paper, duplex=args.duplex,
                      back_offset_mm=parse_offset(args.back_offset), ink_saver=ink_saver)
    games = select_games(spec, args.game)
    summary = build(spec, Path(args.out), games, formats)
    for warning in summary.warnings:
        print(warning, file=sys.stderr)
    print(f"built {', '.join(summary.games)}: {summary.files} files, {summary.pages} PDF pages "
          f"in {args.out}{os.sep} ({time.perf_counter() - started:.1f} s)")
    return 0


def parse_formats(text: str) -> tuple[str, ...]:
    formats = tuple(dict.fromkeys(f.strip().lower() for f in text.split(",") if f.strip()))
    if not formats or any(f not in FORMATS for f in formats):
        raise UsageError(f"--format {text!r}: choose from {', '.join(FORMATS)}, separated by commas")
    return formats


def parse_offset(text: str | None) -> tuple[float, float] | None:
    """`--back-offset X,Y` in mm; None when not given."""
    if text is None:
        return None
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        x = y = math.nan
    if not all(math.isfinite(v) and abs(v) <= MAX_OFFSET_MM for v in (x, y)):
        raise UsageError(f"--back-offset {text!r}: give two numbers of mm, right and down, such as 0.5,-1 "
                         f"(at most {MAX_OFFSET_MM:g} mm each)")
    return (x, y)


def with_print(spec: Spec, **overrides: Any) -> Spec:
    """The spec with print settings replaced where an override is given (not None)."""
    changes = {key: value for key, value in overrides.items() if value is not None}
    return spec.model_copy(update={"print": spec.print.model_copy(update=changes)}) if changes else spec


def select_games(spec: Spec, wanted: Sequence[str] | None) -> tuple[str, ...]:
    if not wanted:
        return tuple(spec.games)
    unknown = [g for g in wanted if g not in spec.games]
    if unknown:
        raise UsageError(f"--game {unknown[0]}: no such game (known: {', '.join(spec.games)})")
    return tuple(dict.fromkeys(wanted))


# --- the build -----------------------------------------------------------------------------


def build(spec: Spec, out: Path, games: Sequence[str], formats: Sequence[str] = ("pdf",)) -> Summary:
    """Build `games` into `out`, all or nothing; other games' files already there are kept."""
    out = Path(os.path.abspath(out))
    old = manifest.check_output(out)
    layouts = [lay_out_game(spec, game_id) for game_id in games]
    warnings = [w for g in layouts for w in resolution_warnings(spec, g.game_id, [item.output for item in g.laid])]
    jobs = [(item.pages, f"{g.game.title} — {_name(item.component)}", g.game_id) for g in layouts for item in g.laid]
    jobs += [(g.lead, f"{g.game.title} — print instructions", g.game_id) for g in layouts]
    jobs += [(u.pages, f"{g.game.title} — {_unit_name(g, u)}", g.game_id) for g in layouts for u in g.units if u.shared]
    rendered = iter(render_pdfs(jobs))
    pdfs = {(g.game_id, item.component.id): next(rendered) for g in layouts for item in g.laid}
    pdfs.update({(g.game_id, None): next(rendered) for g in layouts})
    pdfs.update({(g.game_id, u.members): next(rendered) for g in layouts for u in g.units if u.shared})
    files: list[manifest.FileEntry] = []
    try:
        with manifest.staging(out) as root:
            for g in layouts:
                files += write_game(root, g, pdfs, formats)
            # a build of every game also drops the folders of games no longer in the spec
            replaced = set(games) | (manifest.games_in(old) if set(games) == set(spec.games) else set())
            components = [_component_entry(g, item) for g in layouts for item in g.laid]
            manifest.write(root, manifest.merged(old, files, components, sorted(replaced), __version__))
            manifest.publish(root, out, replaced)
    except OSError as error:
        raise BuildError(f"cannot write the output folder {out}: {error.strerror or error} ({error.filename or out})") from None
    pages = sum(f.pages for f in files if f.format == "pdf")
    return Summary(tuple(games), len(files), pages, tuple(warnings))


def lay_out_game(spec: Spec, game_id: str) -> GameLayout:
    """Every component of one game generated and on sheets, and the instructions for them."""
    game = spec.games[game_id]
    if any(c.id == f"{game_id}-all" for c in game.components):
        raise BuildError(f"{game_id}: no component may be called {game_id}-all, the name of the combined print file")
    version_stamp = stamp(__version__, game.model_dump_json())
    context = Context(game_id, game, spec.print, spec.folder)
    laid = tuple(lay_out(context, component, version_stamp) for component in game.components)
    order = sorted(range(len(laid)), key=lambda i: (not laid[i].double_sided, not _stock(laid[i]).startswith("card"), i))
    units = _units(game, laid, order, spec.print, version_stamp)
    lead = instruction_pages(game, laid, units, spec.print, version_stamp)
    return GameLayout(game_id, game, laid, units, tuple(lead))


def _units(game: Game, laid: tuple[Laid, ...], order: Sequence[int], settings: Print, version_stamp: str) -> tuple[Unit, ...]:
    """The print units in `order`: components of pieces that save sheets together share them."""
    candidates = [Candidate(i, laid[i].output, laid[i].layout, _stock(laid[i])) for i in order
                  if isinstance(laid[i].output, Pieces) and isinstance(laid[i].layout, Imposition)]

    def info(members: tuple[int, ...]) -> Furniture:
        return Furniture(game.title, " + ".join(_name(laid[i].component) for i in members), version_stamp)

    shared = share_sheets(candidates, settings.paper, settings.margin_mm, settings.duplex, info,
                          tuple(settings.back_offset_mm))  # type: ignore[arg-type]
    first_of = {group.members[0]: group for group in shared}
    inside = {i for group in shared for i in group.members}
    units = []
    for i in order:
        if i in first_of:
            units.append(Unit(first_of[i].members, first_of[i].layout))
        elif i not in inside:
            units.append(Unit((i,), laid[i].layout))
    return tuple(units)


def lay_out(context: Context, component: Any, version_stamp: str) -> Laid:
    """Generate one component and put it on sheets."""
    settings = context.settings
    info = Furniture(context.game.title, _name(component), version_stamp)
    output = generate(context, component)
    if isinstance(output, Pieces):
        layout: Imposition | Tiling | Folding = impose(output, settings.paper, settings.margin_mm, settings.duplex, info,
                                                       tuple(settings.back_offset_mm))  # type: ignore[arg-type]
    elif isinstance(output, BookPages):
        layout = fold_booklet(output.pages, settings.paper, settings.margin_mm, settings.duplex, info)
    else:
        layout = tile(output, settings.paper, settings.margin_mm, info)
    return Laid(component, output, layout)


def instruction_pages(game: Game, laid: Sequence[Laid], units: Sequence[Unit], settings: Print,
                      version_stamp: str) -> list[Page]:
    """The instructions for the sheets of `units`, which follow them in the combined file.
    Double-sided components come first there, each starting on an odd page: the instructions
    then get a back, which carries the duplex check."""
    f = frame(settings.paper, settings.margin_mm)
    info = Furniture(game.title, "print instructions", version_stamp)
    lead = 2 if any(_double_sided(unit.layout) for unit in units) else 1
    jobs, first = [], lead + 1
    for unit in units:
        jobs.append(_job(laid, unit, first))
        first += len(unit.pages)
    offset = tuple(settings.back_offset_mm)
    front = instructions_page(f, info, settings.paper, jobs, title_en=game.title_en, back_offset=offset)  # type: ignore[arg-type]
    return [front, instructions_back(f, info, settings.duplex, offset)] if lead == 2 else [front]  # type: ignore[arg-type]


# --- rendering ------------------------------------------------------------------------------

_JOBS: list[tuple[Sequence[Page], str, str]] = []  # what forked workers render (they inherit it)


def render_pdfs(jobs: list[tuple[Sequence[Page], str, str]]) -> list[bytes]:
    """Each job's (pages, title, subject) as PDF bytes, in order. With several cores the jobs go
    to forked workers, which inherit the pages instead of receiving them pickled; every PDF is
    rendered by the same code either way, so the bytes do not depend on it."""
    global _JOBS
    workers = min(os.cpu_count() or 1, len(jobs))
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [_render(job) for job in jobs]
    _JOBS = jobs
    try:
        heavy_first = sorted(range(len(jobs)), key=lambda i: -len(jobs[i][0]))
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            done = dict(zip(heavy_first, pool.map(_render_inherited, heavy_first)))
    finally:
        _JOBS = []
    return [done[i] for i in range(len(jobs))]


def _render_inherited(index: int) -> bytes:
    return _render(_JOBS[index])


def _render(job: tuple[Sequence[Page], str, str]) -> bytes:
    from pnp.render.pdf import pdf_bytes

    pages, title, subject = job
    return pdf_bytes(pages, title=title, subject=subject)


def combine(parts: Sequence[tuple[str, bytes]], *, title: str, subject: str) -> bytes:
    """PDFs joined into one, each part bookmarked by its name: the combined print file holds
    the very pages of the component files. Same parts → same bytes."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for name, data in parts:
        writer.append(PdfReader(io.BytesIO(data)), outline_item=name)
    writer.add_metadata({"/Title": title, "/Subject": subject, "/Creator": "pnp"})
    writer.create_viewer_preferences().print_scaling = "/None"
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


# --- files ----------------------------------------------------------------------------------


def write_game(root: Path, g: GameLayout, pdfs: dict[tuple[str, Any], bytes],
               formats: Sequence[str]) -> list[manifest.FileEntry]:
    """Every file of one game under `root/<game>/`, with their manifest entries."""
    folder = root / g.game_id
    folder.mkdir(parents=True)
    files: list[manifest.FileEntry] = []
    for item in g.laid:
        component, data = item.component, pdfs[(g.game_id, item.component.id)]
        if "pdf" in formats:
            path = folder / f"{component.id}.pdf"
            path.write_bytes(data)
            files.append(manifest.file_entry(root, path, g.game_id, component.id, "pdf", len(item.pages)))
        if "svg" in formats:
            files += _svgs(root, folder, g.game_id, item)
        if "png" in formats:
            files += _pngs(root, folder, g.game_id, item, data)
    if "pdf" in formats:
        parts = [("Print instructions", pdfs[(g.game_id, None)])]
        parts += [(_unit_name(g, u), pdfs[(g.game_id, u.members if u.shared else g.laid[u.members[0]].component.id)])
                  for u in g.units]
        path = folder / f"{g.game_id}-all.pdf"
        path.write_bytes(combine(parts, title=f"{g.game.title} — print-and-play", subject=g.game_id))
        pages = len(g.lead) + sum(len(u.pages) for u in g.units)
        files.append(manifest.file_entry(root, path, g.game_id, None, "pdf", pages))
    return files


def _svgs(root: Path, folder: Path, game_id: str, item: Laid) -> list[manifest.FileEntry]:
    from pnp.render.svg import write_svg

    (folder / "svg").mkdir(exist_ok=True)
    files = []
    for number, page in enumerate(item.pages, 1):
        path = folder / "svg" / f"{item.component.id}-p{number:02d}.svg"
        write_svg(page, path)
        files.append(manifest.file_entry(root, path, game_id, item.component.id, "svg", 1))
    return files


def _pngs(root: Path, folder: Path, game_id: str, item: Laid, pdf: bytes) -> list[manifest.FileEntry]:
    """Pieces: each face at 300 dpi with its bleed; panels: each page at 150 dpi."""
    from pnp.render.png import drawing_png, page_png

    target = folder / "png" / item.component.id
    target.mkdir(parents=True)
    outputs: list[tuple[str, bytes]] = []
    if isinstance(item.output, Pieces):
        rendered: dict[Any, bytes] = {}  # identical faces (18 cards of a company) are drawn once
        for number, piece in enumerate(item.output.pieces, 1):
            for side, drawing in (("front", piece.front), ("back", piece.back)):
                if drawing is not None:
                    key = _key(drawing)
                    if key not in rendered:
                        rendered[key] = drawing_png(drawing, PIECE_DPI)
                    outputs.append((f"{number:03d}-{side}.png", rendered[key]))
    else:
        outputs = [(f"p{n:02d}.png", page_png(pdf, n - 1, PANEL_DPI)) for n in range(1, len(item.pages) + 1)]
    files = []
    for name, data in outputs:
        path = target / name
        path.write_bytes(data)
        files.append(manifest.file_entry(root, path, game_id, item.component.id, "png", 1))
    return files


def _key(drawing: Any) -> Any:
    """Equal drawings share a key; one holding something unhashable is only equal to itself."""
    try:
        hash(drawing)
    except TypeError:
        return id(drawing)
    return drawing


# --- what the instructions and the manifest say ---------------------------------------------


def _job(laid: Sequence[Laid], unit: Unit, first: int) -> Job:
    """The print plan's row for one unit; components sharing sheets share a row that says so."""
    items = [laid[i] for i in unit.members]
    layout = unit.layout
    counts = [_count(item) for item in items]
    contents = " + ".join(counts) + (" on shared sheets" if unit.shared else "")
    assembly = finish = ""
    if isinstance(layout, Folding):
        duplex = layout.duplex
        contents = f"{contents}, A5"
        finish = ("fold the sheets in half together on their dashed marks, the first sheet outside, and staple "
                  "on the fold" if layout.folded else "cut each sheet in half on its middle marks and staple the "
                  "pages in order")
    elif isinstance(layout, Tiling):
        duplex = "none"
        if layout.tiled:
            t = next(t for t in layout.tiles if t.rows * t.columns > 1)
            contents += f" in {t.rows * t.columns} parts"
            assembly = f"{t.rows} row{'s' if t.rows > 1 else ''} × {t.columns} column{'s' if t.columns > 1 else ''} of parts"
    else:
        duplex = layout.duplex
    name = " + ".join(_name(item.component) for item in items)
    return Job(name, (first, first + len(layout.pages) - 1), layout.sheets, contents, sides_text(duplex),
               _stock(items[0]), assembly, finish)


def _count(item: Laid) -> str:
    count = len(_drawn(item.output))
    return f"{count} {NOUNS.get(item.component.kind, 'piece')}{'s' if count != 1 else ''}"


def _unit_name(g: GameLayout, unit: Unit) -> str:
    return " + ".join(_name(g.laid[i].component) for i in unit.members)


def _drawn(output: Pieces | Panels | BookPages) -> tuple[Any, ...]:
    """The pieces, panels or pages a generator made."""
    if isinstance(output, Pieces):
        return output.pieces
    return output.pages if isinstance(output, BookPages) else output.drawings


def _stock(item: Laid) -> str:
    return STOCK.get(item.component.kind, "paper")


def _name(component: Any) -> str:
    name_en = getattr(component, "name_en", "")
    return f"{component.name} · {name_en}" if name_en and name_en != component.name else component.name


def _component_entry(g: GameLayout, item: Laid) -> manifest.ComponentEntry:
    output = item.output
    if isinstance(output, Pieces):
        size = (output.width, output.height)
    else:
        drawings = _drawn(output)
        size = (drawings[0].width, drawings[0].height) if drawings else (0.0, 0.0)
    component = item.component
    return manifest.ComponentEntry(g.game_id, component.id, component.kind, piece_count(g.game, component),
                                   (round(size[0], 3), round(size[1], 3)))
