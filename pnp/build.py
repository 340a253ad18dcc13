"""`pnp build`: the spec → components → sheets → files, atomically, reproducibly, incrementally.

Each component is generated and laid out (pieces imposed with their backs, panels on their own
sheets or tiled, a booklet folded), rendered to PDF once — by forked workers when the machine
has several cores — and written to `<out>/<game>/`; the game's combined print file
`<game>-all.pdf` joins those very PDFs, and the sheets small components share, behind a page
of print instructions (`pnp.printfile`). SVG pages and PNG pieces are written on request.

Components whose inputs did not change come from the cache (`pnp.cache`) without being drawn
or rendered; every build compares its print units sheet by sheet with the manifest it
replaces (`pnp.changes`) and puts the sheets that changed in `<game>-reprint.pdf`. The digest
behind all of it, and the stamp on every sheet, are described in `pnp.sheets`.

Everything goes to a staging folder that replaces the output only when the whole build
succeeded (see `pnp.manifest`). The same spec gives the same bytes, from a clean folder or
from the cache: PDFs are written in reportlab's invariant mode and the manifest has no time.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from string import Formatter
from typing import Any, Callable, Iterator, Mapping, Sequence

from pnp import __version__, changes, export, manifest
from pnp.cache import Cache, code_version, function_name, key
from pnp.components import BookPages, Context, Pieces, generate
from pnp.components.resolution import resolution_warnings
from pnp.display import fingerprint
from pnp.errors import BuildError, Issue, SpecError
from pnp.i18n import speaking
from pnp.layout.booklet import fold_booklet
from pnp.layout.impose import impose
from pnp.layout.sheet import Furniture, stamp
from pnp.layout.tile import tile
from pnp.printfile import Unit, game_file, lead_pages, plan_units, print_plan, reprint_file, unit_pdf
from pnp.sheets import STAMP_DIGITS, Laid, Layout, Made, cached, name, remember, render_pdfs, sheets_of
from pnp.spec.faces import printed_inputs
from pnp.spec.images import read_art
from pnp.spec.loader import named_images
from pnp.spec.model import Game, Spec
from pnp.spec.translation import Kit, kit, kit_codes

FORMATS = ("pdf", "svg", *export.FORMATS)


@dataclass(frozen=True)
class Summary:
    games: tuple[str, ...]
    files: int
    pages: int  # pages to print: each game's combined file (or the components built with --component); 0 without PDFs
    changes: Mapping[str, tuple[manifest.Change, ...] | None]  # per game; None: no earlier build to compare
    reprints: Mapping[str, str]  # game → its reprint file, relative to the output folder
    warnings: tuple[Issue, ...] = ()  # e.g. art printed below 300 dpi: built anyway


class Progress:
    """What a build reports while it runs; this one says nothing (the CLI shows a progress bar)."""

    def begin(self, totals: Mapping[str, int]) -> None:
        """The games to build and how many components each."""

    def doing(self, game: str, what: str) -> None:
        """What the build is working on in `game` ("drawing shares", "rendering money")."""

    def done(self, game: str, component: str) -> None:
        """One component of `game` is ready."""


def with_print(spec: Spec, **overrides: Any) -> Spec:
    """The spec with print settings replaced where an override is given (not None)."""
    given = {option: value for option, value in overrides.items() if value is not None}
    return spec.model_copy(update={"print": spec.print.model_copy(update=given)}) if given else spec


# --- the build -----------------------------------------------------------------------------


def kits_of(spec: Spec, games: Sequence[str], languages: Sequence[str] = ()) -> dict[str, Kit]:
    """The kits `--lang` asks of `games`, by what names their folder and files: the game's id
    for its default language (`bolsa`), `<game>.<language>` for another (`bolsa.en`)."""
    found: dict[str, Kit] = {}
    for g in games:
        game = spec.games[g]
        for code in kit_codes(game, tuple(languages)):
            made = kit(g, game, code, spec.folder)
            found[made.folder] = made
    return found


def build(spec: Spec, out: Path, games: Sequence[str], formats: Sequence[str] = ("pdf",), *,
          only: Mapping[str, Sequence[str]] | None = None, source: Path | None = None,
          progress: Progress | None = None, profile: str | None = None, languages: Sequence[str] = ()) -> Summary:
    """Build the kits of `games` in `languages` (default: each game's default language) into
    `out`, all or nothing; other kits' files already there are kept.

    Each kit is built like a game of its own under the name of `kits_of` (its folder, its
    files' names, its entries in the manifest and the gallery). `only` restricts a game to
    some of its components (`--component`): their files are rewritten and the game's combined
    and reprint files are left as they were. `source` is the spec file, recorded in the
    manifest. `profile` adds a print shop's files (`pnp.export.profiles`); every build also
    writes the gallery, `index.html`."""
    out = Path(os.path.abspath(out))
    progress = progress or Progress()
    old = manifest.check_output(out)
    cache = Cache(out if old is not None else None)
    code = [code_version(), function_name(generate)]
    kits = kits_of(spec, games, languages)
    spoken = {g: kits[g].language for g in kits}
    games = list(kits)
    for g in games:
        check_names(g, kits[g].game)
    chosen = {g: _chosen(kits[g].game, (only or {}).get(kits[g].game_id)) for g in games}
    whole = [g for g in games if len(chosen[g]) == len(kits[g].game.components)]
    progress.begin({g: len(components) for g, components in chosen.items()})
    folders = export.cached_folders(formats, profile)
    draw_all = "svg" in formats or "tts" in formats  # SVG pages, and TTS's one save per game
    reused: dict[tuple[str, str], list[export.ReusedFile]] = {}

    def reuse(g: str, inputs: str) -> bool:
        """Whether a component with these inputs may be left undrawn: its exports are cached."""
        found = None if draw_all else export.reused_files(cache, g, inputs, folders)
        if found is not None:
            reused[(g, inputs)] = found
        return found is not None

    contexts = {g: Context(kits[g].game_id, kits[g].game, spec.print, spec.folder, kits[g]) for g in games}
    art = {g: {file: read_art(spec.folder, file).digest for file in sorted(named_images(kits[g].game))} for g in games}
    words = {g: [kits[g].code, *(language.digest for language, _ in kits[g].siblings), spoken[g].digest]
             for g in games}  # the catalogs a kit's words come from
    made: dict[str, list[Made]] = {g: [] for g in games}
    issues = []
    for g in games:
        with speaking(spoken[g]):
            for component in chosen[g]:
                try:
                    made[g].append(prepare(spec, contexts[g], component, cache, [*code, art[g], words[g]],
                                           partial(reuse, g), progress))
                except BuildError as error:  # every component that cannot be laid out, each at its place
                    issues.append(located(spec, kits[g].game_id, component, error, kits[g]))
    if issues:
        raise SpecError(issues)
    units = {}
    for g in whole:
        with speaking(spoken[g]):
            units[g] = plan_units(kits[g].game, g, made[g], spec.print, [*code, *words[g]], cache,
                                  lambda m, g=g: replace(m, laid=lay_out(contexts[g], m.component)))
    faces = {g: export.game_faces(g, [(m.component, m.laid.output) for m in made[g] if m.laid is not None])
             for g in games}  # components taken from the cache keep the faces the last build recorded
    if profile:
        export.check_profile(profile, [c for g in games for c in faces[g]])
    shared = _rendered(made, units, cache, progress)
    files: list[manifest.FileEntry] = []
    exported: list[export.GameExports] = []
    found: dict[str, tuple[manifest.Change, ...] | None] = {}
    reprints: dict[str, str] = {}
    pages = 0
    try:
        with manifest.staging(out) as root:
            for g in games:
                with speaking(spoken[g]):
                    game, items = kits[g].game, made[g]
                    (root / g).mkdir(parents=True)
                    files += write_components(root, items, formats)
                    progress.doing(g, "exporting" if profile or formats != ("pdf",) else "picturing faces for the gallery")
                    exported.append(export.write_game(root, out, old, g, game.title, faces[g], formats, profile,
                                                      safe_mm=spec.print.safe_mm,
                                                      cached={m.component.id: reused.get((g, m.inputs), [])
                                                              for m in items if m.laid is None},
                                                      plan=print_plan(units[g]) if g in whole else None, cache=cache,
                                                      inputs={m.component.id: m.inputs for m in items}))
                    files += exported[-1].files
                    if g not in whole:  # --component: compare and report those components' own files
                        _carry(out, root, old, g, {c.id for c in chosen[g]})
                        before = [e for e in manifest.entries(old, "components", g) if e.get("id") in {c.id for c in chosen[g]}]
                        listed = changes.compare(g, before, [(m.component.id, m.sheets.sheets) for m in items])
                        found[g] = tuple(listed) if listed is not None else None
                        pages += sum(m.sheets.pages for m in items)
                        continue
                    listed = changes.compare(g, manifest.entries(old, "units", g), [(u.id, u.sheets.sheets) for u in units[g]])
                    found[g] = tuple(listed) if listed is not None else None
                    pages += lead_pages(units[g]) + sum(u.sheets.pages for u in units[g])
                    if "pdf" not in formats:
                        continue
                    progress.doing(g, "joining the print file")
                    pdfs = [unit_pdf(u, items, shared) for u in units[g]]
                    data, lead = game_file(game, g, units[g], pdfs, spec.print, cache, [*code, *words[g]])
                    files.append(manifest.write_file(root, root / g / f"{g}-all.pdf", data, g, None,
                                                     lead + sum(u.sheets.pages for u in units[g])))
                    if listed:
                        data, count = reprint_file(game, g, units[g], pdfs, listed, spec.print)
                        reprints[g] = f"{g}/{g}-reprint.pdf"
                        files.append(manifest.write_file(root, root / reprints[g], data, g, None, count))
            every_game = {kits[g].game_id for g in whole} == set(spec.games)
            replaced = set(whole) | (manifest.games_in(old) - _kit_names(spec) if every_game else set())
            rebuilt = {(g, c.id) for g in games for c in chosen[g]}

            def was_rebuilt(e: dict[str, Any]) -> bool:
                return e.get("game") in replaced or (e.get("game"), e.get("component", e.get("id"))) in rebuilt

            about = {"pnp": __version__, "spec": _spec_record(source),
                     "print": {"paper": spec.print.paper, "duplex": spec.print.duplex}}
            entries = [_entry(m) for g in games for m in made[g]]
            print_units = [_unit_entry(g, u) for g in whole for u in units[g]]
            changed = [c for g in games for c in found[g] or ()]
            written = manifest.merged(old, files, entries, print_units, was_rebuilt, about, changed)
            written |= export.manifest_records(old, exported, was_rebuilt)
            manifest.write(root, written)
            export.write_gallery(root, written, spec)
            cache.save(root, set(games))
            manifest.publish(root, out, replaced)
    except OSError as error:
        raise BuildError(f"cannot write the output folder {out}: {error.strerror or error} ({error.filename or out})") from None
    warnings = {(w.file, w.line, w.col): w for g in games for m in made[g] for w in m.warnings}  # once per file
    warnings.update({(w.file, w.line, w.col): w for g in games for w in fuzzy_printed(spec, kits[g])})
    pages = pages if "pdf" in formats else 0  # nothing to print without the PDFs
    return Summary(tuple(games), len(files), pages, found, reprints, tuple(warnings.values()))


@dataclass(frozen=True)
class GameLayout:
    """Every component of one game drawn and on sheets, and the combined file's print units;
    nothing rendered or cached."""

    game_id: str
    laid: tuple[Laid, ...]
    units: tuple[Unit, ...]


def lay_out_game(spec: Spec, game_id: str, language: str | None = None) -> GameLayout:
    """One game's components drawn and laid out afresh, in its default language or `language`:
    what `pnp validate` checks and tests inspect."""
    made_kit = kit(game_id, spec.games[game_id], language or spec.games[game_id].language, spec.folder)
    game = made_kit.game
    check_names(game_id, game)
    context = Context(game_id, game, spec.print, spec.folder, made_kit)
    items = []
    with speaking(made_kit.language):
        for component in game.components:
            laid = lay_out(context, component)
            items.append(Made(game_id, component, "", laid.digest, laid.digest, sheets_of(laid, game), None, laid, ()))
        units = plan_units(game, game_id, items, spec.print, (), None, lambda m: m)
    return GameLayout(game_id, tuple(m.laid for m in items), tuple(units))  # type: ignore[misc]


def layout_issues(spec: Spec, game_id: str, languages: Sequence[str] | None = None) -> list[Issue]:
    """What a build would refuse in one game of a valid spec — text that does not fit its box,
    pieces larger than the paper, a character the font lacks — each at the spec field it comes
    from: every component drawn and laid out in each of the game's languages (or `languages`),
    nothing rendered. `pnp validate` reports these."""
    game = spec.games[game_id]
    try:
        check_names(game_id, game)
    except BuildError as error:
        return [spec.issue(("games", game_id, "components"), str(error))]
    issues = []
    for code in languages if languages is not None else game.kit_languages:
        made_kit = kit(game_id, game, code, spec.folder)
        context = Context(game_id, made_kit.game, spec.print, spec.folder, made_kit)
        for component in made_kit.game.components:
            try:
                lay_out(context, component, stamped=False)
            except BuildError as error:
                issues.append(located(spec, game_id, component, error, made_kit))
    return list(dict.fromkeys(issues))


def located(spec: Spec, game_id: str, component: Any, error: BuildError, in_kit: Kit | None = None) -> Issue:
    """`error` at the field that causes it: the text at fault (the template that writes it
    whole, else the first whose words it holds, in the kit's language), the size of pieces too
    large for the paper, else the component. In a kit of another language the message says so."""
    index = next(i for i, c in enumerate(spec.games[game_id].components) if c.id == component.id)
    here = ("games", game_id, "components", index)
    path = here
    spoken = in_kit.language if in_kit is not None and not in_kit.default else None
    if spoken is not None:
        error = BuildError(f"{error} (in the {spoken.code} kit)", text=error.text, size=error.size)
    if error.text:
        texts = [(here + p, spoken.gettext(template) if spoken is not None else template)
                 for p, template in _texts(spec.written(here))]
        path = next((p for p, template in texts if _writes(template, error.text, whole=True)),
                    next((p for p, template in texts if _writes(template, error.text, whole=False)), here))
    elif error.size:
        path = next((p for p in (here + ("size_mm",), ("print", "card_mm")) if spec.written(p) is not None), here)
    return spec.issue(path, str(error))


def _texts(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """Every text in a component's spec data, with its path."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _texts(value, path + (key,))
    elif isinstance(data, (list, tuple)):
        for index, value in enumerate(data):
            yield from _texts(value, path + (index,))
    elif isinstance(data, str):
        yield path, data


def _writes(template: str, text: str, *, whole: bool) -> bool:
    """Whether `template` could have written `text`, its placeholders filled anyhow: all of
    `text` (`whole`), or a part of it holding all its fixed words in order (a line of it)."""
    fixed = [part for part, *_ in Formatter().parse(template)]
    if whole:
        return re.fullmatch("(?s:.*?)".join(map(re.escape, fixed)), text) is not None
    words = [part.strip() for part in fixed if part.strip()]
    return bool(words) and re.search("(?s:.*?)".join(map(re.escape, words)), text) is not None


def _kit_names(spec: Spec) -> set[str]:
    """Every name a kit of the spec's games may have (`kits_of`): what a build of every game
    keeps of an earlier one."""
    from pnp.i18n import PSEUDO

    return {f"{g}.{code}" if code != game.language else g
            for g, game in spec.games.items() for code in (*game.kit_languages, PSEUDO)}


def fuzzy_printed(spec: Spec, in_kit: Kit) -> list[Issue]:
    """The fuzzy and missing translations a kit printed (in English, for the missing), each at
    its line of the catalog: a build says so in its summary."""
    if in_kit.code in ("en", "qps"):
        return []
    from pnp.translate import problems

    return problems(spec, in_kit.game_id, (in_kit.code,), printed_only=True)


def check_names(game_id: str, game: Game) -> None:
    """No component may take the name of a game's own files."""
    for suffix in ("all", "reprint"):
        if any(c.id == f"{game_id}-{suffix}" for c in game.components):
            raise BuildError(f"{game_id}: no component may be called {game_id}-{suffix}, the name of the "
                             f"{'combined print' if suffix == 'all' else 'reprint'} file")


def _chosen(game: Game, wanted: Sequence[str] | None) -> list[Any]:
    if not wanted:
        return list(game.components)
    return [c for c in game.components if c.id in wanted]


def prepare(spec: Spec, context: Context, component: Any, cache: Cache, code: list[Any],
            reuse: Callable[[str], bool], progress: Progress) -> Made:
    """One component from the cache when its inputs are there (and `reuse` finds in the cache
    whatever else the build makes of a component with these inputs), else drawn and laid out
    (and its PDF taken from the cache when the drawing came out as before). `code` holds what
    every key of the game shares: pnp's code, the generator, the game's art files."""
    g = context.kit.folder if context.kit is not None else context.game_id  # the kit's name
    inputs = key(code, context.settings.model_dump(mode="json"), printed_inputs(context.game, component))
    entry = cache.note(g, f"inputs-{inputs}")
    if isinstance(entry, str) and reuse(inputs):
        hit = cached(cache, g, entry)
        if hit is not None:
            progress.done(g, component.id)
            return Made(g, component, inputs, hit.digest, entry, hit.sheets, hit.pdf, None, hit.warnings)
    progress.doing(g, f"drawing {component.id}")
    laid = lay_out(context, component)
    warnings = tuple(resolution_warnings(spec, context.game_id, [laid.output]))
    entry = key(code[:2], laid.digest)  # the drawing holds the art: the code alone names the PDF
    hit = cached(cache, g, entry)
    sheets = hit.sheets if hit is not None else sheets_of(laid, context.game)
    return Made(g, component, inputs, laid.digest, entry, sheets, hit.pdf if hit else None, laid, warnings)


def lay_out(context: Context, component: Any, *, stamped: bool = True) -> Laid:
    """Generate one component and put it on sheets, stamped with the digest of what it prints
    (unless `stamped` is False: validation checks what fits, and a stamp of zeros fits alike)."""
    settings = context.settings
    with speaking(context.language):
        output = generate(context, component)
        digest = fingerprint((output, settings.model_dump_json(), context.game.title, name(component))) if stamped else "0" * 64
        info = Furniture(context.game.title, name(component), stamp(__version__, digest[:STAMP_DIGITS]))
        if isinstance(output, Pieces):
            layout: Layout = impose(output, settings.paper, settings.margin_mm, settings.duplex, info,
                                    tuple(settings.back_offset_mm))  # type: ignore[arg-type]
        elif isinstance(output, BookPages):
            layout = fold_booklet(output.pages, settings.paper, settings.margin_mm, settings.duplex, info)
        else:
            layout = tile(output, settings.paper, settings.margin_mm, info)
    return Laid(component, output, layout, digest, info)


def _rendered(made: dict[str, list[Made]], units: dict[str, list[Unit]], cache: Cache,
              progress: Progress) -> dict[str, bytes]:
    """Render what the cache does not hold — components (`made` gets their PDFs) and shared
    sheets (returned by cache name) — in one batch, and cache it all."""
    shared: dict[str, bytes] = {}
    jobs, done = [], []
    for g, items in made.items():
        for i, m in enumerate(items):
            if m.pdf is None:
                jobs.append((m.laid.pages, f"{m.laid.info.title} — {m.name}", g))  # type: ignore[union-attr]
                done.append(("component", g, i))
                progress.doing(g, f"rendering {m.component.id}")
            else:
                cache.put_note(g, f"inputs-{m.inputs}", m.entry)
                if m.laid is not None:
                    progress.done(g, m.component.id)
    for g, game_units in units.items():
        for u in game_units:
            if u.shared and u.entry not in shared:
                hit = cached(cache, g, u.entry)
                if hit is not None:
                    shared[u.entry] = hit.pdf
                else:
                    jobs.append((u.pages, u.name, g))
                    done.append(("shared", g, u))

    def finished(index: int, pdf: bytes) -> None:
        kind, g, what = done[index]
        if kind == "component":
            m = made[g][what] = replace(made[g][what], pdf=pdf)
            cache.put_note(g, f"inputs-{m.inputs}", m.entry)
            remember(cache, g, m.entry, m.digest, m.sheets, pdf, m.warnings)
            progress.done(g, m.component.id)
        else:
            shared[what.entry] = pdf
            remember(cache, g, what.entry, what.entry, what.sheets, pdf, ())

    render_pdfs(jobs, finished)
    return shared


# --- files ----------------------------------------------------------------------------------


def write_components(root: Path, items: Sequence[Made], formats: Sequence[str]) -> list[manifest.FileEntry]:
    """Every file of some components of one game under `root/<game>/`, with their entries."""
    files: list[manifest.FileEntry] = []
    for item in items:
        folder = root / item.game_id
        if "pdf" in formats:
            files.append(manifest.write_file(root, folder / f"{item.component.id}.pdf", item.pdf,  # type: ignore[arg-type]
                                             item.game_id, item.component.id, item.sheets.pages))
        if "svg" in formats:
            files += _svgs(root, folder, item)
    return files


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


def _svgs(root: Path, folder: Path, item: Made) -> list[manifest.FileEntry]:
    from pnp.render.svg import write_svg

    (folder / "svg").mkdir(exist_ok=True)
    files = []
    for number, page in enumerate(item.laid.pages, 1):  # type: ignore[union-attr]
        path = folder / "svg" / f"{item.component.id}-p{number:02d}.svg"
        write_svg(page, path)
        files.append(manifest.file_entry(root, path, item.game_id, item.component.id, "svg", 1))
    return files


# --- what the manifest says -------------------------------------------------------------------


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
