"""The first page of a game's combined print file: what to print, on what, and how; and the
first page of its reprint file: which sheets changed since the last build, and where they go.

Both are drawn from the same layout results as the sheets that follow them, so the page ranges,
sheet counts and duplex settings they state are the ones in the file. A playtester who never
read the README should be able to print, check the scale, cut and assemble from them alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from pnp.changes import SINCE_LAST_BUILD, Since
from pnp.display import Item, Line, Page, Rect, Style
from pnp.errors import BuildError
from pnp.i18n import N_, _, ngettext
from pnp.layout import calibration
from pnp.layout.sheet import PAPERS, Box, Frame, Furniture, furniture
from pnp.layout.text import block_height, fit_lines, fit_text

INK = "#000000"
RULE = Style(stroke="#777777", width=0.2)
HEAD_FILL = Style(fill="#e8e8e8")
BODY_PT = 8.5
TABLE_PT = 7.5
GAP = 2.5  # mm between blocks

# the bleed note under the "what to print" table (one sentence each, placeholders filled below)
BLEED_ALL = N_("**Bleed.** Every cut has {asked} mm of art beyond it (print.bleed_mm), so a cut that strays "
                "shows art, not paper.")
BLEED_BETWEEN = N_("**Bleed.** Every cut at the sheet's edges has {asked} mm of art beyond it (print.bleed_mm); "
                    "between two pieces a gap that wide would cost pieces a sheet, so each has what the paper "
                    "leaves: {short}. A cut that strays there shows the neighbour's art: cut those with care.")
BLEED_SHORT = N_("**Bleed.** print.bleed_mm asks for {asked} mm of art beyond every cut; this paper leaves less: "
                  "{short}. Cut those with care.")
BLEED_GAP = N_("{name} {between} mm")
BLEED_PART = N_("{name} {edge} mm at the sheet's edges, {between} mm between pieces")

# sheets that go out nearly empty: the print plan says why, `pnp validate` warns (`pnp.printfile.sheet_findings`)
COVERED_LEAST = 0.25  # a sheet whose pieces and panels cover less of its paper than this is nearly empty
SPARSE_NOTE = N_("**Nearly empty sheets.** {sheets}.")
SPARSE_SHEET = N_("{name}, sheet {n}: {percent} % of the paper, {why}")
RUN_END = N_("the last of its run, with {left} of the {places} places a sheet has")
FOLDED = N_("its pieces folded over with their backs, and no other folded sheet has room for them")
ALONE = N_("no other sheet of {stock} has room for them")

# how to load a sheet on a cutting machine (`pnp build --cut`), by machine; the marks' numbers come
# from pnp.layout.registration
MACHINE_CUT = {
    "silhouette": N_("**{step} Cut by machine.** {names}: the front of each sheet carries Silhouette registration "
                      "marks (the black square at the top left). In Silhouette Studio set the registration marks to "
                      "Type 1, length {arm:g} mm, thickness {thickness:g} mm, inset {inset:g} mm; open the sheet's file "
                      "in {folder}/ (named after the component and the sheet number in its header), lay the sheet on "
                      "the mat front up with the square at the top left, and cut. Nothing else is printed within "
                      "{clearance:g} mm of a mark."),
    "silhouette4": N_("**{step} Cut by machine.** {names}: the front of each sheet carries the four registration "
                       "marks of the Cameo 5 Alpha (an L in every corner). In Silhouette Studio choose those marks, "
                       "length {arm:g} mm, thickness {thickness:g} mm, inset {inset:g} mm; open the sheet's file in "
                       "{folder}/ (named after the component and the sheet number in its header), lay the sheet on the "
                       "mat front up, its header at the top, and cut. Nothing else is printed within {clearance:g} mm "
                       "of a mark."),
    "dxf": N_("**{step} Cut by machine.** {names}: the front of each sheet carries registration marks (the black "
               "square at the top left, L marks at the two other corners, {inset:g} mm in, {arm:g} mm arms, "
               "{thickness:g} mm thick). Import the sheet's DXF from {folder}/ (layer CUT; the marks are on layer "
               "REGISTRATION) into your cutter's software, lay the sheet front up with the square at the top left, "
               "and cut."),
    "cricut": N_("**{step} Cut by machine.** {names}: in Cricut Design Space upload each sheet's SVG from {folder}/ "
                  "(its picture and its cut lines), select both layers, Flatten, and Print Then Cut: Design Space "
                  "prints the sheet with its own marks; lay it on the mat as Design Space shows. Every piece is "
                  "inside its print area ({area}). Design Space prints fronts only: print backs from this file "
                  "first, or choose one-sided pieces."),
}
# said after a machine's step: the code beside the marks, and a borderless inset's page size and gain
MACHINE_CODE = N_("The code printed beside the top-left mark names the sheet's marks and layout; its cut file "
                  "carries the same code, and pnp cut check SHEET.pdf CUTFILE says whether they belong together.")
BORDERLESS = N_("The marks are {inset:g} mm from the paper's edges: print borderless at 100 %, and in Studio set the "
                "page size to {width:g} × {height:g} mm (the cut files are that size), so its {usual:g} mm inset lands "
                "on the marks. {gains}")
GAINS = N_("{name}: {n} more a sheet than with the {usual:g} mm inset")


@dataclass(frozen=True)
class Job:
    """One component as printed: one row of the "what to print" table."""

    name: str
    pages: tuple[int, int]  # first and last page in the combined file, 1-based
    sheets: int  # sheets of paper: a double-sided sheet is two pages
    contents: str  # "90 cards", "6 mats", "1 board on 2 sheets"
    sides: str  # "double-sided, flip on the long edge", "one-sided", "fold"
    stock: str  # "card stock", "paper"
    assembly: str = ""  # for a tiled board: "1 row × 2 columns"
    finish: str = ""  # for a booklet: how to fold or cut and bind it
    stamp: str = ""  # the stamp in the footer of its sheets
    bleed: tuple[float, float] | None = None  # pieces: the least art beyond a cut at the sheet's edges, between pieces (mm)
    machine: str | None = None  # the cutting machine whose marks its front pages carry
    inset: float = 10.0  # then its marks' inset from the paper's edges
    gain: int = 0  # and the pieces a sheet gains by it over a 10 mm inset
    covered: tuple[float, ...] = ()  # each sheet: the share of its paper the pieces and panels on it cover
    count: int = 0  # pieces
    places: int = 0  # pieces a sheet holds, for one component's pieces on sheets of their own

    @property
    def page_range(self) -> str:
        return span(*self.pages)


@dataclass(frozen=True)
class Reprint:
    """One component in a reprint file: one row of its table."""

    name: str
    pages: tuple[int, int] | None  # in the reprint file; None when nothing is to be printed
    action: str  # "replace sheets 3 and 5", "add sheets 11–12 after sheet 10", "discard sheets 11–12"
    sides: str
    stock: str
    stamp: str


def span(first: int, last: int) -> str:
    """"3" or "3–5"."""
    return f"{first}" if first == last else f"{first}–{last}"


def sides_text(duplex: str) -> str:
    """How a component's sheets print, in English: the instructions show it translated, and
    read from its words which sheets are double-sided."""
    return {
        "long": N_("double-sided, flip on the long edge"),
        "short": N_("double-sided, flip on the short edge"),
        "fold": N_("one-sided; fold each sheet on its dashed line"),
        "none": N_("one-sided"),
    }[duplex]


def instructions_page(f: Frame, info: Furniture, paper: str, jobs: Sequence[Job], *, title_en: str = "",
                      back_offset: tuple[float, float] = (0.0, 0.0), game_file: str = "game",
                      bleed: float = 0.0, shop: str = "") -> Page:
    """The instructions as one page in frame `f` (portrait), with the sheet furniture; with
    double-sided sheets, the front of the duplex check at its foot (its back is the next page).
    `game_file` is the game's id, which names its files; `bleed` the bleed the spec asks for;
    `shop` says what standard the print shop's files meet, under the table (none: "")."""
    box = f.content.inset(2.0)
    flow = _Flow(box.x, box.y, box.w, what=f"the print instructions of {info.title}")
    _title_and_stamps(flow, info, title_en, game_file)
    flow.space()
    steps = iter(range(1, 10))  # the steps this game needs, numbered without gaps
    _scale(flow, paper, next(steps))
    flow.space()
    _what_to_print(flow, jobs, bleed, next(steps))
    if shop:
        flow.space(1.0)
        flow.text(shop, BODY_PT)
    flow.space()
    duplex = [j for j in jobs if j.sides.startswith("double")]
    edge = _backs_step(flow, duplex, back_offset, next(steps)) if duplex else ""
    _finishing_steps(flow, jobs, steps, paper)
    bottom = box.bottom - (calibration.HEIGHT_MM + GAP if duplex else 0.0)
    if flow.y > bottom:
        raise BuildError(f"the print instructions of {info.title} do not fit on one page")
    check = calibration.check_front(_check_box(box), edge, info.title) if duplex else ()
    items = (*flow.items, *check, furniture(f, info, _("print instructions")))
    return Page(f.width, f.height, items, f"{info.title}, print instructions")


