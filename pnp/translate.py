"""`pnp translate extract|update|status`, and what a game's catalogs must translate.

A game's texts to translate are, in this order: the spec's own (every text of
`pnp.spec.translation.texts`, located at its line of components.yaml), pnp's own that its kits
print or its referee says (every literal marked `_`, `ngettext` or `N_` in the package: sheet
furniture, print instructions, the engines' tables and event wordings; a game's own engine
module only in its own catalogs), and its rules file (each rule, example, ambiguity and
section heading of `pnp/data/rules/<game>.md` (`rules_entries`, not in the catalogs yet: `pnp rules show --lang`
quotes the translated booklet instead); its worked examples and notes on
ambiguities are design notes, left in English). `extract` writes them as the game's template,
`locale/<game>.pot`; `update` also merges the template into every catalog the spec's languages
call for (`locale/<language>/<game>.po`, created when missing): a changed source text keeps its
old translation, marked fuzzy, with the old source beside it, until a translator has looked;
`status` counts what each catalog has translated, fuzzy and missing.

`problems` is what `pnp validate` warns about in the catalogs: each fuzzy or missing
translation at its line of the PO file, a text the catalog has never seen at its line of the
spec. Both it and the line `pnp build` prints for a kit that mixes in English or an old
translation (`kit_line`) read `untranslated`. `errors` is what is wrong with them: a catalog
that cannot be read (`pnp.i18n.catalogs` says why, at its line), a translation whose
placeholders or format specs are not its source's or that is far longer (`catalogs.fault`: the
kit prints the source there, and says so).
"""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from pnp.errors import Issue, UsageError, display_name
from pnp.findings import Finding
from pnp.i18n import SOURCE, code_problem
from pnp.i18n.catalogs import (
    CatalogError,
    Entry,
    catalog_path,
    fault,
    forms_of,
    merged,
    quoted,
    read,
    read_shared,
    status,
    template,
    template_path,
    write,
)
from pnp.spec.model import Game, Spec
from pnp.spec.translation import LABEL, texts

if TYPE_CHECKING:
    from babel.messages.catalog import Message

KEYWORDS = {"_": None, "ngettext": (1, 2), "N_": None, "N_plural": (1, 2)}
TEMPLATE = ".html"  # the table's page templates (Jinja)
PROGRAM_TEXTS = "program-texts.json"  # in pnp/data: `program_texts()` as the package ships it
JINJA = {"trim_blocks": "true", "lstrip_blocks": "true"}  # as the table's environment reads them
SKIPPED = ("i18n",)  # folders of the package with nothing printed or said to translate
ASSET_NOTE = ("an id, as the booklet's sentences and the referee's events name it ({assets}, \"buys 2 blue\"): "
              "a word in running text (Акционер's colours), or a code kept as it is (IBE, USD)")
_GAME_MODULE = re.compile(r"^(?:rules|referee)/(?P<game>[a-z0-9_]+)(?:/|\.py$)")


# --- what to translate --------------------------------------------------------------------------


def entries(spec: Spec, game_id: str) -> list[Entry]:
    """Every text of `game_id` to translate, located, in the order of the module's docstring."""
    return [*spec_entries(spec, game_id), *example_entries(spec, game_id), *program_entries(game_id)]


def spec_entries(spec: Spec, game_id: str) -> Iterator[Entry]:
    origin = spec.origin
    game = spec.games[game_id]
    for path, text in texts(game):
        where = ("games", game_id, *(path[:-1] if path[-1] == LABEL else path))  # a label: at its row
        issue = spec.issue(where, "")
        yield Entry(text, ((issue.file, issue.line),) if origin else (), issue.path)
    for index, asset in enumerate(game.assets):
        issue = spec.issue(("games", game_id, game.asset_key, index, "id"), "")
        yield Entry(asset.id, ((issue.file, issue.line),) if origin else (), f"{issue.path}: {ASSET_NOTE}")


