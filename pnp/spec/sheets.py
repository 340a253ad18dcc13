"""Card lists from spreadsheets: a deck's `cards_from: market.csv` (or an .xlsx sheet) read into
its `cards` before the spec is validated, so a row is checked exactly like a YAML card entry.

One row is one card entry. The header names each column: a card field (`value`, `title`,
`count` or `qty`, `for_each`, `asset`, `image`, `back`, …), `data.NAME`, or anything else, which goes
to `data` under its own name; `columns:` renames headers that say something else. Empty cells
are left out (the field's default applies). Every cell keeps its place — the file, its row and
its column, as spreadsheets number them — so a bad cell is reported as `market.csv:7:3`.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any, Iterator

from pnp.errors import Issue, SpecError, shorten
from pnp.spec.images import ArtError, clean_path
from pnp.spec.model import ENTRY_FIELDS, MAX_ENTRIES, MAX_LIST_BYTES, MAX_LIST_COLUMNS, MAX_LIST_UNPACKED, MAX_PATH
from pnp.spec.source import PathKey, Source, read_input

MAX_BYTES, MAX_UNPACKED, MAX_COLUMNS = MAX_LIST_BYTES, MAX_LIST_UNPACKED, MAX_LIST_COLUMNS  # the model's bounds
MAX_ROWS = MAX_ENTRIES  # one card entry per row
ALIASES = {"qty": "count", "quantity": "count"}
_INTEGER = re.compile(r"^[+-]?\d+$")
_NUMBER = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")

Cell = tuple[int, int, Any]  # row, column (1-based), value


def expand_card_lists(source: Source, folder: Path) -> Source:
    """`source` with every deck's `cards_from` read into its `cards`; unreadable lists raise
    `SpecError` located at their `cards_from`."""
    data, values, keys, files = source.data, dict(source.values), dict(source.keys), dict(source.files)
    issues: list[Issue] = []
    for where, component in list(_decks_with_lists(data)):
            if "cards" in component:
                issues.append(source.issue(where + ("cards_from",), "give either `cards` or `cards_from`, not both",
                                           key=True))
                continue
            request = _request(component["cards_from"])
            if request is None:
                continue  # not a file name or a mapping with one: the shape check reports it
            try:
                name, rows = _read(folder, *request, display=_display(source.file, request))
            except ValueError as error:
                issues.append(source.issue(where + ("cards_from",), str(error)))
                continue
            cards = where + ("cards",)
            entries = _entries(rows, request[2], name, cards, values, keys, issues)
            files[cards] = name
            values[cards] = keys[cards] = (rows[0][0][0], 1) if rows else (1, 1)
            component = {**component, "cards": entries}
            data = _replace(data, where, component)
    if issues:
        raise SpecError(sorted(issues, key=lambda i: (i.file, i.line, i.col)))
    return Source(data, source.file, values, keys, files, source.sha256)


def _decks_with_lists(data: Any) -> Iterator[tuple[PathKey, dict[str, Any]]]:
    """(path, component) of every deck naming a `cards_from`, however malformed the rest."""
    games = data.get("games") if isinstance(data, dict) else None
    for game_id, game in (games.items() if isinstance(games, dict) else ()):
        components = game.get("components") if isinstance(game, dict) else None
        for index, component in enumerate(components if isinstance(components, tuple) else ()):
            if isinstance(component, dict) and component.get("kind") == "deck" and "cards_from" in component:
                yield ("games", game_id, "components", index), component


def _request(value: Any) -> tuple[str, str | None, dict[str, str]] | None:
    """(file, sheet, columns) from `cards_from: file` or `cards_from: {file:, sheet:, columns:}`."""
    if isinstance(value, str):
        return value, None, {}
    if isinstance(value, dict) and isinstance(value.get("file"), str):
        sheet = value.get("sheet") if isinstance(value.get("sheet"), str) else None
        columns = value.get("columns")
        columns = columns if isinstance(columns, dict) else {}
        return value["file"], sheet, {str(k): v for k, v in columns.items() if isinstance(v, str)}
    return None


def _display(spec_file: str, request: tuple[str, str | None, dict[str, str]]) -> str:
    """The list's name in messages: beside the spec's, with the sheet when one is named."""
    file, sheet, _ = request
    name = (Path(spec_file).parent / file).as_posix()
    return f"{name}[{sheet}]" if sheet else name


def _read(folder: Path, file: str, sheet: str | None, columns: dict[str, str], *, display: str) -> tuple[str, list[list[Cell]]]:
    """The non-empty rows of the list, each a list of (row, column, value) cells."""
    if len(file) > MAX_PATH:  # read before the model checks the spec: its bound is applied here
        raise ValueError(f"a file name of at most {MAX_PATH} characters, not {len(file):,}")
    try:
        path = Path(folder) / clean_path(file)
    except ArtError as error:
        raise ValueError(str(error)) from None
    try:
        if not path.is_file():
            raise ValueError(f"{file}: no such file (looked in {Path(folder).absolute()})")
        size = path.stat().st_size
    except OSError as error:
        raise ValueError(f"{file}: cannot read it ({error.strerror or error})") from None
    if size > MAX_BYTES:
        raise ValueError(f"{file}: too large (at most {MAX_BYTES:,} bytes)")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        if sheet is not None:
            raise ValueError(f"{file}: a CSV file has no sheets; `sheet` is for .xlsx files")
        rows = list(_filled(_csv_rows(path, file), file))
    elif suffix in (".xlsx", ".xlsm"):
        rows = list(_filled(_xlsx_rows(path, file, sheet), file))
    else:
        raise ValueError(f"{file}: a card list is a .csv or .xlsx file")
    return display, rows


def _filled(rows: Iterator[list[Cell]], file: str) -> Iterator[list[Cell]]:
    """The rows that hold something, at most a header and MAX_ROWS cards of MAX_COLUMNS each;
    read no further than that (a sheet may say it has a million rows)."""
    count = 0
    for row in rows:
        if not any(value not in (None, "") for _, _, value in row):
            continue
        if len(row) > MAX_COLUMNS and any(value not in (None, "") for _, _, value in row[MAX_COLUMNS:]):
            raise ValueError(f"{file}:{row[0][0]}: more than {MAX_COLUMNS} columns")
        count += 1
        if count > MAX_ROWS + 1:
            raise ValueError(f"{file}: more than {MAX_ROWS:,} rows (a deck has at most {MAX_ROWS:,} card entries)")
        yield row[:MAX_COLUMNS]


def _csv_rows(path: Path, file: str) -> Iterator[list[Cell]]:
    """Rows with the line each starts on; the delimiter (`,` `;` or tab) is the one the header
    uses most, as spreadsheets export either."""
    try:
        text = read_input(path, MAX_BYTES).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"{file}: not UTF-8 text (save the sheet as “CSV UTF-8”)") from None
    header = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=header.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    line = 1
    try:
        for row in reader:
            yield [(line, column, value.strip()) for column, value in enumerate(row, 1)]
            line = reader.line_num + 1
    except csv.Error as error:
        raise ValueError(f"{file}:{reader.line_num}: not readable CSV ({error})") from None


def _check_unpacked(data: bytes, file: str) -> None:
    """A ValueError when the workbook unpacks to more than MAX_UNPACKED: a zip bomb is refused
    before openpyxl reads a byte of it."""
    import zipfile

    unpacked = sum(member.file_size for member in zipfile.ZipFile(io.BytesIO(data)).infolist())
    if unpacked > MAX_UNPACKED:
        raise ValueError(f"{file}: unpacks to {unpacked:,} bytes, more than a card list needs ({MAX_UNPACKED:,})")


def _xlsx_rows(path: Path, file: str, sheet: str | None) -> Iterator[list[Cell]]:
    import zipfile

    import openpyxl

    data = read_input(path, MAX_BYTES)
    unreadable = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, KeyError, TypeError, AttributeError,
                  IndexError, SyntaxError, EOFError)  # what openpyxl raises on a damaged or foreign file
    try:
        _check_unpacked(data, file)
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except unreadable as error:
        raise ValueError(f"{file}: not a readable .xlsx workbook ({shorten(str(error))})") from None
    try:
        if sheet is not None and sheet not in book.sheetnames:
            names = ", ".join(shorten(name) for name in book.sheetnames[:12])
            raise ValueError(f'{file}: no sheet "{shorten(sheet)}" (sheets: {names})')
        worksheet = book[sheet] if sheet is not None else book.worksheets[0]
        for number, row in enumerate(worksheet.iter_rows(min_row=1, values_only=True), 1):
            yield [(number, column, _xlsx_value(value)) for column, value in enumerate(row, 1)]
    except unreadable as error:
        raise ValueError(f"{file}: not a readable .xlsx workbook ({shorten(str(error))})") from None
    finally:
        book.close()


def _xlsx_value(value: Any) -> Any:
    """Cells as YAML would give them: whole numbers as ints, dates as text, text trimmed."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return value.strip()
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


