"""Colours a player must tell apart, judged as a colour-blind player sees them.

A company's (colour's, currency's) colour carries meaning where an area of it — or of a tint
of it, as a board's row of cells is tinted — stands for that company: which row a token
moves on, whose card it is. Such an area needs no colour vision when the company's symbol or
code is in it or within `NEAR` of it (a start cell between two cells that show it): text
naming it (its id, initial or name), its symbol (a shape other than a rectangle) in its
colour or a tint of it, or its logo (`identity_areas`). An area without one relies on colour alone. Two companies' areas
of that kind on one face are a finding when their colours differ by less than `DISTINCT`
(CIEDE2000 ΔE00, `pnp.colours`) under normal vision or under protanopia, deuteranopia or
tritanopia (Machado 2009): a player with that vision, or anyone at a glance, takes one for the
other. A company's colour next to its own tint, or areas that carry a symbol or code, are
never judged: they do not rely on colour alone.

ΔE00 10 is where a difference stops being "perceptible at a glance" and becomes one that
tells two things apart across a board; the Okabe–Ito palette, designed for colour-blind
readers, keeps 11 or more between any two of its colours under each dichromacy, Акционер's
old red and green 4.8 under deuteranopia.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from typing import Sequence

from pnp.checks.faces import Box, Seen, bounds, full_size, text_box_of, union
from pnp.colours import least_difference, over_paper, tint_of
from pnp.display import Circle, Drawing, Image, Item, Matrix, Polygon, Rect, Text
from pnp.spec.model import Asset

DISTINCT = 10.0  # ΔE00: two identity colours closer than this are taken for one another
NEAR = 8.0  # mm: a symbol or code this close to an area says whose it is (a row header beside its band)
FAINTEST = 0.1  # a tint with less of the colour than this reads as paper, not as the colour
RED_GREEN = "the 1 in 12 men with red–green colour blindness"
WHO = {"normal": "anyone at a glance", "protanopia": RED_GREEN, "deuteranopia": RED_GREEN,
       "tritanopia": "players with blue–yellow colour blindness (tritanopia)"}


@dataclass
class Area:
    """A filled shape in a company's colour or a tint of it."""

    asset: int  # index in the game's assets
    fill: str
    box: Box
    cued: bool = False
    inner: list["Area"] = field(default_factory=list)


def _bare_areas(drawing: Drawing, assets: Sequence[Asset], page: bool) -> dict[int, list[Area]]:
    """Each company's areas on the face told by colour alone (no symbol or code on them)."""
    bare: dict[int, list[Area]] = {}
    for area in identity_areas(drawing, assets, page=page):
        if not area.cued:
            bare.setdefault(area.asset, []).append(area)
    return bare


def colour_checks(drawing: Drawing, assets: Sequence[Asset], *, page: bool = False) -> list[Seen]:
    """Each pair of companies whose areas on this face rely on colour alone, in colours
    someone cannot tell apart (the closest of their fills, with the vision that sees it)."""
    bare = _bare_areas(drawing, assets, page)
    found = []
    for a, b in combinations(sorted(bare), 2):
        fills = [(least_difference(fa, fb), fa, fb) for fa in {x.fill for x in bare[a]} for fb in {x.fill for x in bare[b]}]
        (delta, vision), fill_a, fill_b = min(fills, key=lambda f: f[0][0])
        if delta >= DISTINCT:
            continue
        one, other = assets[a], assets[b]
        counts = f"{len(bare[a])} and {len(bare[b])} on this face" if len(bare[a]) + len(bare[b]) > 2 else "one each"
        seen_as = "" if vision == "normal" else f" with {vision}"
        found.append(Seen(
            "colour-blind", "warning",
            f"{one.id} and {other.id} areas with neither symbol nor code ({counts}; {fill_a} and {fill_b}) look alike to "
            f"{WHO[vision]}: ΔE00 {delta:.1f}{seen_as}, below {DISTINCT:g}",
            f"put {one.id}'s and {other.id}'s symbol or code in them, or change one colour",
            union([x.box for x in bare[a] + bare[b]]), asset=one.id))
    return found


