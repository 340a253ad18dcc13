"""Generators: a kind of component (deck, tokens, money, board, mat, aid, form, booklet) → drawings.

Generators know kinds, never games: everything game-specific comes from the spec (and, for
computed tables such as a penalty table, from the game's rules module). They return either
`Pieces` — same-size pieces that layout imposes on sheets with crop marks and duplex backs —
or `Panels` — drawings that layout puts one per page, tiling those larger than a page — or
`BookPages` — a booklet's pages, which layout imposes for folding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any, Iterable, Iterator, Union

from pnp.components.art import asset_badge, picture, walk
from pnp.display import BookPages, Drawing, Image, Panels, PieceArt, Pieces
from pnp.errors import BuildError, Issue
from pnp.layout.text import Icon
from pnp.spec.images import Art, ArtError, read_art
from pnp.spec.load import named_images
from pnp.spec.model import Asset, Game, Print, Spec

Output = Union[Pieces, Panels, BookPages]
MIN_DPI = 300  # raster art printed coarser than this looks soft on paper
__all__ = ["BookPages", "Context", "Output", "Panels", "PieceArt", "Pieces", "art_warnings", "generate",
           "resolution_warnings"]


@dataclass(frozen=True)
class Context:
    """What a generator may know besides its component: the game, its id, the print settings,
    and the folder the spec's images are read from."""

    game_id: str
    game: Game
    settings: Print
    folder: Path = field(default_factory=Path.cwd)

    def art(self, file: str) -> Art:
        """An image the spec names (validation has checked it; a file changed since is an error)."""
        try:
            return read_art(self.folder, file)
        except ArtError as error:
            raise BuildError(f"{self.game_id}: {error}") from None

    def logo(self, asset: Asset | None) -> Art | None:
        """The asset's own image, if it has one."""
        return self.art(asset.image) if asset is not None and asset.image else None

    def icons(self) -> dict[str, Icon]:
        """What `:ID:` draws in text: each asset's logo (as wide as it is), or its badge."""
        icons = {}
        for asset in self.game.assets:
            logo = self.logo(asset)
            if logo is None:
                icons[asset.id] = Icon((asset_badge(asset, 5.0, 5.0, 10.0),), 10.0, 10.0)
            else:
                icons[asset.id] = Icon((picture(logo, 0.0, 0.0, 10.0 * logo.aspect, 10.0),), 10.0 * logo.aspect, 10.0)
        return icons

    def table(self, name: str) -> Any:
        """A table computed by the game's engine (`tables(params)`), so printed aids and setup
        diagrams never disagree with the referee."""
        from pnp.rules import engine

        rules = engine(self.game_id)
        found = rules.tables(rules.params(self.game))
        if name not in found:
            raise KeyError(f"{self.game_id} rules provide no table {name!r}")
        return found[name]

    def marks(self, name: str) -> Any:
        """Per-cell notes computed by the game's engine (`marks(params)`) — looked up apart from
        `table`, since a setup diagram's table and its board marks may share a name."""
        from pnp.rules import engine

        rules = engine(self.game_id)
        found = rules.marks(rules.params(self.game))
        if name not in found:
            raise KeyError(f"{self.game_id} rules provide no marks {name!r}")
        return found[name]



# kind → "module:function" in this package, imported on demand
_GENERATORS = {
    "deck": "cards:deck",
    "tokens": "tokens:tokens",
    "money": "money:money",
    "board": "boards:board",
    "mat": "mats:mat",
    "aid": "aids:aid",
    "form": "forms:form",
    "booklet": "booklet:booklet",
}


def generate(context: Context, component: Any) -> Output:
    """Draw one component of `context.game` with the print settings."""
    module, function = _GENERATORS[component.kind].split(":")
    return getattr(import_module(f"pnp.components.{module}"), function)(context, component)


def art_warnings(spec: Spec) -> list[Issue]:
    """`resolution_warnings` for `pnp validate`: the components of every game naming PNG or JPEG
    art are drawn (not laid out on sheets) to know each image's printed size. A component that
    cannot be drawn is left to `pnp build` to report."""
    warnings = []
    for game_id, game in spec.games.items():
        if all(read_art(spec.folder, file).vector for file in named_images(game)):
            continue
        context = Context(game_id, game, spec.print, spec.folder)
        outputs = []
        for component in game.components:
            try:
                outputs.append(generate(context, component))
            except BuildError:
                continue
        warnings += resolution_warnings(spec, game_id, outputs)
    return warnings


def resolution_warnings(spec: Spec, game_id: str, outputs: Iterable[Output]) -> list[Issue]:
    """PNG and JPEG art printed below `MIN_DPI` at its size on paper, one warning per file at
    the place the spec names it (SVG art is vector: any size is sharp)."""
    lowest: dict[str, tuple[float, float, float, Image]] = {}  # file → (dpi, w mm, h mm, item)
    for drawing in _drawings(outputs):
        for matrix, image in walk(drawing.items):
            if not isinstance(image, Image) or not image.pixels[0]:
                continue
            scale = math.hypot(matrix[0], matrix[1])  # turns keep sizes
            w, h = image.w * scale, image.h * scale
            dpi = min(image.pixels[0] / (w / 25.4), image.pixels[1] / (h / 25.4))
            if dpi < MIN_DPI and dpi < lowest.get(image.name, (math.inf,))[0]:
                lowest[image.name] = (dpi, w, h, image)
    named = named_images(spec.games[game_id], ("games", game_id))
    warnings = []
    for file, (dpi, w, h, image) in lowest.items():
        need = (math.ceil(w / 25.4 * MIN_DPI), math.ceil(h / 25.4 * MIN_DPI))
        message = (f"warning: {file} prints at {dpi:.0f} dpi ({image.pixels[0]} × {image.pixels[1]} px scaled to "
                   f"{w:.1f} × {h:.1f} mm); {MIN_DPI} dpi needs {need[0]} × {need[1]} px")
        warnings.append(spec.issue(named.get(file, ("games", game_id)), message))
    return warnings


def _drawings(outputs: Iterable[Output]) -> Iterator[Drawing]:
    seen: set[int] = set()
    for output in outputs:
        if isinstance(output, Pieces):
            drawings = [face for piece in output.pieces for face in (piece.front, piece.back) if face is not None]
        else:
            drawings = list(output.drawings if isinstance(output, Panels) else output.pages)
        for drawing in drawings:
            if id(drawing) not in seen:
                seen.add(id(drawing))
                yield drawing