def example_entries(spec: Spec, game_id: str) -> Iterator[Entry]:
    """The title of each worked example a booklet of the game plays (from the rules file, the
    booklet prints it as the example's heading), at the example's `id` in the spec."""
    from pnp.rules import text

    game = spec.games[game_id]
    for index, component in enumerate(game.components):
        for number, section in enumerate(getattr(component, "sections", ()) if component.kind == "booklet" else ()):
            for n, example in enumerate(section.examples):
                try:
                    title = text.rule(example.id, game_id).title
                except KeyError:
                    continue  # the booklet reports it
                issue = spec.issue(("games", game_id, "components", index, "sections", number, "examples", n, "id"), "")
                yield Entry(title, ((issue.file, issue.line),) if spec.origin else (), issue.path)


def program_entries(game_id: str) -> list[Entry]:
    return [entry for module, entry in _program() if module is None or module == game_id]


@lru_cache(maxsize=1)
def _program() -> tuple[tuple[str | None, Entry], ...]:
    """Every marked literal of the package, with the game whose modules hold it (None: all), as
    shipped beside the code (`pnp/data/program-texts.json`, as a package ships its gettext
    template): reading it takes milliseconds where reading the code takes half a second of a
    first `pnp validate` or build. `tests/test_program_texts.py` checks it against the code and
    rewrites it when run as a script."""
    shipped = json.loads(resources.files("pnp").joinpath("data").joinpath(PROGRAM_TEXTS).read_text(encoding="utf-8"))
    return tuple((owner, Entry(msgid if isinstance(msgid, str) else (msgid[0], msgid[1]), ((file, 0),), comment,
                               tuple(flags)))
                 for owner, msgid, file, comment, flags in shipped)


def program_texts() -> list[tuple[Any, ...]]:
    """The marked literals of the package's Python modules and of its page templates (the
    table's, `{{ _("…") }}` and `{{ ngettext(…) }}` read by Jinja's own extractor), as
    `program-texts.json` holds them: (game or None, msgid (a pair for a plural), file, comment,
    flags), each once per file. A text is located by its file alone (as `xgettext
    --add-location=file`), so an edit that moves a text down its module changes neither the
    shipped texts nor the catalogs."""
    from babel.messages.extract import extract_from_file
    from jinja2.ext import babel_extract

    root = Path(str(resources.files("pnp")))
    found: list[tuple[Any, ...]] = []
    paths = [*sorted(root.rglob("*.py")), *sorted(root.rglob(f"*{TEMPLATE}"))]
    for path in paths:
        relative = path.relative_to(root).as_posix()
        if relative.split("/")[0] in SKIPPED or "_(" not in path.read_text(encoding="utf-8"):
            continue
        owner = _owner(relative)
        method: Any = babel_extract if path.suffix == TEMPLATE else "python"  # (Jinja types its extractor apart from Babel)
        for _line, message, comments, _context in extract_from_file(method, str(path), keywords=KEYWORDS,
                                                                     comment_tags=("TRANSLATORS:",),
                                                                     options=JINJA):
            msgid = _msgid(message)
            if msgid is None:
                continue
            found.append((owner, msgid, f"pnp/{relative}", " ".join(comments),
                          ("python-brace-format",) if "{" in str(msgid) else ()))
    return list(dict.fromkeys(found))


def _msgid(message: object) -> str | tuple[str, str] | None:
    """An extracted message as `program-texts.json` holds it: a text, or a pair for a plural
    (None: an empty text, or a call of another shape)."""
    if isinstance(message, tuple):
        return (message[0], message[1]) if len(message) == 2 else None
    return str(message) if message else None


def _owner(relative: str) -> str | None:
    """The game a module of the package speaks for (`rules/<game>/`, `referee/<game>.py`);
    None for the others, and for modules every game shares (referee/report.py, rules/base.py)."""
    owner = _GAME_MODULE.match(relative)
    return owner.group("game") if owner and owner.group("game") in _games() else None


def _games() -> tuple[str, ...]:
    """The games with modules of their own (`rules/<game>/`, `referee/<game>.py`): the games
    the rules engines play."""
    from pnp.rules import GAMES

    return tuple(GAMES)


def rules_entries(game_id: str) -> Iterator[Entry]:
    """Each rule of the game's rules file, and each of its section headings."""
    from pnp.rules import text

    try:
        rules = text.rules(game_id)
    except KeyError:
        return
    where = f"pnp/data/rules/{game_id}.md"
    for heading, line in text.headings(game_id):
        yield Entry(heading, ((where, line),), "a heading of the rules file")
    for rule in rules:
        if rule.kind == text.RULE and rule.text:  # worked examples and the notes on ambiguities stay in English
            yield Entry(rule.text, ((where, rule.line),), f"rule {rule.id} (keep the rule IDs as they are)")


