"""PNG backend: raster images rasterised from the PDF itself, so they cannot drift from it.

A drawing becomes a one-page PDF (trim plus bleed on every side, in memory, via `write_pdf`),
which pdfium rasterises; pillow saves the pixels with their dpi. Print-on-demand services get
cards with bleed at 300 dpi (a 63 × 88 mm card with 3 mm bleed → 69 × 94 mm → 815 × 1110 px),
and previews of whole pages come from the PDF files that were written. `mean_ink` measures how
much ink a PDF prints, to compare the ink saver with a normal build (`ink_coverage`: how much of
its paper gets any ink at all).
"""

from __future__ import annotations

import io
import os
import threading
from typing import Any, Sequence, Union

from pnp.display import Drawing, Page, place
from pnp.render.pdf import pdf_bytes

PdfSource = Union[bytes, str, "os.PathLike[str]"]


def drawing_png(drawing: Drawing, dpi: float = 300) -> bytes:
    """`drawing` with its bleed (trim + 2 × bleed on each axis) as PNG bytes at `dpi`."""
    return drawings_png([drawing], [dpi])[0]


def drawings_png(drawings: Sequence[Drawing], dpis: Sequence[float], *, jpeg: bool = False) -> list[bytes]:
    """Each drawing with its bleed as PNG bytes (or JPEG, for previews: a tenth of the time to
    encode) at its own dpi, rasterised from one PDF (a page each), so fonts and art are embedded
    once for all of them."""
    pages = [Page(d.width + 2 * d.bleed, d.height + 2 * d.bleed, (place(d, d.bleed, d.bleed),)) for d in drawings]
    return pages_png(pdf_bytes(pages, compress=False), list(enumerate(dpis)), jpeg=jpeg)


def page_png(pdf: PdfSource, index: int = 0, dpi: float = 150) -> bytes:
    """Page `index` (from 0) of a PDF, given as bytes or a path, as PNG bytes at `dpi`.

    The pixel size is the page size at `dpi`, rounded to whole pixels; the background is white.
    """
    return pages_png(pdf, [(index, dpi)])[0]


def pages_png(pdf: PdfSource, wanted: Sequence[tuple[int, float]], *, jpeg: bool = False) -> list[bytes]:
    """`page_png` for several (page index, dpi), the PDF opened once."""
    import pypdfium2

    source = bytes(pdf) if isinstance(pdf, (bytes, bytearray)) else os.fspath(pdf)
    with _pdfium:
        document = pypdfium2.PdfDocument(source)
        try:
            return [_raster(document[index], dpi, jpeg) for index, dpi in wanted]
        finally:
            document.close()


class _OneThread:
    """PDFium is not thread-safe, and the live preview pictures faces in its server's thread
    while a build may rasterise in the main one: one at a time. A forked worker starts with
    the lock free (the thread that held it is not there)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        os.register_at_fork(after_in_child=self._free)

    def _free(self) -> None:
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        self._lock.acquire()

    def __exit__(self, *_: object) -> None:
        self._lock.release()


_pdfium = _OneThread()


def _raster(page: Any, dpi: float, jpeg: bool = False) -> bytes:  # page: pypdfium2's, untyped
    width_pt, height_pt = page.get_size()
    scale = dpi / 72.0
    size = (round(width_pt * scale), round(height_pt * scale))
    bitmap = page.render(scale=scale, may_draw_forms=False, draw_annots=False)
    image = bitmap.to_pil().convert("RGB")
    image = image.crop((0, 0, *size))  # pdfium rounds the size up; keep the scale exact
    buffer = io.BytesIO()
    if jpeg:
        image.save(buffer, "JPEG", quality=90, dpi=(round(dpi), round(dpi)))
    else:
        image.save(buffer, "PNG", dpi=(dpi, dpi))
    return buffer.getvalue()


def mean_ink(pdf: PdfSource, dpi: int = 50) -> float:
    """The ink a PDF prints, as the mean over its pages of how dark they are: each pixel counts
    1 minus its brightness (0 for paper, 1 for black; a pale tint counts as little as it
    inks), rasterised at `dpi`. What the ink saver is measured by: `benchmarks/bench_ink.py`
    prints it, a test holds `--ink low` under a third of a normal build's."""
    import pypdfium2
    from PIL import ImageStat

    source = bytes(pdf) if isinstance(pdf, (bytes, bytearray)) else os.fspath(pdf)
    document = pypdfium2.PdfDocument(source)
    dark = []
    try:
        for page in document:
            grey = page.render(scale=dpi / 72.0, may_draw_forms=False).to_pil().convert("L")
            dark.append(1.0 - ImageStat.Stat(grey).mean[0] / 255.0)
    finally:
        document.close()
    return sum(dark) / len(dark) if dark else 0.0


NEAR_WHITE = 250  # a pixel whose every channel is this light or lighter counts as blank paper


def ink_coverage(pdf: PdfSource, dpi: int = 150) -> float:
    """The share of non-white pixels over every page of a PDF rasterised at `dpi`: 0 for blank
    paper, 1 for paper inked all over. Rasteriser noise (channels of `NEAR_WHITE` and above)
    is paper; a pale tint, an anti-aliased edge or a line counts in full, as any ink does."""
    import pypdfium2
    from PIL import ImageChops

    source = bytes(pdf) if isinstance(pdf, (bytes, bytearray)) else os.fspath(pdf)
    document = pypdfium2.PdfDocument(source)
    inked = total = 0
    try:
        for page in document:
            red, green, blue = page.render(scale=dpi / 72.0, may_draw_forms=False).to_pil().convert("RGB").split()
            histogram = ImageChops.darker(red, ImageChops.darker(green, blue)).histogram()
            total += sum(histogram)
            inked += sum(histogram[:NEAR_WHITE])
    finally:
        document.close()
    return inked / total if total else 0.0
