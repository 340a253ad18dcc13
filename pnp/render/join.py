"""PDFs joined at the object level: the pages of finished PDFs put into one file, each object
copied as the bytes it was written as, only its number and the numbers it refers to changed.

A game's combined print file and its reprint file hold the very pages of its component files
(`pnp.printfile`). Parsing each component PDF into objects and writing them out again (pypdf
did, a sixth of a one-card rebuild) is work for nothing: a page and the fonts, forms and
images it draws with are already written. So a part is read only as far as its cross-reference
table, which says where each object starts, and the head of each object its pages reach (the
dictionary before a stream's bytes), where references are renumbered; streams are copied
unread. The new file adds its own catalog, page tree, outline (a bookmark per part, at its
first page), document information and viewer preferences (print at 100 %).

Every PDF joined here is one `pnp.render.pdf` wrote (reportlab: a classic cross-reference
table, one page tree, each object's head plain text); another shape of PDF is refused with a
`ValueError`, never joined wrongly. Same parts → same bytes; the trailer's /ID is a digest of
the file. A print shop's output intent (PDF/X) would go in the catalog written here, the
parts' pages keeping their own trim and bleed boxes.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Sequence

Part = tuple[str, bytes, Sequence[int] | None]  # its bookmark's title, the PDF, its pages (0-based; None: all)

_XREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_SECTION = re.compile(rb"(\d+) (\d+) ?\r?\n")
# what an object's head is read for: strings (skipped whole: reportlab escapes their brackets),
# references, and where a stream begins (a hex string holds neither)
_TOKEN = re.compile(rb"\((?:[^()\\]|\\.)*\)|(\d+) 0 R\b|(?<=[\s>])stream(?=\r?\n)", re.S)
_OBJECT = re.compile(rb"(\d+) 0 obj\s*")
_KEY = {name: re.compile(rb"/" + name + rb"\s+(\d+) 0 R") for name in (b"Root", b"Pages")}
_KIDS = re.compile(rb"/Kids\s*\[([^\]]*)\]")
_PAGES_NODE = re.compile(rb"/Type\s*/Pages\b")


@dataclass(frozen=True)
class _Object:
    """One object of a part: its head (refs to renumber), its tail (a stream, copied as is),
    and the objects its head refers to."""

    head: bytes
    tail: bytes
    refs: tuple[int, ...]


class _Source:
    """A finished PDF read as far as joining needs: where each object is, its pages in order,
    and its page-tree nodes (which the combined file's one page tree replaces)."""

    def __init__(self, pdf: bytes) -> None:
        self.pdf = pdf
        self.offsets = _offsets(pdf)
        self._ends = dict(zip(sorted(self.offsets.values()), [*sorted(self.offsets.values())[1:], pdf.rfind(b"xref")],
                              strict=True))  # each object's start → where the next one starts
        self._read: dict[int, _Object] = {}
        trailer = pdf[pdf.rfind(b"trailer"):pdf.rfind(b"startxref")]
        root = self._key(_KEY[b"Root"], trailer)
        self.nodes: set[int] = set()
        self.pages = self._kids(self._key(_KEY[b"Pages"], self.object(root).head))

    def object(self, number: int) -> _Object:
        if number not in self._read:
            self._read[number] = self._parsed(number)
        return self._read[number]

    def _kids(self, node: int) -> list[int]:
        """The pages under a page-tree node, in order."""
        self.nodes.add(node)
        found = []
        head = self.object(node).head
        kids = _KIDS.search(head)
        if kids is None:
            raise ValueError("a page tree node without /Kids")
        for number in map(int, re.findall(rb"(\d+) 0 R", kids.group(1))):
            found += self._kids(number) if _PAGES_NODE.search(self.object(number).head) else [number]
        return found

    def _parsed(self, number: int) -> _Object:
        """Object `number` split into its head and its stream, with the references in its head."""
        start = self.offsets.get(number)
        header = _OBJECT.match(self.pdf, start) if start is not None else None
        if start is None or header is None or int(header.group(1)) != number:
            raise ValueError(f"object {number} is not where the cross-reference table says")
        body = self.pdf[header.end():self._ends[start]]
        body = body[:body.rfind(b"endobj")].rstrip()
        refs = []
        split = len(body)
        for token in _TOKEN.finditer(body):
            if token.group(1) is not None:
                refs.append(int(token.group(1)))
            elif token.group(0) == b"stream":
                split = token.start()
                break
        return _Object(body[:split], body[split:], tuple(refs))

    @staticmethod
    def _key(pattern: re.Pattern[bytes], head: bytes) -> int:
        found = pattern.search(head)
        if found is None:
            raise ValueError(f"no {pattern.pattern[1:6].decode()} reference where one belongs")
        return int(found.group(1))


def _put_outline(out: _Writer, outline: int, marks: Sequence[tuple[str, int]]) -> None:
    """The bookmarks: one item a (title, first page) of `marks`, each linked to the one before
    and after it, under the outline object `outline`."""
    items = [out.reserve() for _ in marks]
    for n, ((name, page), number) in enumerate(zip(marks, items, strict=True)):
        links = (b" /Prev %d 0 R" % items[n - 1] if n else b"") + (b" /Next %d 0 R" % items[n + 1] if n + 1 < len(items) else b"")
        out.put(number, b"<< /Title %s /Parent %d 0 R%s /Dest [ %d 0 R /Fit ] >>" % (_text(name), outline, links, page))
    first_last = b" /First %d 0 R /Last %d 0 R" % (items[0], items[-1]) if items else b""
    out.put(outline, b"<< /Type /Outlines /Count %d%s >>" % (len(items), first_last))


def join(parts: Sequence[Part], *, title: str, subject: str) -> bytes:
    """The parts' pages (all, or those listed) in one PDF, in order, each part bookmarked by
    its title at its first page."""
    out = _Writer()
    catalog, tree, outline, info = out.reserve(), out.reserve(), out.reserve(), out.reserve()
    kids: list[int] = []
    marks: list[tuple[str, int]] = []
    for name, pdf, wanted in parts:
        source = _Source(pdf)
        pages = [source.pages[i] for i in wanted] if wanted is not None else source.pages
        numbers = {node: tree for node in source.nodes}  # every page's parent is the new tree
        new_pages = [out.copy(source, page, numbers) for page in pages]
        if new_pages:
            marks.append((name, new_pages[0]))
        kids += new_pages
    out.put(tree, b"<< /Type /Pages /Count %d /Kids [ %s ] >>" % (len(kids), b" ".join(b"%d 0 R" % k for k in kids)))
    _put_outline(out, outline, marks)
    out.put(info, b"<< /Title %s /Subject %s /Creator (pnp) /Producer (pnp) >>" % (_text(title), _text(subject)))
    out.put(catalog, b"<< /Type /Catalog /Pages %d 0 R /Outlines %d 0 R /ViewerPreferences << /PrintScaling /None >> >>"
            % (tree, outline))
    return out.finish(catalog, info)


class _Writer:
    """The new file's objects, numbered as they are reserved or copied, written in number order."""

    def __init__(self) -> None:
        self.bodies: list[bytes | None] = []

    def reserve(self) -> int:
        self.bodies.append(None)
        return len(self.bodies)

    def put(self, number: int, body: bytes) -> None:
        self.bodies[number - 1] = body

    def copy(self, source: _Source, number: int, numbers: dict[int, int]) -> int:
        """Object `number` of `source` and everything it refers to (not yet copied: `numbers`,
        the part's old numbers → new), renumbered; returns its new number."""
        if number in numbers:
            return numbers[number]
        numbers[number] = self.reserve()
        todo = [number]
        while todo:  # depth first, each object once: the same part gives the same numbers
            old = todo.pop()
            found = source.object(old)
            for ref in found.refs:
                if ref not in numbers:
                    numbers[ref] = self.reserve()
                    todo.append(ref)
            self.put(numbers[old], _renumbered(found.head, numbers) + found.tail)
        return numbers[number]

    def finish(self, catalog: int, info: int) -> bytes:
        chunks = [b"%PDF-1.4\n%\x93\x8c\x8b\x9e pnp\n"]
        offsets, at = [], len(chunks[0])
        for number, body in enumerate(self.bodies, 1):
            assert body is not None, "every reserved object is written"
            chunk = b"%d 0 obj\n%s\nendobj\n" % (number, body)
            offsets.append(at)
            chunks.append(chunk)
            at += len(chunk)
        digest = hashlib.md5(b"".join(chunks), usedforsecurity=False).hexdigest().encode()
        table = b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
        chunks.append(b"xref\n0 %d\n0000000000 65535 f \n%s" % (len(offsets) + 1, table))
        chunks.append(b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /ID [ <%s> <%s> ] >>\nstartxref\n%d\n%%%%EOF\n"
                      % (len(offsets) + 1, catalog, info, digest, digest, at))
        return b"".join(chunks)


def _offsets(pdf: bytes) -> dict[int, int]:
    """Where each object in use starts, from the classic cross-reference table at the end."""
    end = _XREF.search(pdf, max(0, len(pdf) - 64))
    if end is None or not pdf.startswith(b"xref", int(end.group(1))):
        raise ValueError("not a PDF with a cross-reference table at its end")
    at = int(end.group(1)) + len(b"xref\n")
    offsets = {}
    while (section := _SECTION.match(pdf, at)) is not None:  # subsections: "first count", then 20 bytes an entry
        first, count = int(section.group(1)), int(section.group(2))
        at = section.end()
        for n in range(count):
            entry = pdf[at + 20 * n:at + 20 * n + 18]
            if entry[-1:] == b"n":
                offsets[first + n] = int(entry[:10])
        at += 20 * count
    return offsets


def _renumbered(head: bytes, numbers: dict[int, int]) -> bytes:
    """`head` with every reference (never a string's text) given its new number."""
    def new(token: re.Match[bytes]) -> bytes:
        return b"%d 0 R" % numbers[int(token.group(1))] if token.group(1) is not None else token.group(0)

    return _TOKEN.sub(new, head)


def _text(text: str) -> bytes:
    """A PDF text string: literal when it is printable ASCII, else UTF-16 with its byte-order mark."""
    if text.isascii() and text.isprintable():
        return b"(" + text.encode("ascii").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    return b"<" + ("\ufeff" + text).encode("utf-16-be").hex().upper().encode() + b">"
