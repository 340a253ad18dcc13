"""The gallery: `output/index.html`, the whole kit at a glance before anything is printed.

Every build writes it from the manifest it has just written: each game, each component, each
distinct face as a picture with its quantity, the print plan, links to the PDFs and exports,
and what the checks found (`pnp.checks`, the list `pnp validate` prints, kept in the manifest's
`findings`): under each face what is on it, outlined on the picture; under each component what
is about its sheets or art; at the head of each kit what is about the whole kit (a catalog's
translations). Components the build changed (the manifest's `changed` list) are marked. The
page is static and self-contained — inline style, no script, no font or image from elsewhere —
so it opens from the file system and shows the same offline. It stays light on a phone: a
component's faces are folded until opened, and each picture loads when it comes into view.

A face's picture is made where it is looked at (`pnp.export.pictures`: the gallery shows a
face not pictured yet by its name, and names the picture for the live preview to make), kept
in the manifest's `faces` entries (`picture`, `thumbnail`) and under `<game>/gallery/`, so the
page can always be written again from the manifest alone.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from pnp.export.faces import ComponentFaces
from pnp.export.pictures import Picture, Store, dpi

if TYPE_CHECKING:
    from pnp.manifest import Entry
    from pnp.spec.model import Game

INDEX = "index.html"


def thumbnails(root: Path, components: Sequence[ComponentFaces], records: list[dict[str, Any]],
               pictures: Mapping[str, Sequence[Picture]]) -> None:
    """Write the pictures of these components' faces that there are for the gallery
    (`<game>/gallery/<component>-<face>.jpg`; `pictures` by component, a face each) and add
    `picture` (its name) and `thumbnail` (when it was written) to their `records` (the
    manifest's face entries)."""
    by_face = {(r["game"], r["component"], r["face"]): r for r in records}
    for c in components:
        for face, (picture, data) in zip(c.faces, pictures[c.id], strict=True):
            record = by_face[(c.game_id, c.id, face.name)]
            record["picture"] = picture
            if data is not None:
                record["thumbnail"] = place(c.game_id, c.id, face.name)
                (root / record["thumbnail"]).parent.mkdir(parents=True, exist_ok=True)
                (root / record["thumbnail"]).write_bytes(data)


def carry(out: Path, root: Path, records: Sequence[dict[str, Any]], store: Store) -> None:
    """The pictures of faces whose components were not drawn again, from the output folder
    being replaced into the new one, else from those kept by name (`store`); a record whose
    picture is in neither loses its `thumbnail`."""
    from pnp.manifest import link_or_copy

    for record in records:
        earlier = record.get("thumbnail")
        source = out / earlier if isinstance(earlier, str) and ".." not in earlier.split("/") else None
        picture = record.get("picture")
        kept = store.kept(picture) if isinstance(picture, str) and (source is None or not source.is_file()) else None
        if (source is None or not source.is_file()) and kept is None:
            record.pop("thumbnail", None)
            continue
        record["thumbnail"] = place(record["game"], record["component"], record["face"])
        target = root / record["thumbnail"]
        target.parent.mkdir(parents=True, exist_ok=True)
        if kept is not None:
            target.write_bytes(kept)
        elif source is not None and not target.exists():
            link_or_copy(source, target)


def place(game_id: str, component_id: str, face: str) -> str:
    """Where a face's picture goes in the output folder."""
    return f"{game_id}/gallery/{component_id}-{face}.jpg"


def write(root: Path, manifest: dict[str, Any], spec: Any, kits: Mapping[str, Any] | None = None) -> Path:
    """`root/index.html` for every game the manifest describes, in the spec's order (`kits`:
    the kits a build has at hand by name, `pnp.spec.translation.Kit`: not translated again)."""
    page = _template().render(games=_games(root, manifest, spec, kits or {}), version=manifest.get("pnp", ""))
    path = root / INDEX
    path.write_text(page, encoding="utf-8")
    return path


@cache
def _template() -> Any:
    """The page's template, compiled once a process: `pnp watch` writes the gallery at every
    save, and compiling it took a fifth of a one-card rebuild."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    environment = Environment(loader=PackageLoader("pnp.export", "templates"), autoescape=select_autoescape(),
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return environment.get_template("gallery.html")


def _games(root: Path, manifest: dict[str, Any], spec: Any, kits: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the template shows, game by game (`root` holds the files the manifest lists)."""
    def listed(kit: str) -> bool:
        return bool(_entries(manifest, "components", kit))

    return [_game(root, manifest, game_id, game, code) for game_id, game, code in _kits(spec, listed, kits)]


def _entries(manifest: Entry, key: str, game: str) -> list[Entry]:
    """The manifest's entries under `key` for one kit."""
    return [e for e in manifest.get(key, []) if isinstance(e, dict) and e.get("game") == game]


def _game(root: Path, manifest: Entry, game_id: str, game: Game, code: str) -> dict[str, object]:
    """One kit as the template shows it: its components, its combined PDF and other files, its
    print plan and exports, and what the checks found on the kit as a whole."""
    files = _entries(manifest, "files", game_id)
    found = _found(manifest, game_id)
    components = _components(manifest, game_id, game, files, found)
    combined = next((f for f in files if f["component"] is None and f["path"].endswith("-all.pdf")), None)
    others = [f for f in files if f["component"] is None and f is not combined]
    return {"id": game_id, "title": game.title, "title_en": getattr(game, "title_en", ""), "language": code,
            "components": components, "combined": combined, "others": others,
            "plan": _entries(manifest, "plan", game_id), "exports": _export_folders(root, files),
            "faces": sum(len(c["faces"]) for c in components), "findings": found,
            "unpictured": sum(not f.get("thumbnail") for c in components for f in c["faces"]),
            "about_kit": [f for f in found if f.get("component") not in {c["id"] for c in components}]}


def _components(manifest: Entry, game_id: str, game: Game, files: list[Entry], found: list[Entry]) -> list[Entry]:
    """A kit's components as the gallery shows them, in the spec's order (one the spec no
    longer names last)."""
    changed = {name for e in _entries(manifest, "changed", game_id) if e.get("status") in ("added", "changed")
               for name in (e.get("components") or [e.get("component")])}
    faces = _entries(manifest, "faces", game_id)
    components = [_component(entry, game, files, faces, changed, found)
                  for entry in _entries(manifest, "components", game_id)]
    order = {c.id: n for n, c in enumerate(game.components)}
    return sorted(components, key=lambda c: order.get(c["id"], len(order)))


def _kits(spec: Any, listed: Callable[[str], bool], known: Mapping[str, Any]) -> Iterator[tuple[str, Any, str]]:
    """Each kit of each game that the manifest `listed` (the default one, then the others): its
    name, its game in its language, and the language's code (a kit `known` by name as it is)."""
    from pnp.i18n import PSEUDO
    from pnp.spec.translation import kit

    for g, game in spec.games.items():
        for code in (*game.kit_languages, PSEUDO):
            name = g if code == game.language else f"{g}.{code}"
            if listed(name):
                made = known.get(name) or kit(g, game, code, spec.folder)
                yield made.folder, made.game, code


def _found(manifest: dict[str, Any], kit: str) -> list[dict[str, Any]]:
    """What the checks found in one kit, as the manifest keeps it (`Finding.as_json`)."""
    return [f for f in manifest.get("findings", []) if isinstance(f, dict) and kit_of(f) == kit]


def kit_of(finding: dict[str, Any]) -> str:
    """The kit a finding is about, by the name of its folder (`pnp.build.kits_of`)."""
    return f"{finding.get('game')}.{finding['kit']}" if finding.get("kit") else str(finding.get("game"))


def _component(entry: dict[str, Any], game: Any, files: list[dict[str, Any]], faces: list[dict[str, Any]],
               changed: set[str], found: list[dict[str, Any]]) -> dict[str, Any]:
    """One component as the gallery shows it: its faces in print order with what the checks
    found on each, what they found on its sheets and art, its PDF and exports."""
    mine = _faces_of(entry["id"], faces)
    own = _of_component(files, entry["id"])
    pdf = _own_pdf(own)
    on_it = _of_component(found, entry["id"])
    return {
        "id": entry["id"], "kind": entry["kind"], "count": entry["count"], "size_mm": entry["size_mm"],
        "name": _spec_name(game, entry["id"]), "changed": entry["id"] in changed,
        "faces": [_face(f, on_it) for f in mine],
        "findings": [x for x in on_it if not x.get("face")],
        "shown": any(f.get("thumbnail") or f.get("picture") for f in mine),
        "pdf": pdf, "duplex": entry.get("duplex"), "pages": entry.get("pages", pdf["pages"] if pdf else None),
        "exports": _exports(own),
    }


def _of_component(entries: list[Entry], component_id: str) -> list[Entry]:
    """The entries (files, findings) about one component."""
    return [e for e in entries if e.get("component") == component_id]


def _own_pdf(files: list[Entry]) -> Entry | None:
    """A component's own PDF among its files (beside the game's, not in an export's folder)."""
    return next((f for f in files if f["format"] == "pdf" and f["path"].count("/") == 1), None)


def _spec_name(game: Game, component_id: str) -> str:
    """A component's name as the spec gives it, or its id when the spec no longer has it."""
    spec_component = next((c for c in game.components if c.id == component_id), None)
    return spec_component.both_names if spec_component else component_id


def _exports(files: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A component's files beyond its PDF, grouped by folder: "png (12)", "tgc (6)", "tts (3)"."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for f in files:
        parts = f["path"].split("/")
        if len(parts) > 2:
            groups.setdefault(parts[1], []).append(f)
    return [{"label": label, "count": len(group), "first": group[0]["path"]} for label, group in groups.items()]


def _export_folders(root: Path, files: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A game's exports beside its print plan: each folder (`png`, `tts`, a profile's) with
    what it holds for whom, its number of files and their size."""
    from pnp.export.profiles import PROFILES

    about = {"svg": "SVG pages", "png": "each distinct face at 300 dpi", "tts": "Tabletop Simulator",
             **{name: f"{p.shop}, {'a PNG per card face' if p.output == 'png' else 'a PDF per component'}"
                for name, p in PROFILES.items()}}
    folders: dict[str, list[str]] = {}
    for f in files:
        parts = f["path"].split("/")
        if len(parts) > 2:
            folders.setdefault("/".join(parts[:2]), []).append(f["path"])
    return [{"folder": folder + "/", "label": folder.split("/")[1], "about": about.get(folder.split("/")[1], ""),
             "count": len(paths), "bytes": sum(_size(root / path) for path in paths)}
            for folder, paths in sorted(folders.items())]


def _size(path: Path) -> int:
    return path.stat().st_size if path.is_file() else 0


def _faces_of(component_id: str, faces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A component's face entries in print order: fronts, backs, panels, pages."""
    return sorted((f for f in faces if f.get("component") == component_id),
                  key=lambda f: (("front", "back", "panel", "page").index(f["side"]), f["face"]))


def _face(face: dict[str, Any], found: list[dict[str, Any]]) -> dict[str, Any]:
    """A face's manifest entry with what the checks found on it (of its component's `found`),
    each with where its box lies, and its picture's size in pixels."""
    on_it = [f for f in found if f.get("face") == face["face"]]
    return dict(face, findings=[dict(f, box_style=_box_style(face, f)) for f in on_it], px=_pixels(face))


def _pixels(face: dict[str, Any]) -> tuple[int, int]:
    """A face's picture's size in pixels (`pnp.export.pictures.make`), which the page keeps
    room for before it is loaded or made."""
    width, height = (v + 2 * face.get("bleed_mm", 0.0) for v in face["size_mm"])
    resolution = dpi(width, height)
    return round(width / 25.4 * resolution), round(height / 25.4 * resolution)


def _box_style(face: dict[str, Any], finding: dict[str, Any]) -> str:
    """Where a finding's box lies on the picture (which includes the bleed), in per cent."""
    box = finding.get("box")
    if not box:
        return ""
    bleed = face.get("bleed_mm", 0.0)
    width, height = (v + 2 * bleed for v in face["size_mm"])
    x, y, w, h = box
    return (f"left:{(x + bleed) / width:.2%};top:{(y + bleed) / height:.2%};"
            f"width:{w / width:.2%};height:{h / height:.2%}")
