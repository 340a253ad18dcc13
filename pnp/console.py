"""What `pnp build` and `pnp watch` show: progress on a terminal, then a summary and what changed;
and what every command shares on the command line (`spec_path`, `shown`, `pick`).

The top floor with `pnp.cli`, which imports it; it never imports `pnp.cli`, and loads the
build only when a build runs (so `pnp referee` starts without it).

Progress goes to stderr (tqdm, as `pnp simulate` uses), and only when stderr is a terminal, so
piped or redirected output holds just the summary and the change list; `-q` silences the
progress.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from pnp.errors import UsageError
from pnp.errors import display_name as shown  # how messages name a file, as the user typed it

if TYPE_CHECKING:
    from pnp.build import Progress, Summary
    from pnp.cache import Cache
    from pnp.changes import Since
    from pnp.errors import Issue, SpecError
    from pnp.findings import Finding
    from pnp.manifest import Change
    from pnp.spec.model import Spec

MAX_OFFSET_MM = 10.0  # a printer further off than this needs fixing, not compensating
CHECKED = "checked"  # user-cache entries: the findings of a game `pnp validate` laid out without a problem
CHECKED_KEEP = 64  # entries (a game's edits each make one); the oldest go first


def run_build(args: argparse.Namespace, pictures: Any = None) -> int:
    """One build with the CLI's options: the summary and changes on stdout, exit status 0.
    `pictures` is the `pnp.export.pictures.Store` of a watch that builds again and again
    (default: one for this build, making every picture with `--gallery`)."""
    from pnp.build import build
    from pnp.export.pictures import KEPT, MAKE, Store
    from pnp.rules import load_spec

    started = time.perf_counter()
    profile, pdfx = _profile_options(args)
    if profile is not None:
        from pnp.export.profiles import describe, profile_named

        if profile == "list":
            print(describe())
            return 0
        profile_named(profile, pdfx)  # an unknown name, or --pdfx for PNGs, is a usage error before any work
    formats = parse_formats(args.format)
    source = spec_path(args.spec)
    spec = _printing(args, load_spec(source), profile, pdfx)
    calibrate = pick(getattr(args, "calibrate", None), ("silhouette", "silhouette4", "dxf"), "--calibrate",
                     "cutting machine to calibrate with")
    if calibrate is not None:
        return calibration(Path(args.out), calibrate, spec)
    games, only = _chosen(args, spec)
    with progress_bars(quiet=args.quiet) as progress:
        summary = build(spec, Path(args.out), games, formats, only=only, source=source, progress=progress,
                        profile=profile, languages=select_languages(spec, games, getattr(args, "lang", None)),
                        printed=getattr(args, "printed", False),
                        since=Path(args.since) if getattr(args, "since", None) else None,
                        pictures=pictures or Store(MAKE if getattr(args, "gallery", False) else KEPT))
    for line in shown_findings(summary.findings):  # what `pnp validate` finds, on what was built
        print(line, file=sys.stderr)
    print(report(summary, source, args.out, time.perf_counter() - started), flush=True)
    return 0


def _profile_options(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """`--profile` and `--pdfx`, as given; `--pdfx` alone is the pdf-trim profile."""
    profile, pdfx = getattr(args, "profile", None), pick(getattr(args, "pdfx", None), ("x1a", "x3", "x4"), "--pdfx",
                                                          "PDF/X level")
    if pdfx is not None and profile is None:
        profile = "pdf-trim"  # --pdfx alone: every component as a PDF/X file
    return profile, pdfx


def _printing(args: argparse.Namespace, spec: Spec, profile: str | None, pdfx: str | None) -> Spec:
    """The spec with the print settings the command line gives: paper, duplex, back offset,
    ink, cutter and PDF/X level (a profile's own level where neither `--pdfx` nor the spec
    names one)."""
    from pnp.build import with_print

    if profile is not None and pdfx is None and spec.print.pdfx == "none":
        from pnp.export.profiles import profile_named

        pdfx = profile_named(profile).pdfx  # the shop's own level (DriveThruCards: PDF/X-1a), which the print plan names
    ink = pick(args.ink, ("normal", "low"), "--ink", "ink setting")
    return with_print(spec, paper=pick(args.paper, ("a4", "letter"), "--paper", "paper"),
                      duplex=pick(args.duplex, ("long", "short", "fold", "none"), "--duplex", "duplex setting"),
                      back_offset_mm=parse_offset(args.back_offset), ink_saver=None if ink is None else ink == "low",
                      cut=pick(getattr(args, "cut", None), ("none", "silhouette", "silhouette4", "cricut", "dxf"), "--cut",
                               "cutting machine"),
                      cut_inset_mm=parse_inset(getattr(args, "inset", None)), pdfx=pdfx)


def _chosen(args: argparse.Namespace, spec: Spec) -> tuple[tuple[str, ...], dict[str, list[str]] | None]:
    """The games `--game` names and the components `--component` names (None: all), the games
    narrowed to those the chosen components belong to."""
    games = select_games(spec, args.game)
    only = select_components(spec, games, args.component)
    if only:
        games = tuple(g for g in games if g in only)
    return games, only


def calibration(out: Path, machine: str, spec: Spec) -> int:
    """`pnp build --calibrate MACHINE`: the cutter's duplex check instead of the kit."""
    from pnp.export.cut import write_calibration
    from pnp.i18n import _
    from pnp.layout.registration import Cutter

    written = write_calibration(out, Cutter(machine, spec.print.cut_inset_mm), spec.print)
    print(_("The cutter's duplex check: print {pdf} double-sided as you print the game, cut it with {cut}, and read "
            "the back offset from the rings on its back.").format(pdf=shown(written[0]), cut=shown(written[1])))
    return 0


