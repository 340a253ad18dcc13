"""`output/manifest.json`: every file a build wrote and every component, for tools and print shops.

The manifest is part of the build's output, so it is reproducible like the PDFs: entries sorted,
no timestamps. A build of some games (`--game`) keeps the other games' entries, so the
manifest always describes everything in the output folder.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

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