def identity_areas(drawing: Drawing, assets: Sequence[Asset], *, page: bool = False) -> list[Area]:
    """The face's filled rectangles in an asset's colour or a tint of it, each marked `cued`
    when it holds the asset's symbol or code, or lies inside an area of the asset that does."""
    areas: list[Area] = []
    cues: list[tuple[int, tuple[float, float]]] = []  # (asset, where) of each symbol and code
    for matrix, item in full_size(drawing, page=page):
        if isinstance(item, (Rect, Polygon, Circle)) and item.style.fill:
            fill = over_paper(item.style.fill.lower(), item.style.opacity)
            owner = _owner(fill, assets)
            if owner is not None and isinstance(item, Rect):
                areas.append(Area(owner[0], fill, bounds(matrix, item)))
            elif owner is not None:  # a symbol in the asset's colour (or a tint: the ink saver's paler one)
                cues.append((owner[0], _centre(bounds(matrix, item))))
        else:
            cues += _names_of(matrix, item, assets)
    _mark_cued(areas, cues)
    return areas


def _mark_cued(areas: list[Area], cues: list[tuple[int, tuple[float, float]]]) -> None:
    """Each area marked `cued` when one of its asset's cues lies in it, then when it lies inside
    a cued area of its asset (a band or a cell inside a header that says whose it is)."""
    for area in areas:
        area.cued = any(i == area.asset and _within(point, area.box, NEAR) for i, point in cues)
    for area in areas:
        area.cued = area.cued or any(o is not area and o.asset == area.asset and o.cued and _contains(o.box, area.box)
                                     for o in areas)


def _names_of(matrix: Matrix, item: Item, assets: Sequence[Asset]) -> list[tuple[int, tuple[float, float]]]:
    """The assets a text names, or whose logo an image is, each with where it is."""
    if isinstance(item, Text):
        return [(i, _text_centre(matrix, item)) for i in _named(item.text, assets)]
    if isinstance(item, Image):
        return [(i, _centre(bounds(matrix, item))) for i, asset in enumerate(assets)
                if asset.image and item.name == asset.image]
    return []


def _owner(fill: str, assets: Sequence[Asset]) -> tuple[int, float] | None:
    """The one asset whose colour `fill` is (or a tint of, with at least `FAINTEST` of it),
    with how much of it; None for none or several (a grey is a tint of any grey asset)."""
    found = [(i, amount) for i, asset in enumerate(assets)
             if (amount := tint_of(fill, asset.color)) is not None and amount >= FAINTEST]
    exact = [f for f in found if f[1] >= 0.99]
    return (exact or found)[0] if len(exact or found) == 1 else None


def _named(text: str, assets: Sequence[Asset]) -> list[int]:
    """The assets a text names: by id, initial or name, as a word of it."""
    words = set(re.findall(r"\w+", text.casefold()))
    flat = " ".join(text.casefold().split())
    found = []
    for i, asset in enumerate(assets):
        names = {n.casefold() for n in (asset.id, asset.initial, asset.name, asset.name_en) if n}
        if any(n in words or (" " in n and n in flat) for n in names):
            found.append(i)
    return found


def _text_centre(matrix: Matrix, text: Text) -> tuple[float, float]:
    return _centre(text_box_of(matrix, text))


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2] / 2, box[1] + box[3] / 2)


def _within(point: tuple[float, float], box: Box, near: float = 0.01) -> bool:
    x, y, w, h = box
    return x - near <= point[0] <= x + w + near and y - near <= point[1] <= y + h + near


def _contains(outer: Box, inner: Box) -> bool:
    return _within(inner[:2], outer) and _within((inner[0] + inner[2], inner[1] + inner[3]), outer)