# --- the catalogs ---------------------------------------------------------------------------


def catalog_codes(game: Game) -> tuple[str, ...]:
    """The languages of `game` that need a catalog: all but the source language."""
    return tuple(code for code in game.kit_languages if code != SOURCE)


def extract(spec: Spec, games: Iterable[str]) -> list[str]:
    """Write each game's template; what was written."""
    said = []
    for game_id in games:
        path = template_path(spec.folder, game_id)
        written = write(path, template(game_id, entries(spec, game_id)))
        said.append(f"{display_name(path)}: {'written' if written else 'unchanged'}")
    return said


def update(spec: Spec, games: Iterable[str], codes: tuple[str, ...] = ()) -> list[str]:
    """Write each game's template and merge it into each of its catalogs; what was done. Every
    catalog is read before anything is written: one that cannot be read is a CatalogError and
    no file changes (a translator's work is never written over by what could not be read)."""
    for code in codes:
        problem = code_problem(code)
        if problem:
            raise UsageError(f"--lang {code[:40]}: {problem}")
    said = []
    for game_id in games:
        new = template(game_id, entries(spec, game_id))
        wanted = codes or catalog_codes(spec.games[game_id])
        paths = {code: catalog_path(spec.folder, game_id, code) for code in wanted}
        olds = {code: read(path, code) if os.path.lexists(path) else None for code, path in paths.items()}
        write(template_path(spec.folder, game_id), new)
        for code, path in paths.items():
            catalog = merged(olds[code], new, code)
            written = write(path, catalog)
            counts = status(catalog)
            said.append(f"{display_name(path)}: {'updated' if written else 'unchanged'} — {_counts(counts.total, counts.translated, len(counts.fuzzy), len(counts.missing))}")
    return said


def report(spec: Spec, games: Iterable[str]) -> list[str]:
    """Per game and language: how many texts are translated, fuzzy and missing."""
    said = []
    for game_id in games:
        wanted = {_key(e.msgid) for e in entries(spec, game_id)}
        for code in catalog_codes(spec.games[game_id]):
            path = catalog_path(spec.folder, game_id, code)
            if not os.path.lexists(path):
                said.append(f"{game_id} {code}: {_counts(len(wanted), 0, 0, len(wanted))} (no {display_name(path)} yet: pnp translate update)")
                continue
            catalog = read(path, code)
            counts = status(catalog)
            known = {msgid for msgid, _ in _all(catalog)}
            absent = len(wanted - known)
            said.append(f"{game_id} {code}: {_counts(len(wanted), counts.translated, len(counts.fuzzy), len(counts.missing) + absent)}"
                        + (f" ({absent} not in the catalog yet: pnp translate update)" if absent else ""))
    return said


def _counts(total: int, translated: int, fuzzy: int, missing: int) -> str:
    return f"{total} texts: {translated} translated, {fuzzy} fuzzy, {missing} missing"


def _all(catalog: object) -> Iterator[tuple[str, int]]:
    from pnp.i18n.catalogs import lines

    yield from lines(catalog)  # type: ignore[arg-type]  # a Babel Catalog


def _key(msgid: str | tuple[str, ...] | list[str]) -> str:
    """A catalog's key for a message: its msgid, or a plural entry's singular."""
    return msgid if isinstance(msgid, str) else msgid[0]


# --- what validate and build say ----------------------------------------------------------------


NOT_PRINTED = re.compile(r"^pnp/(?:data/rules/|referee/|table/)")  # said, not printed (a booklet prints events)
RULE_AT_START = re.compile(r"^\W*([A-Z]{2,}-X?\d+(?:\.\d+)*)\b")  # "BOLSA-2.2 Each player …" names its text


