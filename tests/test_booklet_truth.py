"""A booklet cannot contradict its rules (issue 39): every number a worked example prints, in
every kit, is the engine's; each example states the start it plays from; summary lines print
only the numbers of the rules they cite (`pnp.components.consistency`); and no markup, config
key or English program word reaches a printed page of another language.

Pages are read as drawn (the display list every backend prints), page footers aside. The fast
lane reads For-Ex's Spanish kit (queue words, an "8"-space example with a start); every kit of
every game is slow.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest
import yaml

from pnp.components.art import texts
from pnp.components.consistency import booklet_findings
from pnp.i18n import speaking
from pnp.referee import game_params, reads_record
from pnp.referee.replay import replay
from pnp.rules.text import rule
from spec_text import drawn, edit, kit_of, spec_of, write_spec

GAMES = ("bolsa", "aktsioner", "forex")
KITS = [pytest.param(game, code, marks=() if (game, code) == ("forex", "es") else pytest.mark.slow, id=f"{game}-{code}")
        for game in GAMES for code in ("en", "es", "ru")]
RULE_ID = re.compile(r"\b[A-Z]{2,}-X?\d+(?:\.\d+)*")
DIGITS = re.compile(r"\d+|½")  # digit runs: 4.5 and 4,5 say the same numbers
MARKUP = re.compile(r"[`*_{}|#\[\]]")  # Markdown, templates, config keys: never on a page


@lru_cache(maxsize=None)
def page_texts(game: str, code: str) -> tuple[str, ...]:
    """The text of each booklet page of the kit, as drawn, its footer ("For-Ex · 5") left out."""
    title = kit_of(game, code=code).game.title
    pages = []
    for number, page in enumerate(drawn(game, "rules_booklet", code=code).pages, 1):
        words = " ".join(t.text for _, t in texts(page.items))
        pages.append(" ".join(words.replace(f"{title} · {number}", " ").split()))
    return tuple(pages)


def examples(game: str, code: str) -> list[tuple[str, str, list[str]]]:
    """Each worked example of the kit's booklet: its heading, the text printed after it up to
    the next heading, and the digits of the engine's own account of it (its events, worded in
    English from their data, as `pnp referee explain` says them)."""
    made = kit_of(game, code=code)
    booklet = next(c for c in made.game.components if c.kind == "booklet")
    text = " ".join(page_texts(game, code))
    headings = []
    with speaking(made.language):
        for section in booklet.sections:
            headings += [made.language.gettext("Example {id} — {title}").format(
                id=e.id, title=made.language.gettext(rule(e.id, game).title)) for e in section.examples]
    next_section = booklet.sections[next(i for i, s in enumerate(booklet.sections) if s.examples) + 1]
    ends = [*headings[1:], next_section.heading]
    found = []
    for example, heading, end in zip([e for s in booklet.sections for e in s.examples], headings, ends, strict=True):
        start = text.index(heading) + len(heading)
        printed = text[start:text.index(end, start)]
        record = reads_record(yaml.safe_dump({"game": game, **example.record}, allow_unicode=True), example.id)
        answer = replay(record, game_params(spec_of().games[game], record))
        said = [event.text for _, event in answer.events if event.rule not in example.quiet]
        found.append((heading, printed, DIGITS.findall(RULE_ID.sub(" ", " ".join(said)))))
    return found


@pytest.mark.parametrize(("game", "code"), KITS)
def test_every_number_of_every_worked_example_is_the_engines(game, code):
    """Each example prints exactly the numbers the engine's events of its record hold (in any
    order: a language may word them in its own), its starting position among them."""
    for heading, printed, engines in examples(game, code):
        assert sorted(DIGITS.findall(RULE_ID.sub(" ", printed))) == sorted(engines), heading


def test_worked_examples_state_the_start_they_play_from():
    """Акционер's X9: M buys 2 red for 200 and has cash 100 left, which a reader checks from the
    start printed above it (M's cash 300, the spec's start_cash being 0); For-Ex X11: the pair
    on the "8" space and each player's certificates."""
    akt = next(printed for heading, printed, _ in examples("aktsioner", "en") if "AKT-X9" in heading)
    assert "M: cash 300, shares blue 0, red 1, yellow 0, green 0" in akt and "M buys 2 red at 100 = 200: cash 100" in akt
    forex = next(printed for heading, printed, _ in examples("forex", "en") if "FOREX-X11" in heading)
    assert "except GBP>CNY 10" in forex and "P2: 2 bucks of every currency; certificates CNY 3" in forex


@pytest.mark.parametrize(("game", "code"), KITS)
def test_no_markup_reaches_a_printed_page(game, code):
    """No backtick, asterisk, brace, underscore or other markup on any page: the For-Ex
    booklets printed "`pays` data"."""
    for number, text in enumerate(page_texts(game, code), 1):
        assert not MARKUP.search(text), (number, MARKUP.findall(text), text[:200])


@pytest.mark.parametrize("code", ["es", pytest.param("ru", marks=pytest.mark.slow)])
def test_for_ex_queue_words_are_in_the_kits_language(code):
    """The examples' queues ("dividend 1, contract A P1, loan A P1") are worded in the kit's
    language, like every other event."""
    text = " ".join(page_texts("forex", code))
    assert "FOREX-X5" in text and not re.search(r"\b(?:dividend|contract|loan|queue)\b", text)


def test_for_ex_turn_summary_says_the_loan_of_forex_10_2():
    """FOREX-10.2: a defaulting owner owes the pay amount + 1; the turn at a glance said "what
    he could not pay + 1"."""
    text = " ".join(page_texts("forex", "en"))
    assert "owes a Loan of the whole amount to pay + 1" in text and "could not pay" not in text


INVEST = "of different currencies for **{rules[certificate_price]}** bucks of each"


def test_a_summary_line_with_a_wrong_number_is_one_finding_at_its_line():
    """"for **3** bucks" where FOREX-8.1 says 2: one finding, at that line, naming the rule and
    the numbers it prints; the bundled booklets give none."""
    assert booklet_findings(spec_of(), "forex") == []
    wrong = edit(INVEST, "of different currencies for **3** bucks of each")
    (finding,) = booklet_findings(spec_of(wrong), "forex")
    line = next(n for n, text in enumerate(wrong.splitlines(), 1) if "for **3** bucks of each" in text)
    assert (finding.check, finding.file, finding.line, finding.component) == ("booklet", "components.yaml", line,
                                                                              "rules_booklet")
    assert "prints 3, which FOREX-8 does not (1, 2, 4)" in finding.message


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_no_summary_line_of_the_bundled_booklets_contradicts_its_rules(game):
    assert booklet_findings(spec_of(), game) == []


def test_validate_prints_the_summary_finding_once(tmp_path, capsys):
    from in_process import pnp_here

    write_spec(tmp_path, edit(INVEST, "of different currencies for **3** bucks of each"))
    ran = pnp_here(capsys, "validate", cwd=tmp_path)
    said = [line for line in ran.stderr.splitlines() if "FOREX-8 does not" in line]
    assert ran.returncode == 0 and len(said) == 1 and said[0].startswith("components.yaml:")
