"""A For-Ex turn (FOREX-5): an optional Spot Transaction, then exactly one action; and the
engine contract (`pnp.rules.base.Engine`).

`apply(state, action, params)` applies a `Spot`, `MakeContract`, `Invest`, `Divest` or
`Resolve`, and returns the new state with the events that explain it. It accepts an action
exactly when one of `legal_actions`' templates admits it (`legal.judge`), the final tie's pick
(FOREX-12.1) checked beyond them; the handlers' checks word a refusal, as a `Violation` whose
`part` names the offending piece (the second investment, another player's divestment),
leaving the given state untouched.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, Callable, Iterator, Mapping, Union

from pnp.errors import brief
from pnp.rules.base import Events, Log, Malformed, Number, Observer, Outcome, Played, ToMove, Trace, Violation, evolve
from pnp.rules.forex import events as said

# Besides the contract, the names a caller of this game uses (`from pnp.rules.forex import engine`
# is the game's whole API): the package itself holds only what the spec layer reads on each load.
from pnp.rules.forex.board import Pair as Pair
from pnp.rules.forex.board import find, marks, shift, strengths, tables, value_in
from pnp.rules.forex.params import Params, params, payable, show, show_rate
from pnp.rules.forex.resolve import Resolve, defaultable, queue_labels, queue_text, resolve
from pnp.rules.forex.rulebook import RULEBOOK
from pnp.rules.forex.state import Contract, Dividend, Start, State, check_players, deal, setup
from pnp.rules.forex.state import Holding as Holding
from pnp.rules.forex.state import Item as Item
from pnp.rules.forex.state import Loan as Loan
from pnp.rules.forex.state import Result as Result
from pnp.rules.forex.state import standard_supply as standard_supply
from pnp.rules.legal import Different, Field, Listed, Template, judge, last_position

__all__ = ["RULEBOOK", "Start", "apply", "check_players", "deal", "determinize", "legal_actions", "marks", "moves",
           "outcome", "params", "playout", "setup", "tables", "to_move", "view", "worth"]


@dataclass(frozen=True)
class Spot:
    """FOREX-6: `player` gives `give` to `other` and gets `get` from them, e.g.
    Spot("Ana", "Ben", ("GBP", 1), ("CAD", 2))."""

    player: str
    other: str
    give: tuple[str, Fraction]
    get: tuple[str, Fraction]


@dataclass(frozen=True)
class MakeContract:
    """FOREX-7: pay currency, receive currency, and k, the amount of the pair's stronger one."""

    player: str
    pay: str
    receive: str
    amount: Fraction


@dataclass(frozen=True)
class Invest:
    """FOREX-8: one or two certificates of different currencies, bought in this order."""

    player: str
    currencies: tuple[str, ...]


@dataclass(frozen=True)
class Divest:
    """FOREX-9: the active player sells `count`, then each other player clockwise sells the
    number given in `others` (missing = declines)."""

    player: str
    currency: str
    count: int
    others: tuple[tuple[str, int], ...] = ()


Action = Union[Spot, MakeContract, Invest, Divest, Resolve]


def _mover(state: State) -> str | None:
    """The player whose turn it is (None before the first turn: anyone may start, FOREX-4.6)."""
    return None if state.mover is None else state.players[state.mover]


def apply(state: State, action: Action, p: Params, events: bool = True) -> tuple[State, Events]:
    """Apply one action of the player to move; a Spot leaves the turn open, the others end it
    (no events made when `events` is False)."""
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise Malformed(f"{brief(action)} is not an action of For-Ex (Spot, MakeContract, Invest, Divest, Resolve)")
    if state.over:
        raise Violation("FOREX-11.1", f"the game is over ({_why_over(state)}); {action.player} cannot take a turn")
    if action.player not in state.players:
        raise Violation("FOREX-5.3", f"{action.player} is not playing ({', '.join(state.players)})")
    mover = _mover(state)
    if mover is not None and action.player != mover:
        raise Violation("FOREX-5.3", f"it is {mover}'s turn, not {action.player}'s: play goes clockwise "
                        f"({', '.join(state.players)})")
    judge(legal_actions(state, p), action, lambda: handler(state, p, action, None), _KINDS[type(action)])
    seat = state.seat(action.player)
    log: Log = [] if events else None
    new = handler(state, p, action, log)
    if isinstance(action, Spot):
        return evolve(new, mover=seat, spot_made=True), tuple(log or ())
    return evolve(new, mover=(seat + 1) % len(state.players), spot_made=False), tuple(log or ())


