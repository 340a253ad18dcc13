"""docs/design.md names only what exists: every file or folder path it quotes (`pnp/…`,
`tests/…`, `docs/…`, …; `<game>` standing for each bundled game) and every dotted name under
`pnp.` (the module, and the name defined in it) — so a newcomer who follows the design to a
file finds it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
ROOTS = ("pnp/", "tests/", "docs/", "scripts/", "benchmarks/", "examples/", "locale/")
GAMES = ("bolsa", "aktsioner", "forex")
QUOTED = re.compile(r"`([^`\s]+)`")


def _named() -> list[tuple[int, str]]:
    return [(number, quoted) for number, line in enumerate(DESIGN.read_text(encoding="utf-8").splitlines(), 1)
            for quoted in QUOTED.findall(line)]


def _path_missing(quoted: str) -> list[str]:
    """The expansions of a quoted path that do not exist (`<game>`: each game; a glob: at least one match)."""
    path = quoted.split("::")[0].rstrip(".,:;")
    spelled = [path.replace("<game>", g) for g in GAMES] if "<game>" in path else [path]
    return [p for p in spelled if not (any(ROOT.glob(p)) if "*" in p else (ROOT / p).exists())]


def _dotted_missing(quoted: str) -> str | None:
    """Why a dotted `pnp.module.name` does not resolve: no such module, or no such name in it."""
    parts = re.split(r"[(\[]", quoted, maxsplit=1)[0].rstrip(".").split(".")
    for end in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:end])
        module = base.with_suffix(".py") if base.with_suffix(".py").exists() else base / "__init__.py"
        if module.exists():
            rest = parts[end:]
            if not rest:
                return None
            text = module.read_text(encoding="utf-8")
            defined = re.search(rf"^\s*(?:def|class)\s+{re.escape(rest[0])}\b|^\s*{re.escape(rest[0])}\s*[:=]|"
                                rf"import .*\b{re.escape(rest[0])}\b", text, re.M)
            return None if defined else f"{'.'.join(parts[:end])} defines no {rest[0]}"
    return "no such module"


def test_design_names_only_files_that_exist():
    missing = [f"docs/design.md:{n}: {q} ({', '.join(_path_missing(q))})"
               for n, q in _named() if q.startswith(ROOTS) and _path_missing(q)]
    assert not missing, "\n".join(missing)


def test_design_names_only_modules_and_names_that_exist():
    missing = [f"docs/design.md:{n}: {q}: {why}" for n, q in _named()
               if re.match(r"pnp\.[a-z_]", q) and (why := _dotted_missing(q))]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("quoted, missing", [("pnp/rules/<game>/setup.py", ["pnp/rules/aktsioner/setup.py",
                                                                                   "pnp/rules/forex/setup.py"]),
                                             ("pnp/rules/<game>/engine.py", []), ("tests/records/*/x01*.yaml", [])])
def test_a_game_pattern_is_checked_for_every_game(quoted, missing):
    assert _path_missing(quoted) == missing
