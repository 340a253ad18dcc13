"""Every check pnp makes, in one list: what `pnp validate` runs, `pnp build` repeats in its
summary and the gallery shows, from the same functions.

A check reads one kit — a game in one language — as a `Subject`: its components' distinct
faces (`pnp.export.faces`), the facts about every run of sheets it prints, and the spec, and
returns `pnp.findings.Finding`s, each located (`file:line:col` in the spec or a catalog where
there is such a place; the game, kit, component and face it is about). `CHECKS` lists them;
a new check is one more line there:

- **faces** (`pnp.checks.faces`, `pnp.checks.colour`): type size by role, text in the bleed or
  outside the safe zone, glyphs, text contrast, colours a colour-blind player cannot tell apart;
- **art**: PNG and JPEG art printed below 300 dpi (`pnp.components.resolution`);
- **keep-out** (`keep_outs`): pieces clear of a cutting machine's registration marks;
- **sheet-coverage**, **sheet-bleed** (`pnp.printfile.sheet_findings`): a sheet of the print
  plan that goes out nearly empty, pieces with too little bleed to hide a stray cut;
- **booklet** (`pnp.components.consistency`): a summary line printing a number the rules it
  cites do not;
- **translation**: each fuzzy or missing translation of the kit (`pnp.translate.problems`), and
  each translation the kit cannot use (`pnp.translate.errors`).

What a build would refuse — the spec's errors, text that does not fit (`pnp.checks.layout`) —
comes first, as errors, from the loader; the checks above run on a kit that lays out.

`validate` (`verdict`) lays out each kit of a game afresh; a build hands the checks what it
drew, and for a component it took from its cache keeps what the last build found on its faces
(`carried`): the checks marked `drawn` read drawings a cached component does not have.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Sequence

from pnp.checks.colour import colour_checks
from pnp.checks.faces import Seen, contrast_checks, text_checks
from pnp.checks.layout import component_path, lay_out_kits, text_path
from pnp.components.consistency import kit_booklet_findings
from pnp.components.resolution import resolution_findings
from pnp.display import Panels
from pnp.export.faces import ComponentFaces, faces_of
from pnp.findings import Finding
from pnp.i18n import PSEUDO, SOURCE
from pnp.layout.registration import Cutter, registration
from pnp.layout.sheet import Box
from pnp.printfile import Unit, sheet_findings
from pnp.sheets import Sheets
from pnp.spec.located import relocated
from pnp.spec.model import Spec
from pnp.spec.translation import Kit

PathKey = tuple[Any, ...]


@dataclass(frozen=True)
class Subject:
    """One kit as the checks read it."""

    spec: Spec
    kit: Kit
    faces: tuple[ComponentFaces, ...]  # the distinct faces of its components drawn (a build's cached ones are not)
    sheets: tuple[tuple[tuple[str, ...], Sheets], ...]  # every run of sheets it prints: (its components' ids, facts)
    units: tuple[Unit, ...] = ()  # its combined file's print plan (none for a build of some components)
    printed_only: bool = False  # a build: only what the kit prints (not the referee's words)

    @property
    def game_id(self) -> str:
        return self.kit.game_id

    @property
    def code(self) -> str:
        """The kit's language as findings name it: "" for the game's own."""
        return "" if self.kit.default else self.kit.code

    def at(self, path: PathKey, check: str, severity: Any, message: str, fix: str, *, component: str = "",
           face: str = "", box: Any = None) -> Finding:
        """A finding located at a field of the spec."""
        where = self.spec.issue(path, "")
        return Finding(check, severity, message, fix, where.file, where.line, where.col, where.path,
                       game=self.game_id, kit=self.code, component=component, face=face, box=box)


Check = Callable[[Subject], list[Finding]]


@dataclass(frozen=True)
class Entry:
    """A check in the list: the kinds of finding it makes, and whether it reads drawings."""

    kinds: tuple[str, ...]
    check: Check
    drawn: bool = False  # reads the faces: a build keeps a cached component's findings from the last build


def face_findings(subject: Subject) -> list[Finding]:
    """Every face check on every distinct face of the kit."""
    found = []
    assets = subject.kit.game.assets
    safe_mm = subject.spec.print.safe_mm
    for component in subject.faces:
        for face in component.faces:
            page = face.side == "page"
            seen = [*text_checks(face.drawing, safe_mm, piece=component.pieces, page=page),
                    *contrast_checks(face.drawing, page=page), *colour_checks(face.drawing, assets, page=page)]
            found += [_placed(subject, s, component.id, face.name) for s in seen]
    return found


def _placed(subject: Subject, seen: Seen, component: str, face: str) -> Finding:
    """A face's finding at the spec field it comes from: the text's template, the asset's colour."""
    game = subject.spec.games[subject.game_id]
    if seen.text:
        path = text_path(subject.spec, subject.game_id, component, seen.text, subject.kit.language)
    elif seen.asset:
        index = next(i for i, a in enumerate(game.assets) if a.id == seen.asset)
        path = ("games", subject.game_id, game.asset_key, index, "color")
    else:
        path = component_path(subject.spec, subject.game_id, component)
    return subject.at(path, seen.check, seen.severity, seen.message, seen.fix, component=component, face=face,
                      box=seen.box)


def art_findings(subject: Subject) -> list[Finding]:
    """PNG and JPEG art printed below 300 dpi, once per file, with a component that prints it."""
    found = []
    for component in subject.faces:
        drawings = Panels(tuple(face.drawing for face in component.faces))
        found += [replace(f, kit=subject.code, component=component.id)
                  for f in resolution_findings(subject.spec, subject.game_id, [drawings])]
    return list({(f.file, f.line, f.col): f for f in found}.values())


