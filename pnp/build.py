"""`pnp build`: the spec → components → sheets → files, atomically and reproducibly.

Each game's components are generated, laid out (pieces imposed with their backs, panels on
their own sheets or tiled) and written to `<out>/<game>/`: one PDF per component, the game's
combined print file `<game>-all.pdf` opening with its print instructions, and on request SVG
pages and PNG pieces. Everything is written to a fresh folder beside the output and swapped in
only when the whole build succeeded, so a failed build leaves the previous output as it was.
The same spec gives the same bytes: PDFs are written in reportlab's invariant mode and the
manifest carries no time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from pnp import __version__, manifest
from pnp.components import Context, Panels, Pieces, generate
from pnp.display import Page
from pnp.errors import BuildError, PnpError
from pnp.layout.impose import Imposition, impose
from pnp.layout.instructions import Job, blank_back, instructions_page, sides_text
from pnp.layout.sheet import Furniture, frame, stamp
from pnp.layout.tile import Tiling, tile
from pnp.spec.faces import piece_count
from pnp.spec.model import Game, Spec

FORMATS = ("pdf", "svg", "png")
PIECE_DPI = 300
PANEL_DPI = 150
NOUNS = {"deck": "card", "tokens": "token", "money": "bill", "board": "board", "mat": "mat", "aid": "aid", "form": "form"}
STOCK = {"deck": "card stock", "tokens": "card stock", "money": "paper", "board": "card stock, or paper glued to card",
         "mat": "card stock", "aid": "paper", "form": "paper"}


class UsageError(PnpError):
    """A command-line value pnp cannot use (an unknown game or format)."""

    exit_code = 2


@dataclass(frozen=True)
class Laid:
    """One component, generated and laid out on sheets."""

    component: Any
    output: Pieces | Panels
    layout: Imposition | Tiling

    @property
    def pages(self) -> tuple[Page, ...]:
        return self.layout.pages

    @property
    def double_sided(self) -> bool:
        return isinstance(self.layout, Imposition) and self.layout.duplex in ("long", "short")


@dataclass(frozen=True)
class Summary:
    games: tuple[str, ...]
    files: int
    pages: int  # PDF pages, combined files included
    seconds: float


# --- command line ---------------------------------------------------------------------------


def build_from_args(args: argparse.Namespace) -> int:
    """`pnp build` with the CLI's options; prints a summary and returns the exit status."""
    from pnp.cli import load_spec

    started = time.perf_counter()
    formats = parse_formats(args.format)
    spec = with_print(load_spec(args.spec), paper=args.paper, duplex=args.duplex)
    games = select_games(spec, args.game)
    out = Path(args.out)
    summary = build(spec, out, games, formats)
    seconds = time.perf_counter() - started
    print(f"built {', '.join(summary.games)}: {summary.files} files, {summary.pages} PDF pages "
          f"in {out}{os.sep} ({seconds:.1f} s)")
    return 0


