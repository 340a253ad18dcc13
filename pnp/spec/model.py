"""The typed, immutable model of components.yaml.

Field names here are the YAML keys. Everything game-specific is data: a game is assets
(companies, colours or currencies), named tracks, house-rule values and a list of components
of a few generic kinds (deck, tokens, money, board, mat, aid, form). Generators draw kinds;
rules engines read assets, tracks, rules and decks.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr, Strict, field_validator,
    model_validator,
)  # fmt: skip

from pnp.errors import Issue
from pnp.i18n import CODE, PSEUDO
from pnp.spec.contract import MAX_CELLS
from pnp.spec.images import clean_path
from pnp.spec.source import Source, format_path

SYMBOLS = ("circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon", "cross")
PATTERNS = ("none", "hstripes", "vstripes", "diagonal", "antidiagonal", "crosshatch", "dots", "checks", "waves")
FOR_EACH = ("asset", "pair")

_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}){1,2}$")
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def _colour(value: str) -> str:
    if not _HEX.match(value):
        raise ValueError(f'expected a colour such as "#1f77b4", got "{value}"')
    if len(value) == 4:
        value = "#" + "".join(c * 2 for c in value[1:])
    return value.lower()


def check_id(value: str) -> str:
    """Ids become file names: keep them portable and harmless."""
    if not _ID.match(value) or value.lower() in _RESERVED:
        raise ValueError(
            f"{value!r} cannot be an id: use 1-40 letters, digits, '-' or '_', starting with a letter or digit"
        )
    return value


def _not_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError(f"expected a number, got {str(value).lower()}")
    return value


Colour = Annotated[str, AfterValidator(_colour)]
Id = Annotated[str, AfterValidator(check_id)]
MAX_COUNT = 1000  # of one card, bill or copy: far above any game, far below a memory blow-up
Count = Annotated[int, Strict(), Field(ge=0, le=MAX_COUNT)]
PositiveCount = Annotated[int, Strict(), Field(ge=1, le=MAX_COUNT)]
Integer = Annotated[int, Strict()]
Number = Annotated[float, BeforeValidator(_not_bool)]
Mm = Annotated[float, BeforeValidator(_not_bool), Field(gt=0)]
Size = tuple[Mm, Mm]
Scalar = Union[Annotated[bool, Strict()], Integer, Number, str]
RelativePath = Annotated[str, AfterValidator(clean_path)]  # a file in the spec's folder, e.g. "art/logo.svg"
ImagePath = RelativePath  # PNG, JPEG or SVG


class Model(BaseModel):
    """Base of every spec object: immutable, and unknown keys are errors, not silently ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


# --- print settings -----------------------------------------------------------------------


class Print(Model):
    paper: Literal["a4", "letter"] = "a4"
    margin_mm: Annotated[float, BeforeValidator(_not_bool), Field(ge=0, le=30)] = 5
    card_mm: Size = (63, 88)
    bleed_mm: Annotated[float, BeforeValidator(_not_bool), Field(ge=0, le=10)] = 3
    safe_mm: Annotated[float, BeforeValidator(_not_bool), Field(ge=0, le=15)] = 3.5
    duplex: Literal["long", "short", "fold", "none"] = "long"
    back_offset_mm: tuple[Number, Number] = (0, 0)
    ink_saver: Annotated[bool, Strict()] = False
    backs: Literal["light", "dark"] = "light"  # card backs: light forgives a home duplex's misregistration


# --- assets and tracks --------------------------------------------------------------------


class Asset(Model):
    """A company, colour or currency: what cards, tokens and board rows are made for."""

    id: Id
    name: str
    name_en: str = ""
    color: Colour
    symbol: Literal[SYMBOLS]  # type: ignore[valid-type]
    pattern: Literal[PATTERNS] = "none"  # type: ignore[valid-type]
    initial: str = ""  # e.g. the Cyrillic initial of a colour
    sign: str = ""  # e.g. a currency sign
    image: ImagePath | None = None  # a logo: on the cards' band, the board's row, as `:ID:` in text


