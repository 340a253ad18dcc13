"""The ink saver (`print.ink_saver: true`, `pnp build --ink low`): outlines and patterns instead
of flood fills on every component, identities that still read on a greyscale printer (symbol
and code on every face of an asset), every page still fitted and drawable, and much less ink
than a normal build, measured as the mean ink of the pages."""

from __future__ import annotations

import math

import pytest

from pnp import fonts
from pnp.build import with_print
from pnp.components.art import texts, walk
from pnp.display import BookPages, Circle, Drawing, Matrix, Pieces, Polygon, Rect, Text
from pnp.render.pdf import pdf_bytes
from pnp.render.png import mean_ink
from pnp.spec.faces import deck_pieces, token_pieces
from pnp.spec.model import Deck, Money, Tokens
from spec_text import laid_out, spec_of

GAMES = ("bolsa", "aktsioner", "forex")
SIDES = {"square": 4, "triangle": 3, "diamond": 4, "hexagon": 6, "star": 10, "pentagon": 5, "cross": 12}
PAPER = {"#ffffff", "#fff"}


@pytest.fixture(scope="module")
def low():
    """Every game of the bundled spec drawn and laid out with the ink saver."""
    spec = with_print(spec_of(), ink_saver=True)
    return spec, {game: laid_out(game, ink_saver=True) for game in GAMES}


def drawings(output) -> set[Drawing]:
    if isinstance(output, Pieces):
        return {d for piece in output.pieces for d in (piece.front, piece.back) if d is not None}
    return set(output.pages if isinstance(output, BookPages) else output.drawings)


def flood(matrix: Matrix, item) -> float:
    """The area (mm²) of a filled shape wider than a rule in both directions; 0 otherwise."""
    scale_x, scale_y = math.hypot(matrix[0], matrix[1]), math.hypot(matrix[2], matrix[3])
    if isinstance(item, Rect):
        w, h = item.w * scale_x, item.h * scale_y
        return w * h if min(w, h) > 3.0 else 0.0
    if isinstance(item, Circle):
        return math.pi * (item.r * scale_x) ** 2
    if isinstance(item, Polygon) and item.closed:
        p = item.points
        return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(p, p[1:] + p[:1], strict=True))) / 2 * scale_x * scale_y
    return 0.0


def test_no_component_floods_colour(low):
    """No filled shape of colour (or grey) larger than 1 cm² on any face of any component: a
    badge's symbol is the largest fill left. (A normal build floods bands, tokens, backs.)"""
    _, layouts = low
    for game, layout in layouts.items():
        for item in layout.laid:
            for drawing in drawings(item.output):
                for matrix, leaf in walk(drawing.items):
                    style = getattr(leaf, "style", None)
                    if style is None or not style.fill or style.fill.lower() in PAPER:
                        continue
                    assert flood(matrix, leaf) <= 100.0, f"{game}/{item.component.id}: {leaf}"


def test_a_normal_build_does_flood(low):
    """The check above can fail: the same measure finds the normal build's floods."""
    layout = laid_out("bolsa")
    tokens = next(item for item in layout.laid if item.component.id == "tokens")
    found = [flood(m, leaf) for d in drawings(tokens.output) for m, leaf in walk(d.items)
             if getattr(leaf, "style", None) and leaf.style.fill and leaf.style.fill not in PAPER]
    assert max(found) > 100.0


def _assets_of_pieces(game, component) -> list[tuple]:
    """For each piece, in the generator's order (copies adjacent, then the component's copies),
    the assets its faces are made for: a card's or bill's front; a token's front and back (a
    token without a back of its own gets its front's asset there)."""
    if isinstance(component, Deck):
        sides = [(piece.front.asset,) for piece in deck_pieces(game, component)]
    elif isinstance(component, Tokens):
        sides = [(piece.front.asset, (piece.back or piece.front).asset) for piece in token_pieces(game, component)]
    else:
        assets = game.assets if component.for_each == "asset" else (None,)
        sides = [(asset,) for asset in assets for bill in component.bills for _ in range(bill.count)]
    return sides * component.copies


def _shows_symbol(drawing: Drawing, symbol: str) -> bool:
    for _, leaf in walk(drawing.items):
        if symbol == "circle" and isinstance(leaf, Circle):
            return True
        if symbol != "circle" and isinstance(leaf, Polygon) and leaf.closed and len(leaf.points) == SIDES[symbol]:
            return True
    return False


