"""What a build changed on paper, compared with the build before it in the same folder.

The manifest holds a digest per sheet of paper (stamps left out) for every print unit of a
combined file (a component, or components sharing sheets) and every component file, so two
builds compare sheet by sheet, in place: sheet 3 changed, sheets 11–12 are new, sheets 9–10 are
gone. Sheets keep their place when cards are added at the end: a sheet's digest leaves out the
"of m" of its header. A unit that took or lost another component's pieces (its id now
"player_mats+tokens", or no longer) compares with what its first component's sheets were. The result is the manifest's `changed` list, the lines `pnp build` prints, and the
table of the reprint file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from pnp.i18n import N_, _, ngettext
from pnp.manifest import Change, Entry

LAST_BUILD = N_("the last build")  # what changes count from when no print is marked and no --since given
SINCE_BUILD = N_("the build of {mark}")  # --since MANIFEST
SINCE_PRINT = N_("the print marked {mark}")  # the build marked as printed, by its stamp


@dataclass(frozen=True)
class Since:
    """What a game's changes count from, kept as a template and its mark so that every kit
    words it in its own language (the reprint page) and the terminal in English."""

    template: str = LAST_BUILD
    mark: str = ""

    def words(self, translate: Callable[[str], str] = str) -> str:
        return translate(self.template).format(mark=self.mark)


SINCE_LAST_BUILD = Since()


def compare(game: str, old: Sequence[dict[str, Any]], new: Sequence[tuple[str, Sequence[str]]]) -> list[Change] | None:
    """The changes from `old` (the earlier manifest's entries of `game`: units or components,
    each with an "id" and its "sheets") to `new` ((id, sheet digests) in order), removed ones
    last; None when there is nothing to compare with."""
    if not _comparable(old):
        return None
    ids = {entry_id for entry_id, _ in new}
    before = {e["id"]: e for e in old}
    moved = {_host(e["id"]): e for e in old if e["id"] not in ids}  # a unit whose guests changed: by its host
    changes = []
    for entry_id, now in new:
        earlier = before.get(entry_id) or moved.pop(_host(entry_id), None)
        change = _changed(game, entry_id, now, earlier)
        if change is not None:
            changes.append(change)
    return changes + _removed(game, old, ids, moved)


def _comparable(old: Sequence[Entry]) -> bool:
    """Whether there is an earlier build to compare with, one written since sheets were recorded."""
    return bool(old) and all(isinstance(e.get("sheets"), list) and isinstance(e.get("id"), str) for e in old)


def _removed(game: str, old: Sequence[Entry], ids: set[str], moved: Mapping[str, object]) -> list[Change]:
    """The earlier entries this build no longer has, nor compared under another id (`moved`:
    the units not yet matched, by host): all their sheets dropped."""
    kept = ids | {e["id"] for e in old if e["id"] not in ids and _host(e["id"]) not in moved}
    return [Change(game, e["id"], "removed", (), tuple(range(1, len(e["sheets"]) + 1)), len(e["sheets"]))
            for e in old if e["id"] not in kept]


def _changed(game: str, entry_id: str, now: Sequence[str], earlier: dict[str, Any] | None) -> Change | None:
    """What became of one unit's sheets: all new, some changed, added or dropped, or none."""
    if earlier is None:
        return Change(game, entry_id, "added", tuple(range(1, len(now) + 1)))
    was = tuple(earlier["sheets"])
    sheets = tuple(n for n, digest in enumerate(now, 1) if n > len(was) or was[n - 1] != digest)
    dropped = tuple(range(len(now) + 1, len(was) + 1))
    return Change(game, entry_id, "changed", sheets, dropped, len(was)) if sheets or dropped else None


def _host(unit_id: str) -> str:
    """The component whose sheets a print unit is: the first of its members ("player_mats" of
    "player_mats+tokens"), so a unit that gains or loses a guest compares with what it was."""
    return unit_id.split("+", 1)[0]


def numbers(values: Sequence[int]) -> str:
    """1-based numbers as short ranges: (3, 5, 6, 7) → "3, 5–7"."""
    runs: list[list[int]] = []
    for value in values:
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def sheets_text(values: Sequence[int]) -> str:
    """"sheet 3" or "sheets 3, 5–7"."""
    return ngettext("sheet {numbers}", "sheets {numbers}", len(values)).format(numbers=numbers(values))


def action(change: Change) -> str:
    """What to do about the sheets already printed: "replace sheet 3; add sheets 11–12 after sheet 10"."""
    if change.status == "added":
        return _("new: print all {sheets}").format(sheets=sheets_text(change.sheets)) if change.sheets else _("new")
    if change.status == "removed":
        return _("removed: discard its {sheets}").format(sheets=sheets_text(change.dropped))
    return _changed_sheets(change)


def _changed_sheets(change: Change) -> str:
    """A changed component's sheets: those to replace, those to add (after the sheets it had),
    those to discard."""
    before = change.before
    replaced = [n for n in change.sheets if n <= before]
    added = [n for n in change.sheets if n > before]
    parts = []
    if replaced:
        parts.append(_("replace {sheets}").format(sheets=sheets_text(replaced)))
    if added:
        parts.append(_("add {sheets} after sheet {n}").format(sheets=sheets_text(added), n=before) if before
                     else _("add {sheets}").format(sheets=sheets_text(added)))
    if change.dropped:
        parts.append(_("discard {sheets}").format(sheets=sheets_text(change.dropped)))
    return "; ".join(parts)
