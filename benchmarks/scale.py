"""How a build grows with the number of distinct faces: a spec of one game whose deck has
`faces` cards, every one different (its number, its name, a line of small print), with a
common back, built cold in one process stage by stage (`build_stages.py`); each stage's CPU per
face at two sizes, whose ratio says whether it grows faster than the faces do (1: in step).

    python benchmarks/scale.py 300 3000      (prints JSON: size → stage → CPU seconds)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
STAGES = ("drawing the components", "laying them out", "rendering the sheets", "print files and change lists",
          "gallery and exports", "pre-flight checks", "manifest and gallery page")


def spec_text(faces: int, decks: int = 3) -> str:
    """A print-only game of `faces` different cards in `decks` decks of one size (the same
    structure at every size: three decks share their last sheets; the schema allows 3,000
    pieces in a spec, 1,000 entries in a deck)."""
    parts = []
    for deck in range(decks):
        numbers = range(deck * faces // decks + 1, (deck + 1) * faces // decks + 1)
        cards = "\n".join(f'          - {{value: "{n}", title: "Card {n}", text: "Lot {n % 97}"}}' for n in numbers)
        parts.append(f"""\
      - id: cards{deck + 1}
        kind: deck
        name: Cards {deck + 1}
        back: {{title: Scale}}
        cards:
{cards}""")
    return """\
games:
  scale:
    title: Scale
    players: {min: 2, max: 4}
    companies:
      - {id: ACM, name: Acme, color: "#0072b2", symbol: circle}
    components:
""" + "\n".join(parts) + "\n"


def stages(faces: int, folder: Path) -> dict[str, float]:
    """A cold build of `faces` distinct faces in a fresh process: each stage's CPU seconds."""
    spec = folder / f"scale-{faces}.yaml"
    spec.write_text(spec_text(faces), encoding="utf-8")
    done = subprocess.run([sys.executable, str(HERE / "build_stages.py"), str(folder / f"out-{faces}"), str(spec)],
                          check=True, capture_output=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "PNP_CACHE": str(folder / f"cache-{faces}")})
    return json.loads(done.stdout)


def per_face_growth(small: int, large: int) -> dict[str, tuple[float, float, float]]:
    """Each stage's CPU per face, in ms, at `small` and `large` faces, and their ratio."""
    with tempfile.TemporaryDirectory() as scratch:
        few, many = stages(small, Path(scratch)), stages(large, Path(scratch))
    return {stage: (1e3 * few[stage] / small, 1e3 * many[stage] / large, (many[stage] / large) / (few[stage] / small))
            for stage in STAGES}


if __name__ == "__main__":
    sizes = [int(n) for n in sys.argv[1:]] or [300, 3000]
    with tempfile.TemporaryDirectory() as scratch:
        print(json.dumps({n: stages(n, Path(scratch)) for n in sizes}, indent=1))
