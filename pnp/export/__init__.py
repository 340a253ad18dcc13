"""Exports beyond the home printer, from the drawings a build made.

`faces` finds each component's distinct faces (a 90-card deck prints 5 fronts and 1 back) and
writes them as images (`--format png`); `profiles` writes a print shop's files (`--profile`);
`tts` writes Tabletop Simulator sheets and a saved object (`--format tts`); `gallery` shows it
all in `output/index.html`, with what the checks found (`pnp.checks`, recorded in the
manifest). Nothing here lays out sheets: that stays with `pnp.layout`.

`pnp.build` calls `check_profile` before it writes anything, `write_game` for each game inside
its staging folder, adds `manifest_records` to the manifest, then writes the gallery from that
manifest. A component the build took from its cache is not drawn again: its faces' records
(pictures) are carried over from the manifest it replaces, and its PNG faces and print-shop
files come from the cache (`reused_files`), where every build leaves them (`remember_files`).
Only Tabletop Simulator's save, one per game, needs every component drawn.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from pnp import manifest
from pnp.cache import Cache
from pnp.export.faces import ComponentFaces, Rasters, faces_of, records, write_pngs
from pnp.export.pictures import Picture, Store

__all__ = [  # what a build uses; exports start from each component's faces
    "FORMATS", "KEYS", "ComponentFaces", "GameExports", "ReusedFile", "cached_folders", "check_profile", "faces_of",
    "manifest_records", "remember_files", "reused_files", "write_gallery", "write_game",
]
FORMATS = ("png", "tts")  # the formats made here, from faces rather than sheets
KEYS = ("faces", "pieces", "plan")  # what the exports add to the manifest

ReusedFile = tuple[str, str, int, bytes]  # path in the output folder, format, pages, contents


def cached_folders(formats: Sequence[str], profile: str | None) -> tuple[str, ...]:
    """The export folders whose files the cache keeps component by component (`png`, the
    profile's). Not `tts`: a game's save needs every component drawn."""
    return ("png",) * ("png" in formats) + ((profile,) if profile else ())


def reused_files(cache: Cache, game_id: str, inputs: str, folders: Sequence[str]) -> list[ReusedFile] | None:
    """The files an earlier build exported in `folders` for a component with these inputs (the
    key of everything it prints), or None when any of them is not in the cache."""
    found: list[ReusedFile] = []
    for folder in folders:
        note = cache.note(game_id, f"export-{folder}-{inputs}")
        if not isinstance(note, list):
            return None
        for entry in note:
            if not _recorded_file(entry, f"{game_id}/{folder}/"):
                return None
            path, fmt, pages, sha = entry
            data = cache.blob(game_id, sha, fmt)
            if data is None:
                return None
            found.append((path, fmt, pages, data))
    return found


def _recorded_file(entry: Any, folder: str) -> bool:
    """A cache note's [path, format, pages, sha256] as `remember_files` writes it (the cache
    folder could have been edited: nothing outside `folder`, no name but a digest)."""
    if not (isinstance(entry, list) and len(entry) == 4):
        return False
    path, fmt, pages, sha = entry
    return (isinstance(path, str) and path.startswith(folder) and ".." not in path.split("/")
            and fmt in ("png", "pdf") and path.endswith(f".{fmt}") and isinstance(pages, int) and _sha256_hex(sha))


def _sha256_hex(value: object) -> bool:
    """A SHA-256 digest as `hashlib` writes it: 64 lowercase hex digits."""
    return isinstance(value, str) and len(value) == 64 and set(value) <= set("0123456789abcdef")


def remember_files(cache: Cache, root: Path, game_id: str, inputs: str, folders: Sequence[str],
                   files: Sequence[manifest.FileEntry]) -> None:
    """Keep a drawn component's exported `files` in the cache, by its inputs, folder by folder
    (an empty folder too: a profile that takes no boards has nothing to write for one)."""
    for folder in folders:
        mine = [f for f in files if f.path.split("/")[1] == folder]
        for f in mine:
            cache.put_blob(game_id, (root / f.path).read_bytes(), f.format)
        cache.put_note(game_id, f"export-{folder}-{inputs}", [[f.path, f.format, f.pages, f.sha256] for f in mine])


@dataclass
class GameExports:
    """One game's exported files and its manifest records."""

    files: list[manifest.FileEntry] = field(default_factory=list)
    records: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {key: [] for key in KEYS})


def check_profile(profile: str, faces: Sequence[ComponentFaces], pdfx: str = "none") -> None:
    """Everything that keeps these components from a print shop's profile (its PDFs of PDF/X
    level `pdfx`, if one is given), as one `BuildError`."""
    from pnp.export import profiles

    profiles.check(profiles.built(profile, pdfx), faces)


