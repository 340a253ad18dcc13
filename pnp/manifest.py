"""The output folder: its `manifest.json`, and replacing it all at once.

The manifest lists every file a build wrote and every component, for tools and print shops.
It is part of the build's output, so it is reproducible like the PDFs: entries sorted, no
timestamps. A build of some games (`--game`) or components (`--component`) keeps the other
entries and files, so the manifest always describes everything in the folder. Its fields:

- `pnp`: the version that wrote it; `spec`: `{"path", "sha256"}` of the spec file of the last
  build; `print`: `{"paper", "duplex"}` it was made for.
- `files`: every file, `{"path", "game", "component", "format", "pages", "sha256"}`;
  `component` is null for a game's combined print file (`<game>-all.pdf`) and its reprint
  file (`<game>-reprint.pdf`).
- `components`: `{"game", "id", "kind", "count", "size_mm", "stamp", "sheets", "pages",
  "duplex", "inputs"}`, about each component's own file: `stamp` is the digest printed in the
  footer of its sheets, a hash of what it prints and of the print settings that shape it;
  `sheets` the digest of each sheet of paper in order (a front page with its backs; stamps
  left out), which is how the next build tells which sheets changed; `duplex` how it is
  printed (long, short, fold or none); `inputs` the cache key of what it was drawn from.
- `units`: the print units of each game's combined file, in order, `{"game", "id",
  "components", "stamp", "sheets", "pages", "duplex"}`: a component's own sheets, or sheets
  that several components share (`id` "dividends+certificates", their own stamp).
- `changed`: what the last build changed, compared with the manifest it replaced, as
  `{"game", "component", "components", "status", "sheets", "dropped", "before"}`: the unit of
  the combined file (`component` its id, `components` the component ids in it; with
  `--component`, the component file); status "added", "changed" or "removed"; `sheets` the
  1-based sheets to print (changed or new), `dropped` the sheets to throw away, `before` how
  many sheets it had. Empty when nothing changed, or when there was no earlier build to compare with.
- `printed`: each game's mark, `{"game", "stamp", "units": [{"id", "sheets"}]}`: the print
  units of its build last marked as printed (`pnp build --printed`) and the stamp on that
  build's print instructions. Change lists and reprint files count from it until another
  mark replaces it, whatever is built in between.
- `faces` (written by `pnp.export`): each distinct face of each component, `{"game",
  "component", "face", "side", "quantity", "size_mm", "bleed_mm", "thumbnail"}`:
  `face` names its files (`<component>-<face>.png`), `quantity` the pieces printed with it,
  `thumbnail` its picture in the gallery; `pieces`: each kind of piece, `{"game", "component",
  "front", "back", "quantity"}`; `plan`: each game's print plan, the rows of its instructions.
- `findings` (written by `pnp.build`): what the checks found on each kit built
  (`pnp.findings.Finding.as_json`: `{"check", "severity", "message", "fix", "file", "line",
  "col", "path", "game", "kit", "component", "face", "box"}`), the list `pnp validate` prints
  and the gallery shows.
  The gallery, `index.html`, and its pictures (`<game>/gallery/`) are not in `files`.

An earlier manifest is read as any file from elsewhere is (`read`, `read_manifest`: the
output folder may come from a shared drive, `--since` names any file): a regular file of at
most MAX_BYTES, JSON nested at most MAX_DEPTH deep, and every value pnp takes from it typed —
games and ids as names (letters, digits and `_ - . +`), sheets as digests, file paths relative
and inside the folder, counts as whole numbers (`_typed`). Anything else makes it no manifest
of pnp's, so no id of it reaches a page, a terminal or a file name unchecked.

A build writes into a staging folder beside the output and `publish` swaps it in only when
everything succeeded; until then, and after any failure, the old output is untouched. The swap
is one atomic exchange of the two folders where the system allows (so `output/` is the old or
the new build at every instant), else two renames that the next build's `recover` completes
if a kill came between them; `recover` also removes what killed builds left behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from pnp.disk import NotJSON, read_json, said, whole, write_atomically
from pnp.errors import BuildError, UsageError, brief, shorten

MANIFEST = "manifest.json"
MAX_BYTES = 20_000_000  # of a manifest: some forty times that of the nine bundled kits
MAX_DEPTH = 12  # how deep its JSON nests (pnp writes 5: a face's pre-flight box)
MAX_SHEETS = 10_000  # digests of one component or print unit
Entry = dict[str, Any]  # one entry of a manifest's lists (files, components, faces, …), as its JSON reads
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,3000}$")  # a game, a kit, an id, a unit's "a+b"
_DIGEST = re.compile(r"^[0-9a-f]{1,64}$")


@dataclass(frozen=True)
class FileEntry:
    path: str  # relative to the output folder, with "/"
    game: str
    component: str | None  # None for a game's combined print file
    format: str  # "pdf" | "svg" | "png"
    pages: int
    sha256: str


@dataclass(frozen=True)
class ComponentEntry:
    game: str
    id: str
    kind: str
    count: int  # physical pieces: 90 for a 90-card deck, 6 for six mats
    size_mm: tuple[float, float]  # one piece; for panels the drawing
    stamp: str  # the digest in the footer of its sheets
    sheets: tuple[str, ...]  # each sheet's digest, stamps left out
    pages: int
    duplex: str  # as printed: long | short | fold | none
    inputs: str  # the cache key of what it was drawn from


@dataclass(frozen=True)
class UnitEntry:
    game: str
    id: str  # the components' ids joined by "+"
    components: tuple[str, ...]
    stamp: str
    sheets: tuple[str, ...]
    pages: int
    duplex: str


@dataclass(frozen=True)
class Change:
    """One component that a build changed, compared with the build before it."""

    game: str
    component: str
    status: str  # "added" | "changed" | "removed"
    sheets: tuple[int, ...]  # 1-based sheets to print: changed or new
    dropped: tuple[int, ...] = ()  # sheets that no longer exist
    before: int = 0  # how many sheets it had


def file_entry(root: Path, path: Path, game: str, component: str | None, fmt: str, pages: int) -> FileEntry:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return FileEntry(path.relative_to(root).as_posix(), game, component, fmt, pages, digest)


def write_file(root: Path, path: Path, data: bytes, game: str, component: str | None, pages: int) -> FileEntry:
    """Write a PDF and return its entry."""
    path.write_bytes(data)
    return FileEntry(path.relative_to(root).as_posix(), game, component, "pdf", pages, hashlib.sha256(data).hexdigest())


class NotAManifest(ValueError):
    """A file that is no manifest of pnp's: the message says where and why."""


