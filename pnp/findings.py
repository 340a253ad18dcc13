"""One list of findings: what every check pnp makes says, in one shape.

A check — of the spec, a laid-out face, a sheet, a kit's translations, a booklet against its
rules — yields `Finding`s. `pnp validate` prints the list (or `--json` gives it), `build`'s
summary and the gallery render the same list; none of them runs a check of its own. A check is
added to the list once, never written a second time for another reader.

A finding says where (`file:line:col` in the spec or a catalog when there is such a place; the
game, the kit's language, the component and face when it is about something drawn), what is
wrong (one sentence) and how to fix it (one sentence). `error` is what a build would refuse;
`warning` is what prints but should not (`validate --strict` fails on it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from pnp.errors import MAX_LINE, Issue, shorten

Severity = Literal["error", "warning"]
SEVERITIES: tuple[Severity, ...] = ("error", "warning")


@dataclass(frozen=True)
class Finding:
    """One thing a check found, where it is and how to fix it."""

    check: str  # the check's id: "small-text", "colour-blind", "bleed", "sheet-coverage", "translation", …
    severity: Severity
    message: str  # what is wrong, one sentence
    fix: str = ""  # how to fix it, one sentence
    file: str = ""  # the spec or catalog the finding is located in; "" when no file holds the cause
    line: int = 0
    col: int = 0
    path: str = ""  # the field's path in that file (`games.bolsa.components[3].size_mm`)
    game: str = ""
    kit: str = ""  # the kit's language code; "" for the game's own language or the whole game
    component: str = ""
    face: str = ""
    box: tuple[float, float, float, float] | None = None  # x, y, w, h in mm on the face, for the gallery's outline

    @property
    def where(self) -> str:
        """`file:line:col` when located in a file, else the game, kit, component and face it is about."""
        if self.file:
            return f"{shorten(self.file, 120)}:{self.line}:{self.col}" if self.line else shorten(self.file, 120)
        kit = f".{self.kit}" if self.kit else ""
        return " ".join(p for p in (f"{self.game}{kit}" if self.game else "", self.component, self.face) if p)

    def __str__(self) -> str:
        about = " ".join(p for p in (self.component, self.face) if p) if self.file else ""
        head = ": ".join(p for p in (self.where, shorten(self.path, 100), about) if p)
        text = f"{head}: {self.severity}: {self.message}" if head else f"{self.severity}: {self.message}"
        if self.fix:
            text += f" — {self.fix}"
        return shorten(text, MAX_LINE)

    def as_json(self) -> dict[str, Any]:
        """The finding as `validate --json` and the manifest give it (`box` a list or null)."""
        data = asdict(self)
        data["box"] = list(self.box) if self.box is not None else None
        return data

    @classmethod
    def from_json(cls, entry: Any) -> Finding | None:
        """A finding as `as_json` wrote it (a manifest's, a cache's), or None when it is not one."""
        if not isinstance(entry, dict) or entry.get("severity") not in SEVERITIES:
            return None
        box = entry.get("box")
        try:
            return cls(**{**entry, "box": tuple(box) if isinstance(box, list) and len(box) == 4 else None})
        except TypeError:
            return None


def from_issue(issue: Issue, check: str, severity: Severity = "error", fix: str = "", *, game: str = "",
               kit: str = "", component: str = "", face: str = "") -> Finding:
    """A located `Issue` (the spec loader's and the layout's vocabulary) as a finding."""
    return Finding(check, severity, issue.message, fix, issue.file, issue.line, issue.col, issue.path,
                   game=game, kit=kit, component=component, face=face)


def in_kit(finding: Finding, kit: str) -> Finding:
    """The same finding, about the kit in language `kit`."""
    return replace(finding, kit=kit)


def errors(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == "error"]


def warnings(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == "warning"]


def verdict(findings: Iterable[Finding], *, strict: bool) -> int:
    """The exit status the list earns: 1 with an error, or with a warning under `--strict`; else 0."""
    found = list(findings)
    return 1 if errors(found) or (strict and warnings(found)) else 0
