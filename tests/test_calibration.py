"""The duplex check: each scale's 0 lies exactly behind its line on the front once the sheet is
turned over (mirrored about the edge it flips on), shifted by the current back offset."""

from __future__ import annotations

import pytest

from pnp.display import Group, Line, Text, apply
from pnp.layout import calibration
from pnp.layout.sheet import Box, frame


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
