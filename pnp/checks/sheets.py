"""Checks of a kit's sheets, from the facts each run of sheets keeps (`pnp.sheets.Sheets`), so a
build checks the components it took from its cache as well as those it drew.

- **keep-out**: on a sheet made for a cutting machine (`print.cut`), every piece with its
  least bleed stays out of the registration marks' keep-out zones and inside the machine's
  area (`pnp.layout.registration`): the machine's sensor mistakes anything printed near a
  mark for it, and Cricut prints nothing outside its area. Imposition leaves those slots
  empty; the check holds the sheets a build prints to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.checks.layout import component_path
from pnp.findings import Finding
from pnp.layout.registration import Cutter, registration
from pnp.layout.sheet import Box

if TYPE_CHECKING:
    from pnp.checks import Subject


def keep_outs(subject: Subject) -> list[Finding]:
    """Each sheet with pieces reaching into its cutting machine's keep-out zones."""
    found = []
    for ids, facts in subject.sheets:
        if not facts.machine:
            continue
        across, down = facts.bleed or (0.0, 0.0)
        per_sheet = max(1, facts.pages_per_sheet)
        for page, width, height, trims in facts.cuts:
            reg = registration(Cutter(facts.machine, facts.inset), width, height)
            into = [t for t in trims if not reg.clear(Box(t[1] - across, t[2] - down, t[3] + 2 * across, t[4] + 2 * down))]
            if not into:
                continue
            sheet = page // per_sheet + 1
            pieces = f"{len(into)} piece{'s' if len(into) != 1 else ''}"
            path = component_path(subject.spec, subject.game_id, ids[0])
            found.append(subject.at(
                path, "keep-out", "warning",
                f"{pieces} of sheet {sheet} reach into the {facts.machine} registration marks' keep-out zone "
                f"(the first at {into[0][1]:.1f}, {into[0][2]:.1f} mm): the machine may take the print for a mark",
                "report it: pnp keeps those places empty (a smaller piece or another paper avoids it meanwhile)",
                component="+".join(ids)))
    return found