def _why_over(state: State) -> str:
    return f"{state.bankrupt} went Bankrupt" if state.bankrupt else "the last dividend has been paid"


def _spot(state: State, p: Params, spot: Spot, events: Log) -> State:
    if state.spot_made:
        raise Violation("FOREX-5.1", f"{spot.player} has already made this turn's Spot Transaction; one per turn")
    if spot.other == spot.player or spot.other not in state.players:
        raise Violation("FOREX-6.1", f"{spot.player} trades with {spot.other}: a Spot Transaction is with another player")
    (gives, x), (gets, y) = spot.give, spot.get
    if gives == gets:
        raise Violation("FOREX-6.2", f"{spot.player} gives and gets {gives}; a Spot Transaction exchanges two currencies")
    pair = find(state.pairs, gives, gets)
    rate = p.rate(pair.position)
    board = f"{pair.label()}, rate {show_rate(rate)}"
    if p.spot_unit == "stronger_one":
        weak = pair.weaker
        legal = (gives == pair.stronger and (x, y) == (1, rate)) or (gets == pair.stronger and (x, y) == (rate, 1))
        if not legal:
            raise Violation("FOREX-6.2", f"at {board} a Spot Transaction is 1 {pair.stronger} for {show(rate)} {weak}: "
                            f"{spot.player} gives {show(x)} {gives} for {show(y)} {gets}")
    else:
        worth_get, worth_give = value_in(state.pairs, p, Fraction(1), gives, gets), value_in(state.pairs, p, Fraction(1), gets, gives)
        if not ((x == 1 and y == worth_get) or (y == 1 and x == worth_give)):
            raise Violation("FOREX-6.2", f"at {board}, 1 {gives} = {show(worth_get)} {gets} and 1 {gets} = "
                            f"{show(worth_give)} {gives}: {spot.player} gives {show(x)} {gives} for {show(y)} {gets}")
        if not (payable(x) and payable(y)):
            amount, currency = (x, gives) if not payable(x) else (y, gets)
            raise Violation("FOREX-A5", f"at {board}, {spot.player} gives {show(x)} {gives} for {show(y)} {gets}, but no "
                            f"notes pay {show(amount)} {currency}: money is kept in halves (FOREX-A6)")
    for who, currency, amount in ((spot.player, gives, x), (spot.other, gets, y)):
        has = state.holding(who).money[p.index(currency)]
        if has < amount:
            raise Violation("FOREX-6.2", f"{who} must give {show(amount)} {currency} but holds {show(has)}")
    state = state.with_holding(spot.player, state.holding(spot.player).add_money(p.index(gives), -x).add_money(p.index(gets), y))
    state = state.with_holding(spot.other, state.holding(spot.other).add_money(p.index(gets), -y).add_money(p.index(gives), x))
    if events is not None:
        events.append(said.SPOT(player=spot.player, other=spot.other, give={gives: x}, get={gets: y},
                                stronger=pair.stronger, weaker=pair.weaker, position=pair.position, rate=rate))
    return state


