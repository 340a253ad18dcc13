"""Tokens from the spec: counts, sizes and cut shapes, text inside the cut at legible sizes,
contrast, the quote token's back following the track, pair counters naming their pair on
both faces, and plain backs for tokens the spec gives none."""

from __future__ import annotations

import math

import pytest

from pnp.components import art
from pnp.display import Line, Rect
from pnp.spec.faces import token_pieces
from spec_text import drawn, edit, kit_of, laid_out, spec_of
from test_art import required_contrast, shapes_of, text_boxes, text_grounds

TOKENS = [("bolsa", "tokens"), ("aktsioner", "price_tokens"), ("forex", "pair_counters"), ("forex", "loan_markers")]


def sides(pieces):
    return [face for piece in pieces.pieces for face in (piece.front, piece.back) if face is not None]


def texts_of(face) -> list[str]:
    return [t.text for t, _ in text_boxes(face.items)]


@pytest.mark.parametrize("game_id, tokens_id, count, size, cut", [
    ("bolsa", "tokens", 7, (15, 15), "octagon"),
    ("aktsioner", "price_tokens", 4, (12, 12), "circle"),
    ("forex", "pair_counters", 21, (14, 14), "rect"),
    ("forex", "loan_markers", 6, (30, 16), "rounded"),
])  # fmt: skip
def test_counts_sizes_and_cut_shapes(game_id, tokens_id, count, size, cut):
    pieces = drawn(game_id, tokens_id)
    bleed = spec_of().print.bleed_mm
    assert len(pieces.pieces) == count
    assert (pieces.width, pieces.height, pieces.bleed, pieces.cut) == (*size, bleed, cut)
    assert all((f.width, f.height, f.bleed) == (*size, bleed) for f in sides(pieces))


@pytest.mark.parametrize("game_id, tokens_id", TOKENS)
def test_text_stays_inside_the_cut_at_six_points_or_more(game_id, tokens_id):
    pieces = drawn(game_id, tokens_id)
    w, h = pieces.width, pieces.height
    for face in sides(pieces):
        for text, (x0, y0, x1, y1) in text_boxes(face.items):
            assert text.size >= 6, text
            if pieces.cut == "circle":  # every corner of the text's box inside the circle, with air
                reach = max(math.hypot(x - w / 2, y - h / 2) for x in (x0, x1) for y in (y0, y1))
                assert reach <= min(w, h) / 2 - 0.5, (text.text, reach)
            else:
                assert x0 >= 1.0 and y0 >= 1.0 and x1 <= w - 1.0 and y1 <= h - 1.0, (text.text, (x0, y0, x1, y1))


@pytest.mark.parametrize("game_id, tokens_id", TOKENS)
def test_the_value_is_the_largest_text_and_legible(game_id, tokens_id):
    game = kit_of(game_id).game  # the values as the default kit prints them (Bolsa's auction token: S, Subasta)
    for piece, art_piece in zip(token_pieces(game, game.component(tokens_id)), drawn(game_id, tokens_id).pieces, strict=True):
        for side, face in ((piece.front, art_piece.front), (piece.back, art_piece.back)):
            if side is None:
                continue
            largest = max((t for t, _ in text_boxes(face.items)), key=lambda t: t.size)
            assert largest.text == side.value and largest.size >= 12, (side.value, largest.size)


@pytest.mark.parametrize("game_id, tokens_id", TOKENS)
def test_token_text_contrasts_with_its_fill(game_id, tokens_id):
    for face in sides(drawn(game_id, tokens_id)):
        for text, _, ground in text_grounds(face.items):
            assert art.contrast_ratio(text.color, ground) >= required_contrast(text), (text.text, ground)


