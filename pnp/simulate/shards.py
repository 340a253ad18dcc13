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
import json
import re
from pathlib import Path
from typing import Any, Sequence

from pnp import __version__
from pnp.disk import read_regular, said
from pnp.errors import UsageError, brief, display_name
from pnp.rules import GAMES, rulebook
from pnp.simulate import roster
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
        data = read_regular(Path(file), MAX_BYTES)
    except OSError as error:
        raise Refused(file, f"the file {said(error)}") from None
    try:
        document = json.loads(data)
    except RecursionError:
        raise Refused(file, f"not a shard: its JSON nests deeper than {MAX_DEPTH}") from None
    except ValueError:
        raise Refused(file, "not a shard (not JSON)") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = document.get("format") if isinstance(document, dict) else None
        raise Refused(file, "not a shard of pnp simulate --shard" if not isinstance(found, str) or
                      not found.startswith("pnp-simulate-shard/") else f"a shard of format {brief(found)}, written "
                      f"by another version of pnp; this one ({__version__}) merges {FORMAT}: play the shards again")
    _depth(file, document)
    try:
        _check(document)
    except _Wrong as wrong:
        raise Refused(file, str(wrong)) from None
    return document


def check_together(files: Sequence[str], documents: Sequence[dict[str, Any]]) -> None:
    """The shards are of one simulation — the same version, question, rule sets and count of
    shards — and together every shard of it, each once; else what differs, and where."""
    first, shards = documents[0], documents[0]["shard"][1]
    for name, document in zip(files, documents, strict=True):
        differs = [f"{key} {_shown(document.get(key))} where {files[0]} has {_shown(first.get(key))}"
                   for key in ("pnp",) if document.get(key) != first.get(key)]
        differs += [f"{key} {_shown(document['asked'][key])} where {files[0]} has {_shown(first['asked'][key])}"
                    for key in first["asked"] if document["asked"][key] != first["asked"][key]]
        if document["shard"][1] != shards:
            differs.append(f"is one of {document['shard'][1]} shards where {files[0]} is one of {shards}")
        if [r["setups"] for r in document["runs"]] != [r["setups"] for r in first["runs"]]:
            differs.append(f"played other rule sets than {files[0]} (spec, house rules or bots)")
        if differs:
            raise Refused(name, "a shard of another simulation: " + "; ".join(differs))
    numbers = sorted(document["shard"][0] for document in documents)
    if numbers != list(range(1, shards + 1)):
        missing = sorted(set(range(1, shards + 1)) - set(numbers))
        twice = sorted({n for n in numbers if numbers.count(n) > 1})
        raise UsageError(f"simulate merge: {shards} shards make the simulation; "
                         + (f"missing {_numbers(missing)}" if missing else "")
                         + ("; " if missing and twice else "") + (f"given twice: {_numbers(twice)}" if twice else ""))
    for name, document in zip(files, documents, strict=True):
        if document["shard"][0] == 1:
            _check_replay(name, document)


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
    _expect(isinstance(shard, list) and len(shard) == 2 and all(_whole(n, 1, MAX_SHARDS) for n in shard)
            and shard[0] <= shard[1], "shard", shard, "[I, N] with 1 ≤ I ≤ N")
    _expect(isinstance(document.get("pnp"), str), "pnp", document.get("pnp"), "the version of pnp")
    _expect(_number(document.get("elapsed_s"), 0), "elapsed_s", document.get("elapsed_s"), "seconds")
    asked: Any = document.get("asked")
    _expect(isinstance(asked, dict) and set(asked) == {"game", "games", "seed", "bots", "players"}, "asked",
            asked, "game, games, seed, bots and players")
    game = asked["game"]
    _expect(game in GAMES, "asked.game", game, f"a game ({', '.join(GAMES)})")
    _expect(_whole(asked["games"], 1, MAX_GAMES), "asked.games", asked["games"], f"1 to {MAX_GAMES:,} games")
    _expect(_whole(asked["seed"], -10**30, 10**30), "asked.seed", asked["seed"], "a whole number")
    bots = asked["bots"]
    _expect(isinstance(bots, list) and 0 < len(bots) <= 100 and all(isinstance(b, str) and roster.bot_named(game, b)
                                                                    for b in bots), "asked.bots", bots,
            f"bots of {game} ({', '.join(roster.names(game))})")
    players = asked["players"]
    _expect(isinstance(players, list) and 0 < len(players) <= 100 and all(_whole(p, 1, 100) for p in players),
            "asked.players", players, "player counts")
    runs: Any = document.get("runs")
    _expect(isinstance(runs, list) and len(runs) == len(players), "runs", runs, f"{len(players)} runs, one per "
            "player count")
    games = _games_of(asked["games"], shard[0], shard[1])
    for k, run in enumerate(runs):
        _check_run(f"runs[{k}]", run, asked, players[k], games)


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
    options = setup["options"]
    _expect(isinstance(options, list) and all(isinstance(o, list) and len(o) == 2 and isinstance(o[0], str)
                                              for o in options), f"{where}.options", options, "[rule, value] pairs")
    _, problems = check_values({key: value for key, value in options}, rulebook(asked["game"]), in_spec=False)
    if problems:
        key, message = problems[0]
        raise _Wrong(f"{where}.options: {brief(key)}: {message}")


