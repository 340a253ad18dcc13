"""The rules booklet: every rule ID of the game's rules file is printed, every number follows
components.yaml, and the pages are imposed so that folded sheets read 1, 2, 3 … in order."""

from __future__ import annotations

import io
import re
from functools import lru_cache

import pypdf
import pytest

from pdf_text import pdf_words
from pnp.components import art
from pnp.display import Drawing, Text, apply
from pnp.layout.booklet import fold_booklet, page_size
from pnp.layout.sheet import Furniture
from pnp.render.pdf import pdf_bytes
from pnp.rules.text import RULE, rules
from spec_text import BUNDLED, drawn, edit, spec_of

INFO = Furniture("Game", "Rules", "pnp test")


@lru_cache(maxsize=None)  # several tests read the same booklet: it is printed once
def booklet_pdf(game: str, spec_text: str | None = None, duplex: str = "long", code: str | None = None) -> bytes:
    """The booklet as printed: generated, imposed, rendered (the game's default kit, or the kit
    of language `code`)."""
    pages = (drawn(game, "rules_booklet", spec_text, code) if spec_text else drawn(game, "rules_booklet", code=code)).pages
    return pdf_bytes(fold_booklet(pages, "a4", 5, duplex, INFO).pages)


@lru_cache(maxsize=None)  # and read back once
def booklet_text(game: str, spec_text: str | None = None, duplex: str = "long", code: str | None = None) -> str:
    """The text of the booklet as printed, extracted from the PDF by PDFium (a tenth of a
    second where pypdf takes half a second); a table's cells come in PDFium's order."""
    return pdf_words(booklet_pdf(game, spec_text, duplex, code))


def booklet_rows(game: str, spec_text: str | None = None, code: str | None = None) -> str:
    """The text of the booklet as pypdf extracts it: a table row by row, left to right."""
    reader = pypdf.PdfReader(io.BytesIO(booklet_pdf(game, spec_text, "long", code)))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


# Акционер's booklet in the fast lane, every game's in the slow one (each booklet printed and read is seconds)
AKTSIONER_FAST = [pytest.param(g, marks=pytest.mark.slow) if g != "aktsioner" else g for g in ("bolsa", "aktsioner", "forex")]

@pytest.mark.parametrize("game", ["bolsa", "aktsioner", "forex"])
def test_every_rule_of_the_rules_file_is_printed_with_its_id(game):
    text = booklet_text(game)
    ids = [r.id for r in rules(game) if r.kind == RULE]
    assert len(ids) > 40
    missing = [i for i in ids if not re.search(re.escape(i) + r"(?![\d.]*\d)", text)]
    assert missing == []


def test_the_bolsa_booklet_follows_start_cash_rounds_and_the_track():
    before = booklet_text("bolsa", code="en")  # the English kit's words (the Spanish kit's below)
    assert "receives 50 in money" in before and "5 rounds" in before and "after round 5" in before
    spec = edit("start_cash: 50", "start_cash: 65")
    spec = edit("rounds: 5", "rounds: 7", spec)
    spec = edit("quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 29, start: 12}", spec)
    after = booklet_text("bolsa", spec, code="en")
    assert "receives 65 in money" in after and "7 rounds" in after and "after round 7" in after
    assert "cells 0 to 29" in after and "face up on cell 12" in after and "back +30" in after
    assert "receives 50 in money" not in after and "cells 0 to 19" not in after
    spanish = booklet_text("bolsa", spec)  # Bolsa's own kit: the same numbers in its words
    assert "recibe 65 en dinero" in spanish and "7 rondas" in spanish and "recibe 50" not in spanish


def test_the_forex_booklet_follows_a_dividend_and_the_start_money():
    spec = edit('data: {pays: 3}', 'data: {pays: 4}')
    spec = edit("start_money: 2", "start_money: 3", spec)
    before, after = booklet_text("forex"), booklet_text("forex", spec)
    assert "Pays per certificate 0 2 2 2 3" in before and "receives 2 bucks" in before
    assert "Pays per certificate 0 2 2 2 4" in after and "receives 3 bucks" in after


