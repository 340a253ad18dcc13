"""`pnp rules`: a rule read from its ID, with the house rules it governs and their values.

The rules files say what a rule means; the spec and a record's `options` say which variant is
played. A rule quoted at the table is only useful with both, so `show` prints the rule's words
(`pnp.rules.text`) followed by every house rule that cites it (`RULEBOOK.options`) with the
value in effect: the engine's own reading of the spec, so a value set by a track shows the
track's number. The table companion quotes a broken rule the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pnp.errors import UsageError
from pnp.rules import GAMES, text
from pnp.spec.templates import TemplateError, fill

if TYPE_CHECKING:
    from pnp.spec.model import Booklet, Game, Spec


@dataclass(frozen=True)
class HouseRule:
    """One house rule of a game with the value it has in a given spec (and record options)."""

    name: str
    rule: str  # the rule ID the option cites
    value: Any  # in effect
    default: Any
    choices: tuple[Any, ...] | None
    set_by: str | None  # where components.yaml sets it instead, if anywhere

    def line(self) -> str:
        """`declaration_cash_check = total (default; or none)`"""
        shown = show_value(self.value)
        if self.set_by:
            note = f"from {self.set_by}"
        elif show_value(self.default) == shown:
            note = "default"
        else:
            note = f"default {show_value(self.default)}"
        others = [show_value(c) for c in self.choices or () if show_value(c) != shown]
        if others:
            note += f"; or {', '.join(others)}"
        return f"{self.name} = {shown} ({note})"


def house_rules(game_id: str, game: Game, options: Mapping[str, Any] | None = None) -> tuple[HouseRule, ...]:
    """Every house rule of a registered game with its value in effect: the engine's parameters
    read from the spec and `options` (a record's, already checked), the spec's value or the
    default where the parameters do not carry the option by name."""
    engine = GAMES[game_id].engine
    params = engine.params(game, options)
    given = {**game.rules, **(options or {})}
    return tuple(
        HouseRule(o.name, o.rule, getattr(params, o.name, given.get(o.name, o.default)), o.default, o.choices, o.set_by)
        for o in engine.RULEBOOK.options
    )


def governed(rule: text.Rule, rules: tuple[HouseRule, ...]) -> tuple[HouseRule, ...]:
    """The house rules that cite `rule`, or any rule of the section it is."""
    if rule.kind == text.SECTION:
        prefix = rule.id + "."
        return tuple(h for h in rules if h.rule == rule.id or h.rule.startswith(prefix))
    return tuple(h for h in rules if h.rule == rule.id)


OLD_AMBIGUITY = re.compile(r"A\d+", re.IGNORECASE)  # before the game prefix: "A5", now "FOREX-A5"


def find(rule_id: str, game: str | None = None) -> list[text.Rule]:
    """The rule with this ID in `game`, or in the game whose file has it; an ambiguity's old
    ID without its game's prefix (`A5`) finds it in every game that has one (`renamed` says
    so). UsageError with the nearest IDs when there is none."""
    games = (game,) if game else text.games()
    found = []
    for candidate in games:
        for wanted in ([f"{text.prefix(candidate)}-{rule_id}"] if OLD_AMBIGUITY.fullmatch(rule_id.strip()) else [rule_id]):
            try:
                found.append(text.rule(wanted, candidate))
            except KeyError:
                pass
    if not found:
        near = text.nearest(rule_id, game=game)
        hint = f" (nearest: {', '.join(near)})" if near else ""
        where = f" in {game}" if game else ""
        raise UsageError(f'unknown rule ID "{rule_id}"{where}{hint}')
    return found


def renamed(rule_id: str, found: list[text.Rule]) -> str | None:
    """The pointer `pnp rules show` prints for an old short ID: "A5 is now FOREX-A5 (…)"."""
    if not OLD_AMBIGUITY.fullmatch(rule_id.strip()) or not found:
        return None
    ids = [f"{r.id} ({r.game})" for r in found]
    return f"{rule_id.strip().upper()} is now {' and '.join(ids) if len(ids) < 3 else ', '.join(ids)}: each game's IDs carry its prefix"


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (Mapping, list, tuple)) and len(value) > 8:
        return f"{len(value)} entries (rules file)"  # a setup chart: the rules file shows it whole
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    return str(value)


# --- the command ----------------------------------------------------------------------------------

WORDS = "en"  # the language `pnp rules show` quotes a rule in without --lang: the English kit's booklet


def show(rule_id: str, game: str | None = None, spec: str | None = None, lang: str | None = None,
         notes: bool = False) -> str:
    """What `pnp rules show ID` prints: each rule the ID names as players read it — the words
    of the game's rules booklet in `lang` (the English kit's without), else the rules file's
    with its design notes left out — and the house rules in effect; `notes`: the rules file's
    own text, its sources and design notes ([S: …], [D] …) included. UsageError (exit 2) for an
    unknown game or ID."""
    from pnp.rules import load_spec

    _known_game(game)
    found = find(rule_id, game)
    loaded = load_spec(spec) if any(r.game in GAMES for r in found) or lang else None
    pointer = renamed(rule_id, found)
    return "\n\n".join(([pointer] if pointer else []) + [describe(r, loaded, lang, notes) for r in found])


def search(words: str, game: str | None = None) -> list[str]:
    """What `pnp rules search WORDS` prints, a line per rule, best first (none: nothing
    matches): rules whose ID, section, title, text or governed house rules (their names and
    values: `interest` finds the loan rule through `loan_interest`) contain every word, case and
    accents folded."""
    _known_game(game)
    options: dict[tuple[str, str], list[str]] = {}
    for name in (game,) if game else text.games():
        if name in GAMES:
            for option in GAMES[name].rulebook.options:
                words_of = [option.name.replace("_", " "), *(str(c).replace("_", " ") for c in option.choices or ())]
                options.setdefault((name, option.rule), []).extend(words_of)
    found = text.search(words, game, also=lambda r: " ".join(options.get((r.game, r.id), ())))
    return [f"{r.id:<14} {r.game:<10} {_first_line(_for_players(r.plain))}" for r in found]


def _known_game(game: str | None) -> None:
    if game is not None and game not in text.games():
        raise UsageError(f'unknown game "{game}" (games with rules: {", ".join(text.games())})')


_SOURCES = re.compile(r"\s*\[(?:S|SC|BGA|PnP|PA|MK|HS|GI|SH|D)\b[^\]]*\]")  # [S], [S: “…”], [BGA, PA], [D], [D mechanics]


def _for_players(plain: str) -> str:
    """A rules file's text without its sources and design-note marks."""
    return _SOURCES.sub("", plain).strip()


