"""A component's distinct faces: each different front, back or panel drawn once, with how many
printed pieces carry it, and the kinds of piece (a front with its back) with their counts.

A 90-card deck is 6 fronts and 1 back; six identical player mats are one panel printed 6
times. Exports work from these — a print shop wants each face once with its quantity, a
Tabletop Simulator sheet holds each face once, the gallery shows each once — so nothing is
rasterised twice. Face names are stable and say what a face is: `front-01`…, `back` (a deck's
one common back) or `back-01`…, `panel` or `panel-01`… (boards, mats, aids, forms), `page-01`…
(a booklet). Files are named `<component>-<face>`, so a face keeps its name out of its folder.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Literal, Sequence

from pnp import manifest
from pnp.display import BookPages, Drawing, Panels, Pieces
from pnp.spec.model import AnyComponent

Side = Literal["front", "back", "panel", "page"]
PNG_DPI = 300  # every face, pieces with their bleed and boards at their full size


@dataclass(frozen=True)
class Face:
    """One distinct face: its name, which side it is, its drawing and how many print it."""

    name: str
    side: Side
    drawing: Drawing
    quantity: int

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.drawing.width, self.drawing.height)


@dataclass(frozen=True)
class Kind:
    """A kind of piece: a front with its back (None: a blank back), and how many there are."""

    front: str
    back: str | None
    quantity: int


@dataclass(frozen=True)
class ComponentFaces:
    """The distinct faces of one component, in print order, and (for pieces) its kinds of piece."""

    game_id: str
    component: AnyComponent  # the spec's component (deck, tokens, board…)
    faces: tuple[Face, ...]
    kinds: tuple[Kind, ...] = ()  # empty for panels and booklet pages
    cut: str = "rect"  # a piece's cut line: rect, circle, rounded, hexagon, octagon
    two_sided: bool = False  # the backs carry rules (a token's "+20" side), not decoration

    @property
    def id(self) -> str:
        return self.component.id

    @property
    def pieces(self) -> bool:
        return bool(self.kinds)

    def face(self, name: str) -> Face:
        return next(face for face in self.faces if face.name == name)

    def file_name(self, face: Face, suffix: str) -> str:
        return f"{self.id}-{face.name}.{suffix}"


def faces_of(game_id: str, component: AnyComponent, output: Pieces | Panels | BookPages) -> ComponentFaces:
    """The distinct faces of a generated component."""
    if isinstance(output, Pieces):
        return _piece_faces(game_id, component, output)
    side: Side = "page" if isinstance(output, BookPages) else "panel"
    drawings = output.pages if isinstance(output, BookPages) else output.drawings
    distinct = _distinct(drawings)
    names = ["panel"] if side == "panel" and len(distinct) == 1 else _names(side, len(distinct))
    quantity = Counter(distinct.index_of(d) for d in drawings)
    return ComponentFaces(game_id, component, tuple(Face(name, side, drawing, quantity[i])
                                                    for i, (name, drawing) in enumerate(zip(names, distinct.items, strict=True))))


def _piece_faces(game_id: str, component: AnyComponent, output: Pieces) -> ComponentFaces:
    """The distinct fronts and backs of a component's pieces, each with how many pieces show
    it, and each kind of piece (a front with its back) with its number."""
    fronts = _distinct(piece.front for piece in output.pieces)
    backs = _distinct(piece.back for piece in output.pieces if piece.back is not None)
    front_names = _names("front", len(fronts))
    back_names = ["back"] if len(backs) == 1 else _names("back", len(backs))
    kinds: Counter[tuple[str, str | None]] = Counter()
    for piece in output.pieces:
        front = front_names[fronts.index_of(piece.front)]
        back = back_names[backs.index_of(piece.back)] if piece.back is not None else None
        kinds[(front, back)] += 1
    count = _shown(kinds)
    faces = [Face(name, "front", drawing, count[name]) for name, drawing in zip(front_names, fronts.items, strict=True)]
    faces += [Face(name, "back", drawing, count[name]) for name, drawing in zip(back_names, backs.items, strict=True)]
    return ComponentFaces(game_id, component, tuple(faces),
                          tuple(Kind(f, b, n) for (f, b), n in kinds.items()), output.cut, output.two_sided)


def _shown(kinds: Counter[tuple[str, str | None]]) -> Counter[str]:
    """How many pieces show each face, from how many there are of each kind (front, back)."""
    count: Counter[str] = Counter()
    for (front, back), n in kinds.items():
        count[front] += n
        if back is not None:
            count[back] += n
    return count


class _Distinct:
    """Drawings in first-seen order, each once. Copies are usually one shared object, so
    identity is tried before equality (a deep comparison of whole display lists)."""

    def __init__(self) -> None:
        self.items: list[Drawing] = []
        self._by_id: dict[int, int] = {}
        self._by_value: dict[Any, int] = {}

    def add(self, drawing: Drawing) -> None:
        if id(drawing) in self._by_id:
            return
        try:
            index = self._by_value.setdefault(drawing, len(self.items))
        except TypeError:  # something unhashable inside: equal only to itself
            index = len(self.items)
        if index == len(self.items):
            self.items.append(drawing)
        self._by_id[id(drawing)] = index

    def index_of(self, drawing: Drawing) -> int:
        return self._by_id[id(drawing)]

    def __len__(self) -> int:
        return len(self.items)


def _distinct(drawings: Iterable[Drawing]) -> _Distinct:
    found = _Distinct()
    for drawing in drawings:
        found.add(drawing)
    return found


def _names(side: str, count: int) -> list[str]:
    digits = max(2, len(str(count)))
    return [f"{side}-{n:0{digits}d}" for n in range(1, count + 1)]


class Rasters:
    """Each face rasterised once, at 300 dpi with its bleed, for every export that wants it:
    the PNG files are these bytes, print-shop and Tabletop Simulator images are cut and scaled
    from them."""

    def __init__(self) -> None:
        self._done: dict[int, tuple[Drawing, bytes]] = {}  # by id; the drawing is kept alive

    def png(self, drawing: Drawing) -> bytes:
        from pnp.render.png import drawing_png

        if id(drawing) not in self._done:
            self._done[id(drawing)] = (drawing, drawing_png(drawing, PNG_DPI))
        return self._done[id(drawing)][1]

    def image(self, drawing: Drawing) -> Any:
        """The raster as an RGB PIL image."""
        from PIL import Image

        return Image.open(io.BytesIO(self.png(drawing))).convert("RGB")


# --- files and manifest records -----------------------------------------------------------


def write_pngs(root: Path, faces: ComponentFaces, rasters: Rasters) -> list[manifest.FileEntry]:
    """`<game>/png/<component>/<component>-<face>.png` for every distinct face at 300 dpi: a
    piece with its bleed (a poker card: 815 × 1110 px), a board, mat or page at its full size."""
    folder = root / faces.game_id / "png" / faces.id
    folder.mkdir(parents=True)
    files = []
    for face in faces.faces:
        path = folder / faces.file_name(face, "png")
        path.write_bytes(rasters.png(face.drawing))
        files.append(manifest.file_entry(root, path, faces.game_id, faces.id, "png", 1))
    return files


def records(all_faces: Sequence[ComponentFaces]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The manifest's `faces` (each distinct face with its quantity, size and bleed, and whether
    that bleed was made by mirroring art cut to the trim) and `pieces` (each kind of piece:
    front, back, quantity) of these components."""
    from pnp.components.art import generated_bleed

    faces, pieces = [], []
    for c in all_faces:
        for face in c.faces:
            faces.append({"game": c.game_id, "component": c.id, "face": face.name, "side": face.side,
                          "quantity": face.quantity, "size_mm": [round(v, 3) for v in face.size_mm],
                          "bleed_mm": face.drawing.bleed, "bleed_generated": generated_bleed(face.drawing.items)})
        pieces += [{"game": c.game_id, "component": c.id, "front": k.front, "back": k.back, "quantity": k.quantity}
                   for k in c.kinds]
    return faces, pieces
