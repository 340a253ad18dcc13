"""Components on sheets: each drawn and laid out (`draw`, `lay_out`), the facts about their
sheets, and their rendering to PDF.

One digest per component does four jobs. It is a hash of what the component's generator drew
and of the print settings and names that shape its sheets (`pnp.display.fingerprint`); its
first digits are the *stamp* in the sheets' footers; it names the rendered PDF in the cache
(`pnp.cache`), so unchanged components are not drawn or rendered again; and the manifest
records it with a digest per sheet of paper (stamp left out), so the next build tells which
sheets changed (`pnp.changes`). Sheets that several small components share in the combined
print file (`pnp.printfile`) get a digest of their own, made of their members' digests.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import asdict, astuple, dataclass, field
from functools import partial
from typing import Any, Callable, Iterator, Sequence

from pnp import __version__
from pnp.cache import Blob, Cache, FolderStore, user_folder
from pnp.components import Context, Output, generate
from pnp.display import BookPages, Cut, Drawing, Page, Panels, PieceArt, Pieces, fingerprint
from pnp.i18n import N_, N_plural, _, ngettext, speaking
from pnp.layout.booklet import Folding, fold_booklet
from pnp.layout.impose import CutLine, Imposition, cut_lines, impose
from pnp.layout.registration import INSET_MM, Cutter
from pnp.layout.sheet import Furniture, stamp
from pnp.layout.tile import Tiling, tile
from pnp.spec.faces import piece_count
from pnp.spec.model import AnyComponent, Game, Print
from pnp.workers import die_with_parent

STAMP_DIGITS = 8
MEASURES = "measures"  # the user cache's folder of what kits measure in each language (`Context.measured`)
MEASURES_KEEP = 4096  # measurements (a booklet's page count, an aid's heights at a size); the oldest go first
NOUNS = {"deck": N_plural("{n} card", "{n} cards"), "tokens": N_plural("{n} token", "{n} tokens"),
         "money": N_plural("{n} bill", "{n} bills"), "board": N_plural("{n} board", "{n} boards"),
         "mat": N_plural("{n} mat", "{n} mats"), "aid": N_plural("{n} aid", "{n} aids"),
         "form": N_plural("{n} form", "{n} forms"), "booklet": N_plural("{n} page", "{n} pages")}
PIECES = N_plural("{n} piece", "{n} pieces")
# the paper a kind prints on, in English (the instructions show it translated; the words decide what shares sheets)
STOCK = {"deck": N_("card stock"), "tokens": N_("card stock"), "money": N_("paper"),
         "board": N_("card stock, or paper glued to card"), "mat": N_("card stock"), "aid": N_("paper"),
         "form": N_("paper"), "booklet": N_("paper")}


Layout = Imposition | Tiling | Folding


def machine(settings: Print, stock: str) -> Cutter | None:
    """The cutting machine (`print.cut`, its marks `print.cut_inset_mm` in) whose registration
    marks go on sheets of `stock`: card stock only — paper bills and aids are cut by hand."""
    return Cutter(settings.cut, settings.cut_inset_mm) if settings.cut != "none" and stock == "card stock" else None


@dataclass(frozen=True)
class Laid:
    """One component, generated and laid out on sheets; `digest` is what it prints."""

    component: AnyComponent
    output: Pieces | Panels | BookPages
    layout: Layout
    digest: str
    info: Furniture
    memo: dict[int, bytes] = field(default_factory=dict, compare=False, repr=False)  # `output`'s sub-trees digested

    @property
    def pages(self) -> tuple[Page, ...]:
        return self.layout.pages


# --- one component drawn, then laid out on sheets -------------------------------------------


def measures() -> Cache | None:
    """What the kits of a game measure in each of its languages, remembered in the user's cache
    (none when it is off): a build in one language does not lay out the others again."""
    folder = user_folder()
    return Cache(FolderStore(folder / MEASURES, MEASURES_KEEP)) if folder is not None else None


@dataclass(frozen=True)
class Drawn:
    """One component as its generator drew it, with the digest of what it prints."""

    game_id: str
    component: AnyComponent
    inputs: str  # the cache key of everything it is drawn from
    output: Output
    digest: str
    memo: dict[int, bytes] = field(default_factory=dict, compare=False, repr=False)  # `output`'s sub-trees digested


def draw(context: Context, component: AnyComponent, inputs: str = "", *, stamped: bool = True) -> Drawn:
    """One component generated in the kit's language, with the digest of what it prints (zeros
    unless `stamped`: validation checks what fits, and a stamp of zeros fits alike)."""
    with speaking(context.language):
        output = generate(context, component)
    if not stamped:
        return Drawn(context.name, component, inputs, output, "0" * 64)
    memo: dict[int, bytes] = {}
    fingerprint(output, memo=memo)  # kept for the sheets' digests (`sheet_digests`): only what lives with `output`
    digest = fingerprint((output, context.settings.model_dump_json(), context.game.title, component.both_names),
                         memo=dict(memo))
    return Drawn(context.name, component, inputs, output, digest, memo=memo)


def lay_out(context: Context, component: AnyComponent, *, stamped: bool = True) -> Laid:
    """Generate one component and put it on sheets (`stamped` as in `draw`)."""
    return impose_drawn(context, draw(context, component, stamped=stamped))


def impose_drawn(context: Context, drawn: Drawn) -> Laid:
    """A drawing on sheets, stamped: pieces imposed with their backs, a booklet folded, panels
    tiled; the sheets' furniture in the kit's language."""
    settings, output = context.settings, drawn.output
    with speaking(context.language):
        info = Furniture(context.game.title, drawn.component.both_names, stamp(__version__, drawn.digest[:STAMP_DIGITS]))
        if isinstance(output, Pieces):
            on_sheets: Layout = impose(output, settings.paper, settings.margin_mm, settings.duplex, info,
                                       settings.back_offset_mm,
                                       machine(settings, STOCK[drawn.component.kind]))
        elif isinstance(output, BookPages):
            on_sheets = fold_booklet(output.pages, settings.paper, settings.margin_mm, settings.duplex, info)
        else:
            on_sheets = tile(output, settings.paper, settings.margin_mm, info)
    return Laid(drawn.component, output, on_sheets, drawn.digest, info, drawn.memo)


ShapeFacts = tuple[float, float, float, Cut, bool, bool, int]  # a `Shape`'s fields, as the cache keeps them
PanelFacts = tuple[tuple[float, float, float, tuple[float, ...]], ...]  # a `PanelShape`'s drawings
PageCuts = tuple[tuple[int, float, float, tuple[CutLine, ...]], ...]  # per front page with marks: `cut_lines`


@dataclass(frozen=True)
class Sheets:
    """How a component (or a run of shared sheets) prints: what the instructions, the manifest
    and the change list say about its sheets. It follows from the digest alone, so the cache
    keeps it with the PDF."""

    stamp: str
    sheets: tuple[str, ...]  # the digest of each sheet of paper (a front with its backs), stamp left out
    pages: int
    duplex: str  # as printed: long | short | fold | none
    count: int  # physical pieces
    size_mm: tuple[float, float]  # one piece; for panels the drawing
    contents: str  # "90 cards", "1 board in 2 parts"
    assembly: str  # "1 row × 2 columns of parts" for a tiled board
    finish: str  # for a booklet: how to fold or cut and bind it
    shape: ShapeFacts | None  # imposed pieces: what deciding on shared sheets reads (see `Shape`); else None
    bleed: tuple[float, float] | None = None  # imposed pieces: the least art beyond a cut at the sheet's edges, between pieces
    machine: str | None = None  # the cutting machine whose marks its front pages carry
    cuts: PageCuts = ()  # then per front page: (index, width, height, ((shape, x, y, w, h) of each trim, …)): `cut_lines`
    inset: float = INSET_MM  # the marks' inset from the paper's edges
    gain: int = 0  # pieces a sheet holds more with that inset than with 10 mm
    covered: tuple[float, ...] = ()  # each sheet: the share of its paper its pieces or panels cover (`coverage`)
    places: int = 0  # one component's pieces on sheets of their own: how many a sheet holds
    panels: PanelFacts | None = None  # panels on sheets of their own: what sharing reads of them (see `PanelShape`)

    @property
    def double_sided(self) -> bool:
        return self.duplex in ("long", "short")

    @property
    def pages_per_sheet(self) -> int:
        return self.pages // max(1, len(self.sheets))

    @classmethod
    def from_json(cls, data: Any) -> "Sheets | None":
        """The facts from the cache, or None when they are not what this code writes."""
        try:
            shape = tuple(data["shape"]) if data["shape"] is not None else None
            bleed = tuple(data["bleed"]) if data.get("bleed") is not None else None
            cuts = tuple((page, w, h, tuple(tuple(line) for line in lines)) for page, w, h, lines in data.get("cuts", ()))
            panels = (tuple((w, h, b, tuple(seams)) for w, h, b, seams in data["panels"])
                      if data.get("panels") is not None else None)
            facts = cls(**{**data, "sheets": tuple(data["sheets"]), "size_mm": tuple(data["size_mm"]), "shape": shape,
                           "bleed": bleed, "cuts": cuts, "covered": tuple(data.get("covered", ())), "panels": panels})
        except (TypeError, KeyError):
            return None
        return facts if all(isinstance(s, str) for s in facts.sheets) else None


@dataclass(frozen=True)
class Made:
    """One component of a build: its sheets, its PDF (None until rendered), and its layout when
    it was drawn in this build rather than found in the cache (its exported files, as
    `pnp.export.reused_files` gives them, then come from the cache too)."""

    game_id: str
    component: AnyComponent
    inputs: str  # the cache key of its inputs
    digest: str  # what it prints (see the module's docstring)
    entry: str  # the cache name of its digest and pnp's code
    sheets: Sheets
    pdf: bytes | None
    laid: Laid | None
    exported: tuple[tuple[str, str, int, bytes], ...] = ()  # not drawn: its exported files from the cache

    @property
    def name(self) -> str:
        return self.component.both_names

    @property
    def stock(self) -> str:
        if self.sheets.duplex == "fold":  # two glued layers make the piece: card stock does not fold flat
            return "paper"
        return STOCK.get(self.component.kind, "paper")


@dataclass(frozen=True)
class Shape:
    """What imposing a component's pieces depends on besides the print settings — never what
    is drawn on them: which components may share sheets is decided from their shapes alone, so
    a build knows it without drawing the components that did not change."""

    width: float
    height: float
    bleed: float
    cut: Cut
    two_sided: bool
    backs: bool  # some piece has a back
    count: int

    @classmethod
    def of(cls, pieces: Pieces) -> "Shape":
        return cls(pieces.width, pieces.height, pieces.bleed, pieces.cut, pieces.two_sided,
                   any(p.back is not None for p in pieces.pieces), len(pieces.pieces))

    def stand_in(self) -> Pieces:
        """Blank pieces of this shape, to impose when only the sheets they take matter."""
        blank = Drawing(self.width, self.height, ())
        piece = PieceArt(blank, blank if self.backs else None)
        return Pieces(self.width, self.height, self.bleed, (piece,) * self.count, self.cut,
                      self.two_sided)


@dataclass(frozen=True)
class PanelShape:
    """What tiling a component's panels depends on besides the print settings: each drawing's
    width, height, bleed and the places its seams may fall (`Drawing.seams_x`)."""

    drawings: tuple[tuple[float, float, float, tuple[float, ...]], ...]

    @classmethod
    def of(cls, panels: Panels) -> "PanelShape":
        return cls(tuple((d.width, d.height, d.bleed, d.seams_x) for d in panels.drawings))

    def stand_in(self) -> Panels:
        """Blank panels of this shape, to tile when only the sheets they take matter."""
        return Panels(tuple(Drawing(w, h, (), b, seams) for w, h, b, seams in self.drawings))


def coverage(layout: Layout) -> tuple[float, ...]:
    """Each sheet's share of its paper that what it prints covers: the trims of the pieces on
    its front (both halves of a folded sheet), the parts of panels on it; 1 for a booklet's
    sheets, whose pages fill them."""
    if isinstance(layout, Folding):
        return (1.0,) * layout.sheets
    area = [0.0] * layout.sheets
    per_sheet = len(layout.pages) // layout.sheets
    if isinstance(layout, Imposition):
        for p in layout.placed:
            if p.side == "front" or layout.duplex == "fold":
                area[p.page // per_sheet] += p.trim.w * p.trim.h
        for number, box in layout.panels:
            area[number // per_sheet] += box.w * box.h
    else:
        for t in layout.tiles:
            area[t.page] += t.window.w * t.window.h
    paper = [layout.pages[k * per_sheet].width * layout.pages[k * per_sheet].height for k in range(layout.sheets)]
    return tuple(round(a / p, 4) for a, p in zip(area, paper, strict=True))


def sheet_digests(layout: Layout, info: Furniture, drawn: dict[int, bytes] | None = None) -> tuple[str, ...]:
    """The digest of each sheet of paper — a front page with its backs — by what it prints,
    its furniture left out: the header names the sheet ("sheet 3 of 10", the components that
    share it) and the footer carries the stamp, so a sheet reads the same when later sheets are
    added or another component's pieces leave its run, and need not be reprinted for it; a
    blank back counts as none (a sheet that now prints one-sided is the same sheet). A card on
    several sheets is digested once: `drawn` holds the digests of the sub-trees of what the
    component drew (`Laid.memo`), which its sheets place as they are."""
    per_sheet = len(layout.pages) // layout.sheets
    memo = dict(drawn or {})  # a copy: the slices below die with this call
    sheets = [tuple((p.width, p.height, p.items[:-1]) for p in layout.pages[i:i + per_sheet] if len(p.items) > 1)
              for i in range(0, len(layout.pages), per_sheet)]  # alive while memo is
    return tuple(fingerprint(sheet, mask=info.stamp, memo=memo) for sheet in sheets)


def sheets_of(laid: Laid, game: Game, *, digests: bool = True) -> Sheets:
    """The facts about a freshly laid-out component (without the sheets' digests unless
    `digests`: validation needs how many sheets, not which)."""
    layout, output, component = laid.layout, laid.output, laid.component
    drawn = _drawn(output)
    singular, plural = NOUNS.get(component.kind, PIECES)
    contents = ngettext(singular, plural, len(drawn)).format(n=len(drawn))
    assembly = finish = ""
    duplex = "none"
    if isinstance(layout, Folding):
        duplex = layout.duplex
        contents, finish = _folded(layout, contents)
    elif isinstance(layout, Tiling):
        if layout.tiled:
            contents, assembly = _in_parts(layout, contents)
    else:
        duplex = layout.duplex
    size = (output.width, output.height) if isinstance(output, Pieces) else _first_size(drawn)
    sheets = sheet_digests(layout, laid.info, laid.memo) if digests else ("",) * layout.sheets
    return Sheets(laid.digest[:STAMP_DIGITS], sheets, len(layout.pages), duplex,
                  piece_count(game, component), (round(size[0], 3), round(size[1], 3)), contents, assembly, finish,
                  _shape(layout, output),
                  *_cutting(layout), coverage(layout), layout.grid.per_page if isinstance(layout, Imposition) else 0,
                  PanelShape.of(output).drawings if isinstance(layout, Tiling) and isinstance(output, Panels) else None)


def _folded(layout: Folding, contents: str) -> tuple[str, str]:
    """A booklet's contents with its page size, and how its sheets are folded (or cut) and
    stapled."""
    contents = _("{contents}, {page}").format(contents=contents, page=layout.page_name)
    return contents, (_("fold the sheets in half together on their dashed marks, the first sheet outside, and staple "
                        "on the fold") if layout.folded else _("cut each sheet in half on its middle marks and staple "
                                                               "the pages in order"))


def _in_parts(layout: Tiling, contents: str) -> tuple[str, str]:
    """The contents of a tiled panel said with its number of parts, and how the parts go
    together (rows × columns)."""
    t = next(t for t in layout.tiles if t.rows * t.columns > 1)
    parts = t.rows * t.columns
    contents = ngettext("{contents} in {n} part", "{contents} in {n} parts", parts).format(contents=contents, n=parts)
    return contents, _("{rows} × {columns} of parts").format(
        rows=ngettext("{n} row", "{n} rows", t.rows).format(n=t.rows),
        columns=ngettext("{n} column", "{n} columns", t.columns).format(n=t.columns))


def shared_sheets(layout: Imposition, info: Furniture, digest: str, members: Sequence[Sheets]) -> Sheets:
    """The facts about sheets that several components share, digested when its members are
    (validation digests none, see `sheets_of`); a tiled board that hosts small pieces keeps
    its assembly."""
    contents = _("{contents} on shared sheets").format(contents=" + ".join(m.contents for m in members))
    digests = sheet_digests(layout, info) if all(d for m in members for d in m.sheets) else ("",) * layout.sheets
    return Sheets(digest[:STAMP_DIGITS], digests, len(layout.pages), layout.duplex,
                  sum(m.count for m in members), members[0].size_mm, contents, members[0].assembly, "", None,
                  *_cutting(layout), coverage(layout))


def _cutting(layout: Layout) -> tuple[tuple[float, float] | None, str | None, PageCuts, float, int]:
    """An imposition's bleed, its cutting machine, the trims it cuts per front page, its marks'
    inset and what that inset gains."""
    if not isinstance(layout, Imposition):
        return None, None, (), INSET_MM, 0
    reg = layout.registration
    if reg is None:
        return layout.bleed, None, (), INSET_MM, 0
    return layout.bleed, reg.machine, cut_lines(layout), reg.inset, layout.gain


def _shape(layout: Layout, output: Pieces | Panels | BookPages) -> ShapeFacts | None:
    """The stand-in shape of imposed pieces (`Sheets.shape`: what sheet sharing is planned
    on); None for anything else."""
    return astuple(Shape.of(output)) if isinstance(layout, Imposition) and isinstance(output, Pieces) else None


def _first_size(drawn: Sequence[Any]) -> tuple[float, float]:
    """The size of the first panel or page drawn (0 × 0 when none is)."""
    return (drawn[0].width, drawn[0].height) if drawn else (0.0, 0.0)


def _drawn(output: Pieces | Panels | BookPages) -> tuple[Any, ...]:
    """The pieces, panels or pages a generator made."""
    if isinstance(output, Pieces):
        return output.pieces
    return output.pages if isinstance(output, BookPages) else output.drawings


@dataclass(frozen=True)
class Cached:
    """What the cache holds of a rendered component or shared run: its digest, the facts about
    its sheets and its PDF."""

    digest: str
    sheets: Sheets
    pdf: bytes

    def dump(self) -> dict[str, Any]:
        return {"digest": self.digest, "sheets": asdict(self.sheets), "pdf": Blob(self.pdf)}

    @classmethod
    def load(cls, value: Any) -> "Cached | None":
        """The entry as `dump` wrote it, or None when any of it is not what this code writes."""
        if not isinstance(value, dict) or not isinstance(value.get("digest"), str) or not isinstance(value.get("pdf"), bytes):
            return None
        sheets = Sheets.from_json(value.get("sheets"))
        return cls(value["digest"], sheets, value["pdf"]) if sheets is not None else None


PRINTED = "printed"  # cache entries of rendered sheets, by the code and the digest of what they print


def cached(cache: Cache, game: str, entry: str) -> Cached | None:
    """The rendered sheets cached under `entry`, if all of it is there and intact."""
    return Cached.load(cache.get(game, PRINTED, entry))


def remember(cache: Cache, game: str, entry: str, printed: Cached) -> None:
    """Cache rendered sheets and the facts about them under `entry`."""
    cache.put(game, PRINTED, entry, printed.dump())


# --- rendering ------------------------------------------------------------------------------

Job = tuple[Sequence[Page], str, str]  # pages, title, subject
Task = tuple[float, Callable[[], Any]]  # how heavy it is, and the work
_TASKS: list[Task] = []  # what forked workers run (they inherit it)
_BACKGROUND: list[Task] = []  # what the `Background` worker runs (it inherits it)
FORK_FROM = 30  # pages: less is done in this process (forked workers cost ~0.2 s of CPU to start on a large build)


def render_pdfs(jobs: list[Job], finished: Callable[[int, bytes], None] | None = None) -> list[bytes]:
    """Each job's (pages, title, subject) as PDF bytes, in order (`in_parallel`)."""
    return in_parallel([(len(job[0]), partial(render, job)) for job in jobs], finished)