def test_the_aktsioner_deal_table_follows_the_formula():
    spec = edit("formula: 3+5", "formula: 4+6")
    text = booklet_rows("aktsioner", spec, code="en")  # the deal table read row by row
    assert "Deal each player 4 big and 6 small cards" in text
    # 20 big cards, 2 undealt: 4 players at most with 4 big cards each; 10 moves per player
    assert "4 4 6 4 8 40" in text and not re.search(r"\b5 4 6 ", text)


def _numbered(count: int) -> tuple[Drawing, ...]:
    w, h = page_size("a4", 5)
    return tuple(Drawing(w, h, (Text(w / 2, h / 2, f"page{n}", 10),)) for n in range(1, count + 1))


def _positions(folding) -> list[dict[str, str]]:
    """Per sheet side: which booklet page is above and which below the middle line, and which
    way its top faces (a page turned clockwise reads with its top to the right)."""
    out = []
    for page in folding.pages:
        found = {}
        for matrix, text in art.texts(page.items):
            if text.text.startswith("page"):
                _, y = apply(matrix, (text.x, text.y))
                facing = "right" if matrix[1] > 0 else "left"
                found["above" if y < page.height / 2 else "below"] = f"{text.text} top {facing}"
        out.append(found)
    return out


def test_folded_sheets_read_in_order():
    """Eight pages on two sheets: sheet 1 carries 8 and 1 on its front, 2 and 7 on its back;
    sheet 2 carries 6 and 3, then 4 and 5. The left page of a front spread is above the middle
    line; on a long-edge back the spread is turned the other way. Six pages pad to eight."""
    folding = fold_booklet(_numbered(8), "a4", 5, "long", INFO)
    assert folding.sheets == 2 and folding.book_pages == 8 and len(folding.pages) == 4
    padded = fold_booklet(_numbered(6), "a4", 5, "long", INFO)
    assert padded.book_pages == 8 and _positions(padded)[0] == {"below": "page1 top right"}
    assert _positions(folding) == [
        {"above": "page8 top right", "below": "page1 top right"}, {"above": "page7 top left", "below": "page2 top left"},
        {"above": "page6 top right", "below": "page3 top right"}, {"above": "page5 top left", "below": "page4 top left"},
    ]  # fmt: skip
    short = fold_booklet(_numbered(8), "a4", 5, "short", INFO)
    assert _positions(short)[1] == {"above": "page2 top right", "below": "page7 top right"}


def test_without_duplex_the_pages_go_two_to_a_side_in_reading_order():
    folding = fold_booklet(_numbered(5), "a4", 5, "none", INFO)
    assert folding.duplex == "none" and folding.sheets == 3 and len(folding.pages) == 3
    assert _positions(folding)[0] == {"above": "page1 top right", "below": "page2 top right"}


# --- the teaching rulebook (issue 28) --------------------------------------------------------------

GAMES = ("bolsa", "aktsioner", "forex")


def _option_words(game: str) -> set[str]:
    """The spec's option keys and every value of theirs written like a configuration key (with
    an underscore, an operator or a plus): none may be printed."""
    from pnp.rules import rulebook

    found = set()
    for option in rulebook(game).options:
        found.add(option.name)
        found |= {str(c) for c in option.choices or () if re.search(r"[_>=+]", str(c))}
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_option_key_is_printed_in_the_booklet(game):
    """Running text and the house-rules list name house rules in words: no key of the rulebook
    ("price_bounds", "tiebreak", "seed_formula", "excess_side_players>=2") appears anywhere —
    a key that is an everyday word ("rounds", "match") is looked for as configuration writes it:
    "(formula 3+5)", "tiebreak = shared"."""
    text = booklet_text(game)
    for word in _option_words(game):
        if re.search(r"[_>=+]", word):
            assert word not in text, word
        else:
            assert not re.search(rf"\b{re.escape(word)}\s*=|\({re.escape(word)}\b", text), word


def test_the_bolsa_house_rules_used_to_leak_their_keys():
    """The check above fails on the booklet as it was: its lines printed "(price_bounds clamp)"."""
    spec = edit("BOLSA-6.1 Q is a whole number from {params.price_min} to {params.price_max}: {house[price_bounds]}.",
                "BOLSA-6.1 Q stays within {params.price_min}–{params.price_max} (price_bounds {rules[price_bounds]}).")
    assert "price_bounds" in booklet_text("bolsa", spec)


