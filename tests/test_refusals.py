"""A refusal says its condition once, in the user's language, with its numbers (issues 41, 46).

- Every refusal of an action no template admits comes from a statement of the position's
  templates or listing (`Violation.origin`), never from a handler restating a bound: the
  handler modules make no refusal at all (checked in their source), and random positions are
  probed around every template's edges (`tests/test_legality.py` checks the origins there).
- A violation carries its rule and data, and `explain --lang es|ru` is worded entirely in that
  language: no Latin word is left but rule IDs, players' names, the game's codes, record paths
  and house-rule names and values.
- House rules are enums the spec checks, never compared as strings in the engines; end reasons
  are each game's `End`, listed by the registry.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from pnp.cli import main
from pnp.i18n import speaking
from pnp.referee import check, explain, language, read_record, reads_record, verdict
from pnp.rules import GAMES, end_reasons, rulebooks
from pnp.rules.base import Refusal

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "pnp" / "rules"
RECORDS = sorted((Path(__file__).parent / "records").rglob("*.yaml"))
REFUSED = [path for path in RECORDS if json.loads(path.with_name(path.stem + ".expect.json").read_text())["violation"]]
HANDLERS = {"bolsa": "rounds.py", "aktsioner": "turn.py", "forex": "turns.py"}  # where each engine applies actions


# --- one statement per condition --------------------------------------------------------------------


def refusal_names() -> set[str]:
    """The names of every kind of refusal the engines define."""
    import importlib

    names = set()
    for path in RULES.rglob("refusals.py"):
        module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
        names |= {name for name, value in vars(module).items() if isinstance(value, Refusal)}
    return names


@pytest.mark.parametrize("game", sorted(HANDLERS))
def test_no_handler_words_a_refusal(game):
    """The modules that apply actions make no refusal and raise no Violation — they import
    neither the game's refusals nor a violation: an action reaches them admitted by a template,
    and what refuses it is the template's own statement."""
    tree = ast.parse((RULES / game / HANDLERS[game]).read_text(encoding="utf-8"))
    imported = {(node.module, alias.name) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                for alias in node.names}
    assert (f"pnp.rules.{game}", "refusals") not in imported
    assert not {name for _, name in imported} & {"Violation", "Refusal", *refusal_names()}


@pytest.mark.parametrize("path", REFUSED, ids=lambda path: path.stem)
def test_a_recorded_refusal_is_the_statement_of_a_template_or_a_listing(path):
    """The violations the stored records meet are made by the statement they break: a
    template's bound or constraint, or the condition the position lists no template under —
    or, before the first action, the setup's own check of the seats or the start."""
    answer = check(read_record(path))
    assert answer.violation is not None
    origin = answer.violation.violation.origin
    assert origin in (("engine",) if answer.violation.at in ("players", "start", "deal") else ("template", "listing"))


def test_every_house_rule_is_an_enum_the_engines_never_compare_as_text():
    """A listed house rule's values are `Choice` members (the spec reads text into one), and no
    engine module compares a house rule with a string literal: a misspelt value would pass."""
    listed = {o.name for book in rulebooks().values() for o in book.options if o.choices is not None}
    for book in rulebooks().values():
        for option in book.options:
            if option.choices is not None and not isinstance(option.default, bool):
                assert all(type(value).__mro__[1].__name__ == "Choice" for value in option.choices), option.name
    compared = []
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                rules = [s for s in sides if isinstance(s, ast.Attribute) and s.attr in listed]
                texts = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
                if rules and texts:
                    compared.append(f"{path.name}:{node.lineno}")
    assert compared == []


def test_the_registry_lists_each_games_end_reasons():
    assert end_reasons("bolsa") == ("last_round",)
    assert end_reasons("aktsioner") == ("all_cards_played",)
    assert end_reasons("forex") == ("bankruptcy", "last_dividend")
    assert {game: GAMES[game].about.prefix for game in GAMES} == {"bolsa": "BOLSA", "aktsioner": "AKT", "forex": "FOREX"}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_registry_says_what_each_engine_offers(game):
    """`about.playout` and `about.deal` say what the engine has: callers read the registry,
    never probe the engine."""
    about, engine = GAMES[game].about, GAMES[game].engine
    assert (engine.playout is not None) == about.playout
    import random

    from pnp.rules import load_spec

    spec_game = load_spec(None).games[game]
    p = engine.params(spec_game)
    players = [f"P{k}" for k in range(1, spec_game.players.min + 1)]
    rng = random.Random(1)
    assert (engine.deal(p, players, rng) is not None) == about.deal
    assert (rng.random() != random.Random(1).random()) == about.deal  # a game with no deal draws nothing


# --- the referee speaks the user's language, with its numbers --------------------------------------------

LATIN = re.compile(r"[A-Za-z][A-Za-z_0-9]*")
RULE_ID = re.compile(r"\b[A-Z]+-[0-9A-Z]+(?:\.[0-9A-Z]+)*\b")
PATH_WORDS = {"rounds", "declare", "trade", "auctions", "withdraw", "pairing", "turns", "player", "play", "then",
              "spot", "contract", "invest", "divest", "resolve", "others", "start", "deal", "players"}


