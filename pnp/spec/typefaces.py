"""The designer's fonts: the TrueType or OpenType files a game names (`fonts:`), read and checked.

A font file is read as an image is (`pnp.spec.images`): a clean path inside the spec's folder,
a regular file of bounded size, noted as an input of the spec (so a changed file rebuilds what
is set in it). It must be a font text can be set in (`pnp.fonts.font_problem`); once read it
is a logical font like the bundled ones (`pnp.fonts.add_font`), named by the digest of its
bytes. Text names a font of its game by the name the spec gives it (`font: display`), or the
bundled `regular` and `bold`; `game_fonts` resolves those names for the generators.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable

from pnp import disk, fonts
from pnp.errors import Issue
from pnp.spec.elements import named_fonts
from pnp.spec.images import ArtError, clean_path
from pnp.spec.model import BUNDLED_FONTS, Game
from pnp.spec.options import unknown_key_message
from pnp.spec.source import PathKey, Source, note_input

MAX_BYTES = 30_000_000  # a font with every CJK glyph is some 20 MB


class FontError(ValueError):
    """A font file that cannot be used; the message says why, for a located issue."""


def read_font(folder: Path, file: str) -> str:
    """The logical name of the checked font `file` (relative to `folder`), or FontError."""
    try:
        path = Path(folder) / clean_path(file)
    except ArtError as error:
        raise FontError(str(error)) from None
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise FontError(f"{file}: no such file (looked in {Path(folder).absolute()})") from None
    except OSError as error:
        raise FontError(f"{file}: cannot read: {error.strerror}") from None
    note_input(path)
    return _read(path, file, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _read(path: Path, file: str, mtime: int, size: int) -> str:
    """Cached by modification time and size, so a build reads each file once; read through
    `pnp.disk`'s bound like every file pnp reads (a FIFO or a device named as a font)."""
    try:
        data = disk.read_regular(path, MAX_BYTES)
    except OSError as error:
        raise FontError(
            f"{file}: {disk.said(error)}; expected a .ttf or .otf font of at most {MAX_BYTES:,} bytes"
        ) from None
    problem = fonts.font_problem(data)
    if problem:
        raise FontError(f"{file}: {problem}")
    return fonts.add_font(data, file)


def game_fonts(folder: Path, game: Game) -> dict[str, str]:
    """Each font name the game's texts may use → its logical font: the game's `fonts` (checked
    by `font_issues`) and the bundled ones."""
    named = {name: name for name in BUNDLED_FONTS}
    for name, font in game.fonts.items():
        regular = read_font(folder, font.file)
        named[name] = fonts.with_bold(regular, read_font(folder, font.bold)) if font.bold else regular
    return named


def font_issues(source: Source, folder: Path, where: PathKey, game: Game) -> Iterable[Issue]:
    """Every font file the game names is a font, and every element and card layout names a
    font it has."""
    for name, font in game.fonts.items():
        for field in ("file", "bold"):
            file = getattr(font, field)
            if file is None:
                continue
            try:
                read_font(folder, file)
            except FontError as error:
                here = where + ("fonts", name) + ((field,) if source.get(where + ("fonts", name, field)) else ())
                yield source.issue(here, str(error))
    known = [*game.fonts, *BUNDLED_FONTS]
    for index, component in enumerate(game.components):
        for path, name in named_fonts(component):
            if name not in known:
                yield source.issue(where + ("components", index) + path, unknown_key_message(name, known, "font"))
