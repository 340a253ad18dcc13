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
from pnp.i18n import CODE, PSEUDO
from pnp.spec.contract import MAX_CELLS
from pnp.spec.images import clean_path
from pnp.spec.source import MAX_BYTES, MAX_DEPTH, MAX_DIGITS, MAX_NODES, Source, format_path
from pnp.spec.templates import MAX_FILLED, MAX_PRECISION, MAX_SEPARATOR, MAX_WIDTH, check_visible

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


# --- print settings -----------------------------------------------------------------------


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
    cut: Literal["none", "silhouette", "cricut", "dxf"] = Field(
        default="none", description="a cutting machine: its registration marks and cut files (pnp build --cut)")


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
        if self.values is None and (self.from_ is None or self.to is None):
            raise ValueError("give either `from` and `to` (with an optional `step`) or a list of `values`")
        if self.values is not None and (self.from_ is not None or self.to is not None):
            raise ValueError("give either `from`/`to` or `values`, not both")
        if self.values is None and self.to < self.from_:  # type: ignore[operator]  # from/to are set when values is None (checked above)
            raise ValueError(f"`to` ({self.to:g}) is below `from` ({self.from_:g})")
        if self.values is not None and not self.values:
            raise ValueError("`values` needs at least one value")
        if self.values is None and (self.to - self.from_) / self.step >= MAX_CELLS:  # type: ignore[operator]  # from/to are set when values is None (checked above)
            raise ValueError(f"a track has at most {MAX_CELLS} cells; check `from`, `to` and `step`")
        if self.values is not None and len(self.values) > MAX_CELLS:
            raise ValueError(f"a track has at most {MAX_CELLS} cells")
        cells = self.cells
        if self.start is not None and self.start not in cells:
            raise ValueError(f"start {self.start:g} is not a cell of the track")
        for value in self.labels:
            if value not in cells:
                raise ValueError(f"label for {value:g}, which is not a cell of the track")
        return self

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


class Face(Model):
    """One side of a piece. Text fields are templates: `{id}`, `{name}`, `{a.id}`, `{tracks[quote].size}`."""

    asset: Label | None = Field(default=None, description="an asset id or a template giving one; sets colour, symbol, pattern")
    value: Label = Field(default="", description="the one large element (a code, a number)")
    other: Label = Field(default="", description="a second value, printed in neutral ink")
    title: Name = Field(default="", description="bold in the colour band")
    subtitle: Name = Field(default="", description="beneath the title")
    text: Text = Field(default="", description="small print")
    corner: Label | None = Field(default=None, description="the corner index; defaults to `value`")


class CardEntry(Face):
    """Cards of one face: `count` copies, or `count` per asset / per pair of assets with `for_each`."""

    count: PositiveCount = Field(default=1, description="copies of the card (per asset or pair with `for_each`)")
    for_each: ForEach | None = Field(
        default=None, description="asset: one card per asset; pair: one per pair of assets")
    data: Annotated[dict[Key, Scalar], Field(max_length=MAX_KEYS)] = Field(
        default={}, description="values rules engines read, `{NAME}` in the card's templates; never drawn")
    image: ImagePath | None = Field(default=None, description='an illustration; a template, e.g. "art/{id}.png"')


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
    image: ImagePath | None = Field(default=None, description="art to the bleed, under the title panel (if a title is given)")


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


FaceField = Literal["title", "subtitle", "value", "other", "text", "none"]
FIELDS: tuple[str, ...] = get_args(FaceField)
ENTRY_FIELDS = ("count", "qty", "for_each", "asset", "value", "other", "title", "subtitle", "text", "corner", "image")


def _column_target(value: str) -> str:
    if value.lower() not in ENTRY_FIELDS and not (value.startswith("data.") and len(value) > 5):
        raise ValueError(f'expected a card field ({", ".join(ENTRY_FIELDS)}) or "data.NAME", got "{shorten(value)}"')
    return value


Points = Annotated[float, Field(ge=6, le=120), BeforeValidator(_not_bool)]  # VISUAL.md: nothing under 6 pt


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


def _file_name(value: Any) -> Any:
    return {"file": value} if isinstance(value, str) else value


class CardList(Model):
    """Where a deck's card entries come from: a .csv file, or a sheet of an .xlsx workbook, one
    row per entry (read by `pnp.spec.sheets` before validation)."""

    file: RelativePath = Field(description="a .csv or .xlsx file in the spec's folder")
    sheet: Name | None = Field(default=None, description="the workbook's sheet (default: its first)")
    columns: Annotated[dict[Name, Annotated[str, AfterValidator(_column_target)]], Field(max_length=MAX_COLUMNS)] = Field(
        default={}, description="header → card field or data.NAME, for headers that say something else")