def test_quote_tokens_show_the_company_and_flip_to_plus_twenty():
    pieces = drawn("bolsa", "tokens")
    for piece, (code, colour) in zip(pieces.pieces, (("IBE", "#009e73"), ("SAN", "#d55e00"), ("TEF", "#0072b2")), strict=False):
        assert code in texts_of(piece.front) and "+20" in texts_of(piece.back) and code in texts_of(piece.back)
        fill = next(i for _, i in art.walk(piece.front.items) if isinstance(i, Rect))
        assert fill.style.fill == colour and fill.x == -pieces.bleed  # colour to the bleed
    assert "R" in texts_of(pieces.pieces[5].front) and "S" in texts_of(pieces.pieces[6].front)


def test_a_longer_quote_track_changes_the_token_back_with_no_code_change():
    text = edit("quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 29, start: 10}")
    pieces = drawn("bolsa", "tokens", text)
    assert all("+30" in texts_of(p.back) for p in pieces.pieces[:5])
    sixth = '      - {id: REP, name: Repsol,     name_en: Repsol,     color: "#cc79a7", symbol: star}\n'
    pieces = drawn("bolsa", "tokens", edit("    tracks:\n      round:", sixth + "\n    tracks:\n      round:"))
    assert len(pieces.pieces) == 8 and "REP" in texts_of(pieces.pieces[5].front)


def test_pair_counters_name_their_pair_on_both_faces_in_both_colours():
    game = spec_of().games["forex"]
    pieces = drawn("forex", "pair_counters")
    pairs = [f"{a.id}⁄{b.id}" for i, a in enumerate(game.assets) for b in game.assets[i + 1 :]]  # a fraction slash
    for pair, piece in zip(pairs, pieces.pieces, strict=True):
        stronger, weaker = pair.split("⁄")
        assert pair in texts_of(piece.front) and pair in texts_of(piece.back)
        assert weaker in texts_of(piece.front) and stronger in texts_of(piece.back)
        front_fill = next(i for _, i in art.walk(piece.front.items) if isinstance(i, Rect)).style.fill
        assert front_fill == game.asset(weaker).color
    assert len({frozenset(shapes_of(p.front.items).items()) for p in pieces.pieces[:6]}) == 6


def test_patterned_currencies_carry_their_pattern_round_the_edge():
    pieces = drawn("forex", "pair_counters")
    gbp_eur = pieces.pieces[0]  # front EUR (vstripes), back GBP (hstripes)
    def lines_of(face):
        return [i for _, i in art.walk(face.items) if isinstance(i, Line)]

    lines = {"front": lines_of(gbp_eur.front), "back": lines_of(gbp_eur.back)}
    assert lines["front"] and all(abs(i.x1 - i.x2) < 1e-9 for i in lines["front"])  # vertical stripes
    assert lines["back"] and all(abs(i.y1 - i.y2) < 1e-9 for i in lines["back"])  # horizontal stripes


def test_a_token_without_a_back_gets_a_plain_back_of_its_colour_or_none():
    text = edit('front: {value: "{initial}"}\n            back: {value: "{initial}"}', 'front: {value: "{initial}"}')
    pieces = drawn("aktsioner", "price_tokens", text)
    backs = [p.back for p in pieces.pieces]
    assert [b.items[0].style.fill for b in backs] == ["#0072b2", "#c8102e", "#f0c20f", "#4daf4a"]
    assert all(len(b.items) == 1 and not texts_of(b) for b in backs)
    text = edit("          - {front: {value: \"A\", title: LOAN}, back: {value: \"A\", title: LOAN}}",
                "          - {front: {value: \"A\", title: LOAN}}")  # fmt: skip
    assert drawn("forex", "loan_markers", text).pieces[0].back is None



def test_rounded_tokens_round_their_ring_as_layout_rounds_the_cut():
    from pnp.display import ROUNDED_CUT

    marker = drawn("forex", "loan_markers").pieces[0].front
    ring = next(i for _, i in art.walk(marker.items) if isinstance(i, Rect) and i.style.fill is None)
    assert ring.radius == pytest.approx(ROUNDED_CUT * 16 - ring.x)  # concentric with the cut's corner


