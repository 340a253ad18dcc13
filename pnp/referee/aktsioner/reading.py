"""Reading the Акционер part of a game record: `start`, `deal` and `turns` (REFEREE.md).

Each turn is one step; its stages are read in order — `player` (the turn begins), `trade`
(stage 1), `play` (stage 2), `then` (stage 3) — each with its place and line, so a violation is
reported at the stage that breaks the rule, e.g. `turns[3].play`. A stage trades as often as the
mover likes: `trade` (or `then`) is one trade, or a list of them in order (`turns[3].then[1]`).

Reading `start`: whatever is omitted is the standard setup (REFEREE.md) — a price, a player,
a player's `cash`, `shares`, or one colour of his `shares` (`{red: 12}` leaves the other
colours at the standard holding). The record's shape (keys, types, counts) was checked as it was
read (`pnp.referee.aktsioner.shape`); here the names, the cards and the stages are.
"""

from __future__ import annotations

from typing import Any

from pnp.referee.fields import Reader
from pnp.referee.record import Record
from pnp.referee.replay import Step, seated
from pnp.rules.aktsioner import engine as rules

Path = tuple[Any, ...]  # a place in the record, e.g. ("turns", 3, "then")
Stage = tuple[str, int, rules.Action]  # where in the turn (`then[1]`), its line, the action


def start(record: Record, params: rules.Params) -> rules.Start:
    """The record's `start` and `deal` for `engine.setup` (RecordError if unreadable). Without
    `start`, a `deal` is a fresh deal (exactly the formula's cards each); with one, it is the
    hands at that position (at most that many)."""
    reader = Reader(record)
    colours = params.colours
    prices = reader.counts(("start", "prices"), colours, "colour")
    accounts = {}
    for name in reader.mapping(("start", "players")):
        path = ("start", "players", name)
        if reader.player(path, name, key=True) is None:
            continue
        given = reader.get(path + ("cash",))
        cash = params.start_cash if given is None else given
        held = reader.counts(path + ("shares",), colours, "colour")
        shares = tuple(held.get(colour, params.start_shares) for colour in colours)
        accounts[name] = rules.Account(cash, shares)
    hands = _deal(reader, colours) if record.get(("deal",)) is not None else None
    reader.done()
    return rules.Start(prices, accounts, hands, complete=record.get(("start",)) is None)




def _deal(reader: Reader, colours: tuple[str, ...]) -> dict[str, list[str]]:
    hands: dict[str, list[str]] = {}
    for name in reader.mapping(("deal",)):
        if reader.player(("deal", name), name, key=True) is None:
            continue
        hands[name] = []
        for index, text in enumerate(reader.sequence(("deal", name))):
            try:
                hands[name].append(rules.parse_play(text, colours, with_choices=False).card)
            except rules.NotationError as error:
                reader.fail(("deal", name, index), str(error))
    missing = [name for name in reader.record.players if name not in hands]
    if isinstance(reader.get(("deal",)), dict) and missing:
        reader.fail(("deal",), f"missing the hand of {', '.join(missing)} (write [] for a player with no cards)", key=True)
    return hands


def steps(record: Record, params: rules.Params) -> list[Step]:
    seated(record, rules.check_players, params)
    reader = Reader(record)
    colours = params.colours
    result = []
    turns = reader.sequence(("turns",))
    for index, _ in enumerate(turns):
        path = ("turns", index)
        entry = reader.mapping(path)
        stages: list[tuple[str, int, rules.Action]] = []
        if reader.player(path + ("player",), entry["player"]) is not None:
            stages.append(("player", line(record, path + ("player",)), rules.Begin(entry["player"])))
        if "trade" in entry:
            stages += _trades(reader, path, "trade", colours)
        stages += _play(reader, path, entry, colours, last=index == len(turns) - 1)
        if "then" in entry:
            stages += _trades(reader, path, "then", colours)
        result.append(Step(f"turns[{index}]", record.line(path), tuple(stages)))
    reader.done()
    return result


def _play(reader: Reader, turn: Path, entry: dict[str, Any], colours: tuple[str, ...], *, last: bool) -> list[Stage]:
    """Stage 2, the turn's card: every turn plays one, but the last turn of a record may stop
    before it (and then has no `then`)."""
    if "play" not in entry:
        if not last or "then" in entry:
            reader.fail(turn, 'missing "play" (stage 2: every turn plays one card, e.g. "+30 red -60 blue")')
        return []
    try:
        return [("play", line(reader.record, turn + ("play",)), rules.parse_play(entry["play"], colours))]
    except rules.NotationError as error:
        reader.fail(turn + ("play",), str(error))
        return []


def _trades(reader: Reader, turn: Path, key: str, colours: tuple[str, ...]) -> list[tuple[str, int, rules.Trade]]:
    """A stage's trades: `{sell: …, buy: …}`, or a list of them in order; each with where it
    is (`then`, or `then[1]` in a list) and its line."""
    path = turn + (key,)
    if not isinstance(reader.get(path), tuple):
        return [(key, line(reader.record, path), _trade(reader, path, colours))]
    return [(f"{key}[{k}]", reader.record.line(path + (k,)), _trade(reader, path + (k,), colours))
            for k in range(len(reader.sequence(path)))]


def _trade(reader: Reader, path: Path, colours: tuple[str, ...]) -> rules.Trade:
    sell, buy = (reader.counts(path + (side,), colours, "colour") for side in ("sell", "buy"))
    return rules.Trade.of(sell, buy)



def line(record: Record, path: Path) -> int:
    """The line of a key (`deal:`, `then:`), where a reader looks, even when its value starts below."""
    return record.source.position(path, key=True)[0]