def read(root: Path) -> dict[str, Any] | None:
    """The manifest of an earlier build in `root`, or None if there is none (or it is not one)."""
    try:
        return load(root / MANIFEST)
    except NotAManifest:
        return None


def read_manifest(path: Path) -> dict[str, Any]:
    """An earlier build's manifest named on the command line (`--since`): its file, or the
    output folder holding it; a UsageError saying why when it is not one."""
    try:
        found = load(path / MANIFEST if path.is_dir() else path)
    except NotAManifest as error:
        raise UsageError(f"--since {shorten(str(path), 200)}: {error}") from None
    if not isinstance(found.get("units"), list):
        raise UsageError(f"--since {shorten(str(path), 200)}: not the manifest.json of a pnp build (it lists no units)")
    return found


def load(path: Path) -> dict[str, Any]:
    """A manifest file read within bounds and typed (see the module's docstring)."""
    try:
        found = read_json(path, MAX_BYTES, MAX_DEPTH)
    except OSError as error:
        raise NotAManifest(f"the file {said(error)}") from None
    except NotJSON as error:
        raise NotAManifest(f"not a manifest: {error}") from None
    if not isinstance(found, dict):
        raise NotAManifest("not a manifest: not a JSON object")
    _typed(found)
    return found


# What pnp takes from an earlier manifest, by list and field: each value's kind.
_FIELDS: dict[str, dict[str, str]] = {
    "files": {"path": "path", "game": "name", "component": "name?", "pages": "count", "sha256": "digest"},
    "components": {"game": "name", "id": "name", "sheets": "digests", "pages": "count", "stamp": "digest"},
    "units": {"game": "name", "id": "name", "components": "names", "sheets": "digests", "pages": "count",
              "stamp": "digest"},
    "printed": {"game": "name", "stamp": "digest", "units": "marks"},
    "changed": {"game": "name", "component": "name"},
    "faces": {"game": "name", "component": "name", "face": "name", "thumbnail": "path?"},
    "pieces": {"game": "name", "component": "name"},
    "plan": {"game": "name"},
}


def _typed(manifest: dict[str, Any]) -> None:
    """NotAManifest at the first value pnp would take that is not of its kind."""
    for key, fields in _FIELDS.items():
        entries = manifest.get(key, [])
        if not isinstance(entries, list):
            raise NotAManifest(f"{key}: expected a list, got {brief(entries)}")
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise NotAManifest(f"{key}[{index}]: expected an object, got {brief(entry)}")
            for field_name, kind in fields.items():
                if field_name in entry and not _of_kind(entry[field_name], kind):
                    raise NotAManifest(f"{key}[{index}].{field_name}: expected {_KINDS[kind.rstrip('?')]}, got "
                                       f"{brief(entry[field_name])}")


