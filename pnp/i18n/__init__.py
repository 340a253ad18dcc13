"""Translations: the language a kit, a referee answer or a page is worded in.

English is the source language: every text pnp prints is written in English in the program
(`_("sheet {n} of {total}")`) or in the spec (a card's `text:`), and that English text is the
msgid under which a gettext catalog keeps its translation (`pnp.i18n.catalogs` reads and
writes the PO files with Babel; `pnp translate` keeps them up to date).

Who words something asks the current language, which the caller sets for the work at hand
(`with speaking(language): …`): a build sets the kit's, `pnp referee explain --lang ru` Russian.
Without one, everything is English and nothing is read, so the referee starts as fast as ever:
this module imports nothing heavier than the standard library, and Babel only in `catalogs`.

A `Language` also knows its siblings, the other languages its game is printed in: what decides
geometry (the width of a board's label column, the height of an aid's paragraph) is measured
in all of them (`variants`), so every kit of a game puts every piece where the others do.

Plural forms follow each language's rule (the catalog's `Plural-Forms`, from CLDR: Russian has
three): in the program with `ngettext`, in a spec template with a `plural` format,
`{rules[rounds]:plural:# round|# rounds}` (`#` is the number; the forms in the catalog's order).
"""

from __future__ import annotations

import gettext
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterator, Mapping, Sequence

SOURCE = "en"  # the language msgids are written in
PSEUDO = "qps"  # the pseudo-locale: accented, 40 % longer, bracketed, made from the source
ENGLISH_PLURAL = "(n != 1)"
CODE = re.compile(r"^[a-z]{2,3}(?:_[A-Z][a-z]{3})?(?:_(?:[A-Z]{2}|\d{3}))?$")  # es, pt_BR, sr_Latn, es_419: a catalog's folder

def code_problem(code: str) -> str:
    """What keeps `code` from naming a catalog, or "": a BCP 47 language, with its script and
    region if any, as a catalog's folder writes it (`es`, `pt_BR`, `sr_Latn`), never the
    pseudo-locale, which is made from the source, not translated."""
    if code == PSEUDO:
        return f'"{PSEUDO}" is the pseudo-locale, made from the English source: build it with --lang {PSEUDO}, ' \
               "never list it or give it a catalog"
    if not CODE.match(code):
        hint = code.replace("-", "_") if CODE.match(code.replace("-", "_")) else ""
        return f'expected a language code such as "es", "ru" or "pt_BR", got "{code[:40]}"' + \
            (f' (write "{hint}")' if hint else "")
    return ""


Forms = tuple[str, ...]  # a translation: one string, or the plural forms in the catalog's order


@dataclass(frozen=True)
class Language:
    """One language's translations of one game's texts: msgid → its forms (one for a plain
    text, several for a plural entry, keyed by its singular). A text without a translation (or
    with an empty one) is printed in English, as gettext does; `pnp validate` says which.

    `messages` are the translations pnp's own texts are worded with (`gettext`): each with its
    source's very placeholders and format specs, as `str.format` fills them. `templates` are
    those of the spec's texts (`template`), which the spec's own formatter fills: there a
    number's words may take the language's plural forms where the English has none
    (`{rules[start_shares]:plural:# acción|# acciones}` for `{rules[start_shares]}`). A
    catalog's translation that is neither is in neither (`pnp.i18n.catalogs.fault`)."""

    code: str
    messages: Mapping[str, Forms] = field(default_factory=dict, repr=False, compare=False)
    plural_forms: str = ENGLISH_PLURAL  # the catalog's C expression: n → index of the form
    siblings: tuple["Language", ...] = field(default=(), repr=False, compare=False)  # see `variants`
    digest: str = ""  # of the catalog file: what a cache keys translated work by
    templates: Mapping[str, Forms] | None = field(default=None, repr=False, compare=False)  # None: `messages`

    @property
    def pseudo(self) -> bool:
        return self.code == PSEUDO

    def gettext(self, msgid: str) -> str:
        if self.pseudo:
            return pseudo(msgid)
        forms = self.messages.get(msgid)
        return forms[0] if forms and forms[0] else msgid

    def template(self, msgid: str) -> str:
        """A text of the spec (a template its formatter fills) in this language."""
        if self.pseudo:
            return pseudo(msgid)
        forms = (self.messages if self.templates is None else self.templates).get(msgid)
        return forms[0] if forms and forms[0] else msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if self.pseudo:
            return pseudo(singular if n == 1 else plural)
        forms = self.messages.get(singular)
        if forms and all(forms):
            return forms[min(self.plural_index(n), len(forms) - 1)]
        return singular if n == 1 else plural

    def plural_index(self, n: int) -> int:
        """The index of the form for `n` by the catalog's rule (checked for n = 0…1000 when the
        catalog was read; a rule that fails beyond that gives the first form, not an error)."""
        try:
            return _plural(self.plural_forms)(abs(int(n)))
        except (ArithmeticError, ValueError, RecursionError):
            return 0

    def form(self, forms: str, n: object) -> str:
        """One of `forms` ("# round|# rounds", the catalog's order) for the number `n`, `#`
        replaced by `n` as templates show numbers (4, not 4.0)."""
        choices = forms.split("|")
        number = _number(n)
        whole = number if isinstance(number, int) else 0 if number != int(number) else int(number)
        index = (0 if whole == 1 else 1) if self.pseudo else self.plural_index(whole)
        if isinstance(number, float) and number != int(number):  # a fraction takes the last form (CLDR "other")
            index = len(choices) - 1
        chosen = choices[min(index, len(choices) - 1)]
        return chosen.replace("#", _shown(number))

    def variants(self, msgid: str) -> tuple[str, ...]:
        """`msgid` in every language of the game (this one if it has no siblings): what
        geometry is measured on."""
        return tuple(language.gettext(msgid) for language in self.siblings or (self,))

    def with_siblings(self, siblings: tuple["Language", ...]) -> "Language":
        return Language(self.code, self.messages, self.plural_forms, siblings, self.digest, self.templates)


