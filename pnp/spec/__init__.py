"""The spec layer: components.yaml loaded safely into an immutable, validated model."""

from pnp.spec.load import default_spec_path, load, loads
from pnp.spec.model import Asset, Game, Spec, Track

__all__ = ["Asset", "Game", "Spec", "Track", "default_spec_path", "load", "loads"]