_KINDS = {"name": "a name (letters, digits, _ - . +)", "names": "a list of names", "path": "a path inside the folder",
          "count": "a whole number", "digest": "a hexadecimal digest", "digests": f"at most {MAX_SHEETS:,} digests",
          "marks": "a list of {id, sheets}"}


def _of_kind(value: Any, kind: str) -> bool:
    if kind.endswith("?"):
        return value is None or _of_kind(value, kind[:-1])
    return _IS[kind](value)


def _name(value: Any) -> bool:
    return isinstance(value, str) and _NAME.match(value) is not None


def _digest(value: Any) -> bool:
    return isinstance(value, str) and _DIGEST.match(value) is not None


def _path(value: Any) -> bool:
    """A file inside the output folder: relative, no `..`, no backslash, no NUL."""
    return isinstance(value, str) and 0 < len(value) <= 1000 and not value.startswith("/") and \
        "\\" not in value and "\x00" not in value and ".." not in value.split("/")


def _digests(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= MAX_SHEETS and all(_digest(v) for v in value)


_IS: dict[str, Callable[[Any], bool]] = {
    "name": _name, "digest": _digest, "path": _path, "digests": _digests,
    "names": lambda value: isinstance(value, list) and all(_name(v) for v in value),
    "count": lambda value: whole(value, 0, 10**9),
    "marks": lambda value: isinstance(value, list) and all(isinstance(v, dict) and _name(v.get("id"))
                                                           and _digests(v.get("sheets")) for v in value),
}



def printed_mark(manifest: dict[str, Any] | None, game: str) -> dict[str, Any] | None:
    """A game's mark in a manifest's `printed`: the stamp and print units of its build last
    marked as printed, or None."""
    marks = (manifest or {}).get("printed", [])
    for mark in marks if isinstance(marks, list) else []:
        if isinstance(mark, dict) and mark.get("game") == game and isinstance(mark.get("units"), list) \
                and isinstance(mark.get("stamp"), str):
            return mark
    return None


def games_in(manifest: dict[str, Any] | None) -> set[str]:
    """The games an earlier manifest describes."""
    if not manifest:
        return set()
    entries = [*manifest.get("files", []), *manifest.get("components", [])]
    return {e["game"] for e in entries if isinstance(e, dict) and isinstance(e.get("game"), str)}


def entries(manifest: dict[str, Any] | None, key: str, game: str) -> list[dict[str, Any]]:
    """The `files` or `components` entries of one game in an earlier manifest."""
    found = (manifest or {}).get(key, [])
    return [e for e in found if isinstance(e, dict) and e.get("game") == game] if isinstance(found, list) else []


def merged(old: dict[str, Any] | None, files: Iterable[FileEntry], components: Iterable[ComponentEntry],
           units: Iterable[UnitEntry], rebuilt: Callable[[dict[str, Any]], bool], about: dict[str, Any],
           changed: Sequence[Change]) -> dict[str, Any]:
    """The new manifest: this build's entries, the old entries it did not rebuild (`rebuilt`
    says which old entries it replaced), and `about` (pnp, spec and print)."""
    def kept(key: str) -> list[dict[str, Any]]:
        found = (old or {}).get(key, [])
        return [e for e in found if isinstance(e, dict) and not rebuilt(e)] if isinstance(found, list) else []

    file_list = kept("files") + [asdict(f) for f in files]
    component_list = kept("components") + [_json(asdict(c)) for c in components]
    unit_list = kept("units") + [_json(asdict(u)) for u in units]  # in print order within a game
    return {
        **about,
        "files": sorted(file_list, key=lambda e: e["path"]),
        "components": sorted(component_list, key=lambda e: (e["game"], e["id"])),
        "units": sorted(unit_list, key=lambda e: e["game"]),  # stable: each game's order is kept
        "changed": [{**_json(asdict(c)), "components": c.component.split("+")} for c in changed],
    }


def _json(entry: dict[str, Any]) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, tuple) else value for key, value in entry.items()}


def write(root: Path, manifest: dict[str, Any]) -> None:
    """The manifest, with the printed mark, flushed to disk before the folder is published."""
    text = json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=True)
    write_atomically(root / MANIFEST, (text + "\n").encode("utf-8"))


# --- the folder -----------------------------------------------------------------------------


