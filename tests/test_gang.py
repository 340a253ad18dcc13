"""Shared sheets: small components of one stock print together when that saves a sheet, each
piece with its own back behind it, and the print plan says which components share."""

from __future__ import annotations

import pytest

from pnp.components.art import texts
from pnp.layout.gang import Candidate, fill, gang, share_sheets
from pnp.layout.impose import impose
from pnp.layout.sheet import frame
from test_impose import INFO, deck


def candidates(*groups, stock="card stock"):
    return [Candidate(i, g, impose(g, "a4", 5, "long", INFO), stock) for i, g in enumerate(groups)]


@pytest.mark.parametrize("duplex, flip", [("long", "x"), ("short", "y")])
def test_small_components_share_one_sheet_with_every_back_behind_its_front(duplex, flip):
    tokens, markers = deck(21, 14, 14, 3), deck(6, 30, 16, 3)
    shared = gang([tokens, markers], "a4", 5, duplex, INFO)
    assert shared is not None and shared.sheets == 1 and len(shared.pages) == 2
    fronts = {p.piece: p.trim for p in shared.placed if p.side == "front"}
    backs = {p.piece: p.trim for p in shared.placed if p.side == "back"}
    assert sorted(fronts) == sorted(backs) == list(range(27))
    f = frame("a4", 5)
    for piece, t in fronts.items():
        b = backs[piece]
        if flip == "x":  # turned over the long edge: mirrored left to right, same height
            assert (b.x, b.y) == pytest.approx((f.width - t.right, t.y))
        else:
            assert (b.x, b.y) == pytest.approx((t.x, f.height - t.bottom))
        assert (b.w, b.h) == (t.w, t.h)
    boxes = list(fronts.values())
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert all(f.content.contains(b) for b in boxes)


def test_too_much_for_one_sheet_is_not_ganged():
    assert gang([deck(9), deck(9)], "a4", 5, "long", INFO) is None


def test_pieces_of_one_size_share_sheets_only_when_that_saves_one():
    big, small, more = deck(20), deck(32), deck(18)
    (together,) = share_sheets(candidates(big, small), "a4", 5, "long", lambda members: INFO)
    assert together.members == (0, 1) and together.layout.sheets == 6  # 52 cards: 6 sheets, not 3 + 4
    assert share_sheets(candidates(more, deck(5)), "a4", 5, "long", lambda members: INFO) == []  # 2 + 1 = 3 either way
    assert share_sheets(candidates(deck(5), deck(4), stock="paper")[:1] + candidates(deck(4))[1:], "a4", 5, "long",
                        lambda members: INFO) == []  # different stock: never


def test_the_print_plan_names_the_components_that_share_sheets():
    from spec_text import laid_out

    g = laid_out("forex")
    shared = [unit for unit in g.units if unit.shared]
    names = sorted(tuple(g.laid[i].component.id for i in unit.members) for unit in shared)
    # the pair counters go into the room the certificates' last sheet leaves, the loan markers
    # (turned a quarter, their backs the same as their fronts) beside the currency board's first part
    assert names == [("currency_board", "loan_markers"), ("dividends", "certificates", "pair_counters")]
    # three sheets saved: the dividends, the pair counters and the loan markers take none of their own
    assert sum(len(u.sheets.sheets) for u in g.units) == sum(item.layout.sheets for item in g.laid) - 3
    assert sorted(i for u in g.units for i in u.members) == list(range(len(g.laid)))  # every component once


def test_shared_sheets_keep_two_millimetres_of_bleed_when_they_can():
    shared = gang([deck(21, 14, 14, 3), deck(6, 30, 16, 3)], "a4", 5, "long", INFO)
    assert shared is not None and shared.grid.bleed >= 2.0


@pytest.mark.parametrize("duplex, flip", [("long", "x"), ("short", "y")])
def test_small_pieces_fill_the_room_a_longer_run_leaves_on_its_last_sheet(duplex, flip):
    """Twenty cards take three sheets, the last with two: four 12 mm tokens go beside the last
    card instead of on a sheet of their own, their backs behind them, nothing overlapping."""
    cards, tokens = deck(20), deck(4, 12, 12, 3)
    host = impose(cards, "a4", 5, duplex, INFO)
    joined = fill(host, 20, [tokens])
    assert joined is not None and joined.sheets == host.sheets == 3
    last = max(p.page for p in joined.placed if p.side == "front")
    fronts = {p.piece: p for p in joined.placed if p.side == "front"}
    backs = {p.piece: p for p in joined.placed if p.side == "back"}
    assert sorted(fronts) == sorted(backs) == list(range(24))
    assert {fronts[i].page for i in range(20, 24)} == {last} and {backs[i].page for i in range(20, 24)} == {last + 1}
    f = frame("a4", 5)
    for piece in range(20, 24):
        t, b = fronts[piece].trim, backs[piece].trim
        expected = (f.width - t.right, t.y) if flip == "x" else (t.x, f.height - t.bottom)
        assert (b.x, b.y) == pytest.approx(expected)
    on_last = [p.trim for p in joined.placed if p.page == last]
    assert not any(a.inset(-1.0).overlaps(b) for i, a in enumerate(on_last) for b in on_last[i + 1:])
    assert all(f.content.contains(t) for t in on_last)
    assert fill(impose(deck(18), "a4", 5, duplex, INFO), 18, [tokens]) is None  # two full sheets: no room


def test_akt_price_tokens_and_the_for_ex_aids_take_no_sheet_of_their_own():
    """Sheet counts of the bundled kit: Акционер's four price tokens print beside the last small
    card (7 sheets of card stock, not 8); For-Ex's six player aids print two to a sheet (3 sheets,
    not 6) at 8 pt or more."""
    from spec_text import laid_out

    akt = laid_out("aktsioner")
    assert sum(len(u.sheets.sheets) for u in akt.units if u.stock.startswith("card")) == 7
    assert any(u.ids == ("big_cards", "small_cards", "price_tokens") for u in akt.units)
    forex = laid_out("forex")
    aid = next(l for l in forex.laid if l.component.id == "player_aid")
    assert len(aid.layout.pages) == 3 and len(aid.layout.tiles) == 6
    body = {t.size for d in aid.output.drawings for _, t in texts(d.items)}
    assert min(body) >= 8.0
