"""The designer's art files: safe relative paths, and PNG, JPEG or SVG read without a renderer.

A spec names its images by paths relative to its own folder (`logos/ibe.svg`), never by an
absolute path or one climbing out with `..`, so a spec folder can be zipped and shared; a
symlink inside it is followed only to a file inside it too. The spec layer checks each file
before anything is drawn: that it is a regular file (a folder, a FIFO or a device is refused
unread: `pnp.disk.read_regular`), and that it is a whole PNG (every chunk's checksum), a JPEG
with its frame header and end marker, or an SVG whose shape is known (a `viewBox`, or a width
and height), drawn in paths (no text, whose font a PDF could not embed), self-contained (no
links to other files) and written in finite numbers. Only the standard library is used, so
`pnp validate` stays light; the renderers decode the bytes later. Each `Art` carries the
SHA-256 of its bytes, so anything that hashes what is drawn also covers the art.

A raster's size is read from its header, so a decompression bomb (a small file that decodes to
gigabytes) is refused before a pixel is decoded: at most MAX_PIXELS pixels, what a board of A3
needs at 600 dpi, and MAX_DECODED bytes once decoded. The renderers hold Pillow to the same
pixel count (`MAX_PIXELS` is its decompression-bomb limit). Every bound is stated here once and
listed in docs/spec.md.
"""

from __future__ import annotations

import hashlib
import math
import re
import struct
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Literal
from xml.etree import ElementTree

from pnp.disk import inside, read_regular, said
from pnp.spec.source import note_input

Format = Literal["png", "jpeg", "svg"]  # what `_identify` recognises
MAX_BYTES = 50_000_000  # far above any card illustration
MAX_SVG_BYTES = 5_000_000  # of an SVG: vector art of a few thousand paths is a few hundred kB
A3_MM, MAX_DPI = (297.0, 420.0), 600  # the largest art pnp needs: a board of A3, printed at 600 dpi
MAX_PIXELS = round(A3_MM[0] / 25.4 * MAX_DPI) * round(A3_MM[1] / 25.4 * MAX_DPI)  # 7,016 × 9,921: 69.6 megapixels
MAX_DECODED = MAX_PIXELS * 4  # bytes a raster may decode to: that many pixels of 8-bit RGBA (278 MB)
MAX_SVG_NUMBER = 1e9  # any number an SVG writes, in its own units
MAX_SVG_ELEMENTS = 50_000  # of an SVG: each becomes a PDF path the renderer converts in Python
FORMATS = {"png": "PNG", "jpeg": "JPEG", "svg": "SVG"}
_SVG_UNITS_MM = {"": 25.4 / 96, "px": 25.4 / 96, "pt": 25.4 / 72, "pc": 25.4 / 6, "mm": 1.0, "cm": 10.0, "in": 25.4}


class ArtError(ValueError):
    """An image path or file that cannot be used; the message says why, for a located issue."""


@dataclass(frozen=True)
class Art:
    """One image file, checked: its format, its size and the digest of its bytes.

    `width` × `height` is the pixel size of a PNG or JPEG, and the natural size of an SVG in
    its own units (only its proportions matter: it is vector)."""

    file: str  # as the spec writes it, relative to the spec's folder
    format: Format
    width: float
    height: float
    digest: str  # SHA-256 of the bytes, hex
    data: bytes = field(repr=False, compare=False)
    bleed: Literal["cover", "extend"] = "cover"  # art to the bleed: enlarged over it, or cut to the trim and its edges mirrored

    @property
    def vector(self) -> bool:
        return self.format == "svg"

    @property
    def aspect(self) -> float:
        """Width over height."""
        return self.width / self.height


def clean_path(text: str) -> str:
    """`text` if it is a clean relative path inside the spec's folder, else ArtError."""
    if not text.strip():
        raise ArtError("expected a file name, e.g. logos/ibe.svg")
    if "\\" in text or re.match(r"^[A-Za-z]:", text) or text.startswith("/") or "\x00" in text:
        raise ArtError(f"{text!r}: use a path relative to the spec's folder, with / between folders")
    parts = PurePosixPath(text).parts
    if ".." in parts:
        raise ArtError(f"{text!r}: a file the spec names must be inside the spec's folder (no '..')")
    return text


