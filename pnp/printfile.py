"""A game's print files: the print units of its combined file, their instructions, and the
reprint file.

`<game>-all.pdf` opens with print instructions, then the print units in print order
(double-sided first, each front on an odd page; card stock first): each component's own
sheets, or the sheets that small components of one stock share when that saves paper
(`pnp.layout.gang`). Units are what a designer prints, so they are what the change list
compares and the reprint file holds: a shared sheet whose content changed is reprinted whole.
A shared run's stamp is a digest of its members' digests.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable, Mapping, Sequence

from pnp import __version__, changes, manifest
from pnp.cache import Blob, Cache, key
from pnp.display import Page, Panels, Pieces
from pnp.findings import Finding
from pnp.i18n import _
from pnp.layout.gang import Candidate, Shared, share_sheets
from pnp.layout.impose import GOOD_BLEED_MM, MIN_GUTTER_BLEED_MM, impose, plan
from pnp.layout.instructions import (
    ALONE,
    COVERED_LEAST,
    FOLDED,
    RUN_END,
    Job,
    Reprint,
    Sparse,
    blank_back,
    instructions_back,
    instructions_page,
    reprint_page,
    sides_text,
    sparse,
)
from pnp.layout.sheet import PAPERS, Furniture, frame, stamp
from pnp.layout.tile import tile
from pnp.sheets import (
    STAMP_DIGITS,
    Layout,
    Made,
    PanelShape,
    Shape,
    Sheets,
    cached,
    combine,
    machine,
    render,
    shared_sheets,
)
from pnp.spec.model import Game, Print, Spec


@dataclass(frozen=True)
class Unit:
    """One range of the combined print file: a component's own sheets, or sheets several small
    components share."""

    members: tuple[int, ...]  # indexes into the game's components, in print order
    ids: tuple[str, ...]
    name: str  # "Dividend cards + Certificates"
    stock: str
    entry: str  # the cache name of its digest
    sheets: Sheets
    layout: Layout | None  # None when it came from the cache

    @property
    def id(self) -> str:
        """The components' ids joined by "+" (ids never contain "+")."""
        return "+".join(self.ids)

    @property
    def shared(self) -> bool:
        return len(self.members) > 1

    @property
    def pages(self) -> tuple[Page, ...]:
        return self.layout.pages  # type: ignore[union-attr]  # asked only of a run laid out in this build, not cached


def print_order(items: Sequence[Made]) -> list[int]:
    """Double-sided components first (each front then falls on an odd page), card stock first."""
    return sorted(range(len(items)), key=lambda i: (not items[i].sheets.double_sided,
                                                    not items[i].stock.startswith("card"), i))


