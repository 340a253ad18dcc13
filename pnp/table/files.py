"""The files `pnp table` keeps beside a record, and how each is written.

For `tonight.yaml` (the record, a plain record anyone may read and `pnp referee check`):

- `.tonight.yaml.lock`: held (an OS lock) by the one `pnp table` serving the record, with its
  process id in it, so a second server refuses to start and says which process holds it.
- `.tonight.yaml.seats`: each seat's token, the host's and the board's, made once, so links
  stay the same across restarts (until the host reissues one), and the seats a bot plays.
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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from pnp.disk import write_atomically as write_atomically  # the table's one writer: the record's too (pnp.table.game)
from pnp.errors import UsageError

LogLine = Mapping[str, Any]  # one line of the table's log, as its JSON reads
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
    """The host's token, one per seat and the board's (the room's screen), as kept in
    `.RECORD.seats`, with the bots seated (seat → the bot's name, `search`)."""

    host: str
    seats: tuple[tuple[str, str], ...]  # (player, token) in seating order
    board: str = ""
    bots: tuple[tuple[str, str], ...] = ()  # (player, bot) for the seats a bot plays

    def of(self, player: str) -> str:
        return dict(self.seats)[player]

    def as_json(self) -> dict[str, Any]:
        return {"host": self.host, "seats": dict(self.seats), "board": self.board, "bots": dict(self.bots)}


def seat_tokens(record: Path, players: Sequence[str], fresh: bool = False,
                bots: Mapping[str, str] | None = None) -> Tokens:
    """The tokens beside the record, made (and kept) for players that have none yet; a seat
    the record no longer has is dropped. The file is readable only by its owner. `fresh`: new
    tokens for everyone (a new game under an old record's name gets links of its own). `bots`:
    the seats a bot plays (default: those the file names)."""
    kept = _read_seats(record, fresh)
    listed = kept.get("seats")
    old: Mapping[str, Any] = listed if isinstance(listed, Mapping) else {}
    seats = tuple((p, _kept_token(old.get(p))) for p in players)
    seated: Mapping[str, Any] = kept.get("bots", {}) if bots is None and isinstance(kept.get("bots"), Mapping) \
        else bots or {}
    tokens = Tokens(_kept_token(kept.get("host")), seats, _kept_token(kept.get("board")),
                    tuple((p, seated[p]) for p in players if isinstance(seated.get(p), str)))
    if kept != tokens.as_json() or _readable_by_others(beside(record, "seats")):
        _write_seats(record, tokens)
    return tokens


def reissue(record: Path, tokens: Tokens, who: str) -> Tokens:
    """A new token for `who` (a player, "host" or "board"): the old link stops working."""
    if who == "host":
        made = replace(tokens, host=_token())
    elif who == "board":
        made = replace(tokens, board=_token())
    elif who in dict(tokens.seats):
        made = replace(tokens, seats=tuple((p, _token() if p == who else t) for p, t in tokens.seats))
    else:
        raise KeyError(who)
    _write_seats(record, made)
    return made


def _read_seats(record: Path, fresh: bool) -> dict[str, Any]:
    path = beside(record, "seats")
    try:
        kept = {} if fresh else json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise UsageError(f"{path}: unreadable ({error}); remove it to make new links for every seat") from None
    return kept if isinstance(kept, dict) else {}


def _write_seats(record: Path, tokens: Tokens) -> None:
    data = json.dumps(tokens.as_json(), ensure_ascii=False, indent=1) + "\n"
    write_atomically(beside(record, "seats"), data.encode(), PRIVATE)


def _kept_token(kept: Any) -> str:
    """A token read from the file, or a new one where it has none."""
    return kept if isinstance(kept, str) and kept else _token()


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
