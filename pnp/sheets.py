"""Components on sheets: the facts about their sheets, and their rendering to PDF.

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
import signal
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import asdict, astuple, dataclass, field
from functools import partial
from typing import Any, Callable, Iterator, Sequence

from pnp.cache import Blob, Cache
from pnp.display import BookPages, Cut, Drawing, Page, Panels, PieceArt, Pieces, fingerprint
from pnp.errors import Issue
from pnp.i18n import N_, N_plural, _, ngettext
from pnp.layout.booklet import Folding
from pnp.layout.impose import Imposition, cut_lines
from pnp.layout.sheet import Furniture
from pnp.layout.tile import Tiling
from pnp.spec.faces import piece_count
from pnp.spec.model import Game, Print

STAMP_DIGITS = 8
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


def machine(settings: Print, stock: str) -> str | None:
    """The cutting machine (`print.cut`) whose registration marks go on sheets of `stock`: card
    stock only — paper bills and aids are cut by hand."""
    return settings.cut if settings.cut != "none" and stock == "card stock" else None


@dataclass(frozen=True)
class Laid:
    """One component, generated and laid out on sheets; `digest` is what it prints."""

    component: Any
    output: Pieces | Panels | BookPages
    layout: Layout
    digest: str
    info: Furniture
    memo: dict[int, bytes] = field(default_factory=dict, compare=False, repr=False)  # `output`'s sub-trees digested

    @property
    def pages(self) -> tuple[Page, ...]:
        return self.layout.pages


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
    shape: tuple | None  # imposed pieces: what deciding on shared sheets reads (see `Shape`); else None
    bleed: tuple[float, float] | None = None  # imposed pieces: the least art beyond a cut, across and down
    machine: str | None = None  # the cutting machine whose marks its front pages carry
    cuts: tuple = ()  # then per front page: (index, width, height, ((shape, x, y, w, h) of each trim, …)): `cut_lines`

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
            facts = cls(**{**data, "sheets": tuple(data["sheets"]), "size_mm": tuple(data["size_mm"]), "shape": shape,
                           "bleed": bleed, "cuts": cuts})
        except (TypeError, KeyError):
            return None
        return facts if all(isinstance(s, str) for s in facts.sheets) else None


@dataclass(frozen=True)
class Made:
    """One component of a build: its sheets, its PDF (None until rendered), and its layout when
    it was drawn in this build rather than found in the cache (its exported files, as
    `pnp.export.reused_files` gives them, then come from the cache too)."""

    game_id: str
    component: Any
    inputs: str  # the cache key of its inputs
    digest: str  # what it prints (see the module's docstring)
    entry: str  # the cache name of its digest and pnp's code
    sheets: Sheets
    pdf: bytes | None
    laid: Laid | None
    warnings: tuple[Issue, ...]  # about its art, found when it was drawn
    exported: tuple[tuple[str, str, int, bytes], ...] = ()  # not drawn: its exported files from the cache

    @property
    def name(self) -> str:
        return name(self.component)

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


def name(component: Any) -> str:
    """A component as the sheets name it: "Cartas de acciones · Share cards"."""
    name_en = getattr(component, "name_en", "")
    return f"{component.name} · {name_en}" if name_en and name_en != component.name else component.name


def sheet_digests(layout: Layout, info: Furniture, drawn: dict[int, bytes] | None = None) -> tuple[str, ...]:
    """The digest of each sheet of paper — a front page with its backs — without its stamp
    (a card on several sheets digested once). `drawn` holds the digests of the sub-trees of
    what the component drew (`Laid.memo`), which its sheets place as they are: each is
    digested once for the component's digest and its sheets' (no drawn text is the stamp,
    which is made of that digest, so masking it changes none of theirs)."""
    per_sheet = len(layout.pages) // layout.sheets
    memo = dict(drawn or {})  # a copy: the slices below die with this call
    sheets = [layout.pages[i:i + per_sheet] for i in range(0, len(layout.pages), per_sheet)]  # alive while memo is
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
        contents = _("{contents}, {page}").format(contents=contents, page=layout.page_name)
        finish = (_("fold the sheets in half together on their dashed marks, the first sheet outside, and staple "
                    "on the fold") if layout.folded else _("cut each sheet in half on its middle marks and staple "
                                                           "the pages in order"))
    elif isinstance(layout, Tiling):
        if layout.tiled:
            t = next(t for t in layout.tiles if t.rows * t.columns > 1)
            parts = t.rows * t.columns
            contents = ngettext("{contents} in {n} part", "{contents} in {n} parts", parts).format(contents=contents, n=parts)
            assembly = _("{rows} × {columns} of parts").format(
                rows=ngettext("{n} row", "{n} rows", t.rows).format(n=t.rows),
                columns=ngettext("{n} column", "{n} columns", t.columns).format(n=t.columns))
    else:
        duplex = layout.duplex
    if isinstance(output, Pieces):
        size = (output.width, output.height)
    else:
        size = (drawn[0].width, drawn[0].height) if drawn else (0.0, 0.0)
    sheets = sheet_digests(layout, laid.info, laid.memo) if digests else ("",) * layout.sheets
    return Sheets(laid.digest[:STAMP_DIGITS], sheets, len(layout.pages), duplex,
                  piece_count(game, component), (round(size[0], 3), round(size[1], 3)), contents, assembly, finish,
                  astuple(Shape.of(output)) if isinstance(layout, Imposition) and isinstance(output, Pieces) else None,
                  *_cutting(layout))


def shared_sheets(layout: Imposition, info: Furniture, digest: str, members: Sequence[Sheets]) -> Sheets:
    """The facts about sheets that several components share, digested when its members are
    (validation digests none, see `sheets_of`)."""
    contents = _("{contents} on shared sheets").format(contents=" + ".join(m.contents for m in members))
    digests = sheet_digests(layout, info) if all(d for m in members for d in m.sheets) else ("",) * layout.sheets
    return Sheets(digest[:STAMP_DIGITS], digests, len(layout.pages), layout.duplex,
                  sum(m.count for m in members), members[0].size_mm, contents, "", "", None, *_cutting(layout))


def _cutting(layout: Layout) -> tuple[tuple[float, float] | None, str | None, tuple]:
    """An imposition's bleed, its cutting machine and the trims it cuts per front page."""
    if not isinstance(layout, Imposition):
        return None, None, ()
    machine = layout.registration.machine if layout.registration else None
    return layout.bleed, machine, cut_lines(layout)


