"""Exports beyond the home printer, from the drawings a build made.

`faces` finds each component's distinct faces (a 90-card deck prints 5 fronts and 1 back) and
writes them as images (`--format png`); `profiles` writes a print shop's files (`--profile`);
`tts` writes Tabletop Simulator sheets and a saved object (`--format tts`); `preflight` checks
each face for what a printer or a player would trip on, and `gallery` shows it all in
`output/index.html`. Nothing here lays out sheets: that stays with `pnp.layout`.

`pnp.build` calls `check_profile` before it writes anything, `write_game` for each game inside
its staging folder, adds `manifest_records` to the manifest, then writes the gallery from that
manifest. A component the build took from its cache is not drawn again: its faces' records
(pictures and findings) are carried over from the manifest it replaces.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from pnp import manifest
from pnp.export.faces import ComponentFaces, Rasters, faces_of, records, write_pngs

FORMATS = ("png", "tts")  # the formats made here, from faces rather than sheets
KEYS = ("faces", "pieces", "plan")  # what the exports add to the manifest


@dataclass
class GameExports:
    """One game's exported files and its manifest records."""

    files: list[manifest.FileEntry] = field(default_factory=list)
    records: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {key: [] for key in KEYS})


def game_faces(game_id: str, made: Iterable[tuple[Any, Any]]) -> list[ComponentFaces]:
    """The distinct faces of each (component, generated output) of one game."""
    return [faces_of(game_id, component, output) for component, output in made]


def check_profile(profile: str, faces: Sequence[ComponentFaces]) -> None:
    """Everything that keeps these components from a print shop's profile, as one `BuildError`."""
    from pnp.export import profiles

    profiles.check(profiles.profile_named(profile), faces)


def write_game(root: Path, out: Path, old: dict[str, Any] | None, game_id: str, title: str,
               faces: Sequence[ComponentFaces], formats: Sequence[str], profile: str | None, *, safe_mm: float,
               cached: Sequence[str] = (), plan: Sequence[Any] | None = None) -> GameExports:
    """One game's exports under `root/<game>/` (`out` is where `root` is published, `old` its
    manifest): the formats and profile asked for, and always the gallery's pictures and
    pre-flight findings. `cached` components were not drawn: their records come from `old`.
    `plan` is the print plan (the instructions' rows; None: the game's combined file was not
    rebuilt)."""
    from pnp.export import gallery

    done = GameExports()
    rasters = Rasters()
    if "png" in formats:
        for component in faces:
            done.files += write_pngs(root, component, rasters)
    if "tts" in formats:
        from pnp.export import tts

        done.files += tts.write(root, out, game_id, title, faces, rasters)
    if profile:
        from pnp.export import profiles

        done.files += profiles.write(root, profiles.profile_named(profile), faces, rasters)
    done.records["faces"], done.records["pieces"] = records(faces)
    gallery.thumbnails(root, faces, safe_mm, done.records["faces"])
    for key in ("faces", "pieces"):
        done.records[key] += [e for e in manifest.entries(old, key, game_id) if e.get("component") in cached]
    drawn = {c.id for c in faces}  # the others' pictures stay: taken from the cache, or not built (--component)
    gallery.carry(out, root, [e for e in manifest.entries(old, "faces", game_id) if e.get("component") not in drawn])
    if plan is not None:
        done.records["plan"] = [{"game": game_id, **asdict(row)} for row in plan]
    return done


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


def write_gallery(root: Path, written: dict[str, Any], spec: Any) -> Path:
    """`root/index.html` from the manifest just written."""
    from pnp.export import gallery

    return gallery.write(root, written, spec)
