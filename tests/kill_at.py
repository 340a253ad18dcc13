"""`python tests/kill_at.py N FOLDER pnp ARGS…`: run `pnp ARGS` in FOLDER and kill it (SIGKILL, which
no handler sees) just before its N-th write step; a run that ends first lists its steps on stderr
(`step 3: os.replace .../dash.po`) and then how many it took (`write steps: S`).

A write step is what Python's audit hooks report of a change to the file system inside FOLDER:
opening a file to write it, a rename or replace, a removal, a new folder or link. Killing before
each in turn is a kill at every instant that can leave a file half done (tests/test_atomic_saves.py).
"""

from __future__ import annotations

import os
import signal
import sys

WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
CHANGES = {"os.rename", "os.replace", "os.remove", "os.rmdir", "os.link", "os.symlink", "os.mkdir", "os.truncate",
           "shutil.rmtree", "shutil.move", "os.chmod"}


def main(argv: list[str]) -> int:
    kill_at, folder, args = int(argv[0]), os.path.realpath(argv[1]), argv[3:]
    steps, me, taken = 0, os.getpid(), []

    def inside(path: object) -> bool:
        if isinstance(path, int):
            return False
        try:
            return os.path.realpath(os.fsdecode(path)).startswith(folder + os.sep)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return False

    def hook(event: str, details: tuple) -> None:
        nonlocal steps
        if os.getpid() != me:  # a forked worker: the run's own steps are counted
            return
        if event == "open":
            path, mode, flags = details
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (mode is None and flags & WRITING)
        elif event in CHANGES:
            path, writes = details[0], True
        else:
            return
        if writes and inside(path):
            steps += 1
            if steps == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            taken.append(f"step {steps}: {event} {os.fsdecode(path)}")  # type: ignore[arg-type]

    os.chdir(folder)
    sys.addaudithook(hook)
    from pnp.cli import main as pnp

    code = pnp(args)
    print(*taken, f"write steps: {steps}", sep="\n", file=sys.stderr)
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