def _drawn(output: Pieces | Panels | BookPages) -> tuple[Any, ...]:
    """The pieces, panels or pages a generator made."""
    if isinstance(output, Pieces):
        return output.pieces
    return output.pages if isinstance(output, BookPages) else output.drawings


@dataclass(frozen=True)
class Cached:
    """What the cache holds of a rendered component or shared run: its digest, the facts about
    its sheets, its PDF, and the warnings drawing it gave."""

    digest: str
    sheets: Sheets
    pdf: bytes
    warnings: tuple[Issue, ...]

    def dump(self) -> dict[str, Any]:
        return {"digest": self.digest, "sheets": asdict(self.sheets), "pdf": Blob(self.pdf),
                "warnings": [asdict(w) for w in self.warnings]}

    @classmethod
    def load(cls, value: Any) -> "Cached | None":
        """The entry as `dump` wrote it, or None when any of it is not what this code writes."""
        if not isinstance(value, dict) or not isinstance(value.get("digest"), str) or not isinstance(value.get("pdf"), bytes):
            return None
        sheets = Sheets.from_json(value.get("sheets"))
        try:
            warnings = tuple(Issue(**w) for w in value.get("warnings", []))
        except TypeError:
            return None
        return cls(value["digest"], sheets, value["pdf"], warnings) if sheets is not None else None


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
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=_die_with,
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
    """What every worker would do first, done once here for all to inherit: `_die_with`'s
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
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"), initializer=_die_with,
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


def _die_with(parent: int) -> None:
    """In a render worker: be killed when the build is (Linux's parent-death signal), so a
    killed build leaves no worker behind; elsewhere workers exit when they find the pool gone."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the build died before the signal was asked for
        os._exit(1)


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


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
