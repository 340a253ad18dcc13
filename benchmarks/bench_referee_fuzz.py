"""The referee's fuzz figures (issue #13): every record under tests/records mutated 28 times
(four of each kind: types, numbers, nesting, keys, players, encodings, lines;
tests/fuzz_records.py, the fuzz test's own mutations, which it runs 14 of per record) and
checked in this process as `pnp referee check --json` runs: how many mutants, how many got
each exit, how many answers broke a bound (an internal error, a line too long, JSON that
contradicts the exit), and the slowest and median times.

Run it alone with `python benchmarks/bench_referee_fuzz.py`; `benchmarks/run.py` finds `main()`.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzz_records import check, mutants, problems, records  # noqa: E402

PER_RECORD = 28
SEED = 7


def main() -> list[tuple[str, float, str]]:
    codes: Counter[int] = Counter()
    times, broken, slowest = [], 0, (0.0, "")
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "fuzzed.yaml"
        for record in records():
            for kind, data in mutants(record, PER_RECORD, SEED):
                target.write_bytes(data)
                run = check(target)
                codes[run.code] += 1
                times.append(run.seconds)
                broken += bool(problems(run))
                slowest = max(slowest, (run.seconds, f"{record.name} ({kind})"))
    print(f"slowest: {slowest[1]}", file=sys.stderr)
    rows = [("records mutated", float(len(records())), "records"), ("mutants checked", float(len(times)), "runs")]
    rows += [(f"exit {code}", float(codes[code]), "runs") for code in (0, 1, 2, 3)]
    rows += [("answers out of bounds", float(broken), "runs"),
             ("slowest mutant", max(times), "s"), ("median mutant", statistics.median(times), "s")]
    return rows


if __name__ == "__main__":
    for name, value, unit in main():
        print(f"{name:<24} {value:>10.3f}  {unit}")
