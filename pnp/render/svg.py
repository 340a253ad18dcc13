"""SVG backend: one page of display items → one SVG file, with svgwrite.

The document is `width`mm × `height`mm with a viewBox in millimetres, so one user unit is one
millimetre and every display-list number is written as it is: the same geometry as the PDF.
Text is SVG text in "DejaVu Sans" (font size converted from points to mm), or in a spec's own
font, which the page embeds (`@font-face`, a subset of the characters it sets in it, so any
viewer draws it); clip paths get ids numbered in document order, so the same page always gives
the same bytes.
"""

from __future__ import annotations

import base64
import io
import os
from typing import Any, BinaryIO, Iterator, Union

from pnp import fonts
from pnp.display import IDENTITY, Circle, Group, Image, Item, Line, Page, Polygon, Rect, Style, Text
from pnp.fonts import MM_PER_PT
from pnp.render.dispatch import Dispatch

Target = Union[str, "os.PathLike[str]", BinaryIO]


def write_svg(page: Page, target: Target) -> None:
    """Write `page` as an SVG to a path or a binary file; same page → same bytes.

    Raises `BuildError` if a text item uses a character its font cannot draw.
    """
    data = svg_bytes(page)
    if isinstance(target, (str, os.PathLike)):
        with open(target, "wb") as file:
            file.write(data)
    elif isinstance(target, io.TextIOBase):
        target.write(data.decode("utf-8"))
    else:
        target.write(data)


def svg_bytes(page: Page) -> bytes:
    """The SVG `write_svg` would write, in memory."""
    import svgwrite

    document = svgwrite.Drawing(
        size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"),
        viewBox=f"0 0 {_n(page.width)} {_n(page.height)}",
        profile="full",
        debug=False,
    )
    # PDF's default miter limit, so corners match; no kerning or ligatures, since the PDF
    # (and the text fitting) place glyphs by their plain advance widths
    root = document.g(
        style="font-kerning:none;font-variant-ligatures:none", **{"stroke-miterlimit": "10"}
    )
    _Builder(document, page.label or "page").add_all(root, page.items)
    faces = _embedded_fonts(page.items)
    if faces:
        document.defs.add(document.style(faces))
    document.add(root)
    text: str = document.tostring()  # svgwrite ships no types
    return ('<?xml version="1.0" encoding="utf-8" ?>\n' + text + "\n").encode()


