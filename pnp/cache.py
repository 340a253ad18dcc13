"""pnp's caches: what was computed, kept under a key of everything it depends on.

One abstraction serves both caches — the build cache in `<out>/.cache/` and the
engine-parameter cache in `~/.cache/pnp` (`pnp.referee.params`):

- **Keys.** `key(*parts)` is the digest of JSON-able parts. The code that computes an entry is
  always a part (`code_version` of the packages it comes from, `function_name` of the function
  that drew it), so new code never reads an old entry.
- **Entries and blobs.** An entry is a note, a small JSON value named `<kind>-<key>`. Bytes in
  it (a `Blob`: a PDF, a picture, pickled parameters) are kept beside it as blobs, files named
  by their SHA-256 and checked against it when read.
- **Invalidation.** Whatever is known before computing goes into the key. Files found only
  while computing (the card lists and images a spec reads) are recorded with the entry
  (`put(..., depends=paths)`): an entry whose files no longer have those bytes is a miss.
  A missing, damaged or foreign entry is a miss too, never an error.
- **Stores.** Where the files live: `BuildStore` reads the output folder's cache and writes a
  new one beside the new output (replaced with it atomically; it keeps what this build and the
  previous build of the same games used, so an edit and its undo are both cached);
  `FolderStore` writes a folder in place, one file at a time, atomically, and drops its
  oldest notes beyond a number.

`Cache.recall` is the one wrapper a stage goes through: the entry if the cache holds it, else
the stage's result, kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Protocol, TypeVar

from pnp.disk import read_regular

FOLDER = ".cache"  # the build cache, inside an output folder
USED = "used.json"  # which game used which of its files
T = TypeVar("T")


# --- keys -------------------------------------------------------------------------------------


def key(*parts: Any) -> str:
    """A cache key: the digest of JSON-able parts (anything else by its repr)."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


@lru_cache(maxsize=None)
def code_version(*packages: str) -> str:
    """A digest of pnp's code (its page templates too), fonts and rules texts (only these subpackages of `pnp` when
    given): a change to the code that computes an entry starts that cache afresh (the version
    number alone would not, during development); the rules files give the booklets' headings."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for folder in [root / p for p in packages] or [root]:
        for path in sorted(p for p in folder.rglob("*") if p.suffix in (".py", ".ttf", ".md", ".html") and p.is_file()):
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def function_name(function: Callable[..., Any]) -> str:
    """The qualified name of a function whose results are cached: part of their keys, so a
    different function (a plug-in, a test's stand-in) never reads another one's entries."""
    return f"{function.__module__}.{function.__qualname__}"


MAX_DEPENDED = 1 << 30  # bytes of a file an entry depends on that are read to digest it


def file_digest(path: Path) -> str | None:
    """The SHA-256 of a regular file's bytes; None for anything else (missing, a FIFO, a
    device: read, they would never end)."""
    try:
        return hashlib.sha256(read_regular(path, MAX_DEPENDED)).hexdigest()
    except OSError:
        return None


def file_digests(files: Iterable[Path]) -> dict[str, str | None]:
    """What an entry computed from `files` stays valid while: each file's digest now."""
    return {str(f): file_digest(f) for f in dict.fromkeys(files)}


def unchanged(digests: Mapping[str, str | None]) -> bool:
    """Whether every file still has the digest `file_digests` gave it."""
    return all(file_digest(Path(f)) == d for f, d in digests.items())


# --- stores -----------------------------------------------------------------------------------


class Store(Protocol):
    """Where a cache's files live: whole files by plain name, each used by a group (a game)."""

    def read(self, group: str, name: str) -> bytes | None: ...

    def write(self, group: str, name: str, data: bytes) -> None: ...


