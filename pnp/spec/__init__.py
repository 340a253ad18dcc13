"""The spec layer: components.yaml loaded safely into an immutable, validated model.

The model and its validation (pydantic) load on first use of `load`, `loads` or a model class:
the rulebooks and the referee import light parts of this package (`options`, `contract`,
`source`) and should not pay for the rest.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_HOMES = {"bundled_spec_path": "source", "default_spec_path": "source", "init": "loader", "load": "loader", "loads": "loader",
          "Asset": "model", "Game": "model", "Spec": "model", "Track": "model"}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value
