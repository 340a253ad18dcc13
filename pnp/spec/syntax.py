"""YAML mistakes in plain words: what the parser found, said as a designer would fix it.

PyYAML reports a tab as "found character that cannot start any token" and an unclosed brace
where the file ends; a designer wants "a tab: indent with spaces" at the tab, and "this `{` is
never closed" at the brace. `explain` turns a parser error into one sentence located where the
mistake is — the opening of an unclosed bracket or quote, the line indented out of step — with
the line itself, shown under the message with a caret.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pnp.errors import brief

_CLOSERS = {"{": "}", "[": "]"}
_KINDS = {"{": "mapping", "[": "list"}


@dataclass(frozen=True)
class Mistake:
    """Where a YAML mistake is (1-based line and column) and what to do about it."""

    line: int
    col: int
    message: str


def explain(error: Any, text: str) -> Mistake:
    """The mistake behind a `yaml.MarkedYAMLError` raised while reading `text`: the first of
    the readings below that fits, tried from the most telling (a tab, a quote or bracket never
    closed) to the parser's own words."""
    lines = text.split("\n")
    context, problem = error.context or "", error.problem or ""
    at = _mark(error.problem_mark) or _mark(error.context_mark) or (0, 0)
    opened = _mark(error.context_mark)
    if "tab" in problem or _char(lines, at) == "\t":
        return Mistake(*at, "a tab: YAML indents with spaces only; replace the tab with spaces")
    return (_never_closed(lines, at, opened, context, problem)
            or _out_of_place(lines, at, opened, context, problem)
            or _anchor_or_document(at, context, problem)
            or Mistake(*at, " ".join(p for p in (context, problem) if p) or "cannot be read"))


def _never_closed(lines: list[str], at: tuple[int, int], opened: tuple[int, int] | None,
                  context: str, problem: str) -> Mistake | None:
    """A quote or bracket left open, located at its opening rather than where the parser
    gave up (often the end of the file)."""
    quote = _unclosed_quote(lines, (opened or at)[0] if opened else max(1, at[0] - 50), at[0])
    if quote is not None and "end of stream" not in problem:
        return quote
    if "quoted scalar" in context and opened:
        sign = _char(lines, opened)
        return Mistake(*opened, f"this {sign} is never closed: end the text with {sign}")
    if "flow" in context:
        return _bracket_never_closed(lines, at, opened)
    return None


def _bracket_never_closed(lines: list[str], at: tuple[int, int], opened: tuple[int, int] | None) -> Mistake | None:
    """A [ or { left open: the one the parser opened, else the last unmatched one before `at`."""
    opener = opened if opened and _char(lines, opened) in _CLOSERS else _unmatched(lines, at[0])
    if opener is None:
        return None
    sign = _char(lines, opener)
    return Mistake(*opener, f"this {sign} is never closed: add {_CLOSERS[sign]} at the end of the "
                            f"{_KINDS[sign]}, with a comma between its entries")


def _out_of_place(lines: list[str], at: tuple[int, int], opened: tuple[int, int] | None,
                  context: str, problem: str) -> Mistake | None:
    """A character or a line where YAML cannot take it: a sign starting a value, a line with
    no colon, a stray colon or closing bracket, a line indented out of step."""
    if "cannot start any token" in problem:
        sign = _char(lines, at)
        return Mistake(*at, f"a value cannot start with {sign!r}: put the text in quotes, e.g. \"{sign}…\"")
    if "simple key" in context and opened:
        return Mistake(*opened, "a line with no colon: write each entry as `key: value`, with a colon and a space")
    if "mapping values are not allowed" in problem:
        return _stray_colon(lines, at)
    if _char(lines, at) in _CLOSERS.values():
        sign = _char(lines, at)
        return Mistake(*at, f"a {sign} with nothing to close: remove it, or add the opening one before it")
    if "block mapping" in context or "block collection" in context:
        return _out_of_step(lines, at, "list" if "collection" in context else "mapping")
    return None


def _anchor_or_document(at: tuple[int, int], context: str, problem: str) -> Mistake | None:
    """What the composer refuses: an alias without its anchor, an anchor twice, a second document."""
    if "undefined alias" in problem:
        return Mistake(*at, "an alias (*name) with no anchor (&name) above it: define the anchor first")
    if "duplicate anchor" in context:
        return Mistake(*at, "an anchor (&name) defined twice: give each anchor its own name")
    if "single document" in context:
        return Mistake(*at, "a second document (---): a spec is one document; remove the --- line or what follows it")
    return None


def _mark(mark: Any) -> tuple[int, int] | None:
    return (mark.line + 1, mark.column + 1) if mark is not None else None


