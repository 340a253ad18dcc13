"""`pnp build`: a pipeline of named stages from the spec to a published output folder.

    request     spec, options, the output folder      → Order: what to build, checked
    components  each chosen component generated       → Drawn (or Made, from the cache: not drawn)
    pictures    the drawn faces' gallery pictures (`Pictures`): those kept taken, the others made in a
                background worker with `--gallery`, left for the live preview, or left out
    layout      pieces imposed with their backs, panels tiled, booklets folded; each game's
                print units (small components sharing sheets: `pnp.printfile`)  → Laidout
    sheets      what is not cached rendered to PDF, by forked workers on several cores
    files       component PDFs and SVG pages, `<game>-all.pdf`, `<game>-reprint.pdf`, written
                into a staging folder, with what changed since the last build (`pnp.changes`)
    exports     PNG faces, print-shop files, Tabletop Simulator, the gallery's pictures there are (`pnp.export`)
    findings    every check `pnp validate` runs (`pnp.checks`), on what was drawn and on every sheet
    record      manifest.json, index.html and the cache written, the staging folder published

Each stage is a function of the previous stage's output. The build cache (`pnp.cache`, in
`<out>/.cache/`) is one wrapper around the stages that need it, through `Cache.recall` and its
entries: a component whose inputs did not change is taken whole from it (its sheets, PDF and
exports: it is not drawn), one whose drawing came out as before is drawn but not rendered, and
shared sheets, sharing plans and combined files come back by the digests of their parts. The
digest behind it all, and the stamp on every sheet, are described in `pnp.sheets`.

Everything goes to a staging folder that replaces the output only when the whole build
succeeded (`pnp.manifest`). The same spec gives the same bytes, from a clean folder or from the
cache: PDFs are written in reportlab's invariant mode and the manifest has no time.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

from pnp import __version__, changes, checks, export, manifest
from pnp.cache import FOLDER, BuildStore, Cache, code_version, function_name, key
from pnp.changes import Since
from pnp.checks.layout import check_names, located_all, once
from pnp.components import Context, generate
from pnp.display import Drawing
from pnp.errors import BuildError, Issue, SpecError
from pnp.export import pictures as picturing
from pnp.findings import Finding
from pnp.i18n import Language, speaking
from pnp.printfile import (
    Unit,
    game_file,
    instructions_stamp,
    lead_pages,
    plan_units,
    print_plan,
    reprint_file,
    unit_pdf,
)
from pnp.sheets import (
    Background,
    Cached,
    Drawn,
    Made,
    Sheets,
    Task,
    cached,
    draw,
    impose_drawn,
    in_parallel,
    lay_out,
    long_lived,
    measures,
    remember,
    render,
    sheets_of,
)
from pnp.spec.faces import printed_inputs
from pnp.spec.images import read_art
from pnp.spec.loader import named_images
from pnp.spec.model import AnyComponent, Game, Spec
from pnp.spec.translation import Kit, kit_codes, kits
from pnp.spec.typefaces import read_font

if TYPE_CHECKING:
    from pnp.translate import Untranslated

FORMATS = ("pdf", "svg", *export.FORMATS)
COMPONENT = "component"  # cache entries of whole components, by their inputs: which rendered sheets they make
PICTURES_A_TASK = 32  # faces pictured from one PDF by the background worker


@dataclass(frozen=True)
class Summary:
    games: tuple[str, ...]
    files: int
    pages: int  # pages to print: each game's combined file (or the components built with --component); 0 without PDFs
    changes: Mapping[str, tuple[manifest.Change, ...] | None]  # per game; None: no earlier build to compare
    reprints: Mapping[str, str]  # game → its reprint file, relative to the output folder
    findings: tuple[Finding, ...] = ()  # every check's on every kit built (`pnp.checks`): built anyway
    since: Mapping[str, Since] = field(default_factory=dict)  # game → what its changes are counted from
    languages: tuple[str, ...] = ()  # each kit that prints English or an old translation among its language's texts
    pictured: int = 0  # faces pictured for the gallery by this build (`pnp.export.pictures`)


class Progress(Protocol):
    """What a build reports while it runs (the CLI shows progress bars; `Silent` says nothing)."""

    def begin(self, totals: Mapping[str, int]) -> None:
        """The games to build and how many components each."""
        return None

    def doing(self, game: str, what: str) -> None:
        """What the build is working on in `game` ("drawing shares", "rendering money")."""
        return None

    def done(self, game: str, component: str) -> None:
        """One component of `game` is ready."""
        return None


class Silent(Progress):
    """A build's progress, unreported."""


def with_print(spec: Spec, **overrides: Any) -> Spec:
    """The spec with print settings replaced where an override is given (not None)."""
    given = {option: value for option, value in overrides.items() if value is not None}
    return spec.model_copy(update={"print": spec.print.model_copy(update=given)}) if given else spec


# --- the pipeline ---------------------------------------------------------------------------


