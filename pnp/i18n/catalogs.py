"""The translation catalogs: gettext PO files beside the spec, read and written with Babel.

One catalog per game and language, `locale/<language>/<game>.po` in the spec's folder (the
bundled spec's beside it in the package, copied by `pnp init`), and the game's template,
`locale/<game>.pot`, of every text to translate. Translators work on them with any PO tool
(Poedit, Weblate, Lokalize); `pnp translate update` merges a changed template in the way
msgmerge does: a source text that changed keeps its old translation marked fuzzy, with the
old source beside it (`#| msgid "…"`), until a translator looks at it.

Babel does the reading and writing. It keeps a `#| msgid` comment as a plain comment, so
`read` gives such a comment back its meaning, the previous source text, before an update.

A catalog comes from a translator, a shared folder or a forum, so it is read within bounds
(each stated once, here, and listed in docs/translate.md): a regular file of at most
MAX_BYTES (`pnp.disk.read_regular`: a folder, a FIFO or a device is refused unread), in UTF-8
with no NUL, no text of it over MAX_TEXT characters, its `Plural-Forms` an expression gettext
can evaluate with at most MAX_PLURALS forms, every index it gives for n = 0…PLURALS_CHECKED a
form that exists — checked as Babel reads the header, before any entry is made of that many
forms. Anything else is a `CatalogError` at the file's line. One entry is judged on its own
(`fault`): a translation whose placeholders or format specs are not its source's, or that is
far longer than its source, is not used — the kit prints the source text there, and `pnp
validate` reports it as an error at its line — so no translation can ask the formatter for what
its source does not.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from pnp.disk import read_regular, said, write_atomically
from pnp.errors import Issue, LocatedError, display_name
from pnp.i18n import PSEUDO, SOURCE, Language

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog, Message

FOLDER = "locale"
MAX_BYTES = 2_000_000  # of one catalog file: some fifteen times a bundled game's
MAX_PLURALS = 6  # forms of a plural entry (CLDR's most: Arabic's zero, one, two, few, many, other)
PLURALS_CHECKED = 1000  # the `Plural-Forms` expression is evaluated for every n from 0 to this
MAX_TEXT = 20_000  # characters of one msgid or translation: ten times the spec's longest paragraph
PLURAL_FORMS = f"write \"nplurals=N; plural=EXPRESSION;\" with N from 1 to {MAX_PLURALS}"
LONGER = 3  # a translation is at most LONGER times its source's length, plus SPARE characters
SPARE = 100


def catalog_path(folder: Path, game: str, code: str) -> Path:
    return folder / FOLDER / code / f"{game}.po"


def template_path(folder: Path, game: str) -> Path:
    return folder / FOLDER / f"{game}.pot"


class CatalogError(LocatedError):
    """A catalog that cannot be read, at its line (0 when the whole file is at fault): exit 2,
    located, wherever it is met. `reason` is the message without the place."""

    def __init__(self, path: Path, line: int, reason: str):
        self.path, self.line, self.reason = path, line, reason
        super().__init__([Issue(display_name(path), line, 1 if line else 0, "", reason)])


def read(path: Path, code: str | None = None) -> "Catalog":
    """The catalog in `path`, each `#| msgid` comment back as the message's previous source."""
    return _parsed(path, _bytes(path), code)


def _bytes(path: Path) -> bytes:
    """A catalog file's bytes, within MAX_BYTES, read only if it is a regular file."""
    try:
        return read_regular(path, MAX_BYTES)
    except OSError as error:
        raise CatalogError(path, 0, f"the catalog {said(error)}") from None


def _parsed(path: Path, data: bytes, code: str | None) -> "Catalog":
    from babel.messages.pofile import PoFileError, PoFileParser

    lines = _text(path, data).splitlines(keepends=True)
    catalog = _checked_catalog(path, lines)(locale=code)
    try:
        PoFileParser(catalog, ignore_obsolete=False, abort_invalid=True).parse(lines)
    except CatalogError:
        raise
    except PoFileError as error:
        reason = re.sub(r" on \d+$", "", str(error))  # Babel's own "on LINE", which the place says
        raise CatalogError(path, getattr(error, "lineno", 0), f"not a PO file pnp can read: {reason}") from None
    except Exception as error:  # Babel raises whatever a broken header or entry makes of it
        raise CatalogError(path, 0, f"not a PO file pnp can read ({type(error).__name__}: {error})") from None
    for obsolete in catalog.obsolete.values():  # kept aside by Babel, written back by an update
        _check_length(path, obsolete)
    for message in catalog:
        _previous_id(message)
    return catalog


def _previous_id(message: "Message") -> None:
    """The message's `#| msgid` comment (what it translated before the text changed) made its
    previous id again: Babel reads it as a comment of the translator's."""
    from babel.messages.pofile import unescape

    previous = [c for c in message.user_comments if c.startswith("| msgid")]
    if previous:
        message.user_comments = [c for c in message.user_comments if not c.startswith("| ")]
        message.previous_id = [unescape(c[len("| msgid "):].strip()) for c in previous[:1]]