def _title_and_stamps(flow: "_Flow", info: Furniture, title_en: str, game_file: str) -> None:
    """The game's title (and its English one), then what the stamp in every footer is for."""
    flow.text(_("**{title}** — print instructions").format(title=info.title), 16)
    if title_en and title_en != info.title:
        flow.text(title_en, 10)
    flow.text(_("Every sheet's footer ends with a **stamp**, a short fingerprint of what its component "
                "prints (the Stamp column below). It changes only when that component's content changes, so "
                "after an edit, pnp build lists the sheets that changed and writes "
                "**{file}** with just those; every other sheet you printed stays good, "
                "even where its stamp is older.").format(file=f"{game_file}-reprint.pdf"), BODY_PT)


def _what_to_print(flow: "_Flow", jobs: Sequence[Job], bleed: float, number: int) -> None:
    """Step `number`: the table of page ranges, the sheets of card and paper in all, and a note
    when the bleed is not what the spec asks for."""
    flow.text(_("**{n} What to print.** Print each range once: the copies the game "
                "needs are already in the file.").format(n=number), BODY_PT)
    flow.table((_("Pages"), _("Component"), _("Contents"), _("Sheets"), _("How"), _("On"), _("Stamp")),
               [(j.page_range, j.name, j.contents, str(j.sheets), _(j.sides), _(j.stock), j.stamp) for j in jobs],
               (0.08, 0.26, 0.15, 0.07, 0.22, 0.11, 0.11))
    card = sum(j.sheets for j in jobs if j.stock.startswith("card"))
    paper_sheets = sum(j.sheets for j in jobs) - card
    flow.space(1.0)
    flow.text(_("In all: {card} of card stock and {paper} of paper.").format(
        card=ngettext("**{n}** sheet", "**{n}** sheets", card).format(n=card),
        paper=ngettext("**{n}** sheet", "**{n}** sheets", paper_sheets).format(n=paper_sheets)), BODY_PT)
    for note in (bleed_note(jobs, bleed), sparse_note(jobs)):
        if note:
            flow.space(1.0)
            flow.text(note, BODY_PT)