def build(spec: Spec, out: Path, games: Sequence[str], formats: Sequence[str] = ("pdf",), *,
          only: Mapping[str, Sequence[str]] | None = None, source: Path | None = None,
          progress: Progress | None = None, profile: str | None = None, languages: Sequence[str] = (),
          printed: bool = False, since: Path | None = None, pictures: picturing.Store | None = None) -> Summary:
    """Build the kits of `games` in `languages` (default: each game's default language) into
    `out`, all or nothing; other kits' files already there are kept.

    Each kit is built like a game of its own under the name of `kits_of` (its folder, its
    files' names, its cache entries, its entries in the manifest and the gallery), every stage
    worded in its language. `only` restricts a game to some of its components (`--component`):
    their files are rewritten and the game's combined and reprint files are left as they were.
    `source` is the spec file, recorded in the manifest. `profile` adds a print shop's files
    (`pnp.export.profiles`); every build also writes the gallery, `index.html`. A kit's change
    list and reprint file count from the build last marked as printed (`printed` marks this
    one), else from the last build; `since` names an earlier build's manifest to count from
    instead. `pictures` holds the gallery's pictures and says what to do about those it lacks
    (`pnp.export.pictures`; by default, take those kept in the user's cache, make none)."""
    order = request(spec, Path(os.path.abspath(out)), games, formats, only, source, profile, languages, printed, since,
                    pictures or picturing.Store())
    store = BuildStore(order.out / FOLDER if order.old is not None else None)
    progress = progress or Silent()
    progress.begin({g: len(order.chosen[g]) for g in order.games})
    with long_lived() as settle:
        return _built(order, store, progress, settle)


def _built(order: Order, store: BuildStore, progress: Progress, settle: Callable[[], None]) -> Summary:
    """The stages after the request; `settle()` after each that made what lives to the end."""
    cache = Cache(store)
    drawn = components(order, cache, progress)
    settle()
    shown = Pictures(order.pictures)
    shown.add(drawn_faces(drawn))
    try:
        laid = layout(order, drawn, cache, shown.faces)
        settle()
        shown.add({g: [(c, None) for c in found] for g, found in laid.faces.items()})  # drawn again to share sheets
        rendered = sheets(laid, cache, progress)
        with manifest.staging(order.out) as root:
            written = files(order, rendered, root, cache, progress)
            exported = exports(order, rendered, root, cache, progress, shown.taken())
            found = findings(order, rendered)
            count = record(order, rendered, written, exported, root, store, found)
    except OSError as error:
        raise BuildError(f"cannot write the output folder {order.out}: {error.strerror or error} "
                         f"({error.filename or order.out})") from None
    finally:
        shown.close()
    return summary(order, rendered, written, count, found, shown.made)


# --- request: what to build -------------------------------------------------------------------


@dataclass(frozen=True)
class Order:
    """A build as asked for, checked, with the output folder's earlier manifest. Its `games`
    are kits, by the names `kits_of` gives them: a game in one language."""

    spec: Spec
    out: Path
    games: tuple[str, ...]  # the kits' names
    formats: tuple[str, ...]
    profile: str | None
    source: Path | None
    chosen: Mapping[str, tuple[Any, ...]]  # each game's components to build, in spec order
    old: dict[str, Any] | None  # the manifest of the build being replaced
    code: tuple[str, str]  # pnp's code and the generator: part of every cache key
    kits: Mapping[str, Kit]  # each kit by its name
    printed: bool = False  # mark this build as printed: later changes count from it
    since: tuple[str, dict[str, Any]] | None = None  # an earlier build's manifest (as named) to count changes from
    pictures: picturing.Store = field(default_factory=picturing.Store, compare=False, repr=False)  # the gallery's
    measures: Cache | None = field(default=None, compare=False, repr=False)  # what kits measure in each language
    drawn: dict[str, dict[tuple[Any, ...], Any]] = field(default_factory=dict, compare=False, repr=False)  # see `context`

    def baseline(self, game_id: str) -> tuple[list[dict[str, Any]], changes.Since]:
        """The print units a game's changes count from, and what they are: the `--since`
        manifest's, else the build marked as printed, else the last build's."""
        if self.since is not None:
            return manifest.entries(self.since[1], "units", game_id), changes.Since(changes.SINCE_BUILD, self.since[0])
        mark = manifest.printed_mark(self.old, game_id)
        if mark is not None:
            return mark["units"], changes.Since(changes.SINCE_PRINT, mark["stamp"])
        return manifest.entries(self.old, "units", game_id), changes.SINCE_LAST_BUILD

    @property
    def whole(self) -> tuple[str, ...]:
        """The kits built whole, whose combined and reprint files are rebuilt too."""
        return tuple(g for g in self.games if len(self.chosen[g]) == len(self.kits[g].game.components))

    @property
    def draws_all(self) -> bool:
        """Whether every component must be drawn: SVG pages, and Tabletop Simulator's one save per game."""
        return "svg" in self.formats or "tts" in self.formats

    def context(self, name: str) -> Context:
        """What the kit's components are drawn in, sharing one memo (`Context.once`) with the
        game's other kits: each measures geometry in every language, so with `--lang all` each
        language's booklet and drawings would otherwise be made once for every kit."""
        made = self.kits[name]
        return Context(made.game_id, made.game, self.spec.print, self.spec.folder, made,
                       self.drawn.setdefault(made.game_id, {}), measures=self.measures)

    def game(self, name: str) -> Game:
        """The kit's game, its texts in the kit's language."""
        return self.kits[name].game

    def speaking(self, name: str) -> "AbstractContextManager[Language]":
        """Word what is made inside the block in the kit's language."""
        return speaking(self.kits[name].language)

    def words(self, name: str) -> tuple[str, ...]:
        """What the kit's own words come from, for the cache keys of what they print: its
        language and the digests of the catalogs of every language it measures geometry in."""
        made = self.kits[name]
        return (made.code, *(language.digest for language, _ in made.siblings), made.language.digest)


