"""Rules engines, one module per game, pure (no I/O, no rendering).

`rulebooks()` hands the spec layer each game's options and printable tables without the spec
knowing any game; `engine(game)` imports one engine module on demand.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from pnp.spec.options import Rulebook

GAMES = ("bolsa", "aktsioner", "forex")


def engine(game: str) -> ModuleType:
    """The rules module of `game` (KeyError for a game without an engine)."""
    if game not in GAMES:
        raise KeyError(game)
    return import_module(f"pnp.rules.{game}")


def rulebooks() -> dict[str, Rulebook]:
    return {game: engine(game).RULEBOOK for game in GAMES}
