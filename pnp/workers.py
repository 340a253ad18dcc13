"""Worker processes that die with the run that started them.

A pool's workers are children of the run (a build's renderers, a simulation's players). When the
run is killed — SIGKILL included, which no handler sees — its workers must not play on for
minutes, holding cores and memory nobody will read. `die_with_parent` is the pool's initializer:
on Linux it asks the kernel to kill the worker when its parent dies (the parent-death signal);
everywhere, a worker whose parent is already gone exits at once.
"""

from __future__ import annotations

import os
import signal
import sys

_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int) -> None:
    """In a worker: be killed when process `parent` (the run) is, so a killed run leaves no
    worker behind; elsewhere than Linux, workers exit when they find the pool gone."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the run died before the signal was asked for
        os._exit(1)
