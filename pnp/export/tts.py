"""Tabletop Simulator (`pnp build --format tts`): face sheets per deck and a saved object per game.

TTS builds a deck from a sheet of card faces — at most 10 across and 7 down, read left to right
and top to bottom, whose last slot is the image shown for a card hidden in another player's
hand — and one back image (or, when the backs differ, a second sheet laid out like the first).
So a deck prints here as sheets of at most 69 distinct faces and the hidden slot, no wider than
4096 px, plus its back. Decks and money (cards of paper) become custom decks, tokens custom
tokens (two-sided ones custom tiles, which have a back), boards custom boards, mats, aids and
forms custom tiles. `<game>-tts.json` holds them all as one saved object; copied to
TTS's `Saves/Saved Objects` folder it loads the images from this output folder by `file:///`
paths, for solo or hot-seat play.

The save file follows the format TTS writes and its knowledge base describes
(kb.tabletopsimulator.com, "Save File Format", "Custom Deck", "Custom Token", "Custom Tile",
"Custom Board"): `ObjectStates` lists objects by `Name`; a `DeckCustom` lists its cards'
`DeckIDs` and, in `CustomDeck`, one entry per sheet keyed by a deck id (as a string) with
`FaceURL`, `BackURL`, `NumWidth`, `NumHeight`, `BackIsHidden` and `UniqueBack`; a card's
`CardID` is its sheet's deck id × 100 + its slot on that sheet.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from pnp import manifest
from pnp.display import Drawing, cut_polygon
from pnp.export.faces import ComponentFaces, Kind, Rasters

MAX_COLUMNS, MAX_ROWS = 10, 7
SLOTS = MAX_COLUMNS * MAX_ROWS - 1  # faces on one sheet: the last slot is the hidden card
MAX_SHEET_PX = 4096  # the widest (and tallest) sheet written
MAX_DPI = 300
MAX_IMAGE_PX = 4096  # boards, mats and tokens: their longer side
MM_PER_IN = 25.4
DECKS = ("deck", "money")
TILES = ("mat", "aid", "form")
TILE_TYPES = {"rect": 0, "hexagon": 1, "circle": 2, "rounded": 3, "octagon": 0}  # CustomTile.Type


@dataclass(frozen=True)
class Sheet:
    """One face sheet of a deck: the kinds of card on it (at most 69) and its grid."""

    deck_id: int  # the key of its CustomDeck entry
    kinds: tuple[Kind, ...]
    columns: int
    rows: int

    @property
    def hidden_slot(self) -> int:
        return self.columns * self.rows - 1


def grid(count: int) -> tuple[int, int]:
    """Columns and rows for `count` faces and the hidden slot: the smallest 2…10 × 2…7 grid
    that holds them, as square as can be."""
    if not 1 <= count <= SLOTS:
        raise ValueError(f"a sheet holds 1 to {SLOTS} faces, not {count}")
    shapes = [(c, r) for c in range(2, MAX_COLUMNS + 1) for r in range(2, MAX_ROWS + 1) if c * r >= count + 1]
    return min(shapes, key=lambda shape: (shape[0] * shape[1], abs(shape[0] - shape[1]), -shape[0]))


def sheets(kinds: Sequence[Kind], first_deck_id: int) -> list[Sheet]:
    """The kinds of card in order, 69 to a sheet, each sheet with its own deck id."""
    found = []
    for n, start in enumerate(range(0, len(kinds), SLOTS)):
        part = tuple(kinds[start:start + SLOTS])
        found.append(Sheet(first_deck_id + n, part, *grid(len(part))))
    return found


def card_pixels(faces: ComponentFaces, deck_sheets: Sequence[Sheet]) -> tuple[int, int]:
    """One card's size on the sheets: its trim at up to 300 dpi, as fine as the widest (and
    tallest) sheet of the deck allows within 4096 px."""
    w, h = faces.faces[0].size_mm
    columns = max(s.columns for s in deck_sheets)
    rows = max(s.rows for s in deck_sheets)
    dpi = min(MAX_DPI, MAX_SHEET_PX * MM_PER_IN / (columns * w), MAX_SHEET_PX * MM_PER_IN / (rows * h))
    return (math.floor(w / MM_PER_IN * dpi), math.floor(h / MM_PER_IN * dpi))


# --- images -------------------------------------------------------------------------------


def trimmed(rasters: Rasters, drawing: Drawing, size: tuple[int, int]) -> Any:
    """The drawing cut at its trim (TTS shows cards as cut), as a PIL image of `size` px."""
    from PIL import Image

    w, h, b = drawing.width, drawing.height, drawing.bleed
    image = rasters.image(drawing)
    kx, ky = image.width / (w + 2 * b), image.height / (h + 2 * b)
    return image.resize(size, Image.Resampling.LANCZOS, box=(b * kx, b * ky, (b + w) * kx, (b + h) * ky))


def masked(rasters: Rasters, drawing: Drawing, cut: str, size: tuple[int, int]) -> Any:
    """The drawing cut along its cut line, transparent outside: the outline of a custom token."""
    from PIL import Image, ImageDraw

    image = trimmed(rasters, drawing, size).convert("RGBA")
    mask = Image.new("L", size, 0)
    pen = ImageDraw.Draw(mask)
    w, h = size
    if cut == "circle":
        pen.ellipse((0, 0, w - 1, h - 1), fill=255)
    elif cut in ("hexagon", "octagon"):
        pen.polygon([(x, y) for x, y in cut_polygon(cut, 0, 0, w - 1, h - 1)], fill=255)
    elif cut == "rounded":
        pen.rounded_rectangle((0, 0, w - 1, h - 1), radius=0.2 * min(w, h), fill=255)
    else:
        pen.rectangle((0, 0, w - 1, h - 1), fill=255)
    image.putalpha(mask)
    return image


def _png(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _image_size(drawing: Drawing) -> tuple[int, int]:
    """A board's, tile's or token's image: up to 300 dpi, its longer side at most 4096 px."""
    w, h = drawing.width, drawing.height
    dpi = min(MAX_DPI, MAX_IMAGE_PX * MM_PER_IN / max(w, h))
    return (max(1, round(w / MM_PER_IN * dpi)), max(1, round(h / MM_PER_IN * dpi)))


