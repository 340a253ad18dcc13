"""Reading the For-Ex part of a game record: the turns and the `start` position.

The record's shape (keys, counts, amounts) was checked as it was read (`pnp.referee.forex.shape`);
here everything is checked against the spec (currencies, contract sets, the rate track) and the
record's players, and every problem is collected with its file:line:col before anything is
replayed (REFEREE.md). Amounts are exact: 4.5, or "5/4" as text where a spec's own rates make
quarters. In `start`, whatever is left out stays as in the standard setup: a player's money in
a currency not named stays 2 (`start_money`), pairs not named keep their start box, and
without `supply` the certificates players hold come out of the standard supply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping

from pnp.errors import brief
from pnp.referee.fields import Reader
from pnp.referee.forex.amounts import exact, problem
from pnp.referee.record import Record, where
from pnp.referee.replay import Step, seated
from pnp.rules.forex import engine

Path = tuple[Any, ...]  # a place in the record, e.g. ("turns", 3, "divest", "others", "Ben")

_DIVIDEND = re.compile(r"^dividend (\d+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Turn:
    """One turn of the record: its optional spot, then its one action (`kind` is its key)."""

    index: int
    kind: str  # contract, invest, divest or resolve ("" when the record stops after the spot)
    spot: engine.Spot | None
    action: engine.Action | None  # None only in the record's last turn, stopped after its spot
    record: Record = field(repr=False, compare=False)  # to locate a violation inside the turn


def steps(record: Record, p: engine.Params) -> list[Step]:
    """One step per turn: its spot, if any, then its action."""
    seated(record, engine.check_players, p)
    return [Step(where(("turns", t.index)), record.line(("turns", t.index)), t) for t in turns(record, p)]


def turns(record: Record, p: engine.Params) -> list[Turn]:
    """Every turn, read and checked against the spec's currencies and contract sets."""
    reader = Reader(record)
    listed = reader.sequence(("turns",))
    found = [turn for index, _ in enumerate(listed)
             if (turn := _turn(reader, record, index, index == len(listed) - 1, p)) is not None]
    reader.done()
    return found


def _turn(reader: Reader, record: Record, index: int, last: bool, p: engine.Params) -> Turn | None:
    """The record's turn `index`, read (`last`: the record may end after its spot, before its
    action); None when it is no mapping or has not one action, the reader keeping why."""
    base = ("turns", index)
    raw = reader.mapping(base)
    player = reader.player(base + ("player",), raw["player"])
    kind = _action_kind(reader, base, raw, last)
    if kind is None:
        return None
    spot = _spot(reader, base + ("spot",), player or "", p) if "spot" in raw else None
    action = _ACTION_READERS[kind](reader, base + (kind,), player or "", p) if kind else None
    return Turn(index, kind, spot, action, record)


def _action_kind(reader: Reader, base: Path, raw: Mapping[str, object], last: bool) -> str | None:
    """The kind of a turn's one action ("" for the `last` turn with its spot alone: the record
    ends before the action); None when it has not one, the reader keeping why."""
    kinds = [key for key in ACTIONS if key in raw]
    if not kinds and "spot" in raw and last:
        return ""
    if len(kinds) != 1:
        reader.fail(base, f"a turn has exactly one action ({', '.join(ACTIONS)}), this one has "
                    f"{len(kinds) and ', '.join(kinds) or 'none'} ({engine.TURN})")
        return None
    return kinds[0]


def start(record: Record, p: engine.Params) -> engine.Start:
    """The record's `start` for `engine.setup` (RecordError if unreadable)."""
    reader = Reader(record)
    given = reader.mapping(("start",))
    money, certificates = _start_players(reader, p)
    overlays = engine.Start(
        pairs=_start_pairs(reader, p) if given.get("pairs") is not None else None,
        supply=reader.counts(("start", "supply"), p.currencies, "currency") if given.get("supply") is not None else None,
        money=money,
        certificates=certificates,
        queue=_start_queue(reader, p) if given.get("queue") is not None else None,
    )
    reader.done()
    return overlays


