"""The translation catalogs: gettext PO files beside the spec, read and written with Babel.

One catalog per game and language, `locale/<language>/<game>.po` in the spec's folder (the
bundled spec's beside it in the package, copied by `pnp init`), and the game's template,
`locale/<game>.pot`, of every text to translate. Translators work on them with any PO tool
(Poedit, Weblate, Lokalize); `pnp translate update` merges a changed template in the way
msgmerge does: a source text that changed keeps its old translation marked fuzzy, with the
old source beside it (`#| msgid "…"`), until a translator looks at it.

Babel does the reading and writing. It keeps a `#| msgid` comment as a plain comment, so
`read` gives such a comment back its meaning, the previous source text, before an update.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

from pnp.i18n import PSEUDO, SOURCE, Language

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

FOLDER = "locale"


def catalog_path(folder: Path, game: str, code: str) -> Path:
    return folder / FOLDER / code / f"{game}.po"


def template_path(folder: Path, game: str) -> Path:
    return folder / FOLDER / f"{game}.pot"


class CatalogError(ValueError):
    """A PO file Babel cannot read: `line` is where it stopped (0 when unknown)."""

    def __init__(self, path: Path, line: int, message: str):
        self.path, self.line = path, line
        super().__init__(message)


def read(path: Path, code: str | None = None) -> "Catalog":
    """The catalog in `path`, each `#| msgid` comment back as the message's previous source."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CatalogError(path, 0, f"cannot read it: {error.strerror or error}") from None
    return _parsed(path, data, code)


def _parsed(path: Path, data: bytes, code: str | None) -> "Catalog":
    from babel.messages.pofile import PoFileError, read_po, unescape

    try:
        catalog = read_po(io.BytesIO(data), locale=code, abort_invalid=True)
    except PoFileError as error:
        raise CatalogError(path, getattr(error, "lineno", 0), str(error)) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise CatalogError(path, 0, str(error)) from None
    for message in catalog:
        previous = [c for c in message.user_comments if c.startswith("| msgid")]
        if previous:
            message.user_comments = [c for c in message.user_comments if not c.startswith("| ")]
            message.previous_id = [unescape(c[len("| msgid "):].strip()) for c in previous[:1]]
    return catalog


def write(path: Path, catalog: "Catalog") -> bool:
    """Write `catalog` to `path` (previous sources as `#| msgid`, obsolete entries as `#~`)
    unless the file already says the same; whether it was written."""
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalog, width=100, include_previous=True, sort_output=False, ignore_obsolete=False)
    data = out.getvalue()
    try:
        if _dated(path.read_bytes()) == _dated(data):  # a template written again says the same but its date
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _dated(data: bytes) -> bytes:
    """A PO file's bytes without the date its template was made."""
    return re.sub(rb'^"POT-Creation-Date: [^"]*"$', b"", data, count=1, flags=re.M)


def language(folder: Path, game: str, code: str) -> Language:
    """The `Language` of `game` in `code` from its catalog; the source language and the
    pseudo-locale need none, and a catalog that does not exist yet translates nothing (what
    `pnp validate` reports)."""
    if code in (SOURCE, PSEUDO):
        return Language(code)
    path = catalog_path(folder, game, code)
    if not path.is_file():
        return Language(code, plural_forms=_plural_forms(code))
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CatalogError(path, 0, f"cannot read it: {error.strerror or error}") from None
    return _language(path, code, data, hashlib.sha256(data).hexdigest())


