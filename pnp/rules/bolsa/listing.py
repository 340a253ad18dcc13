"""What a Bolsa position allows (`legal_actions`), and why it allows nothing else (`withheld`).

Each condition is stated once, with its reason: a template's field or constraint carries the
refusal of its bound (a declaration offers at most the shares owned, BOLSA-3.2.2; a bid lies
within the range of BOLSA-5.3/5.4 and A4), and the conditions under which a player is offered
no template of a kind (`_declaring`, `_bidding`, `_withdrawing`) return the refusal that says
why, which the listing tests for None. So the engine's `apply` admits by the templates and
words a refusal from the statement the action breaks (`legal.judge`), never from a second
copy of a rule.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any, Mapping

from pnp.errors import brief
from pnp.rules.base import Malformed
from pnp.rules.bolsa import refusals as refused
from pnp.rules.bolsa.params import Params
from pnp.rules.bolsa.rounds import called
from pnp.rules.bolsa.rulebook import BothWays, CashCheck, Losers
from pnp.rules.bolsa.state import DECLARE, Auction, Bid, Declare, Player, Resolve, Settle, State, Trade, Withdraw
from pnp.rules.legal import AtMostOne, Budget, Constraint, Field, Template, Why, grouped, last_position, made

# The rule that settles a company without an auction, by case (BOLSA-4.1–4.6).
_CASE_RULES = {1: "BOLSA-4.1", 2: "BOLSA-4.2", 3: "BOLSA-4.3", 4: "BOLSA-4.4", 5: "BOLSA-4.5.1", 6: "BOLSA-4.6.1"}


@last_position
def legal_actions(state: State, params: Params) -> tuple[Template, ...]:
    """Declarations (each company's offer within zone 1 and request within zone 2, the cost
    within cash, not both ways), bringing up the next company, bids within the bid range or a
    pass, withdrawals, and settling — the last two steps the table's, with automatic pairing."""
    if state.over:
        return ()
    if state.phase == DECLARE:
        waiting = (i for i in state.seating() if _declaring(state, i) is None)
        return (*(_declaration(state, params, i) for i in waiting), _REVEAL)
    trade = state.trade
    if trade is None:
        return (_BRING_UP,)
    auction = trade.auction
    if auction is not None and not auction.over:
        return _auction_turn(state, params, trade, auction)
    withdrawals = (Template("withdraw", state.players[i].name, "BOLSA-5.7", _withdraw_action)
                   for i in withdrawers(state, params))
    return (*withdrawals, _SETTLE)


def _auction_turn(state: State, params: Params, trade: Trade, auction: Auction) -> tuple[Template, ...]:
    """The bidder's bid within the bid range (none when the range is empty) and a pass."""
    name, rule = state.players[auction.to_act].name, _auction_rule(auction)
    low, below, high, above = bid_range(state, trade, auction, params)
    passing = _passing(name, rule)
    if low > high:
        return (passing,)
    amount = Field.number("amount", low, high, below, above)
    return (Template("bid", name, rule, _bid_action, (amount,), read=_bid_values), passing)


def withheld(state: State, params: Params, action: Any) -> Exception | None:
    """Why the position offers no template of `action`'s kind for its player: the game over, a
    declaration out of its phase or repeated, a bid outside an auction, out of turn or beyond
    what the bidder may bid, a withdrawal by no loser, a step of the table out of its order.
    Malformed for a player who is not playing."""
    if state.over:
        return refused.GAME_OVER(round=state.round)
    if isinstance(action, Declare):
        return made(_declaring(state, state.index(action.player)))
    if isinstance(action, Bid):
        return _bid_withheld(state, params, action)
    if isinstance(action, Withdraw):
        return made(_withdrawing(state, params, state.index(action.player)))
    return _step_withheld(state, params, action)


def _bid_withheld(state: State, params: Params, action: Bid) -> Exception | None:
    """Why no bid template admits `action`: no auction under way or not the bidder's turn
    (`_bidding`, for a pass too), or an amount outside the range the bidder may bid."""
    refusal = made(_bidding(state, params, state.index(action.player)))
    if refusal is not None or action.amount is None:
        return refusal
    trade, auction = state.trade, state.trade.auction if state.trade else None
    assert trade is not None and auction is not None  # `_bidding` says so
    low, below, high, above = bid_range(state, trade, auction, params)
    return below(value=action.amount, bound=low) if action.amount < low else above(value=action.amount, bound=high)


def _step_withheld(state: State, params: Params, action: object) -> Exception | None:
    """Why the table's step `action` is not offered: a company brought up before the last is
    settled, a settlement with no company up or while its auction is still bidding."""
    trade = state.trade
    if isinstance(action, Resolve) and trade is not None:
        return refused.UNSETTLED(company=params.companies[trade.company])
    if isinstance(action, Settle) and trade is None:
        return refused.NOTHING_UP()
    if isinstance(action, Settle) and trade is not None and trade.auction is not None and not trade.auction.over:
        return refused.STILL_BIDDING(company=params.companies[trade.company],
                                     player=state.players[trade.auction.to_act].name)
    return None


