"""The designer's art files: safe relative paths, and PNG, JPEG or SVG read without a renderer.

A spec names its images by paths relative to its own folder (`logos/ibe.svg`), never by an
absolute path or one climbing out with `..`, so a spec folder can be zipped and shared. The
spec layer checks each file before anything is drawn: that it exists, and that it is a whole
PNG (every chunk's checksum), a JPEG with its frame header and end marker, or an SVG whose
shape is known (a `viewBox`, or a width and height), drawn in paths (no text, whose font a PDF
could not embed) and self-contained (no links to other files). Only the standard library is used, so
`pnp validate` stays light; the renderers decode the bytes later. Each `Art` carries the
SHA-256 of its bytes, so anything that hashes what is drawn also covers the art.
"""

from __future__ import annotations

import hashlib
import re
import struct
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Literal
from xml.etree import ElementTree

from pnp.spec.source import note_input

Format = Literal["png", "jpeg", "svg"]  # what `_identify` recognises
MAX_BYTES = 50_000_000  # far above any card illustration
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
    """The checked image `file` (relative to `folder`), or ArtError saying what is wrong."""
    path = Path(folder) / clean_path(file)
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise ArtError(f"{file}: no such file (looked in {Path(folder).absolute()})") from None
    except OSError as error:
        raise ArtError(f"{file}: cannot read: {error.strerror}") from None
    note_input(path)
    return _read(path, file, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _read(path: Path, file: str, mtime: int, size: int) -> Art:
    """Cached by modification time and size, so a build reads each file once."""
    if path.is_dir():
        raise ArtError(f"{file}: is a folder, expected an image file")
    if size > MAX_BYTES:
        raise ArtError(f"{file}: too large ({size} bytes; at most {MAX_BYTES})")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ArtError(f"{file}: cannot read: {error.strerror}") from None
    format, (width, height) = _identify(data, file)
    if width <= 0 or height <= 0:
        raise ArtError(f"{file}: the image has no area ({width:g} × {height:g})")
    return Art(file, format, width, height, hashlib.sha256(data).hexdigest(), data)


def _identify(data: bytes, file: str) -> tuple[Format, tuple[float, float]]:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png", _png_size(data, file)
    if data.startswith(b"\xff\xd8"):
        return "jpeg", _jpeg_size(data, file)
    head = data[:1000].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<?xml", b"<svg", b"<!--", b"<!doctype svg")):
        return "svg", _svg_size(data, file)
    raise ArtError(f"{file}: not a PNG, JPEG or SVG image")


def _png_size(data: bytes, file: str) -> tuple[int, int]:
    """IHDR's width and height, after checking every chunk's CRC up to IEND (a whole file)."""
    offset, size = 8, None
    while offset + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset : offset + 8])
        end = offset + 12 + length
        if end > len(data):
            break
        body = data[offset + 4 : offset + 8 + length]
        if zlib.crc32(body) != struct.unpack(">I", data[end - 4 : end])[0]:
            raise ArtError(f"{file}: damaged PNG (chunk {kind.decode('latin-1')!r} fails its checksum)")
        if kind == b"IHDR":
            size = struct.unpack(">II", body[4:12])
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
        if marker in _SOF and offset + 9 <= len(data):
            height, width = struct.unpack(">HH", data[offset + 5 : offset + 9])
            return width, height
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
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""
        if tag == "text":
            raise ArtError(f"{file}: has text; convert it to paths (Inkscape: Path > Object to Path), as the PDF "
                           "could not embed its font")
        href = element.get("href") or element.get("{http://www.w3.org/1999/xlink}href") or ""
        if tag in ("image", "use") and href and not href.startswith(("data:", "#")):
            raise ArtError(f"{file}: refers to another file ({href}); embed it or draw it in this SVG")
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


def _length(text: str) -> float | None:
    match = re.fullmatch(r"\s*([0-9.]+)\s*([a-z]*)\s*", text)
    if not match or match.group(2) not in _SVG_UNITS_MM:
        return None
    try:
        return float(match.group(1)) * _SVG_UNITS_MM[match.group(2)]
    except ValueError:
        return None
