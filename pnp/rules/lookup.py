"""`pnp rules`: a rule read from its ID, with the house rules it governs and their values.

The rules files say what a rule means; the spec and a record's `options` say which variant is
played. A rule quoted at the table is only useful with both, so `show` prints the rule's words
(`pnp.rules.text`) followed by every house rule that cites it (`RULEBOOK.options`) with the
value in effect: the engine's own reading of the spec, so a value set by a track shows the
track's number. The table companion quotes a broken rule the same way.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pnp.errors import UsageError
from pnp.rules import GAMES, text

if TYPE_CHECKING:
    from pnp.spec.model import Game, Spec


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


def run(args: argparse.Namespace) -> int:
    """`pnp rules show ID` (exit 2 for an unknown ID) and `pnp rules search WORDS` (exit 1
    when nothing matches)."""
    from pnp.rules import load_spec

    if args.game is not None and args.game not in text.games():
        raise UsageError(f'unknown game "{args.game}" (games with rules: {", ".join(text.games())})')
    if args.verb == "search":
        return _search(" ".join(args.words), args.game)
    found = find(args.id, args.game)
    spec = load_spec(args.spec) if any(r.game in GAMES for r in found) else None
    pointer = renamed(args.id, found)
    print("\n\n".join(([pointer] if pointer else []) + [describe(r, spec) for r in found]))
    return 0


def describe(rule: text.Rule, spec: Spec | None) -> str:
    """The rule as `pnp rules show` prints it: ID, game and section, the words, the house rules."""
    heading = f"{rule.id}  ({rule.game} · {rule.section})" if rule.section else f"{rule.id}  ({rule.game})"
    lines = [heading]
    if rule.kind == text.SECTION:
        lines += [f"  {r.id}  {_first_line(r.plain)}" for r in text.within(rule.id, rule.game) if r.id != rule.id]
    else:
        title = rule.title if not rule.title or rule.title[-1] in "?!." else rule.title + "."
        lines.append(rule.plain if not rule.title or rule.kind == text.RULE else f"{title} {rule.plain}")
    if spec is not None and rule.game in GAMES and rule.game in spec.games:
        options = governed(rule, house_rules(rule.game, spec.games[rule.game]))
        if options:
            lines.append("House rules in effect:")
            lines += [f"  {h.rule}  {h.line()}" if h.rule != rule.id else f"  {h.line()}" for h in options]
    return "\n".join(lines)


def _search(words: str, game: str | None) -> int:
    found = text.search(words, game)
    if not found:
        print(f'no rule mentions "{words}"', file=sys.stderr)
        return 1
    for r in found:
        print(f"{r.id:<14} {r.game:<10} {_first_line(r.plain)}")
    return 0


def _first_line(plain: str, width: int = 90) -> str:
    line = " ".join(plain.split())
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"