class _Builder:
    """Turns display items into svgwrite elements, numbering clip paths in order."""

    def __init__(self, document: Any, where: str) -> None:
        self.document = document
        self.where = where  # names the page in errors
        self.clips = 0

    def add_all(self, parent: Any, items: tuple[Item, ...]) -> None:
        for item in items:
            element = _ELEMENT(self, item)
            if element is not None:  # an empty text or an unstroked line draws nothing
                parent.add(element)

    def image(self, item: Image) -> Any:
        """SVG art stays vector: an SVG document in the data URL."""
        mime = {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}[item.format]
        href = f"data:{mime};base64," + base64.b64encode(item.data).decode("ascii")
        return self.document.image(
            href, insert=(_n(item.x), _n(item.y)), size=(_n(item.w), _n(item.h)), preserveAspectRatio="none"
        )

    def rect(self, item: Rect) -> Any:
        extra = {"rx": _n(item.radius), "ry": _n(item.radius)} if item.radius > 0 else {}
        return self.document.rect(
            insert=(_n(item.x), _n(item.y)), size=(_n(item.w), _n(item.h)), **extra, **_style(item.style)
        )

    def line(self, item: Line) -> Any:
        if not item.style.stroke:
            return None
        return self.document.line((_n(item.x1), _n(item.y1)), (_n(item.x2), _n(item.y2)), **_style(item.style))

    def circle(self, item: Circle) -> Any:
        return self.document.circle(center=(_n(item.cx), _n(item.cy)), r=_n(item.r), **_style(item.style))

    def polygon(self, item: Polygon) -> Any:
        points = [(_n(x), _n(y)) for x, y in item.points]
        shape = self.document.polygon if item.closed else self.document.polyline
        return shape(points, **_style(item.style))

    def group(self, group: Group) -> Any:
        attributes = {}
        if group.transform != IDENTITY:
            a, b, c, d, e, f = group.transform
            numbers = [_n(v, 8) for v in (a, b, c, d)] + [_n(e), _n(f)]
            attributes["transform"] = f"matrix({' '.join(numbers)})"
        if group.clip is not None:
            self.clips += 1
            clip_id = f"clip{self.clips}"
            clip_path = self.document.clipPath(id=clip_id, clipPathUnits="userSpaceOnUse")
            clip = group.clip
            rounded = {"rx": _n(clip.radius), "ry": _n(clip.radius)} if clip.radius > 0 else {}
            clip_path.add(
                self.document.rect(
                    insert=(_n(clip.x), _n(clip.y)), size=(_n(clip.w), _n(clip.h)), **rounded
                )
            )
            self.document.defs.add(clip_path)
            attributes["clip-path"] = f"url(#{clip_id})"
        element = self.document.g(**attributes)
        self.add_all(element, group.items)
        return element

    def text(self, text: Text) -> Any:
        if not text.text:
            return None
        fonts.check_glyphs(text.text, text.font, self.where)
        face = fonts.font(text.font)
        attributes = {
            "font-family": f"{face.file}, {face.family}" if face.added else fonts.FAMILY,
            "font-size": _n(text.size * MM_PER_PT),
            "fill": text.color,
        }
        if text.outline:
            attributes |= {"fill": "none", "stroke": text.color, "stroke-width": _n(text.outline)}
        if text.font == "bold":
            attributes["font-weight"] = "bold"
        if text.anchor != "start":
            attributes["text-anchor"] = text.anchor
        if text.text != " ".join(text.text.split()):  # keep the spaces the PDF keeps
            attributes["xml:space"] = "preserve"
        return self.document.text(text.text, insert=(_n(text.x), _n(text.y)), **attributes)


_ELEMENT: Dispatch[_Builder, Any] = Dispatch({
    Rect: _Builder.rect, Line: _Builder.line, Polygon: _Builder.polygon, Circle: _Builder.circle,
    Text: _Builder.text, Image: _Builder.image, Group: _Builder.group,
})  # each an svgwrite element, or None for what draws nothing


def _embedded_fonts(items: tuple[Item, ...]) -> str:
    """The `@font-face` rules for the spec fonts the page sets text in: each a subset holding
    its characters, named by its logical name (which the text's font-family names first)."""
    used: dict[str, str] = {}
    for item in _texts(items):
        face = fonts.font(item.font)
        if face.added:
            used[face.file] = used.get(face.file, "") + item.text
    rules = []
    for name in sorted(used):
        data = base64.b64encode(fonts.subset(name, used[name])).decode("ascii")
        rules.append(f"@font-face{{font-family:{name};src:url(data:font/ttf;base64,{data}) format('truetype')}}")
    return "\n".join(rules)


def _texts(items: tuple[Item, ...]) -> Iterator[Text]:
    for item in items:
        if isinstance(item, Group):
            yield from _texts(item.items)
        elif isinstance(item, Text):
            yield item


def _style(style: Style) -> dict[str, str]:
    """SVG presentation attributes for a display style (opacity per paint, as in the PDF)."""
    attributes = {"fill": style.fill or "none"}
    if style.stroke:
        attributes["stroke"] = style.stroke
        attributes["stroke-width"] = _n(style.width)
        if style.dash:
            attributes["stroke-dasharray"] = " ".join(_n(v) for v in style.dash)
    if style.opacity != 1.0:
        if style.fill:
            attributes["fill-opacity"] = _n(style.opacity)
        if style.stroke:
            attributes["stroke-opacity"] = _n(style.opacity)
    return attributes


def _n(value: float, decimals: int = 4) -> str:
    """A number in at most 4 decimals (0.1 µm), without trailing zeros: compact and stable."""
    text = f"{value:.{decimals}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