def request(spec: Spec, out: Path, games: Sequence[str], formats: Sequence[str],
            only: Mapping[str, Sequence[str]] | None, source: Path | None, profile: str | None,
            languages: Sequence[str] = (), printed: bool = False, since: Path | None = None,
            pictures: picturing.Store | None = None) -> Order:
    manifest.recover(out)  # what a killed build left: its staging folder, the output renamed aside
    old = manifest.check_output(out)
    kits = kits_of(spec, games, languages)
    for g, made in kits.items():
        check_names(g, made.game)
    chosen = {g: _chosen(made.game, (only or {}).get(made.game_id)) for g, made in kits.items()}
    earlier = (str(since), manifest.read_manifest(since)) if since is not None else None
    return Order(spec, out, tuple(kits), tuple(formats), profile, source, chosen, old,
                 (code_version(), function_name(generate)), kits, printed, earlier, pictures or picturing.Store(),
                 measures())


def kits_of(spec: Spec, games: Sequence[str], languages: Sequence[str] = ()) -> dict[str, Kit]:
    """The kits `--lang` asks of `games`, by what names their folder and files: the game's id
    for its default language (`bolsa`), `<game>.<language>` for another (`bolsa.en`)."""
    found: dict[str, Kit] = {}
    for g in games:
        game = spec.games[g]
        for made in kits(g, game, kit_codes(game, tuple(languages)), spec.folder).values():
            found[made.folder] = made
    return found


def _chosen(game: Game, wanted: Sequence[str] | None) -> tuple[Any, ...]:
    return tuple(c for c in game.components if not wanted or c.id in wanted)


# --- components: each generated, or taken whole from the cache ------------------------------


def components(order: Order, cache: Cache, progress: Progress) -> dict[str, list[Drawn | Made]]:
    """Every chosen component drawn — or, when the cache holds everything a build makes of a
    component with its inputs (its sheets, its PDF, its exported files), taken from it
    undrawn. Components that cannot be drawn are reported together, each at its place."""
    found: dict[str, list[Drawn | Made]] = {g: [] for g in order.games}
    issues: list[tuple[Issue, str, str]] = []
    for g in order.games:
        context = order.context(g)
        art = _art(order.spec.folder, context.game)
        settings = context.settings.model_dump(mode="json")
        for component in order.chosen[g]:
            inputs = key([*order.code, art, order.words(g)], settings, printed_inputs(context.game, component))
            try:
                found[g].append(_recalled(order, cache, g, component, inputs)
                                or _drawn(order, context, component, inputs, progress))
            except BuildError as error:  # every component that cannot be laid out, each at its place
                made = order.kits[g]
                issues += [(issue, made.code, made.game.language)
                           for issue in located_all(order.spec, made.game_id, component, error, made.language)]
    if issues:
        raise SpecError(once(issues))
    return found


def _art(folder: Path, game: Game) -> dict[str, str]:
    """The game's images and fonts, each file by the digest of its bytes: what its components'
    cache keys hold of them."""
    art = {file: read_art(folder, file).digest for file in sorted(named_images(game))}
    art |= {file: read_font(folder, file) for font in game.fonts.values()  # named by digest
            for file in (font.file, font.bold) if file}
    return art


def _recalled(order: Order, cache: Cache, g: str, component: AnyComponent, inputs: str) -> Made | None:
    """The component as the cache holds it for these inputs, when nothing it makes needs drawing."""
    found = cache.get(g, COMPONENT, inputs) if not order.draws_all else None
    entry = found.get("printed") if isinstance(found, dict) else None
    if not isinstance(entry, str):
        return None
    hit = cached(cache, g, entry)  # read, so kept with the inputs that lead to it
    reused = export.reused_files(cache, g, inputs, export.cached_folders(order.formats, order.profile)) if hit else None
    if hit is None or reused is None or not _pictured(order, g, component.id):
        return None
    return Made(g, component, inputs, hit.digest, entry, hit.sheets, hit.pdf, None, tuple(reused))


