"""The typed, immutable model of components.yaml.

Field names here are the YAML keys. Everything game-specific is data: a game is assets
(companies, colours or currencies), named tracks, house-rule values and a list of components
of a few generic kinds (deck, tokens, money, board, mat, aid, form). Generators draw kinds;
rules engines read assets, tracks, rules and decks.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    Strict,
    field_validator,
    model_validator,
)

from pnp.errors import Issue, brief, shorten
from pnp.i18n import code_problem
from pnp.spec.contract import MAX_CELLS
from pnp.spec.images import MAX_BYTES as MAX_ART_BYTES
from pnp.spec.images import (
    MAX_DECODED,
    MAX_DPI,
    MAX_PIXELS,
    MAX_SVG_BYTES,
    MAX_SVG_ELEMENTS,
    MAX_SVG_NUMBER,
    clean_path,
)
from pnp.spec.source import MAX_BYTES, MAX_DEPTH, MAX_DIGITS, MAX_NODES, PathKey, Source, format_path
from pnp.spec.templates import MAX_FILLED, MAX_PRECISION, MAX_SEPARATOR, MAX_WIDTH, Unchecked, check_visible, fill

# Each choice a Literal (what the model and mypy check) and its values (what messages list).
Symbol = Literal["circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon", "cross"]
Pattern = Literal["none", "hstripes", "vstripes", "diagonal", "antidiagonal", "crosshatch", "dots", "checks", "waves"]
ForEach = Literal["asset", "pair"]
SYMBOLS: tuple[str, ...] = get_args(Symbol)
PATTERNS: tuple[str, ...] = get_args(Pattern)
FOR_EACH: tuple[str, ...] = get_args(ForEach)

# --- bounds: every limit a spec is held to, stated here once ---------------------------------
# Far above any game, far below what makes `pnp validate` slow or large: with them any file is
# answered in seconds. docs/spec.md and `pnp schema` list them, generated from this model.

MAX_GAMES = 12
MAX_COMPONENTS = 60  # of one game
MAX_ASSETS = 16  # companies, colours or currencies of one game (120 pairs)
MAX_PLAYERS = 20
MAX_TRACKS = 20  # of one game
MAX_ENTRIES = 1000  # card entries of a deck (rows of a card list), token entries
MAX_BILLS = 30  # denominations of one money component
MAX_SECTIONS = 60  # of a board, aid or booklet
MAX_LINES = 200  # of one aid or booklet section
MAX_ZONES = 8  # rows of a mat's zones, and zones in one row
MAX_NOTES = 40  # of a mat
MAX_COLUMNS = 60  # columns of a form, as written and once expanded per asset and player
MAX_COLUMN_DEPTH = 3  # columns inside columns inside columns
MAX_ROWS = 500  # of a form
MAX_KEYS = 100  # of a card's `data`, a game's `vars` or `rules`
MAX_COUNT = 1000  # of one card, bill or token entry
MAX_COPIES = 20  # of one component
MAX_PIECES = 3000  # physical pieces of the whole spec: cards, tokens and bills, copies counted
MAX_BOARD_CELLS = 1000  # cells of one board: every row of every track section
MAX_BOARD_MM = 2000.0  # a board's track row, its cells side by side: some ten sheets joined
MAX_NUMBER = 1_000_000_000  # of any number: an amount, a track's cell, a card's data
MIN_PIECE_MM = 5.0  # the shortest side of a card, token, bill or mat zone
MAX_PIECE_MM = 297.0  # the longest: the long side of the largest paper (A4), as a piece is never tiled
MAX_PANEL_MM = 1189.0  # a form's page or a column, tiled over sheets: the long side of A0
MAX_OFFSET_MM = 10.0  # the duplex correction of the backs
MAX_ID = 40  # characters of an id (it becomes a file name)
MAX_KEY = 40  # of a track's, data key's or var's name
MAX_MARK = 8  # of an asset's initial or sign
MAX_LABEL = 100  # of a card's value, other or corner, a label, a currency
MAX_NAME = 120  # of a name or a title
MAX_TEXT = 1000  # of small print, a note
MAX_PARAGRAPH = 2000  # of an aid or booklet line
MAX_PATH = 200  # of a file name
MAX_PAGE_TEXT = 12_000  # characters of an aid's or a mat's texts: more than one page holds at 6.5 pt
MAX_BOOKLET_TEXT = 60_000  # of a booklet's: some twenty-five A5 pages
MAX_LIST_BYTES = 5_000_000  # of a card list (.csv or .xlsx): a thousand rows of a hundred columns
MAX_LIST_UNPACKED = 50_000_000  # bytes an .xlsx may unpack to (a zip: a small file can hold a bomb)
MAX_LIST_COLUMNS = 100  # of a card list
MAX_SPEC_TEXT = 100_000  # characters of every text of the spec, aliases expanded: three times the bundled spec's

LIMITS = (  # the bounds no single field carries, for docs/spec.md
    ("pieces", MAX_PIECES, "cards, tokens and bills of the whole spec, copies counted"),
    ("board cells", MAX_BOARD_CELLS, "cells of one board: every row of every track section, every place of a box"),
    ("board row", MAX_BOARD_MM, "millimetres of a board's track as laid out: a row's cells side by side, a grid's "
                                "row, a loop's side"),
    ("mat", MAX_PANEL_MM, "millimetres across or down a mat's zones, side by side"),
    ("form columns", MAX_COLUMNS, "columns of one form once repeated per asset and per player"),
    ("form players", MAX_PLAYERS, "a form's player counts are at most the game's `players.max`"),
    ("template width", MAX_WIDTH, "the width in a template's format spec (`{name:>12}`)"),
    ("template precision", MAX_PRECISION, "the precision in a format spec (`{rate:.2f}`)"),
    ("list separator", MAX_SEPARATOR, "characters between a list's values (`{components[dividends].pays: / }`)"),
    ("filled text", MAX_FILLED, "characters one template prints once filled"),
    ("aid or mat text", MAX_PAGE_TEXT, "characters of an aid's or a mat's texts together: more than a page holds"),
    ("booklet text", MAX_BOOKLET_TEXT, "characters of a booklet's texts together"),
    ("text", MAX_SPEC_TEXT, "characters of every text of the spec together, aliases expanded"),
    ("file size", MAX_BYTES, "bytes of components.yaml"),
    ("card list size", MAX_LIST_BYTES, "bytes of a deck's `cards_from` file"),
    ("card list unpacked", MAX_LIST_UNPACKED, "bytes an .xlsx card list unpacks to"),
    ("card list columns", MAX_LIST_COLUMNS, "columns of a card list (its rows: the deck's entries)"),
    ("values", MAX_NODES, "values of the YAML once its aliases are expanded (an alias bomb is refused)"),
    ("nesting", MAX_DEPTH, "levels of lists and mappings inside each other"),
    ("digits", MAX_DIGITS, "of one number as written"),
    ("art file size", MAX_ART_BYTES, "bytes of an image file (a regular file inside the spec's folder)"),
    ("art pixels", MAX_PIXELS, f"pixels of a PNG or JPEG, read from its header before decoding: an A3 board at "
                               f"{MAX_DPI} dpi"),
    ("art decoded", MAX_DECODED, "bytes a PNG or JPEG decodes to (8-bit RGBA of that many pixels)"),
    ("SVG size", MAX_SVG_BYTES, "bytes of an SVG image"),
    ("SVG elements", MAX_SVG_ELEMENTS, "elements of an SVG image"),
    ("SVG numbers", MAX_SVG_NUMBER, "the size of any number an SVG writes (each finite: no NaN, no infinity)"),
)

_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}){1,2}$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def _colour(value: str) -> str:
    if not _HEX.match(value):
        raise ValueError(f'expected a colour such as "#1f77b4", got "{shorten(value)}"')
    if len(value) == 4:
        value = "#" + "".join(c * 2 for c in value[1:])
    return value.lower()


def check_id(value: str) -> str:
    """Ids become file names: keep them portable and harmless."""
    if not _ID.match(value) or value.lower() in _RESERVED:
        raise ValueError(
            f"{brief(value)} cannot be an id: use 1-{MAX_ID} letters, digits, '-' or '_', starting with a letter or digit"
        )
    return value


def _not_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError(f"expected a number, got {str(value).lower()}")
    return value


def _mm(low: float, high: float, *, above: bool = False) -> Any:
    """The constraint of a length in millimetres, from `low` (or above 0) to `high`."""
    return Field(gt=0, le=high) if above else Field(ge=low, le=high)


Colour = Annotated[str, AfterValidator(_colour), Field(json_schema_extra={"pattern": _HEX.pattern})]
Id = Annotated[str, AfterValidator(check_id), Field(json_schema_extra={"pattern": _ID.pattern})]
Count = Annotated[int, Strict(), Field(ge=0, le=MAX_COUNT)]
PositiveCount = Annotated[int, Strict(), Field(ge=1, le=MAX_COUNT)]
Copies = Annotated[int, Strict(), Field(ge=1, le=MAX_COPIES)]
PlayerCount = Annotated[int, Strict(), Field(ge=1, le=MAX_PLAYERS)]
Integer = Annotated[int, Strict(), Field(ge=-MAX_NUMBER, le=MAX_NUMBER)]
Number = Annotated[float, Field(ge=-MAX_NUMBER, le=MAX_NUMBER), BeforeValidator(_not_bool)]
Amount = Annotated[float, Field(gt=0, le=MAX_NUMBER), BeforeValidator(_not_bool)]
Mm = Annotated[float, _mm(0, MAX_PANEL_MM, above=True), BeforeValidator(_not_bool)]
PieceMm = Annotated[float, _mm(MIN_PIECE_MM, MAX_PIECE_MM), BeforeValidator(_not_bool)]
PanelMm = Annotated[float, _mm(MIN_PIECE_MM, MAX_PANEL_MM), BeforeValidator(_not_bool)]
Size = tuple[PieceMm, PieceMm]  # [width, height] of a piece
PanelSize = tuple[PanelMm, PanelMm]
Offset = Annotated[float, Field(ge=-MAX_OFFSET_MM, le=MAX_OFFSET_MM), BeforeValidator(_not_bool)]
Key = Annotated[str, Field(min_length=1, max_length=MAX_KEY)]
Mark = Annotated[str, Field(max_length=MAX_MARK)]
Label = Annotated[str, Field(max_length=MAX_LABEL)]
Name = Annotated[str, Field(max_length=MAX_NAME)]
Text = Annotated[str, Field(max_length=MAX_TEXT)]
Paragraph = Annotated[str, Field(max_length=MAX_PARAGRAPH)]
Scalar = Union[Annotated[bool, Strict()], Integer, Number, Text]
# a file in the spec's folder, e.g. "art/logo.svg"
RelativePath = Annotated[str, Field(max_length=MAX_PATH), AfterValidator(clean_path)]
ImagePath = RelativePath  # PNG, JPEG or SVG


class Model(BaseModel):
    """Base of every spec object: immutable, and unknown keys are errors, not silently ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