def _entries(rows: list[list[Cell]], columns: dict[str, str], file: str, cards: PathKey,
             values: dict[PathKey, tuple[int, int]], keys: dict[PathKey, tuple[int, int]],
             issues: list[Issue]) -> tuple[dict[str, Any], ...]:
    """Card entries from the rows under the header, recording where each value came from."""
    if not rows:
        issues.append(Issue(file, 1, 1, "", "the card list is empty: it needs a header row and one row per card"))
        return ()
    targets: dict[int, tuple[str, ...]] = {}
    for line, column, title in rows[0]:
        if title in (None, ""):
            continue
        target = _target(str(title), columns)
        if target in targets.values():
            issues.append(Issue(file, line, column, "", f"a second column for {'.'.join(target)!r}"))
        targets[column] = target
    entries = []
    for index, row in enumerate(rows[1:]):
        entry: dict[str, Any] = {}
        here = cards + (index,)
        values[here] = keys[here] = (row[0][0], 1)
        for line, column, value in row:
            if value in (None, ""):
                continue
            if column not in targets:
                issues.append(Issue(file, line, column, "", "a value in a column with no header"))
                continue
            target = targets[column]
            if target[0] == "data":
                entry.setdefault("data", {})[target[1]] = _scalar(value)
            else:
                entry[target[0]] = _field_value(target[0], value)
            values[here + target] = keys[here + target] = (line, column)
        entries.append(entry)
    return tuple(entries)


def _target(title: str, columns: dict[str, str]) -> tuple[str, ...]:
    """The field a header feeds: ("title",) or ("data", "cost")."""
    name = columns.get(title, title).strip()
    lower = ALIASES.get(name.lower(), name.lower())
    if lower in ENTRY_FIELDS:
        return (lower,)
    return ("data", name[5:]) if name.lower().startswith("data.") else ("data", name)


def _field_value(field: str, value: Any) -> Any:
    """Card fields are text, except `count`; a cell that is not a whole number stays as it is
    so the shape check reports it at its place."""
    if field == "count":
        return int(value) if isinstance(value, str) and _INTEGER.match(value) else value
    if isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


def _scalar(value: Any) -> Any:
    """A `data` cell read as YAML reads a plain scalar: whole numbers, numbers, true/false, text."""
    if not isinstance(value, str):
        return value
    if _INTEGER.match(value):
        return int(value)
    if _NUMBER.match(value):
        return float(value)
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def _replace(data: Any, path: PathKey, new: Any) -> Any:
    """`data` with the value at `path` replaced (loaded data is immutable: tuples and new dicts)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        return {**data, head: _replace(data[head], rest, new)}
    return tuple(_replace(item, rest, new) if i == head else item for i, item in enumerate(data))