def _pictured(order: Order, g: str, component_id: str) -> bool:
    """Whether the gallery can show every face of a component the cache holds without drawing
    it: always, unless the live preview is to picture faces when asked, when each must be
    pictured already or its drawing be waiting from an earlier build."""
    if order.pictures.mode != picturing.SERVE:
        return True

    def shown(face: dict[str, Any]) -> bool:
        earlier = face.get("thumbnail")
        return ((isinstance(earlier, str) and ".." not in earlier.split("/") and (order.out / earlier).is_file())
                or (isinstance(face.get("picture"), str) and order.pictures.has(face["picture"])))

    faces = [f for f in manifest.entries(order.old, "faces", g) if f.get("component") == component_id]
    return bool(faces) and all(shown(f) for f in faces)


def _drawn(order: Order, context: Context, component: AnyComponent, inputs: str, progress: Progress) -> Drawn:
    progress.doing(context.name, f"drawing {component.id}")
    return draw(context, component, inputs)


# --- the gallery's pictures: those kept, the others made, left waiting or left out -----------------


def drawn_faces(drawn: Mapping[str, Sequence[Drawn | Made]]) -> dict[str, list[tuple[export.ComponentFaces, dict[int, bytes]]]]:
    """The distinct faces of each component drawn in this build, with the digests of its
    drawing's sub-trees (those taken from the cache keep the faces the last build recorded)."""
    return {g: [(export.faces_of(g, d.component, d.output), d.memo) for d in items if isinstance(d, Drawn)]
            for g, items in drawn.items()}


class Pictures:
    """The gallery's pictures of the faces this build draws (`pnp.export.pictures`): each
    face's picture name, and its picture when `store` keeps one. Those it lacks are, as the
    store's mode says, made in a forked worker as soon as the components are drawn
    (`pnp.sheets.Background`, taken when the exports are written: off the path of the PDFs),
    left waiting in the store for the live preview, or left out. A face drawn alike in
    several kits is one picture."""

    def __init__(self, store: picturing.Store) -> None:
        self.store = store
        self.faces: dict[str, dict[str, export.ComponentFaces]] = {}  # game → component → its faces
        self.names: dict[str, dict[str, list[str]]] = {}  # game → component → its faces' picture names
        self.pictures: dict[str, bytes] = {}  # by name: kept, or made by this build
        self.made = 0  # faces pictured by this build
        self._work: list[tuple[list[str], Background]] = []

    def add(self, faces: Mapping[str, Sequence[tuple[export.ComponentFaces, dict[int, bytes] | None]]]) -> None:
        """Name the faces of the components among `faces` not named yet, take the pictures
        kept, and begin making the others if the store's mode says so."""
        missing = self._missing(faces)
        if self.store.mode == picturing.SERVE:
            for picture, drawing in missing.items():
                self.store.wait(picture, drawing)
        elif self.store.mode == picturing.MAKE and missing:
            names = list(missing)
            chunks = [names[n:n + PICTURES_A_TASK] for n in range(0, len(names), PICTURES_A_TASK)]
            tasks: list[Task] = [(len(chunk) / 3, partial(picturing.make, [missing[p] for p in chunk])) for chunk in chunks]
            self._work.append((names, Background(tasks)))

    def _missing(self, faces: Mapping[str, Sequence[tuple[export.ComponentFaces, dict[int, bytes] | None]]]
                 ) -> dict[str, Drawing]:
        """Name the faces of the components not named yet and take their pictures the store
        keeps: the drawings of the others, by picture name, but for those already being made."""
        missing: dict[str, Drawing] = {}
        begun = {name for names, _ in self._work for name in names}
        for g, found in faces.items():
            for c, memo in found:
                if c.id in self.faces.get(g, {}):
                    continue
                for picture, face in zip(self._named(g, c, memo), c.faces, strict=True):
                    if picture not in self.pictures and picture not in missing and picture not in begun:
                        self._take_kept(picture, face.drawing, missing)
        return missing

    def _named(self, game: str, faces: export.ComponentFaces, memo: dict[int, bytes] | None) -> list[str]:
        """A component's faces kept, and their picture names (`memo`: the digests its drawing kept)."""
        self.faces.setdefault(game, {})[faces.id] = faces
        self.names.setdefault(game, {})[faces.id] = names = [picturing.name(face.drawing, memo) for face in faces.faces]
        return names

    def _take_kept(self, picture: str, drawing: Drawing, missing: dict[str, Drawing]) -> None:
        """The store's picture of a face if it keeps one, else the face's drawing added to `missing`."""
        kept = self.store.kept(picture)
        if kept is not None:
            self.pictures[picture] = kept
        else:
            missing[picture] = drawing

    def taken(self) -> dict[str, dict[str, list[picturing.Picture]]]:
        """game → component → each face's picture name and picture (None: not pictured),
        waiting for the worker; the pictures it made kept in the store."""
        for names, work in self._work:
            for picture, data in zip(names, [p for chunk in work.results() for p in chunk], strict=True):
                self.pictures[picture] = data
                self.store.keep(picture, data)
                self.made += 1
        self._work = []
        return {g: {c: [(p, self.pictures.get(p)) for p in names] for c, names in components.items()}
                for g, components in self.names.items()}

    def close(self) -> None:
        for _, work in self._work:
            work.close()