def _check_tally(where: str, data: Any, games: int, players: int, bots: int) -> None:
    """A tally's counts add up to the `games` its shard's chunks hold, seated as the rule set seats them."""
    _expect(isinstance(data, dict) and data.get("format") == TALLY_FORMAT, where, data, f"a tally of format {TALLY_FORMAT}")
    _expect(_whole(data.get("games"), games, games), f"{where}.games", data.get("games"), f"{games:,}, the games of its chunks")
    seats = data.get("seats")
    _expect(isinstance(seats, list) and len(seats) <= MAX_KEYS and all(_seat(s, players, bots) for s in seats),
            f"{where}.seats", seats, f"[bots of {players} seats, winning seats, games] triples")
    _expect(sum(s[2] for s in seats) == games, f"{where}.seats", sum(s[2] for s in seats), f"{games:,} games in all")
    ends = data.get("ends")
    _expect(isinstance(ends, dict) and all(isinstance(k, str) and _whole(v, 0, games) for k, v in ends.items())
            and sum(ends.values()) == games, f"{where}.ends", ends, f"how the {games:,} games ended")
    for name in ("length", "steps", "winner", "margin", "gini"):
        _check_distribution(f"{where}.{name}", data.get(name), games, GINI_GRID if name == "gini" else SCALE)
    leader = data.get("leader")
    _expect(isinstance(leader, list) and len(leader) == 2 and _whole(leader[0], 0, games) and
            _whole(leader[1], 0, leader[0]), f"{where}.leader", leader, "[games judged, of which the leader won]")
    marks = data.get("marks")
    _expect(isinstance(marks, list) and len(marks) <= 1000, f"{where}.marks", marks, "a list")
    for k, mark in enumerate(marks):
        _expect(isinstance(mark, list) and len(mark) == 2 and _whole(mark[0], 0, games), f"{where}.marks[{k}]", mark,
                "[games, distribution]")
        _check_distribution(f"{where}.marks[{k}][1]", mark[1], games, SCALE)
    money = data.get("money")
    _expect(isinstance(money, list) and len(money) <= 100, f"{where}.money", money, "a list")
    for k, currency in enumerate(money):
        here = f"{where}.money[{k}]"
        _expect(isinstance(currency, dict) and _whole(currency.get("short"), 0, games)
                and isinstance(currency.get("bills"), list) and isinstance(currency.get("bills_short"), list)
                and len(currency["bills"]) == len(currency["bills_short"]) <= 100
                and all(_whole(n, 0, games) for n in currency["bills_short"]), here, currency, "a currency's tally")
        _check_distribution(f"{here}.total", currency.get("total"), games, SCALE)
        for d, bills in enumerate(currency["bills"]):
            _check_distribution(f"{here}.bills[{d}]", bills, games, SCALE)
    supplies = data.get("supplies")
    _expect(isinstance(supplies, list) and len(supplies) <= 1000 and all(
        isinstance(s, list) and len(s) == 2 and _whole(s[0], 0, games) and (s[1] is None or _number(s[1], -1e18))
        for s in supplies), f"{where}.supplies", supplies, "[games emptied, lowest] pairs")
    tracks = data.get("tracks")
    _expect(isinstance(tracks, list) and len(tracks) <= games and all(
        isinstance(t, list) and len(t) == 2 and _whole(t[0], 0, MAX_GAMES) and isinstance(t[1], list)
        and all(isinstance(step, list) and all(_number(v, -1e18) for v in step) for step in t[1]) for t in tracks),
        f"{where}.tracks", tracks, "[game, track after every step] pairs")


def _check_distribution(where: str, data: Any, games: int, scale: int) -> None:
    _expect(isinstance(data, dict) and data.get("scale") == scale, where, data, f"a distribution in 1/{scale}")
    counts = data.get("counts")
    _expect(isinstance(counts, list) and len(counts) <= MAX_KEYS and all(
        isinstance(c, list) and len(c) == 2 and _number(c[0], -1e18) and _whole(c[1], 1, games) for c in counts),
        f"{where}.counts", counts, "[value, games] pairs")
    n = data.get("n")
    _expect(_whole(n, 0, games) and sum(c[1] for c in counts) == n, f"{where}.n", n,
            f"the games counted ({sum(c[1] for c in counts):,}), at most {games:,}")
    scaled = data.get("scaled")
    _expect(isinstance(scaled, list) and len(scaled) == 2 and all(_whole(v, -10**40, 10**40) for v in scaled),
            f"{where}.scaled", scaled, "two whole sums")
    parts = data.get("parts")
    _expect(isinstance(parts, list) and len(parts) == 2 and all(_fraction(p) for p in parts), f"{where}.parts",
            parts, 'two fractions ("p/q")')
    span = data.get("range")
    _expect(isinstance(span, list) and len(span) == 2 and all(v is None or _number(v, -1e18) for v in span)
            and (None in span) == (n == 0), f"{where}.range", span, "[least, greatest]")


def _seat(entry: Any, players: int, bots: int) -> bool:
    return isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], list) and len(entry[0]) == players \
        and all(_whole(b, 0, bots - 1) for b in entry[0]) and isinstance(entry[1], list) \
        and len(set(entry[1])) == len(entry[1]) <= players and all(_whole(s, 0, players - 1) for s in entry[1]) \
        and _whole(entry[2], 1, MAX_GAMES)


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


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _number(value: Any, low: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= 1e18


_FRACTION = re.compile(r"^-?\d{1,400}/[1-9]\d{0,399}$")  # as a tally writes one: "p/q", never "1e100000000"


def _fraction(text: Any) -> bool:
    return isinstance(text, str) and _FRACTION.match(text) is not None


def _depth(file: str, value: Any) -> None:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Refused(file, f"not a shard: its JSON nests deeper than {MAX_DEPTH}")
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def _shown(value: Any) -> str:
    return brief(value) if not isinstance(value, (int, str)) else str(value)[:60]


def _numbers(values: Sequence[int]) -> str:
    return ", ".join(map(str, values[:20])) + (" …" if len(values) > 20 else "")
