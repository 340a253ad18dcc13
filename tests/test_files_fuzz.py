"""Every file pnp reads besides the spec answered in seconds (issue #42): mutated catalogs, shard
pairs, manifests and images (tests/fuzz_files.py) each get exit 0, 1 or 2 from the command
that reads them — never an internal error or a traceback — within 5 s of CPU, under a 2 GiB
memory cap, with a message under 4,000 characters that says where. Five of each kind in the
fast lane, in one process; a thousand of each in the slow lane (`pytest -m slow`).

On a failure the kind, the seed, the index and the mutation are printed: `python
tests/fuzz_files.py KIND SEED INDEX` describes that mutant again."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from fuzz_files import KINDS, ROOT
from fuzz_spec import MEMORY

FAST = 5  # mutants of each kind in the fast lane
SLOW = 1000  # of each kind in the slow lane


def fuzz(kind: str, seed: int, count: int) -> tuple[list[dict], int]:
    """The answers to `count` mutants of `kind` ("all": each kind) of `seed`, from a process
    capped at 2 GiB, and its peak."""
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "fuzz_files.py"), kind, str(seed), "0", str(count)],
                            cwd=ROOT, capture_output=True, text=True, timeout=7200)
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    return rows, rows.pop()["peak_bytes"]


def failures(rows: list[dict], seed: int) -> list[str]:
    return [f"{row['kind']} seed {seed} index {row['index']} ({row['what']}): {'; '.join(row['problems'])}"
            for row in rows if row["problems"]]


def test_mutants_of_every_kind_of_file_are_each_answered_in_seconds_with_a_located_message():
    seed = 42
    rows, peak = fuzz("all", seed, FAST)
    assert not failures(rows, seed), "\n".join(failures(rows, seed)[:10])
    assert len(rows) == FAST * len(KINDS) and peak < MEMORY
    assert Counter(row["kind"] for row in rows) == {kind: FAST for kind in KINDS}
    refused = Counter(row["kind"] for row in rows if row["code"] in (1, 2))
    assert all(refused[kind] >= FAST // 4 for kind in KINDS), refused  # hostile files are refused, not let through


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_thousand_mutants_of_each_kind_of_file(kind):
    seed = 1
    rows, peak = fuzz(kind, seed, SLOW)
    assert not failures(rows, seed), "\n".join(failures(rows, seed)[:10])
    assert len(rows) == SLOW and peak < MEMORY
    codes = Counter(row["code"] for row in rows)
    assert codes[0] >= SLOW // 20 and codes[1] + codes[2] >= SLOW // 3, codes  # both kept and refused files
    assert max(row["seconds"] for row in rows) <= 5.0