class Track(Model):
    """A row of numbered cells: a price track, a round track, a rate track."""

    from_: Number | None = Field(default=None, alias="from")
    to: Number | None = None
    step: Annotated[float, BeforeValidator(_not_bool), Field(gt=0)] = 1
    values: tuple[Number, ...] | None = None
    start: Number | None = None
    labels: dict[Number, str] = {}

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
        if self.values is None and self.to < self.from_:  # type: ignore[operator]
            raise ValueError(f"`to` ({self.to:g}) is below `from` ({self.from_:g})")
        if self.values is not None and not self.values:
            raise ValueError("`values` needs at least one value")
        if self.values is None and (self.to - self.from_) / self.step >= MAX_CELLS:  # type: ignore[operator]
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
        count = int(round((self.to - self.from_) / self.step)) + 1  # type: ignore[operator]
        return tuple(_clean(self.from_ + i * self.step) for i in range(count))  # type: ignore[operator]

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

    asset: str | None = None  # an asset id or a template giving one; sets colour, symbol, pattern
    value: str = ""  # the one large element (code, number)
    other: str = ""  # a second value, printed in neutral ink
    title: str = ""
    subtitle: str = ""
    text: str = ""  # small print
    corner: str | None = None  # corner index; defaults to `value`


class CardEntry(Face):
    """Cards of one face: `count` copies, or `count` per asset / per pair of assets with `for_each`."""

    count: PositiveCount = 1
    for_each: Literal[FOR_EACH] | None = None  # type: ignore[valid-type]
    data: dict[str, Scalar] = {}  # values rules engines read; never drawn
    image: ImagePath | None = None  # an illustration; a template, e.g. "art/{id}.png"


class TokenEntry(Model):
    count: PositiveCount = 1
    for_each: Literal[FOR_EACH] | None = None  # type: ignore[valid-type]
    front: Face
    back: Face | None = None
    data: dict[str, Scalar] = {}


class Back(Model):
    """A deck's common back, symmetric under a half turn."""

    title: str = ""
    subtitle: str = ""
    color: Colour = "#4d4d4d"
    pattern: Literal[PATTERNS] = "diagonal"  # type: ignore[valid-type]
    image: ImagePath | None = None  # art to the bleed, under the title panel (if a title is given)


class Bill(Model):
    value: Annotated[float, BeforeValidator(_not_bool), Field(gt=0)]
    count: Count
    color: Colour
    label: str | None = None  # printed instead of the value, e.g. "½"


# --- components ---------------------------------------------------------------------------


class Component(Model):
    id: Id
    name: str
    name_en: str = ""
    copies: PositiveCount = 1


FIELDS = ("title", "subtitle", "value", "other", "text", "none")
ENTRY_FIELDS = ("count", "qty", "for_each", "asset", "value", "other", "title", "subtitle", "text", "corner", "image")


def _column_target(value: str) -> str:
    if value.lower() not in ENTRY_FIELDS and not (value.startswith("data.") and len(value) > 5):
        raise ValueError(f'expected a card field ({", ".join(ENTRY_FIELDS)}) or "data.NAME", got "{value}"')
    return value
Points = Annotated[float, BeforeValidator(_not_bool), Field(ge=6, le=120)]  # VISUAL.md: nothing under 6 pt


class CardLayout(Model):
    """Which face field goes where on a deck's fronts, and how large its type may be; the
    defaults are the layout of the bundled decks."""

    band: Literal[FIELDS] = "title"  # type: ignore[valid-type]  # bold in the colour band, `subtitle` beneath
    centre: Literal[FIELDS] = "value"  # type: ignore[valid-type]  # the one large element, `other` beside it
    footer: Literal[FIELDS] = "text"  # type: ignore[valid-type]  # small print at the bottom
    corner: Annotated[bool, Strict()] = True  # the corner index, top-left and turned bottom-right
    art: Literal["box", "full"] = "box"  # card images: in the centre, or to the bleed behind everything
    band_pt: tuple[Points, Points] = (7, 12)  # [smallest, largest] type in the band
    centre_pt: tuple[Points, Points] = (14, 44)
    footer_pt: tuple[Points, Points] = (6, 9.5)

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

    file: RelativePath
    sheet: str | None = None  # default: the workbook's first sheet
    columns: dict[str, Annotated[str, AfterValidator(_column_target)]] = {}  # header → card field or data.NAME


class Deck(Component):
    kind: Literal["deck"]
    size_mm: Size | None = None  # default: print.card_mm
    back: Back = Back()
    layout: CardLayout = CardLayout()
    cards_from: Annotated[CardList, BeforeValidator(_file_name)] | None = None  # `market.csv`, or {file:, sheet:}
    cards: tuple[CardEntry, ...] = Field(min_length=1)


class Tokens(Component):
    kind: Literal["tokens"]
    shape: Literal["circle", "square", "rounded", "hexagon", "octagon"] = "circle"
    size_mm: Size = (20, 20)
    tokens: tuple[TokenEntry, ...] = Field(min_length=1)


