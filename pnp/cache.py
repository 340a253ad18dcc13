"""The build cache: each component's rendered PDF, found again by what it prints.

It is content-addressed in two steps. A component's *inputs* — its own fields and what of the
game it can print (`printed_inputs`), the print settings, and pnp's own code — lead to the
digest of what its generator drew, the one whose first digits are the stamp on its sheets. That
digest (with the code) names the rendered PDF and the facts the instructions, the manifest and
the change list need about it. So a component whose inputs did not change is neither drawn nor
laid out nor rendered again, and one whose inputs changed but whose drawing came out the same
(a sixth company leaves the mats as they were) is drawn but not rendered again.

The cache lives in the output folder (`<out>/.cache/`), so a clean build starts from an empty
folder and the cache is replaced atomically with the output it describes. A build keeps the
entries it used and those the previous build of the same games used (an edit and its undo are
both cached), and every entry of the games it did not build; `used.json` records them per game.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import pnp
from pnp.manifest import link_or_copy

FOLDER = ".cache"
USED = "used.json"


@lru_cache(maxsize=None)
def code_version() -> str:
    """A digest of pnp's code and fonts: any change to how components are drawn, laid out or
    rendered starts the cache afresh (the version number alone would not, during development)."""
    root = Path(pnp.__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".ttf") and p.is_file()):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def function_name(function: Callable[..., Any]) -> str:
    """The qualified name of the function that draws components: part of every key, so a
    different generator (a plug-in, a test's stand-in) never reads another one's entries."""
    return f"{function.__module__}.{function.__qualname__}"


def key(*parts: Any) -> str:
    """A cache key: the digest of JSON-able parts."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class Cache:
    """Entries read from an earlier output folder, and those this build adds or uses.

    Two kinds of file: blobs (`<sha256>.pdf`, or `.png` for exported images), checked against
    their name when read, and notes
    (`<name>.json`), small records that point at blobs or hold facts."""

    def __init__(self, out: Path | None):
        self.old = out / FOLDER if out is not None else None
        self.added: dict[str, bytes] = {}
        self.used: dict[str, set[str]] = {}

    def blob(self, game: str, sha: str, suffix: str = "pdf") -> bytes | None:
        """The PDF (or other file) whose SHA-256 is `sha`, or None (missing, or not what its
        name says)."""
        data = self._read(game, f"{sha}.{suffix}")
        return data if data is not None and hashlib.sha256(data).hexdigest() == sha else None

    def note(self, game: str, name: str) -> Any:
        data = self._read(game, f"{name}.json")
        try:
            return json.loads(data) if data is not None else None
        except ValueError:
            return None

    def put_blob(self, game: str, data: bytes, suffix: str = "pdf") -> str:
        sha = hashlib.sha256(data).hexdigest()
        self._add(game, f"{sha}.{suffix}", data)
        return sha

    def put_note(self, game: str, name: str, value: Any) -> None:
        self._add(game, f"{name}.json", json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8"))

    def _read(self, game: str, name: str) -> bytes | None:
        data = self.added.get(name)
        if data is None and self.old is not None:
            try:
                data = (self.old / name).read_bytes()
            except OSError:
                return None
        if data is not None:
            self.used.setdefault(game, set()).add(name)
        return data

    def _add(self, game: str, name: str, data: bytes) -> None:
        self.added[name] = data
        self.used.setdefault(game, set()).add(name)

    def save(self, root: Path, built: set[str]) -> None:
        """Write `root/.cache`: what this build used or added, what the previous build of the
        games in `built` used, and every entry of the other games; and `used.json`."""
        folder = root / FOLDER
        folder.mkdir()
        earlier = self._earlier_use()
        record = {game: set(names) for game, names in earlier.items() if game not in built}
        keep = {name for names in earlier.values() for name in names}
        for game, names in self.used.items():
            record.setdefault(game, set()).update(names)
            keep |= names
        for name in sorted(keep):
            if name in self.added:
                (folder / name).write_bytes(self.added[name])
            elif self.old is not None and (self.old / name).is_file():
                link_or_copy(self.old / name, folder / name)
        text = json.dumps({game: sorted(names) for game, names in sorted(record.items())}, indent=1)
        (folder / USED).write_text(text + "\n", encoding="utf-8")

    def _earlier_use(self) -> dict[str, list[str]]:
        if self.old is None:
            return {}
        try:
            data = json.loads((self.old / USED).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {game: [n for n in names if isinstance(n, str) and _plain(n)]
                for game, names in data.items() if isinstance(names, list)}


def _plain(name: str) -> bool:
    """A file name of ours: no folders, nothing hidden (the record could have been edited)."""
    return bool(name) and "/" not in name and "\\" not in name and not name.startswith(".")