def _changed(model: BaseModel) -> list[str]:
    """The fields of `model` not at their defaults: what a spec gives (a model dumped and read
    again, as the kits' translations are, gives every field, most at their defaults)."""
    return [name for name, info in type(model).model_fields.items()
            if getattr(model, name) != info.get_default(call_default_factory=True)]


# --- print settings -----------------------------------------------------------------------


# registration marks 10 mm from the paper's edges (Silhouette Studio's smallest inset), or down to
# 3 mm for a printer that prints borderless (pnp.layout.registration)
INSET_RANGE_MM = (3.0, 10.0)


class Print(Model):
    """How the home printer prints: paper, margins, the card size, bleed, duplex."""

    paper: Literal["a4", "letter"] = Field(default="a4", description="a4 or letter")
    margin_mm: Annotated[float, Field(ge=0, le=30), BeforeValidator(_not_bool)] = Field(
        default=5, description="the printer's unprintable margin: nothing is drawn outside it")
    card_mm: Size = Field(default=(63, 88), description="[width, height] of a card: poker [63, 88], bridge [57, 89], tarot [70, 120]")
    bleed_mm: Annotated[float, Field(ge=0, le=10), BeforeValidator(_not_bool)] = Field(
        default=3, description="art printed beyond the cut, so a cut off the line shows no white")
    safe_mm: Annotated[float, Field(ge=0, le=15), BeforeValidator(_not_bool)] = Field(
        default=3.5, description="no text or symbol closer than this to a card's trim")
    duplex: Literal["long", "short", "fold", "none"] = Field(
        default="long", description="double-sided printing: flip on the long or short edge, fold, or none")
    back_offset_mm: tuple[Offset, Offset] = Field(
        default=(0, 0), description="[right, down] shift of every back, for a printer that misregisters double-sided pages")
    ink_saver: Annotated[bool, Strict()] = Field(default=False, description="outlines and patterns instead of colour fills")
    backs: Literal["light", "dark"] = Field(
        default="light", description="card backs: light ones forgive a home duplex's misregistration")
    cut: Literal["none", "silhouette", "silhouette4", "cricut", "dxf"] = Field(
        default="none", description="a cutting machine: its registration marks and cut files (pnp build --cut); "
                                    "silhouette4: the four-mark pattern of the Cameo 5 Alpha")
    pdfx: Literal["none", "x1a", "x3", "x4"] = Field(
        default="none", description="print-shop PDFs (pnp build --profile) as PDF/X of this level, CMYK for FOGRA39 "
                                    "(pnp build --pdfx); none: a profile's own (DriveThruCards: x1a)")
    cut_inset_mm: Annotated[float, Field(ge=INSET_RANGE_MM[0], le=INSET_RANGE_MM[1]), BeforeValidator(_not_bool)] = Field(
        default=INSET_RANGE_MM[1], description="the registration marks' distance from the paper's edges: 10, or down to 3 for a "
                                "printer that prints borderless (pnp build --inset)")


# --- assets and tracks --------------------------------------------------------------------


class Asset(Model):
    """A company, colour or currency: what cards, tokens and board rows are made for."""

    id: Id = Field(description="a short code printed on its pieces, e.g. IBE")
    name: Name = Field(description="as printed")
    name_en: Name = Field(default="", description="the English name, printed beside it")
    color: Colour = Field(description='"#rrggbb" or "#rgb"')
    symbol: Symbol = Field(description="its shape, so no piece relies on colour alone")
    pattern: Pattern = Field(default="none", description="its fill pattern")
    initial: Mark = Field(default="", description="e.g. the Cyrillic initial of a colour, `{initial}` in templates")
    sign: Mark = Field(default="", description="e.g. a currency sign, `{sign}` in templates")
    image: ImagePath | None = Field(default=None, description="a logo: on the cards' band, the board's row, as `:ID:` in text")


