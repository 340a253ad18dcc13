"""What the referee benchmark needs: wall times of `pnp referee check` in fresh processes.

Start-up counts at the table (a player types the command and waits), so the referee is timed
as a whole process, several times, and the median and best are reported; against a baseline
command the two run in turn (A B A B …) and the median of the pairwise ratios is reported, so
a drift in the machine's speed falls on both.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Mapping

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7
CHECK = [sys.executable, "-m", "pnp", "referee", "check"]
IMPORT_YAML = [sys.executable, "-c", "import yaml"]


def wall(command: list[str], env: Mapping[str, str] | None = None) -> float:
    """The wall time of one fresh process of `command`, start-up included."""
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def walls(command: list[str], runs: int = RUNS, env: Mapping[str, str] | None = None) -> list[float]:
    return [wall(command, env) for _ in range(runs)]


def ratio(command: list[str], baseline: list[str], runs: int = RUNS, env: Mapping[str, str] | None = None) -> float:
    """Median over interleaved runs of wall(command) / wall(baseline), after one warm-up each."""
    wall(command, env), wall(baseline, env)
    return statistics.median(wall(command, env) / wall(baseline, env) for _ in range(runs))


def check_walls(records: dict[str, str], runs: int = RUNS) -> dict[str, list[float]]:
    """Wall times of `pnp referee check` on each record text, by name (a warm parameter cache)."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PNP_CACHE": str(Path(folder) / "cache")}
        paths = {name: Path(folder) / f"{name}.yaml" for name in records}
        for name, text in records.items():
            paths[name].write_text(text, encoding="utf-8")
            wall(CHECK + [str(paths[name])], env)
        return {name: walls(CHECK + [str(path)], runs, env) for name, path in paths.items()}


def start_up_ratios(record: str, runs: int = RUNS) -> tuple[float, float]:
    """`pnp referee check` on `record` against `python -c "import yaml"`: with the engine's
    parameters cached (every answer after the first for a spec), and with no cache."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.yaml"
        path.write_text(record, encoding="utf-8")
        warm = {**os.environ, "PNP_CACHE": str(Path(folder) / "cache")}
        cold = {**os.environ, "PNP_CACHE": "off"}
        return ratio(CHECK + [str(path)], IMPORT_YAML, runs, warm), ratio(CHECK + [str(path)], IMPORT_YAML, runs, cold)
