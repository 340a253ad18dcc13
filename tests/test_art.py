"""The shared drawing helpers: measured contrast, symbols in their box, patterns symmetric
under a half turn, badges that carry shape and pattern, deterministic guilloche."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pnp.components import art
from pnp.display import IDENTITY, Circle, Group, Line, Polygon, Rect, Style, Text, apply, compose, rotate, translate
from pnp.spec.model import PATTERNS, SYMBOLS, Asset

OKABE_ITO = ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#000000")


# --- a geometric fingerprint of a display list, shared with the card tests ----------------


def _point(matrix, x, y):
    px, py = apply(matrix, (x, y))
    return (round(px, 3) + 0.0, round(py, 3) + 0.0)


def shapes_of(items) -> Counter:
    """Every leaf item (and clip box) as placed on the drawing, independent of how it is grouped.

    Two display lists with the same fingerprint draw the same thing; turning a drawing by
    180° and comparing fingerprints tests its symmetry.
    """
    found: Counter = Counter()

    def visit(items, matrix):
        for item in items:
            if isinstance(item, Group):
                inner = compose(matrix, item.transform)
                if item.clip is not None:
                    c = item.clip
                    corners = [(c.x, c.y), (c.x + c.w, c.y), (c.x + c.w, c.y + c.h), (c.x, c.y + c.h)]
                    found[("clip", frozenset(_point(inner, *p) for p in corners))] += 1
                visit(item.items, inner)
            elif isinstance(item, Line):
                ends = frozenset((_point(matrix, item.x1, item.y1), _point(matrix, item.x2, item.y2)))
                found[("line", ends, item.style)] += 1
            elif isinstance(item, Polygon):
                found[("polygon", frozenset(_point(matrix, *p) for p in item.points), item.closed, item.style)] += 1
            elif isinstance(item, Circle):
                found[("circle", _point(matrix, item.cx, item.cy), round(item.r, 3), item.style)] += 1
            elif isinstance(item, Rect):
                corners = [(x, y) for x in (item.x, item.x + item.w) for y in (item.y, item.y + item.h)]
                found[("rect", frozenset(_point(matrix, *p) for p in corners), round(item.radius, 3), item.style)] += 1
            elif isinstance(item, Text):
                direction = (round(matrix[0], 3) + 0.0, round(matrix[1], 3) + 0.0)
                key = (item.text, item.size, item.font, item.color, item.anchor)
                found[("text", key, _point(matrix, item.x, item.y), direction)] += 1
            else:
                found[("other", repr(item))] += 1

    visit(items, IDENTITY)
    return found


def half_turned(items, cx, cy) -> Counter:
    return shapes_of([Group(tuple(items), rotate(180, cx, cy))])


# --- colour -------------------------------------------------------------------------------


def test_contrast_ratio_matches_wcag_reference_values():
    assert art.contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert art.contrast_ratio("#777777", "#777777") == pytest.approx(1.0)
    assert art.contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic "just fails AA"
    assert art.contrast_ratio("#0072b2", "#ffffff") == art.contrast_ratio("#ffffff", "#0072b2")


@given(st.integers(0, 0xFFFFFF))
def test_ink_on_any_fill_reaches_aa_contrast(value):
    fill = f"#{value:06x}"
    ink = art.ink_on(fill)
    assert ink in ("#000000", "#ffffff")
    assert art.contrast_ratio(ink, fill) >= 4.5


def test_ink_on_picks_white_on_dark_and_black_on_light():
    assert art.ink_on("#0072b2") == "#ffffff"
    assert art.ink_on("#f0e442") == "#000000"
    assert art.ink_on("#000000") == "#ffffff"
    assert art.tint("#0072b2", 0) == "#ffffff" and art.tint("#0072b2", 1) == "#0072b2"


# --- symbols ------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SYMBOLS)
def test_every_symbol_fills_its_box_and_stays_inside_it(shape):
    points = art.outline(shape, 10, 20, 8)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    assert min(xs) >= 6 - 1e-9 and max(xs) <= 14 + 1e-9 and min(ys) >= 16 - 1e-9 and max(ys) <= 24 + 1e-9
    assert max(xs) - min(xs) >= 5.5 and max(ys) - min(ys) >= 6.0  # no shape is a speck in its box
    item = art.symbol(shape, 10, 20, 8, Style(fill="#ff0000"))
    assert item.style.fill == "#ff0000"
    assert isinstance(item, Circle) == (shape == "circle")


def test_symbols_have_distinct_outlines():
    def area(points):
        return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True))) / 2

    areas = {shape: round(area(list(art.outline(shape, 0, 0, 10))), 1) for shape in SYMBOLS}
    corners = {shape: len(art.outline(shape, 0, 0, 10)) for shape in SYMBOLS}
    assert len({(areas[s], corners[s]) for s in SYMBOLS}) == len(SYMBOLS)
    with pytest.raises(ValueError, match="unknown symbol"):
        art.outline("blob", 0, 0, 1)


# --- patterns -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", [p for p in PATTERNS if p != "none"])
def test_every_pattern_fills_its_box_clipped_and_symmetric_under_a_half_turn(name):
    group = art.pattern(name, 5, 7, 40, 23, "#336699", spacing=3)
    assert group.clip is not None and (group.clip.x, group.clip.y, group.clip.w, group.clip.h) == (5, 7, 40, 23)
    inside = [i for i in group.items if _touches(i, 5, 7, 40, 23)]
    assert len(inside) >= 5
    assert all(getattr(i.style, "stroke", None) == "#336699" or i.style.fill == "#336699" for i in group.items)
    assert half_turned([group], 25, 18.5) == shapes_of([group])


def test_patterns_are_told_apart_and_none_is_empty():
    prints = {name: shapes_of([art.pattern(name, 0, 0, 30, 30, "#000000")]) for name in PATTERNS}
    assert len({frozenset(p.items()) for p in prints.values()}) == len(PATTERNS)
    assert art.pattern("none", 0, 0, 30, 30, "#000000").items == ()
    with pytest.raises(ValueError, match="unknown pattern"):
        art.pattern("plaid", 0, 0, 1, 1, "#000000")


def _touches(item, x, y, w, h):
    if isinstance(item, Line):
        pts = [(item.x1, item.y1), (item.x2, item.y2)]
        return any(x <= px <= x + w and y <= py <= y + h for px, py in _along(pts))
    if isinstance(item, Polygon):
        return any(x <= px <= x + w and y <= py <= y + h for px, py in item.points)
    if isinstance(item, Circle):
        return x <= item.cx <= x + w and y <= item.cy <= y + h
    if isinstance(item, Rect):
        return item.x < x + w and item.x + item.w > x and item.y < y + h and item.y + item.h > y
    return False


def _along(points, steps=200):
    (x1, y1), (x2, y2) = points
    return [(x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps) for k in range(steps + 1)]


# --- badges -------------------------------------------------------------------------------


def _asset(**fields):
    defaults = {"id": "GBP", "name": "Pound", "color": "#0072b2", "symbol": "star", "pattern": "hstripes"}
    return Asset(**{**defaults, **fields})


def test_badge_fills_the_symbol_with_the_asset_colour_and_outlines_it():
    badge = art.asset_badge(_asset(pattern="none"), 10, 10, 8)
    fills = [i.style.fill for _, i in art.walk([badge])]
    strokes = [i.style.stroke for _, i in art.walk([badge])]
    assert "#0072b2" in fills
    assert art.INK in strokes and "#ffffff" in strokes  # dark outline over a white halo
    assert not any(isinstance(i, Line) for _, i in art.walk([badge]))  # no pattern asked, none drawn


@pytest.mark.parametrize("shape", SYMBOLS)
@pytest.mark.parametrize("name", ["hstripes", "crosshatch", "waves", "dots", "checks"])
def test_badge_pattern_stays_inside_the_symbol(shape, name):
    asset = _asset(symbol=shape, pattern=name, color="#f0e442")  # light: the pattern ink is black
    polygon = art.outline(shape, 10, 10, 8)
    ink = art.ink_on(asset.color)
    marks = [i for _, i in art.walk([art.asset_badge(asset, 10, 10, 8)]) if ink in (i.style.stroke, i.style.fill)]
    assert marks, f"{name} left no mark in a {shape}"
    for item in marks:
        if isinstance(item, Line):
            middle = ((item.x1 + item.x2) / 2, (item.y1 + item.y2) / 2)
            assert art._inside(middle, polygon)
        elif isinstance(item, Circle):
            assert art._inside((item.cx, item.cy), polygon)
        else:
            assert art._inside((item.x + item.w / 2, item.y + item.h / 2), polygon)


def test_badges_of_different_assets_differ_even_without_colour():
    def geometry(asset):  # kind and points only: what is left without colour
        return Counter({key[:2]: n for key, n in shapes_of([art.asset_badge(asset, 0, 0, 10)]).items()})

    shapes = [geometry(_asset(symbol=s, pattern="none", color="#777777")) for s in SYMBOLS]
    assert all(a != b for i, a in enumerate(shapes) for b in shapes[i + 1 :])


# --- guilloche ----------------------------------------------------------------------------


def test_guilloche_is_deterministic_per_seed_and_clipped_to_its_box():
    a = art.guilloche(0, 0, 80, 42, "#009e73", "bolsa/10")
    assert a == art.guilloche(0, 0, 80, 42, "#009e73", "bolsa/10")
    assert a != art.guilloche(0, 0, 80, 42, "#009e73", "bolsa/25")
    assert (a.clip.x, a.clip.y, a.clip.w, a.clip.h) == (0, 0, 80, 42)
    lines = [i for i in a.items if isinstance(i, Polygon) and not i.closed]
    assert len(lines) >= 10 and all(i.style.stroke == "#009e73" and i.style.width <= 0.2 for i in lines)
    ys = [y for line in lines for _, y in line.points]
    assert min(ys) < 42 * 0.3 and max(ys) > 42 * 0.7  # the line-work covers the bill, not a strip


# --- walking the display list ---------------------------------------------------------------


def test_walk_composes_group_transforms():
    text = Text(1, 2, "x", 8)
    nested = Group((Group((text,), translate(10, 0)),), rotate(180, 0, 0))
    [(matrix, item)] = list(art.texts([nested]))
    assert item is text
    x, y = apply(matrix, (1, 2))
    assert (round(x, 9), round(y, 9)) == (-11, -2)
    assert math.isclose(matrix[0], -1)


# --- inspecting drawings: shared with the card, token and money tests ------------------------


def text_boxes(items):
    """(text item, its box (x0, y0, x1, y1) on the drawing) for every placed text, measured
    from the font's advance widths, ascent and descent — independently of how it was fitted."""
    return [(text, box) for text, box, _ in text_grounds(items)]


