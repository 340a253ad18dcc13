"""The bolsa referee: a record's `start` and `rounds` as steps of the bolsa engine (REFEREE.md).

Steps are as fine as the record: each declaration (`rounds[r].declare.Ana`), each company
brought up (`rounds[r].trade.TEF`), each bid (`rounds[r].auctions.TEF[k]`) and, after an
auction, the company's settlement (`rounds[r].trade.TEF` again). Withdrawals under
`auction_losers: may_withdraw` (`rounds[r].withdraw.TEF: [Ben]`, the one key REFEREE.md does
not list, since it lists no option) and `pairing` are checked inside the settlement, each at
its own place in the record.

A record may stop inside its last round, before a company is settled, saying so with
`unsettled: TEF`: the round goes as far as TEF, its bids so far (all, some or none) and its
withdrawals, and the record's position is the table's at that moment — an auction still
running, or, under `may_withdraw`, its losers still to choose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from pnp.errors import RecordError, brief
from pnp.referee.fields import Reader
from pnp.referee.record import Record, dump, scalar, where
from pnp.referee.replay import Step, StepViolation, seated
from pnp.rules.base import Event, Violation
from pnp.rules.bolsa import engine

if TYPE_CHECKING:
    from pnp.spec.model import Game

KEYS = ("rounds",)
ROUND_KEYS = ("declare", "auctions", "pairing", "withdraw", "unsettled")
START_KEYS = ("round", "token", "prices", "players")
HOLDING_KEYS = ("cash", "owned", "orders")
PAIR_KEYS = ("buyer", "seller", "shares")


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
    path: tuple  # the round's path, for located record errors
    bids: bool
    settlement: Settlement
    record: Record = field(repr=False, compare=False)
    first_bid: engine.Bid | None = None  # the auction's first bid as recorded, if readable


@dataclass(frozen=True)
class AuctionTurn:
    bid: engine.Bid
    path: tuple
    record: Record = field(repr=False, compare=False)


@dataclass(frozen=True)
class Finish:
    """Settle a company after its auction (the record's bids must have ended it)."""

    code: str
    path: tuple  # the company's `auctions` entry
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
    read.mapping(base, ROUND_KEYS)
    stop = _unsettled(read, base, companies, last=last)
    result = []
    for name in read.mapping(base + ("declare",)):
        path = base + ("declare", name)
        if read.player(path, name, key=True) is None:
            continue
        entry = read.mapping(path, ("sell", "buy"))
        sell = read.counts(path + ("sell",), companies, "company") if "sell" in entry else {}
        buy = read.counts(path + ("buy",), companies, "company") if "buy" in entry else {}
        result.append(Step(where(path), _key_line(record, path), engine.Declare(name, sell, buy)))
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
            result.append(Step(trade_at, _key_line(record, path), Finish(code, path, settlement, record)))
    return result


def _unsettled(read: Reader, base: tuple, companies: tuple[str, ...], *, last: bool) -> str | None:
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


def _by_company(read: Reader, path: tuple, companies: tuple[str, ...]) -> dict[str, tuple]:
    """`{TEF: [...], ...}` with known companies and list values."""
    result = {}
    for code in read.mapping(path):
        if read.choice(path + (code,), code, companies, "company", key=True) is not None:
            result[code] = read.sequence(path + (code,))
    return result


def _bid(read: Reader, path: tuple) -> engine.Bid | None:
    """`- Ana: 12` or `- Ben: pass`."""
    entry = read.get(path)
    if not isinstance(entry, dict) or len(entry) != 1:
        read.fail(path, "a bid is one `Name: amount` or `Name: pass`, e.g. - Ana: 12")
        return None
    ((name, amount),) = entry.items()
    if read.player(path + (name,), name, key=True) is None:
        return None
    if amount == "pass":
        return engine.Bid(name, None)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        read.fail(path + (name,), f"a bid is a whole number ≥ 0 or pass, got {brief(amount)}")
        return None
    return engine.Bid(name, amount)


def _withdrawal(read: Reader, path: tuple) -> Located:
    name = read.get(path)
    read.player(path, name)
    return Located(where(path), read.record.line(path), engine.Withdraw(str(name)))


def _pairing(read: Reader, base: tuple, code: str, given: bool) -> Located:
    path = base + ("pairing", code)
    if not given:
        return Located(where(base + ("trade", code)), read.record.line(base), engine.Settle())
    pairs = []
    for k in range(len(read.sequence(path))):
        here = path + (k,)
        values = read.mapping(here, PAIR_KEYS)
        missing = [key for key in PAIR_KEYS if key not in values]
        if missing:
            read.fail(here, f"a pairing entry needs {', '.join(PAIR_KEYS)}; missing {', '.join(missing)}")
            continue
        buyer = read.player(here + ("buyer",), values["buyer"])
        seller = read.player(here + ("seller",), values["seller"])
        shares = read.count(here + ("shares",), minimum=1)
        if buyer is not None and seller is not None:
            pairs.append(engine.Pair(buyer, seller, shares))
    return Located(where(path), read.record.line(path), engine.Settle(tuple(pairs)))


def _key_line(record: Record, path: tuple) -> int:
    return record.source.position(path, key=True)[0]


def setup(record: Record, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    read = Reader(record)
    companies = params.companies
    given = read.mapping(("start",), START_KEYS)
    start = engine.Start(
        round=read.count(("start", "round"), minimum=1) if "round" in given else None,
        token=read.player(("start", "token"), given["token"]) if "token" in given else None,
        prices=read.counts(("start", "prices"), companies, "company"),
        **_holdings(read, companies),
    )
    read.done()
    return engine.setup(params, record.players, start)


def _holdings(read: Reader, companies: tuple[str, ...]) -> dict[str, dict]:
    cash, owned, orders = {}, {}, {}
    for name in read.mapping(("start", "players")):
        path = ("start", "players", name)
        if read.player(path, name, key=True) is None:
            continue
        entry = read.mapping(path, HOLDING_KEYS)
        if "cash" in entry:
            cash[name] = read.count(path + ("cash",))
        owned[name] = read.counts(path + ("owned",), companies, "company")
        orders[name] = read.counts(path + ("orders",), companies, "company")
    return {"cash": cash, "owned": owned, "orders": orders}


# --- replaying -----------------------------------------------------------------------------------


def apply(state: engine.State, step: Step, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    action = step.action
    if isinstance(action, BringUp):
        return _bring_up(state, action, params)
    if isinstance(action, AuctionTurn):
        return _place_bid(state, action, params)
    if isinstance(action, Finish):
        return _finish(state, action, params)
    return engine.apply(state, action, params)


def _bring_up(state: engine.State, action: BringUp, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    """Resolve the company; its bids must be in the record exactly when an auction is due."""
    state, events = engine.apply(state, engine.Resolve(), params)
    auction = state.trade.auction  # type: ignore[union-attr]  # Resolve leaves a company in trade
    code = action.code
    if auction is not None and not action.bids:
        if action.settlement.settle is None:  # the record stops here: the auction is open
            return state, events
        first = state.players[auction.to_act].name
        raise _unreadable(action.record, action.path,
                          f"{code} goes to auction: add auctions.{code} with the bids in order, starting with {first} "
                          f"(or, to stop the record here, `unsettled: {code}` in its last round)")
    if auction is None and action.first_bid is not None:  # a readable record of what the rules do not allow:
        path = action.path + ("auctions", code)  # the engine says why, at the bids' key
        try:
            engine.apply(state, action.first_bid, params)
        except Violation as violation:
            raise StepViolation(violation, where(path), _key_line(action.record, path), state, events) from None
    if auction is not None:
        return state, events
    return _settle(state, action.settlement, list(events), params)


def _place_bid(state: engine.State, action: AuctionTurn, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    return engine.apply(state, action.bid, params)


def _finish(state: engine.State, action: Finish, params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    trade = state.trade
    assert trade is not None and trade.auction is not None, "a Finish follows the bids of an auction under way"
    players, auction = state.players, trade.auction
    if not auction.over and action.settlement.settle is not None:
        active = ", ".join(players[i].name for i in auction.order if i not in auction.passed)
        raise _unreadable(action.record, action.path, f"the {action.code} auction is not over: {active} have not "
                          f"passed; {players[auction.to_act].name} bids next (or, to stop the record here, "
                          f"`unsettled: {action.code}` in its last round)", key=True)
    return _settle(state, action.settlement, [], params)


def actions(step: Step) -> tuple[engine.Action, ...]:
    """The engine actions of one step: bringing up a company is `Resolve` and, without bids,
    its settlement at once; a bid is itself; the end of an auction is the settlement."""
    action = step.action
    if isinstance(action, BringUp):
        return (engine.Resolve(),) + (() if action.bids else _settlement(action.settlement))
    if isinstance(action, AuctionTurn):
        return (action.bid,)
    if isinstance(action, Finish):
        return _settlement(action.settlement)
    return (action,)


def _settlement(settlement: Settlement) -> tuple[engine.Action, ...]:
    return tuple(located.action for located in _choices(settlement))


def _choices(settlement: Settlement) -> tuple[Located, ...]:
    """The withdrawals, then the settlement itself unless the record stops before it."""
    return settlement.withdraw + (() if settlement.settle is None else (settlement.settle,))


def _unreadable(record: Record, path: tuple, message: str, *, key: bool = False) -> RecordError:
    """What only replay reveals about the record itself (bids missing or extra): exit 2."""
    return RecordError([record.issue(path, message, key=key)])


def _settle(state: engine.State, settlement: Settlement, events: list[Event],
            params: engine.Params) -> tuple[engine.State, Sequence[Event]]:
    """Withdrawals then the settlement, each failing at its own place in the record."""
    for choice in _choices(settlement):
        try:
            state, more = engine.apply(state, choice.action, params)
        except Violation as violation:
            raise StepViolation(violation, choice.at, choice.line, state, events) from None
        events += more
    return state, events


def state_json(state: engine.State, params: engine.Params) -> dict[str, Any]:
    """REFEREE.md's keys, and where the round stands: its phase, the declared cards (zones 3
    and 4, `offered` and `requested`), the company being resolved and its auction."""
    codes = params.companies
    names = [p.name for p in state.players]
    answer: dict[str, Any] = {
        "round": state.round,
        "token": names[state.token],
        "prices": dict(zip(codes, state.prices, strict=True)),
        "players": {
            p.name: {
                "cash": p.cash,
                "shares": {code: z.owned for code, z in zip(codes, p.zones, strict=True)},
                "orders": {code: z.orders for code, z in zip(codes, p.zones, strict=True)},
                "offered": {code: z.offered for code, z in zip(codes, p.zones, strict=True)},
                "requested": {code: z.requested for code, z in zip(codes, p.zones, strict=True)},
            }
            for p in state.players
        },
        "phase": state.phase,
    }
    if state.phase == "declare":
        answer["declared"] = [names[i] for i in state.seating() if i in state.declared]
    if state.trade is not None:
        trade, auction = state.trade, state.trade.auction
        answer["trade"] = {"company": codes[trade.company], "case": trade.case, "quote": trade.quote, "auction": None if auction is None else {
            "ascending": auction.ascending,
            "bidders": [names[i] for i in auction.order],
            "passed": [names[i] for i in auction.passed],
            "best": auction.best,
            "bidder": None if auction.bidder is None else names[auction.bidder],
            "over": auction.over,
            "to_act": None if auction.over else names[auction.to_act],
        }}
    result = engine.outcome(state, params)
    if result is not None:
        answer.update(over=True, scores=dict(result.scores), winners=list(result.winners))
    return answer


# --- writing records ------------------------------------------------------------------------------


def starter(game: Game, players: list[str], start: engine.Start | None = None) -> str:
    """The standard setup (BOLSA-2) written out, ready for the rounds to be added (Bolsa deals
    nothing at random: `start` is None)."""
    params = engine.params(game)
    state, _ = engine.setup(params, players)
    options = [f"{o.name}: {getattr(params, o.name)}" for o in engine.RULEBOOK.options if not o.set_by]
    first, second, third = (scalar(name) for name in players[:3])
    code, bid = params.companies[-1], params.start_quote + 2
    return "\n".join([
        f"# {game.title} — game record for `pnp referee check`; `pnp rules show BOLSA-2` quotes a rule it names.",
        "# players: seating, clockwise; start: the standard setup (BOLSA-2): the holder of the",
        "# auction-order token, the quotes, and each player's cash, owned (zone 1) and orders (zone 2).",
        "# House rules (`pnp rules show BOLSA-8` lists them) go in options; omitted = the values of components.yaml:",
        *(f"#   {option}" for option in options),
        dump(record(params, players, (), start=state)).rstrip(),
        "# Replace [] with one entry per round, e.g.:",
        "# - declare:                 # sealed declarations; a player left out declares nothing",
        f"#     {first}: {{sell: {{{code}: 1}}}}",
        f"#     {second}: {{buy: {{{code}: 2}}}}",
        f"#     {third}: {{buy: {{{code}: 1}}}}",
        "#   auctions:                # each auctioned company's bids, in bidding order",
        f"#     {code}: [{{{second}: {bid}}}, {{{third}: pass}}]",
        "#   pairing:                 # optional: who buys from whom (BOLSA-4.8)",
        f"#     {code}: [{{buyer: {second}, seller: {first}, shares: 1}}]",
        f"# (Under auction_losers: may_withdraw, `withdraw: {{{code}: [{third}]}}` names the losers who take",
        "# back their cards.)",
        "",
    ])


def record(
    params: engine.Params,
    players: Sequence[str],
    actions: Iterable[engine.Action],
    options: Mapping[str, Any] | None = None,
    start: engine.State | None = None,
) -> dict[str, Any]:
    """A record (plain data for `dump`) of `actions` played through the engine from `start`
    (a position at the beginning of a round; None: the standard setup) — the inverse of
    `steps`, for starters, simulations, benchmarks, round-trip tests and the table, whose
    actions may stop before a company is settled (`unsettled`)."""
    data: dict[str, Any] = {"game": "bolsa", "players": list(players), "options": dict(options or {})}
    if start is not None:
        data["start"] = _start_data(params, start)
    return {**data, "rounds": _rounds(params, actions)}


def _rounds(params: engine.Params, actions: Iterable[engine.Action]) -> list[dict]:
    """The record's rounds: each round's declarations, then per company resolved its bids,
    withdrawals and pairing; a round ends when its last company is settled, and a company
    resolved but not settled is named `unsettled`."""
    rounds: list[dict] = []
    current: dict | None = None
    resolved, code, settled = 0, "", True
    for action in actions:
        if current is None:
            current = {}
            rounds.append(current)
        if isinstance(action, engine.Declare):
            sides = {"sell": dict(action.sell), "buy": dict(action.buy)}
            current.setdefault("declare", {})[action.player] = {side: n for side, n in sides.items() if n}
        elif isinstance(action, engine.Resolve):
            code = params.companies[resolved % len(params.companies)]
            resolved, settled = resolved + 1, False
        elif isinstance(action, engine.Bid):
            bid = "pass" if action.amount is None else action.amount
            current.setdefault("auctions", {}).setdefault(code, []).append({action.player: bid})
        elif isinstance(action, engine.Withdraw):
            current.setdefault("withdraw", {}).setdefault(code, []).append(action.player)
        elif isinstance(action, engine.Settle):
            settled = True
            if action.pairing is not None:
                current.setdefault("pairing", {})[code] = [vars(pair) for pair in action.pairing]
            if resolved % len(params.companies) == 0:
                current = None
    if not settled and current is not None:
        current["unsettled"] = code
    return rounds


def _start_data(params: engine.Params, start: engine.State) -> dict[str, Any]:
    """A record's `start`: the round, the token's holder, the quotes and each player's cash,
    owned shares (zone 1) and orders (zone 2)."""
    codes = params.companies
    return {
        "round": start.round,
        "token": start.players[start.token].name,
        "prices": dict(zip(codes, start.prices, strict=True)),
        "players": {
            p.name: {"cash": p.cash, "owned": {c: z.owned for c, z in zip(codes, p.zones, strict=True)},
                     "orders": {c: z.orders for c, z in zip(codes, p.zones, strict=True)}}
            for p in start.players
        },
    }
