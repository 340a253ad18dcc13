"""Where a cold `pnp build` spends its CPU: a spec (default: the bundled one) built once into an
empty folder with an empty user cache, in this one process (no forked workers: `FORK_FROM`
raised, so `time.process_time` sees every stage), each stage of `pnp.build.build` timed on its
own, the pre-flight checks of every face (`pnp.checks`) among them.

The rendering of the sheets is the part the floor (`floor_reportlab.py`) compares with:
reportlab drawing the kit's own pages, from display lists already made. It is the build's
content floor — what no pipeline around it can go below.

    python benchmarks/build_stages.py OUT_FOLDER [SPEC]     (prints JSON: stage → CPU seconds)
"""

from __future__ import annotations

import json
import sys
import time
from functools import wraps
from pathlib import Path
from typing import Any, Callable

STAGES = {  # `pnp.build`'s stages, as the table names them
    "components": "drawing the components",
    "layout": "laying them out",
    "sheets": "rendering the sheets",
    "files": "print files and change lists",
    "exports": "gallery and exports",
    "findings": "pre-flight checks",
    "record": "manifest and gallery page",
}
STARTED = time.process_time()  # the interpreter's start-up, before anything of pnp is imported


def main(out: Path, spec_file: Path | None = None) -> dict[str, float]:
    imported = time.process_time()
    from pnp import build as pipeline
    from pnp import sheets
    from pnp.export import pictures
    from pnp.rules import load_spec

    sheets.FORK_FROM = 10**9
    spent: dict[str, float] = {"start-up": STARTED, "imports": time.process_time() - imported}
    inside: list[str] = []

    def timed(stage: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function`, its CPU added to `stage` less what stages called inside it take."""
        @wraps(function)
        def run(*args: Any, **kwargs: Any) -> Any:
            began = time.process_time()
            inside.append(stage)
            try:
                return function(*args, **kwargs)
            finally:
                inside.pop()
                took = time.process_time() - began
                spent[stage] = spent.get(stage, 0.0) + took
                if inside:
                    spent[inside[-1]] = spent.get(inside[-1], 0.0) - took
        return run

    for function, stage in STAGES.items():
        setattr(pipeline, function, timed(stage, getattr(pipeline, function)))
    pictures.make = timed("gallery pictures", pictures.make)  # none in a plain build
    began = time.process_time()
    spec = load_spec(spec_file)
    spent["reading the spec"] = time.process_time() - began
    began = time.process_time()
    pipeline.build(spec, out, tuple(spec.games))
    spent["in all"] = time.process_time() - began + spent["start-up"] + spent["imports"] + spent["reading the spec"]
    return spent


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)))
