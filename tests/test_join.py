"""PDFs joined at the object level (`pnp.render.join`): the pages of the parts, their content
and resources as written, in one file that a strict reader opens, with a bookmark per part;
another shape of PDF refused, never joined wrongly."""

from __future__ import annotations

import io

import pypdf
import pytest

from pnp.display import Group, Page, Rect, Style, Text
from pnp.render.join import join
from pnp.render.pdf import pdf_bytes


def pdf(label: str, pages: int, colour: str = "#0072b2") -> bytes:
    """A part of `pages` A6 pages, each with a text and a card drawn twice (a form XObject)."""
    card = Group((Rect(0, 0, 20, 30, Style(fill=colour)), Text(10, 15, f"{label} card", 6, "bold")))
    return pdf_bytes([Page(105, 148, (Text(10, 10, f"{label} page {n + 1} (x 0 R)", 9), card, card), label=label)
                      for n in range(pages)], title=f"{label} — alone", subject="test")


def read(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data), strict=True)


def contents(page: pypdf.PageObject) -> bytes:
    return page["/Contents"].get_object()._data


def test_the_pages_are_the_parts_pages_with_a_bookmark_each():
    first, second = pdf("Fichas", 2), pdf("Акции", 3, "#d55e00")
    joined = join([("Fichas (1)", first, None), ("Акции", second, [0, 2])], title="Бирже — imprimir", subject="bolsa")
    reader = read(joined)
    parts = [read(first).pages[0], read(first).pages[1], read(second).pages[0], read(second).pages[2]]
    assert [contents(p) for p in reader.pages] == [contents(p) for p in parts]
    for page, part in zip(reader.pages, parts, strict=True):
        assert page.mediabox == part.mediabox
        xobjects = page["/Resources"]["/XObject"]
        assert [xobjects[name].get_object()._data for name in xobjects] == \
            [part["/Resources"]["/XObject"][name].get_object()._data for name in xobjects]
        assert page["/Parent"].get_object()["/Count"] == 4
    assert [(item.title, reader.get_destination_page_number(item)) for item in reader.outline] == \
        [("Fichas (1)", 0), ("Акции", 2)]
    assert reader.metadata.title == "Бирже — imprimir" and reader.metadata.subject == "bolsa"
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert "x 0 R" in reader.pages[0].extract_text()  # a string that reads like a reference is left alone


def test_unused_objects_are_left_out_and_the_same_parts_give_the_same_bytes():
    part = pdf("Money", 4)
    one = join([("Money", part, [3])], title="t", subject="s")
    assert one == join([("Money", part, [3])], title="t", subject="s")
    reader = read(one)
    assert len(reader.pages) == 1 and contents(reader.pages[0]) == contents(read(part).pages[3])
    assert len(one) < len(join([("Money", part, None)], title="t", subject="s"))  # the other pages' streams dropped
    assert reader.trailer["/ID"][0] == reader.trailer["/ID"][1]


def test_a_pdf_of_another_shape_is_refused():
    good = pdf("Money", 1)
    at = good.rindex(b"startxref\n") + len(b"startxref\n")
    table = good.rindex(b"xref\n0 ") + len(b"xref\n0 ")
    entries = good.index(b"\n", table) + 1 + 20  # object 1's entry
    for bad in (b"%PDF-1.4\nnot a pdf",
                good[:at] + b"12" + good[at:],  # the table is not where the file says
                good[:entries] + b"0000000001" + good[entries + 10:]):  # nor object 1
        with pytest.raises(ValueError):
            join([("bad", bad, None)], title="t", subject="s")