def write_game(root: Path, out: Path, old: dict[str, Any] | None, game_id: str, title: str,
               faces: Sequence[ComponentFaces], formats: Sequence[str], profile: str | None, *, pdfx: str = "none",
               cached: Mapping[str, Sequence[ReusedFile]] | None = None, plan: Sequence[Any] | None = None,
               cache: Cache | None = None, inputs: Mapping[str, str] | None = None,
               pictures: Mapping[str, Sequence[Picture]] | None = None, store: Store | None = None) -> GameExports:
    """One game's exports under `root/<game>/` (`out` is where `root` is published, `old` its
    manifest): the formats and profile asked for, and always the pictures the gallery has.
    `cached` components were not drawn: their records come from `old`, their files from the
    cache (`reused_files`), their pictures from `out` or `store`. The files of the drawn ones go
    to `cache` by their `inputs`. `plan` is the print plan (the instructions' rows; None: the
    game's combined file was not rebuilt). `pictures` are the drawn faces'
    (`pnp.build.Pictures`), by component: each face's name, and its picture when there is one."""
    from pnp.export import gallery

    done = GameExports()
    cached = cached or {}
    done.files += _restored(root, game_id, cached)
    done.files += _write_formats(root, out, game_id, title, faces, formats, profile, pdfx)
    if cache is not None and inputs:
        _remember_drawn(cache, root, game_id, faces, inputs, cached_folders(formats, profile), done.files)
    done.records["faces"], done.records["pieces"] = records(faces)
    gallery.thumbnails(root, faces, done.records["faces"], pictures or {})
    for key in ("faces", "pieces"):
        done.records[key] += _old_entries(old, key, game_id, keep=lambda component: component in cached)
    drawn = {c.id for c in faces}  # the others' pictures stay: taken from the cache, or not built (--component)
    gallery.carry(out, root, _old_entries(old, "faces", game_id, keep=lambda component: component not in drawn),
                  store or Store())
    if plan is not None:
        done.records["plan"] = [{"game": game_id, **asdict(row)} for row in plan]
    return done


def _old_entries(old: manifest.Entry | None, key: str, game_id: str,
                 keep: Callable[[object], bool]) -> list[manifest.Entry]:
    """The entries under `key` of the manifest `old` for `game_id` whose component `keep` keeps."""
    return [e for e in manifest.entries(old, key, game_id) if keep(e.get("component"))]


def _restored(root: Path, game_id: str, cached: Mapping[str, Sequence[ReusedFile]]) -> list[manifest.FileEntry]:
    """The files of the components taken from the cache, written back under `root` as they were."""
    written: list[manifest.FileEntry] = []
    for component_id, reused in cached.items():
        for path, fmt, pages, data in reused:
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_bytes(data)
            written.append(manifest.file_entry(root, root / path, game_id, component_id, fmt, pages))
    return written


def _remember_drawn(cache: Cache, root: Path, game_id: str, faces: Sequence[ComponentFaces],
                    inputs: Mapping[str, str], folders: Sequence[str], files: Sequence[manifest.FileEntry]) -> None:
    """Each drawn component's files kept in the cache by its inputs, for a later build to reuse."""
    if not folders:
        return
    for component in faces:
        remember_files(cache, root, game_id, inputs[component.id], folders,
                       [f for f in files if f.component == component.id])


def _write_formats(root: Path, out: Path, game_id: str, title: str, faces: Sequence[ComponentFaces],
                   formats: Sequence[str], profile: str | None, pdfx: str = "none") -> list[manifest.FileEntry]:
    """The drawn components' PNG faces, Tabletop Simulator save and print-shop files, each face
    rasterised once for all of them."""
    rasters = Rasters()
    written: list[manifest.FileEntry] = []
    if "png" in formats:
        for component in faces:
            written += write_pngs(root, component, rasters)
    if "tts" in formats:
        from pnp.export import tts

        written += tts.write(root, out, game_id, title, faces, rasters)
    if profile:
        from pnp.export import profiles

        written += profiles.write(root, profiles.built(profile, pdfx), faces, rasters)
    return written


def manifest_records(old: dict[str, Any] | None, new: Sequence[GameExports],
                     rebuilt: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The manifest's `faces`, `pieces` and `plan`: this build's, and the entries of an earlier
    manifest that it did not rebuild (`rebuilt` says which)."""
    merged = {}
    for key in KEYS:
        found = (old or {}).get(key, [])
        kept = [e for e in found if isinstance(e, dict) and not rebuilt(e)] if isinstance(found, list) else []
        merged[key] = kept + [e for game in new for e in game.records[key]]
    for key in ("faces", "pieces"):  # in one order, whether a component was drawn or taken from the cache
        merged[key].sort(key=lambda e: (e["game"], e["component"], e.get("face") or e.get("front") or "",
                                        e.get("back") or ""))
    return merged


def write_gallery(root: Path, written: dict[str, Any], spec: Any, kits: Mapping[str, Any] | None = None) -> Path:
    """`root/index.html` from the manifest just written (`kits`: those the build made, by name)."""
    from pnp.export import gallery

    return gallery.write(root, written, spec, kits)
