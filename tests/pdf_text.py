"""A built PDF's text as PDFium reads it — a tenth of the time pdfplumber or pypdf take. A
table's cells come in PDFium's reading order, so tests compare words and phrases, not layout."""

from __future__ import annotations

from pathlib import Path

import pypdfium2


def pages_text(pdf: Path | bytes) -> list[str]:
    """Each page's text, as PDFium reads it."""
    document = pypdfium2.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


def pdf_words(pdf: Path | bytes) -> str:
    """Every page's words, one space apart (however lines and table cells break them)."""
    return " ".join(" ".join(text.split()) for text in pages_text(pdf))