def _char(lines: list[str], at: tuple[int, int]) -> str:
    line, col = at
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return text[col - 1] if 0 < col <= len(text) else ""


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _spaces(count: int) -> str:
    return f"{count} space" if count == 1 else f"{count} spaces"


def _content(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("#")


def _above(lines: list[str], line: int) -> tuple[int, str] | None:
    """The nearest line above `line` with something on it (not blank, not only a comment)."""
    for number in range(line - 1, max(0, line - 200), -1):
        if _content(lines[number - 1]):
            return number, lines[number - 1]
    return None


def _stray_colon(lines: list[str], at: tuple[int, int]) -> Mistake:
    """`key: value` where YAML reads a continued value: the line is indented more than the
    keys above it, or the text itself holds ": "."""
    line = lines[at[0] - 1] if 0 < at[0] <= len(lines) else ""
    above = _above(lines, at[0])
    if above is not None and _indent(line) > _indent(above[1]) and not above[1].rstrip().endswith(":"):
        return Mistake(at[0], _indent(line) + 1,
                       f"this line is indented {_spaces(_indent(line))}, more than the line above ({_indent(above[1])}), "
                       "so it reads as the rest of that value: line it up with the keys above")
    return Mistake(*at, 'a ": " inside a value: put the value in quotes, e.g. title: "Round: 1"')


def _out_of_step(lines: list[str], at: tuple[int, int], kind: str) -> Mistake:
    """A line a block mapping or list cannot take: indented out of step with its neighbours."""
    line = lines[at[0] - 1] if 0 < at[0] <= len(lines) else ""
    above = _above(lines, at[0])
    where = (at[0], _indent(line) + 1)
    if above is None:
        return Mistake(*at, f"this line does not continue the {kind} above it")
    mine, theirs = _indent(line), _indent(above[1])
    if mine != theirs:
        return Mistake(*where, f"this line is indented {_spaces(mine)} and the line above {theirs}: the entries "
                               f"of one {kind} line up in one column (indent with spaces, two per level)")
    if kind == "list":
        return Mistake(*where, "an entry among list items: start it with \"- \", or indent it under the item it belongs to")
    return Mistake(*where, f"this line cannot continue the mapping above it: write `key: value` ({brief(line.strip()[:40])})")


def _unmatched(lines: list[str], last: int) -> tuple[int, int] | None:
    """The innermost bracket still open at the end of line `last` (outside quotes and
    comments), as (line, col)."""
    stack: list[tuple[int, int]] = []
    for number in range(1, min(last, len(lines)) + 1):
        text, index, quote = lines[number - 1], 0, ""
        while index < len(text):
            char = text[index]
            if quote:
                if char == quote:
                    quote = ""
            elif char in "\"'" and (index == 0 or text[index - 1] in " [{,:"):
                quote = char
            elif char == "#" and (index == 0 or text[index - 1] == " "):
                break
            elif char in _CLOSERS:
                stack.append((number, index + 1))
            elif char in _CLOSERS.values() and stack:
                stack.pop()
            index += 1
    return stack[-1] if stack else None


_OPENING = re.compile(r"""(?:^|[:,\[{\-?])\s*(["'])""")


def _unclosed_quote(lines: list[str], first: int, last: int) -> Mistake | None:
    """The first quote that opens a value on lines `first`..`last` and is not closed on its
    line: in a spec a quoted value spans one line, so that is where a mistake starts."""
    for number in range(max(1, first), min(last, len(lines)) + 1):
        col = _open_quote(lines[number - 1])
        if col is not None:
            sign = lines[number - 1][col]
            return Mistake(number, col + 1, f"this {sign} is not closed on its line: end the text with {sign}")
    return None


def _open_quote(text: str) -> int | None:
    """The 0-based column of a quote opening a value that the line does not close, if any."""
    position = 0
    while True:
        match = _OPENING.search(text, position)
        if match is None or _in_comment(text, match.start(1)):
            return None
        start = match.start(1)
        sign = text[start]
        end = _closing(text, start + 1, sign)
        if end is None:
            return start
        position = end + 1


def _closing(text: str, start: int, sign: str) -> int | None:
    index = start
    while index < len(text):
        char = text[index]
        if sign == '"' and char == "\\":
            index += 2
            continue
        if char == sign:
            if sign == "'" and text[index + 1:index + 2] == "'":
                index += 2  # '' is a quote inside single quotes
                continue
            return index
        index += 1
    return None


def _in_comment(text: str, index: int) -> bool:
    """Whether `index` is after a ` #` that starts a comment (outside quotes, roughly)."""
    hash_at = re.search(r"(^|\s)#", text[:index])
    return hash_at is not None
