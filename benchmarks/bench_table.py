"""`pnp table`: how long a step takes to be judged and saved, early in a game and late in a long
one (their ratio is the figure: a step's cost must not grow with the game), how long a seat's
page and its live update take to draw, how long reopening a finished game takes.

Per game, random legal steps from the seats' own templates (the shared sampler) are entered in
process, each committed to disk (the journal, the record, the log, flushed) before the next;
every seat's view is drawn after each, as six phones would ask for it. CPU time, so the noise of
a shared machine (and of its disk's flushes) stays out of the ratios.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from starlette.testclient import TestClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from pnp.rules import load_spec  # noqa: E402
from pnp.table import api, files, seats  # noqa: E402
from pnp.table.game import TableGame  # noqa: E402
from pnp.table.steps import Actor  # noqa: E402
from pnp.table.web import create_app  # noqa: E402
from table_helpers import random_step  # noqa: E402

PLAYERS = ["Ana", "Ben", "Cris", "Dani", "Eva", "Fer"]
LONG = {"bolsa": {"rounds": 10}, "aktsioner": {}, "forex": {}}


def play(game: str, folder: Path, rng: random.Random) -> dict[str, float]:
    spec = load_spec(None)
    table = TableGame.create(folder / f"{game}.yaml", spec, game, PLAYERS, LONG[game])
    steps: list[float] = []
    views: list[float] = []
    while table.to_move() is not None and len(steps) < 400:
        start = time.process_time()
        random_step(table, rng)
        steps.append(time.process_time() - start)
        start = time.process_time()
        for name in PLAYERS:
            api.state_answer(table, seats.view(table, Actor(name)))
        views.append((time.process_time() - start) / len(PLAYERS))
    tokens = files.seat_tokens(table.path, PLAYERS)
    client = TestClient(create_app(table, tokens))
    client.get(f"/?t={tokens.of('Ana')}")
    pages, parts = [], []
    for _ in range(10):
        start = time.process_time()
        page = client.get("/")
        pages.append(time.process_time() - start)
        start = time.process_time()
        client.get("/api/state?fragments=1")
        parts.append(time.process_time() - start)
    table.close()
    start = time.process_time()
    TableGame.open(table.path, spec).close()
    reopen = time.process_time() - start
    tenth = max(10, len(steps) // 10)
    return {"steps": len(steps), "early": statistics.median(steps[:tenth]), "late": statistics.median(steps[-tenth:]),
            "view": statistics.median(views), "page": statistics.median(pages), "parts": statistics.median(parts),
            "size": len(page.content), "reopen": reopen}


def main() -> list[tuple[str, float, str]]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for game in ("bolsa", "aktsioner", "forex"):
            found = play(game, Path(folder), random.Random(7))
            rows += [
                (f"{game}: steps in a 6-player game", found["steps"], "steps"),
                (f"{game} step (judged + saved), CPU, first tenth, median", found["early"] * 1000, "ms"),
                (f"{game} step, CPU, last tenth, median", found["late"] * 1000, "ms"),
                (f"{game} step, last tenth / first tenth", found["late"] / found["early"], "ratio"),
                (f"{game} a seat's /api/state, CPU, median", found["view"] * 1000, "ms"),
                (f"{game} a seat's page, CPU, median", found["page"] * 1000, "ms"),
                (f"{game} a seat's live update (state + parts), CPU, median", found["parts"] * 1000, "ms"),
                (f"{game} page HTML", found["size"] / 1024, "KiB"),
                (f"{game} reopen after the game, CPU", found["reopen"] * 1000, "ms"),
            ]
    return rows