def test_every_face_of_an_asset_shows_its_symbol_and_code(low):
    """Grey-safe identities: every face of a card, token or bill made for an asset (and the back
    of a token that has no back of its own) carries the asset's symbol and its code or initial,
    so nothing depends on telling colours apart."""
    spec, layouts = low
    checked = 0
    for game_id, layout in layouts.items():
        game = spec.games[game_id]
        for item in layout.laid:
            if not isinstance(item.component, (Deck, Tokens, Money)):
                continue
            assets = _assets_of_pieces(game, item.component)
            assert len(assets) == len(item.output.pieces)
            for owners, piece in zip(assets, item.output.pieces, strict=True):
                for asset, face in zip(owners, (piece.front, piece.back), strict=False):  # a card's or bill's: its front only
                    if asset is None or face is None:
                        continue
                    words = " ".join(t.text for _, t in texts(face.items)).casefold()
                    where = f"{game_id}/{item.component.id} {asset.id}"
                    assert (asset.initial or asset.id).casefold() in words or asset.id.casefold() in words, where
                    assert _shows_symbol(face, asset.symbol), f"{where}: no {asset.symbol}"
                    checked += 1
    assert checked > 300


def test_every_page_passes_the_glyph_and_fit_checks(low):
    """Laying out already fitted every text (a misfit raises); every glyph of every page is in
    its font, and large type is outlined only where it is large."""
    _, layouts = low
    outlined = 0
    for game, layout in layouts.items():
        for item in layout.laid:
            for page in item.pages:
                for _, text in texts(page.items):
                    fonts.check_glyphs(text.text, text.font, f"{game}/{item.component.id}")
                    if text.outline:
                        outlined += 1
                        assert text.size >= 14.0
    assert outlined > 100


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow) if g != "aktsioner" else g for g in GAMES])
def test_low_ink_measured_as_the_mean_ink_of_the_pages(low, game):
    """The ink saver's figure, by the method `benchmarks/bench_ink.py` prints (`mean_ink`: each
    pixel 1 minus its brightness, over every page): the pieces and boards it redraws print under
    0.3 of a normal build's ink, every page of the game (text toned too) under a third; the README
    quotes the benchmark's figures. Акционер's pages in the fast lane, every game's in the slow."""
    normal = laid_out(game)
    drawn = ("deck", "tokens", "money", "board")
    ratios = []
    for kinds in (drawn, None):
        inks = [mean_ink(pdf_bytes([page for item in layout.laid for page in item.pages
                                    if kinds is None or item.component.kind in kinds]))
                for layout in (normal, low[1][game])]
        assert inks[0] > 0.03
        ratios.append(inks[1] / inks[0])
    assert ratios[0] < 0.3 and ratios[1] < 1 / 3


def test_the_toner_keeps_type_readable_and_lines_light(low):
    """The toner: no type darker than `DARKEST`, no line or outlined type darker than
    `DARKEST_LINE`; and still readable — every filled type at least 4.5:1 on paper, every
    outlined (large) type at least 3:1. A normal build prints black, which the check finds."""
    from pnp.components.art import contrast_ratio
    from pnp.components.toner import DARKEST, DARKEST_LINE, toned

    _, layouts = low
    checked = 0
    for game, layout in layouts.items():
        for item in layout.laid:
            for drawing in drawings(item.output):
                for _, leaf in walk(drawing.items):
                    if isinstance(leaf, Text):
                        limit, least = (DARKEST_LINE, 3.0) if leaf.outline else (DARKEST, 4.5)
                        assert toned(leaf.color, limit) == leaf.color, f"{game}/{item.component.id}: {leaf}"
                        assert contrast_ratio(leaf.color, "#ffffff") >= least or leaf.color.lower() in PAPER, leaf
                        checked += 1
                    elif getattr(leaf, "style", None) is not None and leaf.style.stroke:
                        assert toned(leaf.style.stroke, DARKEST_LINE) == leaf.style.stroke, leaf
    assert checked > 1000
    assert toned("#000000") != "#000000" and toned("#000000", DARKEST_LINE) != toned("#000000")