def plan_units(game: Game, game_id: str, items: list[Made], settings: Print, code: Sequence[str],
               cache: Cache | None, relay: Callable[[Made], Made]) -> list[Unit]:
    """The print units of one game. Which components share sheets is decided on stand-ins of
    their shapes (`Shape`) and cached by them, so it needs no drawing; a shared run that is not
    cached is then laid out from its members (`relay` draws one that came from the cache;
    `items` is updated)."""
    order = print_order(items)
    candidates = [i for i in order if items[i].sheets.shape is not None or items[i].sheets.panels is not None]
    offset = settings.back_offset_mm

    def info(members: tuple[int, ...]) -> Furniture:
        digest = _run_digest(game, items, members, settings)
        return Furniture(game.title, " + ".join(items[i].name for i in members), stamp(__version__, digest[:STAMP_DIGITS]))

    def share(indexes: Sequence[int], output_of: Callable[[int], Pieces | Panels]) -> list[Shared]:
        found = []
        for i in indexes:
            output = output_of(i)
            layout = (impose(output, settings.paper, settings.margin_mm, settings.duplex, info((i,)), offset,
                             machine(settings, items[i].stock)) if isinstance(output, Pieces)
                      else tile(output, settings.paper, settings.margin_mm, info((i,))))
            found.append(Candidate(i, output, layout, items[i].stock))
        return share_sheets(found, settings.paper, settings.margin_mm, settings.duplex, info, offset,
                            lambda stock: machine(settings, stock))

    def stand_in(i: int) -> Pieces | Panels:
        facts = items[i].sheets
        return Shape(*facts.shape).stand_in() if facts.shape is not None else PanelShape(facts.panels).stand_in()  # type: ignore[arg-type]  # a candidate has one of them

    def plan() -> list[list[int]]:
        return [list(run.members) for run in share(candidates, stand_in)]

    def known(groups: Any) -> list[list[int]] | None:
        fits = isinstance(groups, list) and all(isinstance(g, list) and set(g) <= set(candidates) for g in groups)
        return groups if fits else None

    shapes = [(items[i].stock, items[i].sheets.shape, items[i].sheets.panels) for i in candidates]
    name = key(list(code), settings.model_dump(mode="json"), shapes)
    groups = cache.recall(game_id, "plan", name, plan, load=known) if cache is not None else plan()
    runs: dict[tuple[int, ...], Unit] = {}
    for members in map(tuple, groups):
        entry = key(list(code), _run_digest(game, items, members, settings))
        hit = cached(cache, game_id, entry) if cache is not None else None
        if hit is None:
            for i in members:
                if items[i].laid is None:
                    items[i] = relay(items[i])
            (real,) = share(members, lambda i: items[i].laid.output)  # type: ignore[union-attr,return-value,arg-type]  # relayed: laid out pieces
            digest = _run_digest(game, items, members, settings)
            sheets = shared_sheets(real.layout, info(members), digest, [items[i].sheets for i in members])
            runs[members] = _unit(items, members, entry, sheets, real.layout)
        else:
            runs[members] = _unit(items, members, entry, hit.sheets, None)
    first_of = {members[0]: unit for members, unit in runs.items()}
    inside = {i for members in runs for i in members}
    units = []
    for i in order:
        if i in first_of:
            units.append(first_of[i])
        elif i not in inside:
            m = items[i]
            units.append(_unit(items, (i,), m.entry, m.sheets, m.laid.layout if m.laid else None))
    # a one-sided sheet that took pieces with backs prints double-sided now: double-sided first again
    return sorted(units, key=lambda u: (not u.sheets.double_sided, not u.stock.startswith("card")))


def _unit(items: Sequence[Made], members: tuple[int, ...], entry: str, sheets: Sheets, layout: Layout | None) -> Unit:
    return Unit(members, tuple(items[i].component.id for i in members), " + ".join(items[i].name for i in members),
                items[members[0]].stock, entry, sheets, layout)


def _run_digest(game: Game, items: Sequence[Made], members: tuple[int, ...], settings: Print) -> str:
    return key("shared", [items[i].digest for i in members], settings.model_dump(mode="json"), game.title)


def unit_pdf(unit: Unit, items: Sequence[Made], shared: Mapping[str, bytes]) -> bytes:
    """A unit's PDF: its component's, or the shared run's."""
    return shared[unit.entry] if unit.shared else items[unit.members[0]].pdf  # type: ignore[return-value]  # rendered before it is written


# --- the combined file ------------------------------------------------------------------------


def game_file(game: Game, game_id: str, units: Sequence[Unit], pdfs: Sequence[bytes], settings: Print, cache: Cache,
              code: Sequence[str]) -> tuple[bytes, int]:
    """The combined print file (from the cache when nothing in it or its instructions, which
    are drawn from the units' facts, changed) and the number of instruction pages opening it."""
    def joined() -> bytes:
        lead = instruction_pages(game, game_id, units, settings)
        parts = [(_("Print instructions"), render((lead, _("{title} — print instructions").format(title=game.title),
                                                    game_id)), None)]
        parts += [(u.name, pdf, None) for u, pdf in zip(units, pdfs, strict=True)]
        return combine(parts, title=_("{title} — print-and-play").format(title=game.title), subject=game_id)

    name = key(list(code), game_id, game.title, game.title_en, settings.model_dump(mode="json"),
               [(u.entry, asdict(u.sheets)) for u in units])
    data = cache.recall(game_id, "all", name, joined, dump=lambda pdf: {"pdf": Blob(pdf)},
                        load=lambda found: found.get("pdf") if isinstance(found, dict) else None)
    return data, lead_pages(units)