class Checking:
    """`pnp validate`'s look at each game of a sound spec, the loader's `layout` step: what a
    build would refuse in the kits `--lang` names (every kit the game lists by default), as
    located issues for the loader to report, and every check's findings, kept in `findings`
    (`pnp.checks.verdict`, remembered by `checked`)."""

    def __init__(self, languages: Sequence[str] | None = None) -> None:
        self.languages = tuple(languages or ())
        self.findings: list[Finding] = []
        self.issues: list[Issue] = []  # what the layout found: a build would refuse it

    def __call__(self, spec: Spec, game_id: str) -> list[Issue]:
        from pnp.spec.translation import kit_codes

        game = spec.games[game_id]
        codes = kit_codes(game, self.languages) if self.languages else game.kit_languages
        issues, found = checked(spec, game_id, codes or (game.language,))
        self.issues += issues
        self.findings += found
        return issues

    def refused(self, error: SpecError) -> list[Finding]:
        """The issues of a spec that was refused as findings, the layout's told from the
        spec's, then every check's findings."""
        from pnp.findings import from_issue

        laid = set(self.issues)
        return [from_issue(i, "layout" if i in laid else "spec") for i in error.issues] + self.findings


def checked(spec: Spec, game_id: str, codes: Sequence[str]) -> tuple[list[Issue], list[Finding]]:
    """`pnp.checks.verdict` of one game, remembered in the user's cache
    (`pnp.cache.user_folder()/validate`) when the game lays out, under a key of everything the
    checks read — pnp's code and fonts, the print settings, the game's data, the kits checked —
    and the files they read: its images by their bytes, its catalogs. Validating again after an
    edit lays out only the games edited, and a spec validated before needs no drawing, nor the
    drawing stack imported; its findings are located again in the file as it is. A game with
    problems is laid out every time (its issues are located in the file as it is)."""
    from pnp.cache import Cache, FolderStore, code_version, key, user_folder
    from pnp.i18n.catalogs import catalog_path
    from pnp.spec.images import clean_path
    from pnp.spec.loader import named_images
    from pnp.spec.located import relocated

    folder = user_folder()
    cache = Cache(FolderStore(folder / "validate", CHECKED_KEEP)) if folder is not None else None
    game = spec.games[game_id]
    name = key(code_version(), "pnp.checks.verdict", game_id, list(codes), spec.print.model_dump(mode="json"),
               game.model_dump(mode="json", by_alias=True))
    kept = _remembered(cache, game_id, name) if cache is not None else None
    if kept is not None:
        return [], [relocated(spec, f) for f in kept]
    from pnp.checks import verdict

    issues, found = verdict(spec, game_id, codes)
    if not issues and cache is not None:
        files = [spec.folder / clean_path(file) for file in sorted(named_images(game))]
        files += [catalog_path(spec.folder, game_id, code) for code in game.kit_languages]
        cache.put(game_id, CHECKED, name, [f.as_json() for f in found], depends=files)
    return issues, found