# --- layout: on sheets, and each game's print units -------------------------------------------


@dataclass(frozen=True)
class Laidout:
    """Every component on sheets (or from the cache), each drawn one's distinct faces, and the
    print units of the games built whole."""

    made: Mapping[str, list[Made]]
    faces: Mapping[str, list[export.ComponentFaces]]
    units: Mapping[str, list[Unit]]


def layout(order: Order, drawn: Mapping[str, Sequence[Drawn | Made]], cache: Cache,
           faces: Mapping[str, Mapping[str, export.ComponentFaces]]) -> Laidout:
    """Each drawn component laid out (its rendered sheets taken from the cache when its drawing
    came out as before), then each whole game's print units — a cached component that shares
    sheets whose run is not cached is drawn again to be laid out with the others — and the
    distinct faces of everything drawn (those of `faces`, game → component → its faces, as they
    were found after drawing), checked against the print shop's profile."""
    made = {g: [m if isinstance(m, Made) else placed(order, m, cache) for m in items] for g, items in drawn.items()}

    def relay(m: Made) -> Made:
        return replace(m, laid=lay_out(order.context(m.game_id), m.component))

    units = {}
    for g in order.whole:
        with order.speaking(g):
            units[g] = plan_units(order.game(g), g, made[g], order.spec.print, [*order.code, *order.words(g)],
                                  cache, relay)
    found = _faces(made, faces)
    if order.profile:
        export.check_profile(order.profile, [c for g in order.games for c in found[g]], order.spec.print.pdfx)
    return Laidout(made, found, units)


def _faces(made: Mapping[str, Sequence[Made]],
           faces: Mapping[str, Mapping[str, export.ComponentFaces]]) -> dict[str, list[export.ComponentFaces]]:
    """The distinct faces of each laid-out component: as found after drawing, else as the last
    build recorded them (a component taken from the cache)."""
    return {g: [faces.get(g, {}).get(m.component.id) or export.faces_of(g, m.component, m.laid.output)
                for m in items if m.laid is not None]
            for g, items in made.items()}


def placed(order: Order, drawn: Drawn, cache: Cache) -> Made:
    """A drawn component on its sheets, with its PDF when the cache has its drawing rendered."""
    laid = impose_drawn(order.context(drawn.game_id), drawn)
    entry = key(order.code, drawn.digest)  # the drawing holds the art and the words: the code alone names the PDF
    hit = cached(cache, drawn.game_id, entry)
    with order.speaking(drawn.game_id):
        sheets = hit.sheets if hit is not None else sheets_of(laid, order.game(drawn.game_id))
    return Made(drawn.game_id, drawn.component, drawn.inputs, drawn.digest, entry, sheets,
                hit.pdf if hit else None, laid)


# --- sheets: rendered to PDF ------------------------------------------------------------------


@dataclass(frozen=True)
class Printed:
    """Every component with its PDF, the shared runs' PDFs by cache name, and the rest of the layout."""

    made: Mapping[str, list[Made]]
    faces: Mapping[str, list[export.ComponentFaces]]
    units: Mapping[str, list[Unit]]
    shared: Mapping[str, bytes]


def sheets(laid: Laidout, cache: Cache, progress: Progress) -> Printed:
    """Render in one batch what the cache does not hold — components and shared runs — and
    keep it all: a component under its drawing's digest and under its inputs."""
    made = {g: list(items) for g, items in laid.made.items()}
    shared = {u.entry: hit.pdf for g, units in laid.units.items() for u in units
              if u.shared and (hit := cached(cache, g, u.entry)) is not None}
    for items in made.values():
        for m in items:
            if m.pdf is not None:
                _keep(cache, m, progress)
    todo = _to_render(laid, made, shared, progress)

    def finished(index: int, result: Any) -> None:
        g, what, _ = todo[index]
        if isinstance(what, Unit):
            shared[what.entry] = result
            remember(cache, g, what.entry, Cached(what.entry, what.sheets, result))
        else:
            m = made[g][what] = replace(made[g][what], pdf=result)
            remember(cache, g, m.entry, Cached(m.digest, m.sheets, result))
            _keep(cache, m, progress)

    in_parallel([task for _, _, task in todo], finished)
    return Printed(made, laid.faces, laid.units, shared)


def _to_render(laid: Laidout, made: Mapping[str, list[Made]], shared: Mapping[str, bytes],
               progress: Progress) -> list[tuple[str, int | Unit, Task]]:
    """(game, what, task): each component drawn and not cached (by index), each shared run not cached."""
    todo: list[tuple[str, int | Unit, Task]] = []
    for g, items in made.items():
        for i, m in enumerate(items):
            if m.pdf is None and m.laid is not None:
                todo.append((g, i, (len(m.laid.pages), partial(render, (m.laid.pages, f"{m.laid.info.title} — {m.name}", g)))))
                progress.doing(g, f"rendering {m.component.id}")
    for g, units in laid.units.items():
        todo += [(g, u, (len(u.pages), partial(render, (u.pages, u.name, g)))) for u in units
                 if u.shared and u.entry not in shared]
    return todo