def translations(subject: Subject) -> list[Finding]:
    """Each fuzzy or missing translation of the kit's language, at its catalog line (a text the
    catalog lacks at its spec line): the kit prints English, or an old sentence, there; and each
    translation not used (an unreadable catalog, a placeholder that is not its source's): an
    error, since the kit prints the source in its place."""
    code = subject.kit.code
    if code in (SOURCE, PSEUDO):
        return []
    from pnp.translate import errors, problems

    found = [replace(f, kit=subject.code) for f in errors(subject.spec, subject.game_id, (code,))]  # not used
    for issue in problems(subject.spec, subject.game_id, (code,), printed_only=subject.printed_only):
        message, fix = _split_fix(issue.message)
        found.append(Finding("translation", "warning", message, fix or "translate it in the catalog", issue.file,
                             issue.line, issue.col, issue.path, game=subject.game_id, kit=subject.code))
    return found


def _split_fix(message: str) -> tuple[str, str]:
    """A message ending in how to fix it, in parentheses, as its two sentences."""
    found = re.fullmatch(r"(?s)(.*\S) \(([^()]*)\)", message)
    return (found.group(1), found.group(2)) if found else (message, "")


def keep_outs(subject: Subject) -> list[Finding]:
    """Each sheet made for a cutting machine (`print.cut`) with pieces reaching, with their least
    bleed, into its registration marks' keep-out zones or out of the machine's area
    (`pnp.layout.registration`): the machine's sensor mistakes anything printed near a mark for
    it, and Cricut prints nothing outside its area. Imposition leaves those slots empty; the
    check holds the sheets a build prints to it."""
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


def plan_findings(subject: Subject) -> list[Finding]:
    """The kit's sheets as its combined file prints them (`pnp.printfile.sheet_findings`):
    nearly empty ones, too little bleed. Booklets are left out: their folded pages fill their
    own sheets and share none."""
    components = subject.kit.game.components
    units = [u for u in subject.units if any(components[m].kind != "booklet" for m in u.members)]
    return [replace(f, kit=subject.code) for f in sheet_findings(subject.spec, subject.game_id, units)]


def booklet_findings(subject: Subject) -> list[Finding]:
    """Summary lines of the kit's booklets that print a number the rules they cite do not."""
    return kit_booklet_findings(subject.spec, subject.kit)


CHECKS: tuple[Entry, ...] = (
    Entry(("small-text", "bleed", "safe-zone", "glyph", "contrast", "colour-blind"), face_findings, drawn=True),
    Entry(("art",), art_findings, drawn=True),
    Entry(("keep-out",), keep_outs),
    Entry(("sheet-coverage", "sheet-bleed"), plan_findings),
    Entry(("booklet",), booklet_findings),
    Entry(("translation",), translations),
)
DRAWN_KINDS = frozenset(kind for entry in CHECKS if entry.drawn for kind in entry.kinds)


def run(subject: Subject) -> list[Finding]:
    """Every check of the list on one kit."""
    return [finding for entry in CHECKS for finding in entry.check(subject)]


# --- pnp validate: each kit laid out afresh -------------------------------------------------------


def verdict(spec: Spec, game_id: str, languages: Sequence[str] | None = None) -> tuple[list[Any], list[Finding]]:
    """One game of a sound spec checked in each of its languages (or `languages`): what a build
    would refuse (located `Issue`s: then nothing else is checked) and every check's findings,
    each once however many kits it is found in (`merged`)."""
    issues, laid = lay_out_kits(spec, game_id, languages)
    if issues:
        return issues, []
    found = []
    for made in laid:
        faces = tuple(faces_of(made.kit.folder, m.component, m.laid.output) for m in made.items if m.laid is not None)
        runs = tuple(((m.component.id,), m.sheets) for m in made.items) + tuple((u.ids, u.sheets) for u in made.units
                                                                                if u.shared)
        found += run(Subject(spec, made.kit, faces, runs, made.units))
    return [], merged(found, [made.kit.code for made in laid], spec.games[game_id].language)


def merged(found: Iterable[Finding], codes: Sequence[str], default: str) -> list[Finding]:
    """Findings of several kits of one game, each once: one found alike in every kit is about
    the game (kit ""), else it is listed for each kit it is found in."""
    groups: dict[Finding, list[str]] = {}
    for finding in found:
        groups.setdefault(replace(finding, kit=""), []).append(finding.kit or default)
    everywhere = set(codes)
    result = []
    for finding, kits in groups.items():
        if set(kits) >= everywhere:
            result.append(finding)
        else:
            result += [replace(finding, kit="" if code == default else code) for code in dict.fromkeys(kits)]
    return result


# --- a build: what it drew, and what the last build found of the rest ------------------------------


def carried(spec: Spec, old: Iterable[dict[str, Any]], made: dict[str, bool], *, whole: bool) -> list[Finding]:
    """The findings the last build made of a kit (its manifest's entries) that this build keeps:
    those on the faces of components taken from the cache (`made`: component → drawn in this
    build), and with `--component` (not `whole`) those of the components not built; each
    located again in the spec as it is now."""
    kept = []
    for entry in old:
        finding = Finding.from_json(entry)
        if finding is None or not finding.component:
            continue
        if finding.component in made:
            if made[finding.component] or finding.check not in DRAWN_KINDS:
                continue
        elif whole:
            continue
        kept.append(relocated(spec, finding))
    return kept