def lead_pages(units: Sequence[Unit]) -> int:
    """Pages before the first unit: the instructions, and their back when any sheet is double-sided."""
    return 2 if any(u.sheets.double_sided for u in units) else 1


def print_plan(units: Sequence[Unit]) -> list[Job]:
    """The rows of the instructions' "what to print" table, with their pages in the combined file."""
    jobs, first = [], lead_pages(units) + 1
    for u in units:
        s = u.sheets
        jobs.append(Job(u.name, (first, first + s.pages - 1), len(s.sheets), s.contents, sides_text(s.duplex), u.stock,
                        s.assembly, s.finish, s.stamp, s.bleed, s.machine, s.inset, s.gain, s.covered, s.count,
                        s.places))
        first += s.pages
    return jobs


def instructions_stamp(game: Game, units: Sequence[Unit], settings: Print) -> str:
    """The stamp on the instructions that open the combined file: the digest of what they say
    (so of every unit's stamp), which names a build once it is printed."""
    said = key([asdict(j) for j in print_plan(units)], settings.model_dump(mode="json"), game.title_en)
    return said[:STAMP_DIGITS]


def shop_standard(pdfx: str) -> str:
    """What the print plan says of the print shop's files built as PDF/X (`print.pdfx`): the
    standard, the printing condition and the ink limit they meet ("" when not PDF/X)."""
    from pnp.render.cmyk import CONDITION, INK_LIMIT, LEVELS

    if pdfx == "none":
        return ""
    return _("**Print shop.** The print shop's files (pnp build --profile) are **{standard}**: CMYK for the "
             "{condition} printing condition with its ICC profile embedded, at most {ink} % ink, every font embedded, "
             "each page with its trim and bleed boxes.").format(standard=LEVELS[pdfx].version,
                                                                 condition=CONDITION.identifier, ink=f"{INK_LIMIT:g}")


def instruction_pages(game: Game, game_id: str, units: Sequence[Unit], settings: Print) -> list[Page]:
    """The instructions for `units`, which follow them in the combined file. With double-sided
    sheets they get a back (which carries the duplex check), so every front falls on an odd
    page. Their stamp is the digest of what they say."""
    f = frame(settings.paper, settings.margin_mm)
    lead = lead_pages(units)
    jobs = print_plan(units)
    info = Furniture(game.title, _("print instructions"), stamp(__version__, instructions_stamp(game, units, settings)))
    offset = settings.back_offset_mm
    front = instructions_page(f, info, settings.paper, jobs, title_en=game.title_en, game_file=game_id,
                              back_offset=offset, bleed=settings.bleed_mm, shop=shop_standard(settings.pdfx))
    return [front, instructions_back(f, info, settings.duplex, offset)] if lead == 2 else [front]


# --- the reprint file -------------------------------------------------------------------------


def reprint_file(game: Game, game_id: str, units: Sequence[Unit], pdfs: Sequence[bytes],
                 found: Sequence[manifest.Change], settings: Print, since: changes.Since = changes.SINCE_LAST_BUILD) -> tuple[bytes, int]:
    """The reprint file: a page saying which sheets changed since `since` and where they go,
    then only those sheets, fronts with their backs, in print order. Returns its bytes and
    page count."""
    lead, held, count = reprint_pages(game, units, found, settings, since)
    pdf_of = {u.id: pdf for u, pdf in zip(units, pdfs, strict=True)}
    head = render((lead, _("{title} — reprint instructions").format(title=game.title), game_id))
    parts = [(u.name, pdf_of[u.id], pages) for u, pages in held]
    data = combine([(_("Reprint instructions"), head, None), *parts], title=_("{title} — reprint").format(title=game.title),
                   subject=game_id)
    return data, count