def _keep(cache: Cache, m: Made, progress: Progress) -> None:
    """A rendered component's inputs kept as leading to its rendered sheets, so the next build
    need not draw it."""
    cache.put(m.game_id, COMPONENT, m.inputs, {"printed": m.entry})
    progress.done(m.game_id, m.component.id)


# --- files: the print files, and what changed -------------------------------------------------


@dataclass(frozen=True)
class Files:
    """What the files stage wrote for one game or all, and what it compared."""

    entries: tuple[manifest.FileEntry, ...]
    changes: Mapping[str, tuple[manifest.Change, ...] | None]  # per game; None: nothing to compare with
    reprints: Mapping[str, str]  # game → its reprint file
    pages: int  # pages to print
    since: Mapping[str, Since] = field(default_factory=dict)  # game → what its changes count from


def files(order: Order, printed: Printed, root: Path, cache: Cache, progress: Progress) -> Files:
    """Every game's files: its components' PDFs and SVG pages, then for a game built whole its
    combined file (and its reprint file when sheets changed since the last build), else the
    change list of the components built."""
    games = []
    for g in order.games:
        (root / g).mkdir(parents=True)
        mine = write_components(root, printed.made[g], order.formats)
        with order.speaking(g):
            game = game_files(order, printed, g, root, cache, progress) if g in order.whole else component_changes(order, printed, g)
        games.append(replace(game, entries=(*mine, *game.entries)))
    return _together(games)


def _together(games: Sequence[Files]) -> Files:
    """The files of every game as one."""
    return Files(tuple(e for game in games for e in game.entries), {g: c for game in games for g, c in game.changes.items()},
                 {g: r for game in games for g, r in game.reprints.items()}, sum(game.pages for game in games),
                 {g: s for game in games for g, s in game.since.items()})


def game_files(order: Order, printed: Printed, g: str, root: Path, cache: Cache, progress: Progress) -> Files:
    """A whole game's combined file and reprint file, and its change list unit by unit."""
    game, units, items = order.game(g), printed.units[g], printed.made[g]
    before, since = order.baseline(g)
    listed = changes.compare(g, before, [(u.id, u.sheets.sheets) for u in units])
    pages = lead_pages(units) + sum(u.sheets.pages for u in units)
    written, reprints = [], {}
    if "pdf" in order.formats:
        progress.doing(g, "joining the print file")
        pdfs = [unit_pdf(u, items, printed.shared) for u in units]
        data, lead = game_file(game, g, units, pdfs, order.spec.print, cache, [*order.code, *order.words(g)])
        written.append(manifest.write_file(root, root / g / f"{g}-all.pdf", data, g, None, pages))
        if order.spec.print.cut != "none":  # a cut file per sheet a machine cuts
            from pnp.export.cut import write_cuts

            written += write_cuts(root, g, [(u.id, u.sheets, pdf) for u, pdf in zip(units, pdfs, strict=True)])
        if listed:
            data, count = reprint_file(game, g, units, pdfs, listed, order.spec.print, since)
            reprints[g] = f"{g}/{g}-reprint.pdf"
            written.append(manifest.write_file(root, root / reprints[g], data, g, None, count))
    return Files(tuple(written), {g: _tupled(listed)}, reprints, pages, {g: since})


def component_changes(order: Order, printed: Printed, g: str) -> Files:
    """With `--component`: the change list of those components' own files."""
    ids = {c.id for c in order.chosen[g]}
    before = [e for e in manifest.entries(order.old, "components", g) if e.get("id") in ids]
    listed = changes.compare(g, before, [(m.component.id, m.sheets.sheets) for m in printed.made[g]])
    return Files((), {g: _tupled(listed)}, {}, sum(m.sheets.pages for m in printed.made[g]))


def _tupled(listed: list[manifest.Change] | None) -> tuple[manifest.Change, ...] | None:
    return tuple(listed) if listed is not None else None


def write_components(root: Path, items: Sequence[Made], formats: Sequence[str]) -> list[manifest.FileEntry]:
    """Every file of some components of one game under `root/<game>/`, with their entries."""
    written: list[manifest.FileEntry] = []
    for item in items:
        folder = root / item.game_id
        if "pdf" in formats:
            assert item.pdf is not None  # the sheets stage rendered it
            written.append(manifest.write_file(root, folder / f"{item.component.id}.pdf", item.pdf,
                                               item.game_id, item.component.id, item.sheets.pages))
        if "svg" in formats:
            written += _svgs(root, folder, item)
    return written


