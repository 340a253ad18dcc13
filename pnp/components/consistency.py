"""A rules booklet's summary lines against the rules they summarise.

The booklet's reference sections print every rule with its ID ("FOREX-8.1 **Invest**: buy 1 or
2 certificates … for **2** bucks"); its summary lines — "A turn at a glance", the setup in
brief — say the same in fewer words, and cite the rules they summarise ("… at most **4** of a
currency in your hand. (FOREX-8)"). A summary line may print no number the rules it cites do
not print: each number it prints (its templates filled as the kit fills them) must be one of
the numbers of the reference lines of those rules, or of a rule under them (FOREX-8 covers
FOREX-8.1 …). So a line that says "for **3** bucks" while FOREX-8.1 says 2 is found, in every
language, at its line of components.yaml. A step's number in bold at a line's start ("**2 One
action**") is a label, not a number of the rules.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from pnp.components import Context
from pnp.components.booklet import RULE_ID, template_values
from pnp.findings import Finding
from pnp.i18n import speaking
from pnp.spec.faces import TemplateError, fill
from pnp.spec.model import Booklet, Spec
from pnp.spec.translation import Kit

NUMBER = re.compile(r"\d*½|\d+(?:[.,]\d+)?")  # 4, 4.5, 1½, ½
LABEL = re.compile(r"^\W*\*\*\d+\s")  # "**2 One action**": a step's number


def booklet_findings(spec: Spec, game_id: str) -> list[Finding]:
    """Each summary line of the game's booklets, in each kit, that prints a number the rules it
    cites do not: one finding per line and kit, at the line in components.yaml (`pnp validate`
    runs `kit_booklet_findings` per kit, in `pnp.checks`' list)."""
    from pnp.spec.translation import kits

    game = spec.games[game_id]
    found: dict[tuple[str, str], Finding] = {}  # by line and message: a line wrong in every kit is found once, the default kit's
    for code in sorted(game.kit_languages, key=lambda c: c != game.language):
        made = kits(game_id, game, (code,), spec.folder)[code]
        for f in kit_booklet_findings(spec, made):
            found.setdefault((f.path, f.message), f)
    return list(found.values())


def kit_booklet_findings(spec: Spec, made: Kit) -> list[Finding]:
    """`booklet_findings` of one kit."""
    context = Context(made.game_id, made.game, spec.print, spec.folder, made)
    found = []
    with speaking(made.language):
        for index, component in enumerate(made.game.components):
            if isinstance(component, Booklet):
                found += _unsupported(spec, context, index, component, "" if made.default else made.code)
    return found


def _unsupported(spec: Spec, context: Context, index: int, booklet: Booklet, kit: str) -> list[Finding]:
    lines = _filled_lines(booklet, template_values(context, booklet))
    reference = _reference(lines)
    found = []
    for (s, n), text in lines:
        cited = [] if RULE_ID.match(text) else RULE_ID.findall(text)
        allowed = _allowed(reference, cited)
        wrong = [number for number in dict.fromkeys(numbers(LABEL.sub("", text))) if number not in allowed]
        if cited and wrong:
            found.append(_finding(spec, context, index, booklet, (s, n), kit, wrong, cited, allowed))
    return found


def _filled_lines(booklet: Booklet, values: Mapping[str, object]) -> list[tuple[tuple[int, int], str]]:
    """Each line of the booklet's sections filled in, with its section and line number (a line
    that does not fill is left out: the layout reports it at its line)."""
    lines = []
    for s, section in enumerate(booklet.sections):
        for n, line in enumerate(section.lines):
            try:
                lines.append(((s, n), fill(line, values, "lines")))
            except TemplateError:
                continue
    return lines


def _reference(lines: list[tuple[tuple[int, int], str]]) -> dict[str, list[str]]:
    """Each rule ID a reference line (one that starts with a rule ID) holds: that line's numbers."""
    reference: dict[str, list[str]] = {}
    for _, text in lines:
        if RULE_ID.match(text):
            for rule in RULE_ID.findall(text):
                reference.setdefault(rule, []).extend(numbers(text))
    return reference


def _allowed(reference: dict[str, list[str]], cited: list[str]) -> set[str]:
    """The numbers the reference lines of the `cited` rules and of their parts print (citing AKT-4 takes in AKT-4.1's)."""
    return {number for rule, said in reference.items() for number in said
            if any(rule == c or rule.startswith(c + ".") for c in cited)}


def numbers(text: str) -> list[str]:
    """The numbers a line prints, rule IDs left out."""
    return NUMBER.findall(RULE_ID.sub(" ", text))


def _finding(spec: Spec, context: Context, index: int, booklet: Booklet, at: tuple[int, int], kit: str,
             wrong: list[str], cited: list[str], allowed: set[str]) -> Finding:
    path: tuple[Any, ...] = ("games", context.game_id, "components", index, "sections", at[0], "lines", at[1])
    where = spec.issue(path, "")
    said = ", ".join(sorted(allowed, key=_order)) or "no number"
    message = (f"{booklet.id}: a summary line prints {', '.join(wrong)}, which {', '.join(cited)} "
               f"{'does' if len(cited) == 1 else 'do'} not ({said})")
    fix = "take the number from the rule's own template or words ({rules[…]}, {params.…}), or cite the rule it comes from"
    return Finding("booklet", "warning", message, fix, where.file, where.line, where.col, where.path,
                   game=context.game_id, kit=kit, component=booklet.id)


def _order(number: str) -> tuple[float, str]:
    digits = number.replace(",", ".").replace("½", ".5")
    try:
        return float(digits or 0), number
    except ValueError:
        return 0.0, number