def _remembered(cache: Cache, game_id: str, name: str) -> list[Finding] | None:
    """The findings kept for a game's checks under `name`; None when none are kept, or an
    entry does not read back as a finding (one an older pnp wrote)."""
    from pnp.findings import Finding

    hit = cache.get(game_id, CHECKED, name)
    if not isinstance(hit, list):
        return None
    kept = [Finding.from_json(entry) for entry in hit]
    return [f for f in kept if f is not None] if all(f is not None for f in kept) else None


def validate(args: argparse.Namespace) -> int:
    """`pnp validate`: everything a build would refuse (exit 2), then every check's findings
    (`pnp.checks`), printed or as JSON (`--json`); with `--strict` a warning exits 1."""
    from pnp.errors import SpecError
    from pnp.findings import verdict
    from pnp.rules import load_spec

    if args.spec_file and args.spec and args.spec_file != args.spec:
        raise UsageError("validate: give the spec file once, as SPEC or as --spec")
    source = spec_path(args.spec or args.spec_file)
    checking = Checking(args.lang)
    try:
        spec = load_spec(source, layout=checking)  # every kit laid out too, as build would (nothing rendered)
    except SpecError as error:
        if not args.json:
            raise
        print(json.dumps(_json(source, checking.refused(error)), ensure_ascii=False, indent=2))
        return error.exit_code
    select_languages(spec, tuple(spec.games), args.lang)  # a language no game lists: a usage error
    found = checking.findings
    if args.json:
        print(json.dumps(_json(source, found), ensure_ascii=False, indent=2))
        return verdict(found, strict=args.strict)
    for line in shown_findings(found):
        print(line, file=sys.stderr)
    print(_summary(spec, source, found))
    return verdict(found, strict=args.strict)


def shown_findings(found: Sequence[Finding]) -> list[str]:
    """The findings as a terminal shows them: errors first, within an error's bounds
    (`pnp.errors.bounded`: a catalog that lacks every text is hundreds of findings), the rest
    counted with where to read them all."""
    from pnp.errors import MAX_MESSAGE, bounded

    lines = bounded([str(f) for f in sorted(found, key=lambda f: f.severity != "error")], room=MAX_MESSAGE - 40)
    if lines and lines[-1].startswith("… and "):
        lines[-1] += " (pnp validate --json lists every one)"
    return lines


def _json(source: Path, found: Sequence[Finding]) -> dict[str, Any]:
    return {"spec": shown(source), "errors": sum(f.severity == "error" for f in found),
            "warnings": sum(f.severity == "warning" for f in found), "findings": [f.as_json() for f in found]}


def _summary(spec: Spec, source: Path, found: Sequence[Finding]) -> str:
    """What validate says of a spec that lays out: its print settings, each game and its
    components, and how many findings it has."""
    from pnp.spec.faces import piece_count

    card = f"{spec.print.card_mm[0]:g}×{spec.print.card_mm[1]:g} mm"
    lines = [f"{shown(source)}: valid — paper {spec.print.paper}, card {card}, duplex {spec.print.duplex}"]
    for game_id, game in spec.games.items():
        names = ", ".join(a.id for a in game.assets)
        assets = f"{len(game.assets)} {game.asset_key} ({names})" if game.assets else "plain pieces"
        lines.append(f"{game_id}: {game.title} — {assets}, {len(game.components)} components")
        for component in game.components:
            lines.append(f"  {component.id:<16} {component.kind:<7} {piece_count(game, component):>4}  "
                         f"{component.name_en or component.name}")
    lines.append(_counted(found))
    return "\n".join(lines)


def _counted(found: Sequence[Finding]) -> str:
    """How many errors and warnings validate found, the last line of its summary."""
    if not found:
        return "no findings: every check passes"
    errors, warnings = (sum(f.severity == kind for f in found) for kind in ("error", "warning"))
    return (f"{errors} error{'s' if errors != 1 else ''} and {warnings} warning{'s' if warnings != 1 else ''}, "
            "listed above" + ("; --strict fails on a warning" if warnings else ""))


def parse_formats(text: str) -> tuple[str, ...]:
    from pnp.build import FORMATS

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


def parse_inset(text: str | None) -> float | None:
    """`--inset MM`: the registration marks' inset, 3 to 10 mm; None when not given."""
    from pnp.spec.model import INSET_RANGE_MM

    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    least, most = INSET_RANGE_MM
    if not least <= value <= most:
        raise UsageError(f"--inset {text!r}: give the marks' distance from the paper's edges in mm, from "
                         f"{least:g} (a printer that prints borderless) to {most:g}")
    return value


