"""The rules as written: each game's rules file (`pnp/data/rules/<game>.md`), split by rule ID.

The engines cite rule IDs; this module is where an ID leads back to its words, so the referee,
the table companion, `pnp rules show` and the printed booklet quote one text. It reads only
the packaged markdown (no spec, no engine) and is cached per game.

A rules file marks a rule by its ID where a paragraph, a list item or a sentence begins
(`BOLSA-3.2.5 …`, `- BOLSA-4.5.1 …`, `… [S]. BOLSA-1.5 …`), a worked example in bold
(`**BOLSA-X1 Setup.**`), an ambiguity or house-rule decision as a list item (`- **BOLSA-A2 When
is there an auction?**`), and a numbered heading
(`### 3.2 Declaration phase`) is the section `BOLSA-3.2`. A rule runs to the next one or the
next heading.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Callable

from pnp.rules.registry import GAMES

RULE, EXAMPLE, AMBIGUITY, SECTION = "rule", "example", "ambiguity", "section"

_HEADING = re.compile(r"^(#{2,4})\s+(\d+(?:\.\d+)*)?\s*(.*)$")
_PREFIX = re.compile(r"^([A-Z]+)-\d", re.M)


@dataclass(frozen=True)
class Rule:
    """One rule of one game's rules file."""

    id: str  # as the file writes it: "BOLSA-3.2.5", "BOLSA-X1", "BOLSA-A2", "BOLSA-3.2" for a section
    game: str
    kind: str  # RULE, EXAMPLE, AMBIGUITY or SECTION
    section: str  # the heading it sits under, e.g. "3.2 Declaration phase (…)"
    title: str  # the bold words right after the ID, if any ("Companies")
    text: str  # the rule's markdown after its ID, up to the next rule or heading
    line: int  # 1-based line of the ID in the file

    @property
    def plain(self) -> str:
        """The text without markdown emphasis, each paragraph on one line (tables, code and lists
        keep their lines)."""
        text = re.sub(r"\*\*?([^*]+)\*\*?", r"\1", self.text)
        return "\n".join(_unwrap(part) for part in re.split(r"\n\s*\n", text)).strip()


def games() -> tuple[str, ...]:
    """The games with a rules file: the package's, in name order, then a registered game's own
    (`_own_file`)."""
    folder = resources.files("pnp") / "data" / "rules"
    bundled = tuple(sorted(entry.name[:-3] for entry in folder.iterdir() if entry.name.endswith(".md")))
    return bundled + tuple(game for game in GAMES if game not in bundled and _own_file(game).is_file())


def document(game: str) -> str:
    """A game's whole rules file (KeyError if it has none): the package's, or a registered
    game's own, beside its rules module (`mygame.py`'s `mygame.md`; a package's `<game>.md`)."""
    path = resources.files("pnp") / "data" / "rules" / f"{game}.md"
    if not path.is_file():
        if game not in GAMES or not _own_file(game).is_file():
            raise KeyError(game)
        return _own_file(game).read_text(encoding="utf-8")
    return path.read_text(encoding="utf-8")


def _own_file(game: str) -> Path:
    """Where a registered game's rules file is: beside its module, named as the module or, for
    a package, inside it named as the game."""
    module = GAMES[game].module
    where = Path(module.__file__ or "")
    return where.parent / f"{game}.md" if hasattr(module, "__path__") else where.with_suffix(".md")


@lru_cache(maxsize=None)
def rules(game: str) -> tuple[Rule, ...]:
    """Every rule, example, ambiguity and numbered section of `game`, in file order."""
    return tuple(_parse(game, document(game)))


def rule(rule_id: str, game: str | None = None) -> Rule:
    """The rule with this ID, in `game` or whichever game's file has it. KeyError if unknown."""
    for candidate in (game,) if game else games():
        found = _index(candidate).get(_normal(rule_id))
        if found:
            return found
    raise KeyError(rule_id)


def nearest(rule_id: str, count: int = 5, game: str | None = None) -> list[str]:
    """The IDs most like `rule_id`, for a "did you mean" after a typo."""
    ids = [r.id for g in ((game,) if game else games()) for r in rules(g)]
    wanted = _normal(rule_id)
    close = difflib.get_close_matches(wanted, [_normal(i) for i in ids], n=count, cutoff=0.5)
    by_normal = {_normal(i): i for i in ids}
    return [by_normal[c] for c in close]


def search(words: str, game: str | None = None, also: Callable[[Rule], str] | None = None) -> list[Rule]:
    """Rules whose ID, section, title or text — or `also(rule)`, more words a caller knows it
    by (the house rules it governs) — contain every word (case- and accent-blind), best first:
    more hits in the title and more hits overall rank higher."""
    terms = [_fold(w) for w in words.split() if w.strip()]
    if not terms:
        return []
    found = []
    for g in (game,) if game else games():
        for r in rules(g):
            if r.kind == SECTION:
                continue
            score = _hits(r, terms, also)
            if score is not None:
                found.append((-score, r.game, r.line, r))
    return [r for *_, r in sorted(found, key=lambda item: item[:3])]


def _hits(rule: Rule, terms: list[str], also: Callable[[Rule], str] | None) -> int | None:
    """How well `rule` matches every term (a title's hit counts three), or None when a term
    is missing."""
    haystack = _fold(" ".join((rule.id, rule.section, rule.title, rule.text, also(rule) if also else "")))
    if not all(t in haystack for t in terms):
        return None
    return sum(_fold(rule.title).count(t) * 3 + haystack.count(t) for t in terms)