def worded(game_id: str, spec: Spec, code: str) -> dict[str, str]:
    """Each rule ID of the game's rules booklet with its words in language `code`, as that
    language's kit prints them (the spec's numbers filled in, the bold marks left to print):
    what `pnp rules show --lang` and the table quote: the reference lines, those that start with
    an ID. A line that carries several IDs is cut at each."""
    from pnp.i18n import speaking
    from pnp.spec.faces import fill
    from pnp.spec.translation import kit

    game = spec.games[game_id]
    if code not in game.kit_languages:
        raise UsageError(f"--lang {code}: {game_id} is printed in {', '.join(game.kit_languages)}")
    made = kit(game_id, game, code, spec.folder)
    params = GAMES[game_id].engine.params(game) if game_id in GAMES else None
    found: dict[str, str] = {}
    with speaking(made.language):
        for component in made.game.components:
            if component.kind != "booklet":
                continue
            values = booklet_values(game_id, made.game, params, component)
            for section in component.sections:
                for line in section.lines:
                    text = fill(line, values, "lines")
                    if not _ID.match(text):  # a summary line, which cites rules ("(FOREX-8)"), or none: not their words
                        continue
                    starts = list(_ID.finditer(text))
                    ends = [after.start() for after in starts[1:]] + [len(text)]
                    for here, end in zip(starts, ends[:len(starts)], strict=True):
                        found.setdefault(here.group(1), text[here.end():end].replace("**", "").strip())
    return found


def booklet_values(game_id: str, game: Game, params: Any, booklet: Booklet | None = None,
                   in_effect: tuple[HouseRule, ...] | None = None) -> dict[str, Any]:
    """What a rules booklet's lines may name, for the booklet (`pnp.components.booklet`) and for
    `pnp rules show --lang` alike: the game's template context (`{assets}`, `{counts[shares]}`
    and all, see `game_context`), and for a game with a rules engine `rules` holding every house
    rule in effect (the spec's values over the engine's defaults), `params` the engine's
    parameters and, given the booklet, `house`: each house rule's value in its words (as
    written where it has none; the booklet reports those). `in_effect`: the house rules, when
    the caller has them already."""
    from pnp.spec.faces import game_context

    values = game_context(game)
    if game_id in GAMES:
        values["rules"] = {**GAMES[game_id].rulebook.defaults(), **game.rules}
        values["params"] = params
        if booklet is not None:
            rules = house_rules(game_id, game) if in_effect is None else in_effect
            values["house"] = {h.name: in_words(booklet, h.name, h.value) or printed_value(h.value) for h in rules}
    return values


