"""The registry of rules engines: every game pnp can referee, seat at a table and simulate.

A game is registered one way only: an entry point in the group `pnp.games` of an installed
package (`[project.entry-points."pnp.games"] mygame = "mygame_rules"`; the bundled three are
pnp's own), whose name is the game's id and whose value the rules module — one file keeping
`pnp.rules.contract.Engine` with its `RULEBOOK` and `ABOUT`, or a package holding those two
and an `engine` module (so that reading a spec never imports a whole engine). A file given on
the command line (`pnp --engine mygame.py …`, `register_file`) joins them for that run, under
its name's stem. Nothing else is ever imported: a spec names a game, never code, so a spec
from a forum cannot run anything (`pnp.spec.loader` refuses `rules:` of a game no engine plays).

`GAMES` is read on first use (the entry points are listed once a process); a file registered
is kept in the environment (`PNP_ENGINES`) too, so the processes a simulation starts know it.
"""

from __future__ import annotations

import os
import sys
import traceback
from dataclasses import dataclass
from importlib import import_module, util
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Iterator, Mapping

from pnp.errors import UsageError

if TYPE_CHECKING:
    from pnp.rules.base import About
    from pnp.rules.contract import AnyEngine
    from pnp.spec.options import Rulebook

GROUP = "pnp.games"
ENVIRONMENT = "PNP_ENGINES"  # the files registered with --engine, os.pathsep between them


@dataclass(frozen=True)
class Registered:
    """One game in the registry. The module is named, not imported, so that looking a game up
    costs nothing until its rules are read."""

    id: str
    rules: str  # the module: `RULEBOOK`, `ABOUT` and the contract; or a package of those and `engine`
    file: str | None = None  # the rules file given with --engine, if the game was registered so

    @property
    def module(self) -> ModuleType:
        """The rules module (UsageError, exit 2, for an installed one that does not import)."""
        try:
            return import_module(self.rules)
        except ImportError as error:
            raise UsageError(f"the game {self.id!r} is registered (entry point {GROUP}) as {self.rules}, which does "
                             f"not import: {error}") from None

    @property
    def rulebook(self) -> Rulebook:
        rulebook: Rulebook = self.module.RULEBOOK
        return rulebook

    @property
    def about(self) -> About:
        """The game's rule prefix, end reasons, and whether it has a fast playout, a deal and
        a record reader of its own."""
        about: About = self.module.ABOUT
        return about

    @property
    def engine(self) -> AnyEngine:
        """The module keeping the contract: the rules module itself, or a package's `engine`."""
        module = self.module
        engine: AnyEngine = import_module(f"{self.rules}.engine") if hasattr(module, "__path__") else module
        return engine


class Registry(Mapping[str, Registered]):
    """The games by id: the entry points of `pnp.games`, listed on first use, then the files
    registered this run (which may not take a registered id)."""

    def __init__(self) -> None:
        self._games: dict[str, Registered] | None = None

    def _listed(self) -> dict[str, Registered]:
        if self._games is None:
            points = sorted(entry_points(group=GROUP), key=lambda point: not _own(point.value))
            if not any(_own(point.value) for point in points):
                raise UsageError(f"pnp's own games are registered by its package's entry points ({GROUP}), which this "
                                 f"installation lacks (installed before they were): run pip install -e . (or pip "
                                 f"install .) in pnp's folder again")
            self._games = {point.name: Registered(point.name, point.value) for point in points}
            for path in filter(None, os.environ.get(ENVIRONMENT, "").split(os.pathsep)):
                self._add_file(Path(path))
        return self._games

    def __getitem__(self, game: str) -> Registered:
        return self._listed()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._listed())

    def __len__(self) -> int:
        return len(self._listed())

    def register_file(self, path: str | Path) -> Registered:
        """Load the rules module at `path` (a `.py` file keeping the contract) as the game
        named by its stem, for this process and the ones it starts. UsageError (exit 2) for a
        file that is missing, does not import, or lacks `RULEBOOK`, `ABOUT` or a contract member."""
        path = Path(path).resolve()
        entry = self._add_file(path)
        known = [part for part in os.environ.get(ENVIRONMENT, "").split(os.pathsep) if part]
        if str(path) not in known:
            os.environ[ENVIRONMENT] = os.pathsep.join(known + [str(path)])
        return entry

    def _add_file(self, path: Path) -> Registered:
        games = self._listed()
        game = path.stem
        name = f"pnp_engine_{game}"
        if game in games and games[game].rules != name:
            raise UsageError(f"--engine {path}: a game named {game!r} is registered already ({games[game].rules}); "
                             f"rename the file")
        loaded = sys.modules.get(name)
        if loaded is None or getattr(loaded, "__file__", None) != str(path):  # another file of the stem: its own
            sys.modules[name] = _load(path, name)
        from pnp.rules.contract import members

        missing = [member for member in ("ABOUT",) + members() if not hasattr(sys.modules[name], member)]
        if missing:
            del sys.modules[name]
            raise UsageError(f"--engine {path}: not a rules engine, it lacks {', '.join(missing)} "
                             f"(docs/your-game.md lists what one defines)")
        games[game] = Registered(game, name, str(path))
        return games[game]


GAMES = Registry()  # every game pnp plays: the `pnp.games` entry points, and files given with --engine


def _own(module: str) -> bool:
    """Whether an entry point's module is one of pnp's own games (whatever its distribution is
    named): they are listed first."""
    return module.startswith(f"{__name__.rpartition('.')[0]}.")


def _load(path: Path, name: str) -> ModuleType:
    """The module in file `path`, executed under `name`."""
    if path.suffix != ".py" or not path.is_file():
        raise UsageError(f"--engine {path}: no such Python file")
    spec = util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"--engine {path}: cannot be loaded as a Python module")
    module = util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up while it runs
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        line = next((frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == str(path)), 0)
        raise UsageError(f"{path}:{line}: the engine does not load: {type(error).__name__}: {error}") from None
    return module