class Track(Model):
    """A row of numbered cells: a price track, a round track, a rate track."""

    from_: Number | None = Field(default=None, alias="from", description="the first cell")
    to: Number | None = Field(default=None, description="the last cell")
    step: Amount = Field(default=1, description="between cells")
    values: Annotated[tuple[Number, ...], Field(max_length=MAX_CELLS)] | None = Field(
        default=None, description="every cell, in order (instead of from, to and step)")
    start: Number | None = Field(default=None, description="the cell the tokens start on")
    labels: Annotated[dict[Number, Label], Field(max_length=MAX_CELLS)] = Field(
        default={}, description="a word printed in a cell, by its value")

    @field_validator("start", "values")
    @classmethod
    def _whole_numbers_print_whole(cls, value: Any) -> Any:
        """`{tracks[price].start}` prints 4, not 4.0."""
        if isinstance(value, tuple):
            return tuple(_clean(v) for v in value)
        return None if value is None else _clean(value)

    @model_validator(mode="after")
    def _range_or_values(self) -> "Track":
        if self.values is None:
            self._check_range()
        else:
            self._check_values(self.values)
        cells = self.cells
        if self.start is not None and self.start not in cells:
            raise ValueError(f"start {self.start:g} is not a cell of the track")
        for value in self.labels:
            if value not in cells:
                raise ValueError(f"label for {value:g}, which is not a cell of the track")
        return self

    def _check_range(self) -> None:
        """A track given by `from` and `to` (and `step`): both, in order, at most MAX_CELLS cells."""
        if self.from_ is None or self.to is None:
            raise ValueError("give either `from` and `to` (with an optional `step`) or a list of `values`")
        if self.to < self.from_:
            raise ValueError(f"`to` ({self.to:g}) is below `from` ({self.from_:g})")
        if (self.to - self.from_) / self.step >= MAX_CELLS:
            raise ValueError(f"a track has at most {MAX_CELLS} cells; check `from`, `to` and `step`")

    def _check_values(self, values: tuple[float, ...]) -> None:
        """A track given by its `values`: no `from`/`to` beside them, one value at least, at most MAX_CELLS."""
        if self.from_ is not None or self.to is not None:
            raise ValueError("give either `from`/`to` or `values`, not both")
        if not values:
            raise ValueError("`values` needs at least one value")
        if len(values) > MAX_CELLS:
            raise ValueError(f"a track has at most {MAX_CELLS} cells")

    @property
    def cells(self) -> tuple[float, ...]:
        """The value of every cell, in order."""
        if self.values is not None:
            return self.values
        count = int(round((self.to - self.from_) / self.step)) + 1  # type: ignore[operator]  # from/to are set when values is None (the validator)
        return tuple(_clean(self.from_ + i * self.step) for i in range(count))  # type: ignore[operator]  # from/to are set when values is None (the validator)

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def first(self) -> float:
        return self.cells[0]

    @property
    def last(self) -> float:
        return self.cells[-1]


def _clean(value: float) -> float:
    """Integral floats print as integers (10, not 10.0) everywhere downstream."""
    rounded = round(value, 6)
    return int(rounded) if rounded == int(rounded) else rounded


# --- faces: what is printed on one side of a card, token or bill ---------------------------

Points = Annotated[float, Field(ge=6, le=120), BeforeValidator(_not_bool)]  # VISUAL.md: nothing under 6 pt
MAX_ELEMENTS = 60  # of one free face
ASSET_INK = "asset"  # a colour an element may name: the face's asset's (else the deck's back's)
ElementKind = Literal["text", "value", "image", "shape", "symbol"]
ELEMENT_KINDS: tuple[str, ...] = get_args(ElementKind)
Ink = Annotated[str, AfterValidator(lambda value: value if value == ASSET_INK else _colour(value)),
                Field(json_schema_extra={"pattern": f"^(?:{ASSET_INK}|{_HEX.pattern[1:-1]})$"})]
Place = Annotated[float, Field(ge=-MAX_PIECE_MM, le=2 * MAX_PIECE_MM), BeforeValidator(_not_bool)]
Reach = Annotated[float, Field(ge=0, le=2 * MAX_PIECE_MM), BeforeValidator(_not_bool)]


def _points(value: Any) -> Any:
    """`pt: 9` is one size, `[9, 9]`."""
    return [value, value] if isinstance(value, (int, float)) and not isinstance(value, bool) else value


# which fields each kind of element reads, beyond `at` and `size` (the rest are refused on it)
ELEMENT_FIELDS: dict[str, tuple[str, ...]] = {
    "text": ("font", "pt", "color", "align", "valign", "turn"),
    "value": ("font", "pt", "color", "turn"),
    "image": ("fit", "turn"),
    "shape": ("fill", "stroke", "stroke_mm", "radius_mm"),
    "symbol": ("fill", "stroke", "stroke_mm"),
}


