"""Generators: a kind of component (deck, tokens, money, board, mat, aid, form, booklet) → drawings.

Generators know kinds, never games: everything game-specific comes from the spec (and, for
computed tables such as a penalty table, from the game's rules module). They return either
`Pieces` — same-size pieces that layout imposes on sheets with crop marks and duplex backs —
or `Panels` — drawings that layout puts one per page, tiling those larger than a page — or
`BookPages` — a booklet's pages, which layout imposes for folding.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any, Union

from pnp.display import BookPages, Panels, PieceArt, Pieces  # noqa: F401 (re-exported: the generators' output types)
from pnp.spec.model import Game, Print

Output = Union[Pieces, Panels, BookPages]


@dataclass(frozen=True)
class Context:
    """What a generator may know besides its component: the game, its id, the print settings."""

    game_id: str
    game: Game
    settings: Print

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