def _backs_step(flow: "_Flow", duplex: Sequence[Job], back_offset: tuple[float, float], number: int) -> str:
    """Step `number`: how to print the double-sided components, flipping on the edge the first
    one names (returned: the duplex check is drawn for it)."""
    names = ", ".join(j.name for j in duplex)
    edge = "long" if "long" in duplex[0].sides else "short"
    dx, dy = back_offset
    offset = _(" (backs are shifted by {x}, {y} mm as set by --back-offset or print.back_offset_mm)").format(
        x=f"{dx:g}", y=f"{dy:g}") if (dx, dy) != (0, 0) else ""
    backs = (_("**{n} Backs.** {names}: every front page is followed by its backs. Print those pages "
               "double-sided and **flip on the long edge**{offset}; each back then lands behind "
               "its front. No duplex printer: print the odd pages, put the stack back in the tray "
               "and print the even pages. First print pages 1–2 the same way: the duplex check at "
               "the foot of this page measures how far your printer puts backs off their fronts, "
               "and pnp build --back-offset X,Y (or print.back_offset_mm) corrects it.") if edge == "long" else
             _("**{n} Backs.** {names}: every front page is followed by its backs. Print those pages "
               "double-sided and **flip on the short edge**{offset}; each back then lands behind "
               "its front. No duplex printer: print the odd pages, put the stack back in the tray "
               "and print the even pages. First print pages 1–2 the same way: the duplex check at "
               "the foot of this page measures how far your printer puts backs off their fronts, "
               "and pnp build --back-offset X,Y (or print.back_offset_mm) corrects it."))
    flow.text(backs.format(n=number, names=names, offset=offset), BODY_PT)
    flow.space()
    return edge