class Element(Model):
    """One thing on a `layout: free` face: exactly one of `text`, `value`, `image`, `shape` or
    `symbol`, in a box placed in millimetres from the trim's top-left corner (`at`, `size`),
    drawn in list order (the first under the rest). Text is fitted to its box from the font's
    metrics — wrapped, then shrunk down to `pt`'s smallest size — and a text that cannot fit
    is an error, never clipped. Boxes may reach into the bleed, not beyond it."""

    text: Text | None = Field(default=None, description="a template, e.g. \"{title}\": wrapped and shrunk to fit "
                                                         "the box; **bold** and :ID: icons as in other texts")
    value: Label | None = Field(default=None, description="a template, e.g. \"{value}\": the one large element, bold, "
                                                          "in the asset's colour (on a bar where that colour does "
                                                          "not read on paper)")
    image: ImagePath | None = Field(default=None, description="a file, a template, e.g. \"art/{id}.png\": whole and "
                                                              "centred in the box (`fit: cover` fills it)")
    shape: Literal["rect", "rounded", "circle", "line"] | None = Field(
        default=None, description="a rectangle filling the box, one with rounded corners, the largest circle in it, "
                                  "or a line from its top-left to its bottom-right corner")
    symbol: Literal["circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon", "cross", "asset"] | None = Field(
        default=None, description="one of the symbols, as large as the box allows; `asset`: the face's asset's badge "
                                  "(its logo, if it has one)")
    at: tuple[Place, Place] = Field(description="[x, y] of the box's top-left corner: mm right of and below the trim's")
    size: tuple[Reach, Reach] = Field(description="[width, height] of the box, mm")
    font: Key | None = Field(default=None, description="text, value: a font of the game's `fonts`, or `regular` or "
                                                       "`bold`, the bundled ones (default: regular; a value: bold)")
    pt: Annotated[tuple[Points, Points], BeforeValidator(_points, json_schema_input_type=Union[float, tuple[float, float]])] \
        | None = Field(default=None, description="text, value: [smallest, largest] type size, or one size (default: "
                                                 "[6, 10]; a value: [14, 44])")
    color: Ink | None = Field(default=None, description="text, value: the ink, a colour or `asset` (default: black; a "
                                                        "value: the asset's)")
    fill: Ink | None = Field(default=None, description="shape, symbol: the fill, a colour or `asset` (default: none; a "
                                                       "symbol: the asset's colour)")
    stroke: Ink | None = Field(default=None, description="shape, symbol: the outline's colour or `asset` (default: black "
                                                         "when nothing fills it)")
    stroke_mm: Annotated[float, Field(ge=0, le=10), BeforeValidator(_not_bool)] = Field(
        default=0.3, description="shape, symbol: the outline's width")
    radius_mm: Annotated[float, Field(ge=0, le=MAX_PIECE_MM), BeforeValidator(_not_bool)] = Field(
        default=2.0, description="a rounded shape's corners")
    align: Literal["left", "center", "right"] = Field(default="center", description="text: across its box")
    valign: Literal["top", "middle", "bottom"] = Field(default="middle", description="text: up and down its box")
    fit: Literal["contain", "cover"] = Field(
        default="contain", description="image: whole in the box, or filling it with its edges cut off")
    turn: Literal[0, 90, 180, 270] = Field(
        default=0, description="text, value, image: degrees clockwise about the box's centre, the box keeping its place "
                               "(180: upside down, as a corner index's copy)")

    @model_validator(mode="after")
    def _one_kind(self) -> "Element":
        kind = self._only_kind()
        stray = sorted(name for name in _changed(self) if name not in {kind, "at", "size", *ELEMENT_FIELDS[kind]})
        if stray:
            raise ValueError(f"`{stray[0]}` is not for a {kind} element (it takes: "
                             f"{', '.join(ELEMENT_FIELDS[kind]) or 'at and size only'})")
        if self.pt is not None and self.pt[0] > self.pt[1]:
            raise ValueError(f"`pt` is [smallest, largest]; got [{self.pt[0]:g}, {self.pt[1]:g}]")
        return self

    def _only_kind(self) -> str:
        """The one kind given (an image, a text, a value…), or the error naming none or several."""
        given = [kind for kind in ELEMENT_KINDS if getattr(self, kind) is not None]
        if len(given) != 1:
            raise ValueError(f"an element is exactly one of {', '.join(ELEMENT_KINDS)}" + (
                f"; this one is {' and '.join(given)}" if given else ""))
        return given[0]

    @property
    def kind(self) -> str:
        return next(kind for kind in ELEMENT_KINDS if getattr(self, kind) is not None)


Elements = Annotated[tuple[Element, ...], Field(max_length=MAX_ELEMENTS)]


def _free_layout(layout: Any, elements: tuple[Element, ...]) -> None:
    """`layout: free` and `elements` go together: the one places the other."""
    if layout == "free" and not elements:
        raise ValueError("`layout: free` places `elements`: give at least one")
    if elements and layout != "free":
        raise ValueError("`elements` are placed only by `layout: free`: add it")


class Face(Model):
    """One side of a piece. Text fields are templates: `{id}`, `{name}`, `{a.id}`, `{tracks[quote].size}`.
    With `layout: free`, `elements` place everything on it in millimetres instead of the kind's
    layout; the fields are then values their templates name (`{title}`)."""

    asset: Label | None = Field(default=None, description="an asset id or a template giving one; sets colour, symbol, pattern")
    value: Label = Field(default="", description="the one large element (a code, a number)")
    other: Label = Field(default="", description="a second value, printed in neutral ink")
    title: Name = Field(default="", description="bold in the colour band")
    subtitle: Name = Field(default="", description="beneath the title")
    text: Text = Field(default="", description="small print")
    corner: Label | None = Field(default=None, description="the corner index; defaults to `value`")
    layout: Literal["free"] | None = Field(
        default=None, description="free: `elements` place everything (default: the kind's layout, a deck's `layout`)")
    elements: Elements = Field(default=(), description="with `layout: free`: what is drawn, where, first under last")

    @model_validator(mode="after")
    def _free(self) -> "Face":
        _free_layout(self.layout, self.elements)
        return self


class Picture(Model):
    """Art that runs to the bleed (a card's or a back's): its file, and how it fills the bleed.
    Written as the file alone (`image: art/back.png`) or with `bleed` (`image: {file:
    art/back.png, bleed: extend}`)."""

    file: ImagePath = Field(description='the image, relative to the spec\'s folder; on cards a template, e.g. '
                                        '"art/{id}.png"')
    bleed: Literal["cover", "extend"] = Field(
        default="cover", description="cover: the art is enlarged to fill the bleed, its edges cut off; extend: "
                                     "the art is cut to the trim, and its edge pixels are mirrored into the bleed")


def _file_name(value: Any) -> Any:
    return {"file": value} if isinstance(value, str) else value


BledImage = Annotated[Picture, BeforeValidator(_file_name, json_schema_input_type=Union[str, Picture])]


class CardBack(Model):
    """A card's own back, instead of its deck's, in one of three forms: an image alone, to the
    bleed (`back: art/map.png`, a template: `"art/{id}-back.png"`); the deck's back with other
    words, colours or art (`back: {title: Storm, color: "#a33"}`: what is not given is the
    deck's); or a face drawn as the deck draws its fronts (`back: {face: {value: "?"}}`,
    `layout: free` too). In every duplex mode it prints behind its own front."""

    title: Name | None = Field(default=None, description="on the back's panel; a template (default: the deck's back's)")
    subtitle: Name | None = Field(default=None, description="beneath the title; a template")
    color: Colour | None = Field(default=None, description="the background (default: the deck's back's)")
    pattern: Pattern | None = Field(default=None, description="over the background (default: the deck's back's)")
    image: BledImage | None = Field(default=None, description="art to the bleed, a template; {file: …, bleed: extend} "
                                                              "for art cut to the trim")
    face: Face | None = Field(default=None, description="instead of a back's design: a face, drawn as the fronts are")

    @model_validator(mode="after")
    def _one_form(self) -> "CardBack":
        if self.face is not None and set(_changed(self)) - {"face"}:
            raise ValueError("a back is either a `face` or the deck's back with other `title`, `subtitle`, `color`, "
                             "`pattern` or `image`, not both")
        return self


def _image_alone(value: Any) -> Any:
    """`back: art/map.png` is the image alone: no title panel over it."""
    return {"image": value, "title": ""} if isinstance(value, str) else value


class CardEntry(Face):
    """Cards of one face: `count` copies, or `count` per asset / per pair of assets with `for_each`."""

    count: PositiveCount = Field(default=1, description="copies of the card (per asset or pair with `for_each`)")
    for_each: ForEach | None = Field(
        default=None, description="asset: one card per asset; pair: one per pair of assets")
    data: Annotated[dict[Key, Scalar], Field(max_length=MAX_KEYS)] = Field(
        default={}, description="values rules engines read, `{NAME}` in the card's templates; never drawn")
    image: BledImage | None = Field(default=None, description='an illustration; a template, e.g. "art/{id}.png", '
                                                              'or {file: …, bleed: extend} for art cut to the trim')
    back: Annotated[CardBack, BeforeValidator(_image_alone, json_schema_input_type=Union[str, CardBack])] | None = \
        Field(default=None, description="the card's own back (default: the deck's): an image, the deck's back with "
                                        "other words or colours, or a face")