def parse_formats(text: str) -> tuple[str, ...]:
    formats = tuple(dict.fromkeys(f.strip().lower() for f in text.split(",") if f.strip()))
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise UsageError(f"--format {text!r}: choose from {', '.join(FORMATS)}, separated by commas")
    return formats


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
    started = time.perf_counter()
    out = Path(os.path.abspath(out))
    old = _check_output(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-building-", dir=out.parent))
    os.chmod(staging, 0o777 & ~_umask())  # mkdtemp's folder is private; the output is not
    try:
        files: list[manifest.FileEntry] = []
        components: list[manifest.ComponentEntry] = []
        for game_id in games:
            game_files, game_components = build_game(spec, game_id, staging, formats)
            files += game_files
            components += game_components
        # a build of every game also drops the folders of games no longer in the spec
        replaced = set(games) | (manifest.games_in(old) if set(games) == set(spec.games) else set())
        _carry_over(out, staging, replaced)
        manifest.write(staging, manifest.merged(old, files, components, sorted(replaced), __version__))
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    pages = sum(f.pages for f in files if f.format == "pdf")
    return Summary(tuple(games), len(files), pages, time.perf_counter() - started)


def build_game(spec: Spec, game_id: str, root: Path, formats: Sequence[str]
               ) -> tuple[list[manifest.FileEntry], list[manifest.ComponentEntry]]:
    """Every file of one game under `root/<game_id>/`."""
    from pnp.render.pdf import pdf_bytes

    game = spec.games[game_id]
    folder = root / game_id
    folder.mkdir(parents=True)
    settings = spec.print
    context = Context(game_id, game, settings)
    version_stamp = stamp(__version__, game.model_dump_json())
    _check_names(game_id, game)
    laid = [lay_out(context, component, version_stamp) for component in game.components]

    files: list[manifest.FileEntry] = []
    for item in laid:
        component = item.component
        data = pdf_bytes(item.pages, title=f"{game.title} — {_name(component)}", subject=game_id)
        if "pdf" in formats:
            path = folder / f"{component.id}.pdf"
            path.write_bytes(data)
            files.append(manifest.file_entry(root, path, game_id, component.id, "pdf", len(item.pages)))
        if "svg" in formats:
            files += _svgs(root, folder, game_id, item)
        if "png" in formats:
            files += _pngs(root, folder, game_id, item, data)
    if "pdf" in formats:
        combined = combined_pages(game, laid, settings, version_stamp)
        path = folder / f"{game_id}-all.pdf"
        path.write_bytes(pdf_bytes(combined, title=f"{game.title} — print-and-play", subject=game_id))
        files.append(manifest.file_entry(root, path, game_id, None, "pdf", len(combined)))
    components = [_component_entry(game_id, game, item) for item in laid]
    return files, components


def lay_out(context: Context, component: Any, version_stamp: str) -> Laid:
    """Generate one component and put it on sheets."""
    settings = context.settings
    info = Furniture(context.game.title, _name(component), version_stamp)
    output = generate(context, component)
    if isinstance(output, Pieces):
        layout: Imposition | Tiling = impose(output, settings.paper, settings.margin_mm, settings.duplex, info,
                                             tuple(settings.back_offset_mm))  # type: ignore[arg-type]
    else:
        layout = tile(output, settings.paper, settings.margin_mm, info)
    return Laid(component, output, layout)


def combined_pages(game: Game, laid: Sequence[Laid], settings: Any, version_stamp: str) -> list[Page]:
    """The instructions, then every sheet: double-sided components first (so each starts on an
    odd page), card stock before paper, otherwise in spec order."""
    order = sorted(range(len(laid)), key=lambda i: (not laid[i].double_sided, not _stock(laid[i]).startswith("card"), i))
    f = frame(settings.paper, settings.margin_mm)
    info = Furniture(game.title, "print instructions", version_stamp)
    lead = 2 if any(item.double_sided for item in laid) else 1
    jobs, pages, first = [], [], lead + 1
    for i in order:
        item = laid[i]
        jobs.append(_job(item, first))
        pages += item.pages
        first += len(item.pages)
    front = instructions_page(f, info, settings.paper, jobs, title_en=game.title_en,
                              back_offset=tuple(settings.back_offset_mm))  # type: ignore[arg-type]
    return [front, *([blank_back(f, info)] if lead == 2 else []), *pages]


def _job(item: Laid, first: int) -> Job:
    component, layout = item.component, item.layout
    count = len(item.output.pieces) if isinstance(item.output, Pieces) else len(item.output.drawings)
    noun = NOUNS.get(component.kind, "piece")
    contents = f"{count} {noun}{'s' if count != 1 else ''}"
    assembly = ""
    if isinstance(layout, Tiling):
        duplex = "none"
        if layout.tiled:
            t = next(t for t in layout.tiles if t.rows * t.columns > 1)
            contents += f" on {layout.sheets} sheets"
            rows, columns = t.rows, t.columns
            assembly = f"{rows} row{'s' if rows > 1 else ''} × {columns} column{'s' if columns > 1 else ''} of sheets"
    else:
        duplex = layout.duplex
    return Job(_name(component), (first, first + len(layout.pages) - 1), layout.sheets, contents,
               sides_text(duplex), _stock(item), assembly)


def _stock(item: Laid) -> str:
    return STOCK.get(item.component.kind, "paper")


def _name(component: Any) -> str:
    name_en = getattr(component, "name_en", "")
    return f"{component.name} · {name_en}" if name_en and name_en != component.name else component.name


def _component_entry(game_id: str, game: Game, item: Laid) -> manifest.ComponentEntry:
    output = item.output
    if isinstance(output, Pieces):
        size = (output.width, output.height)
    else:
        size = (output.drawings[0].width, output.drawings[0].height) if output.drawings else (0.0, 0.0)
    component = item.component
    return manifest.ComponentEntry(game_id, component.id, component.kind, piece_count(game, component),
                                   (round(size[0], 3), round(size[1], 3)))


def _check_names(game_id: str, game: Game) -> None:
    if any(c.id == f"{game_id}-all" for c in game.components):
        raise BuildError(f"{game_id}: a component may not be called {game_id}-all, the name of the combined print file")


# --- SVG and PNG ----------------------------------------------------------------------------


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
    rendered: dict[Any, bytes] = {}  # identical faces (18 cards of a company) are drawn once
    outputs: list[tuple[str, bytes]] = []
    if isinstance(item.output, Pieces):
        for number, piece in enumerate(item.output.pieces, 1):
            for side, drawing in (("front", piece.front), ("back", piece.back)):
                if drawing is not None:
                    if drawing not in rendered:
                        rendered[drawing] = drawing_png(drawing, PIECE_DPI)
                    outputs.append((f"{number:03d}-{side}.png", rendered[drawing]))
    else:
        outputs = [(f"p{n:02d}.png", page_png(pdf, n - 1, PANEL_DPI)) for n in range(1, len(item.pages) + 1)]
    files = []
    for name, data in outputs:
        path = target / name
        path.write_bytes(data)
        files.append(manifest.file_entry(root, path, game_id, item.component.id, "png", 1))
    return files


# --- the output folder ----------------------------------------------------------------------


def _check_output(out: Path) -> dict[str, Any] | None:
    """The earlier manifest; refuses a folder pnp did not write, since a build replaces it."""
    if not out.exists():
        return None
    if not out.is_dir():
        raise BuildError(f"{out} exists and is not a folder; choose another --out")
    old = manifest.read(out)
    if old is None and any(out.iterdir()):
        raise BuildError(f"{out} is not empty and has no {manifest.MANIFEST}, so it is not a pnp output "
                         "folder; a build replaces its folder: choose another --out or empty it")
    return old


def _carry_over(out: Path, staging: Path, replaced: set[str]) -> None:
    """Keep what the build did not write: other games' folders and the user's own files."""
    if not out.is_dir():
        return
    for entry in sorted(out.iterdir()):
        if entry.name == manifest.MANIFEST or entry.name in replaced or (staging / entry.name).exists():
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, staging / entry.name, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(entry, staging / entry.name)


def _link_or_copy(source: Any, target: Any) -> None:
    """A hard link where the file system allows it (cheap, and the old file is untouched), else a copy."""
    try:
        if os.path.islink(source):
            raise OSError
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target, follow_symlinks=False)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _swap(staging: Path, out: Path) -> None:
    """Put the finished build in place of the old output, which is then removed."""
    if not out.exists():
        os.rename(staging, out)
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
    os.rename(out, retired / out.name)
    try:
        os.rename(staging, out)
    except OSError:
        os.rename(retired / out.name, out)
        raise
    shutil.rmtree(retired, ignore_errors=True)