def codes(game: str, record_players: tuple[str, ...]) -> set[str]:
    """What may stay Latin in a translated answer: names, the game's asset codes, the house
    rules' names and values (as a record writes them), the words of record paths."""
    from pnp.rules import load_spec

    spec_game = load_spec(None).games[game]
    allowed = set(record_players) | {asset.id for asset in spec_game.assets} | PATH_WORDS
    for option in GAMES[game].rulebook.options:
        allowed |= set(LATIN.findall(option.name))
        allowed |= {word for value in (option.choices or (option.default,)) for word in LATIN.findall(str(value))}
    letters = {chr(c) for c in range(ord("A"), ord("Z") + 1)}  # contract sets, a pair's sides
    return allowed | letters | {"true", "false", "yaml"}


def worded(path: Path, code: str | None) -> list[str]:
    """`explain`'s lines and the verdict for a record, in `code` (None: English), but its first
    line, which states the spec file and its hash."""
    record = read_record(path)
    answer = check(record)
    with speaking(language(code, record.game) if code else None):
        return [*explain(answer)[1:], verdict(answer, path.name)]


def english(line: str, allowed: set[str]) -> list[str]:
    """The words of a line that are neither a rule ID nor a name or a code."""
    return [word for word in LATIN.findall(RULE_ID.sub(" ", line)) if word not in allowed]


@pytest.mark.parametrize("path", REFUSED + [RECORDS[0], RECORDS[-1]], ids=lambda path: path.stem)
def test_explain_in_russian_leaves_no_latin_word_but_ids_names_and_codes(path):
    """`pnp referee explain --lang ru`: every sentence, the violation's included, is the
    catalog's; what stays Latin is a rule ID, a name or a code."""
    record = read_record(path)
    allowed = codes(record.game, record.players) | set(LATIN.findall(path.stem))
    for line in worded(path, "ru"):
        assert english(line, allowed) == [], line


@pytest.mark.parametrize("path", REFUSED, ids=lambda path: path.stem)
def test_explain_in_spanish_words_every_sentence(path):
    """`--lang es`: every line with a word of English in it reads otherwise in Spanish."""
    record = read_record(path)
    allowed = codes(record.game, record.players) | set(LATIN.findall(path.stem))
    for en, es in zip(worded(path, None), worded(path, "es"), strict=True):
        if english(en, allowed):
            assert es != en


def test_explain_in_russian_names_the_violation_from_its_data():
    """The violation's numbers and rule are those of the English answer, worded in Russian."""
    path = next(p for p in REFUSED if p.stem == "x09_declaration_too_dear")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["referee", "explain", str(path), "--lang", "ru"]) == 1
    last = out.getvalue().strip().splitlines()[-1]
    assert "BOLSA-3.2.5" in last and "заказывает 2 IBE по 10 + 2 FER по 10 = 40" in last and "30" in last


def test_the_json_violation_carries_its_data():
    out = io.StringIO()
    path = next(p for p in REFUSED if p.stem == "x09_stage3_restriction_illegal")
    with contextlib.redirect_stdout(out):
        assert main(["referee", "check", str(path), "--json"]) == 1
    violation = json.loads(out.getvalue())["violation"]
    assert set(violation) == {"at", "line", "rule", "message", "data"}
    assert violation["data"] == {"player": "M", "colour": "red", "value": 2, "bound": 1, "bought": 2, "held": 3}


# --- FOREX-4.3: the supply after the removal -------------------------------------------------------------


@pytest.mark.parametrize("supply, held, refused", [(51, 0, True), (50, 0, False), (50, 2, True), (48, 2, False)])
def test_a_forex_start_beyond_the_supply_after_the_removal_is_refused(supply, held, refused):
    """56 certificates, 6 removed at setup (FOREX-4.3): at most 50 in the supply and in hand
    together, each currency's 8 never exceeded (FOREX-1.6)."""
    counts = {"GBP": 8 - held, "EUR": 8, "USD": 8, "CHF": 8, "JPY": 8, "CAD": 8}
    counts["CNY"] = supply - sum(counts.values())
    text = "game: forex\nplayers: [Ana, Ben]\nstart:\n  supply: {%s}\n" % ", ".join(f"{c}: {n}" for c, n in counts.items())
    if held:
        text += "  players:\n    Ana: {certificates: {GBP: %d}}\n" % held
    answer = check(reads_record(text))
    if refused:
        assert answer.violation is not None and (answer.violation.rule, answer.violation.at) == ("FOREX-4.3", "start")
        assert answer.violation.data == {"supply": supply, "held": held, "sum": supply + held, "removed": 6,
                                         "total": 56, "most": 50}
    else:
        assert answer.ok


def test_a_violation_crosses_processes_with_its_rule_data_and_sentence():
    """A simulation's worker may send a violation to the process that asked: it pickles with
    its sentence as worded then (its kind's words are code)."""
    import pickle

    from pnp.rules.bolsa import refusals

    violation = refusals.SEATS(low=3, high=6, count=2)
    violation.origin = "engine"
    again = pickle.loads(pickle.dumps(violation))
    assert (again.rule, dict(again.data), again.message, again.origin) == (
        "BOLSA-1.9", {"low": 3, "high": 6, "count": 2}, "the game is for 3–6 players, not 2", "engine")
