"""`pnp table`: the referee at the table. One laptop serves a page that every phone at the
table opens; the game is entered as it is played, each entry judged by the rules engine at
once, and every step lands in an ordinary record file that `pnp referee check` replays.

`game` keeps the record and the position (no web), `forms` turns the engine's templates into
forms, `board` lays out the position, `web` serves them. Above the referee, rules and spec
layers; nothing imports it, and it never loads the rendering stack.
"""

from __future__ import annotations

import argparse
import ipaddress
import secrets
import socket

LOCAL = ("127.0.0.1", "localhost", "::1")


def run(args: argparse.Namespace) -> int:
    """Open (or, with --new, create) the record and serve the table until Ctrl-C."""
    import uvicorn

    from pnp.errors import UsageError
    from pnp.rules import load_spec
    from pnp.table.game import TableGame
    from pnp.table.web import create_app

    spec = load_spec(args.spec)
    if args.new:
        if not args.players:
            raise UsageError("--new needs --players, e.g. --new bolsa --players Ana,Ben,Cris")
        players = [name.strip() for name in args.players.split(",")]
        table = TableGame.create(args.record, spec, args.new, players)
    else:
        if args.players:
            raise UsageError("--players goes with --new; an existing record names its players")
        table = TableGame.open(args.record, spec)
    token = None if args.host in LOCAL else secrets.token_urlsafe(12)
    url = f"http://{_reachable(args.host)}:{args.port}/" + (f"?t={token}" if token else "")
    share = _share(url) if token else None
    print(f"{table.game.title}: {', '.join(table.players)} — {len(table.entries)} steps in {args.record}")
    print(f"Open {url}")
    if share:
        print(share["terminal"], end="")
        print("Anyone with this link (or the QR code) on your network can enter steps.")
    print("Stop with Ctrl-C: every step is already saved, and the same command goes on from it.")
    uvicorn.run(create_app(table, token, share), host=args.host, port=args.port, log_level="warning")
    return 0


def _reachable(host: str) -> str:
    """The address other devices use: for 0.0.0.0, this machine's address on the local network."""
    try:
        if not ipaddress.ip_address(host).is_unspecified:
            return host
    except ValueError:
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))  # no packet is sent: this only picks the interface
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def _share(url: str) -> dict[str, str]:
    """The link as a QR code, for the terminal and for the page (SVG)."""
    import io

    import segno

    code = segno.make(url, error="m")
    out = io.StringIO()
    code.terminal(out, compact=True)
    return {"url": url, "qr": code.svg_inline(scale=4, dark="#1b1b1b"), "terminal": out.getvalue()}