def _text(path: Path, data: bytes) -> str:
    """A catalog's bytes as text: UTF-8 (a UTF-8 byte-order mark dropped), no NUL; else a
    CatalogError at the line of the first byte that is not."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CatalogError(path, 1, "the catalog is in UTF-16; pnp reads catalogs in UTF-8 (save it as UTF-8)")
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise CatalogError(path, line, f"byte 0x{data[error.start]:02x} is not UTF-8; pnp reads catalogs in UTF-8 "
                                       "(save it as UTF-8, with charset=UTF-8 in its header)") from None
    if "\x00" in text:
        raise CatalogError(path, text.count("\n", 0, text.index("\x00")) + 1, "a NUL character: not a text file")
    return text


def _checked_catalog(path: Path, lines: Sequence[str]) -> type["Catalog"]:
    """A Babel `Catalog` class that checks a header as it is set (`plural_problem`,
    `charset_problem`), before a single entry is given that header's number of forms."""
    from babel.messages.catalog import Catalog

    class Checked(Catalog):
        def __setitem__(self, key: Any, message: "Message") -> None:
            try:
                super().__setitem__(key, message)
            except ValueError:  # Babel reading the header's numbers (nplurals=999…9)
                if key != "":
                    raise
                raise CatalogError(path, _header_line(lines, "Plural-Forms") or message.lineno or 0,
                                   f"the header cannot be read: {PLURAL_FORMS}") from None
            if key != "":
                _check_length(path, message)
                return
            written = _header_value(message.string, "Plural-Forms")  # as written: Babel reads garbage as its default
            for field, problem in (("Content-Type", charset_problem(self.charset)),
                                   ("Plural-Forms", plural_problem(self.plural_forms if written is None else written))):
                if problem:
                    raise CatalogError(path, _header_line(lines, field) or message.lineno or 0, problem)

    return Checked


def _check_length(path: Path, message: "Message") -> None:
    """A CatalogError for a msgid or translation over MAX_TEXT characters (Babel takes time
    quadratic in a text's length to write it)."""
    texts = [*_texts(message.id), *_texts(message.string)]
    longest = max((len(text) for text in texts), default=0)
    if longest > MAX_TEXT:
        raise CatalogError(path, message.lineno or 0, f"a text of {longest:,} characters; a catalog's are at most "
                                                      f"{MAX_TEXT:,}")


def _texts(value: Any) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (list, tuple)) else (value or "",)


def charset_problem(charset: str) -> str:
    """What is wrong with a catalog's `charset` for pnp, which reads and writes UTF-8 ("" if
    nothing; a template's `CHARSET` means UTF-8)."""
    if charset.replace("-", "").lower() in ("utf8", "charset", "ascii", "usascii"):
        return ""
    return f"charset {charset[:40]}: pnp reads and writes catalogs in UTF-8 (save it as UTF-8, with charset=UTF-8)"


def plural_problem(plural_forms: str) -> str:
    """What is wrong with a `Plural-Forms` header ("nplurals=3; plural=EXPR;"), or "": at most
    MAX_PLURALS forms, an expression gettext parses (its own safe parser: numbers, `n` and C's
    operators; at most 1,000 characters), giving an index of a form for every n from 0 to
    PLURALS_CHECKED. Matched without backtracking: a header padded with spaces took minutes."""
    text = plural_forms.strip()
    found = re.fullmatch(r"nplurals\s*=\s*(\d+)\s*;\s*plural\s*=([^;]*);?", text) if len(text) <= 1100 else None
    if found is None:
        return f"Plural-Forms {quoted(plural_forms)}: {PLURAL_FORMS}"
    count, expression = int(found.group(1)), found.group(2).strip()
    if not 1 <= count <= MAX_PLURALS:
        return f"Plural-Forms: nplurals={count}; a language has 1 to {MAX_PLURALS} plural forms"
    try:
        index_of = gettext.c2py(expression)
    except (ValueError, SyntaxError) as error:
        return f"Plural-Forms: plural={quoted(expression)} is not an expression of n ({error})"
    for n in range(PLURALS_CHECKED + 1):
        try:
            index = index_of(n)
        except (ArithmeticError, ValueError, TypeError, RecursionError) as error:
            return f"Plural-Forms: plural={quoted(expression)} fails for n = {n} ({type(error).__name__})"
        if not 0 <= index < count:
            return f"Plural-Forms: plural={quoted(expression)} gives form {index} for n = {n}; nplurals={count} " \
                   f"has forms 0 to {count - 1}"
    return ""


def _header_value(header: Any, field: str) -> str | None:
    """The value of `field` in a catalog's header text as written, or None when it has none."""
    for line in str(header).splitlines():
        name, colon, value = line.partition(":")
        if colon and name.strip().lower() == field.lower():
            return value.strip()
    return None


def _header_line(lines: Sequence[str], field: str) -> int:
    """The line of the header's `field` in a PO file's lines (0 if it is not on one)."""
    return next((n for n, line in enumerate(lines, 1) if line.lstrip().startswith(f'"{field}:')), 0)


