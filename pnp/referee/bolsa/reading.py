"""Reading the Bolsa part of a game record: the `start` and the `rounds`, as steps (REFEREE.md).

Steps are as fine as the record: each declaration (`rounds[r].declare.Ana`), each company
brought up (`rounds[r].trade.TEF`), each bid (`rounds[r].auctions.TEF[k]`) and, after an
auction, the company's settlement (`rounds[r].trade.TEF` again). Withdrawals under
`auction_losers: may_withdraw` (`rounds[r].withdraw.TEF: [Ben]`, the one key REFEREE.md does
not list, since it lists no option) and `pairing` are checked inside the settlement, each at
its own place in the record. The record's shape (keys, types, bounds) was checked as it was
read (`pnp.referee.bolsa.shape`); here every name it uses is, each unknown one collected with
its file:line:col before anything is replayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.referee.fields import Reader
from pnp.referee.record import Record, where
from pnp.referee.replay import Step, seated
from pnp.rules.bolsa import engine

Path = tuple[Any, ...]  # a place in the record, e.g. ("rounds", 2, "declare", "Ben")


@dataclass(frozen=True)
class Located:
    """An engine action that sits at a precise place inside a step."""

    at: str
    line: int
    action: engine.Action


@dataclass(frozen=True)
class Settlement:
    withdraw: tuple[Located, ...]
    settle: Located | None  # None: the record stops before the company is settled (`unsettled`)


@dataclass(frozen=True)
class BringUp:
    """Resolve the next company; settle it at once unless its auction's bids follow."""

    code: str
    path: Path  # the round's path, for located record errors
    bids: bool
    settlement: Settlement
    record: Record = field(repr=False, compare=False)
    first_bid: engine.Bid | None = None  # the auction's first bid as recorded, if readable


@dataclass(frozen=True)
class AuctionTurn:
    bid: engine.Bid
    path: Path
    record: Record = field(repr=False, compare=False)


@dataclass(frozen=True)
class Finish:
    """Settle a company after its auction (the record's bids must have ended it)."""

    code: str
    path: Path  # the company's `auctions` entry
    settlement: Settlement
    record: Record = field(repr=False, compare=False)


# --- reading the record ----------------------------------------------------------------------


def steps(record: Record, params: engine.Params) -> list[Step]:
    seated(record, engine.check_players, params)
    read = Reader(record)
    companies = params.companies
    result: list[Step] = []
    rounds = len(read.sequence(("rounds",)))
    for r in range(rounds):
        result += _round_steps(read, r, companies, last=r == rounds - 1)
    read.done()
    return result


def _round_steps(read: Reader, r: int, companies: tuple[str, ...], *, last: bool) -> list[Step]:
    base = ("rounds", r)
    record = read.record
    stop = _unsettled(read, base, companies, last=last)
    result = _declarations(read, base, companies)
    auctions = _by_company(read, base + ("auctions",), companies)
    pairings = _by_company(read, base + ("pairing",), companies)
    withdrawals = _by_company(read, base + ("withdraw",), companies)
    for code in companies[: companies.index(stop) + 1 if stop else None]:
        settlement = Settlement(
            tuple(_withdrawal(read, base + ("withdraw", code, k)) for k in range(len(withdrawals.get(code, ())))),
            None if code == stop else _pairing(read, base, code, code in pairings),
        )
        paths = [base + ("auctions", code, k) for k in range(len(auctions.get(code, ())))]
        bids = [(path, _bid(read, path)) for path in paths]
        trade_at = where(base + ("trade", code))
        first = bids[0][1] if bids else None
        result.append(Step(trade_at, record.line(base), BringUp(code, base, bool(bids), settlement, record, first)))
        for at, bid in bids:
            if bid is not None:
                result.append(Step(where(at), record.line(at), AuctionTurn(bid, at, record)))
        if bids:
            path = base + ("auctions", code)
            result.append(Step(trade_at, key_line(record, path), Finish(code, path, settlement, record)))
    return result