def select_languages(spec: Spec, games: Sequence[str], wanted: Sequence[str] | None) -> tuple[str, ...]:
    """`--lang` values: codes the chosen games list, `all`, or the pseudo-locale; a code no
    chosen game lists is a usage error naming those they do."""
    from pnp.i18n import PSEUDO

    if not wanted:
        return ()
    listed = {code for g in games for code in spec.games[g].kit_languages}
    codes: list[str] = []
    for value in wanted:
        for code in (part.strip() for part in value.split(",") if part.strip()):
            if code not in listed | {"all", PSEUDO}:
                raise UsageError(f"--lang {code}: no game built lists it (they list {', '.join(sorted(listed))}; "
                                 f"also all, or {PSEUDO} for the pseudo-locale)")
            codes.append(code)
    return tuple(dict.fromkeys(codes))


def select_games(spec: Spec, wanted: Sequence[str] | None) -> tuple[str, ...]:
    if not wanted:
        return tuple(spec.games)
    return tuple(dict.fromkeys(pick(g, tuple(spec.games), "--game", "game") or g for g in wanted))


def select_components(spec: Spec, games: Sequence[str], wanted: Sequence[str] | None) -> dict[str, list[str]] | None:
    """`--component ID` (or GAME/ID) → the chosen components of each game, None for all."""
    if not wanted:
        return None
    chosen: dict[str, list[str]] = {}
    for text in wanted:
        for g, c in _component_hits(spec, games, text):
            chosen.setdefault(g, [])
            if c not in chosen[g]:
                chosen[g].append(c)
    return chosen


def _component_hits(spec: Spec, games: Sequence[str], text: str) -> list[tuple[str, str]]:
    """The (game, component) pairs one `--component ID` (or GAME/ID) names, in any case; a
    UsageError with the nearest name for none."""
    from pnp.spec.options import suggestion

    game_id, _, component_id = text.rpartition("/")
    where = [g for g in games if not game_id or g == game_id.lower()]
    hits = [(g, c.id) for g in where for c in spec.games[g].components if c.id.lower() == component_id.lower()]
    if not hits:
        known = sorted({c.id for g in where for c in spec.games[g].components})
        hint = suggestion(component_id, known, any_case=True)
        raise UsageError(f"--component {text}: no such component" + (f" ({hint})" if hint else ""))
    return hits


def report(summary: Summary, source: Path, out: str, seconds: float) -> str:
    """The summary line, a line per kit that prints English or an old translation among its
    language's texts, then per game what changed since the last build in the folder."""
    files = f"{summary.pages} pages to print ({summary.files} files)" if summary.pages else f"{summary.files} files"
    lines = [f"built {', '.join(summary.games)} from {shown(source)}: {files} in {out}{os.sep} ({seconds:.1f} s)"]
    lines += list(summary.languages)  # "bolsa: es: 1 text in English (BOLSA-2.2, changed since translated)"
    for game, found in summary.changes.items():
        lines += change_lines(game, found, summary.reprints.get(game), out, summary.since.get(game))
    return "\n".join(lines)


def change_lines(game: str, found: Sequence[Change] | None, reprint: str | None, out: str,
                 since: Since | None = None) -> list[str]:
    """What changed in a game's sheets since `since` (default: the last build), a line each."""
    from pnp import changes

    since = since or changes.SINCE_LAST_BUILD
    if found is None:
        return []
    if not found:
        return [f"{game}: nothing changed since {since.words()}"]
    sheets = sum(len(c.sheets) for c in found)
    where = f" → {Path(out) / reprint}" if reprint else ""
    head = f"{game}: {sheets} sheet{'s' if sheets != 1 else ''} to print{where}"
    if since != changes.SINCE_LAST_BUILD:
        head += f" (changed since {since.words()})"
    return [head] + [f"  {c.component}: {changes.action(c)}" for c in found]


class _Bars:
    """A tqdm progress bar per game on stderr, counting its components as they are ready."""

    def __init__(self) -> None:
        self.bars: dict[str, Any] = {}

    def begin(self, totals: Mapping[str, int]) -> None:
        import shutil

        from tqdm import tqdm

        width = shutil.get_terminal_size().columns or 80  # a terminal that gives no size gets 80 columns
        for position, (game, total) in enumerate(totals.items()):
            self.bars[game] = tqdm(total=total, desc=f"{game:<10}", position=position, leave=False, file=sys.stderr,
                                   ncols=width, bar_format="{desc} {bar} {n_fmt}/{total_fmt} {elapsed} {postfix}")

    def doing(self, game: str, what: str) -> None:
        self.bars[game].set_postfix_str(what)

    def done(self, game: str, component: str) -> None:
        self.bars[game].update(1)

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()