class TokenEntry(Model):
    """Tokens of one kind: `count` of them, or `count` per asset / per pair with `for_each`."""

    count: PositiveCount = Field(default=1, description="tokens of this kind (per asset or pair with `for_each`)")
    for_each: ForEach | None = Field(
        default=None, description="asset: one token per asset; pair: one per pair of assets")
    front: Face = Field(description="the front face")
    back: Face | None = Field(default=None, description="the back face (none: blank)")
    data: Annotated[dict[Key, Scalar], Field(max_length=MAX_KEYS)] = Field(
        default={}, description="values rules engines read, `{NAME}` in the token's templates")


class Back(Model):
    """A deck's common back, symmetric under a half turn."""

    title: Name = Field(default="", description="on a panel in the middle")
    subtitle: Name = Field(default="", description="beneath the title")
    color: Colour = Field(default="#4d4d4d", description="the background")
    pattern: Pattern = Field(default="diagonal", description="over the background")
    image: BledImage | None = Field(default=None, description="art to the bleed, under the title panel (if a title is "
                                                              "given); {file: …, bleed: extend} for art cut to the trim")


class Bill(Model):
    """One denomination of money."""

    value: Amount = Field(description="what the bill is worth")
    count: Count = Field(description="bills of this value (per asset with `for_each`)")
    color: Colour = Field(description="its colour")
    label: Annotated[Label, AfterValidator(check_visible)] | None = Field(
        default=None, description='printed instead of the value, e.g. "½"')


# --- components ---------------------------------------------------------------------------


class Component(Model):
    id: Id = Field(description="unique in the game; names its files")
    name: Name = Field(description="as printed on its sheets")
    name_en: Name = Field(default="", description="the English name, printed beside it")
    copies: Copies = Field(default=1, description="how many times the whole component is printed")

    @property
    def both_names(self) -> str:
        """As its sheets, the gallery and Tabletop Simulator name it: "Cartas de acciones · Share
        cards", the English name beside the printed one where it differs."""
        return f"{self.name} · {self.name_en}" if self.name_en and self.name_en != self.name else self.name


FaceField = Literal["title", "subtitle", "value", "other", "text", "none"]
FIELDS: tuple[str, ...] = get_args(FaceField)
ENTRY_FIELDS = ("count", "qty", "for_each", "asset", "value", "other", "title", "subtitle", "text", "corner", "image",
                "back")


def _column_target(value: str) -> str:
    if value.lower() not in ENTRY_FIELDS and not (value.startswith("data.") and len(value) > 5):
        raise ValueError(f'expected a card field ({", ".join(ENTRY_FIELDS)}) or "data.NAME", got "{shorten(value)}"')
    return value


class CardLayout(Model):
    """Which face field goes where on a deck's fronts, and how large its type may be; the
    defaults are the layout of the bundled decks."""

    band: FaceField = Field(
        default="title", description="the field in bold in the colour band, `subtitle` beneath")
    centre: FaceField = Field(
        default="value", description="the one large element, `other` beside it")
    footer: FaceField = Field(default="text", description="small print at the bottom")
    corner: Annotated[bool, Strict()] = Field(default=True, description="the corner index, top-left and turned bottom-right")
    art: Literal["box", "full"] = Field(default="box", description="card images: in the centre, or to the bleed behind everything")
    band_pt: tuple[Points, Points] = Field(default=(7, 12), description="[smallest, largest] type in the band")
    centre_pt: tuple[Points, Points] = Field(default=(14, 44), description="[smallest, largest] type in the centre")
    footer_pt: tuple[Points, Points] = Field(default=(6, 9.5), description="[smallest, largest] type of the small print")
    font: Key | None = Field(default=None, description="a font of the game's `fonts` for every text of the fronts and "
                                                       "backs, its bold for what is bold (default: the bundled DejaVu "
                                                       "Sans)")
    small_print: Annotated[bool, Strict()] = Field(
        default=False, description="the footer is small print (credits, a copyright line): fitted down to footer_pt's "
                                   "smallest without a warning; otherwise it is body text, 7 pt unless it cannot fit")

    @model_validator(mode="after")
    def _ordered(self) -> "CardLayout":
        for name in ("band_pt", "centre_pt", "footer_pt"):
            low, high = getattr(self, name)
            if low > high:
                raise ValueError(f"`{name}` is [smallest, largest]; got [{low:g}, {high:g}]")
        return self


class CardList(Model):
    """Where a deck's card entries come from: a .csv file, or a sheet of an .xlsx workbook, one
    row per entry (read by `pnp.spec.sheets` before validation)."""

    file: RelativePath = Field(description="a .csv or .xlsx file in the spec's folder")
    sheet: Name | None = Field(default=None, description="the workbook's sheet (default: its first)")
    columns: Annotated[dict[Name, Annotated[str, AfterValidator(_column_target)]], Field(max_length=MAX_COLUMNS)] = Field(
        default={}, description="header → card field or data.NAME, for headers that say something else")


class Deck(Component):
    """Cards with a common back (a card may have its own: `back` of its entry)."""

    kind: Literal["deck"]
    size_mm: Size | None = Field(default=None, description="[width, height] (default: print.card_mm)")
    back: Back = Field(default=Back(), description="the common back")
    layout: CardLayout | Literal["free"] = Field(
        default=CardLayout(), description="where each field goes on the fronts; free: `elements` place everything "
                                          "on every front whose entry has no elements of its own")
    elements: Elements = Field(default=(), description="with `layout: free`: what each front draws, where, first under "
                                                       "last; templates over each card's fields and data")
    cards_from: Annotated[CardList, BeforeValidator(_file_name)] | None = Field(
        default=None, description="`market.csv`, or {file:, sheet:, columns:}: the card entries from a spreadsheet")
    cards: Annotated[tuple[CardEntry, ...], Field(min_length=1, max_length=MAX_ENTRIES)] = Field(
        description="the card entries")

    @model_validator(mode="after")
    def _free(self) -> "Deck":
        _free_layout(self.layout, self.elements)
        return self

    @property
    def card_layout(self) -> CardLayout:
        """The kind's layout of its faces: the deck's, or the bundled decks' in a free deck
        (whose faces are all drawn by elements, their own or the deck's)."""
        return self.layout if isinstance(self.layout, CardLayout) else CardLayout()


class Tokens(Component):
    """Counters and markers, two-sided."""

    kind: Literal["tokens"]
    shape: Literal["circle", "square", "rounded", "hexagon", "octagon"] = Field(default="circle", description="the outline")
    size_mm: Size = Field(default=(20, 20), description="[width, height]")
    tokens: Annotated[tuple[TokenEntry, ...], Field(min_length=1, max_length=MAX_ENTRIES)] = Field(
        description="the token entries")


class Money(Component):
    """Bills, for the bank or per asset (a currency's own money)."""

    kind: Literal["money"]
    size_mm: Size = Field(default=(100, 50), description="[width, height] of a bill")
    for_each: Literal["asset"] | None = Field(default=None, description="asset: the bills once per asset")
    currency: Label = Field(default="", description='printed on each bill; a template, e.g. "{id}"')
    bills: Annotated[tuple[Bill, ...], Field(min_length=1, max_length=MAX_BILLS)] = Field(description="the denominations")


MapLayout = Literal["square", "hex"]
MAPS: tuple[str, ...] = get_args(MapLayout)
Coordinate = Annotated[int, Strict(), Field(ge=0, le=MAX_CELLS - 1)]