def _finishing_steps(flow: "_Flow", jobs: Sequence[Job], steps: Iterator[int], paper: str) -> None:
    """The steps after printing, each numbered from `steps` when the game needs it: fold,
    cutting machines, cut, each booklet, assembling tiled boards."""
    if any("fold" in j.sides for j in jobs):
        flow.text(_("**{n} Fold.** Fronts and backs are side by side: fold each sheet on its dashed "
                    "line, printed side out, glue the halves together, then cut through both.").format(n=next(steps)),
                  BODY_PT)
        flow.space()
    machines = [j for j in jobs if j.machine]
    if machines:
        flow.text(machine_step(next(steps), machines, paper), BODY_PT)
        flow.space()
    flow.text(_("**{n} Cut.** Cut along the short crop marks in the margins (or, where the sheet is "
                "full, in the gaps between pieces): each continues a cut line across the sheet. Every piece has "
                "its own cut on each side, so cut on both sides of every gap. Round and rounded tokens: cut along "
                "their thin outline. A sharp knife and a steel ruler beat scissors.").format(n=next(steps)), BODY_PT)
    for job in (j for j in jobs if j.finish):
        flow.space()
        flow.text(_("**{n} Booklet.** {name}: {finish}.").format(n=next(steps), name=job.name, finish=job.finish), BODY_PT)
    tiled = [j for j in jobs if j.assembly]
    if tiled:
        flow.space()
        boards = "; ".join(_("{name}: pages {pages}, {assembly}").format(name=j.name, pages=j.page_range,
                                                                          assembly=j.assembly) for j in tiled)
        flow.text(_("**{n} Assemble.** {boards}. Each sheet's header has a small map with its place "
                    "filled in, and names its row and column. Cut every part along its crop marks. "
                    "Lay the parts out as the maps show; a hatched “glue here” strip goes under the "
                    "part to its left or above it, which repeats that strip's art: lay that part's cut "
                    "edge on the line at the strip's edge, its ticks against the strip's ticks, glue, "
                    "and mount the board on card.").format(n=next(steps), boards=boards), BODY_PT)

def _short_of(job: Job, asked: float, edges_short: bool) -> str:
    """What the job's pieces lack of the bleed asked: at the sheet's edges (where any job lacks
    it there), between pieces, or nothing ("")."""
    edge, between = job.bleed  # type: ignore[misc]  # a job with a bleed
    values = {"name": job.name, "edge": f"{round(edge, 2):g}", "between": f"{round(between, 2):g}"}
    if edge < asked - 1e-6 or (edges_short and between < asked - 1e-6):
        return _(BLEED_PART).format(**values)
    if between < asked - 1e-6:
        return _(BLEED_GAP).format(**values)
    return ""


def bleed_note(jobs: Sequence[Job], asked: float) -> str:
    """What the bleed of the imposed pieces is against what `print.bleed_mm` asks: all of it;
    all of it at the sheet's edges and, between pieces, what each component gets; or, where the
    paper leaves less even at the sheet's edges, what each gets where ("" when nothing is
    imposed or no bleed is asked)."""
    pieces = [j for j in jobs if j.bleed is not None]
    if not pieces or asked <= 0:
        return ""
    edges_short = any(j.bleed[0] < asked - 1e-6 for j in pieces)  # type: ignore[index]  # pieces: the jobs with a bleed
    short = "; ".join(filter(None, (_short_of(j, asked, edges_short) for j in pieces)))
    if not short:
        return _(BLEED_ALL).format(asked=f"{asked:g}")
    return _(BLEED_SHORT if edges_short else BLEED_BETWEEN).format(asked=f"{asked:g}", short=short)


@dataclass(frozen=True)
class Sparse:
    """A sheet that goes out nearly empty (under `COVERED_LEAST` of its paper), and why no
    other component's pieces share it: `why` a template of this module filled with `values`."""

    job: Job
    sheet: int  # 1-based, within the job's sheets
    covered: float
    why: str
    values: dict[str, str | int]


def sparse(jobs: Sequence[Job]) -> list[Sparse]:
    """Every nearly empty sheet of `jobs`: the last sheet of a run of one component's pieces
    (with how many of its places are filled), pieces folded over with their backs that no
    other folded sheet took, or pieces no other sheet of their stock has room for."""
    found = []
    for job in jobs:
        for n, covered in enumerate(job.covered, 1):
            if covered >= COVERED_LEAST:
                continue
            if job.places and n == job.sheets > 1:
                found.append(Sparse(job, n, covered, RUN_END, {"left": job.count - (n - 1) * job.places,
                                                                "places": job.places}))
            elif "fold" in job.sides:
                found.append(Sparse(job, n, covered, FOLDED, {}))
            else:
                found.append(Sparse(job, n, covered, ALONE, {"stock": job.stock}))
    return found