def text_grounds(items):
    """(text, box, ground) for every placed text, in drawing order; the ground is the fill of
    the last filled shape drawn before it that contains the centre of its box (white paper if
    none). A text object placed twice (a corner index and its turned copy) appears twice."""
    from pnp.fonts import MM_PER_PT, font

    found, fills = [], []
    for matrix, item, clips in _placed(items, IDENTITY, ()):
        if not isinstance(item, Text):
            if getattr(item, "style", None) is not None and item.style.fill is not None:
                fills.append((matrix, item, clips))
            continue
        face = font(item.font)
        width = face.width(item.text, item.size)
        x0 = item.x - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
        top = item.y - face.ascent * item.size * MM_PER_PT
        bottom = item.y + face.descent * item.size * MM_PER_PT
        corners = [apply(matrix, (x, y)) for x in (x0, x0 + width) for y in (top, bottom)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        box = (min(xs), min(ys), max(xs), max(ys))
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        ground = next(
            (f.style.fill for m, f, clips in reversed(fills)
             if _contains(m, f, centre) and all(_contains(cm, c, centre) for cm, c in clips)),
            "#ffffff",
        )  # fmt: skip
        found.append((item, box, ground))
    return found


def _placed(items, matrix, clips):
    """Leaf items with their transform and the clip rectangles (with their transforms) around them."""
    for item in items:
        if isinstance(item, Group):
            inner = compose(matrix, item.transform)
            yield from _placed(item.items, inner, clips + (((inner, item.clip),) if item.clip else ()))
        else:
            yield matrix, item, clips


def _contains(matrix, item, point):
    if isinstance(item, Rect):
        corners = [apply(matrix, (x, y)) for x in (item.x, item.x + item.w) for y in (item.y, item.y + item.h)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs) <= point[0] <= max(xs) and min(ys) <= point[1] <= max(ys)
    if isinstance(item, Circle):
        cx, cy = apply(matrix, (item.cx, item.cy))
        return math.hypot(point[0] - cx, point[1] - cy) <= item.r
    if isinstance(item, Polygon) and item.closed:
        return art._inside(point, [apply(matrix, p) for p in item.points])
    return False


def required_contrast(text) -> float:
    """WCAG AA: 4.5:1, or 3:1 for large text (18 pt, or 14 pt bold)."""
    large = text.size >= 18 or (text.size >= 14 and text.font == "bold")
    return 3.0 if large else 4.5


def test_text_helpers_measure_and_find_the_ground():
    text = Text(10, 10, "IBE", 20, "bold", "#ffffff", "middle")
    items = (Rect(0, 0, 30, 20, Style(fill="#0072b2")), Group((text,), rotate(180, 15, 10)))
    [(item, (x0, y0, x1, y1))] = text_boxes(items)
    assert item is text
    assert x1 - x0 == pytest.approx(art.text_bounds([text])[2] - art.text_bounds([text])[0])
    assert 15 < (x0 + x1) / 2 < 25 and y0 > 8  # turned about (15, 10): centre x 20, hanging below y 10
    assert [ground for _, _, ground in text_grounds(items)] == ["#0072b2"]
    assert [ground for _, _, ground in text_grounds((Group((text,)),))] == ["#ffffff"]


def test_text_grounds_honour_clips():
    text = Text(5, 5, "x", 8)
    clipped_fill = Group((Rect(0, 0, 10, 10, Style(fill="#000000")),), clip=Rect(20, 20, 5, 5, Style()))
    assert [ground for _, _, ground in text_grounds((clipped_fill, text))] == ["#ffffff"]
    shown_fill = Group((Rect(0, 0, 10, 10, Style(fill="#000000")),), clip=Rect(0, 0, 10, 10, Style()))
    assert [ground for _, _, ground in text_grounds((shown_fill, text))] == ["#000000"]