def _contract(state: State, p: Params, action: MakeContract, events: Log) -> State:
    display = state.display(p)
    if not display:
        raise Violation("FOREX-7.1", f"all {len(p.sets)} contract sets are in use (queue: {queue_text(state)}); "
                        f"{action.player} cannot make a contract")
    if action.pay == action.receive:
        raise Violation("FOREX-7.2", f"{action.player} would pay and receive {action.pay}; name two different currencies")
    pair = find(state.pairs, action.pay, action.receive)
    k = Fraction(action.amount)
    if k.denominator != 1 or not 1 <= k <= p.contract_max:
        raise Violation("FOREX-7.2", f"{action.player} names {show(k)} {pair.stronger}: the amount of the stronger "
                        f"currency must be a whole number from 1 to {p.contract_max}")
    rate = p.rate(pair.position)
    pay, get = (k, k * rate) if action.pay == pair.stronger else (k * rate, k)
    contract = Contract(display[0], action.player, (action.pay, pay), (action.receive, get))
    state = evolve(state, queue=state.queue + (contract,))
    if events is not None:
        events += (said.CONTRACT(player=action.player, set=contract.set, stronger=pair.stronger, weaker=pair.weaker,
                                 position=pair.position, rate=rate, pay={action.pay: pay}, receive={action.receive: get}),
                   said.CONTRACT_CARDS(set=contract.set, player=action.player, queue=queue_labels(state)))
    return state


def _invest(state: State, p: Params, action: Invest, events: Log) -> State:
    wanted = action.currencies
    if not 1 <= len(wanted) <= 2 or len(set(wanted)) != len(wanted):
        raise Violation("FOREX-8.1", f"{action.player} invests in {', '.join(wanted) or 'nothing'}: buy one or two "
                        "certificates of different currencies")
    for part, currency in enumerate(wanted):
        index = p.index(currency)
        holding = state.holding(action.player)
        if not state.supply[index]:
            raise Violation("FOREX-8.1", f"no {currency} certificate is left in the supply for {action.player}", (part,))
        if holding.certificates[index] >= p.cert_cap:
            raise Violation("FOREX-8.2", f"{action.player} holds {holding.certificates[index]} {currency} certificates "
                          f"already; at most {p.cert_cap} of a currency", (part,))
        if holding.money[index] < p.certificate_price:
            raise Violation("FOREX-8.1", f"a {currency} certificate costs {show(p.certificate_price)} {currency} but "
                          f"{action.player} holds {show(holding.money[index])}", (part,))
        holding = holding.add_money(index, -p.certificate_price).add_certificates(index, 1)
        supply = state.supply[:index] + (state.supply[index] - 1,) + state.supply[index + 1:]
        state = evolve(state.with_holding(action.player, holding), supply=supply)
        pairs, moved = shift(state.pairs, p, currency, stronger=True, notes=events is not None)
        state = evolve(state, pairs=pairs)
        if events is not None:
            events += (said.CERTIFICATE(player=action.player, currency=currency, price=p.certificate_price,
                                        held=holding.certificates[index], supply=supply[index]),
                       said.STRENGTHENED(currency=currency, moved=moved))
    return state


def _divest(state: State, p: Params, action: Divest, events: Log) -> State:
    index, currency, seat = p.index(action.currency), action.currency, state.seat(action.player)
    if action.count < 1:
        raise Violation("FOREX-9.1", f"{action.player} divests {action.count} {currency}: sell one or more", ("count",))
    others = dict(action.others)
    for name in others:
        if name == action.player or name not in state.players:
            raise Violation("FOREX-9.2", f"{name} is not another player of this game: the others are "
                          f"{', '.join(n for n in state.players if n != action.player)}", ("others", name))
    sellers: list[tuple[str, int, str, tuple[str, ...]]] = [(action.player, action.count, "FOREX-9.1", ("count",))]
    for step in range(1, len(state.players)):
        name = state.players[(seat + step) % len(state.players)]
        sellers.append((name, others.get(name, 0), "FOREX-9.2", ("others", name)))
    sold = 0
    for name, count, rule, part in sellers:
        holding = state.holding(name)
        if count < 0:
            raise Violation(rule, f"{name} sells {count} {currency} certificates: a sale is of none or more", part)
        if holding.certificates[index] < count:
            raise Violation(rule, f"{name} sells {count} {currency} certificates but holds {holding.certificates[index]}", part)
        proceeds = p.certificate_price * count
        if events is not None:
            events.append(said.SOLD(rule, player=name, currency=currency, count=count, proceeds=proceeds))
        if count:
            state = state.with_holding(name, holding.add_certificates(index, -count).add_money(index, proceeds))
            sold += count
    state = evolve(state, removed=state.removed[:index] + (state.removed[index] + sold,) + state.removed[index + 1:])
    for time in range(1, sold + 1):
        pairs, moved = shift(state.pairs, p, currency, stronger=False, notes=events is not None)
        state = evolve(state, pairs=pairs)
        if events is not None:
            events.append(said.WEAKENED(currency=currency, time=time, of=sold, moved=moved))
    return state