def in_parallel(tasks: list[Task], finished: Callable[[int, Any], None] | None = None) -> list[Any]:
    """Each task's result, in order; `finished(index, result)` is called as each is done.
    With several cores the tasks go to forked workers, heaviest first, which inherit what they
    work on instead of receiving it pickled — unless all of them weigh less than `FORK_FROM`
    (a save in `pnp watch`: one component), which this process does sooner than workers that
    must first copy the pages of memory they touch; every task runs the same code either way,
    so results do not depend on it."""
    global _TASKS
    done: dict[int, Any] = {}
    workers = _workers(tasks)
    if workers < 2:
        for index, (_, work) in enumerate(tasks):
            done[index] = work()
            if finished:
                finished(index, done[index])
        return [done[i] for i in range(len(tasks))]
    _TASKS = tasks
    _before_fork()
    with long_lived() as settle:
        settle()  # what the workers inherit is never collected by them, so their collector copies none of it
        try:
            heavy_first = sorted(range(len(tasks)), key=lambda i: -tasks[i][0])
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=die_with_parent,
                                     initargs=(os.getpid(),)) as pool:
                futures = {pool.submit(_run_inherited, i): i for i in heavy_first}
                for future in as_completed(futures):
                    index = futures[future]
                    done[index] = future.result()
                    if finished:
                        finished(index, done[index])
        finally:
            _TASKS = []
    return [done[i] for i in range(len(tasks))]