def _svgs(root: Path, folder: Path, item: Made) -> list[manifest.FileEntry]:
    from pnp.render.svg import write_svg

    assert item.laid is not None  # SVG pages draw every component
    (folder / "svg").mkdir(exist_ok=True)
    written = []
    for number, page in enumerate(item.laid.pages, 1):
        path = folder / "svg" / f"{item.component.id}-p{number:02d}.svg"
        write_svg(page, path)
        written.append(manifest.file_entry(root, path, item.game_id, item.component.id, "svg", 1))
    return written


# --- exports ----------------------------------------------------------------------------------


def exports(order: Order, printed: Printed, root: Path, cache: Cache, progress: Progress,
            pictures: Mapping[str, Mapping[str, list[picturing.Picture]]]) -> list[export.GameExports]:
    """Each game's exports and the gallery's pictures (`pnp.export.write_game`; `pictures`: of
    the drawn components' faces, by game and component): the drawn components' made afresh and
    kept in the cache by their inputs, the others' from the cache."""
    done = []
    for g in order.games:
        items = printed.made[g]
        progress.doing(g, "exporting" if order.profile or order.formats != ("pdf",) else "picturing faces for the gallery")
        with order.speaking(g):
            done.append(export.write_game(root, order.out, order.old, g, order.game(g).title, printed.faces[g],
                                          order.formats, order.profile, pdfx=order.spec.print.pdfx,
                                          cached={m.component.id: m.exported for m in items if m.laid is None},
                                          plan=print_plan(printed.units[g]) if g in order.whole else None,
                                          cache=cache, inputs={m.component.id: m.inputs for m in items},
                                          pictures=pictures.get(g, {}), store=order.pictures))
    return done


# --- findings: every check on every kit built --------------------------------------------------


def findings(order: Order, printed: Printed) -> dict[str, list[Finding]]:
    """Each kit's findings (`pnp.checks`: the list `pnp validate` runs) on what this build drew
    and on all its sheets, with those the last build made on the faces of the components taken
    from the cache (and with `--component`, on the components not built)."""
    found = {}
    for g in order.games:
        made_kit, items = order.kits[g], printed.made[g]
        runs: tuple[tuple[tuple[str, ...], Sheets], ...] = tuple(((m.component.id,), m.sheets) for m in items)
        runs += tuple((u.ids, u.sheets) for u in printed.units.get(g, ()) if u.shared)
        plan = tuple(printed.units.get(g, ())) if g in order.whole else ()
        fresh = checks.run(checks.Subject(order.spec, made_kit, tuple(printed.faces[g]), runs, plan, printed_only=True))
        old = _old_findings(order, made_kit)
        drawn = {m.component.id: m.laid is not None for m in items}
        found[g] = fresh + checks.carried(order.spec, old, drawn, whole=g in order.whole)
    return found


def _old_findings(order: Order, made_kit: Kit) -> list[manifest.Entry]:
    """The findings the last build's manifest recorded for this kit."""
    code = "" if made_kit.default else made_kit.code
    return [e for e in (order.old or {}).get("findings", [])
            if isinstance(e, dict) and e.get("game") == made_kit.game_id and e.get("kit") == code]


# --- record: the manifest, the gallery and the cache; published -------------------------------


def record(order: Order, printed: Printed, written: Files, exported: Sequence[export.GameExports], root: Path,
           store: BuildStore, found: Mapping[str, Sequence[Finding]]) -> int:
    """Carry over the files of a game that a build of some of its components did not remake,
    write the manifest (this build's entries and the earlier ones it did not replace), the
    gallery from it and the cache, then publish the staging folder. Returns the files written."""
    for g in order.games:
        if g not in order.whole:
            _carry(order.out, root, order.old, g, {c.id for c in order.chosen[g]})
    replaced = _replaced(order)
    file_entries = [*written.entries, *(f for game in exported for f in game.files)]
    data = _manifest(order, printed, written, exported, file_entries, replaced, found)
    manifest.write(root, data)
    export.write_gallery(root, data, order.spec, order.kits)
    store.save(root / FOLDER, set(order.games))
    manifest.publish(root, order.out, replaced)
    return len(file_entries)


def _manifest(order: Order, printed: Printed, written: Files, exported: Sequence[export.GameExports],
              file_entries: Sequence[manifest.FileEntry], replaced: set[str],
              found: Mapping[str, Sequence[Finding]]) -> manifest.Entry:
    """The manifest: this build's files, components, print units, changes, faces, findings
    and marks, and the earlier manifest's entries it did not replace."""
    was_rebuilt = _rebuilt(order, replaced)
    about = {"pnp": __version__, "spec": _spec_record(order.source),
             "print": {"paper": order.spec.print.paper, "duplex": order.spec.print.duplex}}
    entries = [_entry(m) for g in order.games for m in printed.made[g]]
    print_units = [_unit_entry(g, u) for g in order.whole for u in printed.units[g]]
    changed = [c for g in order.games for c in written.changes[g] or ()]
    data = manifest.merged(order.old, file_entries, entries, print_units, was_rebuilt, about, changed)
    data |= export.manifest_records(order.old, exported, was_rebuilt)
    data["findings"] = _findings_record(order, found, replaced)
    marks = _marks(order, printed)
    if marks:
        data["printed"] = marks
    return data


