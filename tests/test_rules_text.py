"""The packaged rules files, split by rule ID: every rule found, each text where it belongs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pnp.rules import GAMES, rulebooks, text

ROOT = Path(__file__).resolve().parents[1]


def test_every_registered_game_has_its_rules_file_in_the_package():
    assert set(GAMES) <= set(text.games())
    assert text.prefix("bolsa") == "BOLSA" and text.prefix("aktsioner") == "AKT" and text.prefix("forex") == "FOREX"


@pytest.mark.parametrize("game", list(GAMES))
def test_ids_are_unique_prefixed_and_in_file_order(game):
    found, prefix = text.rules(game), text.prefix(game)
    assert len({r.id for r in found}) == len(found)
    assert [r.line for r in found] == sorted(r.line for r in found)
    kinds = {r.kind for r in found}
    assert kinds == {text.RULE, text.EXAMPLE, text.AMBIGUITY, text.SECTION}
    assert all(r.id.startswith(prefix + "-") for r in found)  # ambiguities too: FOREX-A5, not A5
    assert sum(r.kind == text.RULE for r in found) >= 45


def test_no_two_games_share_a_prefix():
    prefixes = [text.prefix(game) for game in text.games()]
    assert len(set(prefixes)) == len(prefixes)


def test_a_sentence_that_starts_a_second_rule_splits_the_paragraph():
    round_token, auction_token = text.rule("BOLSA-1.4"), text.rule("BOLSA-1.5")
    assert round_token.title == "Round token" and "Auction-order" not in round_token.text
    assert auction_token.title == "Auction-order token" and auction_token.line == round_token.line


def test_list_items_examples_ambiguities_and_sections():
    one_buyer = text.rule("BOLSA-4.5.1")
    assert one_buyer.section.startswith("4 ") and "B − S" in one_buyer.text
    example = text.rule("BOLSA-X1")
    assert example.kind == text.EXAMPLE and example.title == "Setup (seed numbers)" and example.text.startswith("N = 6")
    ambiguity = text.rule("BOLSA-A2")
    assert ambiguity.kind == text.AMBIGUITY and ambiguity.title == "When is there an auction?"
    assert [r.id for r in text.within("BOLSA-3.2")] == [f"BOLSA-3.2.{n}" for n in range(1, 8)]


def test_tables_and_code_keep_their_lines_in_plain_text():
    companies = text.rule("BOLSA-1.1").plain.splitlines()
    assert sum(line.startswith("|") for line in companies) == 7  # header, its rule, five companies


def test_every_option_cites_a_rule_that_exists():
    for game, book in rulebooks().items():
        for option in book.options:
            for cited in option.rule.replace(",", " ").split():
                assert text.rule(cited, game).game == game, (game, option.name, cited)


# A string in the code that is a rule ID, of any game: BOLSA-4.6.1, AKT-7.5, FOREX-6.2, FOREX-A5 —
# and an old short ambiguity ID (A11), which no code may cite any more.
_ID = re.compile(r"[A-Z]+-(?:A|X)?\d+(?:\.\d+)*|A\d+")
_CODE = {game: [ROOT / "pnp" / "rules" / game, ROOT / "pnp" / "referee" / game, ROOT / "pnp" / "simulate" / "games" / game]
         for game in GAMES}


def _cited(game: str) -> dict[str, str]:
    """Every rule ID the game's engine, referee and simulator module can cite, with where it is
    written."""
    found = {}
    for place in _CODE[game]:
        for file in sorted(place.rglob("*.py")) if place.is_dir() else [p for p in [place.with_suffix(".py")] if p.exists()]:
            for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and _ID.fullmatch(node.value):
                    found.setdefault(node.value, f"{file.relative_to(ROOT)}:{node.lineno}")
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_id_the_code_can_cite_is_found_exactly_once_across_the_rules_files(game):
    """One ID, one rule: what the engine, the referee or the simulator can cite names a rule in
    one game's file alone (so `pnp rules show` prints one rule, and the referee's citation
    cannot be read as another game's)."""
    cited = _cited(game)
    found = {rule: [g for g in text.games() if rule in text.ids(g)] for rule in cited}
    assert {rule: games for rule, games in found.items() if games != [game]} == {}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_id_the_code_can_cite_is_in_the_rules_file_as_written(game):
    """Collected from the code, not from games played: a rule cited only on a rare path (a
    violation no random game reaches) is checked too. The conformance test checks the events
    of random games against the same files."""
    cited = _cited(game)
    assert len(cited) > 20  # the collection finds the engine's citations
    missing = {rule: where for rule, where in cited.items() if rule not in text.ids(game)}
    assert not missing, missing


def test_unknown_ids_get_the_nearest_ones():
    with pytest.raises(KeyError):
        text.rule("BOLSA-4.5.9")
    assert "BOLSA-4.5.1" in text.nearest("BOLSA-4.5.9")
    assert text.rule("bolsa-4.5.1").id == "BOLSA-4.5.1"


def test_search_needs_every_word_and_ignores_case_and_accents():
    hits = text.search("SUBASTAS orden")
    assert hits and all("subasta" in text._fold(r.text) and "orden" in text._fold(r.text) for r in hits)
    assert text.search("zzzz nothing") == []