class Deck(Component):
    """Cards with a common back."""

    kind: Literal["deck"]
    size_mm: Size | None = Field(default=None, description="[width, height] (default: print.card_mm)")
    back: Back = Field(default=Back(), description="the common back")
    layout: CardLayout = Field(default=CardLayout(), description="where each field goes on the fronts")
    cards_from: Annotated[CardList, BeforeValidator(_file_name)] | None = Field(
        default=None, description="`market.csv`, or {file:, sheet:, columns:}: the card entries from a spreadsheet")
    cards: Annotated[tuple[CardEntry, ...], Field(min_length=1, max_length=MAX_ENTRIES)] = Field(
        description="the card entries")


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


class BoardSection(Model):
    """One part of a board: a track of cells, or a table the rules compute."""

    title: Name = Field(default="", description="the section's heading; a template")
    title_en: Name = Field(default="", description="its English heading")
    track: Key | None = Field(default=None, description="a game track: one row of cells")
    rows: Literal["single", "each_asset"] = Field(default="single", description="one row, or one row per asset")
    table: Key | None = Field(default=None, description="a table computed by the game's rules module")
    marks: Key | None = Field(default=None, description="small per-cell notes from the rules module (e.g. starting positions)")
    start_label: Label = Field(default="START", description="the word on the track's start cell, in the game's language")
    holds: PositiveCount | Literal["pairs"] = Field(
        default=1, description="tokens a cell holds side by side; pairs: one per other asset")
    layout: Literal["row", "loop", "grid"] = Field(
        default="row", description="a track's cells in a row, round the board's edge, or a grid")
    columns: Annotated[int, Strict(), Field(ge=1, le=MAX_CELLS)] | None = Field(
        default=None, description="a grid's cells per row (default: about square)")

    @model_validator(mode="after")
    def _one_content(self) -> "BoardSection":
        if (self.track is None) == (self.table is None):
            raise ValueError("a board section shows either a `track` or a `table`")
        if self.layout != "row" and (self.track is None or self.rows != "single" or self.holds != 1):
            raise ValueError(f"a {self.layout} lays out one track's cells, one token each: give `track` and "
                             "leave `rows: single` and `holds: 1`")
        if self.columns is not None and self.layout != "grid":
            raise ValueError("`columns` is for `layout: grid`")
        return self


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


class RuleWords(Model):
    """A house rule in words: its name, and the words for each value it may take (`"*"`: a
    template over `{value}` for any other)."""

    name: Name = Field(description="the house rule's name in words")
    values: Annotated[dict[Label, Text], Field(max_length=MAX_KEYS)] = Field(
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
MAX_LANGUAGES = 40  # kits of one game: far above any table's needs, far below a build that never ends


def _language_code(value: str) -> str:
    """A catalog's folder name: `es`, `ru`, `pt_BR` (the pseudo-locale `qps` is for `--lang` only)."""
    if value == PSEUDO:
        raise ValueError(f'"{PSEUDO}" is the pseudo-locale: build it with --lang {PSEUDO}, never list it')
    if not CODE.match(value):
        raise ValueError(f'expected a language code such as "es", "ru" or "pt_BR", got "{value}"')
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
    companies: Assets | None = Field(default=None, description="the game's assets, if companies (one of the three lists)")
    colours: Assets | None = Field(default=None, description="the game's assets, if colours")
    currencies: Assets | None = Field(default=None, description="the game's assets, if currencies")
    tracks: Annotated[dict[Key, Track], Field(max_length=MAX_TRACKS)] = Field(
        default={}, description="named tracks, `{tracks[NAME].last}` in templates")
    rules: Annotated[dict[Key, Any], Field(max_length=MAX_KEYS)] = Field(
        default={}, description="house-rule values, checked against the game's rules module")
    vars: Annotated[dict[Key, Any], Field(max_length=MAX_KEYS)] = Field(
        default={}, description="the designer's free values, `{vars[NAME]}` in every template")
    components: Annotated[tuple[AnyComponent, ...], Field(min_length=1, max_length=MAX_COMPONENTS)] = Field(
        description="what is printed")

    @model_validator(mode="after")
    def _one_asset_list(self) -> "Game":
        given = [key for key in ASSET_KEYS if getattr(self, key) is not None]
        if len(given) != 1:
            raise ValueError("a game lists exactly one of `companies`, `colours` or `currencies`")
        if not getattr(self, given[0]):
            raise ValueError(f"`{given[0]}` needs at least one entry")
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
        return next(key for key in ASSET_KEYS if getattr(self, key) is not None)

    @property
    def assets(self) -> tuple[Asset, ...]:
        """Companies, colours or currencies, in board order."""
        return getattr(self, self.asset_key)

    def asset(self, asset_id: str) -> Asset:
        return next(a for a in self.assets if a.id == asset_id)

    def component(self, component_id: str) -> Any:
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

    def written(self, path: tuple) -> Any:
        """The value at `path` as the file writes it (None when it does not, or for a spec made
        in code): templates before they are filled, fields left to their defaults absent."""
        return None if self._source is None else self._source.get(path)

    def issue(self, path: tuple, message: str) -> Issue:
        """A message located at `path`: `file:line:col` when the spec was loaded from a file."""
        if self._source is None:
            return Issue("components.yaml", 0, 0, format_path(path), message)
        return self._source.issue(path, message)
