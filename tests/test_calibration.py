"""The duplex check: each scale's 0 lies exactly behind its line on the front once the sheet is
turned over (mirrored about the edge it flips on), shifted by the current back offset."""

from __future__ import annotations

import re

import pytest

from pnp.display import Group, Line, Text, apply
from pnp.layout import calibration
from pnp.layout.sheet import Box, frame

PT = 25.4 / 72


def _zero_ticks(items, offset):
    """The back's two ticks labelled 0 ... found as the ticks nearest their "0" labels."""
    (group,) = items
    assert isinstance(group, Group)
    lines = [i for i in group.items if isinstance(i, Line)]
    zeros = [i for i in group.items if isinstance(i, Text) and i.text == "0"]
    upright = min((l for l in lines if l.x1 == l.x2), key=lambda l: abs(l.x1 - zeros[0].x))
    level = min((l for l in lines if l.y1 == l.y2), key=lambda l: abs(l.y1 - zeros[1].y + 0.8))
    return apply(group.transform, (upright.x1, 0))[0], apply(group.transform, (0, level.y1))[1]


@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.5)])
def test_the_scales_zero_is_behind_the_front_lines(edge, offset):
    f = frame("a4", 5)
    box = Box(20, 200, 170, calibration.HEIGHT_MM)
    p = calibration.pointers(box)
    x, y = _zero_ticks(calibration.check_back(f, box, edge, offset), offset)
    expected_x = (f.width - p.x if edge == "long" else p.x) + offset[0]
    expected_y = (p.y if edge == "long" else f.height - p.y) + offset[1]
    assert x == pytest.approx(expected_x) and y == pytest.approx(expected_y)


def test_the_scales_read_five_mm_either_way_in_half_millimetres():
    f = frame("a4", 5)
    (group,) = calibration.check_back(f, Box(20, 200, 170, calibration.HEIGHT_MM), "long", (0, 0))
    upright = sorted(l.x1 for l in group.items if isinstance(l, Line) and l.x1 == l.x2)
    assert len(upright) == 21 and upright[-1] - upright[0] == pytest.approx(10.0)


# --- the cutter's duplex check ---------------------------------------------------------------------


def test_the_cutters_check_names_the_offset_that_centres_a_ring_on_its_cut(tmp_path, capsys):
    """`pnp build --calibrate silhouette --back-offset 0.5,-1`: a two-page PDF and its cut file.
    The cut circles are where the front's marks put them; behind each, on the back (flipped on
    the long edge), a ring centred on the circle's mirror image shifted by the offset its label
    names, read back from the PDF within 0.01 mm. A printer that puts backs 1.5 mm left of and
    0.5 mm below where they belong centres, in the upper row, the ring labelled X = 1.5 and, in
    the lower row, Y = −0.5: the offset that moves its backs back onto their fronts."""
    import pdfplumber

    from pnp.cli import main
    from pnp.export.cut import sheet_codes
    from pnp.layout.calibration import CUT_RADIUS_MM, RING_GAP_MM, RINGS, circle_offsets

    out = tmp_path / "out"
    assert main(["build", "--calibrate", "silhouette", "--back-offset", "0.5,-1", "--out", str(out)]) == 0
    pdf, svg = out / "calibration" / "silhouette-check.pdf", out / "calibration" / "silhouette-check.svg"
    assert str(pdf.name) in capsys.readouterr().out
    assert main(["cut", "check", str(pdf), str(svg)]) == 0 and len(sheet_codes(pdf)) == 1
    text = svg.read_text()
    cuts = [tuple(map(float, c)) for c in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"', text)]
    assert len(cuts) == 2 * RINGS and all(r == CUT_RADIUS_MM for _, _, r in cuts)
    with pdfplumber.open(pdf) as document:
        front, back = document.pages
        width = float(front.width) * PT
        rings = sorted(((c["x0"] + c["x1"]) / 2 * PT, (c["top"] + c["bottom"]) / 2 * PT, (c["x1"] - c["x0"]) / 2 * PT)
                       for c in back.curves)
        labels = [w["text"] for w in back.extract_words() if "," in w["text"]]
    assert len(rings) == 2 * RINGS and all(abs(r - CUT_RADIUS_MM - RING_GAP_MM) < 0.01 for *_, r in rings)
    offsets = circle_offsets((0.5, -1.0))
    assert sorted(labels) == sorted(f"{x:g},{y:g}" for x, y in offsets)
    for (cx, cy, _), (ox, oy) in zip(cuts, offsets, strict=True):  # each ring: the cut's mirror image + its offset
        want = (width - cx + ox, cy + oy)
        assert any(abs(rx - want[0]) < 0.01 and abs(ry - want[1]) < 0.01 for rx, ry, _ in rings), (cx, cy, ox, oy)
    # A printer that puts backs 1.5 mm left of and 0.5 mm below where they belong: ring i shows
    # at the cut's mirror image + its label + that shift, centred on the hole where it is nothing.
    shift = (-1.5, 0.5)
    upper = min(range(RINGS), key=lambda i: abs(offsets[i][0] + shift[0]))
    lower = min(range(RINGS, 2 * RINGS), key=lambda i: abs(offsets[i][1] + shift[1]))
    assert offsets[upper][0] + shift[0] == 0 and offsets[lower][1] + shift[1] == 0
    assert (offsets[upper][0], offsets[lower][1]) == (1.5, -0.5)  # --back-offset 1.5,-0.5: backs land on their fronts
