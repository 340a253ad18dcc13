"""The spec layer: components.yaml loaded safely into an immutable, validated model."""

from pnp.spec.load import bundled_spec_path, default_spec_path, init, load, loads
from pnp.spec.model import Asset, Game, Spec, Track

__all__ = ["Asset", "Game", "Spec", "Track", "bundled_spec_path", "default_spec_path", "init", "load", "loads"]