def withdrawers(state: State, params: Params) -> tuple[int, ...]:
    """BOLSA-5.7: the losers of the auction just finished who may take back their cards."""
    trade = state.trade
    if trade is None or trade.auction is None or not trade.auction.over:
        return ()
    return tuple(i for i in trade.auction.ranking[1:] if _withdrawing(state, params, i) is None)


# --- the conditions, each with its refusal ----------------------------------------------------------


def _declaring(state: State, i: int) -> Why | None:
    """BOLSA-3.2.1, 3.2.7: a player declares once a round, before its trade phase begins."""
    name = state.players[i].name
    if state.phase != DECLARE:
        return refused.DECLARED_LATE.reason(player=name, round=state.round)
    if i in state.declared:
        return refused.DECLARED_TWICE.reason(player=name, round=state.round)
    return None


def _bidding(state: State, params: Params, i: int) -> Why | None:
    """BOLSA-5.1, 5.2: only the bidder to act in an auction under way bids (or passes)."""
    name, trade = state.players[i].name, state.trade
    if trade is None:
        return refused.NO_AUCTION.reason(player=name)
    code, auction = params.companies[trade.company], trade.auction
    if auction is None:  # the company is up, and settles by its case without one
        return _no_auction(state, trade, params, name)
    if auction.over:
        leader = state.players[auction.ranking[0]].name
        return refused.AUCTION_OVER.reason(_auction_rule(auction), leader=leader, price=auction.price(trade.quote),
                                    player=name)
    if i not in auction.order:
        return refused.NOT_A_BIDDER.reason(player=name, company=code, ascending=auction.ascending,
                                    bidders=[state.players[j].name for j in auction.order])
    if i in auction.passed:
        return refused.PASSED.reason(_auction_rule(auction), player=name, company=code)
    if i != auction.to_act:
        return refused.OUT_OF_TURN.reason(player=name, company=code, turn=state.players[auction.to_act].name)
    return None


def _no_auction(state: State, trade: Trade, params: Params, name: str) -> Why:
    """Why the company up goes to no auction: its numbers, and what an auction would need (BOLSA-A2)."""
    c = trade.company
    zones = [p.zones[c] for p in state.players]
    sellers, buyers = sum(1 for z in zones if z.offered), sum(1 for z in zones if z.requested)
    side, count, needed = called(trade.case, buyers, sellers, params)
    return refused.NOT_AUCTIONED.reason(_CASE_RULES[trade.case], company=params.companies[c], player=name,
                                 offered=sum(z.offered for z in zones), wanted=sum(z.requested for z in zones),
                                 case=trade.case, side=side, count=count, needed=needed)


def bid_range(state: State, trade: Trade, auction: Auction, params: Params) -> tuple[int, Why, int, Why]:
    """The bids open to the participant to act — lowest and highest — each with the refusal of
    a bid beyond it: above the quote or the best bid so far (BOLSA-5.3), within what his cash
    pays for every share he requests (A4) and the quote track (6.1); descending, the mirror
    (5.4). No bid is open when the lowest exceeds the highest."""
    player = state.players[auction.to_act]
    facts: dict[str, Any] = {"player": player.name, "company": params.companies[trade.company]}
    below: Why
    above: Why
    if auction.ascending:
        if auction.best is None:
            low, below = trade.quote, partial(refused.OPENS_BELOW, **facts)
        else:
            low, below = auction.best + 1, partial(refused.NOT_HIGHER, best=auction.best, **facts)
        wanted = player.zones[trade.company].requested
        high, above = player.cash // wanted, partial(refused.BID_OVER_CASH, cash=player.cash, requested=wanted, **facts)
        if params.price_max is not None and params.price_max < high:
            high, above = params.price_max, partial(refused.OVER_TOP, **facts)
    else:
        if auction.best is None:
            high, above = trade.quote, partial(refused.OPENS_ABOVE, **facts)
        else:
            high, above = auction.best - 1, partial(refused.NOT_LOWER, best=auction.best, **facts)
        low, below = params.price_min, partial(refused.UNDER_BOTTOM, **facts)
    return low, below, high, above


def _withdrawing(state: State, params: Params, i: int) -> Why | None:
    """BOLSA-5.7 under `may_withdraw`: a loser of a finished auction who still holds his cards
    of it may take them back."""
    name, trade = state.players[i].name, state.trade
    if params.auction_losers is not Losers.MAY_WITHDRAW:
        return refused.MUST_TRADE.reason(player=name)
    if trade is None or trade.auction is None or not trade.auction.over:
        return refused.NO_LOSERS_YET.reason(player=name)
    code, zones = params.companies[trade.company], state.players[i].zones[trade.company]
    if i not in trade.auction.ranking[1:]:
        return refused.NOT_A_LOSER.reason(player=name, company=code)
    if not zones.offered and not zones.requested:
        return refused.WITHDRAWN.reason(player=name, company=code)
    return None


def _auction_rule(auction: Auction) -> str:
    return "BOLSA-5.3" if auction.ascending else "BOLSA-5.4"


