"""`pnp build` speed, incremental rebuilds, and the size of vector PDFs against the same cards
as images.

Figures: the wall time of building all three games as PDF (in process, best of three, and
once as a fresh `pnp build` command, imports included; target < 3 s on 2 cores); a rebuild
after one card value changed (a For-Ex dividend's payout), as a fresh command into the same
folder, against the cold build of that run (target ≤ 1/4); the pages and bytes written; and
how many times larger the Bolsa share deck becomes as 300-dpi images in a PDF (target ≥ 10×).
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 3
DPI = 300


def main() -> list[tuple[str, float, str]]:
    from pnp.build import build
    from pnp.rules import load_spec

    spec = load_spec(None)
    games = tuple(spec.games)
    with tempfile.TemporaryDirectory() as scratch:
        times, summary = [], None
        for run in range(RUNS):
            started = time.perf_counter()
            summary = build(spec, Path(scratch) / f"out{run}", games, ("pdf",))
            times.append(time.perf_counter() - started)
        out = Path(scratch) / "out0"
        pdf_bytes = sum(p.stat().st_size for p in out.rglob("*.pdf"))
        cold = _command(Path(scratch) / "cold")
        edited = Path(scratch) / "edited.yaml"
        edited.write_text(_one_card_value(), encoding="utf-8")
        incremental = _command(Path(scratch) / "cold", "--spec", str(edited))
        vector, raster = _vector_vs_raster(out / "bolsa" / "shares.pdf")
    return [
        ("build 3 games, PDF (best of 3)", min(times), "s"),
        ("pnp build command, fresh process", cold, "s"),
        ("same command after one card value changed", incremental, "s"),
        ("incremental / cold", incremental / cold, "×"),
        ("pages to print", float(summary.pages), "pages"),
        ("PDF bytes written", pdf_bytes / 1e6, "MB"),
        ("bolsa shares.pdf, vector", vector / 1e3, "kB"),
        (f"bolsa shares as {DPI}-dpi images", raster / 1e3, "kB"),
        ("images / vector", raster / vector, "×"),
    ]


def _command(out: Path, *options: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pnp", "build", "--out", str(out), *options], check=True, capture_output=True)
    return time.perf_counter() - started


def _one_card_value() -> str:
    """The bundled spec with one For-Ex dividend card paying 4 instead of 2."""
    from pnp.spec import bundled_spec_path

    text = bundled_spec_path().read_text(encoding="utf-8")
    old = '{value: "3", title: Dividend, text: "Pays {pays} per certificate", data: {pays: 2}}'
    assert old in text, "the benchmark's edit no longer matches the bundled spec"
    return text.replace(old, old.replace("pays: 2", "pays: 4"))


def _vector_vs_raster(pdf: Path) -> tuple[int, int]:
    """The deck's PDF size, and the size of the same pages rasterised at 300 dpi into an image
    PDF with pillow (what a scanned or image-based print-and-play file would weigh)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    images = [document[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(len(document))]
    buffer = io.BytesIO()
    images[0].save(buffer, "PDF", resolution=DPI, save_all=True, append_images=images[1:])
    return pdf.stat().st_size, len(buffer.getvalue())
