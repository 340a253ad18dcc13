"""The files `pnp table` keeps beside a record, and how each is written.

For `tonight.yaml` (the record, a plain record anyone may read and `pnp referee check`):

- `.tonight.yaml.lock`: held (an OS lock) by the one `pnp table` serving the record, with its
  process id in it, so a second server refuses to start and says which process holds it.
- `.tonight.yaml.seats`: each seat's token and the host's, made once, so links stay the same
  across restarts.
- `.tonight.yaml.journal`: the table's whole state after its last change — the record's text,
  the sealed entries still waiting to be revealed, and the log lines of that change — written
  before the record. A crash between the two is rolled forward at the next start, so the
  record, the waiting entries and the log always change together.
- `.tonight.yaml.log`: who entered what, and when, one JSON line per change.

Every file but the record is readable only by its owner (it holds tokens, or secrets not yet
revealed). Every write is atomic (`pnp.disk.write_atomically`: a temporary file in the same
folder, flushed to disk, renamed over the old one; the folder flushed too), so a reader or a
crash sees the old file or the new.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pnp.disk import write_atomically
from pnp.errors import UsageError

PRIVATE = 0o600  # what the files beside the record are made with: the owner reads and writes
TOKEN_BYTES = 16  # a seat's token: 128 random bits, 22 characters in a link


def beside(record: Path, suffix: str) -> Path:
    """The hidden file `.RECORD.suffix` in the record's folder."""
    return record.with_name(f".{record.name}.{suffix}")


def sweep_temporaries(record: Path) -> int:
    """Remove what a killed `write_atomically` of the record or of a file beside it left (its
    temporary files, `.NAME.*.tmp`). Called with the lock held: no other table is writing them.
    Returns how many were removed."""
    removed = 0
    for pattern in (f".{record.name}.*.tmp", f"..{record.name}.*.tmp"):
        for stale in record.parent.glob(pattern):
            stale.unlink(missing_ok=True)
            removed += 1
    return removed


# --- one server per record ------------------------------------------------------------------------


class RecordLock:
    """An exclusive OS lock on `.RECORD.lock`, held while a table serves the record. The lock
    goes with the process (a crash, even SIGKILL, frees it); the file stays, naming the last
    holder, and is never removed (removing it would let two servers lock two different files)."""

    def __init__(self, record: Path):
        self.path = beside(record, "lock")
        self.record = record
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Hold the lock, or UsageError naming the process that holds it."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, PRIVATE)
        file = os.fdopen(fd, "r+", encoding="utf-8")
        if not _try_lock(file):
            holder = file.read(200).split()
            file.close()
            who = f"process {holder[0]}" if holder and holder[0].isdigit() else "another process"
            raise UsageError(f"{self.record} is served by another `pnp table` ({who}): stop it first, or open its "
                             "links; one table writes a record at a time")
        file.seek(0)
        file.truncate()
        file.write(f"{os.getpid()} {time.strftime('%Y-%m-%dT%H:%M:%S%z')}\n")
        file.flush()
        self._file = file
        sweep_temporaries(self.record)

    def release(self) -> None:
        if self._file is not None:
            _unlock(self._file)
            self._file.close()
            self._file = None


def _try_lock(file: IO[str]) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows: a lock on the file's first byte
        import msvcrt

        try:
            msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]  # Windows only
        except OSError:
            return False
        return True
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _unlock(file: IO[str]) -> None:
    try:
        import fcntl
    except ImportError:
        import msvcrt

        file.seek(0)
        msvcrt.locking(file.fileno(), msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]  # Windows only
        return
    fcntl.flock(file.fileno(), fcntl.LOCK_UN)


# --- the seats' tokens ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tokens:
    """The host's token and one per seat, as kept in `.RECORD.seats`."""

    host: str
    seats: tuple[tuple[str, str], ...]  # (player, token) in seating order

    def of(self, player: str) -> str:
        return dict(self.seats)[player]


def seat_tokens(record: Path, players: Sequence[str], fresh: bool = False) -> Tokens:
    """The tokens beside the record, made (and kept) for players that have none yet; a seat
    the record no longer has is dropped. The file is readable only by its owner. `fresh`: new
    tokens for everyone (a new game under an old record's name gets links of its own)."""
    path = beside(record, "seats")
    kept: Any = {}
    try:
        kept = {} if fresh else json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as error:
        raise UsageError(f"{path}: unreadable ({error}); remove it to make new links for every seat") from None
    if not isinstance(kept, dict):
        kept = {}
    host = kept.get("host") if isinstance(kept.get("host"), str) and kept.get("host") else _token()
    old = kept.get("seats") if isinstance(kept.get("seats"), Mapping) else {}
    seats = tuple((p, old[p] if isinstance(old.get(p), str) and old[p] else _token()) for p in players)
    tokens = Tokens(host, seats)
    wanted = {"host": tokens.host, "seats": dict(tokens.seats)}
    if kept != wanted or _readable_by_others(path):
        write_atomically(path, (json.dumps(wanted, ensure_ascii=False, indent=1) + "\n").encode(), PRIVATE)
    return tokens


def _token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def _readable_by_others(path: Path) -> bool:
    try:
        return bool(stat.S_IMODE(path.stat().st_mode) & 0o077)
    except OSError:
        return False


# --- the journal and the log ----------------------------------------------------------------------


@dataclass(frozen=True)
class Journal:
    """The table after one change: the record's text then (and its hash, and the hash of the
    record before the change, to tell at start whether the record was written), the sealed
    entries waiting beside it, and that change's log lines."""

    change: int
    record_sha256: str
    previous_sha256: str
    record: str
    pending: tuple[Mapping[str, Any], ...]
    log: tuple[Mapping[str, Any], ...]

    def as_json(self) -> dict[str, Any]:
        return {"change": self.change, "record_sha256": self.record_sha256, "previous_sha256": self.previous_sha256,
                "record": self.record, "pending": list(self.pending), "log": list(self.log)}


def write_journal(record: Path, journal: Journal) -> None:
    write_atomically(beside(record, "journal"), json.dumps(journal.as_json(), ensure_ascii=False).encode(), PRIVATE)


def read_journal(record: Path) -> Journal | None:
    """The journal beside the record; None if there is none, or it cannot be read (it was
    written atomically, so only a hand's edit spoils it)."""
    try:
        data = json.loads(beside(record, "journal").read_text(encoding="utf-8"))
        return Journal(int(data["change"]), str(data["record_sha256"]), str(data["previous_sha256"]),
                       str(data["record"]), tuple(data["pending"]), tuple(data["log"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def read_log(record: Path) -> list[dict[str, Any]]:
    """Every complete line of the log (a line cut short by a crash is left out)."""
    try:
        text = beside(record, "log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    lines = []
    for line in text.split("\n"):
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            lines.append(item)
    return lines


def append_log(record: Path, lines: Sequence[Mapping[str, Any]]) -> None:
    """Add lines to the log, flushed to disk; a line a crash cut short is cut off first."""
    path = beside(record, "log")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE)
    with os.fdopen(fd, "r+b") as file:
        size = file.seek(0, os.SEEK_END)
        if size:
            file.seek(max(0, size - 1))
            if file.read(1) != b"\n":  # a partial line: keep up to the last complete one
                file.seek(0)
                body = file.read()
                file.seek(body.rfind(b"\n") + 1)
                file.truncate()
        file.seek(0, os.SEEK_END)
        file.write(b"".join(json.dumps(line, ensure_ascii=False).encode() + b"\n" for line in lines))
        file.flush()
        os.fsync(file.fileno())