_HANDLERS: dict[type, Callable[[State, Params, Any, Log], State]] = {  # the action's type → its handler
    Spot: _spot, MakeContract: _contract, Invest: _invest, Divest: _divest, Resolve: resolve}
_KINDS = {Spot: "spot", MakeContract: "contract", Invest: "invest", Divest: "divest", Resolve: "resolve"}  # templates'


# --- the contract: who acts, what is legal, how it ended (pnp.rules.base.Engine) -------------


def to_move(state: State, p: Params) -> ToMove | None:
    """The player whose turn it is; before the first turn, anyone (FOREX-4.6)."""
    if state.over:
        return None
    mover = _mover(state)
    return ToMove("turn", state.players if mover is None else (mover,))


@last_position
def legal_actions(state: State, p: Params) -> tuple[Template, ...]:
    """For the player to move: a Spot Transaction at the board's rate with another player who
    holds the other side (once, before the action), a contract, an investment in what the
    supply, the cap and the money allow, a divestment of each currency held, or resolving the
    front of the queue with the tie it may need broken.

    One choice is left to `ChoiceNeeded` rather than listed: the strongest currency when this
    Resolve ends the game tied (FOREX-12.1). A voluntary default (`voluntary_default`) is a
    field of resolving a front contract, or after the last dividend of every contract the
    final resolution meets (FOREX-10.5.5)."""
    if state.over:
        return ()
    mover = _mover(state)
    templates: list[Template] = []
    for player in (state.players if mover is None else (mover,)):
        spot = None if state.spot_made else _spot_template(state, p, player)
        if spot is not None:
            templates.append(spot)
        if state.display(p):
            fields = (Field.choice("pay", p.currencies), Field.choice("receive", p.currencies),
                      Field.number("amount", 1, p.contract_max))
            templates.append(Template("contract", player, "FOREX-7.2", _contract_action, fields,
                                      constraints=(Different(("pay", "receive")),), read=_contract_values))
        investable = _investable(state, p, player)
        if investable:
            field = Field.several("currencies", investable, 1, 2)
            templates.append(Template("invest", player, "FOREX-8.1", _invest_action, (field,), read=_invest_values))
        templates += _divestments(state, p, player)
        templates.append(_resolution(state, p, player))
    return tuple(templates)


def _spot_template(state: State, p: Params, player: str) -> Template | None:
    """FOREX-6.2: one buck of the stronger currency for the rate in the weaker (under
    `any_one`, one buck of either side for its worth), with another player who can pay: one
    template whose `deal` is every such exchange (other player, given, got), listed only when
    read (`Listed`): whether there is one is all a turn needs to know otherwise."""
    if next(_spot_deals(state, p, player), None) is None:
        return None
    deals = Listed(lambda: _spot_deals(state, p, player))
    return Template("spot", player, "FOREX-6.2", _spot_action, (Field.choice("deal", deals, _deal_label),),
                    read=_spot_values)


