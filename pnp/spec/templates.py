"""Filling the spec's text templates, reaching nothing but the spec's own values.

Printed texts are templates (`"{name}"`, `"{tracks[quote].last}"`, `"{rules[start_cash]}"`), and
a spec may come from anywhere: a forum, a shared folder. Python's `str.format` would let it walk
from any value to the interpreter (`{asset.__class__.__init__.__globals__[sys]...}` prints the
environment on every card) or pad a field to gigabytes (`{name:>900000000}`). So templates are
filled here by a formatter of our own:

- a placeholder names a value of the template's context and walks into it only by the names of
  its data: `.key` and `[key]` into a group of values (a track, an asset, the game, a rulebook's
  values), `[index]` into a list. Every value is plain — text, a number, true/false, a list or a
  read-only group (`Record`) of the fields of a spec object, never the object itself — and no
  name starting with `_` is looked up.
- a format spec is what a card needs: alignment with a fill, a sign, a width up to
  MAX_WIDTH, thousands separators, a precision up to MAX_PRECISION and a type of d, f, g, s or %
  (`{price:>3}`, `{rate:.1f}`); for a list of values it is the separator
  (`{components[dividends].pays: / }`).
  No conversion (`!r`), no nested placeholder in a spec.
- what a template fills is at most MAX_FILLED characters.

Anything else is a `TemplateError` naming the placeholder, which the loader locates.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import unicodedata
from fractions import Fraction
from functools import cached_property, lru_cache
from string import Formatter
from typing import Any, Callable, Iterator, Mapping

from pnp.errors import shorten
from pnp.i18n import current
from pnp.spec.options import suggestion
from pnp.spec.source import PathKey

MAX_WIDTH = 100  # of a field in a format spec
MAX_PRECISION = 10
MAX_SEPARATOR = 10  # characters between the values of a list
MAX_FILLED = 4000  # characters one template may fill (a booklet line is about 600)

# [[fill]align][sign][0][width][grouping][.precision][type]: Python's format-spec grammar, less
# what no card needs (`#` alternate forms, `z`; binary, octal, hex, characters, locale, exponents)
_SPEC = re.compile(r"^(?:(.)?([<>=^]))?([+\- ])?(0)?(\d+)?([,_])?(?:\.(\d+))?([dfFgGs%])?$", re.DOTALL)


# Formats of our own beyond Python's, by name: `{rules[rounds]:NAME:ARGUMENT}` calls
# NAMED_FORMATS[NAME](value, ARGUMENT) for a number value (the translations' plural forms register
# themselves here: `{rules[rounds]:plural:# round|# rounds}`). What they return is bounded as
# any filled text is.
NAMED_FORMATS: dict[str, Callable[[Any, str], str]] = {
    "plural": lambda value, forms: current().form(forms, value),  # the forms in the current language's order
}
MAX_ARGUMENT = 200  # characters of a named format's argument


class TemplateError(ValueError):
    """A template names a placeholder that does not exist; `field` is the face field."""

    def __init__(self, field_name: str, message: str, location: PathKey = ()):
        self.field = field_name
        self.location = location  # e.g. ("cards", 2) or ("tokens", 0, "back"), set by the expanders
        super().__init__(message)

    def at(self, *location: str | int) -> "TemplateError":
        """The error inside `location`: its place so far (an element's, `("elements", 2)`) within it."""
        return TemplateError(self.field, str(self), location + self.location)


class ElsewhereError(TemplateError):
    """A template names a component whose own templates are broken: reported at that component."""


class Values(tuple[object, ...]):
    """Values printed as a list: "0, 2, 2, 2, 3"; a format spec is the separator
    (`{components[dividends].pays: / }` gives "0 / 2 / 2 / 2 / 3")."""

    def __format__(self, separator: str) -> str:
        return (separator or ", ").join(shown(value) for value in self)


def shown(value: Any) -> str:
    """A value as text: whole numbers without ".0" (`2`, not `2.0`), others as written."""
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


class Record(Mapping[str, Any]):
    """A read-only group of named values, seen by a template as `.name` or `[name]`: the fields
    (and the public, computed properties) of a spec object or a rules engine's parameters, or
    the items of a mapping. Values are made plain as they are read."""

    __slots__ = ("_source", "_names")

    def __init__(self, source: Any, names: tuple[str, ...] | None = None):
        self._source = source
        self._names = names  # None: `source` is a mapping, read by key

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str) and key.startswith("_"):
            raise KeyError(key)
        if self._names is None:
            return plain(self._source[key])
        if key not in self._names:
            raise KeyError(key)
        return plain(getattr(self._source, "from_" if key == "from" else key))

    def __iter__(self) -> Iterator[str]:
        return iter(self._source if self._names is None else self._names)

    def __len__(self) -> int:
        return len(self._source if self._names is None else self._names)


