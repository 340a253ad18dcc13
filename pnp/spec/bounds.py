"""The bounds of the model that only the whole game can check: what a component makes once its
entries are multiplied out (pieces, a board's cells, a form's columns and players) and how far
a board's track or a mat's zones reach in millimetres — each checked before a template is filled
or anything laid out, so a spec that would take minutes is refused in milliseconds. The bounds
themselves are the model's (`pnp.spec.model`, listed in docs/spec.md)."""

from __future__ import annotations

import math
from typing import Any, Iterable

from pnp.errors import Issue
from pnp.spec.faces import piece_count
from pnp.spec.model import (
    MAX_BOARD_CELLS,
    MAX_BOARD_MM,
    MAX_COLUMNS,
    MAX_PANEL_MM,
    MAX_PIECES,
    Board,
    Deck,
    Form,
    Game,
    Mat,
    Money,
    Spec,
    Tokens,
)
from pnp.spec.source import Source


def extent_issues(source: Source, where: tuple, game: Game, card_mm: tuple[float, float]) -> Iterable[Issue]:
    """Boards and mats within their bounds in millimetres: a track's row, a mat's zones."""
    for index, component in enumerate(game.components):
        here = where + ("components", index)
        if isinstance(component, Board):
            for number, section in enumerate(component.sections):
                length = _track_length(game, section) * component.cell_mm
                if length > MAX_BOARD_MM:
                    yield source.issue(here + ("sections", number), f"its track lays out {length:,.0f} mm long "
                                                                     f"({section.layout}); a board's is at most "
                                                                     f"{MAX_BOARD_MM:,.0f} mm")
        elif isinstance(component, Mat):
            width, height = component.extent(card_mm)
            if max(width, height) > MAX_PANEL_MM:
                yield source.issue(here + ("zones",), f"the zones side by side make {width:,.0f} × {height:,.0f} mm; "
                                                      f"a mat is at most {MAX_PANEL_MM:,.0f} mm either way")


def _track_length(game: Game, section: Any) -> int:
    """The cells of a track section in a row as laid out: all of them, a grid's row, a loop's side."""
    track = game.tracks.get(section.track) if section.track is not None else None
    if track is None:
        return 0
    if section.layout == "grid":
        return section.columns or math.ceil(math.sqrt(track.size))
    if section.layout == "loop":
        return math.ceil(track.size / 4) + 1
    return track.size


def pieces_issues(source: Source, spec: Spec) -> Iterable[Issue]:
    """The whole spec makes at most MAX_PIECES cards, tokens and bills (copies counted): the
    bound that keeps laying them all out a matter of seconds; reported at the largest."""
    counts = [(piece_count(game, component), ("games", game_id, "components", index))
              for game_id, game in spec.games.items() for index, component in enumerate(game.components)
              if isinstance(component, (Deck, Tokens, Money))]
    total = sum(count for count, _ in counts)
    if total > MAX_PIECES and max(counts)[0] <= MAX_PIECES:  # one component beyond it says so itself
        count, path = max(counts)
        yield source.issue(path, f"makes {count:,} of the spec's {total:,} cards, tokens and bills; a spec makes "
                                 f"at most {MAX_PIECES:,}")


def size_issues(source: Source, where: tuple, game: Game, component: Any) -> Iterable[Issue]:
    """What a component makes stays within the model's bounds once its entries are multiplied
    out: a deck's cards, a board's cells, a form's columns and its player counts."""
    if isinstance(component, (Deck, Tokens, Money)):
        count = piece_count(game, component)
        if count > MAX_PIECES:
            yield source.issue(where, f"makes {count:,} pieces (entries × assets × count × copies); a spec makes "
                                      f"at most {MAX_PIECES:,}")
    elif isinstance(component, Board):
        cells = sum(_section_cells(game, section) for section in component.sections)
        if cells > MAX_BOARD_CELLS:
            yield source.issue(where + ("sections",), f"the board's tracks make {cells:,} cells (each row, each "
                                                      f"place of a box counted); a board has at most {MAX_BOARD_CELLS:,}")
    elif isinstance(component, Form):
        seats = game.players
        for index, players in enumerate(component.players):
            if players > seats.max:
                yield source.issue(where + ("players", index), f"a form for {players} players in a game that seats "
                                                              f"at most {seats.max} (players.max)")
        most = max(component.players, default=seats.max)
        columns = sum(_form_columns(game, column, most) for column in component.columns)
        if columns > MAX_COLUMNS:
            yield source.issue(where + ("columns",), f"the columns expand to {columns:,} (per asset and player); a "
                                                     f"form has at most {MAX_COLUMNS}")


def _section_cells(game: Game, section: Any) -> int:
    track = game.tracks.get(section.track) if section.track is not None else None
    if track is None:
        return 0
    rows = len(game.assets) if section.rows == "each_asset" else 1
    places = len(game.assets) - 1 if section.holds == "pairs" else section.holds
    return track.size * rows * max(1, places)


def _form_columns(game: Game, column: Any, players: int) -> int:
    """The leaf columns `column` stands for once repeated per asset or player."""
    repeat = len(game.assets) if column.for_each == "asset" else players if column.for_each == "player" else 1
    return repeat * max(1, sum(_form_columns(game, sub, players) for sub in column.columns))
