"""`pnp rules show ID` and `pnp rules search WORDS`: the rules files in the package, by ID,
with the house rules each rule governs and their values in effect."""

from __future__ import annotations

import re

import pytest

from pnp.cli import main
from pnp.rules import load_spec, lookup, text
from pnp.spec.source import default_spec_path

SPEC = load_spec(None)
SPEC_TEXT = default_spec_path().read_text(encoding="utf-8")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["rules", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_show_prints_the_rule_as_players_read_it_with_its_house_rule_in_effect(capsys):
    """Issue 41: the rule in the English booklet's words, without the rules file's sources and
    design notes ([S: …], [D] …, r_i); `--notes` shows the rules file's own text."""
    code, out, _ = run(capsys, "show", "BOLSA-3.2.5")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("BOLSA-3.2.5  (bolsa · 3.2 Declaration phase")
    assert lines[1] == "Cash check when declaring: your requests at the current quotes may not cost more than your cash."
    assert lines[-2:] == ["House rules in effect:", "  declaration_cash_check = total (default; or none)"]
    code, out, _ = run(capsys, "show", "BOLSA-3.2.5", "--notes")
    assert code == 0 and "[S: “si tienen suficiente dinero disponible”]. [D] Option" in out.splitlines()[1]


@pytest.mark.parametrize("game", ["bolsa", "aktsioner", "forex"])
def test_no_rule_shows_a_design_note_without_notes(game):
    for rule in text.rules(game):
        shown = lookup.show(rule.id, game)
        assert not re.search(r"\[(S|D|SC|BGA|PnP|PA)\b|\br_i\b", shown), (rule.id, shown)


def test_the_lookup_returns_its_text_and_prints_nothing(capsys):
    shown, found = lookup.show("FOREX-10.2"), lookup.search("interest")
    assert capsys.readouterr() == ("", "")
    assert shown.startswith("FOREX-10.2  (forex · 10 Resolve)") and "loan_interest = 1 (default)" in shown
    assert [line.split()[0] for line in found] == ["FOREX-10.2"]


def test_search_matches_the_house_rules_a_rule_governs_with_accents_and_case_folded(capsys):
    """Issue 41: FOREX-10.2 is the loan-interest rule; its text says "+ 1 bucks", its house rule
    `loan_interest`: searching for interest finds it, however it is typed."""
    for words in (["interest"], ["INTERÉST"], ["loan", "interest"]):
        code, out, _ = run(capsys, "search", *words)
        assert code == 0 and out.split()[0] == "FOREX-10.2", (words, out)
    code, out, _ = run(capsys, "search", "may_withdraw")  # an option's value finds the rule it changes
    assert code == 0 and "BOLSA-5.7" in [line.split()[0] for line in out.splitlines()]


def test_a_section_without_rules_shows_its_table(capsys):
    """`pnp rules show BOLSA-8`, which the starter records point to, lists the house rules."""
    code, out, _ = run(capsys, "show", "BOLSA-8")
    assert code == 0 and "  | auction_losers | must_trade, may_withdraw | 5.7 |" in out.splitlines()


def test_show_is_case_blind_and_reads_values_from_the_spec(capsys, tmp_path):
    code, out, _ = run(capsys, "show", "bolsa-3.1")
    assert code == 0 and "rounds = 5 (default)" in out
    spec = tmp_path / "components.yaml"
    spec.write_text(SPEC_TEXT.replace("      rounds: 5\n", "      rounds: 3\n", 1), encoding="utf-8")
    code, out, _ = run(capsys, "show", "BOLSA-3.1", "--spec", str(spec))
    assert code == 0 and "rounds = 3 (default 5)" in out


def test_values_set_by_a_track_say_so(capsys):
    code, out, _ = run(capsys, "show", "AKT-1.2")
    assert code == 0
    assert "price_min = 10 (from tracks.price)" in out and "price_step = 10 (from tracks.price)" in out


def test_a_section_lists_its_rules_and_their_house_rules(capsys):
    code, out, _ = run(capsys, "show", "BOLSA-3.2")
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("  BOLSA-")]
    assert code == 0
    assert listed[:7] == [f"BOLSA-3.2.{n}" for n in range(1, 8)]
    assert listed[7:] == ["BOLSA-3.2.5", "BOLSA-3.2.6"]  # the house rules, with the rule each cites


def test_an_ambiguity_has_one_id_with_its_games_prefix(capsys):
    code, out, _ = run(capsys, "show", "BOLSA-A2")
    assert code == 0 and out.startswith("BOLSA-A2  (bolsa · 9 Ambiguities") and "auction_trigger" in out
    code, out, _ = run(capsys, "show", "forex-a5")
    assert code == 0 and out.startswith("FOREX-A5  (forex") and "any_one" in out