def in_words(booklet: Booklet, name: str, value: Any) -> str | None:
    """A house rule's value in the booklet's words (`rules_words`: templates over `{value}`,
    filled by the spec's formatter); None where it has none."""
    words = booklet.rules_words.get(name)
    shown = printed_value(value)
    template = None if words is None else words.values.get(shown, words.values.get("*"))
    if template is None:
        return None
    number = isinstance(value, int) and not isinstance(value, bool)  # a translation may give it plural forms
    try:
        return fill(template, {"value": value if number else shown}, name)
    except TemplateError:  # a translation's plural format on a value that is no number
        return shown


def printed_value(value: Any) -> str:
    """A house rule's value as a booklet's `rules_words` key it: `true`, `4.5`, `table`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping) or (isinstance(value, (list, tuple)) and len(value) > 8):
        return "table"
    if isinstance(value, (list, tuple)):
        return ", ".join(printed_value(v) for v in value)
    if isinstance(value, (float, Fraction)):
        return f"{float(value):g}"
    return str(value)


_ID = re.compile(r"(?<![*\w-])([A-Z]{2,}-X?\d+(?:\.\d+)*)(?![*\w])")


def describe(rule: text.Rule, spec: Spec | None, lang: str | None = None, notes: bool = False) -> str:
    """A rule as `pnp rules show` prints it: ID, game and section, the words, the house rules in
    effect (see `show`); a section: each of its rules' first line, or its own text (a table of
    house rules) when it has no rule."""
    words = {} if notes else _booklet(rule.game, spec, lang)
    lines = [_heading(rule, lang, notes), *_body(rule, words, lang, notes)]
    if spec is not None and rule.game in GAMES and rule.game in spec.games:
        options = governed(rule, house_rules(rule.game, spec.games[rule.game]))
        if options:
            lines.append("House rules in effect:")
            lines += [f"  {h.rule}  {h.line()}" if h.rule != rule.id else f"  {h.line()}" for h in options]
    return "\n".join(lines)


def _booklet(game: str, spec: Spec | None, lang: str | None) -> dict[str, str]:
    """The rules booklet's words of each rule of `game` in `lang` (the English kit's without;
    none where the spec does not print the game, or no English kit)."""
    if spec is None or game not in spec.games or (not lang and WORDS not in spec.games[game].kit_languages):
        return {}
    return worded(game, spec, lang or WORDS)


def _heading(rule: text.Rule, lang: str | None, notes: bool) -> str:
    section = rule.section if notes else _for_players(rule.section)
    if lang:
        return f"{rule.id}  ({rule.game} · {lang})"
    return f"{rule.id}  ({rule.game} · {section})" if section else f"{rule.id}  ({rule.game})"


def _section_body(section: text.Rule, words: Mapping[str, str], notes: bool) -> list[str]:
    """A section's rules, one line each (the booklet's words where it has them), or its own
    text when it holds none."""
    inside = [r for r in text.within(section.id, section.game) if r.id != section.id]
    if not inside:
        return ["  " + line for line in _section_text(section, notes).splitlines()]
    return [f"  {r.id}  {_first_line(words.get(r.id) or _said(r, notes))}" for r in inside]


def _body(rule: text.Rule, words: Mapping[str, str], lang: str | None, notes: bool) -> list[str]:
    if rule.kind == text.SECTION:
        return _section_body(rule, words, notes)
    if rule.id in words:
        return [words[rule.id]]
    lines = [f"({lang}: the booklet does not word this rule; the rules file's English follows)"] if lang and not notes \
        else []
    title = rule.title if not rule.title or rule.title[-1] in "?!." else rule.title + "."
    said = _said(rule, notes)
    return lines + [said if not rule.title or rule.kind == text.RULE else f"{title} {said}"]


def _said(rule: text.Rule, notes: bool) -> str:
    return rule.plain if notes else _for_players(rule.plain)


def _section_text(section: text.Rule, notes: bool) -> str:
    """A section's own text, from its heading to the next: what it says when it holds no rule
    (the table of house rules)."""
    lines = text.document(section.game).splitlines()[section.line:]
    body = []
    for line in lines:
        if line.startswith("#"):
            break
        body.append(line.replace("**", "").replace("`", ""))
    said = "\n".join(body).strip()
    return said if notes else _for_players(said)


def _first_line(plain: str, width: int = 90) -> str:
    line = " ".join(plain.split())
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"