ENGLISH = Language(SOURCE)
_current: ContextVar[Language] = ContextVar("pnp_language", default=ENGLISH)


def current() -> Language:
    """The language texts are being worded in now (English unless a caller said otherwise)."""
    return _current.get()


@contextmanager
def speaking(language: Language | None) -> Iterator[Language]:
    """Word everything inside the block in `language` (None: leave it as it is)."""
    if language is None:
        yield current()
        return
    token = _current.set(language)
    try:
        yield language
    finally:
        _current.reset(token)


def _(msgid: str) -> str:
    """`msgid` in the current language. The extractor (`pnp translate extract`) finds every
    literal passed to `_`, `ngettext` and `N_` in pnp's printing modules."""
    return _current.get().gettext(msgid)


def named(notation: str) -> str:
    """An id, or a notation of ids and numbers (a card played, "+100 blue"), as the current
    language names it: each word through the catalog, where a game's asset ids are entries of
    their own (Акционер's colours are words: "+100 синие"); numbers and signs stay. English,
    and every code a catalog keeps as it is (IBE, USD), come back unchanged."""
    return " ".join(_(word) if word.isalpha() else word for word in notation.split(" "))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for `n` in the current language."""
    return _current.get().ngettext(singular, plural, n)


def N_(msgid: str) -> str:
    """Marks a text for the catalogs where it is written, to be translated where it is shown
    (`_(text)` later, e.g. a table heading an engine computes)."""
    return msgid


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Marks a plural entry for the catalogs where it is written (`ngettext(*entry, n)` later)."""
    return (singular, plural)


def variants(msgid: str) -> tuple[str, ...]:
    """`msgid` in every language of the current kit (geometry is measured on all of them)."""
    return _current.get().variants(msgid)


def preferred(accept_language: str, offered: Sequence[str]) -> str | None:
    """The best of `offered` (catalog codes: es, pt_BR) for an HTTP `Accept-Language` header
    ("es-MX;q=0.9, ru;q=0.8"), by its q-values, a region falling back to its language; None if
    it accepts none of them: a page then speaks its game's own language."""
    wanted = []
    for n, part in enumerate(accept_language.split(",")[:32]):  # a header is the client's: bounded
        tag, _sep, params = part.strip().partition(";")
        q = re.search(r"q\s*=\s*([0-9.]+)", params)
        try:
            weight = float(q.group(1)) if q else 1.0
        except ValueError:
            continue
        if tag and weight > 0:
            wanted.append((-weight, n, tag.strip().replace("-", "_")))
    for _weight, _n, tag in sorted(wanted):
        for code in offered:
            if code.lower() == tag.lower() or code.split("_")[0].lower() == tag.split("_")[0].lower():
                return code
    return None


# --- the pseudo-locale ------------------------------------------------------------------------

_ACCENTED = str.maketrans("AaCcDdEeGgHhIiJjKkLlNnOoRrSsTtUuWwYyZz",
                          "ÅåÇçÐðÉéĜĝĤĥÎîĴĵĶķĻļÑñÖöŘřŠšŢţÛûŴŵÝýŽž")
_KEEP = re.compile(r"(\{[^{}]*\}|:[A-Za-z0-9_-]+:|\*\*|[A-Z]{2,}-X?\d+(?:\.\d+)*|#)")  # placeholders, icons, bold, rule IDs


def pseudo(text: str) -> str:
    """The pseudo-locale's version of `text`: every letter accented, 40 % longer (padding of
    "~" words), the whole in brackets, so an untranslated or too-long text shows at once.
    Placeholders (`{id}`), icons (`:IBE:`), bold marks and rule IDs stay as they are, so the
    numbers still come from the spec and the IDs still match the referee's."""
    if not text.strip():
        return text
    parts = _KEEP.split(text)
    body = "".join(part if i % 2 else part.translate(_ACCENTED) for i, part in enumerate(parts))
    letters = sum(len(part) for i, part in enumerate(parts) if not i % 2)
    extra = max(1, round(letters * 0.4))
    padding = " ".join("~" * min(6, extra - n) for n in range(0, extra, 7))
    return f"[{body} {padding}]"


# --- helpers ----------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _plural(expression: str) -> Callable[[int], int]:
    return gettext.c2py(expression)


def _number(value: object) -> int | float:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    try:
        number = float(value)  # type: ignore[arg-type]  # a Fraction, a float, a numeric string
    except (TypeError, ValueError):
        raise ValueError(f"a plural needs a number, got {value!r}") from None
    return int(number) if number == int(number) else number


def _shown(number: int | float) -> str:
    return str(int(number)) if number == int(number) else f"{number:g}"