def sparse_note(jobs: Sequence[Job]) -> str:
    """The print plan's note naming every nearly empty sheet and why ("" when there is none)."""
    sheets = [_(SPARSE_SHEET).format(name=s.job.name, n=s.sheet, percent=f"{100 * s.covered:.0f}",
                                     why=_(s.why).format(**{k: _(str(v)) if k == "stock" else v for k, v in s.values.items()}))
              for s in sparse(jobs)]
    return _(SPARSE_NOTE).format(sheets="; ".join(sheets)) if sheets else ""


def machine_step(step: int, jobs: Sequence[Job], paper: str = "a4") -> str:
    """The step saying how to cut the sheets of `jobs` by machine (they share one machine): how
    to set the machine up for its marks, what their code is for, and with marks closer to the
    edges than Studio's 10 mm, the page size to set in Studio and what each sheet gains."""
    from pnp.layout import registration as r

    machine, inset = jobs[0].machine or "", jobs[0].inset
    reg = r.registration(r.Cutter(machine, inset), *PAPERS[paper])
    area = f"{r.CRICUT_AREA_MM[0]:g} × {r.CRICUT_AREA_MM[1]:g} mm"
    said = [_(MACHINE_CUT[machine]).format(step=step, names=", ".join(j.name for j in jobs), arm=reg.arm,
                                           thickness=r.THICKNESS_MM, inset=inset if reg.shift == 0 else r.INSET_MM,
                                           clearance=reg.clearance, folder="cut", area=area)]
    if reg.marks:
        said.append(_(MACHINE_CODE))
    if reg.shift:
        width, height = (round(v, 1) for v in reg.virtual_size)
        gains = "; ".join(_(GAINS).format(name=j.name, n=j.gain, usual=r.INSET_MM) for j in jobs) + "."
        said.append(_(BORDERLESS).format(inset=inset, width=width, height=height, usual=r.INSET_MM, gains=gains))
    return " ".join(said)


def _reprint_row(r: Reprint) -> tuple[str, ...]:
    """One component's row of the reprint table; dashes for pages, sides and paper where it
    has nothing to print (its sheets are only discarded)."""
    if r.pages is None:
        return ("—", r.name, r.action, "—", "—", r.stamp)
    return (span(*r.pages), r.name, r.action, _(r.sides), _(r.stock), r.stamp)


def reprint_page(f: Frame, info: Furniture, paper: str, rows: Sequence[Reprint], since: Since = SINCE_LAST_BUILD) -> Page:
    """The first page of a reprint file: the sheets that changed since `since` (the last
    build, or the build marked as printed), where each goes among the sheets already printed,
    and how to print them."""
    box = f.content.inset(2.0)
    flow = _Flow(box.x, box.y, box.w, what=f"the reprint instructions of {info.title}")
    flow.text(_("**{title}** — reprint after a change").format(title=info.title), 16)
    flow.text(_("Only these sheets changed since {since}. Print them, put each in place of the sheet "
                "it replaces, and keep every other sheet you printed: it is still right, even where its "
                "stamp is older. Check a new sheet by the stamp in its footer (the Stamp column).").format(
                    since=since.words(_)), BODY_PT)
    flow.space()
    _scale(flow, paper, 1)
    flow.space()
    flow.text(_("**2 What changed.** Print each range once."), BODY_PT)
    flow.table((_("Pages"), _("Component"), _("What to do"), _("How"), _("On"), _("Stamp")),
               [_reprint_row(r) for r in rows], (0.08, 0.24, 0.27, 0.19, 0.11, 0.11))
    duplex = [r for r in rows if r.pages and r.sides.startswith("double")]
    if duplex:
        flow.space()
        flow.text(_("**3 Backs.** {names}: every front page is followed by its backs. "
                    "Print those pages double-sided as you printed them the first time (the print "
                    "instructions of the combined file say how); each back then lands behind its front.").format(
            names=", ".join(r.name for r in duplex)), BODY_PT)
    if flow.y > box.bottom:
        raise BuildError(f"the reprint instructions of {info.title} do not fit on one page")
    items = (*flow.items, furniture(f, info, _("reprint instructions")))
    return Page(f.width, f.height, items, f"{info.title}, reprint instructions")


