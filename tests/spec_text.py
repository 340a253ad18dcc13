"""The bundled spec as text, and the one way tests edit it and draw from it.

Tests change the game the way a designer does — by editing components.yaml's text — so every
"no code change" claim is checked through the real loader.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pnp.components import Context, Output, generate
from pnp.rules import loads_spec
from pnp.spec import Spec

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = (ROOT / "pnp" / "data" / "components.yaml").read_text(encoding="utf-8")


def edit(old: str, new: str, text: str = BUNDLED) -> str:
    """`text` with the first `old` replaced by `new`; `old` must be there."""
    assert old in text, f"test setup: {old!r} not in the spec"
    return text.replace(old, new, 1)


@lru_cache(maxsize=None)
def spec_of(text: str = BUNDLED) -> Spec:
    return loads_spec(text)


@lru_cache(maxsize=None)
def drawn(game_id: str, component_id: str, text: str = BUNDLED) -> Output:
    """What the generator makes of one component of the (possibly edited) spec."""
    spec = spec_of(text)
    game = spec.games[game_id]
    return generate(Context(game_id, game, spec.print, spec.folder), game.component(component_id))