class Unchecked(Mapping[str, Any]):
    """Values that exist only once an engine has read the game (`{params.price_max}`): any
    name is accepted and prints as 0, so a template can be checked for everything else."""

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str) and key.startswith("_"):
            raise KeyError(key)
        return self

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __format__(self, spec: str) -> str:
        return format(0, spec) if spec else "0"


_NO_ADVANCE = {"Mn", "Me", "Cf", "Cc"}  # combining marks, format and control characters: they take no width


def check_visible(text: str) -> str:
    """`text`, if it is empty or has a character that takes room on the page; ValueError for
    accents or invisible characters alone, which print nothing and measure 0 mm wide (text
    fitting would divide by that width)."""
    if text and all(unicodedata.category(char) in _NO_ADVANCE for char in text):
        raise ValueError("prints nothing visible (accents or invisible characters alone): add the letter they go on")
    return text


def plain(value: Any) -> Any:
    """`value` as a template may see it: text, a number, true/false, nothing, `Values` or a
    `Record`; TypeError for anything else (a function, a module, a path, a class)."""
    if value is None or isinstance(value, (str, bool, int, float, Record, Unchecked, Values)):
        return value
    if isinstance(value, Mapping):
        return Record(value)
    if isinstance(value, (tuple, list)):
        return Values(plain(item) for item in value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, enum.Enum):
        return plain(value.value)
    names = _data_names(type(value))
    if names is not None:
        return Record(value, names)
    raise TypeError(f"a {type(value).__name__} is not a value a template can print")


_NAMES: dict[type, tuple[str, ...] | None] = {}


def _data_names(kind: type) -> tuple[str, ...] | None:
    """The names a template may read of an instance of `kind`: a pydantic model's fields (by
    their YAML names) or a dataclass's, and the public properties of its class; None when
    `kind` is neither (it is no data of the spec's). Worked out once per class."""
    if kind not in _NAMES:
        _NAMES[kind] = _names_of(kind)
    return _NAMES[kind]


def _names_of(kind: type) -> tuple[str, ...] | None:
    fields = getattr(kind, "model_fields", None)
    if isinstance(fields, dict):
        names = [info.alias or name for name, info in fields.items()]
        stop = {klass for klass in kind.__mro__ if klass.__module__.startswith("pydantic")}
    elif dataclasses.is_dataclass(kind):
        names = [field.name for field in dataclasses.fields(kind)]
        stop = {object}
    else:
        return None
    names += _properties(kind, stop)
    return tuple(dict.fromkeys(name for name in names if not name.startswith("_")))


def _properties(kind: type, stop: set[type]) -> list[str]:
    """The public properties of `kind` and of its bases but those in `stop` (the library's)."""
    return [name for klass in kind.__mro__ if klass not in stop for name, attribute in vars(klass).items()
            if isinstance(attribute, (property, cached_property)) and not name.startswith("_")]


@lru_cache(maxsize=4096)
def _parse(template: str) -> tuple[tuple[str, str | None, str | None, str | None], ...]:
    return tuple(Formatter().parse(template))


