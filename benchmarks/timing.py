"""What the referee benchmark needs: wall times of `pnp referee check` in fresh processes.

Start-up counts at the table (a player types the command and waits), so the referee is timed
as a whole process, several times, and the median and best are reported.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7


def walls(command: list[str], runs: int = RUNS) -> list[float]:
    """Wall times of `runs` fresh processes of `command`, start-up included."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def check_walls(records: dict[str, str], runs: int = RUNS) -> dict[str, list[float]]:
    """Wall times of `pnp referee check` on each record text, by name."""
    check = [sys.executable, "-m", "pnp", "referee", "check"]
    with tempfile.TemporaryDirectory() as folder:
        paths = {name: Path(folder) / f"{name}.yaml" for name in records}
        for name, text in records.items():
            paths[name].write_text(text, encoding="utf-8")
        return {name: walls(check + [str(path)], runs) for name, path in paths.items()}
