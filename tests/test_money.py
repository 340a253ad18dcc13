"""Money from the spec: counts and totals, sizes, the value in all four corners, a colour and
numeral size per denomination, guilloche, currency identity, backs, and spec changes."""

from __future__ import annotations

from collections import Counter

import pytest

from pnp.components import Context, art, generate
from pnp.display import Group, Line, Polygon, Rect
from pnp.i18n import speaking
from spec_text import drawn, edit, kit_of, spec_of
from test_art import required_contrast, text_boxes, text_grounds

MONIES = [("bolsa", "money"), ("forex", "money")]


def distinct(pieces):
    """Each denomination's (front, back) once, in order."""
    seen = {}
    for piece in pieces.pieces:
        seen.setdefault(id(piece.front), piece)
    return list(seen.values())


def labels_of(face):
    return [t.text for t, _ in text_boxes(face.items)]


def largest_text(piece):
    return max((t for t, _ in text_boxes(piece.front.items)), key=lambda t: t.size)


def value_of(label: str) -> float:
    return 0.5 if label == "½" else float(label)


def test_bolsa_has_110_bills_worth_1000_at_the_spec_size():
    pieces = drawn("bolsa", "money")
    bleed = spec_of().print.bleed_mm
    assert len(pieces.pieces) == 110
    assert (pieces.width, pieces.height, pieces.bleed, pieces.cut) == (80, 42, bleed, "rect")
    large = [max(text_boxes(p.front.items), key=lambda tb: tb[0].size)[0].text for p in pieces.pieces]
    assert sum(value_of(label) for label in large) == 1000
    assert Counter(large) == {"1": 50, "5": 28, "10": 16, "25": 10, "50": 4, "100": 2}


def test_forex_has_38_bills_per_currency_with_half_notes():
    pieces = drawn("forex", "money")
    game = spec_of().games["forex"]
    assert len(pieces.pieces) == 7 * 38
    assert (pieces.width, pieces.height) == (63, 34)
    for index, currency in enumerate(game.assets):
        block = pieces.pieces[index * 38 : (index + 1) * 38]
        assert all(currency.id in labels_of(p.front) and currency.id in " ".join(labels_of(p.back)) for p in block)
        large = [max(text_boxes(p.front.items), key=lambda tb: tb[0].size)[0].text for p in block]
        assert sum(value_of(label) for label in large) == 102  # FOREX-1.7
        assert large.count("½") == 8


@pytest.mark.parametrize("game_id, money_id", MONIES)
def test_the_value_sits_in_all_four_corners(game_id, money_id):
    pieces = drawn(game_id, "money")
    w, h = pieces.width, pieces.height
    for piece in distinct(pieces):
        label = max(text_boxes(piece.front.items), key=lambda tb: tb[0].size)[0].text
        boxes = [box for t, box in text_boxes(piece.front.items) if t.text == label]
        corners = {(box[0] + box[2] < w, box[1] + box[3] < h) for box in boxes if abs(box[0] + box[2] - w) > w / 3}
        assert corners == {(True, True), (True, False), (False, True), (False, False)}, label


@pytest.mark.parametrize("game_id, money_id", MONIES)
def test_each_denomination_has_its_line_work_and_a_larger_numeral_than_the_one_below(game_id, money_id):
    game = spec_of().games[game_id]
    bills = game.component("money").bills
    pieces = distinct(drawn(game_id, "money"))[: len(bills)]
    strokes = [Counter(i.style.stroke for _, i in art.walk(p.front.items) if isinstance(i, Polygon)) for p in pieces]
    lines = [frozenset(tuple(i.points[:3]) for _, i in art.walk(p.front.items) if isinstance(i, Polygon)) for p in pieces]
    assert len(set(lines)) == len(bills)  # the guilloche line-work differs per denomination
    assert all(sum(s.values()) >= 10 for s in strokes)  # line-work, not a flat fill
    if game.asset_key != "currencies":  # one money: each denomination also has its colour
        assert len({s.most_common(1)[0][0] for s in strokes}) == len(bills)
        for piece, bill in zip(pieces, bills, strict=True):
            assert any(isinstance(i, Rect) and i.style.stroke == bill.color for _, i in art.walk(piece.front.items))
    numerals = sorted((value_of(t.text), t.size) for t in map(largest_text, pieces))
    sizes = [size for _, size in numerals]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    assert min(sizes) >= 14