def fill(template: str, context: Mapping[str, Any], field_name: str) -> str:
    """`template` with every placeholder replaced by its value in `context`; TemplateError
    (for `field_name`) when a placeholder names nothing, walks where it may not, or asks for a
    format no card needs."""
    if "{" not in template and "}" not in template:
        return template
    try:
        parts = _parse(template)
    except ValueError as error:
        raise TemplateError(field_name, f"{_braces(str(error))}; write {{{{ and }}}} for a brace printed as is") from None
    out: list[str] = []
    size = 0
    for literal, name, spec, conversion in parts:
        out.append(literal)
        size += len(literal)
        if name is None:
            continue
        shown_as = "{" + shorten(name, 40) + "}"
        if conversion is not None:
            raise TemplateError(field_name, f"{shown_as}: no !{conversion} in a template; write {shown_as} alone")
        text = _formatted(_lookup(name, context, field_name, shown_as), spec or "", field_name, shown_as)
        out.append(text)
        size += len(text)
        if size > MAX_FILLED:
            raise TemplateError(field_name, f"the text fills to more than {MAX_FILLED:,} characters")
    return "".join(out)


def _braces(message: str) -> str:
    if "Single '}'" in message:
        return "a } with no { before it"
    if "Single '{'" in message or "expected '}'" in message:
        return "a { with no } after it"
    return f"braces that do not pair ({message})"


def _lookup(name: str, context: Mapping[str, Any], field_name: str, shown_as: str) -> Any:
    """The value `name` (`tracks[quote].last`) names, walked one step at a time."""
    first, rest = _head(name, context, field_name, shown_as)
    value = _plain(context[first], field_name, shown_as)
    walked = first
    for is_attribute, key in rest:
        value = _plain(_step(value, is_attribute, key, field_name, shown_as, walked), field_name, shown_as)
        walked += f".{key}" if is_attribute else f"[{key}]"
    return value


def _head(name: str, context: Mapping[str, object], field_name: str,
          shown_as: str) -> tuple[str, list[tuple[bool, int | str]]]:
    """The value a placeholder starts from (a name `context` has), and the steps after it."""
    try:
        first, rest = _split(name)
    except ValueError:
        raise TemplateError(field_name, f"{shown_as} is not a placeholder: name a value, e.g. {{name}}") from None
    if first == "" or isinstance(first, int):
        raise TemplateError(field_name, f"{shown_as}: name a value, e.g. {{name}} (numbered placeholders are not used)")
    if first.startswith("_") or first not in context:
        known = ", ".join(sorted(k for k in context if not k.startswith("_")))
        raise TemplateError(field_name, f"unknown placeholder {{{shorten(first, 40)}}} (known: {known})")
    return first, rest


def _step(value: object, is_attribute: bool, key: int | str, field_name: str, shown_as: str, walked: str) -> object:
    """One step of a placeholder (`.last`, `[3]`) from the value `walked` names: a value of a
    list by its place, an entry of a mapping, nothing of a single value."""
    if isinstance(key, str) and key.startswith("_"):
        raise TemplateError(field_name, f"{shown_as}: names starting with _ are not part of the spec")
    if isinstance(value, Values) and not is_attribute and isinstance(key, int):
        if not -len(value) <= key < len(value):
            raise TemplateError(field_name, f"{shown_as}: {walked} has {len(value)} values, no [{key}]")
        return value[key]
    if isinstance(value, Mapping):
        return _item(value, key, field_name, shown_as, walked)
    step = f".{key}" if is_attribute else f"[{key}]"
    raise TemplateError(field_name, f"{shown_as}: {walked} is a single value, with no {shorten(str(step), 40)}")


def _split(name: str) -> tuple[Any, list[tuple[bool, Any]]]:
    from _string import formatter_field_name_split  # type: ignore[import-not-found]  # the C parser str.format uses

    first, rest = formatter_field_name_split(name)
    return first, list(rest)


