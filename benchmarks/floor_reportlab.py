"""The floor a cold `pnp build` is measured against: as many pages of cards drawn straight with
reportlab as the build prints, with nothing of pnp — per page nine 63 × 88 mm cards, each a
coloured rectangle with a frame, a title, a value and two lines of small print in an embedded
TrueType font (DejaVu Sans, as the kit uses), crop marks, and a footer.

    python benchmarks/floor_reportlab.py PAGES OUT.pdf
"""

from __future__ import annotations

import sys
from pathlib import Path

FONTS = Path(__file__).resolve().parents[1] / "pnp" / "data" / "fonts"
MM = 72 / 25.4
COLOURS = ("#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7", "#56b4e9")


def draw(pages: int, out: Path) -> None:
    from reportlab.lib.colors import HexColor
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(TTFont("DejaVu", str(FONTS / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("DejaVu-Bold", str(FONTS / "DejaVuSans-Bold.ttf")))
    canvas = Canvas(str(out), pagesize=(210 * MM, 297 * MM), invariant=1)
    for page in range(pages):
        for slot in range(9):
            x, y = (10 + (slot % 3) * 64) * MM, (15 + (slot // 3) * 89) * MM
            canvas.setFillColor(HexColor(COLOURS[(page + slot) % len(COLOURS)]))
            canvas.rect(x, y, 63 * MM, 88 * MM, stroke=0, fill=1)
            canvas.setFillColor(HexColor("#ffffff"))
            canvas.setStrokeColor(HexColor("#1a1a1a"))
            canvas.roundRect(x + 3 * MM, y + 3 * MM, 57 * MM, 82 * MM, 3 * MM, stroke=1, fill=1)
            canvas.setFillColor(HexColor("#1a1a1a"))
            canvas.setFont("DejaVu-Bold", 14)
            canvas.drawCentredString(x + 31.5 * MM, y + 74 * MM, f"Company {slot + 1}")
            canvas.setFont("DejaVu-Bold", 40)
            canvas.drawCentredString(x + 31.5 * MM, y + 40 * MM, str((page * 9 + slot) % 100))
            canvas.setFont("DejaVu", 7)
            canvas.drawCentredString(x + 31.5 * MM, y + 12 * MM, "Pays 2 per certificate at the end of a round;")
            canvas.drawCentredString(x + 31.5 * MM, y + 9 * MM, "keep it face up in front of you.")
            for mx, my in ((x, y), (x + 63 * MM, y), (x, y + 88 * MM), (x + 63 * MM, y + 88 * MM)):
                canvas.line(mx - 3 * MM, my, mx - 1 * MM, my)
                canvas.line(mx, my - 3 * MM, mx, my - 1 * MM)
        canvas.setFont("DejaVu", 6)
        canvas.drawString(10 * MM, 6 * MM, f"Floor — page {page + 1} · pnp 0.0 · 00000000")
        canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    draw(int(sys.argv[1]), Path(sys.argv[2]))