class Money(Component):
    kind: Literal["money"]
    size_mm: Size = (100, 50)
    for_each: Literal["asset"] | None = None
    currency: str = ""  # template, e.g. "{id}"
    bills: tuple[Bill, ...] = Field(min_length=1)


class BoardSection(Model):
    title: str = ""
    title_en: str = ""
    track: str | None = None  # a game track: one row of cells
    rows: Literal["single", "each_asset"] = "single"
    table: str | None = None  # a table computed by the game's rules module
    marks: str | None = None  # small per-cell notes from the rules module (e.g. starting positions)
    start_label: str = "START"  # the word on the track's start cell, in the game's language
    holds: PositiveCount | Literal["pairs"] = 1  # tokens a cell holds side by side; pairs: one per other asset
    layout: Literal["row", "loop", "grid"] = "row"  # a track's cells in a row, round the board's edge, or a grid
    columns: PositiveCount | None = None  # a grid's cells per row (default: about square)

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
    kind: Literal["board"]
    cell_mm: Annotated[float, BeforeValidator(_not_bool), Field(ge=12, le=60)] = 14
    image: ImagePath | None = None  # under the title (inside a loop track: its centre)
    image_mm: Annotated[float, BeforeValidator(_not_bool), Field(ge=5, le=300)] = 30  # its printed height
    sections: tuple[BoardSection, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _one_loop(self) -> "Board":
        if sum(section.layout == "loop" for section in self.sections) > 1:
            raise ValueError("a board has one edge: at most one section with `layout: loop`")
        return self


class Zone(Model):
    label: str
    title: str
    title_en: str = ""


class Mat(Component):
    kind: Literal["mat"]
    zones: tuple[tuple[Zone, ...], ...] = Field(min_length=1)  # rows top to bottom
    zone_mm: Size | None = None  # default: the card size plus a border
    notes_title: str = ""
    notes: tuple[str, ...] = ()
    image: ImagePath | None = None  # under the title
    image_mm: Annotated[float, BeforeValidator(_not_bool), Field(ge=5, le=300)] = 30  # its printed height


class AidSection(Model):
    heading: str = ""
    heading_en: str = ""
    lines: tuple[str, ...] = ()  # **bold** marks the numbers that matter
    table: str | None = None


class Aid(Component):
    kind: Literal["aid"]
    sections: tuple[AidSection, ...] = Field(min_length=1)


class BookletSection(AidSection):
    house_rules: Annotated[bool, Strict()] = False  # then every house rule of the engine, with its value in effect


class Booklet(Component):
    """The rules as printed: sections of templated lines (a line opening with a rule ID prints
    the ID in bold) and rules-computed tables, flowed over A5 pages."""

    kind: Literal["booklet"]
    sections: tuple[BookletSection, ...] = Field(min_length=1)


class FormColumn(Model):
    title: str = ""
    title_en: str = ""
    width_mm: Mm | None = None
    for_each: Literal["asset", "player"] | None = None
    columns: tuple["FormColumn", ...] = ()  # sub-columns, repeated per asset or player


class Form(Component):
    kind: Literal["form"]
    size_mm: Size | None = None  # default: the printable page
    players: tuple[PositiveCount, ...] = ()  # one variant per player count
    row_mm: Annotated[float, BeforeValidator(_not_bool), Field(ge=7, le=40)] = 8
    rows: PositiveCount | Literal["moves"] | None = None  # default: as many as fit; moves: a whole game's, from the engine
    columns: tuple[FormColumn, ...] = Field(min_length=1)


AnyComponent = Annotated[Union[Deck, Tokens, Money, Board, Mat, Aid, Form, Booklet], Field(discriminator="kind")]


# --- games and the whole spec -------------------------------------------------------------


class Players(Model):
    min: PositiveCount
    max: PositiveCount

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


LanguageCode = Annotated[str, AfterValidator(_language_code)]


class Game(Model):
    title: str
    title_en: str = ""
    language: LanguageCode = "en"  # the default kit's language
    languages: tuple[LanguageCode, ...] = Field(default=(), max_length=MAX_LANGUAGES)  # every kit's; default: [language]
    players: Players
    companies: tuple[Asset, ...] | None = None
    colours: tuple[Asset, ...] | None = None
    currencies: tuple[Asset, ...] | None = None
    tracks: dict[str, Track] = {}
    rules: dict[str, Any] = {}  # house-rule values, checked against the game's rules module
    vars: dict[str, Any] = {}  # the designer's free values, `{vars[start_cash]}` in every template
    components: tuple[AnyComponent, ...] = Field(min_length=1)

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
    version: Literal[1] = 1
    print: Print = Print()
    games: dict[str, Game] = Field(min_length=1)

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
