"""Shared sheets: small components of one stock printed together, so no sheet goes out nearly
empty.

Three ways, the first two tried along the print order: pieces of one size (big and small
cards, contracts and dividends) are imposed as one run when that saves a sheet, each piece
keeping its own back; components that each fill less than a sheet (seven tokens, six loan
markers) share one sheet, each in its own band (`impose.gang`). Then what still takes a sheet
of its own goes, if it fits, into the room the last sheet of a longer run of the same stock
leaves (`impose.fill`: four price tokens under the cards' last row). Each component keeps its
own file; only the combined print file uses the shared sheets, and its print plan says which
components share them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from pnp.display import Pieces
from pnp.layout.impose import Duplex, Imposition, fill, gang, impose
from pnp.layout.registration import Cutter
from pnp.layout.sheet import Furniture


@dataclass(frozen=True)
class Candidate:
    """A component made of pieces, as laid out alone, with the stock it is printed on."""

    index: int  # the caller's index of the component
    output: Pieces
    layout: Imposition
    stock: str


@dataclass(frozen=True)
class Shared:
    """Components printed on the same sheets, and those sheets."""

    members: tuple[int, ...]  # the candidates' indexes, in print order
    layout: Imposition


def share_sheets(candidates: Sequence[Candidate], paper: str, margin: float, duplex: Duplex,
                 info: Callable[[tuple[int, ...]], Furniture],
                 back_offset: tuple[float, float] = (0.0, 0.0),
                 cut: Callable[[str], Cutter | None] = lambda stock: None,
                 ) -> list[Shared]:
    """The groups of two or more consecutive candidates that print on fewer sheets together
    than apart; `info` gives the sheet furniture for a group of members, `cut` the cutting
    machine (if any) whose marks go on sheets of a stock."""
    groups: list[tuple[list[Candidate], list[Pieces], Imposition]] = []
    for candidate in candidates:
        if groups:
            members, parts, layout = groups[-1]
            joined = _join(members, parts, layout, candidate, paper, margin, duplex, info, back_offset,
                           cut(candidate.stock))
            if joined is not None:
                groups[-1] = joined
                continue
        groups.append(([candidate], [candidate.output], candidate.layout))
    groups = _filled(groups, paper, margin, duplex, info, back_offset, cut)
    return [Shared(tuple(c.index for c in members), layout) for members, _, layout in groups if len(members) > 1]


Group = tuple[list[Candidate], list[Pieces], Imposition]


def _filled(groups: list[Group], paper: str, margin: float, duplex: Duplex, info: Callable[[tuple[int, ...]], Furniture],
            back_offset: tuple[float, float], cut: Callable[[str], Cutter | None]) -> list[Group]:
    """The groups with each one-sheet group moved into the last sheet of the first longer
    group of its stock that has room for it (see `impose.fill`)."""
    groups = list(groups)
    for small in [g for g in groups if g[2].sheets == 1]:
        for k, host in enumerate(groups):
            members, parts, layout = host
            if host is small or len(parts) != 1 or layout.sheets < 2 or members[0].stock != small[0][0].stock:
                continue
            together = tuple(c.index for c in [*members, *small[0]])
            base = impose(parts[0], paper, margin, duplex, info(together), back_offset, cut(members[0].stock))
            joined = fill(base, len(parts[0].pieces), small[1], paper, margin, back_offset)
            if joined is not None:
                groups[k] = ([*members, *small[0]], parts, joined)
                groups.remove(small)
                break
    return groups


def _join(members: list[Candidate], parts: list[Pieces], layout: Imposition, candidate: Candidate, paper: str,
          margin: float, duplex: Duplex, info: Callable[[tuple[int, ...]], Furniture],
          back_offset: tuple[float, float], cut: Cutter | None) -> tuple[list[Candidate], list[Pieces], Imposition] | None:
    """The group with `candidate` added, if it is of the same stock and saves a sheet."""
    if candidate.stock != members[-1].stock:
        return None
    together = [*members, candidate]
    furniture = info(tuple(c.index for c in together))
    last = parts[-1]
    if len(parts) == 1 and _same_size(last, candidate.output):
        run = replace(last, pieces=last.pieces + candidate.output.pieces, two_sided=last.two_sided or candidate.output.two_sided)
        joined = impose(run, paper, margin, duplex, furniture, back_offset, cut)
        if joined.sheets < layout.sheets + candidate.layout.sheets:
            return together, [run], joined
    if layout.sheets == 1 and candidate.layout.sheets == 1:
        shared = gang([*parts, candidate.output], paper, margin, duplex, furniture, back_offset, cut)
        if shared is not None:
            return together, [*parts, candidate.output], shared
    return None


def _same_size(a: Pieces, b: Pieces) -> bool:
    return (a.width, a.height, a.bleed, a.cut) == (b.width, b.height, b.bleed, b.cut)
