"""`pnp table`: the referee at the table. One laptop serves the game; each player opens their
seat's link on a phone (the host's link serves the person running the game, or one phone
passed around); the game is entered as it is played, each entry judged by the rules engine at
once, and every step lands in an ordinary record file that `pnp referee check` replays.

`files` keeps what lies beside the record (the lock, the seats' tokens, the journal, the log),
`game` the record and the position, `seats` who may see and do what, `forms` turns the
engine's templates into forms, `board` and `looks` lay the position out on the spec's
components, `page` and `api` answer for one seat, `views` draws the pages, `routes` answers
the page's forms and the API, `access` and `middleware` guard them, `links` makes the seats'
links, `bot` seats a bot, `web` puts the app together and `serve` runs it. Above the bots,
referee, rules and spec layers; nothing imports it, and it never loads the rendering stack.
"""

from __future__ import annotations

import ipaddress
import shlex
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from pnp.table.game import TableGame
    from pnp.table.links import Links

LOCAL = ("127.0.0.1", "localhost", "::1")
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


@dataclass(frozen=True)
class Asked:
    """`pnp table`'s command line as typed (None: not given); `pnp.cli` fills it."""

    record: str
    new: str | None = None
    players: str | None = None
    spec: str | None = None
    set: tuple[str, ...] = ()
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    engine: tuple[str, ...] | None = None  # the rules files given with --engine (a game's own)


def run(args: Asked) -> int:
    """Open (or, with --new, create) the record and serve the table until Ctrl-C, which ends
    every phone's stream and stops with the line that goes on with the record."""
    from pnp.table import files, links, serve
    from pnp.table.web import create_app

    table, bots = _opened(args)
    try:
        tokens = files.seat_tokens(table.path, table.players, bots=bots or None)
        shared = args.host not in LOCAL
        base = f"http://{_reachable(args.host)}:{args.port}/"
        made = links.make(base, tokens)
        print(f"{table.game.title}: {', '.join(table.players)} — {len(table.entries)} steps in {args.record}")
        for note in table.notes:
            print(f"note: {note}")
        _print_links(made, shared)
        print(f"host  {made.host.url}  (this computer's: the seats' links and QR codes are on its page)")
        print("Each link acts for its seat only; the host's for anyone (one phone passed around, or you); "
              "the board's shows the room the game.")
        if not shared:
            print("On this computer only: for the phones on your network, add --host 0.0.0.0.")
        resume = f"Stopped: every step is saved; go on with `{restart_command(args)}`."
        print(f"Stop with Ctrl-C: every step is already saved; go on with `{restart_command(args)}`.", flush=True)
        app = create_app(table, tokens, base, None if shared else own_hosts(args.port))
        serve.run(app, args.host, args.port)
        print(resume, flush=True)
    finally:
        table.close()
    return 0


def _opened(args: Asked) -> tuple[TableGame, dict[str, str]]:
    """The record `--new` creates (its players, bots among them, and house rules from the
    command line), or the one that exists; and the bots by seat."""
    import random

    from pnp.errors import UsageError
    from pnp.rules import load_spec
    from pnp.table.game import TableGame

    spec = load_spec(args.spec)
    if not args.new:
        if args.players or args.set:
            raise UsageError("--players and --set go with --new; an existing record names its players and rules")
        return TableGame.open(args.record, spec), {}
    if not args.players:
        raise UsageError("--new needs --players, e.g. --new bolsa --players Ana,Ben,Cris (bot:search for a bot)")
    players, bots = seated(args.new, [name.strip() for name in args.players.split(",")])
    return TableGame.create(args.record, spec, args.new, players, house_rules(args.set), deal=random.Random()), bots


def _print_links(made: Links, shared: bool) -> None:
    """A line per seat and the board: its link, with its QR code on a shared network; a bot's
    seat says which bot plays it."""
    from pnp.table import links

    for link in (*made.seats, made.board):
        if link.bot:
            print(f"{link.name}  played by the bot {link.bot}")
            continue
        print(f"{link.name}  {link.url}")
        if shared:
            print(links.terminal_qr(link.url), end="")


def seated(game: str, names: list[str]) -> tuple[list[str], dict[str, str]]:
    """The players of `--players`, a bot's seat (`bot:search`, `bot:greedy`, `bot:search:200`)
    named Bot, Bot 2, …; and the bots by seat. UsageError for a bot the game has not."""
    from pnp.bots import roster
    from pnp.errors import UsageError

    players: list[str] = []
    bots: dict[str, str] = {}
    for name in names:
        if not name.startswith("bot:"):
            players.append(name)
            continue
        bot = name[len("bot:"):]
        if roster.bot_named(game, bot) is None:
            raise UsageError(f"--players {name}: no such bot for {game} (bots: {', '.join(roster.names(game))})")
        count = len(bots) + 1
        seat = "Bot" if count == 1 else f"Bot {count}"
        while seat in names or seat in players:  # a person already called so keeps the name
            count += 1
            seat = f"Bot {count}"
        players.append(seat)
        bots[seat] = bot
    return players, bots


def house_rules(settings: Sequence[str]) -> dict[str, Any]:
    """`rules.KEY=VALUE` settings, each value read as YAML by the spec layer's reader (with its
    limits; nothing is None); the game's rulebook checks them (`game.options_in_effect`)."""
    from pnp.errors import UsageError
    from pnp.spec.source import SourceError, load_text

    raw: dict[str, Any] = {}
    for setting in settings:
        key, equals, value = setting.partition("=")
        if not equals or not key.startswith("rules.") or not key[len("rules."):]:
            raise UsageError(f"--set {setting}: write rules.KEY=VALUE, e.g. --set rules.rounds=6")
        try:  # (the spec layer's `read_value`, once it is in: the same reading, one line per problem)
            raw[key[len("rules."):]] = load_text(value, f"--set {key}").data if value.strip() else None
        except SourceError as error:
            raise UsageError(f"--set {key}: {error.issues[0].message}") from None
    return raw


def restart_command(args: Asked) -> str:
    """The command that goes on with this record: this one without --new, --players, --set (its
    --engine files kept: the game's rules)."""
    words = ["pnp", *(word for path in args.engine or () for word in ("--engine", path)), "table", args.record]
    if args.spec:
        words += ["--spec", args.spec]
    if args.host != DEFAULT_HOST:
        words += ["--host", args.host]
    if args.port != DEFAULT_PORT:
        words += ["--port", str(args.port)]
    return " ".join(shlex.quote(str(w)) for w in words)


def own_hosts(port: int) -> set[str]:
    """The Host names a loopback table answers to (a page of another site, rebound to
    127.0.0.1 by its DNS, sends its own name and is refused), for Starlette's
    `TrustedHostMiddleware`, which compares names without their port."""
    return {"127.0.0.1", "localhost", "::1", "[::1]"}


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