# --- turns ------------------------------------------------------------------------------------


def _exact(reader: Reader, path: Path) -> Fraction:
    """The amount at `path` (`amounts.exact`); 0, the reader keeping why, for none (only the
    start queue's terms can be none here: the shape checked every other amount)."""
    value = reader.get(path)
    wrong = problem(value)
    if wrong is not None:
        reader.fail(path, wrong)
        return Fraction(0)
    return exact(value) or Fraction(0)


def _one_amount(reader: Reader, path: Path, p: engine.Params) -> tuple[str, Fraction]:
    """{GBP: 1} → ("GBP", 1)."""
    ((currency, _),) = reader.mapping(path).items()
    reader.choice(path + (currency,), currency, p.currencies, "currency", key=True)
    return str(currency), _exact(reader, path + (currency,))


def _currency(reader: Reader, path: Path, p: engine.Params) -> str:
    value = reader.get(path)
    return "" if value is None else reader.choice(path, value, p.currencies, "currency") or ""


def _spot(reader: Reader, path: Path, player: str, p: engine.Params) -> engine.Spot:
    other = reader.player(path + ("with",), reader.get(path + ("with",)))
    return engine.Spot(player, other or "", _one_amount(reader, path + ("give",), p),
                       _one_amount(reader, path + ("get",), p))


def _contract(reader: Reader, path: Path, player: str, p: engine.Params) -> engine.MakeContract:
    pay, receive = _currency(reader, path + ("pay",), p), _currency(reader, path + ("receive",), p)
    return engine.MakeContract(player, pay, receive, _exact(reader, path + ("amount",)))


def _invest(reader: Reader, path: Path, player: str, p: engine.Params) -> engine.Invest:
    codes = reader.sequence(path)
    return engine.Invest(player, tuple(_currency(reader, path + (i,), p) for i in range(len(codes))))


def _divest(reader: Reader, path: Path, player: str, p: engine.Params) -> engine.Divest:
    currency = _currency(reader, path + ("currency",), p)
    others = []
    for name, count in reader.mapping(path + ("others",)).items():
        if reader.player(path + ("others", name), name, key=True) is not None:
            others.append((name, count))
    return engine.Divest(player, currency, reader.get(path + ("count",)), tuple(others))


def _resolve(reader: Reader, path: Path, player: str, p: engine.Params) -> engine.Resolve:
    given = reader.mapping(path).get("default") or ()
    letters = (given,) if isinstance(given, str) else given
    for i, letter in enumerate(letters):
        reader.choice(path + ("default",) + ((i,) if isinstance(given, tuple) else ()), letter, p.sets, "contract set")
    return engine.Resolve(
        player,
        strengthen=_currency(reader, path + ("strengthen",), p) or None,
        strongest=_currency(reader, path + ("strongest",), p) or None,
        default=tuple(str(letter) for letter in letters),
    )


# A turn's one action (the engine's `ENDS_TURN`, FOREX-5.2) by its key in the record, and its reader.
_ACTION_READERS: dict[str, Callable[[Reader, Path, str, engine.Params], engine.Action]] = {
    "contract": _contract, "invest": _invest, "divest": _divest, "resolve": _resolve}
ACTIONS = tuple(_ACTION_READERS)


# --- the start position -------------------------------------------------------------------


def _start_pairs(reader: Reader, p: engine.Params) -> dict[str, tuple[str, int]]:
    found = {}
    for key in reader.mapping(("start", "pairs")):
        path = ("start", "pairs", key)
        a, _, b = str(key).partition("/")
        if a not in p.currencies or b not in p.currencies or p.index(a) >= p.index(b):
            hint = f'"{b}/{a}"' if a in p.currencies and b in p.currencies and a != b else "A/B"
            reader.fail(path, f'unknown pair "{key}": write {hint} with the currencies in the order '
                        f"{', '.join(p.currencies)}", key=True)
            continue
        raw = reader.mapping(path)
        if raw["stronger"] not in (a, b):
            reader.fail(path + ("stronger",), f"stronger must be {a} or {b}, got {brief(raw['stronger'])}")
            continue
        position = raw["position"]
        if position > p.boxes:
            reader.fail(path + ("position",), f"position must be 1..{p.boxes}, got {position}")
        found[key] = (raw["stronger"], position)
    return found


