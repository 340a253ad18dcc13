"""Each registered game's probe and heuristic bots, looked up by game id.

`pnp.bots.games.<game>` holds `PROBE` (a `Probe` subclass) and `BOTS` (name → bot). A
game registered in `pnp.rules.GAMES` without such a module is still simulated: the base
probe, and the bots every game has (`random`, `greedy`).
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from pnp.bots.common import BOTS, Bot
from pnp.bots.probe import Probe


def _module(game: str) -> ModuleType | None:
    try:
        return import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{game}":
            raise
        return None


def probe(game: str, params: Any) -> Probe:
    module = _module(game)
    return (module.PROBE if module is not None else Probe)(params)


def bots(game: str) -> dict[str, Bot]:
    """Every bot that plays `game`: the common ones, then the game's own."""
    module = _module(game)
    return {**BOTS, **(module.BOTS if module is not None else {})}