class MapCell(Model):
    """One cell of a map (a `square` or `hex` board section), by its coordinates: what it
    prints and how it is filled."""

    at: tuple[Coordinate, Coordinate] = Field(description="[column, row], from [0, 0] at the top left; on a hex map "
                                                          "the odd columns sit half a cell lower")
    label: Label = Field(default="", description="printed in the cell; a template")
    color: Colour | None = Field(default=None, description="its fill (default: paper)")
    symbol: Symbol | None = Field(default=None, description="a mark drawn faintly behind the label (a port, a mine)")


class BoardSection(Model):
    """One part of a board: a track of cells, a table the rules compute, or a map of square or
    hexagonal cells by coordinates."""

    title: Name = Field(default="", description="the section's heading; a template")
    title_en: Name = Field(default="", description="its English heading")
    track: Key | None = Field(default=None, description="a game track: one row of cells")
    rows: Literal["single", "each_asset"] = Field(default="single", description="one row, or one row per asset")
    table: Key | None = Field(default=None, description="a table computed by the game's rules module")
    marks: Key | None = Field(default=None, description="small per-cell notes from the rules module (e.g. starting positions)")
    start_label: Label = Field(default="START", description="the word on the track's start cell, in the game's language")
    holds: PositiveCount | Literal["pairs"] = Field(
        default=1, description="tokens a cell holds side by side; pairs: one per other asset")
    layout: Literal["row", "loop", "grid", "square", "hex"] = Field(
        default="row", description="a track's cells in a row, round the board's edge, or a grid; square, hex: a map "
                                   "of `cells` by coordinates (the board's `cell_mm` across a hexagon's flats)")
    columns: Annotated[int, Strict(), Field(ge=1, le=MAX_CELLS)] | None = Field(
        default=None, description="a grid's cells per row (default: about square)")
    area: tuple[Annotated[int, Strict(), Field(ge=1, le=MAX_CELLS)], Annotated[int, Strict(), Field(ge=1, le=MAX_CELLS)]] \
        | None = Field(default=None, description="a map's [columns, rows]: every cell of that rectangle")
    cells: Annotated[tuple[MapCell, ...], Field(max_length=MAX_CELLS)] = Field(
        default=(), description="a map's cells by coordinates: with `area`, what some of its cells print (or cells "
                                "beyond it); without, the map's only cells")
    coordinates: Annotated[bool, Strict()] = Field(
        default=False, description="a map: each cell's coordinates printed small at its top, as column.row")

    @model_validator(mode="after")
    def _one_content(self) -> "BoardSection":
        if self.layout in MAPS:
            return self._map()
        if (self.track is None) == (self.table is None):
            raise ValueError("a board section shows either a `track` or a `table` (or, with `layout: square` or "
                             "`hex`, a map of `cells`)")
        if self.layout != "row" and (self.track is None or self.rows != "single" or self.holds != 1):
            raise ValueError(f"a {self.layout} lays out one track's cells, one token each: give `track` and "
                             "leave `rows: single` and `holds: 1`")
        if self.columns is not None and self.layout != "grid":
            raise ValueError("`columns` is for `layout: grid`")
        stray = sorted({"area", "cells", "coordinates"} & set(_changed(self)))
        if stray:
            raise ValueError(f"`{stray[0]}` is for a map: `layout: square` or `hex`")
        return self

    def _map(self) -> "BoardSection":
        stray = sorted({"track", "table", "marks", "rows", "holds", "columns"} & set(_changed(self)))
        if stray:
            raise ValueError(f"a {self.layout} map shows its `cells`, not a `{stray[0]}`")
        if self.area is None and not self.cells:
            raise ValueError(f"a {self.layout} map has no cells: give `area: [columns, rows]` or `cells` by "
                             "coordinates (`{at: [0, 0]}`)")
        seen: set[tuple[int, int]] = set()
        for cell in self.cells:
            if cell.at in seen:
                raise ValueError(f"two cells at [{cell.at[0]}, {cell.at[1]}]: give each place once")
            seen.add(cell.at)
        return self

    @property
    def map_cells(self) -> tuple[MapCell, ...]:
        """Every cell of a map, row by row: the area's (as `cells` writes them where it does)
        and the cells beyond it."""
        given = {cell.at: cell for cell in self.cells}
        columns, rows = self.area or (0, 0)
        inside = [given.pop((c, r), MapCell(at=(c, r))) for r in range(rows) for c in range(columns)]
        return tuple(sorted([*inside, *given.values()], key=lambda cell: (cell.at[1], cell.at[0])))

    @property
    def map_size(self) -> tuple[int, int]:
        """A map's columns and rows (from [0, 0] to its farthest cell), without listing its cells."""
        columns, rows = self.area or (0, 0)
        return (max([columns, *(cell.at[0] + 1 for cell in self.cells)]),
                max([rows, *(cell.at[1] + 1 for cell in self.cells)]))


class Board(Component):
    """Tracks and tables drawn at full size, tiled over sheets when larger than one."""

    kind: Literal["board"]
    cell_mm: Annotated[float, Field(ge=12, le=60), BeforeValidator(_not_bool)] = Field(default=14, description="a cell's side")
    image: ImagePath | None = Field(default=None, description="under the title (inside a loop track: its centre)")
    image_mm: Annotated[float, Field(ge=5, le=300), BeforeValidator(_not_bool)] = Field(default=30, description="its printed height")
    sections: Annotated[tuple[BoardSection, ...], Field(min_length=1, max_length=MAX_SECTIONS)] = Field(
        description="top to bottom")

    @model_validator(mode="after")
    def _one_loop(self) -> "Board":
        if sum(section.layout == "loop" for section in self.sections) > 1:
            raise ValueError("a board has one edge: at most one section with `layout: loop`")
        return self


class Zone(Model):
    """A place on a player mat."""

    label: Label = Field(description="the large mark in the zone, e.g. 1")
    title: Name = Field(description="what goes there")
    title_en: Name = Field(default="", description="in English")


class Mat(Component):
    """A player's mat: rows of zones and notes."""

    kind: Literal["mat"]
    zones: Annotated[tuple[Annotated[tuple[Zone, ...], Field(max_length=MAX_ZONES)], ...],
                     Field(min_length=1, max_length=MAX_ZONES)] = Field(description="rows of zones, top to bottom")
    zone_mm: Size | None = Field(default=None, description="[width, height] of a zone (default: the card size plus a border)")
    notes_title: Name = Field(default="", description="the notes' heading")
    notes: Annotated[tuple[Text, ...], Field(max_length=MAX_NOTES)] = Field(default=(), description="lines under the zones")
    image: ImagePath | None = Field(default=None, description="under the title")
    image_mm: Annotated[float, Field(ge=5, le=300), BeforeValidator(_not_bool)] = Field(default=30, description="its printed height")

    def extent(self, card_mm: tuple[float, float]) -> tuple[float, float]:
        """The zones side by side, across and down (mm): the bound a mat is held to."""
        width, height = self.zone_mm or card_mm
        return max(len(row) for row in self.zones) * width, len(self.zones) * height

    @model_validator(mode="after")
    def _one_page(self) -> "Mat":
        text = len(self.notes_title) + sum(map(len, self.notes)) + sum(
            len(zone.label) + len(zone.title) + len(zone.title_en) for row in self.zones for zone in row)
        if text > MAX_PAGE_TEXT:
            raise ValueError(f"{text:,} characters of text: more than one mat holds (at most {MAX_PAGE_TEXT:,})")
        return self


