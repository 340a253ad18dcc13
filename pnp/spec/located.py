"""A finding located again in the spec as it is now.

A finding is kept beyond the run that made it — `pnp validate` remembers a game's findings
in the user's cache, a build keeps those on the faces of components it takes from its cache —
and the spec may have been edited since: lines added elsewhere move its field, a component
may have moved in its list. The finding's field path (`games.bolsa.components[3].text`, as
`format_path` writes it) is read back and located again; a component's place in its list is
found again by its id.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from pnp.findings import Finding
from pnp.spec.model import Game, Spec
from pnp.spec.source import PathKey


def relocated(spec: Spec, finding: Finding) -> Finding:
    """`finding` at its field's line and column as the spec is now (as it was, when its path
    is not one the spec locates: a catalog's line, a path shortened for printing)."""
    parts = parse_path(finding.path)
    if parts is None or len(parts) < 2 or parts[0] != "games" or parts[1] not in spec.games:
        return finding
    if len(parts) > 3 and parts[2] == "components" and finding.component:
        moved = _component_moved(spec.games[parts[1]], parts, finding.component)
        if moved is None:
            return finding
        parts = moved
    where = spec.issue(parts, "")
    return replace(finding, file=where.file, line=where.line, col=where.col, path=where.path)


def _component_moved(game: Game, parts: PathKey, component: str) -> PathKey | None:
    """The path with the component at the index it has in the game's list now (the finding
    names it by id); None when the game no longer holds it."""
    index = next((i for i, c in enumerate(game.components) if c.id == component), None)
    return None if index is None else (*parts[:3], index, *parts[4:])


def parse_path(text: str) -> tuple[Any, ...] | None:
    """'games.bolsa.components[3].text' → ('games', 'bolsa', 'components', 3, 'text'); None for
    a path `format_path` shortened ("…")."""
    if not text or "…" in text:
        return None
    return tuple(int(index) if index else name for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", text))