def read_shared(path: Path, code: str) -> "Catalog":
    """`read`, for a caller that only looks: the catalog parsed once a process for the same
    bytes, shared with `language` (`pnp validate` and a build's summary check the catalogs the
    kits were worded from). It must not be changed."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CatalogError(path, 0, f"cannot read it: {error.strerror or error}") from None
    return _shared(path, code, data, hashlib.sha256(data).hexdigest())


@lru_cache(maxsize=64)
def _shared(path: Path, code: str, data: bytes, digest: str) -> "Catalog":
    return _parsed(path, data, code)


@lru_cache(maxsize=64)
def _language(path: Path, code: str, data: bytes, digest: str) -> Language:
    """A catalog's `Language`, parsed once a process for the same bytes (the kits of every
    language of a game each need every catalog of the game; `pnp watch` reads an edit anew)."""
    catalog = _shared(path, code, data, digest)
    messages = {}
    for message in catalog:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        forms = tuple(message.string) if isinstance(message.string, (list, tuple)) else (message.string or "",)
        messages[key] = forms
    return Language(code, messages, catalog.plural_forms.split("plural=", 1)[-1].rstrip(";") or "(n != 1)",
                    digest=digest)


def available(folder: Path, game: str) -> tuple[str, ...]:
    """The languages `game` can be worded in from the catalogs in `folder`: the source
    language, then every language with a catalog (what `--lang` may ask of the referee)."""
    found = sorted(path.parent.name for path in (folder / FOLDER).glob(f"*/{game}.po") if path.is_file())
    return (SOURCE, *(code for code in found if code != SOURCE))


def autonym(code: str) -> str:
    """The language's name in itself, as a switch between languages lists it ("Español",
    "Русский"): from Babel's CLDR data, so no list of names is kept here; the code if unknown."""
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        return code
    return name[:1].upper() + name[1:]


def _plural_forms(code: str) -> str:
    from babel.messages.catalog import Catalog

    return Catalog(locale=code).plural_forms.split("plural=", 1)[-1].rstrip(";")


@dataclass(frozen=True)
class Entry:
    """One text to translate: its msgid (a tuple for a plural entry), where it comes from
    (file, line), and a note for the translator."""

    msgid: str | tuple[str, str]
    locations: tuple[tuple[str, int], ...]
    comment: str = ""
    flags: tuple[str, ...] = ()


def template(game: str, entries: Iterable[Entry]) -> "Catalog":
    """The game's template: every entry once, in the order given, its locations merged."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(project=f"pnp — {game}", fuzzy=False, header_comment=f"# Texts of {game} to translate (pnp translate).")
    for entry in entries:
        key = entry.msgid[0] if isinstance(entry.msgid, tuple) else entry.msgid
        found = catalog.get(entry.msgid)
        if found is None:
            catalog.add(entry.msgid, locations=list(entry.locations),
                        auto_comments=[entry.comment] if entry.comment else [], flags=entry.flags)
        else:
            found.locations = list(dict.fromkeys([*found.locations, *entry.locations]))
        assert key  # an empty msgid is the header
    return catalog


def merged(existing: "Catalog | None", new: "Catalog", code: str) -> "Catalog":
    """The catalog of `code` updated to the template `new`, as msgmerge does: an unchanged
    source keeps its translation, a changed one keeps its old translation marked fuzzy with the
    previous source, a text no longer used goes obsolete. Locations and comments come from the
    template."""
    from babel.messages.catalog import Catalog

    if existing is None:
        existing = Catalog(locale=code, project=new.project, fuzzy=False,
                           header_comment=f"# Translations into {code} (pnp translate).")
    existing.update(new, update_header_comment=False, keep_user_comments=True, update_creation_date=False)
    return existing


@dataclass(frozen=True)
class Status:
    """How much of one catalog is done, and what is not: each as (msgid, PO line)."""

    total: int
    translated: int
    fuzzy: tuple[tuple[str, int], ...]
    missing: tuple[tuple[str, int], ...]


def status(catalog: "Catalog") -> Status:
    fuzzy, missing, done, total = [], [], 0, 0
    for message in catalog:
        if not message.id:
            continue
        total += 1
        key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        if not all(strings):
            missing.append((key, message.lineno or 0))
        elif message.fuzzy:
            fuzzy.append((key, message.lineno or 0))
        else:
            done += 1
    return Status(total, done, tuple(fuzzy), tuple(missing))


def lines(catalog: "Catalog") -> Iterator[tuple[str, int]]:
    """Each msgid of `catalog` with the line it is on."""
    for message in catalog:
        if message.id:
            yield (message.id[0] if isinstance(message.id, (list, tuple)) else message.id), message.lineno or 0