class CardsTable(Model):
    """A table of one deck's cards, a column per card in deck order: each row a label and a
    template over the card's fields and data (`Card: "{value}"`, `Pays: "{pays}"`), the first
    row the header — so an aid prints the numbers the cards print."""

    deck: Id = Field(description="the deck whose cards are the columns")
    rows: Annotated[dict[Label, Text], Field(min_length=1, max_length=MAX_LINES)] = Field(
        description="label → a template over the card's fields and data; the first row the header")
    caption: Text = Field(default="", description="under the table")


class AidSection(Model):
    """A heading, lines and a table of a player aid."""

    heading: Name = Field(default="", description="a template")
    heading_en: Name = Field(default="", description="in English")
    lines: Annotated[tuple[Paragraph, ...], Field(max_length=MAX_LINES)] = Field(
        default=(), description="templates; **bold** marks the numbers that matter")
    table: Key | None = Field(default=None, description="a table computed by the game's rules module")
    cards: CardsTable | None = Field(default=None, description="a table of a deck's cards, after the lines")


def _text_of(sections: tuple[AidSection, ...]) -> int:
    return sum(len(s.heading) + len(s.heading_en) + sum(map(len, s.lines)) for s in sections)


class Aid(Component):
    """A player aid: sections of lines and tables on one page."""

    kind: Literal["aid"]
    sections: Annotated[tuple[AidSection, ...], Field(min_length=1, max_length=MAX_SECTIONS)] = Field(
        description="top to bottom")

    @model_validator(mode="after")
    def _one_page(self) -> "Aid":
        if _text_of(self.sections) > MAX_PAGE_TEXT:
            raise ValueError(f"{_text_of(self.sections):,} characters of text: more than one page holds "
                             f"(at most {MAX_PAGE_TEXT:,}); move some to the rules booklet")
        return self


class SetupHand(Model):
    """Cards each player is dealt, shown as that many of the deck's backs."""

    deck: Id = Field(description="the deck dealt from")
    count: Label = Field(description='how many, a template, e.g. "{params.big}"')


class SetupMoney(Model):
    """The money each player starts with: `amount` (a template) of each currency the money
    component prints, shown as the bills that make it."""

    component: Id = Field(description="the money component")
    amount: Label = Field(description='a template, e.g. "{rules[start_cash]}"')


class SetupDiagram(Model):
    """A setup drawn from the spec: the board with each asset's token on its row's start cell,
    and what each player has in front of him."""

    board: Id | None = Field(default=None, description="the board drawn")
    tokens: Id | None = Field(
        default=None, description="asset tokens on their rows' start cells; the others beside the board")
    each_player: Annotated[tuple[Id, ...], Field(max_length=MAX_COMPONENTS)] = Field(
        default=(), description="components every player gets one of (a mat, an account card)")
    money: SetupMoney | None = Field(default=None, description="the money each player starts with")
    hands: Annotated[tuple[SetupHand, ...], Field(max_length=MAX_COMPONENTS)] = Field(
        default=(), description="cards each player is dealt")


class WorkedExample(Model):
    """A worked example of the rules file (`id`, e.g. BOLSA-X4, names it and gives its title),
    as a game record without its `game`: the rules engine plays it and the booklet prints each
    event with its rule, so its numbers follow the spec. `quiet`: rule IDs whose events are
    left out (a company nobody trades)."""

    id: Key = Field(description="the rules file's example ID, e.g. BOLSA-X4")
    record: Annotated[dict[Key, Any], Field(max_length=MAX_KEYS)] = Field(
        description="a game record without its game: players, options, moves")
    quiet: Annotated[tuple[Key, ...], Field(max_length=MAX_KEYS)] = Field(
        default=(), description="rule IDs whose events are left out")


def _over_value(words: str) -> str:
    """Words for a house rule's value: a template whose one placeholder is `{value}`, filled by
    the spec's formatter (so `{name:>5000000}` is refused here, never printed raw)."""
    fill(words, {"value": Unchecked()}, "values")
    return words


class RuleWords(Model):
    """A house rule in words: its name, and the words for each value it may take (`"*"`: a
    template over `{value}` for any other)."""

    name: Name = Field(description="the house rule's name in words")
    values: Annotated[dict[Label, Annotated[Text, AfterValidator(_over_value)]], Field(max_length=MAX_KEYS)] = Field(
        default={}, description='the words for each value ("*": a template over {value} for any other)')


class BookletSection(AidSection):
    house_rules: Annotated[bool, Strict()] = Field(
        default=False, description="then every house rule of the engine, with its value in effect")
    components: Annotated[bool, Strict()] = Field(
        default=False, description="then every component with its count and small pictures of its faces")
    setup: SetupDiagram | None = Field(default=None, description="a drawing of the table set up")
    examples: Annotated[tuple[WorkedExample, ...], Field(max_length=MAX_SECTIONS)] = Field(
        default=(), description="worked examples, computed by the referee")
    page: Literal["flow", "new", "one"] = Field(
        default="flow", description="new: starts a page; one: a page of its own that it must fit")


class Booklet(Component):
    """The rules as printed: a teaching part (the goal, the components, the setup, the turn on
    one page, worked examples the engine plays) then the reference, every rule with its ID, in
    sections of templated lines and tables, flowed over half-sheet pages."""

    kind: Literal["booklet"]
    sections: Annotated[tuple[BookletSection, ...], Field(min_length=1, max_length=MAX_SECTIONS)] = Field(
        description="in reading order")
    rules_words: Annotated[dict[Key, RuleWords], Field(max_length=MAX_SECTIONS)] = Field(
        default={}, description="house rule name → its words, for {house[...]} and the house-rules table")

    @model_validator(mode="after")
    def _bounded(self) -> "Booklet":
        if _text_of(self.sections) > MAX_BOOKLET_TEXT:
            raise ValueError(f"{_text_of(self.sections):,} characters of text; a booklet has at most {MAX_BOOKLET_TEXT:,}")
        return self


class FormColumn(Model):
    """A column of a form, or a group of columns under one header."""

    title: Name = Field(default="", description="its header; a template (`{name}`, `{player}`)")
    title_en: Name = Field(default="", description="in English")
    width_mm: Mm | None = Field(default=None, description="its width (default: a share of what is left)")
    for_each: Literal["asset", "player"] | None = Field(default=None, description="repeated per asset or per player")
    columns: Annotated[tuple["FormColumn", ...], Field(max_length=MAX_COLUMNS)] = Field(
        default=(), description="sub-columns under this header, repeated with it")

    @model_validator(mode="after")
    def _shallow(self) -> "FormColumn":
        if self.depth > MAX_COLUMN_DEPTH:
            raise ValueError(f"columns nest at most {MAX_COLUMN_DEPTH} deep")
        return self

    @property
    def depth(self) -> int:
        """Levels of columns, this one included."""
        return 1 + max((column.depth for column in self.columns), default=0)


