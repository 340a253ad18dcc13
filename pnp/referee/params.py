"""Engine parameters kept between runs, so that a referee answer does not wait for the spec.

Reading components.yaml means validating it (pydantic, a few hundred milliseconds with its
import) and asking every engine about it, while answering a record needs only one engine's
`Params`. So the first answer for a spec, a game and a set of house rules stores those Params
in the user's cache folder (`pnp.cache.user_folder`: `$PNP_CACHE`, `off` for none, else
`~/.cache/pnp`); later answers unpickle them, and the pydantic model is never imported. An
entry is keyed by the spec's path, the game, the options, Python's version and pnp's rules and
spec code, and depends on every file the spec was made of (the spec itself, card lists,
images: `pnp.spec.source.inputs`): when one of them changes, the spec is read and checked
again, and the entry replaced. The cache is `pnp.cache`'s, in a `FolderStore`.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any, Mapping

from pnp.cache import Blob, Cache, FolderStore, code_version, key, user_folder

KEEP = 200  # entries; the oldest go first
KIND = "params"
CODE = ("rules", "spec")  # the packages whose code shapes Params


def spec_params(path: str | Path | None, game: str, options: Mapping[str, Any]) -> Any:
    """The engine's Params for `game` of the spec file at `path` (None: the default one) under
    `options` (a record's, already checked). Raises SpecError for a spec that does not load,
    KeyError for a game it lacks or no engine plays, ValueError for options that make no
    playable game — as `load_spec` and the engine's `params` would."""
    from pnp.spec.source import default_spec_path

    spec_path = Path(path) if path is not None else default_spec_path()
    folder = user_folder()
    cache = Cache(FolderStore(folder, KEEP)) if folder is not None else None
    name = key(str(spec_path.resolve()), game, options, sys.version, code_version(*CODE))
    found = cache.get(game, KIND, name) if cache is not None else None
    params = _unpickled(found)
    if params is not None:
        return params
    from pnp.rules import GAMES, load_spec
    from pnp.spec.source import inputs

    with inputs() as read:
        spec = load_spec(spec_path)
    params = GAMES[game].engine.params(spec.games[game], options)
    if cache is not None:
        try:
            cache.put(game, KIND, name, {"params": Blob(pickle.dumps(params), "pickle")}, depends=read)
        except (pickle.PicklingError, TypeError, AttributeError):
            pass  # Params that do not pickle are computed each time; the answer is the same
    return params


def _unpickled(found: Any) -> Any:
    """The Params of a cache entry, or None when it is unusable (stale code, a damaged file)."""
    try:
        return pickle.loads(found["params"]) if isinstance(found, dict) else None
    except Exception:  # a foreign or damaged entry is a miss, never an error
        return None
