"""The bounds of the model that only the whole game can check: what a component makes once its
entries are multiplied out (pieces, a board's cells, a form's columns and players) and how far
a board's track or a mat's zones reach in millimetres — each checked before a template is filled
or anything laid out, so a spec that would take minutes is refused in milliseconds. The bounds
themselves are the model's (`pnp.spec.model`, listed in docs/spec.md)."""

from __future__ import annotations

import math
from typing import Any, Iterable

from pnp.errors import Issue
from pnp.spec.elements import placed_elements
from pnp.spec.faces import piece_count
from pnp.spec.model import (
    MAPS,
    MAX_BOARD_CELLS,
    MAX_BOARD_MM,
    MAX_COLUMNS,
    MAX_PANEL_MM,
    MAX_PIECES,
    AnyComponent,
    Board,
    Deck,
    Form,
    Game,
    Mat,
    Money,
    Print,
    Spec,
    Tokens,
)
from pnp.spec.source import PathKey, Source


def extent_issues(source: Source, where: PathKey, game: Game, settings: Print) -> Iterable[Issue]:
    """Boards and mats within their bounds in millimetres: a track's row, a map's width, a mat's
    zones; and every free layout's element on its piece."""
    for index, component in enumerate(game.components):
        here = where + ("components", index)
        if isinstance(component, Board):
            for number, section in enumerate(component.sections):
                length = _track_length(game, section) * component.cell_mm
                if length > MAX_BOARD_MM:
                    yield source.issue(here + ("sections", number), f"its {'map' if section.layout in MAPS else 'track'} "
                                                                     f"lays out {length:,.0f} mm long "
                                                                     f"({section.layout}); a board's is at most "
                                                                     f"{MAX_BOARD_MM:,.0f} mm")
        elif isinstance(component, Mat):
            width, height = component.extent(settings.card_mm)
            if max(width, height) > MAX_PANEL_MM:
                yield source.issue(here + ("zones",), f"the zones side by side make {width:,.0f} × {height:,.0f} mm; "
                                                      f"a mat is at most {MAX_PANEL_MM:,.0f} mm either way")
        elif isinstance(component, (Deck, Tokens)):
            yield from _element_issues(source, here, component, settings)


def _element_issues(source: Source, here: PathKey, component: Deck | Tokens, settings: Print) -> Iterable[Issue]:
    """Each element's box on its piece: inside the trim and the bleed around it."""
    width, height = component.size_mm or settings.card_mm
    bleed = settings.bleed_mm
    piece = "card" if isinstance(component, Deck) else "token"
    for path, element in placed_elements(component):
        (x, y), (w, h) = element.at, element.size
        beyond = max(-bleed - x, -bleed - y, x + w - width - bleed, y + h - height - bleed)
        if beyond > 1e-6:
            yield source.issue(here + path + ("at",),
                               f"the {element.kind} element's box, {w:g} × {h:g} mm at [{x:g}, {y:g}], reaches "
                               f"{beyond:.4g} mm off the {piece}: a {width:g} × {height:g} mm {piece} with {bleed:g} mm "
                               f"of bleed holds boxes from {-bleed:g} to {width + bleed:g} mm across and "
                               f"{-bleed:g} to {height + bleed:g} mm down")


def _track_length(game: Game, section: Any) -> float:
    """The cells of a track section in a row as laid out: all of them, a grid's row, a loop's
    side; a map's columns (a hex map's in cells across their flats: a column takes ¾ of a
    hexagon's width, √3/2 across its flats)."""
    if section.layout in MAPS:
        columns = section.map_size[0]
        return (1.5 * columns + 0.5) / math.sqrt(3) if section.layout == "hex" else float(columns)
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


def size_issues(source: Source, where: PathKey, game: Game, component: AnyComponent) -> Iterable[Issue]:
    """What a component makes stays within the model's bounds once its entries are multiplied
    out: a deck's cards, a board's cells, a form's columns and its player counts; and nothing is
    made per asset in a game of plain pieces, which has none."""
    if not game.assets:
        for path in _per_asset(component):
            yield source.issue(where + path, "this game lists no companies, colours or currencies, so nothing is made "
                                             "per asset (or pair): list them, or give the pieces one by one")
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


def _per_asset(component: AnyComponent) -> Iterable[PathKey]:
    """The paths in a component of each field that repeats something per asset or pair."""
    entries = getattr(component, "cards", None) or getattr(component, "tokens", None) or ()
    for index, entry in enumerate(entries if isinstance(component, (Deck, Tokens)) else ()):
        if entry.for_each is not None:
            yield ("cards" if isinstance(component, Deck) else "tokens", index, "for_each")
    if isinstance(component, Money) and component.for_each is not None:
        yield ("for_each",)
    if isinstance(component, Board):
        yield from (("sections", index, "rows") for index, section in enumerate(component.sections)
                    if section.rows == "each_asset" or section.holds == "pairs")
    if isinstance(component, Form):
        yield from _asset_columns(component.columns, ("columns",))


def _asset_columns(columns: Any, path: PathKey) -> Iterable[PathKey]:
    for index, column in enumerate(columns):
        if column.for_each == "asset":
            yield path + (index, "for_each")
        yield from _asset_columns(column.columns, path + (index, "columns"))


def _section_cells(game: Game, section: Any) -> int:
    if section.layout in MAPS:  # counted without listing them: an area may be large
        columns, rows = section.area or (0, 0)
        return columns * rows + sum(1 for cell in section.cells if not (cell.at[0] < columns and cell.at[1] < rows))
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