def quoted(text: str, limit: int = 60) -> str:
    """`text` in quotes, on one line, cut to `limit` characters: how a message quotes a catalog's text."""
    flat = " ".join(text.split())
    return f'"{flat if len(flat) <= limit else flat[: limit - 1] + "…"}"'


def fault(msgid: str | Sequence[str], strings: Sequence[str], *, template: bool = False) -> str:
    """What keeps a translation (`strings`: its forms) of `msgid` (a plural entry's singular and
    plural) from being printed, in words ("" when nothing does): placeholders or format specs
    other than its source's, braces that do not pair where the source's do, or a form more than
    LONGER times its source's length. Empty forms are untranslated, not at fault. `template`:
    a text of the spec, where a named format (`plural`) may stand for a plain placeholder."""
    sources = (msgid,) if isinstance(msgid, str) else tuple(msgid)
    wanted = _fields(sources, template)
    longest = max(len(source) for source in sources)
    for text in strings:
        if not text:
            continue
        if len(text) > LONGER * longest + SPARE:
            return f"is {len(text):,} characters long, for a source of {longest:,} (at most {LONGER} times as long)"
        if wanted is None:
            continue
        fields = _fields((text,), template)
        if fields is None:
            return "is not a valid template (a { or } that does not pair; write {{ or }} for a brace)"
        if fields != wanted:
            return _differs(wanted, fields)
    return ""


def _placeholder(name: str, spec: str, conversion: str | None, template: bool) -> str:
    """One placeholder as `_fields` compares it: a named format's words left out (its name kept
    but for a template's)."""
    named, colon, _words = spec.partition(":")
    kept = ("" if template else f"{named}:") if colon and named.isidentifier() else spec
    return "{" + name + (f"!{conversion}" if conversion else "") + (f":{kept}" if kept else "") + "}"


def _fields(texts: Sequence[str], template: bool) -> frozenset[str] | None:
    """Every placeholder of `texts` as written (`{n}`, `{price:>3}`, `{rounds:plural:}`: a named
    format by its name, its argument being words; with `template`, by its value alone), or None
    if a text is no template."""
    found = set()
    try:
        for text in texts:
            for _literal, name, spec, conversion in string.Formatter().parse(text):
                if name is not None:
                    found.add(_placeholder(name, spec or "", conversion, template))
    except ValueError:
        return None
    return frozenset(found)


def _differs(wanted: frozenset[str], fields: frozenset[str]) -> str:
    lost, extra = sorted(wanted - fields), sorted(fields - wanted)
    parts = ([f"drops {', '.join(quoted(f, 40) for f in lost[:3])}"] if lost else []) + \
            ([f"adds {', '.join(quoted(f, 40) for f in extra[:3])}"] if extra else [])
    return "has other placeholders than its source: " + " and ".join(parts)


def write(path: Path, catalog: "Catalog") -> bool:
    """Write `catalog` to `path` (previous sources as `#| msgid`, obsolete entries as `#~`)
    unless the file already says the same; whether it was written."""
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalog, width=100, include_previous=True, sort_output=False, ignore_obsolete=False)
    data = out.getvalue()
    try:
        if _dated(read_regular(path, MAX_BYTES)) == _dated(data):  # a template written again says the same but its date
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, data)
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
    if not path.exists() and not path.is_symlink():
        return Language(code, plural_forms=_plural_forms(code))
    data = _bytes(path)
    return _language(path, code, data, hashlib.sha256(data).hexdigest())


def read_shared(path: Path, code: str) -> "Catalog":
    """`read`, for a caller that only looks: the catalog parsed once a process for the same
    bytes, shared with `language` (`pnp validate` and a build's summary check the catalogs the
    kits were worded from). It must not be changed."""
    data = _bytes(path)
    return _shared(path, code, data, hashlib.sha256(data).hexdigest())


@lru_cache(maxsize=64)
def _shared(path: Path, code: str, data: bytes, digest: str) -> "Catalog":
    return _parsed(path, data, code)


@lru_cache(maxsize=64)
def _language(path: Path, code: str, data: bytes, digest: str) -> Language:
    """A catalog's `Language`, parsed once a process for the same bytes (the kits of every
    language of a game each need every catalog of the game; `pnp watch` reads an edit anew).
    A translation at `fault` is left out: the source is printed in its place."""
    catalog = _shared(path, code, data, digest)
    messages, templates = {}, {}
    for message in catalog:
        if not message.id:
            continue
        key, forms = message.id[0] if isinstance(message.id, (list, tuple)) else message.id, forms_of(message)
        if not fault(message.id, forms):
            messages[key] = forms
        if not fault(message.id, forms, template=True):
            templates[key] = forms
    return Language(code, messages, catalog.plural_forms.split("plural=", 1)[-1].rstrip(";") or "(n != 1)",
                    digest=digest, templates=templates)


def forms_of(message: "Message") -> tuple[str, ...]:
    """A message's translation: its one string, or its plural forms in the catalog's order."""
    return tuple(message.string) if isinstance(message.string, (list, tuple)) else (message.string or "",)


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