def _spot_deals(state: State, p: Params, player: str) -> Iterator[tuple[str, tuple[str, Fraction], tuple[str, Fraction]]]:
    """The deals in board order. Amounts are compared as whole numbers, crossed (a listing
    compares a hundred of them, and Fraction's own comparison is many times dearer)."""
    seat, index = state.seat(player), p.index
    mine = state.holdings[seat].money
    others = [(name, h.money) for k, (name, h) in enumerate(zip(state.players, state.holdings, strict=True)) if k != seat]
    for pair in state.pairs:
        for gives, x, gets, y in p.spot_terms(pair.stronger, pair.weaker, pair.position):
            held = mine[index(gives)]
            if held.numerator * x.denominator < x.numerator * held.denominator:
                continue
            got, wanted, per = index(gets), y.numerator, y.denominator
            for name, money in others:
                if money[got].numerator * per >= wanted * money[got].denominator:
                    yield name, (gives, x), (gets, y)


def _deal_label(deal: tuple[str, tuple[str, Fraction], tuple[str, Fraction]]) -> str:
    name, (gives, x), (gets, y) = deal
    return f"{name}: {show(x)} {gives} for {show(y)} {gets}"


def _investable(state: State, p: Params, player: str) -> tuple[str, ...]:
    """FOREX-8.1, 8.2: a certificate left in the supply, under the cap, and the money for it."""
    holding = state.holding(player)
    return tuple(c for i, c in enumerate(p.currencies)
                 if state.supply[i] and holding.certificates[i] < p.cert_cap and holding.money[i] >= p.certificate_price)


def _divestments(state: State, p: Params, player: str) -> list[Template]:
    """FOREX-9: one template per currency the player holds; each other player may sell some."""
    templates = []
    for index, currency in enumerate(p.currencies):
        held = state.holding(player).certificates[index]
        if not held:
            continue
        fields = [Field.number("count", 1, held)]
        fields += [Field.number(f"others.{name}", 0, h.certificates[index])
                   for name, h in zip(state.players, state.holdings, strict=True) if name != player and h.certificates[index]]
        templates.append(Template("divest", player, "FOREX-9.1", _divest_action, tuple(fields), {"currency": currency},
                                  read=_divest_values))
    return templates


def _resolution(state: State, p: Params, player: str) -> Template:
    """FOREX-10: the front of the queue; a dividend whose most-held currencies tie asks which
    to strengthen (10.5.3), and under `voluntary_default` a front contract may be defaulted —
    after the last dividend, any of the contracts the final resolution meets (10.5.5)."""
    front, fields, leader = state.queue[0], [], None
    if isinstance(front, Dividend):
        held = [state.held(i) for i in range(len(p.currencies))]
        tied = tuple(c for c, n in zip(p.currencies, held, strict=True) if n == max(held))
        if len(tied) > 1:
            fields.append(Field.choice("strengthen", tied))
        else:
            leader = tied[0]  # naming it changes nothing
        later = defaultable(state, p)
        if later:
            fields.append(Field.several("default", later, 0, len(later)))
    elif isinstance(front, Contract) and p.voluntary_default:
        fields.append(Field.choice("default", ((), (front.set,)), ("pay", f"default on {front.set}")))
    return Template("resolve", player, "FOREX-10", _resolve_action, tuple(fields), read=partial(_resolve_values, leader))


def _spot_values(action: object) -> dict[str, Any] | None:
    """What each action states, by field: the inverses of the builders below."""
    if not isinstance(action, Spot):
        return None
    return {"player": action.player, "deal": (action.other, action.give, action.get)}


def _contract_values(action: object) -> dict[str, Any] | None:
    if not isinstance(action, MakeContract):
        return None
    amount: Any = action.amount
    if isinstance(amount, (int, Fraction)) and not isinstance(amount, bool) and Fraction(amount).denominator == 1:
        amount = int(amount)  # the field is whole numbers; 2.5 stays a fraction, which none holds
    return {"player": action.player, "pay": action.pay, "receive": action.receive, "amount": amount}


