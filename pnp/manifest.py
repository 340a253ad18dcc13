"""The output folder: its `manifest.json`, and replacing it all at once.

The manifest lists every file a build wrote and every component, for tools and print shops.
It is part of the build's output, so it is reproducible like the PDFs: entries sorted, no
timestamps. A build of some games (`--game`) keeps the other games' entries and files, so the
manifest always describes everything in the folder.

A build writes into a staging folder beside the output and `publish` swaps it in only when
everything succeeded; until then, and after any failure, the old output is untouched.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from pnp.errors import BuildError

MANIFEST = "manifest.json"


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


def file_entry(root: Path, path: Path, game: str, component: str | None, fmt: str, pages: int) -> FileEntry:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return FileEntry(path.relative_to(root).as_posix(), game, component, fmt, pages, digest)


def read(root: Path) -> dict[str, Any] | None:
    """The manifest of an earlier build in `root`, or None if there is none (or it is unreadable)."""
    try:
        data = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def games_in(manifest: dict[str, Any] | None) -> set[str]:
    """The games an earlier manifest describes."""
    if not manifest:
        return set()
    entries = [*manifest.get("files", []), *manifest.get("components", [])]
    return {e["game"] for e in entries if isinstance(e, dict) and isinstance(e.get("game"), str)}


def merged(old: dict[str, Any] | None, files: Iterable[FileEntry], components: Iterable[ComponentEntry],
           rebuilt: Sequence[str], version: str) -> dict[str, Any]:
    """The new manifest: this build's entries plus the old entries of games it did not rebuild."""
    def kept(key: str) -> list[dict[str, Any]]:
        entries = (old or {}).get(key, [])
        return [e for e in entries if isinstance(e, dict) and e.get("game") not in rebuilt]

    file_list = kept("files") + [asdict(f) for f in files]
    component_list = kept("components") + [{**asdict(c), "size_mm": list(c.size_mm)} for c in components]
    return {
        "pnp": version,
        "files": sorted(file_list, key=lambda e: e["path"]),
        "components": sorted(component_list, key=lambda e: (e["game"], e["id"])),
    }


def write(root: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=2, ensure_ascii=False, sort_keys=True)
    (root / MANIFEST).write_text(text + "\n", encoding="utf-8")


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


@contextmanager
def staging(out: Path) -> Iterator[Path]:
    """A fresh folder beside `out` to build into; removed if the build fails."""
    out.parent.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f".{out.name}-building-", dir=out.parent))
    os.chmod(folder, 0o777 & ~_umask())  # mkdtemp's folder is private; an output folder is not
    try:
        yield folder
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def publish(staging_folder: Path, out: Path, replaced: set[str]) -> None:
    """Carry over what this build did not write (other games, the user's own files), then put
    the staging folder in place of `out`, whose old copy is then removed."""
    if out.is_dir():
        for entry in sorted(out.iterdir()):
            target = staging_folder / entry.name
            if entry.name == MANIFEST or entry.name in replaced or target.exists():
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.copytree(entry, target, symlinks=True, copy_function=_link_or_copy)
            else:
                _link_or_copy(entry, target)
    if not out.exists():
        os.rename(staging_folder, out)
        return
    retired = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
    os.rename(out, retired / out.name)
    try:
        os.rename(staging_folder, out)
    except OSError:
        os.rename(retired / out.name, out)
        raise
    shutil.rmtree(retired, ignore_errors=True)


def _link_or_copy(source: Any, target: Any) -> None:
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
