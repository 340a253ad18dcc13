"""`pnp referee`: settle disputes by replaying a game record through the rules engine.

Never imports the rendering stack: a referee answer must be quick at the table.
"""

from __future__ import annotations

import argparse
import sys
from typing import Iterator, Mapping

from pnp.errors import PnpError, UsageError
from pnp.referee import record as records
from pnp.referee.replay import referee_for, replay
from pnp.referee.report import as_json, event_line, verdict
from pnp.rules import GAMES


def run(args: argparse.Namespace) -> int:
    """Exit 0 all legal, 1 a violation, 2 unreadable record or spec (REFEREE.md)."""
    from pnp.rules import load_spec

    if args.verb == "new":
        return _new(args, load_spec)
    try:
        record = records.read(args.record, _GameKeys())
    except records.UnknownGame as error:
        raise _print_only(error.game, load_spec(args.spec), args.record) or error
    spec = load_spec(args.spec)
    if record.game not in spec.games:
        raise PnpError(f"{args.record}: the spec has no game {record.game!r}")
    explain = args.verb == "explain"
    last_at = [None]

    def show(at: str, event) -> None:
        if at != last_at[0]:
            print(f"── {at}")
            last_at[0] = at
        print(event_line(event))

    answer = replay(record, spec.games[record.game], on_event=show if explain else None)
    if args.json:
        print(as_json(answer))
    else:
        print(verdict(answer, args.record))
    return 0 if answer.ok else 1


class _GameKeys(Mapping[str, tuple[str, ...]]):
    """Each game's record keys, importing only the referee of the game the record names."""

    def __getitem__(self, game: str) -> tuple[str, ...]:
        if not isinstance(game, str) or game not in GAMES:
            raise KeyError(game)
        return referee_for(game).KEYS

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


def _print_only(game: object, spec, where: str) -> UsageError | None:
    """The answer for a game the spec prints but no rules engine plays (None if it is not one)."""
    if not isinstance(game, str) or game not in spec.games:
        return None
    return UsageError(f"{where}: {game} is a print-only game: it has no rules engine, so the referee cannot "
                      f"check it (games with one: {', '.join(GAMES)})")


def _new(args: argparse.Namespace, load_spec) -> int:
    if args.game not in GAMES:
        no_engine = _print_only(args.game, load_spec(args.spec), "referee new")
        raise no_engine or UsageError(f'unknown game "{args.game}" (known: {", ".join(GAMES)})')
    players = [name.strip() for name in args.players.split(",") if name.strip()]
    if len(set(players)) != len(players) or not players:
        raise UsageError("--players needs distinct names, e.g. --players Ana,Ben,Cris")
    spec = load_spec(args.spec)
    sys.stdout.write(referee_for(args.game).starter(spec.games[args.game], players))
    return 0