# --- the templates ----------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _passing(name: str, rule: str) -> Template:
    return Template("pass", name, rule, _bid_action, fixed={"amount": None})


def _declaration(state: State, params: Params, i: int) -> Template:
    return _declaration_of(state.players[i], state.prices, params.companies,
                           params.same_company_both_ways is BothWays.FORBID,
                           params.declaration_cash_check is CashCheck.TOTAL)


@lru_cache(maxsize=256)
def _declaration_of(player: Player, prices: tuple[int, ...], companies: tuple[str, ...], forbid: bool,
                    total: bool) -> Template:
    """A player's declaration: per company an offer within zone 1 (BOLSA-3.2.2) and a request
    within zone 2 (3.2.3), under `forbid` not both (3.2.6), and under `total` the requests at
    today's quotes within his cash (3.2.5). It depends on his mat, his cash and the quotes
    alone, and the players yet to declare are offered theirs at every step of a declaration
    phase, so each is made once."""
    name, names = player.name, _declaration_names(companies)
    fields = tuple(Field.number(field, 0, getattr(zones, zone))
                   for zones, pair in zip(player.zones, names, strict=True) for field, zone in pair)
    words, unknown, both_ways = _declaration_words(name, companies)
    constraints: list[Constraint] = []
    if forbid:
        constraints += [AtMostOne((sell, buy), why=both_ways) for (sell, _), (buy, _) in names]
    if total:
        costs = tuple((buy, quote) for (_, (buy, _)), quote in zip(names, prices, strict=True))
        too_dear = refused.REQUESTS_TOO_DEAR.reason(player=name, prices=dict(zip(companies, prices, strict=True)))
        constraints.append(Budget(costs, player.cash, why=too_dear))
    return Template("declare", name, "BOLSA-3.2", _declare_action, fields, constraints=tuple(constraints),
                    read=_declare_values, unlisted=unknown, words=words)


@lru_cache(maxsize=16)
def _declaration_names(companies: tuple[str, ...]) -> tuple[tuple[tuple[str, str], tuple[str, str]], ...]:
    """Per company, a declaration's two fields and the zone that bounds each: the same every
    round, so made once."""
    return tuple(((f"sell.{code}", "owned"), (f"buy.{code}", "orders")) for code in companies)


@lru_cache(maxsize=64)
def _declaration_words(name: str, companies: tuple[str, ...]) -> tuple[Why, Why, Why]:
    """A player's refusals of a declaration's counts, of a company the game has not, and of
    offering and requesting one company: the same every round, so made once a player."""
    return (partial(_declaration_refusal, name), partial(_unknown_company, companies),
            refused.BOTH_WAYS.reason(player=name))


def _declaration_refusal(player: str, *, field: str, side: str, value: Any, bound: Any) -> Exception:
    """A declaration's count past its zone: an offer beyond the shares owned (BOLSA-3.2.2), a
    request beyond the order cards (3.2.3), or a count below 0."""
    way, company = field.split(".", 1)
    if side == "below":
        return Malformed(f"a count of {company} cards must be a whole number ≥ 0, got {brief(value)}")
    kind = refused.OFFERS_UNOWNED if way == "sell" else refused.REQUESTS_UNORDERED
    return kind(player=player, company=company, value=value, bound=bound)


def _unknown_company(companies: tuple[str, ...], field: str, value: Any) -> Malformed:
    """A declaration naming a company the game has not."""
    return Malformed(f"unknown company {brief(field.partition('.')[2])} (known: {', '.join(companies)})")


def _declare_action(values: Mapping[str, Any]) -> Declare:
    return Declare(values["player"], grouped(values, "sell"), grouped(values, "buy"))


def _declare_values(action: object) -> dict[str, object] | None:
    """What a declaration states, by field (the inverse of `_declare_action`)."""
    if not isinstance(action, Declare):
        return None
    return {"player": action.player, **{f"sell.{code}": n for code, n in action.sell.items() if n != 0},
            **{f"buy.{code}": n for code, n in action.buy.items() if n != 0}}


def _bid_values(action: object) -> dict[str, object] | None:
    return {"player": action.player, "amount": action.amount} if isinstance(action, Bid) else None


def _settle_values(action: object) -> dict[str, object] | None:
    """A settlement states nothing a template chooses: its pairing is BOLSA-4.8's, checked by
    `settle` against the trades the rules fix."""
    return {} if isinstance(action, Settle) else None


def _resolve_action(values: Mapping[str, Any]) -> Resolve:
    return Resolve()


def _bid_action(values: Mapping[str, Any]) -> Bid:
    return Bid(values["player"], values["amount"])


def _withdraw_action(values: Mapping[str, Any]) -> Withdraw:
    return Withdraw(values["player"])


def _settle_action(values: Mapping[str, Any]) -> Settle:
    return Settle()


# The table's steps are the same in every position: made once.
_REVEAL = Template("resolve", None, "BOLSA-3.3.1", _resolve_action)
_BRING_UP = Template("resolve", None, "BOLSA-3.3.2", _resolve_action)
_SETTLE = Template("settle", None, "BOLSA-3.3.2", _settle_action, read=_settle_values)