def read_art(folder: Path, file: str) -> Art:
    """The checked image `file` (relative to `folder`), or ArtError saying what is wrong: the
    one reader of a spec's art, for every check and renderer."""
    path = Path(folder) / clean_path(file)
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise ArtError(f"{file}: no such file (looked in {Path(folder).absolute()})") from None
    except OSError as error:
        raise ArtError(f"{file}: cannot read: {error.strerror}") from None
    if not inside(path, folder):
        raise ArtError(f"{file}: a link to a file outside the spec's folder; copy the file into the folder")
    note_input(path)
    return _read(path, file, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _read(path: Path, file: str, mtime: int, size: int) -> Art:
    """Cached by modification time and size, so a build reads each file once."""
    try:
        data = read_regular(path, MAX_BYTES)
    except OSError as error:
        raise ArtError(f"{file}: {said(error)}" + (", expected an image file" if path.is_dir() else "")) from None
    format, (width, height) = _identify(data, file)
    if not (math.isfinite(width) and math.isfinite(height) and width > 0 and height > 0):
        raise ArtError(f"{file}: the image has no area ({width:g} × {height:g})")
    return Art(file, format, width, height, hashlib.sha256(data).hexdigest(), data)


def _bounded(file: str, width: int, height: int, channels: float) -> tuple[int, int]:
    """A raster's pixel size, if it decodes within MAX_PIXELS and MAX_DECODED (`channels`: bytes
    a pixel decodes to); else ArtError, before a pixel is decoded."""
    pixels = width * height
    if pixels > MAX_PIXELS:
        raise ArtError(f"{file}: {width:,} × {height:,} pixels ({pixels / 1e6:,.1f} megapixels); art has at most "
                       f"{MAX_PIXELS / 1e6:.1f} megapixels, an A3 board at {MAX_DPI} dpi (scale it down)")
    if pixels * channels > MAX_DECODED:
        raise ArtError(f"{file}: decodes to {pixels * channels / 1e6:,.0f} MB ({width:,} × {height:,} pixels of "
                       f"{channels:g} bytes); art decodes to at most {MAX_DECODED / 1e6:,.0f} MB (save it in 8 bits)")
    return width, height


def _identify(data: bytes, file: str) -> tuple[Format, tuple[float, float]]:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png", _png_size(data, file)
    if data.startswith(b"\xff\xd8"):
        return "jpeg", _jpeg_size(data, file)
    head = data[:1000].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<?xml", b"<svg", b"<!--", b"<!doctype svg")):
        if len(data) > MAX_SVG_BYTES:
            raise ArtError(f"{file}: an SVG of {len(data):,} bytes; at most {MAX_SVG_BYTES:,} (simplify its paths)")
        return "svg", _svg_size(data, file)
    raise ArtError(f"{file}: not a PNG, JPEG or SVG image")


_PNG_CHANNELS = {0: 1, 2: 3, 3: 3, 4: 2, 6: 4}  # colour type → channels decoded (a palette becomes RGB)


def _png_size(data: bytes, file: str) -> tuple[int, int]:
    """IHDR's width and height, after checking every chunk's CRC up to IEND (a whole file), and
    that the image decodes within bounds."""
    offset, size = 8, None
    while offset + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset : offset + 8])
        end = offset + 12 + length
        if end > len(data):
            break
        body = data[offset + 4 : offset + 8 + length]
        if zlib.crc32(body) != struct.unpack(">I", data[end - 4 : end])[0]:
            raise ArtError(f"{file}: damaged PNG (chunk {kind.decode('latin-1')!r} fails its checksum)")
        if kind == b"IHDR" and len(body) >= 14:
            width, height, depth, colour = struct.unpack(">IIBB", body[4:14])
            size = _bounded(file, width, height, _PNG_CHANNELS.get(colour, 4) * (2 if depth == 16 else 1))
        if kind == b"IEND":
            if size is None:
                break
            return size
        offset = end
    raise ArtError(f"{file}: damaged or truncated PNG")


