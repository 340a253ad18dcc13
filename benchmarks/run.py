"""Run every benchmark: `python benchmarks/run.py` (optionally with name filters).

Each `benchmarks/bench_*.py` exposes `main() -> list[tuple[str, float, str]]`: a figure's
name, its value and its unit. This runner imports them one by one, in name order, and prints
one table, so the figures quoted in issues and reports come from one command.

pnp's modules are compiled first, as `pip install` compiles them: where the environment sets
PYTHONDONTWRITEBYTECODE (this kind of machine does) every command would otherwise compile the
whole package again, about 0.3 s of CPU the floor scripts, reading reportlab's compiled
modules, never pay.
"""

from __future__ import annotations

import compileall
import importlib.util
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # this checkout's pnp, not whichever is installed


def discover(filters: list[str]) -> list[Path]:
    found = sorted(HERE.glob("bench_*.py"))
    return [p for p in found if not filters or any(f in p.stem for f in filters)]


def load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def run(paths: list[Path]) -> list[tuple[str, str, float, str]]:
    rows = []
    for path in paths:
        started = time.perf_counter()
        for name, value, unit in load(path).main():
            rows.append((path.stem, name, value, unit))
        print(f"  {path.stem}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return rows


def table(rows: list[tuple[str, str, float, str]]) -> str:
    if not rows:
        return "no benchmarks found"
    width = max(len(f"{b} · {n}") for b, n, _, _ in rows)
    lines = [f"{'benchmark':<{width}}  {'value':>12}  unit", "-" * (width + 22)]
    for bench, name, value, unit in rows:
        lines.append(f"{bench + ' · ' + name:<{width}}  {_number(value):>12}  {unit}")
    return "\n".join(lines)


def _number(value: float) -> str:
    return f"{value:,.3f}" if abs(value) < 100 else f"{value:,.0f}"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing
    compileall.compile_dir(HERE.parent / "pnp", quiet=1)
    paths = discover(argv)
    print(table(run(paths)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