class Form(Component):
    """A table to fill in: an account card, a play-by-mail form."""

    kind: Literal["form"]
    size_mm: PanelSize | None = Field(default=None, description="[width, height] (default: the printable page)")
    players: Annotated[tuple[PlayerCount, ...], Field(max_length=MAX_PLAYERS)] = Field(
        default=(), description="one variant per player count, each within the game's players")
    row_mm: Annotated[float, Field(ge=7, le=40), BeforeValidator(_not_bool)] = Field(default=8, description="a row's height")
    rows: Annotated[int, Strict(), Field(ge=1, le=MAX_ROWS)] | Literal["moves"] | None = Field(
        default=None, description="rows (default: as many as fit; moves: a whole game's, from the engine)")
    columns: Annotated[tuple[FormColumn, ...], Field(min_length=1, max_length=MAX_COLUMNS)] = Field(
        description="left to right")


AnyComponent = Annotated[Union[Deck, Tokens, Money, Board, Mat, Aid, Form, Booklet], Field(discriminator="kind")]


# --- games and the whole spec -------------------------------------------------------------


class Players(Model):
    """How many the game seats."""

    min: PlayerCount = Field(description="the fewest players")
    max: PlayerCount = Field(description="the most players")

    @model_validator(mode="after")
    def _ordered(self) -> "Players":
        if self.max < self.min:
            raise ValueError(f"max ({self.max}) is below min ({self.min})")
        return self


ASSET_KEYS = ("companies", "colours", "currencies")
MAX_FONTS = 20  # of one game
BUNDLED_FONTS = ("regular", "bold")  # pnp's own, DejaVu Sans: always there, never redefined


def _font_name(value: str) -> str:
    if value in BUNDLED_FONTS:
        raise ValueError(f"`{value}` is a bundled font's name (DejaVu Sans); give yours another")
    return value


FontName = Annotated[Key, AfterValidator(_font_name)]


class FontFile(Model):
    """A font of the designer's: a TrueType or OpenType file in the spec's folder, and the file
    `**bold**` in its text switches to. Written as the file alone (`display: fonts/Serif.ttf`)
    or with `bold`."""

    file: RelativePath = Field(description="a .ttf or .otf file, relative to the spec's folder")
    bold: RelativePath | None = Field(default=None, description="its bold, for **…** in text set in it (default: "
                                                                "the same file)")
MAX_LANGUAGES = 40  # kits of one game: far above any table's needs, far below a build that never ends


def _language_code(value: str) -> str:
    """A catalog's folder name: `es`, `ru`, `pt_BR` (the pseudo-locale `qps` is for `--lang` only)."""
    problem = code_problem(value)
    if problem:
        raise ValueError(problem)
    return value


LanguageCode = Annotated[str, Field(min_length=2, max_length=6), AfterValidator(_language_code)]


Assets = Annotated[tuple[Asset, ...], Field(max_length=MAX_ASSETS)]


class Game(Model):
    """One game: its assets, tracks, house rules and components."""

    title: Name = Field(description="as printed")
    title_en: Name = Field(default="", description="the English title")
    language: LanguageCode = Field(default="en", description="the default kit's language, e.g. es (the texts are English)")
    languages: Annotated[tuple[LanguageCode, ...], Field(max_length=MAX_LANGUAGES)] = Field(
        default=(), description="every kit's language, e.g. [es, en, ru] (default: just `language`)")
    players: Players = Field(description="{min: 3, max: 6}")
    companies: Assets | None = Field(default=None, description="the game's assets, if companies (at most one of the three "
                                                                "lists; none: plain cards and pieces)")
    colours: Assets | None = Field(default=None, description="the game's assets, if colours")
    currencies: Assets | None = Field(default=None, description="the game's assets, if currencies")
    tracks: Annotated[dict[Key, Track], Field(max_length=MAX_TRACKS)] = Field(
        default={}, description="named tracks, `{tracks[NAME].last}` in templates")
    rules: Annotated[dict[Key, Any], Field(max_length=MAX_KEYS)] = Field(
        default={}, description="house-rule values, checked against the game's rules module")
    vars: Annotated[dict[Key, Any], Field(max_length=MAX_KEYS)] = Field(
        default={}, description="the designer's free values, `{vars[NAME]}` in every template")
    fonts: Annotated[dict[FontName, Annotated[FontFile, BeforeValidator(_file_name, json_schema_input_type=Union[str, FontFile])]],
                     Field(max_length=MAX_FONTS)] \
        = Field(default={}, description="the designer's fonts by name: `display: fonts/Serif.ttf` (TTF or OTF, in the "
                                        "spec's folder), or {file:, bold:}; free elements name them (`font: display`)")
    components: Annotated[tuple[AnyComponent, ...], Field(min_length=1, max_length=MAX_COMPONENTS)] = Field(
        description="what is printed")

    @model_validator(mode="after")
    def _one_asset_list(self) -> "Game":
        given = [key for key in ASSET_KEYS if getattr(self, key) is not None]
        if len(given) > 1:
            raise ValueError("a game lists at most one of `companies`, `colours` or `currencies` (none: plain pieces)")
        if given and not getattr(self, given[0]):
            raise ValueError(f"`{given[0]}` needs at least one entry (or leave it out: plain pieces)")
        if self.languages and self.language not in self.languages:
            raise ValueError(f"`language` {self.language} (the default kit's) is not among `languages` "
                             f"({', '.join(self.languages)})")
        if len(set(self.languages)) != len(self.languages):
            raise ValueError("`languages` lists a language twice")
        return self

    @property
    def kit_languages(self) -> tuple[str, ...]:
        """The languages the game is printed in, the default first."""
        return (self.language, *(code for code in self.languages if code != self.language))

    @property
    def asset_key(self) -> str:
        """Which list the assets are: companies, colours or currencies (companies for a game of
        plain pieces, which lists none)."""
        return next((key for key in ASSET_KEYS if getattr(self, key) is not None), ASSET_KEYS[0])

    @property
    def assets(self) -> tuple[Asset, ...]:
        """Companies, colours or currencies, in board order (none for a game of plain pieces)."""
        return getattr(self, self.asset_key) or ()

    def asset(self, asset_id: str) -> Asset:
        return next(a for a in self.assets if a.id == asset_id)

    def component(self, component_id: str) -> AnyComponent:
        return next(c for c in self.components if c.id == component_id)


class Spec(Model):
    """components.yaml: the print settings and the games."""

    version: Literal[1] = Field(default=1, description="of the file's format")
    print: Print = Field(default=Print(), description="how the home printer prints")
    games: Annotated[dict[Key, Game], Field(min_length=1, max_length=MAX_GAMES)] = Field(
        description="the games, by id")

    _folder: Path = PrivateAttr(default_factory=Path.cwd)  # set by the loader
    _source: Source | None = PrivateAttr(default=None)  # the loaded file, for located messages

    @property
    def folder(self) -> Path:
        """The folder the spec's relative paths (images, card lists) start from."""
        return self._folder

    @property
    def origin(self) -> tuple[str, str] | None:
        """The file the spec was read from, as messages name it, and the SHA-256 of its bytes
        (None for a spec made in code)."""
        return None if self._source is None else (self._source.file, self._source.sha256)

    def written(self, path: PathKey) -> Any:
        """The value at `path` as the file writes it (None when it does not, or for a spec made
        in code): templates before they are filled, fields left to their defaults absent."""
        return None if self._source is None else self._source.get(path)

    def issue(self, path: PathKey, message: str) -> Issue:
        """A message located at `path`: `file:line:col` when the spec was loaded from a file."""
        if self._source is None:
            return Issue("components.yaml", 0, 0, format_path(path), message)
        return self._source.issue(path, message)
