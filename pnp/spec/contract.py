"""What a rules engine needs from its game in components.yaml, checked where it is written.

Each engine declares its needs in its `Rulebook` — a track of whole numbers for the quote,
a deck whose cards each name a colour — with the rule that needs them, so a spec that renames
or drops one is refused by `pnp validate` at the place it breaks (`file:line:col`, rule ID),
instead of failing later inside a build or a referee. What cannot be declared (a card face the
engine must read as numbers) the engine reports itself by raising `Mismatch` from `params`.
The loader checks a game against its engine's needs (`pnp.spec.needs`, above the spec's model,
which this module stays below).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # this module is read with every rulebook, so it stays light
    from pnp.spec.source import PathKey

MAX_CELLS = 500  # of a track, printed or drawn by house rules: far beyond a board, far below a slow game


@dataclass(frozen=True)
class Need:
    """One thing an engine reads from its game: a `track` or a `deck`, by id."""

    kind: str  # "track" or "deck"
    id: str
    rule: str  # the rule that needs it, e.g. "BOLSA-1.3"
    role: str  # what it is, in a few words: "the quote track"
    optional: bool = False  # when missing, the engine uses the rules file's standard
    whole: bool = False  # track: every cell a whole number
    step: float | None = None  # track: consecutive cells exactly this far apart
    cells: int = 1  # track: at least this many cells
    minimum: float | None = None  # track: no cell below this
    per_asset: bool = False  # deck: every card names one of the game's assets
    data: tuple[str, ...] = ()  # deck: keys every card's `data` holds

    @staticmethod
    def track(id: str, rule: str, role: str, **limits: Any) -> "Need":
        return Need("track", id, rule, role, **limits)

    @staticmethod
    def deck(id: str, rule: str, role: str, **limits: Any) -> "Need":
        return Need("deck", id, rule, role, **limits)


class Mismatch(ValueError):
    """What an engine cannot play in a game's spec: where (a path inside the game, e.g.
    ("components", 3, "cards", 0)) and one sentence with the rule ID."""

    def __init__(self, path: PathKey, message: str):
        self.path = tuple(path)
        self.message = message
        super().__init__(message)