def blank_back(f: Frame, info: Furniture) -> Page:
    """A blank back for a first page, so that every front after it falls on an odd page."""
    box = f.content
    note = fit_text(_("This page is left blank on purpose: it keeps every front on an odd page, so "
                      "that double-sided pages print back to back."), box.x, box.y + box.h / 2 - 10,
                    box.w, 20, size=BODY_PT, color="#777777", what="the blank page")
    return Page(f.width, f.height, (note, furniture(f, info, _("back of the {name}").format(name=info.component))),
                f"{info.title}, blank back of the {info.component}")


def _scale(flow: "_Flow", paper: str, number: int) -> None:
    """The first step of printing anything: actual size, and how to check it."""
    w, h = PAPERS[paper]
    flow.text(_("**{n} Print at 100 %.** Paper: **{paper}** ({w} × {h} mm). In the print dialog "
                "choose **actual size** / **100 %**, never “fit to page” or “shrink”. Then check: the "
                "long black bar in the footer of every sheet must measure exactly **100 mm** and the short "
                "one **1 inch** (25.4 mm). If they do not, switch scaling off and print again; cards "
                "and boards are drawn to size.").format(n=number, paper=paper.upper(), w=f"{w:g}", h=f"{h:g}"),
              BODY_PT)


def instructions_back(f: Frame, info: Furniture, edge: str, back_offset: tuple[float, float] = (0.0, 0.0)) -> Page:
    """The back of the instructions: it keeps every front in the file on an odd page, and
    carries the duplex check's scales behind the lines on the front."""
    box = f.content
    note = fit_text(_("This page keeps every front on an odd page, so that double-sided pages print back "
                      "to back. The scales below belong to the duplex check on the other side."),
                    box.x, box.y + box.h / 2 - 10, box.w, 20, size=BODY_PT, color="#777777", what="the blank page")
    scales = calibration.check_back(f, _check_box(f.content.inset(2.0)), edge, back_offset)
    return Page(f.width, f.height, (note, *scales, furniture(f, info, _("back of the print instructions"))),
                f"{info.title}, back of the instructions")


def _check_box(box: Box) -> Box:
    """Where the duplex check sits: the foot of the instructions' column."""
    return Box(box.x, box.bottom - calibration.HEIGHT_MM, box.w, calibration.HEIGHT_MM)


class _Flow:
    """Blocks stacked from the top of a column, each as tall as its text needs."""

    def __init__(self, x: float, y: float, w: float, what: str) -> None:
        self.x, self.y, self.w, self.what = x, y, w, what
        self.items: list[Item] = []

    def space(self, mm: float = GAP) -> None:
        self.y += mm

    def text(self, text: str, size: float) -> None:
        self.y += self._cell(text, self.x, self.y, self.w, size, "left") + 0.8

    def table(self, head: Sequence[str], rows: Sequence[Sequence[str]], widths: Sequence[float]) -> None:
        columns = [w * self.w for w in widths]
        for index, row in enumerate([head, *rows]):
            height = max(self._height(cell, width - 2, TABLE_PT) for cell, width in zip(row, columns, strict=True)) + 1.6
            if index == 0:
                self.items.append(Rect(self.x, self.y, self.w, height, HEAD_FILL))
            x = self.x
            for cell, width in zip(row, columns, strict=True):
                text = f"**{cell}**" if index == 0 else cell
                self._cell(text, x + 1, self.y + 0.8, width - 2, TABLE_PT, "left", height - 1.6)
                x += width
            self.y += height
            self.items.append(Line(self.x, self.y, self.x + self.w, self.y, RULE))

    def _height(self, text: str, w: float, size: float) -> float:
        fitted = fit_lines(text, w, 1000, size=size, min_size=size, what=self.what)
        return block_height(len(fitted.lines), size)

    def _cell(self, text: str, x: float, y: float, w: float, size: float, align: str, h: float | None = None) -> float:
        height = self._height(text, w, size)
        self.items.append(fit_text(text, x, y, w, (h or height) + 0.01, size=size, min_size=size,
                                   color=INK, align=align, valign="top", what=self.what))
        return height