def check_output(out: Path) -> dict[str, Any] | None:
    """The manifest of the build in `out`, if any; refuses a folder pnp did not write, since a
    build replaces its output folder."""
    if not out.exists():
        return None
    if not out.is_dir():
        raise BuildError(f"{out} exists and is not a folder; choose another --out")
    old = read(out)
    if old is None and any(out.iterdir()):
        raise BuildError(f"{out} is not empty and has no {MANIFEST}, so it is not a pnp output folder; "
                         "a build replaces its folder: choose another --out or empty it")
    return old


STAGING, RETIRED = "building", "old"  # `.<out>-building-<pid>-…`: a build's staging folder; `-old-`: a replaced output


@contextmanager
def staging(out: Path) -> Iterator[Path]:
    """A fresh folder beside `out` to build into (named with this process's id, so the next
    build can tell one left by a killed build); removed if the build fails."""
    out.parent.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=_prefix(out, STAGING, os.getpid()), dir=out.parent))
    os.chmod(folder, 0o777 & ~_umask())  # mkdtemp's folder is private; an output folder is not
    try:
        yield folder
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def publish(staging_folder: Path, out: Path, replaced: set[str]) -> None:
    """Carry over what this build did not write (other games, the user's own files), then put
    the staging folder in place of `out` in one step — the two folders exchanged where the
    file system can (Linux's `renameat2`), else `out` renamed aside and the staging folder
    renamed in, which `recover` undoes at the next start if a kill came between — and remove
    the old copy."""
    if out.is_dir():
        _carry_over(out, staging_folder, replaced)
    if not out.exists():
        os.rename(staging_folder, out)
        return
    if _exchange(staging_folder, out):
        shutil.rmtree(staging_folder, ignore_errors=True)  # it holds the old output now
        return
    retired = out.parent / f"{_prefix(out, RETIRED, os.getpid())}{staging_folder.name.rsplit('-', 1)[-1]}"
    os.rename(out, retired)
    try:
        os.rename(staging_folder, out)
    except OSError:
        os.rename(retired, out)
        raise
    shutil.rmtree(retired, ignore_errors=True)


def _carry_over(out: Path, staging_folder: Path, replaced: set[str]) -> None:
    """What `out` holds that this build did not write (nor replaces), linked into the staging
    folder: other games' files, the user's own."""
    for entry in sorted(out.iterdir()):
        target = staging_folder / entry.name
        if entry.name == MANIFEST or entry.name in replaced or target.exists():
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, target, symlinks=True, copy_function=link_or_copy)
        else:
            link_or_copy(entry, target)


def recover(out: Path) -> None:
    """Undo what killed builds left beside `out`: the previous output put back when a kill came
    between the two renames of `publish` (there is no `out`, but its retired copy), and the
    staging folders and retired copies of builds that are no longer running removed."""
    if not out.parent.is_dir():
        return
    left = _left_behind(out)
    retired = sorted((p for p in left if p.name.startswith(f".{out.name}-{RETIRED}-")), key=lambda p: p.stat().st_mtime)
    if retired and not os.path.lexists(out):
        os.rename(retired.pop(), out)  # the newest: the output as it was before the killed build
    for folder in left:
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)


def _left_behind(out: Path) -> list[Path]:
    """The staging folders and retired outputs of `out` whose builds are gone."""
    return [p for p in out.parent.iterdir() if p.is_dir() and not p.is_symlink() and _left_by_dead(out, p)]


def _prefix(out: Path, kind: str, pid: int) -> str:
    return f".{out.name}-{kind}-{pid}-"


def _left_by_dead(out: Path, folder: Path) -> bool:
    """Whether `folder` is a staging folder or retired output of `out` whose build is gone."""
    for kind in (STAGING, RETIRED):
        head = f".{out.name}-{kind}-"
        if folder.name.startswith(head):
            pid = folder.name[len(head):].split("-", 1)[0]
            return pid.isdigit() and not _running(int(pid))
    return False


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


_RENAME_EXCHANGE = 2  # linux/fs.h


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one atomic step (Linux's renameat2 with RENAME_EXCHANGE); False
    where the system or the file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_cwd = -100  # AT_FDCWD: the paths are absolute or relative to the working folder
    done: int = renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), _RENAME_EXCHANGE)
    return done == 0


def link_or_copy(source: Any, target: Any) -> None:
    """A hard link where the file system allows (cheap; the old file is never written), else a copy."""
    try:
        if os.path.islink(source):
            raise OSError("copy links as links")
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target, follow_symlinks=False)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