@lru_cache(maxsize=None)
def headings(game: str) -> tuple[tuple[str, int], ...]:
    """Each heading of the game's rules file, its words without its number, with its line."""
    found = []
    for number, line in enumerate(document(game).splitlines(), 1):
        heading = _HEADING.match(line)
        if heading and heading.group(3).strip():
            found.append((heading.group(3).strip(), number))
    return tuple(found)


def within(section_id: str, game: str | None = None) -> tuple[Rule, ...]:
    """The rules of a numbered section and its subsections (`BOLSA-3.2` → 3.2.1 … 3.2.7)."""
    section = rule(section_id, game)
    prefix = section.id + "."
    return tuple(r for r in rules(section.game) if r.kind == RULE and (r.id == section.id or r.id.startswith(prefix)))


@lru_cache(maxsize=None)
def prefix(game: str) -> str:
    """The game's rule-ID prefix as its rules file writes it ("BOLSA", "AKT", "FOREX"): every
    ID of the game carries it, so an ID names one rule of one game."""
    match = _PREFIX.search(document(game))
    return match.group(1) if match else game.upper()


def ids(game: str) -> frozenset[str]:
    """Every ID a citation may use for `game`."""
    return frozenset(_index(game))


def _unwrap(paragraph: str) -> str:
    """A wrapped paragraph on one line; tables, code and list items keep their lines."""
    lines = paragraph.strip("\n").splitlines()
    if any(line.lstrip().startswith(("|", "```", "- ")) for line in lines) or paragraph.startswith("    "):
        return "\n".join(line.rstrip() for line in lines)
    return " ".join(paragraph.split())


# --- parsing ------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _index(game: str) -> dict[str, Rule]:
    return {_normal(r.id): r for r in rules(game)}


def _normal(rule_id: str) -> str:
    return rule_id.strip().upper()


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_Mark = tuple[int, int, str, str, str]  # (start, end of id, id, kind, section)


def _parse(game: str, text: str) -> list[Rule]:
    """The rules file's citable pieces: each numbered heading, rule, example and ambiguity, its
    body running to the next mark or heading (the first of a repeated ID wins)."""
    prefix_match = _PREFIX.search(text)
    if prefix_match is None:
        return []
    heading_marks, section_at = _headings(text, prefix_match.group(1))
    marks = heading_marks + _citations(text, re.escape(prefix_match.group(1)), section_at)
    marks.sort()
    boundaries = sorted({m[0] for m in marks} | set(section_at) | {len(text)})

    result, seen = [], set()
    for start, id_end, rule_id, kind, current in marks:
        if rule_id in seen:
            continue
        seen.add(rule_id)
        stop = next(b for b in boundaries if b > start)
        title, body = _titled(kind, current, text[id_end:stop])
        result.append(Rule(rule_id, game, kind, current, title, body.strip(), text.count("\n", 0, start) + 1))
    return result


def _headings(text: str, prefix: str) -> tuple[list[_Mark], dict[int, str]]:
    """The marks of the numbered headings, and every heading's section name by its offset."""
    marks: list[_Mark] = []
    section_at: dict[int, str] = {}
    offset = 0
    for line in text.splitlines(keepends=True):
        heading = _HEADING.match(line.rstrip("\n"))
        if heading:
            section = " ".join(filter(None, heading.group(2, 3)))
            section_at[offset] = section
            if heading.group(2):
                marks.append((offset, offset + len(line), f"{prefix}-{heading.group(2)}", SECTION, section))
        offset += len(line)
    return marks, section_at


def _citations(text: str, prefix: str, section_at: dict[int, str]) -> list[_Mark]:
    """The marks of the rules, examples and ambiguities (`prefix` escaped for a pattern), each
    in the section of the last heading before it."""
    ident = rf"{prefix}-(?:X\d+|\d+(?:\.\d+)*)"
    starts = re.compile(
        rf"(?:^(?:- )?(?P<rule>{ident})(?=[\s:.,]))"  # a paragraph or list item
        rf"|(?:(?<=\. )(?P<inline>{ident})(?= ))"  # a sentence inside a paragraph
        rf"|(?:^\*\*(?P<example>{ident})\b)"  # a worked example
        rf"|(?:^- \*\*(?P<ambiguity>{prefix}-A\d+)\b)",  # an ambiguity, a house-rule decision
        re.M,
    )
    marks: list[_Mark] = []
    for match in starts.finditer(text):
        kind = RULE if match.group("rule") or match.group("inline") else EXAMPLE if match.group("example") else AMBIGUITY
        rule_id = match.group(match.lastgroup or "rule")
        current = ""
        for at, name in section_at.items():
            if at <= match.start():
                current = name
        marks.append((match.start(), match.end(), rule_id, kind, current))
    return marks


def _titled(kind: str, section: str, body: str) -> tuple[str, str]:
    """A mark's title and body: a section's body is its name; an example or ambiguity is titled
    by its bold words ("**BOLSA-X1 Setup.** N = 6 …"), which leave the body; a rule's bold words
    ("BOLSA-1.1 **Companies** [S] …") title it and stay in the body."""
    if kind == SECTION:
        return "", section
    if kind in (EXAMPLE, AMBIGUITY):
        title, _, body = body.partition("**")
        return title.strip().rstrip("."), body
    if kind == RULE:
        emphasis = re.match(r"\s*(?:\*\*([^*]+?)\*\*|\*([^*]+?)\*)", body)
        return (next(g for g in emphasis.groups() if g).strip().rstrip(".") if emphasis else ""), body
    return "", body
