"""The ink saver's figure: the mean ink of rendered pages, normal against `--ink low`.

Ink is `pnp.render.png.mean_ink`: every page rasterised at 50 dpi, each pixel counting 1 minus
its brightness (paper 0, black 1, a pale tint as little as it inks), averaged over the pages.
Figures per game: the combined print file `<game>-all.pdf` normal and low and their ratio; and
the same over the sheets of pieces and boards alone (cards, tokens, bills, boards: what the ink
saver redraws), since the rules booklet, aids and forms are text that prints the same in both.
The README quotes these figures.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

DRAWN = ("deck", "tokens", "money", "board")  # what the ink saver redraws; text pages print the same


def main() -> list[tuple[str, float, str]]:
    import pypdfium2

    from pnp.build import build, with_print
    from pnp.render.png import mean_ink
    from pnp.rules import load_spec

    spec = load_spec(None)
    games = tuple(spec.games)
    rows: list[tuple[str, float, str]] = []
    with tempfile.TemporaryDirectory() as scratch:
        outs = {}
        for name, low in (("normal", False), ("low", True)):
            outs[name] = Path(scratch) / name
            build(with_print(spec, ink_saver=low), outs[name], games, ("pdf",))
        for game in games:
            whole = {name: mean_ink(out / game / f"{game}-all.pdf") for name, out in outs.items()}
            drawn = {}
            for name, out in outs.items():
                total = pages = 0.0
                for component in spec.games[game].components:
                    if component.kind in DRAWN:
                        path = out / game / f"{component.id}.pdf"
                        count = len(pypdfium2.PdfDocument(str(path)))
                        total += mean_ink(path) * count
                        pages += count
                drawn[name] = total / pages if pages else 0.0
            rows += [(f"{game}: mean ink, normal", whole["normal"], "of black"),
                     (f"{game}: mean ink, --ink low", whole["low"], "of black"),
                     (f"{game}: --ink low / normal, whole kit", whole["low"] / whole["normal"], "×"),
                     (f"{game}: --ink low / normal, pieces and boards", drawn["low"] / drawn["normal"], "×")]
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<55} {value:>8.3f} {unit}")