def test_an_old_short_id_still_finds_its_rules_with_a_pointer(capsys):
    """Before the prefix, `A2` named three rules of three games: it still finds them, and says
    what each is called now; with --game, that game's one."""
    code, out, _ = run(capsys, "show", "A2")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "A2 is now AKT-A2 (aktsioner), BOLSA-A2 (bolsa), FOREX-A2 (forex): each game's IDs carry its prefix"
    assert [line.split("  (")[0] for line in lines if line.endswith(")") and "-A2  (" in line] == ["AKT-A2", "BOLSA-A2", "FOREX-A2"]
    code, out, _ = run(capsys, "show", "a2", "--game", "bolsa")
    assert code == 0 and out.splitlines()[0] == "A2 is now BOLSA-A2 (bolsa): each game's IDs carry its prefix"
    assert out.count("BOLSA-A2  (") == 1 and "auction_trigger" in out


def test_an_unknown_id_exits_2_with_the_nearest_ids(capsys):
    code, out, err = run(capsys, "show", "BOLSA-3.2.9")
    assert code == 2 and out == ""
    assert err.strip() == 'unknown rule ID "BOLSA-3.2.9" (nearest: BOLSA-3.2.7, BOLSA-3.2.6, BOLSA-3.2.5, ' \
                          'BOLSA-3.2.4, BOLSA-3.2.3)'
    code, _, err = run(capsys, "show", "X", "--game", "chess")
    assert code == 2 and "unknown game" in err


def test_search_lists_rules_with_every_word_best_first(capsys):
    code, out, _ = run(capsys, "search", "auction", "token", "--game", "bolsa")
    ids = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and ids and all(i.startswith("BOLSA-") for i in ids)
    assert "BOLSA-1.5" in ids and len(ids) == len(set(ids))
    code, out, err = run(capsys, "search", "zzzqq")
    assert code == 1 and out == "" and "zzzqq" in err


@pytest.mark.parametrize("game", ["bolsa", "aktsioner", "forex"])
def test_every_house_rule_cites_a_rule_that_show_finds(game):
    for house in lookup.house_rules(game, SPEC.games[game]):
        (found,) = lookup.find(house.rule, game)
        assert house in lookup.governed(found, lookup.house_rules(game, SPEC.games[game]))


@pytest.mark.parametrize("step", [4, pytest.param(1, marks=pytest.mark.slow)], ids=["every-4th", "every"])
def test_every_old_short_id_still_finds_each_games_rule_with_a_pointer(capsys, step):
    """Every ambiguity was `A<n>` before the prefix: `pnp rules show A<n>` still finds it in
    each game that has one (and the pointer names those, no other), and with --game, that
    game's one alone. The fast lane asks for every fourth old ID, the slow lane every one."""
    from pnp.rules import text

    games = {g: {r.id for r in text.rules(g) if r.kind == text.AMBIGUITY} for g in text.games()}
    shorts = sorted({rule.split("-", 1)[1] for ids in games.values() for rule in ids}, key=lambda s: int(s[1:]))
    assert len(shorts) >= 15
    for short in shorts[::step]:
        holders = sorted(f"{text.prefix(g)}-{short}" for g, ids in games.items() if f"{text.prefix(g)}-{short}" in ids)
        code, out, _ = run(capsys, "show", short)
        first, *rest = out.splitlines()
        assert code == 0 and first.startswith(f"{short} is now "), short
        named = [part.split(" (")[0] for part in first.removeprefix(f"{short} is now ").split(":")[0].split(", ")]
        assert sorted(named) == holders, short
        assert sorted(line.split("  (")[0] for line in rest if line.split("  (")[0] in holders) == holders
        for game, ids in games.items():
            wanted = f"{text.prefix(game)}-{short}"
            if wanted in ids:
                code, out, _ = run(capsys, "show", short.lower(), "--game", game)
                assert code == 0 and out.splitlines()[0].startswith(f"{short} is now {wanted} ({game})")
                assert out.count(f"{wanted}  (") == 1


@pytest.mark.parametrize("game", ["bolsa", "aktsioner", "forex"])
def test_every_rule_the_booklet_prints_is_quoted_in_each_language_of_its_kits(game):
    from pnp.components.booklet import RULE_ID

    booklet = SPEC.games[game].component("rules_booklet")
    printed = {match for section in booklet.sections for line in section.lines if RULE_ID.match(line)
               for match in RULE_ID.findall(line)}  # the reference lines: a summary line cites rules, "(FOREX-8)"
    rounds = str(SPEC.games["bolsa"].rules.get("rounds", 5))
    for code in SPEC.games[game].kit_languages:
        words = lookup.worded(game, SPEC, code)
        assert printed - set(words) == set() and all(words[rule_id] for rule_id in printed), code
        assert "{" not in "".join(words.values())  # every template filled, `{house[...]}` included
        if game == "bolsa":
            assert rounds in words["BOLSA-3.1"]  # the spec's number, in every language


def test_show_in_a_language_quotes_its_booklet_and_refuses_one_the_game_is_not_printed_in(capsys):
    code, out, _ = run(capsys, "show", "BOLSA-3.1", "--lang", "ru")
    assert code == 0 and out.splitlines()[0] == "BOLSA-3.1  (bolsa · ru)" and "**" not in out
    code, _, err = run(capsys, "show", "BOLSA-3.1", "--lang", "de")
    assert code == 2 and "--lang de" in err
