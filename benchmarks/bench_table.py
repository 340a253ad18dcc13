"""`pnp table`: how long a step takes to be judged and saved, how heavy the page is, how long
reopening a finished game takes.

Per game, a random legal game (the shared sampler) is entered through the web app in process
(Starlette's TestClient): each entry is a POST answered only after the record is on disk
(fsync included), then the page is fetched as a phone would after the redirect.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from importlib import resources
from pathlib import Path

from starlette.testclient import TestClient

from pnp.rules import load_spec
from pnp.rules.legal import draw
from pnp.table.game import TableGame
from pnp.table.web import create_app

PLAYERS = ["Ana", "Ben", "Cris", "Dan"]
STEPS = 60


def posted(template, values: dict) -> dict[str, str]:
    """The form fields a page posts for these template values."""
    fields = {}
    for f in template.fields:
        value = values[f.name]
        if f.kind == "number":
            fields[f"f.{f.name}"] = str(value)
        elif f.kind == "choice":
            fields[f"f.{f.name}"] = str(f.options.index(value))
        else:
            fields.update({f"g.{f.name}.{n}": str(f.options.index(v)) for n, v in enumerate(value)})
    return fields


def play(game: str, folder: Path, rng: random.Random) -> tuple[list[float], list[float], list[int], float]:
    table = TableGame.create(folder / f"{game}.yaml", load_spec(None), game, PLAYERS[:3 if game != "bolsa" else 4])
    client = TestClient(create_app(table))
    posts, pages, sizes = [], [], []
    for _ in range(STEPS):
        if table.to_move() is None:
            break
        templates = table.templates()
        index = rng.randrange(len(templates))
        body = {"v": table.version, "a": str(index), **posted(templates[index], draw(templates[index], rng))}
        start = time.perf_counter()
        answer = client.post("/enter", data=body, follow_redirects=False)
        if answer.status_code == 200:  # a tie to break: the first option
            answer = client.post("/enter", data={**body, "c.strongest": "0", "c.default": "0"}, follow_redirects=False)
        posts.append(time.perf_counter() - start)
        start = time.perf_counter()
        page = client.get("/")
        pages.append(time.perf_counter() - start)
        sizes.append(len(page.content))
    start = time.perf_counter()
    TableGame.open(table.path, load_spec(None))
    return posts, pages, sizes, time.perf_counter() - start


def main() -> list[tuple[str, float, str]]:
    rows = []
    static = resources.files("pnp.table") / "static"
    rows.append(("css + js", sum(len(f.read_bytes()) for f in static.iterdir()) / 1024, "KiB"))
    with tempfile.TemporaryDirectory() as folder:
        for game in ("bolsa", "aktsioner", "forex"):
            posts, pages, sizes, reopen = play(game, Path(folder), random.Random(7))
            rows += [
                (f"{game} step (judged + saved), median", statistics.median(posts) * 1000, "ms"),
                (f"{game} step, slowest", max(posts) * 1000, "ms"),
                (f"{game} page render, median", statistics.median(pages) * 1000, "ms"),
                (f"{game} page HTML, median", statistics.median(sizes) / 1024, "KiB"),
                (f"{game} page HTML, largest", max(sizes) / 1024, "KiB"),
                (f"{game} reopen after {len(posts)} steps", reopen * 1000, "ms"),
            ]
    return rows
