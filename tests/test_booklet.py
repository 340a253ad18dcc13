"""The rules booklet: every rule ID of the game's rules file is printed, every number follows
components.yaml, and the pages are imposed so that folded sheets read 1, 2, 3 … in order."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from spec_text import drawn, edit

from pnp.components import art
from pnp.display import Drawing, Text, apply
from pnp.layout.booklet import fold_booklet, page_size
from pnp.layout.sheet import Furniture
from pnp.render.pdf import pdf_bytes
from pnp.rules.text import RULE, rules

INFO = Furniture("Game", "Rules", "pnp test")


def booklet_text(game: str, spec_text: str | None = None, duplex: str = "long", code: str | None = None) -> str:
    """The text of the booklet as printed: generated, imposed, rendered, extracted from the PDF
    (the game's default kit, or the kit of language `code`)."""
    pages = (drawn(game, "rules_booklet", spec_text, code) if spec_text else drawn(game, "rules_booklet", code=code)).pages
    folding = fold_booklet(pages, "a4", 5, duplex, INFO)
    reader = pypdf.PdfReader(io.BytesIO(pdf_bytes(folding.pages)))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


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
    text = booklet_text("aktsioner", spec, code="en")
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
