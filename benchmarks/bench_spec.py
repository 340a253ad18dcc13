"""The spec floor's figures (issues #25 and #29), in CPU seconds — the machine is shared, and
CPU time is what a command spends whatever else runs:

- loading and checking the bundled spec in a fresh process, as `pnp validate` does before its
  layout pass (the best of five): the import of the model (pydantic and the classes) and the
  load itself (YAML, shape, meaning, every engine's check);
- the spec fuzzer (tests/fuzz_spec.py) over MUTANTS mutants of every game at once, under its
  2 GiB cap: each exit's count, the answers out of bounds, the slowest and median answers, the
  peak memory;
- the slowest answer to the hostile specs of tests/corpus/spec.

Run it alone with `python benchmarks/bench_spec.py`; `benchmarks/run.py` finds `main()`.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = 600
SEED = 29
PROBE = """
import time
started = time.process_time()
import pnp.spec.model
from pnp.rules import load_spec
imported = time.process_time()
load_spec()
print(imported - started, time.process_time() - imported)
"""


def _fresh_load() -> tuple[float, float]:
    runs = []
    for _ in range(5):
        result = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, check=True,
                                env={"PATH": "/usr/bin:/bin", "PNP_CACHE": "off", "HOME": str(ROOT)})
        runs.append(tuple(float(value) for value in result.stdout.split()))
    return min(run[0] for run in runs), min(run[1] for run in runs)


def _fuzz() -> tuple[list[dict], int]:
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "fuzz_spec.py"), str(SEED), "0", str(MUTANTS),
                             "--all-games"], cwd=ROOT, capture_output=True, text=True, check=True)
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    return rows[:-1], rows[-1]["peak_bytes"]


def _corpus() -> float:
    sys.path.insert(0, str(ROOT / "tests"))
    from fuzz_spec import answer

    return max(answer(path).seconds for path in sorted((ROOT / "tests" / "corpus" / "spec").glob("*.yaml")))


def main() -> list[tuple[str, float, str]]:
    imported, loaded = _fresh_load()
    rows, peak = _fuzz()
    codes = Counter(row["code"] for row in rows)
    seconds = [row["seconds"] for row in rows]
    slowest = max(rows, key=lambda row: row["seconds"])
    print(f"slowest mutant: {slowest['kind']}: {slowest['what']}", file=sys.stderr)
    figures = [("import the model", imported, "s CPU"), ("load and check the bundled spec", loaded, "s CPU"),
               ("mutants answered", float(len(rows)), "runs")]
    figures += [(f"exit {code}", float(codes[code]), "runs") for code in (0, 1, 2, 3)]
    figures += [("answers out of bounds", float(sum(bool(row["problems"]) for row in rows)), "runs"),
                ("slowest mutant", max(seconds), "s CPU"), ("median mutant", statistics.median(seconds), "s CPU"),
                ("peak memory of the fuzzer", peak / 2**20, "MiB"), ("slowest hostile spec", _corpus(), "s CPU")]
    return figures


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<34} {value:>10.3f}  {unit}")
