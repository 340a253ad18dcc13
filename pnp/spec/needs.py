"""A game in components.yaml checked against what its rules engine needs (`pnp.spec.contract`):
each unmet need located inside the game, with the rule that needs it, for the loader to refuse
at its `file:line:col`. Kept apart from the contract (which every rulebook reads and the spec's
model imports) because it reads the model's `Game`: no import circle.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Iterable, Iterator

from pnp.spec.contract import Need
from pnp.spec.model import CardEntry, Game
from pnp.spec.source import PathKey


def needs_problems(game_id: str, game: Game, needs: Iterable[Need]) -> Iterable[tuple[PathKey, str, bool]]:
    """Each unmet need as (path inside the game, message, whether the path is a key)."""
    needs = tuple(needs)
    taken = {need.id for need in needs}  # names the engine reads: never suggested for another
    for need in needs:
        if need.kind == "track":
            yield from _track_problems(game_id, game, need, taken)
        else:
            yield from _deck_problems(game_id, game, need, taken)


def _wanted(game_id: str, need: Need, names: Iterable[str], taken: set[str]) -> str:
    """The need unmet, the name being fixed by the engine: a renamed track or deck is named
    back, the closest of `names` (none the engine reads for another need) suggested."""
    import difflib

    close = difflib.get_close_matches(need.id, [name for name in names if name not in taken], n=1, cutoff=0.6)
    hint = f"; is it `{close[0]}`? name it `{need.id}` again" if close else ""
    return (f"{game_id} needs a {need.kind} `{need.id}` ({need.role}, {need.rule}): its engine reads it by that "
            f"name{hint}")


def _track_problems(game_id: str, game: Game, need: Need, taken: set[str]) -> Iterable[tuple[PathKey, str, bool]]:
    track = game.tracks.get(need.id)
    if track is None:
        if not need.optional:
            yield ("tracks",), _wanted(game_id, need, game.tracks, taken), bool(game.tracks)
        return
    for message in _cells_problems(need, track.cells):
        yield ("tracks", need.id), message, False


def _cells_problems(need: Need, cells: tuple[float, ...]) -> Iterator[str]:
    """What a track's cells lack of what the engine needs: enough of them, whole numbers, the
    least start, an even step."""
    if len(cells) < need.cells:
        yield f"{need.role} needs at least {need.cells} cells, not {len(cells)} ({need.rule})"
    if need.whole and any(value != int(value) for value in cells):
        yield f"{need.role} counts in whole numbers; {_first_broken(cells)} is not one ({need.rule})"
    if need.minimum is not None and min(cells) < need.minimum:
        yield f"{need.role} starts at {need.minimum:g}, not {min(cells):g} ({need.rule})"
    if need.step is not None and any(b - a != need.step for a, b in pairwise(cells)):
        yield f"{need.role} runs in steps of {need.step:g} ({need.rule})"


def _first_broken(cells: tuple[float, ...]) -> str:
    return next(f"{value:g}" for value in cells if value != int(value))


def _deck_problems(game_id: str, game: Game, need: Need, taken: set[str]) -> Iterable[tuple[PathKey, str, bool]]:
    found = [(i, c) for i, c in enumerate(game.components) if c.id == need.id]
    if not found:
        if not need.optional:
            decks = [c.id for c in game.components if c.kind == need.kind]
            yield ("components",), _wanted(game_id, need, decks, taken), False
        return
    index, deck = found[0]
    here = ("components", index)
    if deck.kind != "deck":
        yield here + ("kind",), f"`{need.id}` is {need.role}, so it must be a deck, not {deck.kind} ({need.rule})", False
        return
    for j, entry in enumerate(deck.cards):
        yield from ((here + ("cards", j), message, False) for message in _card_problems(game, need, entry))


def _card_problems(game: Game, need: Need, entry: CardEntry) -> Iterable[str]:
    """What one card entry of a needed deck lacks: the asset it names, the numbers its data holds."""
    if need.per_asset and entry.asset is None and entry.for_each != "asset":
        yield f"every card of {need.role} names one of the {game.asset_key} (`for_each: asset` or `asset:`) ({need.rule})"
    for key in need.data:
        value = entry.data.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            yield f"every card of {need.role} needs `data: {{{key}: N}}`, a whole number ≥ 0 ({need.rule})"