def reprint_pages(game: Game, units: Sequence[Unit], found: Sequence[manifest.Change], settings: Print,
                  since: changes.Since = changes.SINCE_LAST_BUILD) -> tuple[list[Page], list[tuple[Unit, list[int]]], int]:
    """The reprint file laid out: its opening pages (with a back when a sheet in it is
    double-sided), each unit it holds with its pages (0-based, fronts with their backs), and
    its page count."""
    by_id = {u.id: u for u in units}
    printed = sorted((c for c in found if c.sheets), key=lambda c: [u.id for u in units].index(c.component))
    lead = 2 if any(by_id[c.component].sheets.double_sided for c in printed) else 1
    rows, held = _reprinted(printed, by_id, lead + 1)
    rows += _discard_rows(found, by_id)
    f = frame(settings.paper, settings.margin_mm)
    said = key([asdict(r) for r in rows], settings.model_dump(mode="json"), *_since_words(since))
    info = Furniture(game.title, _("reprint instructions"), stamp(__version__, said[:STAMP_DIGITS]))
    front = reprint_page(f, info, settings.paper, rows, since)
    return ([front, blank_back(f, info)] if lead == 2 else [front]), held, lead + sum(len(pages) for _, pages in held)


def _since_words(since: changes.Since) -> list[str]:
    """What the changes count from, when it is not the last build: the page says it, so its
    stamp holds it."""
    return [since.words()] if since != changes.SINCE_LAST_BUILD else []


def _reprinted(printed: Sequence[manifest.Change], by_id: Mapping[str, Unit],
               first: int) -> tuple[list[Reprint], list[tuple[Unit, list[int]]]]:
    """The instructions' rows of the units with sheets to print, their pages numbered in the
    reprint file from `first`; and each unit with its own pages to print (0-based, fronts
    with their backs)."""
    rows, held = [], []
    for c in printed:
        u = by_id[c.component]
        per = u.sheets.pages_per_sheet
        pages = [p for n in c.sheets for p in range((n - 1) * per, n * per)]
        rows.append(Reprint(u.name, (first, first + len(pages) - 1), changes.action(c), sides_text(u.sheets.duplex),
                            u.stock, u.sheets.stamp))
        held.append((u, pages))
        first += len(pages)
    return rows, held


def _discard_rows(found: Sequence[manifest.Change], by_id: Mapping[str, Unit]) -> list[Reprint]:
    """The instructions' rows with nothing to print: a unit removed, or sheets to discard only."""
    rows = []
    for c in found:
        if not c.sheets:
            name = by_id[c.component].name if c.component in by_id else c.component.replace("+", " + ")
            rows.append(Reprint(name, None, changes.action(c), "", "", ""))
    return rows


# --- what `pnp validate` warns about the sheets ------------------------------------------------


def sheet_findings(spec: Spec, game_id: str, units: Sequence[Unit]) -> list[Finding]:
    """What a designer should know about a game's sheets before printing them (`units`, the
    print plan of its combined file): a sheet that goes out nearly empty (under
    `COVERED_LEAST` of its paper, with why no other component shares it and what would fill
    or save it; not a board's own sheet, nor the only pieces of their stock), and pieces with less bleed than print.bleed_mm where that is too little to
    hide an ordinary stray cut (under `GOOD_BLEED_MM` at the sheet's edges, `MIN_GUTTER_BLEED_MM`
    between pieces, or the bleed asked if less). Each at the spec's entry of the first
    component on those sheets."""
    jobs = print_plan(units)
    found = []
    for s in sparse(jobs):
        unit = units[jobs.index(s.job)]
        if s.why == ALONE and not _could_share(unit, units):
            continue  # a board on its own sheet, the only pieces of their stock: nothing a designer can change
        message = (f"sheet {s.sheet} of {s.job.sheets} goes out {100 * s.covered:.0f} % covered (a sheet under "
                   f"{100 * COVERED_LEAST:.0f} % of its paper is nearly empty): {s.why.format(**s.values)}")
        found.append(_located("sheet-coverage", message, _sparse_fix(s), spec, game_id, unit))
    for unit in units:
        short = _short_bleed(unit, spec.print)
        if short:
            found.append(_located("sheet-bleed", short, _bleed_fix(unit, spec.print), spec, game_id, unit))
    return found


