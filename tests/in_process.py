"""`pnp ARGS` run by `pnp.cli.main` in the test's own process, as `python -m pnp` runs it
(`raise SystemExit(main())`), for tests about what the command does rather than about its
process: no second of interpreter and imports per call."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from pnp.cli import main


class Ran(NamedTuple):
    """What a `subprocess.run(..., capture_output=True, text=True)` of the command gives."""

    returncode: int
    stdout: str
    stderr: str


def pnp_here(capsys: Any, *args: str, cwd: Path) -> Ran:
    """`pnp ARGS` from the folder `cwd` (put back after): its exit status (argparse's SystemExit
    included), and its stdout and stderr as pytest's `capsys` caught them."""
    before = os.getcwd()
    capsys.readouterr()
    os.chdir(cwd)
    try:
        code = main(list(args))
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    finally:
        os.chdir(before)
    out, err = capsys.readouterr()
    return Ran(code, out, err)


def error_lines(answer: dict[str, Any]) -> str:
    """A `--json` error answer (exit 2) as the lines the command prints without `--json`:
    `file:line:col: path: sentence`, one per problem."""
    return "\n".join(f"{e['where']}: {e['at']}: {e['error']}" if e["at"] else f"{e['where']}: {e['error']}"
                     for e in answer.get("errors", [answer]))