@dataclass(frozen=True)
class Untranslated:
    """A text a kit prints (or the referee says) not as its English now reads, in one
    language: `pnp validate`'s warning (`issue`: where, and what) and, for a build, a part of
    the kit's line (`kit_line`). `kind`: "absent" (no catalog), "new" (a text
    the catalog lacks: it prints in English), "missing" (an empty translation: English too),
    "fuzzy" (its English changed: the old translation prints). What a kit does not print for a
    catalog's fault is one of `errors`."""

    code: str
    text: str  # the English text ("" for a whole catalog)
    kind: str
    issue: Issue
    changed: bool = False  # "new": the catalog translates an older English of it (changed since translated)

    @property
    def english(self) -> bool:
        """Whether the kit prints it in English."""
        return self.kind in ("absent", "new", "missing")

    @property
    def label(self) -> str:
        """The text as a line names it: its rule ID, else its first words."""
        found = RULE_AT_START.match(self.text)
        return found.group(1) if found else quoted(self.text, 32)


def problems(spec: Spec, game_id: str, codes: Iterable[str] | None = None, *, printed_only: bool = False) -> list[Issue]:
    """Each fuzzy or missing translation of `game_id`'s catalogs at its PO line (a text the
    catalog lacks at its spec line): what `pnp validate` warns about (and `--strict` refuses)."""
    return [u.issue for u in untranslated(spec, game_id, codes, printed_only=printed_only)]


def untranslated(spec: Spec, game_id: str, codes: Iterable[str] | None = None, *,
                 printed_only: bool = False) -> list[Untranslated]:
    """`problems` with what each is (`Untranslated`), the one source of what validate warns
    and what a build says each kit mixes in. `printed_only`: only the texts a kit prints (not
    the rules file's, nor what the referee and the table say)."""
    game = spec.games[game_id]
    wanted: dict[str, Entry] = {}
    for entry in entries(spec, game_id):
        if printed_only and entry.locations and NOT_PRINTED.match(entry.locations[0][0]):
            continue
        wanted.setdefault(_key(entry.msgid), entry)
    found: list[Untranslated] = []
    for code in codes if codes is not None else catalog_codes(game):
        if code != SOURCE:
            found += _catalog_problems(spec, game_id, code, wanted)
    return found


def kit_line(code: str, found: Sequence[Untranslated]) -> str:
    """What a build says of a kit that mixes in another language ("" when it does not):
    "es: 1 text in English (BOLSA-2.2, changed since translated)"."""
    if not found:
        return ""
    english = [u for u in found if u.english]
    older = [u for u in found if u.kind == "fuzzy"]
    parts = []
    if english:
        parts.append(_in_english(english))
    if older:
        parts.append(f"{_texts(len(older))} in an old translation (its English changed since: "
                     f"{_first_three([u.label for u in older])})")
    return f"{code}: " + "; ".join(parts)


def _in_english(english: Sequence[Untranslated]) -> str:
    """"2 texts in English (BOLSA-2.2, changed since translated, BOLSA-3)": the texts a kit
    prints in English, the first three named."""
    names = [u.label + (", changed since translated" if u.changed else "") for u in english]
    return f"{_texts(len(english))} in English ({_first_three(names)})"


def _first_three(names: Sequence[str]) -> str:
    """The first three names, and "…" for more."""
    return ", ".join(names[:3]) + (", …" if len(names) > 3 else "")


def _texts(count: int) -> str:
    return f"{count} text" if count == 1 else f"{count} texts"


def _catalog_problems(spec: Spec, game_id: str, code: str, wanted: dict[str, Entry]) -> list[Untranslated]:
    """`untranslated` of one language's catalog: absent, each message of it missing or fuzzy,
    and each wanted text it lacks (at the text's own line; changed since translated when the
    catalog has an older English of it). One that cannot be read has none here: it is one of
    `errors`."""
    path = catalog_path(spec.folder, game_id, code)
    shown = display_name(path)
    if not os.path.lexists(path):
        where = spec.issue(("games", game_id, "languages"), "")
        return [Untranslated(code, "", "absent", Issue(where.file, where.line, where.col, where.path,
                f"{code}: no catalog {shown} for {len(wanted)} texts (pnp translate update writes it)"))]
    try:
        catalog = read_shared(path, code)
    except CatalogError:
        return []
    found: list[Untranslated] = []
    seen = set()
    for message in catalog:
        if not message.id:
            continue
        key = _key(message.id)
        seen.add(key)
        if key in wanted:
            found += _message_problems(code, shown, key, message)
    return found + _new_texts(code, shown, wanted, seen)