def test_a_currency_rules_its_bills_and_no_bill_wears_another_currencys_colour():
    """A green GBP 2 would read as USD: every colour on a For-Ex bill is its currency's, a tint
    of it, or neutral ink — never a denomination colour, never another currency's."""
    game = spec_of().games["forex"]
    own_tints = lambda colour: {art.tint(colour, k / 100) for k in range(0, 101)}  # noqa: E731
    denominations = {bill.color for bill in game.component("money").bills}
    for piece in distinct(drawn("forex", "money")):
        asset = next(a for a in game.assets if any(t.text == a.id for t, _ in text_boxes(piece.front.items)))
        colours = {c for _, i in art.walk(piece.front.items) for c in (getattr(i, "style", None) and (i.style.fill, i.style.stroke) or ())
                   if c is not None} | {t.color for t, _ in text_boxes(piece.front.items)}
        neutral = {c for c in colours if c[1:3] == c[3:5] == c[5:7]}  # black, white and greys
        allowed = own_tints(asset.color) | neutral
        assert colours <= allowed, (asset.id, colours - allowed)
        assert not (colours - {asset.color}) & (denominations | {a.color for a in game.assets if a is not asset})


@pytest.mark.parametrize("game_id, money_id", MONIES)
def test_bill_text_is_inside_the_margin_legible_and_contrasted(game_id, money_id):
    pieces = drawn(game_id, "money")
    safe = min(spec_of().print.safe_mm, 0.1 * pieces.height)
    for piece in distinct(pieces):
        for face in (piece.front, piece.back):
            for text, (x0, y0, x1, y1), ground in text_grounds(face.items):
                assert text.size >= 6
                assert x0 >= safe - 1e-6 and y0 >= safe - 1e-6
                assert x1 <= face.width - safe + 1e-6 and y1 <= face.height - safe + 1e-6
                assert art.contrast_ratio(text.color, ground) >= required_contrast(text), (text.text, ground)


@pytest.mark.parametrize("game_id, money_id", MONIES)
def test_backs_carry_the_game_title_and_the_value(game_id, money_id):
    game = kit_of(game_id).game  # the title as the default kit prints it
    for piece in distinct(drawn(game_id, "money")):
        label = max(text_boxes(piece.front.items), key=lambda tb: tb[0].size)[0].text
        back = labels_of(piece.back)
        assert game.title in back and label in back


def test_currencies_carry_their_pattern_on_the_edges():
    pieces = drawn("forex", "money")
    gbp, eur = pieces.pieces[0], pieces.pieces[38]  # hstripes, vstripes
    def stripes(face):
        return [i for _, i in art.walk(face.items) if isinstance(i, Line) and i.style.width == 0.35]

    assert stripes(gbp.front) and all(abs(i.y1 - i.y2) < 1e-9 for i in stripes(gbp.front))
    assert stripes(eur.front) and all(abs(i.x1 - i.x2) < 1e-9 for i in stripes(eur.front))
    assert not stripes(drawn("bolsa", "money").pieces[0].front)  # one money, no currency edges


def test_guilloche_is_reproducible_between_builds_and_the_same_in_every_language():
    spec = spec_of()
    made = kit_of("bolsa")
    with speaking(made.language):
        again = generate(Context("bolsa", made.game, spec.print, spec.folder, made), made.game.component("money"))
    assert again.pieces[0].front == drawn("bolsa", "money").pieces[0].front
    ground = next(i for i in again.pieces[0].front.items if isinstance(i, Group))  # the guilloche of the 1 bill
    box = (ground.clip.x, ground.clip.y, ground.clip.w, ground.clip.h)
    afresh = art.guilloche.__wrapped__(*box, ground.items[0].style.stroke, "bolsa//1")  # past the process's cache
    assert afresh == ground
    for code in ("en", "ru"):  # seeded by the game's id, not its title: every kit's bills alike
        other = next(i for i in drawn("bolsa", "money", code=code).pieces[0].front.items if isinstance(i, Group))
        assert other == ground


def test_a_new_denomination_and_other_counts_flow_through():
    hundred = '          - {value: 100, count: 2,  color: "#d55e00"}\n'
    text = edit(hundred, hundred + '          - {value: 500, count: 3,  color: "#0072b2"}\n')
    pieces = drawn("bolsa", "money", text)
    assert len(pieces.pieces) == 113
    assert "500" in labels_of(pieces.pieces[-1].front)
    largest = max((t for t, _ in text_boxes(pieces.pieces[-1].front.items)), key=lambda t: t.size)
    biggest_before = max((t for t, _ in text_boxes(pieces.pieces[-4].front.items)), key=lambda t: t.size)
    assert largest.text == "500" and largest.size > biggest_before.size
