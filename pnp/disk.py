"""The user's files on disk: read within bounds, written all or nothing.

Every file pnp reads may come from anywhere — a shared folder, a forum, an archive — and every
file it saves is someone's work. Two rules follow, kept here once for every reader and writer:

- **A read is bounded.** `read_regular` reads a regular file only (a folder, a FIFO, a device
  such as `/dev/zero`, a socket are refused without reading a byte: a pipe may never end, a
  device never stops) and at most `limit` bytes of it, whatever the file system says its size
  is. A symlink is followed; where it may lead is the caller's to check (`inside`).
  `read_capped` reads whatever the path is — the spec or a record may come through
  `/dev/stdin` — at most `limit` bytes of it, never waiting on a FIFO nobody writes to;
  `read_json` reads a regular file's JSON nested at most so deep.
- **A save is atomic.** `write_atomically` writes a temporary file in the same folder
  (`.NAME.XXXX.tmp`), flushes it to disk, renames it over the old file and flushes the
  folder: a kill or a power cut at any instant leaves the old file or the new one, never a
  mix, and a temporary left by a killed run is harmless (the next run ignores it).

`output_file` checks a path the user names for pnp to write (`pnp schema -o FILE`): a file
name, not a folder, a device or the root, each part a name the file system takes.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, TypeGuard

from pnp.errors import UsageError

NAME_MAX = 255  # bytes of one name in a path (Linux, macOS, Windows alike)
PATH_MAX = 4096  # bytes of a whole path
CHUNK = 1 << 20  # bytes read at a time


class NotAFile(OSError):
    """A path that is not a regular file (a folder, a FIFO, a device, a socket)."""


class TooLarge(OSError):
    """A file longer than the reader takes."""


def kind_of(mode: int) -> str:
    """What a file of `mode` is, in words: "a folder", "a FIFO (named pipe)", "a device", …"""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them: NotAFile (a folder:
    IsADirectoryError) before anything is opened when it is not a regular file, TooLarge when it
    holds more. Checked again once open, so a FIFO put in its place meanwhile cannot hold the
    reader."""
    _regular(os.stat(path).st_mode, path)
    return read_capped(path, limit, regular=True)


def read_capped(path: Path, limit: int, *, regular: bool = False) -> bytes:
    """At most `limit` bytes of `path`, whatever it is — a pipe (`/dev/stdin`), a device — and
    whatever the file system says its size is (a device says 0 and never ends): TooLarge beyond.
    Opened without waiting for a writer, so a FIFO nobody writes to is read as empty rather than
    waited on forever. `regular`: refuse anything but a regular file (NotAFile)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(fd).st_mode
        if regular:
            _regular(mode, path)
        elif stat.S_ISFIFO(mode):
            os.set_blocking(fd, True)  # a pipe with a writer: what it sends, to its end
        chunks, size = [], 0
        while size <= limit:  # in pieces: a read of `limit` bytes at once would reserve them all
            chunk = file.read(min(CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    data = b"".join(chunks)
    if len(data) > limit:
        raise TooLarge(errno.EFBIG, f"is larger than {limit:,} bytes", str(path))
    return data


def _regular(mode: int, path: Path) -> None:
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
    if not stat.S_ISREG(mode):
        raise NotAFile(errno.EINVAL, f"is {kind_of(mode)}, not a file", str(path))


class NotJSON(ValueError):
    """A file that is not JSON pnp reads: the message says why ("not JSON (line 3)", "its JSON
    nests deeper than 12")."""


def read_json(path: Path, limit: int, depth: int) -> Any:
    """The JSON value of the regular file `path` of at most `limit` bytes, nested at most `depth`
    deep: OSError as `read_regular` raises it, NotJSON for text that is no JSON or nests deeper
    (found without recursion, whatever the nesting)."""
    try:
        found = json.loads(read_regular(path, limit))
    except RecursionError:
        raise NotJSON(f"its JSON nests deeper than {depth}") from None
    except ValueError as error:
        raise NotJSON(f"not JSON (line {error.lineno})" if isinstance(error, json.JSONDecodeError) else "not JSON") \
            from None
    stack = [(found, 1)]
    while stack:
        item, level = stack.pop()
        if level > depth:
            raise NotJSON(f"its JSON nests deeper than {depth}")
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, level + 1) for child in children if isinstance(child, (dict, list)))
    return found


def whole(value: object, low: int, high: int) -> TypeGuard[int]:
    """A whole number read from JSON (true and false are no numbers) from `low` to `high`: the
    one test of every count a manifest, a shard or a posted form holds."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def said(error: OSError) -> str:
    """Why a file could not be read, as a predicate of it: "is a folder", "is a FIFO (named
    pipe), not a file", "is larger than 2,000,000 bytes", "does not exist", "cannot be read
    (Permission denied)"."""
    if isinstance(error, (NotAFile, TooLarge, IsADirectoryError)):
        return str(error.strerror)
    if isinstance(error, FileNotFoundError):
        return "does not exist"
    return f"cannot be read ({error.strerror or error})"


def inside(path: Path, folder: Path) -> bool:
    """Whether `path`, its symlinks followed, is within `folder` (its symlinks followed too)."""
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder))
    except (OSError, ValueError):
        return False


def write_atomically(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace `path` with `data`, all or nothing: a temporary file beside it, flushed to disk,
    renamed over it, the folder flushed. `mode`: the new file's permissions (default: those of
    the file it replaces, else what the umask gives a new file)."""
    if mode is None:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except OSError:
            mode = 0o666 & ~_umask()
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            if hasattr(os, "fchmod"):  # not on Windows
                os.fchmod(file.fileno(), mode)
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename) to disk, where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def checked_name(text: str, what: str) -> Path:
    """`text` as a path whose every part the file system can take (no NUL, no name over
    NAME_MAX bytes, the whole under PATH_MAX); UsageError naming `what` (`--out`) otherwise."""
    if "\x00" in text:
        raise UsageError(f"{what}: a path cannot hold a NUL character")
    size = len(os.fsencode(text))
    if size >= PATH_MAX:
        raise UsageError(f"{what}: a path of {size:,} bytes; the file system takes at most {PATH_MAX - 1:,}")
    for part in Path(text).parts:
        size = len(os.fsencode(part))
        if size > NAME_MAX:
            raise UsageError(f"{what}: a name of {size:,} bytes ({part[:20]}…); the file system takes at most "
                             f"{NAME_MAX} a name")
    return Path(text)


def output_file(text: str, what: str) -> Path:
    """The file `text` names for pnp to write, or UsageError (one line, naming `what`) when it
    cannot be one: empty, a folder (`.`, `/`, a name ending in `/`), a device or a FIFO, in a
    folder that does not exist, or a name the file system would not take."""
    if not text.strip():
        raise UsageError(f"{what}: give a file name, e.g. {what} components.schema.json")
    path = checked_name(text, what)
    if text.endswith(("/", os.sep)) or path.name in ("", ".", ".."):
        raise UsageError(f"{what} {text}: is a folder; name a file (e.g. {text.rstrip('/')}/components.schema.json)")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise UsageError(f"{what} {text}: {error.strerror or error}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise UsageError(f"{what} {text}: is {kind_of(mode)}; name a file")
    if not path.absolute().parent.is_dir():
        raise UsageError(f"{what} {text}: no folder {path.parent} to write it in")
    return path
