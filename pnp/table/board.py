"""The position as the table lays it out: the referee's JSON state (`state_json`), arranged
like the components on the table, for any game.

What `pnp referee check --json` answers is what the page shows — the same numbers, so the two
can never disagree — grouped the way players check a board: values per company, colour or
currency as coloured markers (the spec's colours), one card per player with money and
holdings, tables for things with several numbers each (For-Ex pairs), lists in order (the
queue). Nothing here names a game's keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Marker:
    label: str
    value: str
    colour: str = ""  # the asset's colour, when the label is an asset
    path: str = ""  # where the value is in the JSON state ("players.Ana.cash"), for checking


@dataclass(frozen=True)
class Cell:
    text: str
    path: str = ""


@dataclass(frozen=True)
class Block:
    """One part of the position. `kind`: "markers" (label → value), "table" (`header`, `rows`),
    "list" (`items` in order), "line" (one value)."""

    title: str
    kind: str
    markers: tuple[Marker, ...] = ()
    header: tuple[str, ...] = ()
    rows: tuple[tuple[Cell, ...], ...] = ()  # the first cell of each row labels it
    items: tuple[str, ...] = ()
    value: str = ""
    path: str = ""


@dataclass(frozen=True)
class Seat:
    """One player's card: money and holdings."""

    name: str
    blocks: tuple[Block, ...]
    to_move: bool = False


@dataclass(frozen=True)
class Board:
    blocks: tuple[Block, ...]  # the table's: prices, pairs, supply, the queue …
    seats: tuple[Seat, ...]


def board(state: Mapping[str, Any], players: Sequence[str], colours: Mapping[str, str],
          acting: Sequence[str] = ()) -> Board:
    """The blocks of a `state_json`; `colours` maps asset ids to their colour."""
    blocks, seats = [], []
    for key, value in state.items():
        if key in ("over", "scores", "winners"):  # the page's banner says how the game ended
            continue
        if isinstance(value, Mapping) and value and set(value) <= set(players) and all(
                isinstance(v, Mapping) for v in value.values()):
            seats = [Seat(name, tuple(_block(k, v, colours, f"{key}.{name}.{k}") for k, v in value[name].items()),
                          name in acting) for name in players if name in value]
        else:
            blocks.append(_block(key, value, colours, key))
    return Board(tuple(blocks), tuple(seats))


def _block(key: str, value: Any, colours: Mapping[str, str], path: str) -> Block:
    title = _title(key)
    if isinstance(value, Mapping):
        inner = list(value.values())
        if inner and all(isinstance(v, Mapping) for v in inner) and len({tuple(v) for v in inner}) == 1:
            header = ("",) + tuple(_title(k) for k in inner[0])
            rows = tuple((Cell(str(k)),) + tuple(Cell(_text(x), f"{path}.{k}.{j}") for j, x in v.items())
                         for k, v in value.items())
            return Block(title, "table", header=header, rows=rows)
        return Block(title, "markers", markers=tuple(_markers(value, colours, path)))
    if isinstance(value, (list, tuple)):
        return Block(title, "list", items=tuple(_text(v) for v in value), path=path)
    return Block(title, "line", value=_text(value), path=path)


def _markers(value: Mapping[str, Any], colours: Mapping[str, str], path: str, label: str = "") -> list[Marker]:
    """label → value, a mapping inside flattened into its own markers ("auction best", Bolsa's
    auction in the company being traded), so every number keeps its place in the state."""
    found = []
    for k, v in value.items():
        name = f"{label} {_title(k)}" if label else str(k)
        if isinstance(v, Mapping) and v:
            found += _markers(v, colours, f"{path}.{k}", name)
        else:
            found.append(Marker(name, _text(v), colours.get(str(k), "") if not label else "", f"{path}.{k}"))
    return found


def _title(key: str) -> str:
    return str(key).replace("_", " ")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value)
    return str(value)