def _replaced(order: Order) -> set[str]:
    """The kits whose earlier entries this build replaces whole: those it built whole, and,
    when it built every game whole, the kits the spec no longer makes."""
    everything = {order.kits[g].game_id for g in order.whole} == set(order.spec.games)
    return set(order.whole) | (manifest.games_in(order.old) - _kit_names(order.spec) if everything else set())


def _rebuilt(order: Order, replaced: set[str]) -> Callable[[manifest.Entry], bool]:
    """Whether an earlier manifest's entry is one this build replaced: of a kit it replaced
    whole, or of a component it built."""
    rebuilt = {(g, c.id) for g in order.games for c in order.chosen[g]}

    def was_rebuilt(e: manifest.Entry) -> bool:
        return e.get("game") in replaced or (e.get("game"), e.get("component", e.get("id"))) in rebuilt

    return was_rebuilt


def _findings_record(order: Order, found: Mapping[str, Sequence[Finding]], replaced: set[str]) -> list[dict[str, Any]]:
    """The manifest's `findings`: this build's of every kit it built, and the earlier build's of
    the kits it neither built nor dropped."""
    from pnp.export.gallery import kit_of

    kept = [e for e in (order.old or {}).get("findings", [])
            if isinstance(e, dict) and kit_of(e) not in replaced | set(order.games)]
    return kept + [f.as_json() for g in order.games for f in found[g]]


def _marks(order: Order, printed: Printed) -> list[dict[str, Any]]:
    """The manifest's `printed`: each game's mark, the print units of its build last marked as
    printed (this one's, for the games built whole, with `--printed`), which later change
    lists count from. A mark stays until another replaces it, whatever is built meanwhile."""
    marked = set(order.whole) if order.printed else set()
    kept = [m for m in (order.old or {}).get("printed", []) if isinstance(m, dict) and m.get("game") not in marked
            and m.get("game") in order.spec.games]
    new = [{"game": g, "stamp": instructions_stamp(order.spec.games[g], printed.units[g], order.spec.print),
            "units": [{"id": u.id, "sheets": list(u.sheets.sheets)} for u in printed.units[g]]} for g in sorted(marked)]
    return sorted(kept + new, key=lambda m: str(m["game"]))


def _carry(out: Path, root: Path, old: dict[str, Any] | None, game: str, rebuilt: set[str]) -> None:
    """Keep the files of `game` that a build of some of its components did not remake (their
    manifest entries stay too)."""
    for entry in manifest.entries(old, "files", game):
        if entry.get("component") in rebuilt or not isinstance(entry.get("path"), str):
            continue
        source, target = out / entry["path"], root / entry["path"]
        if source.is_file() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            manifest.link_or_copy(source, target)


def _entry(item: Made) -> manifest.ComponentEntry:
    s = item.sheets
    return manifest.ComponentEntry(item.game_id, item.component.id, item.component.kind, s.count, s.size_mm,
                                   s.stamp, s.sheets, s.pages, s.duplex, item.inputs)


def _unit_entry(game: str, unit: Unit) -> manifest.UnitEntry:
    s = unit.sheets
    return manifest.UnitEntry(game, unit.id, unit.ids, s.stamp, s.sheets, s.pages, s.duplex)


def _spec_record(source: Path | None) -> dict[str, Any]:
    if source is None:
        return {"path": None, "sha256": None}
    try:
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
    except OSError:
        digest = None
    return {"path": str(source), "sha256": digest}


def summary(order: Order, printed: Printed, written: Files, count: int, found: Mapping[str, Sequence[Finding]],
            pictured: int = 0) -> Summary:
    """What the build did: its files, the pages to print (none without PDFs), what changed,
    and every kit's findings, and a line per kit that mixes languages."""
    from pnp.translate import kit_line

    mixed = {g: untranslated_printed(order.spec, order.kits[g]) for g in order.games}
    languages = tuple(f"{g}: {kit_line(order.kits[g].code, found)}" for g, found in mixed.items() if found)
    return Summary(order.games, count, written.pages if "pdf" in order.formats else 0, written.changes,
                   written.reprints, tuple(f for g in order.games for f in found[g]), written.since, languages,
                   pictured)


def _kit_names(spec: Spec) -> set[str]:
    """Every name a kit of the spec's games may have (`kits_of`): what a build of every game
    keeps of an earlier one."""
    from pnp.i18n import PSEUDO

    return {f"{g}.{code}" if code != game.language else g
            for g, game in spec.games.items() for code in (*game.kit_languages, PSEUDO)}


def untranslated_printed(spec: Spec, in_kit: Kit) -> list[Untranslated]:
    """The fuzzy and missing translations a kit printed (in English, for the missing), each at
    its line of the catalog: a build says so in its summary, a line per kit (`kit_line`)."""
    if in_kit.code in ("en", "qps"):
        return []
    from pnp.translate import untranslated

    return untranslated(spec, in_kit.game_id, (in_kit.code,), printed_only=True)
