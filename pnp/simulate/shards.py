"""The files of `pnp simulate --shard I/N`, read back by `pnp simulate merge` within bounds.

A shard says what was asked (game, games, seed, bots, player counts), the rule sets it played
(the spec by path and SHA-256, the house rules, the seats, the bots), the version of pnp that
played them, and per rule set the tally of its chunks. A merge adds numbers from files that may
have been edited, truncated, mixed up between jobs or written by another version, so before a
number is added every shard is checked:

- as a file: a regular file of at most MAX_BYTES, JSON nested at most MAX_DEPTH deep;
- on its own: each field of its kind (a known game and bots, counts in range, house rules the
  game's rulebook takes, the spec a regular file with the stated SHA-256), its tallies of the
  shape the rule set's game gives (marks, currencies and their bills, supplies) and adding up
  to the games its chunks hold (the seats, the ends and every distribution counted over them);
- against the others: the same version, question, rule sets and number of shards, each shard
  once;
- against the rules: the first game of the simulation, which the shard holding it keeps the
  track of, is played again under the rule set and seed the shards state, and must take the
  same track — so a report headed "rounds=3" is of games played under rounds=3.

Anything else is one `UsageError` (exit 2) naming the file, the field and what differs.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, Callable, Sequence

from pnp import __version__
from pnp.bots import roster
from pnp.disk import NotJSON, read_json, read_regular, said, whole
from pnp.errors import UsageError, brief, display_name
from pnp.rules import GAMES, rulebook
from pnp.simulate.runner import CHUNK_GAMES, Chunk, Setup, chunk_count, context, run_chunk, shard_numbers
from pnp.simulate.tally import FORMAT as TALLY_FORMAT
from pnp.simulate.tally import GINI_GRID, SCALE, Tally
from pnp.spec.options import check_values
from pnp.spec.source import MAX_BYTES as MAX_SPEC_BYTES

FORMAT = "pnp-simulate-shard/2"  # /2: the version of pnp that played it is stated
MAX_BYTES = 50_000_000  # of a shard file (the bundled games' shards are about 100 kB a rule set and player count)
MAX_DEPTH = 16  # how deep its JSON nests (pnp writes 11: a bill's distribution's counts)
MAX_GAMES = 1_000_000_000  # `pnp simulate --games` takes at most this
MAX_SHARDS = 10_000_000  # one chunk each at most
MAX_KEYS = 1_000_000  # distinct values of one distribution, seats of one tally


class Refused(UsageError):
    """A shard that cannot be merged: `simulate merge: FILE: FIELD: what differs`."""

    def __init__(self, file: str, message: str):
        super().__init__(f"simulate merge: {display_name(Path(file))}: {message}")


def read_shard(file: str) -> dict[str, Any]:
    """A shard file as JSON, checked on its own (see the module's docstring)."""
    try:
        document = read_json(Path(file), MAX_BYTES, MAX_DEPTH)
    except OSError as error:
        raise Refused(file, f"the file {said(error)}") from None
    except NotJSON as error:
        raise Refused(file, f"not a shard: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = document.get("format") if isinstance(document, dict) else None
        raise Refused(file, "not a shard of pnp simulate --shard" if not isinstance(found, str) or
                      not found.startswith("pnp-simulate-shard/") else f"a shard of format {brief(found)}, written "
                      f"by another version of pnp; this one ({__version__}) merges {FORMAT}: play the shards again")
    try:
        _check(document)
    except _Wrong as wrong:
        raise Refused(file, str(wrong)) from None
    return document


def check_together(files: Sequence[str], documents: Sequence[dict[str, Any]]) -> None:
    """The shards are of one simulation — the same version, question, rule sets and count of
    shards — and together every shard of it, each once; else what differs, and where."""
    for name, document in zip(files, documents, strict=True):
        differs = _differences(document, documents[0], files[0])
        if differs:
            raise Refused(name, "a shard of another simulation: " + "; ".join(differs))
    _check_numbers(sorted(document["shard"][0] for document in documents), documents[0]["shard"][1])
    for name, document in zip(files, documents, strict=True):
        if document["shard"][0] == 1:
            _check_replay(name, document)


def _check_numbers(numbers: list[int], shards: int) -> None:
    """The shards' numbers, in order, are 1 to `shards`: else which are missing and which
    were given twice."""
    if numbers != list(range(1, shards + 1)):
        missing = sorted(set(range(1, shards + 1)) - set(numbers))
        twice = sorted({n for n in numbers if numbers.count(n) > 1})
        said = ([f"missing {_numbers(missing)}"] if missing else []) + ([f"given twice: {_numbers(twice)}"] if twice else [])
        raise UsageError(f"simulate merge: {shards} shards make the simulation; " + "; ".join(said))


def _differences(document: dict[str, Any], first: dict[str, Any], first_file: str) -> list[str]:
    """What a shard states otherwise than the first one does (the version, the question, the
    count of shards, the rule sets)."""
    differs = [f"pnp {_shown(document['pnp'])} where {first_file} has {_shown(first['pnp'])}"] \
        if document["pnp"] != first["pnp"] else []
    differs += [f"{key} {_shown(document['asked'][key])} where {first_file} has {_shown(value)}"
                for key, value in first["asked"].items() if document["asked"][key] != value]
    if document["shard"][1] != first["shard"][1]:
        differs.append(f"is one of {document['shard'][1]} shards where {first_file} is one of {first['shard'][1]}")
    if [r["setups"] for r in document["runs"]] != [r["setups"] for r in first["runs"]]:
        differs.append(f"played other rule sets than {first_file} (spec, house rules or bots)")
    return differs


def setup_of(file: str, data: dict[str, Any]) -> Setup:
    """The rule set a shard states, its spec file there with the bytes the shards played."""
    spec = Path(data["spec"])
    try:
        digest = hashlib.sha256(read_regular(spec, MAX_SPEC_BYTES)).hexdigest()
    except OSError as error:
        raise Refused(file, f"the shards played {brief(data['spec'])}, which {said(error)}") from None
    if digest != data["sha256"]:
        raise Refused(file, f"{brief(data['spec'])} changed since the shards played it (its SHA-256 is "
                            f"{digest[:12]}…, theirs {data['sha256'][:12]}…)")
    return Setup(data["game"], data["spec"], tuple((key, value) for key, value in data["options"]), data["players"],
                 tuple(data["bots"]))


def checked_tally(file: str, data: dict[str, Any], setup: Setup, where: str) -> Tally:
    """A shard's tally of `setup`, of the shape that rule set's game gives."""
    made = Tally.from_json(data)
    ctx = context(setup)
    shape = ([len(bills.values) for bills in ctx.printed], len(ctx.probe.mark_names), len(ctx.probe.supply_names))
    found = ([len(money.bills) for money in made.money], len(made.marks), len(made.exhausted))
    if found != shape:
        raise Refused(file, f"{where}: a tally of {found[1]} track marks, {len(found[0])} currencies and {found[2]} "
                            f"supplies; {setup.game} under its rule set has {shape[1]}, {len(shape[0])} and {shape[2]}")
    return made


# --- one shard on its own ------------------------------------------------------------------------------


class _Wrong(ValueError):
    """A field of a shard that is not of its kind: the message names it."""


def _check(document: dict[str, Any]) -> None:
    shard: Any = document.get("shard")
    _expect(isinstance(shard, list) and len(shard) == 2 and all(whole(n, 1, MAX_SHARDS) for n in shard)
            and shard[0] <= shard[1], "shard", shard, "[I, N] with 1 ≤ I ≤ N")
    _expect(isinstance(document.get("pnp"), str), "pnp", document.get("pnp"), "the version of pnp")
    _expect(_number(document.get("elapsed_s"), 0), "elapsed_s", document.get("elapsed_s"), "seconds")
    asked: Any = document.get("asked")
    _check_asked(asked)
    players = asked["players"]
    runs: Any = document.get("runs")
    _expect(isinstance(runs, list) and len(runs) == len(players), "runs", runs, f"{len(players)} runs, one per "
            "player count")
    games = _games_of(asked["games"], shard[0], shard[1])
    for k, run in enumerate(runs):
        _check_run(f"runs[{k}]", run, asked, players[k], games)


def _check_asked(asked: Any) -> None:
    """What the shard's command asked: a game, its games, seed, bots and player counts."""
    _expect(isinstance(asked, dict) and set(asked) == {"game", "games", "seed", "bots", "players"}, "asked",
            asked, "game, games, seed, bots and players")
    game = asked["game"]
    _expect(game in GAMES, "asked.game", game, f"a game ({', '.join(GAMES)})")
    _expect(whole(asked["games"], 1, MAX_GAMES), "asked.games", asked["games"], f"1 to {MAX_GAMES:,} games")
    _expect(whole(asked["seed"], -10**30, 10**30), "asked.seed", asked["seed"], "a whole number")
    bots = asked["bots"]
    _expect(isinstance(bots, list) and 0 < len(bots) <= 100 and all(isinstance(b, str) and roster.bot_named(game, b)
                                                                    for b in bots), "asked.bots", bots,
            f"bots of {game} ({', '.join(roster.names(game))})")
    players = asked["players"]
    _expect(isinstance(players, list) and 0 < len(players) <= 100 and all(whole(p, 1, 100) for p in players),
            "asked.players", players, "player counts")


def _check_run(where: str, run: Any, asked: dict[str, Any], players: int, games: int) -> None:
    _expect(isinstance(run, dict) and isinstance(run.get("setups"), list) and len(run["setups"]) == 2
            and isinstance(run.get("tallies"), list) and len(run["tallies"]) == 2, where, run,
            "two setups and their two tallies")
    _expect(run["setups"][0] is not None, f"{where}.setups[0]", None, "a rule set")
    for side, (setup, counted) in enumerate(zip(run["setups"], run["tallies"], strict=True)):
        here = f"{where}.setups[{side}]"
        if setup is None:
            _expect(counted is None, f"{where}.tallies[{side}]", counted, "nothing, as no rule set was played")
            continue
        _check_setup(here, setup, asked, players)
        _check_tally(f"{where}.tallies[{side}]", counted, games, players, len(asked["bots"]))


def _check_setup(where: str, setup: Any, asked: dict[str, Any], players: int) -> None:
    _expect(isinstance(setup, dict) and set(setup) == {"game", "spec", "spec_name", "sha256", "options", "players",
                                                       "bots"}, where, setup, "a rule set")
    for key, wanted in (("game", asked["game"]), ("players", players), ("bots", asked["bots"])):
        _expect(setup[key] == wanted, f"{where}.{key}", setup[key], f"{_shown(wanted)}, as asked")
    for key in ("spec", "spec_name"):  # printed in the answer: no control character may reach a terminal
        _expect(isinstance(setup[key], str) and 0 < len(setup[key]) <= 4096 and setup[key].isprintable(),
                f"{where}.{key}", setup[key], "a file name")
    _expect(isinstance(setup["sha256"], str) and len(setup["sha256"]) == 64, f"{where}.sha256", setup["sha256"],
            "a SHA-256")
    _check_options(f"{where}.options", setup["options"], asked["game"])


def _check_options(where: str, options: Any, game: str) -> None:
    """A rule set's house rules: [rule, value] pairs the game's rulebook accepts."""
    _expect(isinstance(options, list) and all(isinstance(o, list) and len(o) == 2 and isinstance(o[0], str)
                                              for o in options), where, options, "[rule, value] pairs")
    _, problems = check_values({key: value for key, value in options}, rulebook(game), in_spec=False)
    if problems:
        key, message = problems[0]
        raise _Wrong(f"{where}: {brief(key)}: {message}")


def _check_tally(where: str, data: Any, games: int, players: int, bots: int) -> None:
    """A tally's counts add up to the `games` its shard's chunks hold, seated as the rule set seats them."""
    _expect(isinstance(data, dict) and data.get("format") == TALLY_FORMAT, where, data, f"a tally of format {TALLY_FORMAT}")
    counted = _within(0, games)
    fields: dict[str, tuple[Check, str]] = {
        "games": (_within(games, games), f"{games:,}, the games of its chunks"),
        "seats": (_list_of(_seat(players, bots), MAX_KEYS), f"[bots of {players} seats, winning seats, games] triples"),
        "ends": (_counts_by_name(counted), "how many games ended each way"),
        "leader": (_pair(counted, counted), "[games judged, of which the leader won]"),
        "marks": (_list_of(_pair(counted, _anything), 1000), "[games, distribution] pairs"),
        "money": (_list_of(_currency(counted), 100), "each currency's tally"),
        "supplies": (_list_of(_pair(counted, _optional(_finite)), 1000), "[games emptied, lowest] pairs"),
        "tracks": (_list_of(_pair(_within(0, MAX_GAMES), _list_of(_list_of(_finite, 1000), 100_000)), games),
                   "[game, track after every step] pairs"),
    }
    for name, (ok, wanted) in fields.items():
        _expect(ok(data.get(name)), f"{where}.{name}", data.get(name), wanted)
    for name, total in (("seats", sum(seat[2] for seat in data["seats"])), ("ends", sum(data["ends"].values()))):
        _expect(total == games, f"{where}.{name}", total, f"{games:,} games in all")
    _expect(data["leader"][1] <= data["leader"][0], f"{where}.leader", data["leader"], "no more wins than games judged")
    for name, value, scale in _distributions(data):
        _check_distribution(f"{where}.{name}", value, games, scale)


def _distributions(data: dict[str, Any]) -> list[tuple[str, Any, int]]:
    """Every distribution of a tally's JSON: where it is, its data, the scale it is kept in."""
    distributions = [(name, data[name], GINI_GRID if name == "gini" else SCALE)
                     for name in ("length", "steps", "winner", "margin", "gini")]
    distributions += [(f"marks[{k}][1]", mark[1], SCALE) for k, mark in enumerate(data["marks"])]
    for k, currency in enumerate(data["money"]):
        distributions += [(f"money[{k}].total", currency["total"], SCALE)]
        distributions += [(f"money[{k}].bills[{d}]", bills, SCALE) for d, bills in enumerate(currency["bills"])]
    return distributions


def _check_distribution(where: str, data: Any, games: int, scale: int) -> None:
    _expect(isinstance(data, dict) and data.get("scale") == scale, where, data, f"a distribution in 1/{scale}")
    fields: dict[str, tuple[Check, str]] = {
        "counts": (_list_of(_pair(_finite, _within(1, games)), MAX_KEYS), "[value, games] pairs"),
        "n": (_within(0, games), f"the games counted, at most {games:,}"),
        "scaled": (_pair(_within(-10**40, 10**40), _within(-10**40, 10**40)), "two whole sums"),
        "parts": (_pair(_fraction, _fraction), 'two fractions ("p/q")'),
        "range": (_pair(_optional(_finite), _optional(_finite)), "[least, greatest]"),
    }
    for name, (ok, wanted) in fields.items():
        _expect(ok(data.get(name)), f"{where}.{name}", data.get(name), wanted)
    counted = sum(count for _, count in data["counts"])
    _expect(counted == data["n"], f"{where}.n", data["n"], f"the games its counts count ({counted:,})")
    _expect((None in data["range"]) == (counted == 0), f"{where}.range", data["range"], "a range of what was counted")


# --- what a field may be: predicates, made of each other ------------------------------------------------

Check = Callable[[Any], bool]


def _within(low: int, high: int) -> Check:
    return lambda value: whole(value, low, high)


def _list_of(each: Check, most: int) -> Check:
    return lambda value: isinstance(value, list) and len(value) <= most and all(each(item) for item in value)


def _pair(first: Check, second: Check) -> Check:
    return lambda value: isinstance(value, list) and len(value) == 2 and first(value[0]) and second(value[1])


def _optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


def _counts_by_name(counted: Check) -> Check:
    return lambda value: isinstance(value, dict) and all(isinstance(k, str) and counted(n) for k, n in value.items())


def _currency(counted: Check) -> Check:
    """A currency's tally (`pnp.simulate.tally.Money`): the money in hands, the games its bills
    could not pay, and per denomination how many of its bills were in play (the distributions
    are checked with the others)."""
    def ok(value: Any) -> bool:
        return isinstance(value, dict) and counted(value.get("short")) and isinstance(value.get("total"), dict) \
            and _list_of(_anything, 100)(value.get("bills"))
    return ok


def _seat(players: int, bots: int) -> Check:
    """[the bot of each seat, the winning seats (each once), games]."""
    def ok(entry: Any) -> bool:
        return isinstance(entry, list) and len(entry) == 3 and _list_of(_within(0, bots - 1), players)(entry[0]) \
            and len(entry[0]) == players and _list_of(_within(0, players - 1), players)(entry[1]) \
            and len(set(entry[1])) == len(entry[1]) and whole(entry[2], 1, MAX_GAMES)
    return ok


def _anything(value: Any) -> bool:
    return True


def _finite(value: Any) -> bool:
    return _number(value, -1e18)


def _check_replay(file: str, document: dict[str, Any]) -> None:
    """The first game of the simulation, played again under each rule set the shards state,
    takes the track the shard holding it kept (what a game of other rules, seed or version
    would not)."""
    asked = document["asked"]
    for k, run in enumerate(document["runs"]):
        for side, setup_json in enumerate(run["setups"]):
            if setup_json is None:
                continue
            kept = dict((index, track) for index, track in run["tallies"][side]["tracks"])
            if 0 not in kept:
                continue
            setup = setup_of(file, setup_json)
            again = run_chunk(Chunk(setup, asked["seed"], 0, 0, 1, None, 0, 1))
            if [list(step) for step in again.tracks[0][1]] != kept[0]:
                options = ", ".join(f"{key}={value}" for key, value in setup.options) or "the spec's own rules"
                raise Refused(file, f"runs[{k}].tallies[{side}]: the first game does not play again as kept under "
                                    f"the rule set the shard states ({options}, seed {asked['seed']}, pnp "
                                    f"{__version__}): its games were played under other rules, seed or version")


# --- helpers --------------------------------------------------------------------------------------------


def _games_of(games: int, shard: int, shards: int) -> int:
    """The games in shard `shard` of `shards` of a simulation of `games` (reckoned, not listed)."""
    numbers = shard_numbers(games, shard, shards)
    return max(0, min(numbers.stop * CHUNK_GAMES, games) - numbers.start * CHUNK_GAMES) if chunk_count(games) else 0


def _expect(ok: bool, where: str, value: Any, wanted: str) -> None:
    if not ok:
        raise _Wrong(f"{where}: expected {wanted}, got {brief(value)}")


def _number(value: Any, low: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= 1e18


_FRACTION = re.compile(r"^-?\d{1,400}/[1-9]\d{0,399}$")  # as a tally writes one: "p/q", never "1e100000000"


def _fraction(text: Any) -> bool:
    return isinstance(text, str) and _FRACTION.match(text) is not None



def _shown(value: Any) -> str:
    return brief(value) if not isinstance(value, (int, str)) else str(value)[:60]


def _numbers(values: Sequence[int]) -> str:
    return ", ".join(map(str, values[:20])) + (" …" if len(values) > 20 else "")