def _declarations(read: Reader, base: Path, companies: tuple[str, ...]) -> list[Step]:
    """A round's declarations, one step per player named, with what each sells and buys."""
    steps = []
    for name in read.mapping(base + ("declare",)):
        path = base + ("declare", name)
        if read.player(path, name, key=True) is None:
            continue
        sell = read.counts(path + ("sell",), companies, "company")
        buy = read.counts(path + ("buy",), companies, "company")
        steps.append(Step(where(path), key_line(read.record, path), engine.Declare(name, sell, buy)))
    return steps


def _unsettled(read: Reader, base: Path, companies: tuple[str, ...], *, last: bool) -> str | None:
    """The company the record stops before settling (`unsettled: TEF`), if any: only in the
    last round, with nothing written for it or the companies after it that would follow its
    settlement (its pairing; their bids, pairings, withdrawals)."""
    path = base + ("unsettled",)
    code = read.get(path)
    if code is None:
        return None
    if read.choice(path, code, companies, "company") is None:
        return None
    if not last:
        read.fail(path, f"only the record's last round can stop before a company is settled ({code})")
        return None
    later = companies[companies.index(code) + 1:]
    for key in ("auctions", "pairing", "withdraw"):
        written = read.get(base + (key,))
        for other in (written if isinstance(written, dict) else {}):
            if other in later or (key == "pairing" and other == code):
                read.fail(base + (key, other), f"the record stops before {code} is settled (`unsettled: {code}`), "
                          f"so nothing of {other} can follow", key=True)
    return str(code)


def _by_company(read: Reader, path: Path, companies: tuple[str, ...]) -> dict[str, tuple[Any, ...]]:
    """`{TEF: [...], ...}` with known companies and list values."""
    result = {}
    for code in read.mapping(path):
        if read.choice(path + (code,), code, companies, "company", key=True) is not None:
            result[code] = read.sequence(path + (code,))
    return result


def _bid(read: Reader, path: Path) -> engine.Bid | None:
    """`- Ana: 12` or `- Ben: pass` (one name and its bid: the shape's)."""
    ((name, amount),) = read.get(path).items()
    if read.player(path + (name,), name, key=True) is None:
        return None
    return engine.Bid(name, None if amount == "pass" else amount)


def _withdrawal(read: Reader, path: Path) -> Located:
    name = read.get(path)
    read.player(path, name)
    return Located(where(path), read.record.line(path), engine.Withdraw(str(name)))


def _pairing(read: Reader, base: Path, code: str, given: bool) -> Located:
    path = base + ("pairing", code)
    if not given:
        return Located(where(base + ("trade", code)), read.record.line(base), engine.Settle())
    pairs = []
    for k in range(len(read.sequence(path))):
        here = path + (k,)
        buyer = read.player(here + ("buyer",), read.get(here + ("buyer",)))
        seller = read.player(here + ("seller",), read.get(here + ("seller",)))
        if buyer is not None and seller is not None:
            pairs.append(engine.Pair(buyer, seller, read.get(here + ("shares",))))
    return Located(where(path), read.record.line(path), engine.Settle(tuple(pairs)))


def key_line(record: Record, path: Path) -> int:
    return record.source.position(path, key=True)[0]


def start(record: Record, params: engine.Params) -> engine.Start:
    """The record's `start` for `engine.setup` (RecordError if unreadable)."""
    read = Reader(record)
    companies = params.companies
    given = read.mapping(("start",))
    cash, owned, orders = _holdings(read, companies)
    overlay = engine.Start(
        round=given.get("round"),
        token=read.player(("start", "token"), given["token"]) if "token" in given else None,
        prices=read.counts(("start", "prices"), companies, "company"),
        cash=cash, owned=owned, orders=orders,
    )
    read.done()
    return overlay


Counts = dict[str, dict[str, int]]


def _holdings(read: Reader, companies: tuple[str, ...]) -> tuple[dict[str, int], Counts, Counts]:
    cash: dict[str, int] = {}
    owned: Counts = {}
    orders: Counts = {}
    for name in read.mapping(("start", "players")):
        path = ("start", "players", name)
        if read.player(path, name, key=True) is None:
            continue
        if read.get(path + ("cash",)) is not None:
            cash[name] = read.get(path + ("cash",))
        owned[name] = read.counts(path + ("owned",), companies, "company")
        orders[name] = read.counts(path + ("orders",), companies, "company")
    return cash, owned, orders

