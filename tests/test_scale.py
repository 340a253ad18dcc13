"""A build grows with the number of distinct faces, never faster (issue 44): a spec of 3,000
distinct faces (the schema's most pieces) against one of 300, the same three decks at both
sizes, each built cold in a process of its own, stage by stage (`benchmarks/scale.py`, which
`python benchmarks/run.py build` prints as figures): no stage — layout and manifest included —
takes more than 1.5 times the CPU per face at 3,000 faces than at 300.

CPU per face is measured loosely on a shared machine, so each stage gets the smaller of two
tries at each size (a burst of load on one is not a stage growing), and a stage too quick
to time at the small size is held only to twice the bound."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from scale import STAGES, spec_text, stages  # noqa: E402

GROWTH = 1.5  # per face, at ten times the faces
TIMED_S = 0.05  # CPU below which a stage at 300 faces is noise


def test_the_scale_spec_has_the_faces_it_says():
    from pnp.rules import loads_spec
    from pnp.spec.faces import piece_count

    spec = loads_spec(spec_text(300))
    (game,) = spec.games.values()
    assert [piece_count(game, c) for c in game.components] == [100, 100, 100]
    assert len({card.value for c in game.components for card in c.cards}) == 300


@pytest.mark.slow
def test_every_stage_grows_no_faster_than_the_faces(tmp_path):
    tries: dict[int, list[dict[str, float]]] = {300: [], 3000: []}
    for faces, runs in tries.items():
        for n in range(2):
            (tmp_path / f"{faces}-{n}").mkdir()
            runs.append(stages(faces, tmp_path / f"{faces}-{n}"))
    for stage in ("in all", *STAGES):
        small, large = (min(run[stage] for run in tries[faces]) for faces in (300, 3000))
        per_face = (large / 3000) / (small / 300)
        limit = GROWTH if small >= TIMED_S else 2 * GROWTH  # too quick to time at 300 faces: only gross growth
        assert per_face <= limit, f"{stage}: {per_face:.2f} × the CPU per face at 3,000 faces than at 300"