class BuildStore:
    """The build cache: read from the output folder being replaced (`earlier`, its `.cache`),
    written with the new output by `save`. Until then what a build adds is held in memory."""

    def __init__(self, earlier: Path | None = None) -> None:
        self.earlier = earlier
        self.added: dict[str, bytes] = {}
        self.used: dict[str, set[str]] = {}

    def read(self, group: str, name: str) -> bytes | None:
        data = self.added.get(name)
        if data is None and self.earlier is not None:
            try:
                data = (self.earlier / name).read_bytes()
            except OSError:
                return None
        if data is not None:
            self.used.setdefault(group, set()).add(name)
        return data

    def write(self, group: str, name: str, data: bytes) -> None:
        self.added[name] = data
        self.used.setdefault(group, set()).add(name)

    def save(self, folder: Path, built: set[str]) -> None:
        """Write `folder`: what this build used or added, what the previous build of the games
        in `built` used, and every file of the other games; and `used.json`."""
        folder.mkdir()
        earlier = self._earlier_use()
        record = {group: set(names) for group, names in earlier.items() if group not in built}
        keep = {name for names in earlier.values() for name in names}
        for group, names in self.used.items():
            record.setdefault(group, set()).update(names)
            keep |= names
        for name in sorted(keep):
            self._keep(folder, name)
        text = json.dumps({group: sorted(names) for group, names in sorted(record.items())}, indent=1)
        (folder / USED).write_text(text + "\n", encoding="utf-8")

    def _keep(self, folder: Path, name: str) -> None:
        """A file into the new folder: as this build added it, else linked from the earlier
        build's folder (nothing when neither has it)."""
        from pnp.manifest import link_or_copy

        if name in self.added:
            (folder / name).write_bytes(self.added[name])
        elif self.earlier is not None and (self.earlier / name).is_file():
            link_or_copy(self.earlier / name, folder / name)

    def _earlier_use(self) -> dict[str, list[str]]:
        data = _json(self.earlier / USED) if self.earlier is not None else None
        if not isinstance(data, dict):
            return {}
        return {group: [n for n in names if isinstance(n, str) and _plain(n)]
                for group, names in data.items() if isinstance(names, list)}


