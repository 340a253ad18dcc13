"""Each game's own part of the conformance tests, found by game id: `tests/conform/<game>.py`
with `invariants(params, before, after, events)` (what must hold after every step: money
conserved, cards counted, bounds kept) and `NUMBERS` (numeric house rules and the values a
random game draws them from, short games preferred; `REQUIRED` names those always drawn).

A registered game without a module here is still played by `tests/test_conformance.py` and
`tests/test_playout_oracle.py` — under every house rule that has a list of values, with the
contract's own checks — so registering a game needs no edit of those tests; its module adds
what only the game knows.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any, Callable, Mapping, Sequence


def _module(game: str) -> ModuleType | None:
    try:
        return import_module(f"conform.{game}")
    except ModuleNotFoundError as error:
        if error.name != f"conform.{game}":
            raise
        return None


def invariants(game: str) -> Callable[[Any, Any, Any, Any], None]:
    """The game's invariants, or none."""
    module = _module(game)
    return module.invariants if module is not None else (lambda p, before, after, events: None)


def numbers(game: str) -> tuple[Mapping[str, Sequence[Any]], tuple[str, ...]]:
    """The game's numeric house rules with the values to draw them from, and those always drawn."""
    module = _module(game)
    if module is None:
        return {}, ()
    return module.NUMBERS, getattr(module, "REQUIRED", ())