def _could_share(unit: Unit, units: Sequence[Unit]) -> bool:
    """Whether a unit's nearly empty sheet is one a designer can fill or save: imposed pieces
    (not panels, which are the size they are drawn) with other sheets of their stock whose
    room smaller or fewer pieces could take."""
    return unit.sheets.shape is not None and any(u is not unit and u.stock == unit.stock for u in units)


def _located(check: str, message: str, fix: str, spec: Spec, game_id: str, unit: Unit) -> Finding:
    """A warning about `unit`'s sheets, named by its components as the spec names them, at the
    spec's entry of the first."""
    at = spec.issue(("games", game_id, "components", unit.members[0]), "")
    names = " + ".join(spec.games[game_id].components[i].name for i in unit.members)
    return Finding(check, "warning", f"{names}: {message}", fix, at.file, at.line, at.col, at.path, game=game_id,
                   component=unit.ids[0])


def _sparse_fix(s: Sparse) -> str:
    """How to fill or save a nearly empty sheet, by why it is so."""
    if s.why == RUN_END:
        left, places = int(s.values["left"]), int(s.values["places"])
        return f"{places - left} more fill it at no extra paper; {left} fewer save the sheet"
    if s.why == FOLDED:
        return "print double-sided (print.duplex: long): the backs then need no fold, and the pieces can share another sheet's room"
    return "smaller pieces, or fewer, may fit the room another sheet of the same stock leaves"


def _short_bleed(unit: Unit, settings: Print) -> str:
    """What is too little in a unit's bleed ("" when nothing): at the sheet's edges, between
    pieces, against the bleed asked (print.bleed_mm, or the art's own if less)."""
    if unit.sheets.bleed is None:
        return ""
    asked = min(settings.bleed_mm, unit.sheets.shape[2]) if unit.sheets.shape else settings.bleed_mm
    edge, between = unit.sheets.bleed
    parts = []
    if edge < min(asked, GOOD_BLEED_MM) - 1e-6:
        parts.append(f"{edge:g} mm of art beyond the cuts at the sheet's edges")
    if between < min(asked, MIN_GUTTER_BLEED_MM) - 1e-6:
        parts.append(f"{between:g} mm either side of the cuts between pieces")
    if not parts:
        return ""
    return (f"{' and '.join(parts)} on {settings.paper} paper (print.bleed_mm asks for {asked:g}): a cut, or a back "
            f"printed, that strays further shows white paper or the next piece's art")


def _bleed_fix(unit: Unit, settings: Print) -> str:
    """The narrowest change that gives a unit's pieces enough bleed: a print.margin_mm down to
    3 mm, or the other paper; found by planning its pieces again (one component's pieces
    only: shared sheets are decided anew)."""
    shape = unit.sheets.shape
    advice = "a narrower print.margin_mm, larger paper or smaller pieces leave more room for bleed"
    if shape is None:
        return advice
    width, height, bleed, _, _, _, count = shape
    need = (min(settings.bleed_mm, bleed, GOOD_BLEED_MM), min(settings.bleed_mm, bleed, MIN_GUTTER_BLEED_MM))
    sheets = len(unit.sheets.sheets)

    def enough(paper: str, margin: float) -> bool:
        grid = plan(width, height, bleed, paper, margin, settings.duplex, count, cut=unit.sheets.machine)
        return grid.edge >= need[0] - 1e-6 and grid.between >= need[1] - 1e-6 and -(-count // grid.per_page) <= sheets

    margins = [m / 2 for m in range(int(settings.margin_mm * 2) - 1, 5, -1)]
    margin = next((m for m in margins if enough(settings.paper, m)), None)
    other = next(p for p in PAPERS if p != settings.paper)
    said = []
    if margin is not None:
        said.append(f"print.margin_mm: {margin:g} gives enough, if your printer prints that close to the paper's edge")
    if enough(other, settings.margin_mm):
        said.append(f"{other} paper gives enough on as many sheets")
    return "; ".join(said) or advice