def _item(group: Mapping[str, Any], key: Any, field_name: str, shown_as: str, walked: str) -> Any:
    try:
        return group[key]
    except TemplateError:
        raise
    except (KeyError, IndexError, TypeError):
        pass
    if isinstance(key, int) and str(key) in group:  # `labels[8]` of a mapping with text keys
        return group[str(key)]
    known = [str(k) for k in group] if len(group) <= 1000 else []
    hint = suggestion(shorten(str(key)), known)
    raise TemplateError(field_name, f"cannot fill template {shown_as}: there is no {shorten(str(key))!r} in {walked}"
                                    + (f" ({hint})" if hint else ""))


def _plain(value: Any, field_name: str, shown_as: str) -> Any:
    try:
        return plain(value)
    except TypeError as error:
        raise TemplateError(field_name, f"{shown_as}: {error}") from None


def _formatted(value: Any, spec: str, field_name: str, shown_as: str) -> str:
    """`value` formatted by `spec`, which must be one a card needs."""
    if "{" in spec or "}" in spec:
        raise TemplateError(field_name, f"{shown_as}: no placeholder inside a format spec")
    name, colon, argument = spec.partition(":")
    if colon and name in NAMED_FORMATS:
        return _named_format(value, name, argument, field_name, shown_as)
    if isinstance(value, Unchecked):
        _check_spec(spec, field_name, shown_as)
        return format(value, spec)
    if isinstance(value, Mapping):
        known = ", ".join(shorten(str(k), 20) for k in list(value)[:8])
        raise TemplateError(field_name, f"{shown_as} names a group of values; name one of them ({known})")
    if isinstance(value, Values):
        return _list_formatted(value, spec, field_name, shown_as)
    _check_spec(spec, field_name, shown_as)
    try:
        return format(value, spec)
    except (ValueError, TypeError, OverflowError) as error:
        raise TemplateError(field_name, f"{shown_as}: format {shorten(spec, 20)!r} does not suit {shown(value)!r} "
                                        f"({error})") from None


def _named_format(value: object, name: str, argument: str, field_name: str, shown_as: str) -> str:
    """A number in one of `NAMED_FORMATS` with its `argument` (a value known only to the engine
    formatted as 0, to check the format)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Unchecked)):
        raise TemplateError(field_name, f"{shown_as}: the {name} format is for a number")
    if len(argument) > MAX_ARGUMENT:
        raise TemplateError(field_name, f"{shown_as}: a {name} format of at most {MAX_ARGUMENT} characters")
    return NAMED_FORMATS[name](0 if isinstance(value, Unchecked) else value, argument)


def _list_formatted(value: Values, separator: str, field_name: str, shown_as: str) -> str:
    """A list of single values, joined by the format spec as its `separator`."""
    if any(isinstance(item, Mapping) for item in value):
        raise TemplateError(field_name, f"{shown_as} names a list of groups; name one value of them")
    if len(separator) > MAX_SEPARATOR:
        raise TemplateError(field_name, f"{shown_as}: a list's separator has at most {MAX_SEPARATOR} characters")
    return format(value, separator)


def _check_spec(spec: str, field_name: str, shown_as: str) -> None:
    if not spec:
        return
    match = _SPEC.match(spec)
    if match is None:
        raise TemplateError(field_name, f"{shown_as}: format {shorten(spec, 20)!r} is not one a card needs: "
                                        "alignment (<, >, ^), a sign, a width, a thousands separator (,), "
                                        "a precision (.2) and a type (d, f, g, s, %)")
    width, precision = match.group(5), match.group(7)
    if width is not None and (len(width) > 4 or int(width) > MAX_WIDTH):
        raise TemplateError(field_name, f"{shown_as}: a width of at most {MAX_WIDTH}, not {shorten(width, 20)}")
    if precision is not None and (len(precision) > 4 or int(precision) > MAX_PRECISION):
        raise TemplateError(field_name, f"{shown_as}: a precision of at most {MAX_PRECISION}, not {shorten(precision, 20)}")
