"""What the table's tests share: entering steps as a seat's page would, reading the record back
through `pnp referee check`, and running a real `pnp table` process to kill."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx  # the test extra installs httpx2, as Starlette's TestClient wants

from pnp.cli import main
from pnp.rules import legal, load_spec
from pnp.table import seats
from pnp.table.files import beside
from pnp.table.game import TableGame
from pnp.table.steps import HOST, Actor, Entry, NeedsChoice, Submission, mine

SPEC = load_spec(None)
ROOT = Path(__file__).resolve().parents[1]


def checked(path: Path, *spec: str) -> dict[str, Any]:
    """`pnp referee check --json` on the file, which must exit 0."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["referee", "check", str(path), "--json", *spec])
    assert code == 0, out.getvalue()
    return json.loads(out.getvalue())


def shown(table: TableGame) -> dict[str, Any]:
    """The position everyone sees (before a sealed phase's entries)."""
    return table.state_json(table.public_state())


def key(table: TableGame, player: str | None, kind: str, actor: Actor = HOST) -> int:
    """The number (`Submission.n`) of `player`'s first step of `kind` on `actor`'s page."""
    offers = seats.view(table, actor).offers
    return next(o.n for o in offers if o.player == player and o.template.kind == kind)


def enter(table: TableGame, player: str | None, kind: str, picks: dict | None = None, actor: Actor | None = None,
          choices: dict | None = None) -> Entry:
    """A step as `actor`'s page posts it (default: the player's own seat; the table's steps, the host)."""
    actor = actor or (Actor(player) if player else HOST)
    submission = Submission(player, key(table, player, kind, actor), picks or {}, choices or {})
    return table.enter(actor, seats.version(table, actor), submission)


def declare(table: TableGame, player: str, actor: Actor | None = None, **counts: int) -> Entry:
    """A Bolsa declaration as a seat's page posts it: `sell_IBE=1, buy_TEF=2`."""
    return enter(table, player, "declare", {k.replace("_", "."): n for k, n in counts.items()}, actor)


def picks(template: Any, values: dict) -> dict:
    """The form's numbers for drawn values: numbers as they are, options by their place."""
    found = {}
    for f in template.fields:
        value = values[f.name]
        found[f.name] = (value if f.kind == "number" else list(f.options).index(value) if f.kind == "choice"
                         else tuple(list(f.options).index(v) for v in value))
    return found


def random_step(table: TableGame, rng: random.Random) -> Entry | None:
    """A random legal step from a seat's own templates (the table's, by the host, when nobody
    else may act), ties broken with the first option; None once the game is over."""
    who = table.to_move()
    if who is None:
        return None
    player = rng.choice(who.players) if who.players else None
    actor = Actor(player) if player else HOST
    offers = seats.view(table, actor).offers
    offer = rng.choice([o for o in offers if o.player == player])
    values = picks(offer.template, legal.draw(offer.template, rng))
    version = seats.version(table, actor)
    try:
        return table.enter(actor, version, Submission(player, offer.n, values))
    except NeedsChoice as needed:
        return table.enter(actor, version, Submission(player, offer.n, values, {needed.needed.what: 0}))


def templates_of(table: TableGame, player: str | None) -> list:
    return mine(table.templates(), player)


# --- phones ----------------------------------------------------------------------------------------


def phone(app: Any, token: str, base: str = "http://testserver", **options: Any) -> Any:
    """A Starlette test client as a phone opening its link: the token goes into a cookie bound
    to the actor's page (`/1/`, `/host/`), which is the client's address from then on. It says
    what a browser says of a post from the page itself (`Sec-Fetch-Site: same-origin`)."""
    from starlette.testclient import TestClient

    client = TestClient(app, base_url=base, follow_redirects=False, **options)
    opened = client.get(f"/?t={token}")
    assert opened.status_code == 303, opened.text
    client.base_url = base + opened.headers["location"]
    client.headers["sec-fetch-site"] = "same-origin"
    return client


def new_key() -> str:
    """A change's key, as a client makes one (each change its own)."""
    return secrets.token_urlsafe(12)


def form_fields(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the page's first form posting to `action` (its version, key and
    host-bound token), as the browser would post them."""
    form = page.split(f'action="{action}"', 1)[1].split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


# --- a real server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def tokens(record: Path) -> dict[str, Any]:
    """The seats' tokens a server keeps beside its record."""
    return json.loads(beside(record, "seats").read_text(encoding="utf-8"))


def serve(record: Path, port: int, *args: str, wait: float = 60, engine: Path | None = None) -> subprocess.Popen:
    """`pnp [--engine ENGINE] table RECORD --port PORT ARGS…` in a process of its own, once it answers."""
    rules = ["--engine", str(engine)] if engine is not None else []
    server = subprocess.Popen([sys.executable, "-m", "pnp", *rules, "table", str(record), "--port", str(port), *args],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + wait
    with httpx.Client(timeout=5) as client:  # one client for every try (a client of its own costs 20 ms of CPU)
        while time.monotonic() < deadline:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            try:
                host = tokens(record)["host"]
                client.get(f"http://127.0.0.1:{port}/api/state", headers={"Authorization": f"Bearer {host}"})
                return server
            except (httpx.TransportError, OSError, ValueError, KeyError):
                time.sleep(0.05)
    server.kill()
    raise AssertionError("the table did not start")


def stop(server: subprocess.Popen) -> None:
    server.kill()
    server.wait(10)
    for stream in (server.stdout, server.stderr):
        if stream:
            stream.close()