def _new_texts(code: str, shown: str, wanted: dict[str, Entry], seen: set[str]) -> list[Untranslated]:
    """Each wanted text a catalog lacks, at the text's own line; changed since translated when
    the catalog still translates an older English close to it."""
    stale = [key for key in seen if key not in wanted]  # older English the catalog still translates
    found = []
    for key, entry in wanted.items():
        if key not in seen:
            file, line = entry.locations[0] if entry.locations else (shown, 0)
            changed = bool(difflib.get_close_matches(key, stale, n=1, cutoff=0.75))
            found.append(Untranslated(code, key, "new", Issue(file, line, 1 if line else 0, "", f"{code}: {quoted(key)} is "
                                      f"not in {shown} yet (pnp translate update adds it)"), changed))
    return found


def _message_problems(code: str, shown: str, key: str, message: "Message") -> list[Untranslated]:
    """A catalog message's translation missing or fuzzy."""
    line = message.lineno or 0
    if not all(forms_of(message)):
        return [Untranslated(code, key, "missing", Issue(shown, line, 1, "", f"{code}: missing translation of {quoted(key)}"))]
    if message.fuzzy:
        return [Untranslated(code, key, "fuzzy", Issue(shown, line, 1, "", f"{code}: fuzzy translation of {quoted(key)} "
                                                       "(its source changed: check it, then remove the fuzzy flag)"))]
    return []


def errors(spec: Spec, game_id: str, codes: Iterable[str] | None = None) -> list[Finding]:
    """What is wrong with `game_id`'s catalogs (of `codes`, else of every language it lists),
    each at its line: a catalog that cannot be read, a translation at `fault` (which the kit
    does not print: the source stands in) — judged as a template of the spec's formatter unless
    pnp's own code fills it. Errors for `pnp validate`; a build prints them with its summary,
    having printed the source."""
    found: list[Finding] = []
    formatted = {_key(entry.msgid) for entry in [*example_entries(spec, game_id), *program_entries(game_id)]}
    for code in codes if codes is not None else catalog_codes(spec.games[game_id]):
        path = catalog_path(spec.folder, game_id, code)
        if code == SOURCE or not os.path.lexists(path):
            continue
        try:
            catalog = read_shared(path, code)
        except CatalogError as error:
            found.append(Finding("translation", "error", error.reason, "fix it, or remove it and run pnp translate "
                                 "update", display_name(path), error.line, 1 if error.line else 0, game=game_id))
            continue
        for message in catalog:
            wrong = fault(message.id, forms_of(message), template=_key(message.id) not in formatted) if message.id else ""
            if wrong:
                found.append(Finding("translation", "error", f"{code}: the translation of {quoted(_key(message.id))} "
                                     f"{wrong}; the {code} kit prints the English source there",
                                     "write the source's placeholders as they are ({name}, {n:g})",
                                     display_name(path), message.lineno or 0, 1, game=game_id, kit=code))
    return found


# --- the command ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Asked:
    """`pnp translate VERB`'s command line as typed (None: not given); `pnp.cli` fills it."""

    verb: str  # extract, update or status
    spec: str | None = None
    game: tuple[str, ...] = ()  # every game of the spec when none is named
    lang: tuple[str, ...] = ()  # update: the spec's languages when none is named


def run(args: Asked) -> int:
    from pnp.rules import load_spec
    from pnp.spec.source import default_spec_path

    source = Path(args.spec) if args.spec else default_spec_path()
    spec = load_spec(source)
    games = list(spec.games) if not args.game else [_pick(g, list(spec.games)) for g in args.game]
    if args.verb == "extract":
        lines = extract(spec, games)
    elif args.verb == "update":
        lines = update(spec, games, args.lang)
    else:
        lines = report(spec, games)
    print("\n".join(lines))
    return 0


def _pick(value: str, known: list[str]) -> str:
    match = next((name for name in known if name.casefold() == value.casefold()), None)
    if match is None:
        raise UsageError(f"--game {value}: no such game (known: {', '.join(known)})")
    return match