@pytest.mark.parametrize("game", AKTSIONER_FAST)
def test_the_teaching_part_comes_first_with_at_least_three_worked_examples(game):
    """Goal, components, setup, the turn on one page and three or more worked examples come
    before the reference; every example names a worked example of the rules file."""
    from pnp.rules.text import EXAMPLE

    spec = spec_of()
    booklet = spec.games[game].component("rules_booklet")
    kinds = []
    for section in booklet.sections:
        kinds.append("components" if section.components else "setup" if section.setup else "one" if section.page == "one"
                     else "examples" if section.examples else "house" if section.house_rules else "lines")
    assert kinds.index("components") < kinds.index("setup") < kinds.index("one") < kinds.index("examples")
    first_reference = next(i for i, s in enumerate(booklet.sections) if any(RULE_ID_START.match(l) for l in s.lines))
    assert kinds.index("examples") < first_reference
    examples = [e.id for s in booklet.sections for e in s.examples]
    assert len(examples) >= 3 and set(examples) <= {r.id for r in rules(game) if r.kind == EXAMPLE}
    text = booklet_text(game, code="en")  # the English kit's words; every kit prints each example's ID
    assert all(f"Example {e}" in text for e in examples)


RULE_ID_START = re.compile(r"[A-Z]+-\d")


@pytest.mark.parametrize(("game", "old", "new", "before", "after"), [
    ("bolsa", "start_cash: 50", "start_cash: 65", "cash P1 50, P2 50, P3 50, P4 50", "cash P1 65, P2 65, P3 65, P4 65"),
    pytest.param("bolsa", "quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 29, start: 12}",
                 "SAN: 2 offered, none wanted: 10 → 8", "SAN: 2 offered, none wanted: 12 → 10", marks=pytest.mark.slow),
    ("aktsioner", "price: {from: 10, to: 250, step: 10, start: 100}", "price: {from: 10, to: 250, step: 10, start: 120}",
     "blue: 100 +100 = 200", "blue: 120 +100 = 220"),
    pytest.param("forex", "start_money: 2", "start_money: 4", "P1 holds 2 GBP, cannot pay 3", "P1 pays 3 GBP",
                 marks=pytest.mark.slow),
])
def test_the_worked_examples_numbers_follow_the_spec(game, old, new, before, after):
    """The engine plays the examples from the spec's own start: another starting cash, quote,
    price or money gives other numbers in the same examples (and a contract For-Ex's
    starting money now covers is paid instead of becoming a loan)."""
    text = booklet_text(game, code="en")  # the English kit's words
    changed = booklet_text(game, edit(old, new), code="en")
    assert before in text and before not in changed
    assert after in changed


@pytest.mark.parametrize("game", AKTSIONER_FAST)
def test_body_text_is_nine_points_or_more_measured_from_the_pdf(game):
    """Every character of the printed booklet (the sheets imposed and rendered) is 9 pt or
    larger, except inside the grey frames round the pictures of the real components, whose
    text is as small as the picture makes it."""
    import pdfplumber

    pdf = pdfplumber.open(io.BytesIO(booklet_pdf(game)))  # the one the text tests read
    small = checked = 0
    for page in pdf.pages:
        frames = [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects
                  if r.get("stroke") and abs(r["linewidth"] * 25.4 / 72 - 0.2) < 0.01
                  and tuple(round(c, 2) for c in r.get("stroking_color") or ()) == (0.7, 0.7, 0.7)]
        for char in page.chars:
            if not char["text"].strip():
                continue
            inside = any(x0 - 0.5 <= char["x0"] and char["x1"] <= x1 + 0.5 and y0 - 0.5 <= char["top"] and
                         char["bottom"] <= y1 + 0.5 for x0, y0, x1, y1 in frames)
            if inside:
                small += 1
                continue
            # pdfminer's `size` is the glyph box's height on the sheet; the booklet's pages lie turned
            # a quarter on it, so there the type size is the box's width
            size = char["size"] if char["upright"] else char["x1"] - char["x0"]
            if size < 6.6:  # the sheet's own header and footer (6.5 pt furniture)
                continue
            checked += 1
            assert size >= 9.0 - 1e-3, (game, char["text"], size)
    assert checked > 3000 and small > 0