class FolderStore:
    """A folder written in place, a file at a time, atomically (a temporary file renamed; those
    of a killed run are removed by the next write). Beyond `keep` notes the oldest go, and
    blobs written well before the oldest note kept (each blob is written just before its note):
    looked for at the first note a store writes and after every eighth of `keep` more, so a
    run that writes many notes (a gallery's pictures) lists the folder a few times, not at each.
    A folder that cannot be written only means no cache."""

    STALE_S = 3600.0  # a temporary file older than this belongs to a run that died

    def __init__(self, folder: Path, keep: int) -> None:
        self.folder, self.keep = folder, keep
        self._notes = 0  # notes this store has written

    def read(self, group: str, name: str) -> bytes | None:
        try:
            return (self.folder / name).read_bytes()
        except OSError:
            return None

    def write(self, group: str, name: str, data: bytes) -> None:
        import tempfile  # written seldom, read at every start: a referee's answer need not import it

        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.folder, prefix=".tmp-", delete=False) as out:
                out.write(data)
            os.replace(out.name, self.folder / name)
            if name.endswith(".json"):
                if self._notes % max(1, self.keep // 8) == 0:
                    self._prune()
                self._notes += 1
        except OSError:
            pass  # no cache this time; the answer is the same

    def _prune(self) -> None:
        files = [(p.stat().st_mtime, p) for p in self.folder.iterdir() if p.is_file()]
        dropped, oldest_kept = self._beyond_keep(files)
        for modified, path in files:
            stale = path.name.startswith(".tmp-") and modified < time.time() - self.STALE_S
            blob = path.suffix != ".json" and not path.name.startswith(".")
            if stale or path in dropped or (blob and modified < oldest_kept - self.STALE_S):
                path.unlink(missing_ok=True)

    def _beyond_keep(self, files: list[tuple[float, Path]]) -> tuple[set[Path], float]:
        """The notes beyond `keep`, the oldest; and when the oldest note kept was written (0
        while there are fewer)."""
        notes = sorted((t, p) for t, p in files if p.suffix == ".json")
        oldest_kept = notes[-self.keep][0] if len(notes) >= self.keep else 0.0
        return {p for _, p in notes[:-self.keep]}, oldest_kept


# --- the cache --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Blob:
    """Bytes in an entry, kept as a file of their own (`<sha256>.<suffix>`)."""

    data: bytes
    suffix: str = "pdf"


class Cache:
    """Entries in a store (`None`: an empty build store; a `Path`: the build cache of that
    output folder), grouped by game so a build keeps only what its games still use."""

    def __init__(self, store: Store | Path | None = None) -> None:
        if store is None or isinstance(store, Path):
            store = BuildStore(store / FOLDER if store is not None else None)
        self.store: Store = store

    # the wrapper

    def recall(self, group: str, kind: str, name: str, compute: Callable[[], T],
               dump: Callable[[T], Any] = lambda value: value,
               load: Callable[[Any], T | None] = lambda value: value) -> T:
        """The entry `<kind>-<name>` read back by `load` (None: unusable), else `compute()`,
        kept as `dump` gives it."""
        found = self.get(group, kind, name)
        value = load(found) if found is not None else None
        if value is None:
            value = compute()
            self.put(group, kind, name, dump(value))
        return value

    def get(self, group: str, kind: str, name: str) -> Any:
        """The entry, its blobs read back and its files checked; None for a miss."""
        note = self.note(group, f"{kind}-{name}")
        if not isinstance(note, dict) or "value" not in note:
            return None
        depends = note.get("depends", {})
        if not isinstance(depends, dict) or not unchanged(depends):
            return None
        try:
            return self._read_blobs(group, note["value"])
        except LookupError:
            return None

    def put(self, group: str, kind: str, name: str, value: Any, depends: Iterable[Path] = ()) -> None:
        """Keep `value` (JSON-able; its `Blob`s kept beside it) as `<kind>-<name>`, valid while
        the files in `depends` keep their bytes."""
        self.put_note(group, f"{kind}-{name}", {"value": self._write_blobs(group, value), "depends": file_digests(depends)})

    # notes and blobs

    def blob(self, group: str, sha: str, suffix: str = "pdf") -> bytes | None:
        """The file whose SHA-256 is `sha`, or None (missing, or not what its name says)."""
        data = self.store.read(group, f"{sha}.{suffix}") if _plain(f"{sha}.{suffix}") else None
        return data if data is not None and hashlib.sha256(data).hexdigest() == sha else None

    def put_blob(self, group: str, data: bytes, suffix: str = "pdf") -> str:
        sha = hashlib.sha256(data).hexdigest()
        self.store.write(group, f"{sha}.{suffix}", data)
        return sha

    def note(self, group: str, name: str) -> Any:
        data = self.store.read(group, f"{name}.json") if _plain(name) else None
        try:
            return json.loads(data) if data is not None else None
        except ValueError:
            return None

    def put_note(self, group: str, name: str, value: Any) -> None:
        self.store.write(group, f"{name}.json", json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8"))

    def _write_blobs(self, group: str, value: Any) -> Any:
        if isinstance(value, Blob):
            return {"$blob": self.put_blob(group, value.data, value.suffix), "suffix": value.suffix}
        if isinstance(value, dict):
            return {k: self._write_blobs(group, v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self._write_blobs(group, v) for v in value]
        return value

    def _read_blobs(self, group: str, value: Any) -> Any:
        """The value with its blobs' bytes in place (LookupError when one is missing)."""
        if isinstance(value, dict) and "$blob" in value:
            data = self.blob(group, str(value["$blob"]), str(value.get("suffix", "pdf")))
            if data is None:
                raise LookupError(value["$blob"])
            return data
        if isinstance(value, dict):
            return {k: self._read_blobs(group, v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._read_blobs(group, v) for v in value]
        return value


def user_folder() -> Path | None:
    """The user's cache folder: `$PNP_CACHE` (`off`: none), else `$XDG_CACHE_HOME/pnp` or
    `~/.cache/pnp`."""
    chosen = os.environ.get("PNP_CACHE")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pnp"


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _plain(name: str) -> bool:
    """A file name of ours: no folders, nothing hidden (a record could have been edited)."""
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".")
