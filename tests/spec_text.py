"""The bundled spec as text, and the one way tests edit it and draw from it.

Tests change the game the way a designer does — by editing components.yaml's text — so every
"no code change" claim is checked through the real loader.
"""

from __future__ import annotations

import shutil
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from pnp.components import Context, Output, generate
from pnp.i18n import speaking
from pnp.rules import loads_spec
from pnp.spec.model import Spec
from pnp.spec.translation import Kit, kit

if TYPE_CHECKING:
    from pnp.checks.layout import GameLayout

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = (ROOT / "pnp" / "data" / "components.yaml").read_text(encoding="utf-8")
CATALOGS = ROOT / "pnp" / "data" / "locale"  # the bundled spec's translations, beside it
TREE = yaml.load(BUNDLED, Loader=yaml.CSafeLoader)  # the bundled spec as data (libyaml: a tenth of the time); copy it to change it


def write_spec(folder: Path, text: str = BUNDLED) -> Path:
    """`text` as `folder/components.yaml`, with a copy of the bundled translation catalogs
    beside it, as `pnp init` writes them: what builds every game's kits in their languages."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = folder / "components.yaml"
    spec.write_text(text, encoding="utf-8")
    if not (folder / "locale").exists():
        shutil.copytree(CATALOGS, folder / "locale")
    return spec


def edit(old: str, new: str, text: str = BUNDLED) -> str:
    """`text` with the first `old` replaced by `new`; `old` must be there."""
    assert old in text, f"test setup: {old!r} not in the spec"
    return text.replace(old, new, 1)


@lru_cache(maxsize=None)
def spec_of(text: str = BUNDLED) -> Spec:
    return loads_spec(text)


def laid_out(game_id: str, text: str = BUNDLED, kinds: tuple[str, ...] = (), **settings: Any) -> GameLayout:
    """One game of the (possibly edited) spec drawn and laid out as `pnp validate` lays it out
    (`pnp.checks.layout.lay_out_game`), under print `settings` (`paper="letter"`, `duplex="none"`…):
    once per process for every test that reads it (a layout is frozen: read it, never change
    it). A setting the spec already has is the spec's own layout. With `kinds`
    (`("deck", "money")`), only the game's components of those kinds, for a test that reads
    those sheets alone: a booklet or a board drawn for nothing is most of a game's layout."""
    printed = spec_of(text).print
    return _laid_out(game_id, text, kinds, tuple(sorted((k, v) for k, v in settings.items() if getattr(printed, k) != v)))


@lru_cache(maxsize=None)
def _laid_out(game_id: str, text: str, kinds: tuple[str, ...], settings: tuple[tuple[str, Any], ...]) -> GameLayout:
    from pnp.build import with_print
    from pnp.checks.layout import lay_out_game

    spec = with_print(spec_of(text), **dict(settings))
    if kinds:
        game = spec.games[game_id]
        only = game.model_copy(update={"components": tuple(c for c in game.components if c.kind in kinds)})
        spec = spec.model_copy(update={"games": {**spec.games, game_id: only}})
    return lay_out_game(spec, game_id)


@lru_cache(maxsize=None)
def kit_of(game_id: str, text: str = BUNDLED, code: str | None = None) -> Kit:
    """The game's kit in its default language (bolsa's Spanish, aktsioner's Russian) or in
    `code`, from the (possibly edited) spec and the bundled catalogs: `kit_of(g).game` is the
    game with the texts that kit prints."""
    game = spec_of(text).games[game_id]
    return kit(game_id, game, code or game.language, ROOT / "pnp" / "data")


@lru_cache(maxsize=None)
def drawn(game_id: str, component_id: str, text: str = BUNDLED, code: str | None = None) -> Output:
    """What the generator makes of one component of the (possibly edited) spec, in the game's
    default kit (its own language: bolsa's Spanish, aktsioner's Russian) or in `code`'s."""
    spec = spec_of(text)
    made = kit_of(game_id, text, code)
    with speaking(made.language):
        return generate(Context(game_id, made.game, spec.print, spec.folder, made), made.game.component(component_id))
