"""Rules engines, one package per game, pure (no I/O, no rendering), all keeping one contract
(`pnp.rules.base.Engine`).

`GAMES` is the registry: a game's id, its rules package (whose `RULEBOOK` the spec layer reads
on every load, and whose `engine` module plays it) and its referee module (which reads and
writes its records). Adding a game is one line here plus those two packages; the conformance
test plays every registered game. `engine(game)` imports one engine on demand, so a referee
for one game never pays for the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from pnp.spec.options import Rulebook

if TYPE_CHECKING:
    from pnp.rules.base import Engine


@dataclass(frozen=True)
class Registered:
    """One game in the registry. The modules are named, not imported, so that looking a game
    up costs nothing until its engine or referee is used."""

    id: str
    rules: str  # the package: `RULEBOOK` (eager, light) and `engine` (the contract)
    referee: str  # the module that reads and writes this game's records (pnp.referee layer)

    @property
    def rulebook(self) -> Rulebook:
        return import_module(self.rules).RULEBOOK  # type: ignore[no-any-return]

    @property
    def engine(self) -> Engine[Any, Any, Any]:
        return import_module(f"{self.rules}.engine")  # type: ignore[return-value]


GAMES: dict[str, Registered] = {
    "bolsa": Registered("bolsa", "pnp.rules.bolsa", "pnp.referee.bolsa"),
    "aktsioner": Registered("aktsioner", "pnp.rules.aktsioner", "pnp.referee.aktsioner"),
    "forex": Registered("forex", "pnp.rules.forex", "pnp.referee.forex"),
}


def engine(game: str) -> Engine[Any, Any, Any]:
    """The engine of `game` (KeyError for a game without one)."""
    return GAMES[game].engine


def rulebook(game: str) -> Rulebook:
    """The house rules and needs of `game` (KeyError for an unknown game), without its engine."""
    return GAMES[game].rulebook


def rulebooks() -> dict[str, Rulebook]:
    return {game: entry.rulebook for game, entry in GAMES.items()}