_LONG_LIVED = 0  # `long_lived` blocks open


@contextmanager
def long_lived() -> Iterator[Callable[[], None]]:
    """A block whose objects, once made, live to its end (a build's drawings and layouts):
    each call of the function it gives puts everything alive so far out of the garbage
    collector's way (`gc.freeze`), so that its collections, which would walk those objects
    again and again, grow with what is new and not with the build (a 3,000-face build's
    layout took half as long again per face as a 300-face one's). When the outermost block
    ends they are collected as usual again."""
    global _LONG_LIVED
    _LONG_LIVED += 1
    try:
        yield gc.freeze
    finally:
        _LONG_LIVED -= 1
        if not _LONG_LIVED:
            gc.unfreeze()


def _before_fork() -> None:
    """What every worker would do first, done once here for all to inherit: `die_with_parent`'s
    ctypes, and reportlab (every task they run renders PDF: sheets, or the faces the gallery's
    pictures are made from)."""
    import ctypes  # noqa: F401

    from pnp.render.pdf import prepare

    prepare()


def _workers(tasks: Sequence[Task]) -> int:
    """How many forked workers `tasks` are worth: none (1: this process) with one core, no
    fork, or less than `FORK_FROM` of work."""
    if sum(weight for weight, _ in tasks) < FORK_FROM or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return min(os.cpu_count() or 1, len(tasks))