@contextmanager
def progress_bars(quiet: bool = False) -> Iterator[Progress]:
    """Progress bars on stderr when it is a terminal and not `quiet`; else a silent Progress."""
    from pnp.build import Silent

    if quiet or not sys.stderr.isatty():
        yield Silent()
        return
    bars = _Bars()
    try:
        yield bars
    finally:
        bars.close()


# --- what every command shares ------------------------------------------------------------


def spec_path(given: str | None) -> Path:
    """The spec file a command reads: `--spec`, else ./components.yaml, else the bundled one."""
    from pnp.spec.source import default_spec_path

    return Path(given) if given else default_spec_path()


def pick(value: str | None, known: Sequence[str], option: str, noun: str) -> str | None:
    """`value` matched against `known` whatever its letter case, or a usage error with a
    suggestion: '--game bolso: no such game (did you mean "bolsa"?)'."""
    from pnp.spec.options import suggestion

    if value is None:
        return None
    match = next((name for name in known if name.casefold() == value.casefold()), None)
    if match is None:
        hint = suggestion(value, list(known), any_case=True)
        raise UsageError(f"{option} {value}: no such {noun}" + (f" ({hint})" if hint else ""))
    return match


# --- pnp watch ------------------------------------------------------------------------------


def watch(args: argparse.Namespace) -> int:
    """Build, then rebuild (incrementally) each time the spec file is saved, until Ctrl-C. A
    save that breaks the spec prints the located errors; the output keeps the last good build.
    With `--serve`, the gallery is served on 127.0.0.1 and the open page follows each build
    (`pnp.preview`)."""
    from watchfiles import watch as saves

    from pnp.export.pictures import KEPT, MAKE, SERVE, Store

    source = spec_path(args.spec)
    targets = {source.absolute(), source.resolve()}
    serve = getattr(args, "serve", False)
    pictures = Store(MAKE if getattr(args, "gallery", False) else SERVE if serve else KEPT)  # for every build
    preview = _serve(args, pictures) if serve else None
    print(f"watching {source}; Ctrl-C stops", flush=True)
    built = _saved(source)
    _said(preview, _rebuild(args, pictures))
    try:
        # A save made while the first build ran, before the watcher was up, raises no event:
        # the watcher also wakes each second and compares the file with what was last built.
        for changes in saves(*{t.parent for t in targets}, recursive=False, step=20, rust_timeout=1000,
                             yield_on_timeout=True,
                             watch_filter=lambda _change, path: Path(path) in targets or Path(path).resolve() in targets):
            if changes or _saved(source) != built:
                built = _saved(source)
                _said(preview, _rebuild(args, pictures))
    except KeyboardInterrupt:
        pass
    finally:
        if preview is not None:
            preview.stop()
    return 0


def _saved(source: Path) -> bytes | None:
    """The spec file as saved now (None while it is missing), to tell a missed save."""
    try:
        return source.read_bytes()
    except OSError:
        return None


def _serve(args: argparse.Namespace, pictures: Any) -> Any:
    from pnp.preview import Preview

    port = getattr(args, "port", 8765)
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: give a port from 1 to 65535 (0: any free one)")
    preview = Preview(Path(args.out), port=port, pictures=pictures)
    try:
        address = preview.start()
    except OSError as error:
        raise UsageError(f"--port {port}: cannot serve there ({error})") from None
    print(f"live preview: {address}", flush=True)
    return preview


def _said(preview: Any, errors: list[str]) -> None:
    if preview is not None:
        preview.said(errors)


def _rebuild(args: argparse.Namespace, pictures: Any) -> list[str]:
    """One build of the watched spec; a save that cannot be built is answered as `validate`
    answers it (and even a bug in pnp only costs that build): the lines said, the last good
    output kept. Returns the problems, for the live preview."""
    from pnp.errors import PnpError

    try:
        run_build(args, pictures)
        return []
    except PnpError as error:
        lines = error.lines()
    except (Exception, RecursionError, MemoryError) as error:  # a bug in pnp, not in the save: keep watching
        lines = [f"pnp: internal error: {type(error).__name__}: {str(error)[:300]}"]
    for line in lines:
        print(line, file=sys.stderr, flush=True)
    print(f"not built: {args.out}{os.sep} keeps the last good build", file=sys.stderr, flush=True)
    return lines