def test_for_ex_dividends_have_one_numbering_on_cards_aid_and_booklet():
    """Card n is the n-th dividend resolved — the number the engine and the referee say
    ("dividend 1 pays 0") — and the aid's and the booklet's tables print the cards' numbers
    over what each card pays."""
    from pnp.components.tables import cards_table
    from pnp.rules import engine
    from pnp.spec.faces import deck_pieces

    spec = spec_of()
    game = spec.games["forex"]
    cards = [(p.front.value, p.data["pays"]) for p in deck_pieces(game, game.component("dividends"))]
    params = engine("forex").params(game)
    assert cards == [(str(n), pays) for n, pays in enumerate(params.dividends, 1)]
    for component in ("player_aid", "rules_booklet"):
        tables = [cards_table(game, s.cards, "") for s in game.component(component).sections if s.cards]
        assert tables and all(t.header[1:] == tuple(v for v, _ in cards) for t in tables)
        assert all(t.rows[0][1:] == tuple(str(p) for _, p in cards) for t in tables)
    assert "dividend 1 pays 0 per certificate" in booklet_text("forex")


def test_for_ex_contract_terms_are_on_the_cards_the_aid_and_the_booklet():
    """FOREX-7.4: the terms lie left (to pay) and right (to receive) of the display card — said
    on every contract card, in the aid and in the booklet."""
    from pnp.components.art import texts

    contract = drawn("forex", "contracts").pieces[0].front
    card = " ".join(t.text for _, t in texts(contract.items))
    aid = " ".join(t.text for d in drawn("forex", "player_aid").drawings for _, t in texts(d.items))
    for words in (card, aid, booklet_text("forex")):
        flat = " ".join(words.split())
        assert re.search(r"to pay to (the left of|its left)", flat) and re.search(r"to receive to its right", flat)


def test_every_booklet_problem_is_reported_at_once_each_at_its_line():
    """Issue 29: a broken template is told by the spec's own check, at its file:line:col; once
    the spec reads, an example the rules do not know and a house rule without words come out
    in one run of validate's layout, each at its own line."""
    from pnp.checks.layout import layout_issues
    from pnp.errors import SpecError
    from pnp.rules import loads_spec

    broken = ('"BOLSA-2.2 Each player receives **{rules[start_cash]}** in money."',
              '"BOLSA-2.2 Each player receives **{rules[start_money]}** in money."')
    spec = edit("- id: BOLSA-X2", "- id: BOLSA-X99")
    spec = edit("          tiebreak:\n            name: Ties at the end\n", "          tie_break:\n            name: Ties at the end\n", spec)
    with pytest.raises(SpecError) as error:
        loads_spec(edit(*broken, spec), layout=layout_issues)
    (issue,) = error.value.issues
    assert "start_money" in issue.message and issue.line == BUNDLED.count("\n", 0, BUNDLED.index(broken[0])) + 1
    with pytest.raises(SpecError) as error:  # validate's layout of the game edited (the others' is not in question)
        loads_spec(spec, layout=lambda tree, game: layout_issues(tree, game) if game == "bolsa" else ())
    issues = [i for i in error.value.issues if "rules_booklet" in i.message or "rules_words" in i.message
              or "BOLSA-X99" in i.message]
    texts = " | ".join(i.message for i in issues)
    assert "BOLSA-X99" in texts and "tiebreak" in texts
    assert len({i.line for i in issues}) >= 2 and all(i.line > 0 for i in issues)


@pytest.mark.parametrize("old, new", [
    pytest.param("tokens: tokens\n", "tokens: shares\n", id="tokens"),
    pytest.param("board: quote_board\n", "board: shares\n", id="board", marks=pytest.mark.slow),
])
def test_a_setup_drawing_naming_the_wrong_kind_is_a_located_error(tmp_path, capsys, old, new):
    """A setup drawing's `tokens` naming a deck (or its `board` naming one) was exit 3, an
    AttributeError: now one located error, exit 2, naming the component, like its `money`."""
    from pnp.cli import main
    from spec_text import write_spec

    spec = write_spec(tmp_path, edit(old, new))
    assert main(["validate", str(spec)]) == 2
    (error,) = capsys.readouterr().err.strip().splitlines()
    assert "games.bolsa.components[6].sections[2]" in error and error.endswith("'shares'"), error
