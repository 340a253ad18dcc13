"""Issue 28's smaller print defects, each measured: text contrast on the boards' tinted rows,
frames off the trim, the booklet's page named for the paper, fold-and-glue pieces on paper, and
decks told apart by their backs still getting them without a duplex printer."""

from __future__ import annotations

import pytest

from pnp.build import with_print
from pnp.components.art import contrast_ratio, text_box, walk
from pnp.display import Rect, Text
from pnp.sheets import Made, sheets_of
from spec_text import laid_out, spec_of

GAMES = ("bolsa", "aktsioner", "forex")


def _texts_on_fills(items):
    """Every text with the fill of the last filled rectangle drawn before it under its centre."""
    fills = []
    for matrix, item in walk(items):
        if isinstance(item, Rect) and item.style.fill and matrix[1] == 0 and matrix[2] == 0:
            x, y = matrix[0] * item.x + matrix[4], matrix[3] * item.y + matrix[5]
            fills.append((x, y, x + matrix[0] * item.w, y + matrix[3] * item.h, item.style.fill))
        elif isinstance(item, Text) and item.text.strip():
            x0, y0, x1, y1 = text_box(matrix, item)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            under = next((f for *box, f in reversed(fills) if box[0] <= cx <= box[2] and box[1] <= cy <= box[3]),
                         "#ffffff")
            yield item, under


@pytest.mark.parametrize("game", GAMES)
def test_small_text_on_the_boards_keeps_aa_contrast(game):
    """Every text under 14 pt on a board (row names on their tint, numbers, marks) is at least
    4.5:1 against what it is printed on: "Inditex" on Bolsa's grey row was 4.41:1."""
    checked = 0
    for laid in laid_out(game).laid:
        if laid.component.kind != "board":
            continue
        for text, fill in _texts_on_fills(laid.output.drawings[0].items):
            if text.size < 14 and not text.outline:
                assert contrast_ratio(text.color, fill) >= 4.5, (game, text.text, text.color, fill)
                checked += 1
    assert checked > 10  # Акционер's 16 mm cells set their prices at 14 pt and more: 12 texts are smaller


@pytest.mark.parametrize("game", GAMES)
def test_frames_of_boards_and_mats_sit_inside_the_trim(game):
    """A board's or a mat's frame is at least 1.5 mm inside its cut, so a cut that strays by a
    millimetre neither cuts it nor leaves it on the edge."""
    found = 0
    for laid in laid_out(game).laid:
        if laid.component.kind not in ("board", "mat"):
            continue
        drawing = laid.output.drawings[0]
        frame = next(i for i in drawing.items if isinstance(i, Rect) and i.style.stroke and not i.style.fill)
        edge = frame.style.width / 2
        assert frame.x - edge >= 1.5 and frame.y - edge >= 1.5
        assert drawing.width - (frame.x + frame.w + edge) >= 1.5 and drawing.height - (frame.y + frame.h + edge) >= 1.5
        found += 1
    assert found >= 1


@pytest.mark.parametrize(("paper", "name"), [("a4", "A5"), ("letter", "half-letter")])
def test_the_booklet_is_named_for_its_paper(paper, name):
    spec = with_print(spec_of(), paper=paper)
    laid = next(l for l in laid_out("bolsa", paper=paper).laid if l.component.kind == "booklet")
    contents = sheets_of(laid, spec.games["bolsa"]).contents
    assert contents.endswith(f", {name}") and ("A5" in contents) == (paper == "a4")


def test_without_duplex_decks_told_apart_by_their_backs_fold_on_paper():
    """`--duplex none`: Акционер's big and small cards (one size, two backs, AKT-1.9) are
    folded over with their backs, on paper; Bolsa's one deck needs no back and keeps card stock."""
    spec = with_print(spec_of(), duplex="none")
    for game, deck, folded in (("aktsioner", "big_cards", True), ("aktsioner", "small_cards", True),
                               ("bolsa", "shares", False)):
        laid = next(l for l in laid_out(game, duplex="none").laid if l.component.id == deck)
        sheets = sheets_of(laid, spec.games[game])
        made = Made(game, laid.component, "", laid.digest, laid.digest, sheets, None, laid, ())
        assert (sheets.duplex == "fold") == folded, deck
        assert made.stock == ("paper" if folded else "card stock"), deck
        backs = [p for p in laid.layout.placed if p.side == "back"]
        assert (len(backs) == len(laid.output.pieces)) == folded


def test_the_print_plan_says_where_the_paper_gives_less_bleed_than_asked():
    """`print.bleed_mm` is given exactly where the paper has room; the instructions name every
    component that gets less, with the millimetres it gets, and no other: between pieces only
    when every sheet's edges have it all, at the edges too when the paper leaves less there."""
    from pnp.layout.instructions import Job, bleed_note

    def job(name, bleed):
        return Job(name, (3, 4), 1, "", "one-sided", "card stock", bleed=bleed)

    jobs = [job("Cards", (3.0, 1.25)), job("Tokens", (3.0, 3.0)), job("Bills", (3.0, 2.4)), job("Board", None)]
    note = bleed_note(jobs, 3.0)
    assert "Cards 1.25 mm" in note and "Bills 2.4 mm" in note and "sheet's edges has 3 mm" in note
    assert "Tokens" not in note and "Board" not in note
    edges = bleed_note([job("Cards", (0.9, 0.9)), job("Tokens", (3.0, 3.0))], 3.0)
    assert "Cards 0.9 mm at the sheet's edges, 0.9 mm between pieces" in edges and "Tokens" not in edges
    assert "3 mm" in bleed_note([job("Tokens", (3.0, 3.0))], 3.0) and "Tokens" not in bleed_note([job("Tokens", (3.0, 3.0))], 3.0)
    assert bleed_note([job("Board", None)], 3.0) == "" and bleed_note(jobs, 0.0) == ""


def test_shared_and_lone_sheets_get_the_asked_bleed_where_there_is_room():
    """Seven tokens, or 21 pair counters and 6 loan markers on a sheet of their own, fill a
    fraction of it: all of `print.bleed_mm` on every cut; 18 contract cards at nine a sheet get
    it at the sheet's edges and what nine allow between them."""
    from pnp.layout.gang import gang
    from spec_text import drawn

    info = laid_out("forex").laid[0].info
    shared = gang([drawn("forex", "pair_counters"), drawn("forex", "loan_markers")], "a4", 5, "long", info)
    assert shared is not None and shared.bleed == (3.0, 3.0)
    units = {u.name: u.sheets.bleed for u in laid_out("forex").units}
    assert units["Contract cards"] == (3.0, 1.25)
    tokens = next(l for l in laid_out("bolsa").laid if l.component.id == "tokens")
    assert tokens.layout.bleed == (3.0, 3.0)
