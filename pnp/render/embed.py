"""Fonts in reportlab: each logical font registered once, under the postscript name in its file,
and embedded in every PDF as subsets named by their contents.

The metrics text is laid out with live in `pnp.fonts`, which needs no reportlab (`pnp validate`
and the referee never import it); what only drawing a PDF needs is here.
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from typing import Any, Sequence

from pnp import fonts

_REGISTERED: dict[str, str] = {}  # logical font (a file's) → the name reportlab knows it by


def register_reportlab(name: str) -> str:
    """Register a logical font with reportlab (once) and return its reportlab name: the
    postscript name in the font (a spec font whose name another font of the process took
    gets its digest after it)."""
    from reportlab.pdfbase import pdfmetrics

    file = fonts.file_part(name)
    known = _REGISTERED.get(file)
    if known is not None:
        return known
    postscript_name = fonts.font(file).postscript_name
    if postscript_name in _REGISTERED.values():
        postscript_name += "-" + file[len(fonts.ADDED_PREFIX):][:6]
    if postscript_name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(_tagged_font_class()(postscript_name, io.BytesIO(fonts.font_bytes(file))))
    _REGISTERED[file] = postscript_name
    return postscript_name


def subset_tag(postscript_name: str, code_points: Sequence[int]) -> str:
    """The six capital letters before "+" in an embedded subset's name, from a hash of the
    font and the characters it holds: different subsets get different names (reportlab numbers
    them AAAAAA, AAAAAB, … per file, so every file's first subset is "AAAAAA+DejaVuSans", which
    preflight tools flag and some drivers confuse once files are joined), equal ones the same."""
    digest = hashlib.sha256(f"{postscript_name}:{','.join(map(str, code_points))}".encode()).digest()
    return "".join(chr(ord("A") + byte % 26) for byte in digest[:6])


@lru_cache(maxsize=None)
def _tagged_font_class() -> type:
    """reportlab's TTFont, naming its subsets by `subset_tag`. reportlab builds the name from
    the module-level `SUBSETN(n)` while it writes the font objects, so that function is swapped
    for the length of that call only."""
    from reportlab.pdfbase import ttfonts

    class TaggedTTFont(ttfonts.TTFont):  # type: ignore[misc]  # reportlab ships no types: its classes are Any
        def addObjects(self, doc: Any) -> None:  # reportlab's name
            subsets = self.state[doc].subsets
            numbered = ttfonts.SUBSETN
            ttfonts.SUBSETN = lambda n: subset_tag(self.fontName, subsets[n]).encode("ascii")  # as registered: unique
            try:
                super().addObjects(doc)
            finally:
                ttfonts.SUBSETN = numbered

    return TaggedTTFont