def _start_players(reader: Reader, p: engine.Params) -> tuple[dict[str, dict[str, Fraction]], dict[str, dict[str, int]]]:
    money: dict[str, dict[str, Fraction]] = {}
    certificates: dict[str, dict[str, int]] = {}
    for name in reader.mapping(("start", "players")):
        path = ("start", "players", name)
        if reader.player(path, name, key=True) is None:
            continue
        money[name] = {}
        for currency in reader.mapping(path + ("money",)):
            if reader.choice(path + ("money", currency), currency, p.currencies, "currency", key=True):
                money[name][currency] = _exact(reader, path + ("money", currency))
        certificates[name] = reader.counts(path + ("certificates",), p.currencies, "currency")
    return money, certificates


def _start_queue(reader: Reader, p: engine.Params) -> list[engine.Item]:
    items: list[engine.Item] = []
    for index, raw in enumerate(reader.sequence(("start", "queue"))):
        path = ("start", "queue", index)
        if isinstance(raw, str) and (dividend := _DIVIDEND.match(raw.strip())):
            number = int(dividend.group(1))
            if not 1 <= number <= len(p.dividends):
                reader.fail(path, f"there are dividends 1 to {len(p.dividends)}, not {number}")
            items.append(engine.Dividend(number))
        elif isinstance(raw, dict) and ("contract" in raw) != ("loan" in raw):
            item = _queue_contract(reader, path, p) if "contract" in raw else _queue_loan(reader, path, p)
            if item is not None:
                items.append(item)
        else:
            reader.fail(path, 'expected "dividend N", {contract: B, owner: Ana, pay: {GBP: 3}, receive: {EUR: 4.5}} '
                        "or {loan: A, owner: Ben, owe: {GBP: 4}}")
    return items


def _queue_head(reader: Reader, path: Path, p: engine.Params, kind: str, keys: tuple[str, ...]) -> tuple[str | None, str | None]:
    raw = reader.mapping(path, (kind, "owner") + keys)
    for key in ("owner",) + keys:
        if key not in raw:
            reader.fail(path, f'missing "{key}"')
    letter = reader.choice(path + (kind,), raw.get(kind), p.sets, "contract set")
    owner = reader.player(path + ("owner",), raw.get("owner")) if "owner" in raw else None
    return letter, owner


def _amounts(reader: Reader, path: Path, p: engine.Params) -> tuple[tuple[str, Fraction], ...]:
    found = []
    for currency in reader.mapping(path):
        if reader.choice(path + (currency,), currency, p.currencies, "currency", key=True):
            found.append((currency, _exact(reader, path + (currency,))))
    return tuple(sorted(found, key=lambda part: p.index(part[0])))


def _queue_contract(reader: Reader, path: Path, p: engine.Params) -> engine.Contract | None:
    letter, owner = _queue_head(reader, path, p, "contract", ("pay", "receive"))
    pay, receive = _amounts(reader, path + ("pay",), p), _amounts(reader, path + ("receive",), p)
    for key, terms in (("pay", pay), ("receive", receive)):
        if len(terms) != 1 and reader.get(path + (key,)) is not None:
            reader.fail(path + (key,), "expected one currency and its amount, e.g. {GBP: 3}")
    if letter and owner and len(pay) == 1 and len(receive) == 1:
        return engine.Contract(letter, owner, pay[0], receive[0])
    return None


def _queue_loan(reader: Reader, path: Path, p: engine.Params) -> engine.Loan | None:
    letter, owner = _queue_head(reader, path, p, "loan", ("owe",))
    owe = _amounts(reader, path + ("owe",), p)
    if not owe and reader.get(path + ("owe",)) is not None:
        reader.fail(path + ("owe",), "expected the amounts owed per currency, e.g. {GBP: 4}")
    return engine.Loan(letter, owner, owe) if letter and owner and owe else None