# --- the saved object ---------------------------------------------------------------------


class _Writer:
    """Writes one game's TTS images under `<game>/tts/` and collects its objects."""

    def __init__(self, root: Path, out: Path, game_id: str, rasters: Rasters) -> None:
        self.root, self.out, self.game_id, self.rasters = root, out, game_id, rasters
        self.folder = root / game_id / "tts"
        self.folder.mkdir(parents=True)
        self.files: list[manifest.FileEntry] = []
        self.objects: list[dict[str, Any]] = []
        self.next_deck_id = 1

    def save(self, name: str, data: bytes, component: str) -> str:
        """Write an image; its `file:///` URL where the output folder will be."""
        path = self.folder / name
        path.write_bytes(data)
        self.files.append(manifest.file_entry(self.root, path, self.game_id, component, "tts", 1))
        return (self.out / path.relative_to(self.root)).as_uri()

    def deck(self, c: ComponentFaces, x: float) -> None:
        deck_sheets = sheets(c.kinds, self.next_deck_id)
        self.next_deck_id += len(deck_sheets)
        size = card_pixels(c, deck_sheets)
        backs = {k.back for k in c.kinds}
        unique_back = len(backs) > 1
        common_back = None
        if not unique_back:
            (only,) = backs
            back = c.face(only).drawing if only is not None else None
            common_back = trimmed(self.rasters, back, size) if back is not None else _blank(size)
            back_url = self.save(f"{c.id}-back.png", _png(common_back), c.id)
        custom: dict[str, dict[str, Any]] = {}
        ids: list[int] = []
        cards: list[dict[str, Any]] = []
        for number, sheet in enumerate(deck_sheets, 1):
            faces = [trimmed(self.rasters, c.face(k.front).drawing, size) for k in sheet.kinds]
            hidden = common_back if common_back is not None else _blank(size)
            face_url = self.save(f"{c.id}-faces-{number}.png", _png(_sheet(faces, sheet, size, hidden)), c.id)
            if unique_back:
                back_faces = [trimmed(self.rasters, c.face(k.back).drawing, size) if k.back else _blank(size)
                              for k in sheet.kinds]
                backs_sheet = _sheet(back_faces, sheet, size, _blank(size))
                back_url = self.save(f"{c.id}-backs-{number}.png", _png(backs_sheet), c.id)
            entry = {"FaceURL": face_url, "BackURL": back_url, "NumWidth": sheet.columns, "NumHeight": sheet.rows,
                     "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
            custom[str(sheet.deck_id)] = entry
            for slot, kind in enumerate(sheet.kinds):
                card_id = sheet.deck_id * 100 + slot
                for _ in range(kind.quantity):
                    ids.append(card_id)
                    cards.append(self._object("Card", f"{c.id} {kind.front}", x, 1.0, len(cards), CardID=card_id,
                                              CustomDeck={str(sheet.deck_id): entry}, Hands=True, SidewaysCard=False))
        if len(cards) == 1:
            self.objects.append(cards[0])
            return
        self.objects.append(self._object("DeckCustom", c.component.both_names, x, 1.0, 0, DeckIDs=ids, CustomDeck=custom,
                                         ContainedObjects=cards, Hands=False, SidewaysCard=False))

    def tokens(self, c: ComponentFaces, x: float) -> None:
        two_sided = c.two_sided
        for row, kind in enumerate(c.kinds):
            front = c.face(kind.front).drawing
            size = _image_size(front)
            picture = masked(self.rasters, front, c.cut, size)
            url = self.save(c.file_name(c.face(kind.front), "png"), _png(picture), c.id)
            image: dict[str, Any] = {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
            if two_sided and kind.back:
                back = c.face(kind.back)
                image["ImageSecondaryURL"] = self.save(c.file_name(back, "png"),
                                                       _png(masked(self.rasters, back.drawing, c.cut, size)), c.id)
                image["CustomTile"] = {"Type": TILE_TYPES.get(c.cut, 0), "Thickness": 0.2, "Stackable": True,
                                       "Stretch": True}
                name = "Custom_Tile"
            else:
                image["CustomToken"] = {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False,
                                        "Stackable": True}
                name = "Custom_Token"
            scale = max(front.width, front.height) / MM_PER_IN
            for n in range(kind.quantity):
                self.objects.append(self._object(name, f"{c.id} {kind.front}", x + row * 1.2, 1.0 + 0.2 * n, 0,
                                                 CustomImage=image, scale=scale, z=-6.0))

    def panels(self, c: ComponentFaces, x: float) -> None:
        board = c.component.kind == "board"
        for face in c.faces:
            size = _image_size(face.drawing)
            url = self.save(c.file_name(face, "png"), _png(trimmed(self.rasters, face.drawing, size)), c.id)
            image: dict[str, Any] = {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
            if not board:
                image["CustomTile"] = {"Type": 0, "Thickness": 0.1, "Stackable": True, "Stretch": True}
            scale = face.drawing.width / MM_PER_IN / (20.0 if board else 2.0)
            for n in range(face.quantity):
                self.objects.append(self._object("Custom_Board" if board else "Custom_Tile", f"{c.id} {face.name}",
                                                 x, 1.0 + 0.2 * n, 0, CustomImage=image, scale=scale,
                                                 z=14.0 if board else -14.0))

    def _object(self, name: str, nickname: str, x: float, y: float, index: int, *, scale: float = 1.0,
                z: float = 0.0, **fields: Any) -> dict[str, Any]:
        where = f"{self.game_id}/{name}/{nickname}/{x}/{y}/{index}/{len(self.objects)}"
        guid = hashlib.sha256(where.encode()).hexdigest()[:6]  # stable: the same build, the same GUIDs
        return {"GUID": guid, "Name": name, "Nickname": nickname, "Description": "",
                "Transform": {"posX": round(x, 3), "posY": round(y, 3), "posZ": z, "rotX": 0.0, "rotY": 180.0,
                              "rotZ": 0.0 if name != "DeckCustom" else 180.0,
                              "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)},
                "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}, "Locked": False, "Grid": True, "Snap": True,
                "Autoraise": True, "Sticky": True, "Tooltip": True, **fields}


def _sheet(faces: Sequence[Any], sheet: Sheet, size: tuple[int, int], hidden: Any) -> Any:
    from PIL import Image

    w, h = size
    image = Image.new("RGB", (sheet.columns * w, sheet.rows * h), "white")
    for slot, face in enumerate(faces):
        image.paste(face, ((slot % sheet.columns) * w, (slot // sheet.columns) * h))
    slot = sheet.hidden_slot
    image.paste(hidden, ((slot % sheet.columns) * w, (slot // sheet.columns) * h))
    return image


def _blank(size: tuple[int, int]) -> Any:
    from PIL import Image

    return Image.new("RGB", size, "white")


def write(root: Path, out: Path, game_id: str, title: str, components: Sequence[ComponentFaces],
          rasters: Rasters | None = None) -> list[manifest.FileEntry]:
    """Every TTS image of one game under `<game>/tts/` and `<game>/<game>-tts.json`, whose
    `file:///` paths point into `out`, the output folder the build is published as."""
    writer = _Writer(root, out, game_id, rasters or Rasters())
    x = 0.0
    for c in components:
        kind = c.component.kind
        if kind in DECKS and c.pieces:
            writer.deck(c, x)
        elif kind == "tokens" and c.pieces:
            writer.tokens(c, x)
        elif kind == "board" or kind in TILES:
            writer.panels(c, x)
        else:
            continue  # a booklet is read as its PDF
        x += 4.0
    save = {"SaveName": title, "GameMode": title, "Date": "", "VersionNumber": "", "Gravity": 0.5, "PlayArea": 0.5,
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "TabStates": {}, "ObjectStates": writer.objects}
    path = root / game_id / f"{game_id}-tts.json"
    path.write_text(json.dumps(save, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return writer.files + [manifest.file_entry(root, path, game_id, None, "tts", 1)]