@pytest.mark.parametrize("game", ["bolsa", "forex", "aktsioner"])
def test_without_duplex_every_face_the_rules_need_is_printed(game):
    """`--duplex none` drops backs that only decorate (card backs) but never a face that carries
    rules: Bolsa's "+20" sides (BOLSA-1.3), For-Ex's second currency (FOREX-1.3). Every piece is
    placed (the manifest's count), and every piece whose back differs from its front is placed
    back to front on a fold-over sheet."""
    from pnp.build import with_print
    from pnp.spec.faces import piece_count

    spec = with_print(spec_of(), duplex="none")
    folded = []
    for item in laid_out(game, kinds=("tokens",), duplex="none").laid:  # the token sheets alone
        count = piece_count(spec.games[game], item.component)
        placed = item.layout.placed
        assert sum(p.side == "front" for p in placed) == count
        differing = {i for i, piece in enumerate(item.output.pieces) if piece.back is not None and piece.back is not piece.front}
        assert differing <= {p.piece for p in placed if p.side == "back"}
        assert item.layout.duplex == ("fold" if differing else "none")
        folded += [item.component.id] if differing else []
    assert folded == {"bolsa": ["tokens"], "forex": ["pair_counters"], "aktsioner": []}[game]


POLYGON_EDITS = {  # an octagon and a square token of the bundled games, cut as hexagons and octagons of a size
    ("bolsa", "tokens"): ("        shape: octagon          # an octagon's flat top and bottom keep its small print at 7 pt "
                          "inside the 1.5 mm safe zone\n        size_mm: [15, 15]",
                          {"hexagon": (16, 14), "octagon": (14, 14)}),
    ("forex", "pair_counters"): ("        shape: square\n        size_mm: [14, 14]",  # a title and a symbol above
                                 {"hexagon": (24, 21), "octagon": (22, 22)}),
}


def inside(polygon, x: float, y: float) -> bool:
    """Inside a convex polygon given in order (either direction)."""
    signs = {math.copysign(1, (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1))
             for (x1, y1), (x2, y2) in zip(polygon, (*polygon[1:], polygon[0]), strict=True)}  # fmt: skip
    return len(signs) == 1


@pytest.mark.parametrize("shape", ["hexagon", "octagon"])
@pytest.mark.parametrize("game_id, tokens_id", list(POLYGON_EDITS))
def test_hexagon_and_octagon_tokens_keep_their_content_inside_the_cut(game_id, tokens_id, shape):
    from pnp.display import Polygon, cut_polygon
    from pnp.layout.impose import CUT_STYLE, impose
    from pnp.layout.sheet import Furniture

    old, sizes = POLYGON_EDITS[(game_id, tokens_id)]
    size = sizes[shape]
    pieces = drawn(game_id, tokens_id, edit(old, f"        shape: {shape}\n        size_mm: [{size[0]}, {size[1]}]"))
    assert (pieces.width, pieces.height, pieces.cut) == (*size, shape)
    cut = cut_polygon(shape, 0, 0, *size)
    assert len(cut) == {"hexagon": 6, "octagon": 8}[shape]
    for face in sides(pieces):
        for text, (x0, y0, x1, y1) in text_boxes(face.items):
            assert text.size >= 6 and all(inside(cut, x, y) for x in (x0, x1) for y in (y0, y1)), text.text
        rings = [i for _, i in art.walk(face.items) if isinstance(i, Polygon) and len(i.points) == len(cut)
                 and i.style.fill is None]  # fmt: skip
        assert rings and all(inside(cut, x, y) for ring in rings for x, y in ring.points)
    sheet = impose(pieces, "a4", 5, "long", Furniture("game", "tokens", "stamp")).pages[0]
    outlines = [i for _, i in art.walk(sheet.items) if isinstance(i, Polygon) and i.style == CUT_STYLE]
    assert len(outlines) == len(pieces.pieces) and all(len(o.points) == len(cut) for o in outlines)
