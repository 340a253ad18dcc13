"""Exports beyond the home printer, for the whole bundled kit: time per format, files and bytes
per print-shop profile, Tabletop Simulator sheets per deck, and the ink saver's coverage.

Figures: the wall time of a fresh build (in process, a new folder, so nothing from the cache)
with `--format pdf` and with each other format or profile added, and of building a few of them
again with nothing changed (everything from the cache); the files and megabytes each
profile writes; for every deck and money, how many TTS face sheets and their size in pixels and
kB; and each game's mean ink (`mean_ink`, as `bench_ink.py` measures it) over every page of its
combined file, normal and with `--ink low`.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

FORMATS = (("pdf", None), ("pdf,png", None), ("pdf,svg", None), ("pdf,tts", None), ("pdf", "tgc"), ("pdf", "mpc"),
           ("pdf", "dtc"), ("pdf", "pdf-trim"))


def main() -> list[tuple[str, float, str]]:
    from PIL import Image

    from pnp.build import build, with_print
    from pnp.render.png import mean_ink
    from pnp.rules import load_spec

    spec = load_spec(None)
    games = tuple(spec.games)
    rows: list[tuple[str, float, str]] = []
    with tempfile.TemporaryDirectory() as scratch:
        outs = {}
        for formats, profile in FORMATS:
            out = Path(scratch) / f"{formats}-{profile}".replace(",", "+")
            started = time.perf_counter()
            build(spec, out, games, tuple(formats.split(",")), profile=profile)
            rows.append((f"build with {formats}" + (f" --profile {profile}" if profile else ""),
                         time.perf_counter() - started, "s"))
            outs[(formats, profile)] = out
        for formats, profile in (("pdf", None), ("pdf,png", None), ("pdf", "tgc")):  # nothing changed: the cache
            started = time.perf_counter()
            build(spec, outs[(formats, profile)], games, tuple(formats.split(",")), profile=profile)
            rows.append((f"build again, nothing changed, with {formats}" + (f" --profile {profile}" if profile else ""),
                         time.perf_counter() - started, "s"))
        for _, profile in FORMATS:
            if profile:
                out = outs[("pdf", profile)]
                written = [p for g in games for p in (out / g / profile).rglob("*") if p.is_file()]
                rows.append((f"--profile {profile}: files", float(len(written)), "files"))
                rows.append((f"--profile {profile}: bytes", sum(p.stat().st_size for p in written) / 1e6, "MB"))
        tts = outs[("pdf,tts", None)]
        for game in games:
            save = json.loads((tts / game / f"{game}-tts.json").read_text(encoding="utf-8"))
            for deck in (o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"):
                sheets = [Path(url2pathname(urlparse(s["FaceURL"]).path)) for s in deck["CustomDeck"].values()]
                sizes = [Image.open(p).size for p in sheets]
                name = f"tts {game} {deck['Nickname'].split(' · ')[-1]}"
                rows.append((f"{name}: sheets of {len(deck['DeckIDs'])} cards", float(len(sheets)), "sheets"))
                rows.append((f"{name}: sheet width × height", float(sizes[0][0]), f"× {sizes[0][1]} px"))
                rows.append((f"{name}: sheet bytes", sum(p.stat().st_size for p in sheets) / 1e3, "kB"))
        low = Path(scratch) / "low"
        build(with_print(spec, ink_saver=True), low, games, ("pdf",))
        for game in games:
            normal = mean_ink(outs[("pdf", None)] / game / f"{game}-all.pdf")
            saver = mean_ink(low / game / f"{game}-all.pdf")
            rows += [(f"mean ink {game}, normal", normal, "of black"),
                     (f"mean ink {game}, --ink low", saver, "of black"),
                     (f"mean ink {game}, low / normal", saver / normal, "×")]
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<60} {value:>12.3f} {unit}")
