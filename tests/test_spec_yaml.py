"""YAML in plain words (issue #29): tabs, unclosed brackets and quotes (located at the opening),
duplicate keys and bad indentation each get a sentence a designer understands, with the line
shown and a caret under the place; and a command-line value read with a spec's limits."""

from __future__ import annotations

import pytest

from pnp.errors import SpecError, UsageError
from pnp.spec.loader import loads
from pnp.spec.source import read_value
from spec_text import BUNDLED, edit


def mistake(text: str) -> tuple[str, list[str]]:
    """The one issue's line, and the lines shown under it."""
    with pytest.raises(SpecError) as caught:
        loads(text)
    first, *shown = caught.value.lines()
    return first, shown


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


@pytest.mark.parametrize("old, new, at, words", [
    ("    title: The Stock", "\ttitle: The Stock", ("\ttitle", 1), "a tab: YAML indents with spaces only"),
    ("    language: es", "  \t  language: es", ("\t  language", 1), "a tab"),
    ("players: {min: 3, max: 6}", "players: {min: 3, max: 6", ("{min: 3, max: 6\n", 1), "this { is never closed"),
    ("card_mm: [63, 88]", "card_mm: [63, 88", ("[63, 88 ", 1), "this [ is never closed"),
    ('color: "#009e73"', 'color: "#009e73', ('"#009e73,', 1), 'this " is not closed on its line'),
    ("title: The Stock Exchange Game  ", "title: 'The Stock Exchange Game  ", ("'The", 1),
     "this ' is not closed on its line"),
    ("    languages: [en, es, ru]", "      languages: [en, es, ru]", ("languages: [en", 1),
     "indented 6 spaces, more than the line above (4)"),
    ("    languages: [en, es, ru]", "   languages: [en, es, ru]", ("languages: [en", 1),
     "indented 3 spaces and the line above 4"),
    ("  margin_mm: 5", " margin_mm: 5", ("margin_mm: 5", 1), "indented 1 space and the line above 2"),
    ("    language: es", "    language es", ("language es", 1), "a line with no colon"),
    ("      - id: money\n        kind: money", "      - id: money\n      kind: money", ("kind: money\n        name: Money", 1),
     "an entry among list items"),
])
def test_each_yaml_mistake_is_a_sentence_at_its_cause_with_a_caret(old, new, at, words):
    text = edit(old, new)
    needle, _ = at
    line = line_of(text, needle)
    col = text.index(needle) - (text.rfind("\n", 0, text.index(needle)) + 1) + 1
    first, shown = mistake(text)
    assert first.startswith(f"components.yaml:{line}:{col}: not valid YAML: ") and words in first, first
    assert "token" not in first and "scanning" not in first and "parsing" not in first  # no parser words
    source, caret = shown
    assert source.startswith(f"{line:>5} | ") and caret.index("^") - caret.index("|") == col + 1


def test_a_duplicate_key_names_both_lines():
    text = edit("    language: ru\n", "    language: ru\n    language: es\n")
    first, shown = mistake(text)
    assert first == (f"components.yaml:{line_of(text, 'language: es' + chr(10))}:5: games.aktsioner.language: the key "
                     f"'language' is given twice in this mapping (first at line {line_of(text, 'language: ru')}): "
                     "keep one of them")
    assert shown[0].endswith("|     language: es") and shown[1].endswith("|     ^")


@pytest.mark.parametrize("text, words", [
    ("a: [1, 2\n", "this [ is never closed"),
    ('a: "abc\nb: 2\n', 'this " is never closed'),
    ("a: {b: 1}}\n", "a } with nothing to close"),
    ("a: @x\n", "a value cannot start with '@'"),
    ("a: b: c\n", 'a ": " inside a value'),
    ("a: *x\n", "an alias (*name) with no anchor"),
    ("a: 1\n---\nb: 2\n", "a second document"),
    ("a: \x07\n", "U+0007 is a control character"),
])
def test_small_mistakes_in_plain_words(text, words):
    first, shown = mistake(text)
    assert words in first and first.startswith("components.yaml:")
    assert "\x07" not in "".join(shown)  # a control character is not echoed to the terminal


def test_a_long_line_is_shown_round_the_mistake():
    line = next(row for row in BUNDLED.splitlines() if row.startswith("    title: The Stock Exchange Game"))
    text = edit(line, "    title: " + "x" * 5000 + "\t: y")
    first, (source, caret) = mistake(text)
    assert len(source) < 220 and source.rstrip("…").endswith("x→: y") and caret.endswith("^")
    assert source[len(caret) - 1] == ":"  # the caret under the colon that ends the value


@pytest.mark.parametrize("text, value", [
    ("6", 6), ("[1, 2]", (1, 2)), ("{stronger: GBP, position: 2}", {"stronger": "GBP", "position": 2}),
    ("3+5", "3+5"), ("", None), ("yes", True), ("1e400", "1e400"),
])
def test_a_command_line_value_is_read_as_yaml(text, value):
    assert read_value(text, "--set rules.x") == value


@pytest.mark.parametrize("text, words", [
    ("[" * 1000, "nested more than 100 levels deep"),
    ("[1, 2", "this [ is never closed"),
    (".nan", "is not a finite number"),
    ("!!python/object/apply:os.system [ls]", "unsupported YAML tag"),
    ("&a [*a]", "endless recursion"),
    ("x" * 200_000, "more than 100,000 bytes"),
    ("[" + ", ".join(["&a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]"] + ["*a"] * 2000) + "]", "more than 10,000 values"),
])
def test_a_command_line_value_has_a_specs_limits(text, words):
    with pytest.raises(UsageError) as caught:
        read_value(text, "--set rules.rounds")
    (line,) = caught.value.lines()
    assert line.startswith("--set rules.rounds: ") and words in line and len(line) < 300


def test_the_bundled_spec_has_no_mistake():
    assert loads(BUNDLED).games
