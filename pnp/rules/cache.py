"""Engine parameters kept between runs, so that a referee answer does not wait for the spec.

Reading components.yaml means validating it (pydantic, a few hundred milliseconds with its
import) and asking every engine about it, while answering a record needs only one engine's
`Params`. So the first answer for a spec, a game and a set of house rules stores those Params
in the user's cache folder; later answers unpickle them, and the pydantic model is never
imported. An entry is used only while every file the spec was made of (the spec itself, card
lists, images: `pnp.spec.source.inputs`) has the bytes it had, and pnp's rules and spec code
is the same; otherwise the spec is read and checked again, and the entry replaced.

`PNP_CACHE` names the folder (`off` turns the cache off); by default it is
`$XDG_CACHE_HOME/pnp` or `~/.cache/pnp`. A folder that cannot be written only means no cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any, Mapping

KEEP = 200  # entries; the oldest go first
_CODE = ("rules", "spec")  # the packages whose code shapes Params


def spec_params(path: str | Path | None, game: str, options: Mapping[str, Any]) -> Any:
    """The engine's Params for `game` of the spec file at `path` (None: the default one) under
    `options` (a record's, already checked). Raises SpecError for a spec that does not load,
    KeyError for a game it lacks or no engine plays, ValueError for options that make no
    playable game — as `load_spec` and the engine's `params` would."""
    from pnp.spec.source import default_spec_path

    spec_path = Path(path) if path is not None else default_spec_path()
    entry = _entry_file(spec_path, game, options)
    params = _read(entry)
    if params is not None:
        return params
    from pnp.rules import GAMES, load_spec
    from pnp.spec.source import inputs

    with inputs() as read:
        spec = load_spec(spec_path)
    params = GAMES[game].engine.params(spec.games[game], options)
    _write(entry, params, read)
    return params


def _folder() -> Path | None:
    chosen = os.environ.get("PNP_CACHE")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "pnp"


def _entry_file(spec_path: Path, game: str, options: Mapping[str, Any]) -> Path | None:
    folder = _folder()
    if folder is None:
        return None
    key = hashlib.sha256()
    for part in (str(spec_path.resolve()), game, json.dumps(options, sort_keys=True, default=repr), sys.version,
                 _code_fingerprint()):
        key.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return folder / f"{key.hexdigest()[:32]}.pickle"


def _code_fingerprint() -> str:
    """Size and modification time of every module of the packages Params come from."""
    root = Path(__file__).resolve().parents[1]
    stamps = []
    for package in _CODE:
        for folder, _, files in os.walk(root / package):
            for name in sorted(files):
                if name.endswith(".py"):
                    stat = os.stat(os.path.join(folder, name))
                    stamps.append(f"{folder}/{name}:{stat.st_size}:{stat.st_mtime_ns}")
    return "\n".join(sorted(stamps))


def _read(entry: Path | None) -> Any:
    """The cached Params, or None when there are none or an input has changed since."""
    if entry is None:
        return None
    try:
        saved = pickle.loads(entry.read_bytes())
        if all(_digest(Path(file)) == digest for file, digest in saved["inputs"].items()):
            return saved["params"]
    except Exception:  # a missing, stale, foreign or damaged entry is a miss, never an error
        return None
    return None


def _write(entry: Path | None, params: Any, read: list[Path]) -> None:
    if entry is None:
        return
    try:
        data = pickle.dumps({"inputs": {str(file): _digest(file) for file in dict.fromkeys(read)}, "params": params})
        entry.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=entry.parent, delete=False) as out:
            out.write(data)
        os.replace(out.name, entry)
        entries = sorted(entry.parent.glob("*.pickle"), key=lambda f: f.stat().st_mtime)
        for old in entries[:-KEEP]:
            old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError):
        pass  # no cache this time; the answer is the same


def _digest(file: Path) -> str:
    return hashlib.sha256(file.read_bytes()).hexdigest()