def _invest_values(action: object) -> dict[str, Any] | None:
    return {"player": action.player, "currencies": tuple(action.currencies)} if isinstance(action, Invest) else None


def _divest_values(action: object) -> dict[str, Any] | None:
    """A divestment's other sellers by name; one who sells none is as one not named."""
    if not isinstance(action, Divest):
        return None
    others = {f"others.{name}": count for name, count in action.others if count != 0}
    return {"player": action.player, "currency": action.currency, "count": action.count, **others}


def _resolve_values(leader: str | None, action: object) -> dict[str, Any] | None:
    """What a Resolve states beside the final tie's pick (`strongest`, which no template lists);
    naming the one most-held currency to strengthen, where there is no tie, is naming none."""
    if not isinstance(action, Resolve):
        return None
    strengthen = None if action.strengthen == leader else action.strengthen
    return {"player": action.player, "strengthen": strengthen, "default": tuple(action.default)}


def _spot_action(values: Mapping[str, Any]) -> Spot:
    other, give, get = values["deal"]
    return Spot(values["player"], other, give, get)


def _contract_action(values: Mapping[str, Any]) -> MakeContract:
    return MakeContract(values["player"], values["pay"], values["receive"], Fraction(values["amount"]))


def _invest_action(values: Mapping[str, Any]) -> Invest:
    return Invest(values["player"], tuple(values["currencies"]))


def _divest_action(values: Mapping[str, Any]) -> Divest:
    others = tuple((key.split(".", 1)[1], n) for key, n in values.items() if key.startswith("others.") and n)
    return Divest(values["player"], values["currency"], values["count"], others)


def _resolve_action(values: Mapping[str, Any]) -> Resolve:
    return Resolve(values["player"], strengthen=values.get("strengthen"), default=values.get("default", ()))


def outcome(state: State, p: Params) -> Outcome | None:
    """FOREX-12: everyone's money in the strongest currency; the winners; a bankruptcy or the
    last dividend ended it (FOREX-11.1)."""
    if state.result is None:
        return None
    scores = dict(zip(state.players, state.result.scores, strict=True))
    return Outcome(scores, state.result.winners, "bankruptcy" if state.bankrupt else "last_dividend")


def moves(p: Params, players: int) -> None:
    """A game's number of turns is not fixed: it ends at the last dividend or a bankruptcy,
    whenever the players resolve the queue."""
    return None


def worth(state: State, p: Params) -> tuple[Number, ...]:
    """Each player's money in the strongest currency now (most pairs won, the first of equals
    in currency order), exact, as FOREX-12.2 converts it but before its rounding; once the game
    is over, the final scores (rounded, a bankrupt player's 0: FOREX-12.2–12.4)."""
    if state.result is not None:
        return state.result.scores
    counts = strengths(state.pairs, p)
    target = max(p.currencies, key=counts.__getitem__)
    return tuple(sum((value_in(state.pairs, p, amount, c, target) for c, amount in zip(p.currencies, h.money, strict=True)),
                     Fraction(0)) for h in state.holdings)


def view(state: State, p: Params, seat: int | None) -> State:
    """For-Ex keeps no secret in a position: money, certificates, the board, the supply left
    after setup's removal (FOREX-4.3: "the supply left is public"), the display and the queue
    (the Dividend stack in its printed order, FOREX-4.5) are all on the table; so the view is
    the position itself."""
    return state


def determinize(view: State, p: Params, seat: int | None, rng: random.Random) -> State:
    """Nothing is hidden (`view`): the position itself, and `rng` is not drawn from."""
    return view


def playout(p: Params, state: State, rng: random.Random, watch: Observer, trace: Trace | None = None) -> Played:
    """From `state` to the end, every player random, fast, on mutable numbers
    (`pnp.rules.forex.playout`, the `pnp.rules.base.Playout` of this engine); loaded on first
    use: a referee never needs it."""
    from pnp.rules.forex.playout import playout as play

    return play(p, state, rng, watch, trace)