_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(data: bytes, file: str) -> tuple[int, int]:
    """The frame header's width and height; the file must also end with its EOI marker."""
    if b"\xff\xd9" not in data[-4096:]:
        raise ArtError(f"{file}: truncated JPEG (no end marker)")
    offset = 2
    while offset + 4 <= len(data):
        if data[offset] != 0xFF:
            break
        marker = data[offset + 1]
        if marker == 0xFF:  # fill byte
            offset += 1
            continue
        length = struct.unpack(">H", data[offset + 2 : offset + 4])[0]
        if marker in _SOF and offset + 10 <= len(data):
            precision, height, width, components = struct.unpack(">BHHB", data[offset + 4 : offset + 10])
            return _bounded(file, width, height, components * (2 if precision > 8 else 1))
        if marker == 0xDA:  # start of scan: no frame header came first
            break
        offset += 2 + length
    raise ArtError(f"{file}: damaged JPEG (no frame header)")


def _svg_size(data: bytes, file: str) -> tuple[float, float]:
    """From `viewBox`, else from absolute `width` and `height` (mm; only the ratio is used)."""
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        raise ArtError(f"{file}: not readable SVG ({error})") from None
    if not root.tag.endswith("svg"):
        raise ArtError(f"{file}: not an SVG image (its root element is <{root.tag}>)")
    _check_elements(file, root)
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        try:
            return float(box[2]), float(box[3])
        except ValueError:
            pass
    width, height = (_length(root.get(name) or "") for name in ("width", "height"))
    if width is None or height is None:
        raise ArtError(f"{file}: an SVG needs a viewBox, or a width and height, so its shape is known")
    return width, height


def _check_elements(file: str, root: ElementTree.Element) -> None:
    """What SVG art may not hold (each an `ArtError`): more than MAX_SVG_ELEMENTS elements, text
    (the PDF could not embed its font), a reference to another file, a number not finite or
    beyond MAX_SVG_NUMBER."""
    for count, element in enumerate(root.iter(), 1):
        if count > MAX_SVG_ELEMENTS:
            raise ArtError(f"{file}: an SVG of more than {MAX_SVG_ELEMENTS:,} elements (simplify it)")
        tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
        if tag == "text":
            raise ArtError(f"{file}: has text; convert it to paths (Inkscape: Path > Object to Path), as the PDF "
                           "could not embed its font")
        href = element.get("href") or element.get("{http://www.w3.org/1999/xlink}href") or ""
        if tag in ("image", "use") and href and not href.startswith(("data:", "#")):
            raise ArtError(f"{file}: refers to another file ({href}); embed it or draw it in this SVG")
        _check_numbers(file, tag, element.attrib)


# the attributes an SVG writes numbers in (and `style`, whose declarations may): each number finite
_NUMERIC = frozenset({"viewBox", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry",
                      "d", "points", "transform", "gradientTransform", "patternTransform", "offset", "stroke-width",
                      "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "opacity", "fill-opacity",
                      "stroke-opacity", "stop-opacity", "font-size", "fx", "fy", "dx", "dy", "rotate", "style"})
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|\b(?:nan|inf|infinity)\b", re.IGNORECASE)


def _check_numbers(file: str, tag: str, attributes: dict[str, str]) -> None:
    """Every number an element writes is finite and within ±MAX_SVG_NUMBER (`viewBox="0 0 NaN
    NaN"`, a coordinate of 1e400 would reach the PDF as NaN or infinity)."""
    for name, value in attributes.items():
        name = name.rsplit("}", 1)[-1]
        if name not in _NUMERIC:
            continue
        for token in _NUMBER.findall(value):
            number = float(token)
            if not math.isfinite(number) or abs(number) > MAX_SVG_NUMBER:
                raise ArtError(f"{file}: <{tag[:20]}> {name}=\"{value[:40]}\" holds {token[:20]}; an SVG's numbers are "
                               f"finite and at most {MAX_SVG_NUMBER:,.0f}")


def _length(text: str) -> float | None:
    match = re.fullmatch(r"\s*([0-9.]+)\s*([a-z]*)\s*", text)
    if not match or match.group(2) not in _SVG_UNITS_MM:
        return None
    try:
        return float(match.group(1)) * _SVG_UNITS_MM[match.group(2)]
    except ValueError:
        return None