class Background:
    """Tasks begun in a forked worker now, while this process goes on, their results taken
    later (`results`): the gallery's pictures are made while the sheets are laid out, rendered
    and written, off the PDFs' path. Where `in_parallel` would not fork, the tasks are done in
    this process when their results are asked for — the same code either way."""

    def __init__(self, tasks: list[Task]) -> None:
        global _BACKGROUND
        self._tasks = tasks
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Any] = []
        if _workers(tasks) < 2:
            return
        _BACKGROUND = tasks  # inherited by the worker, forked at the first submit
        _before_fork()
        with long_lived() as settle:
            settle()
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"), initializer=die_with_parent,
                                             initargs=(os.getpid(),))
            self._futures = [self._pool.submit(_run_background, i) for i in range(len(tasks))]

    def results(self) -> list[Any]:
        """Each task's result, in order (waiting for the worker)."""
        if self._pool is None:
            return [work() for _, work in self._tasks]
        try:
            return [future.result() for future in self._futures]
        finally:
            self.close()

    def close(self) -> None:
        """Stop the worker (a build that failed no longer needs what it makes)."""
        global _BACKGROUND
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            _BACKGROUND = []


def _run_background(index: int) -> Any:
    return _BACKGROUND[index][1]()


def _run_inherited(index: int) -> Any:
    return _TASKS[index][1]()


def render(job: Job) -> bytes:
    from pnp.render.pdf import pdf_bytes

    pages, title, subject = job
    return pdf_bytes(pages, title=title, subject=subject)


def combine(parts: Sequence[tuple[str, bytes, Sequence[int] | None]], *, title: str, subject: str) -> bytes:
    """PDFs joined into one — all their pages, or the listed ones (0-based) — each part
    bookmarked by its name: the combined print file holds the very pages of the component
    files, their objects copied as written (`pnp.render.join`). Same parts → same bytes."""
    from pnp.render.join import join

    return join(parts, title=title, subject=subject)
