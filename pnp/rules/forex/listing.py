"""What a For-Ex position allows (`legal_actions`), and why it allows nothing else (`withheld`).

Each condition is stated once, with its reason: a template's field or constraint carries the
refusal of its bound (a contract's amount 1 … contract_max, FOREX-7.2; a divestment of at most
the certificates held, 9.1), and the conditions an option or a whole kind of action is
withheld under (`_spot_refusal`, `_investing`) return the refusal that says why, which the
listing tests for None. So `apply` admits by the templates and words a refusal from the
statement the action breaks (`legal.judge`), never from a second copy of a rule.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache, partial
from typing import Any, Iterator, Mapping

from pnp.rules.base import ChoiceNeeded, by_identity
from pnp.rules.forex import refusals as refused
from pnp.rules.forex.actions import Divest, Invest, MakeContract, Resolve, Spot
from pnp.rules.forex.board import Pair, find
from pnp.rules.forex.params import Params, payable, show
from pnp.rules.forex.resolve import defaultable, most_held, queue_labels
from pnp.rules.forex.rulebook import SpotUnit
from pnp.rules.forex.state import Contract, Dividend, State
from pnp.rules.legal import Different, Field, Listed, Template, Why, last_position

Deal = tuple[str, tuple[str, Fraction], tuple[str, Fraction]]  # (other player, given, got)


def mover(state: State) -> str | None:
    """The player whose turn it is (None before the first turn: anyone may start, FOREX-4.6)."""
    return None if state.mover is None else state.players[state.mover]


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
    now = mover(state)
    templates: list[Template] = []
    for player in (state.players if now is None else (now,)):
        spot = None if state.spot_made else _spot_template(state, p, player)
        if spot is not None:
            templates.append(spot)
        if state.display(p):
            templates.append(_contract_template(p, player))
        investable = tuple(c for c in p.currencies if _investing(state, p, player, c) is None)
        if investable:
            count = partial(refused.INVEST_COUNT, player=player)
            field = Field.several("currencies", investable, 1, 2, below=count, above=count,
                                  excluded=partial(_not_investable, state, p, player))
            templates.append(Template("invest", player, "FOREX-8.1", _invest_action, (field,), read=_invest_values))
        templates += _divestments(state, p, player)
        templates.append(_resolution(state, p, player))
    return tuple(templates)


def withheld(state: State, p: Params, action: Any) -> Exception | None:
    """Why the position offers no template of `action`'s kind for its player: the game over,
    a player not playing or not to move, a second Spot, no exchange the rates and the money
    allow, no contract set left, a certificate not to be had, a currency not held."""
    if state.over:
        return refused.GAME_OVER(bankrupt=state.bankrupt, player=action.player)
    if action.player not in state.players:
        return refused.NOT_PLAYING(player=action.player, players=state.players)
    now = mover(state)
    if now is not None and action.player != now:
        return refused.NOT_YOUR_TURN(mover=now, player=action.player, players=state.players)
    if isinstance(action, Spot):
        if state.spot_made:
            return refused.SECOND_SPOT(player=action.player)
        return _spot_refusal(state, p, action.player, (action.other, action.give, action.get))
    if isinstance(action, MakeContract):
        return refused.NO_SET(sets=len(p.sets), queue=queue_labels(state), player=action.player)
    if isinstance(action, Invest):
        return _invest_refusal(state, p, action)
    if isinstance(action, Divest):
        return _divest_refusal(state, p, action)
    return None


def _invest_refusal(state: State, p: Params, action: Invest) -> Exception | None:
    """FOREX-8.1, 8.2: an investment in one or two currencies, each one the player may buy."""
    wanted = action.currencies
    if not 1 <= len(wanted) <= 2:
        return refused.INVEST_COUNT(player=action.player, value=len(wanted))
    return next((_not_investable(state, p, action.player, c, (k,)) for k, c in enumerate(wanted)), None)


def _divest_refusal(state: State, p: Params, action: Divest) -> Exception:
    """FOREX-9.1: a divestment of none, or of more certificates than the player holds."""
    held = state.holding(action.player).certificates[p.index(action.currency)]
    facts: dict[str, Any] = {"player": action.player, "value": action.count, "currency": action.currency,
                             "part": ("count",)}
    return refused.DIVEST_NONE(**facts) if action.count < 1 else refused.SELLS_UNHELD(bound=held, **facts)


# --- spot transactions (FOREX-6, A5) -------------------------------------------------------------------


def _spot_template(state: State, p: Params, player: str) -> Template | None:
    """FOREX-6.2: one buck of the stronger currency for the rate in the weaker (under
    `any_one`, one buck of either side for its worth), with another player who can pay: one
    template whose `deal` is every such exchange (other player, given, got), listed only when
    read (`Listed`): whether there is one is all a turn needs to know otherwise."""
    if next(_spot_deals(state, p, player), None) is None:
        return None
    deals = Listed(lambda: _spot_deals(state, p, player))
    return Template("spot", player, "FOREX-6.2", _spot_action,
                    (Field.choice("deal", deals, _deal_label, excluded=partial(_no_deal, state, p, player)),),
                    read=_spot_values)


def _spot_deals(state: State, p: Params, player: str) -> Iterator[Deal]:
    """The deals in board order: each of a pair's spot terms (`Params.spot_terms`) that the
    player and another player can each pay (`_affords`)."""
    seat, index = state.seat(player), p.index
    mine = state.holdings[seat].money
    others = [(name, h.money) for k, (name, h) in enumerate(zip(state.players, state.holdings, strict=True)) if k != seat]
    for pair in state.pairs:
        for gives, x, gets, y in p.spot_terms(pair.stronger, pair.weaker, pair.position):
            if not _affords(mine[index(gives)], x):
                continue
            got = index(gets)
            for name, money in others:
                if _affords(money[got], y):
                    yield name, (gives, x), (gets, y)


def _affords(held: Fraction, amount: Fraction) -> bool:
    """Whether `held` pays `amount`, compared as whole numbers, crossed (a listing compares a
    hundred of them, and Fraction's own comparison is many times dearer)."""
    return held.numerator * amount.denominator >= amount.numerator * held.denominator


def _spot_refusal(state: State, p: Params, player: str, deal: Deal) -> Exception | None:
    """Why a deal is no Spot Transaction the position allows: not with another player
    (FOREX-6.1), not two currencies, not a pair's spot terms (6.2) or not payable in notes
    (A5), a side that cannot pay (6.2). Malformed for a currency the game has not."""
    other, give, get = deal
    (gives, x), (gets, y) = give, get
    if other == player or other not in state.players:
        return refused.SPOT_SELF(player=player, other=other)
    if gives == gets:
        return refused.SPOT_ONE_CURRENCY(player=player, currency=gives)
    pair = find(state.pairs, gives, gets)
    terms = p.spot_terms(pair.stronger, pair.weaker, pair.position)
    if (gives, x, gets, y) not in terms:
        return _off_terms(p, pair, player, deal, terms)
    for who, (currency, amount) in ((player, give), (other, get)):
        held = state.holding(who).money[p.index(currency)]
        if not _affords(held, Fraction(amount)):
            return refused.SPOT_SHORT(player=who, amount=(currency, amount), held=held)
    return None


def _off_terms(p: Params, pair: Pair, player: str, deal: Deal,
               terms: tuple[tuple[str, Fraction, str, Fraction], ...]) -> Exception:
    """FOREX-6.2: a deal off the pair's spot terms — at its rate but not payable in notes
    (A5), else at another rate."""
    _, give, get = deal
    (gives, x), (_, y) = give, get
    rate = p.rate(pair.position)
    facts: dict[str, Any] = {"stronger": pair.stronger, "weaker": pair.weaker, "position": pair.position,
                             "rate": rate, "player": player, "give": give, "get": get}
    worth = rate if gives == pair.stronger else 1 / rate  # one buck given, in the currency got
    if p.spot_unit is SpotUnit.ANY_ONE and ((x == 1 and y == worth) or (y == 1 and x * worth == 1)):
        return refused.SPOT_NOTES(unpaid=give if not payable(Fraction(x)) else get, **facts)
    return refused.SPOT_RATE(terms=[((g, a), (t, b)) for g, a, t, b in terms], **facts)


def _no_deal(state: State, p: Params, player: str, value: Deal, part: tuple[Any, ...]) -> Exception:
    return _spot_refusal(state, p, player, value) or refused.SPOT_SHORT(player=player, amount=value[1], held=0)


def _deal_label(deal: Deal) -> str:
    name, (gives, x), (gets, y) = deal
    return f"{name}: {show(x)} {gives} for {show(y)} {gets}"


# --- contracts, investments, divestments (FOREX-7, 8, 9) ---------------------------------------------------


@by_identity(64)
def _contract_template(p: Params, player: str) -> Template:
    """FOREX-7.2: two different currencies, and a whole amount 1 … contract_max of the stronger
    (the same every turn: made once a player)."""
    amount = refused.CONTRACT_AMOUNT.reason(player=player, most=p.contract_max)
    fields = (Field.choice("pay", p.currencies), Field.choice("receive", p.currencies),
              Field.number("amount", 1, p.contract_max, below=amount, above=amount))
    return Template("contract", player, "FOREX-7.2", _contract_action, fields,
                    constraints=(Different(("pay", "receive"), why=refused.CONTRACT_SAME.reason(player=player)),),
                    read=_contract_values)


def _investing(state: State, p: Params, player: str, currency: str) -> Why | None:
    """FOREX-8.1, 8.2: a certificate of `currency` is left in the supply, the player holds
    fewer than the cap, and the money it costs."""
    index, holding = p.index(currency), state.holding(player)
    if not state.supply[index]:
        return refused.NO_CERTIFICATE.reason(value=currency, player=player)
    if holding.certificates[index] >= p.cert_cap:
        return refused.AT_CAP.reason(player=player, held=holding.certificates[index], value=currency, cap=p.cert_cap)
    if holding.money[index] < p.certificate_price:
        return refused.CERTIFICATE_DEAR.reason(value=currency, price=p.certificate_price, player=player,
                                        held=holding.money[index])
    return None


def _not_investable(state: State, p: Params, player: str, value: str, part: tuple[Any, ...]) -> Exception:
    why = _investing(state, p, player, value)
    assert why is not None, f"{value} is investable"  # an option of the template otherwise
    return why(part=part)


def _divestments(state: State, p: Params, player: str) -> list[Template]:
    """FOREX-9: one template per currency the player holds, selling 1 … all of it; each other
    player who holds it may sell some (9.2)."""
    templates = []
    for index, currency in enumerate(p.currencies):
        held = state.holding(player).certificates[index]
        if not held:
            continue
        none, unheld = _seller_reasons(player, currency, True)
        fields = [Field.number("count", 1, held, none, unheld)]
        for name, h in zip(state.players, state.holdings, strict=True):
            if name != player and h.certificates[index]:
                negative, beyond = _seller_reasons(name, currency, False)
                fields.append(Field.number(f"others.{name}", 0, h.certificates[index], negative, beyond))
        templates.append(Template("divest", player, "FOREX-9.1", _divest_action, tuple(fields), {"currency": currency},
                                  read=_divest_values, unlisted=partial(_no_seller, state, player, currency)))
    return templates


@lru_cache(maxsize=256)
def _seller_reasons(player: str, currency: str, active: bool) -> tuple[Why, Why]:
    """The refusals of a divestment's sale below its least and beyond what is held: the active
    player's (FOREX-9.1: one or more), another's (9.2: none or more); the same every turn."""
    if active:
        part: tuple[str, ...] = ("count",)
        return (refused.DIVEST_NONE.reason(player=player, currency=currency, part=part),
                refused.SELLS_UNHELD.reason(player=player, currency=currency, part=part))
    part = ("others", player)
    return (refused.SALE_NEGATIVE.reason(player=player, currency=currency, part=part),
            refused.SELLS_UNHELD.reason("FOREX-9.2", player=player, currency=currency, part=part))


def _no_seller(state: State, player: str, currency: str, field: str, value: Any) -> Exception:
    """Another seller of a divestment who is none: not another player of the game, or one who
    holds none of the currency (FOREX-9.2)."""
    name = field.partition(".")[2]
    if name == player or name not in state.players:
        others = [n for n in state.players if n != player]
        return refused.NOT_OTHER(player=name, others=others, part=("others", name))
    return refused.SELLS_UNHELD("FOREX-9.2", player=name, value=value, currency=currency, bound=0,
                                part=("others", name))


# --- resolving the queue (FOREX-10) ----------------------------------------------------------------------


def _resolution(state: State, p: Params, player: str) -> Template:
    """FOREX-10: the front of the queue; a dividend whose most-held currencies tie asks which
    to strengthen (10.5.3), and under `voluntary_default` a front contract may be defaulted —
    after the last dividend, any of the contracts the final resolution meets (10.5.5)."""
    front, fields, leader = state.queue[0], [], None
    held: dict[str, int] = {}
    if isinstance(front, Dividend):
        held, tied = most_held(state, p)
        if len(tied) > 1:
            fields.append(Field.choice("strengthen", tied, excluded=partial(_untied, player, tied, held)))
        else:
            leader = tied[0]  # naming it changes nothing
        later = defaultable(state, p)
        if later:
            fields.append(Field.several("default", later, 0, len(later), excluded=_unresolved(player)))
    elif isinstance(front, Contract) and p.voluntary_default:
        fields.append(Field.choice("default", ((), (front.set,)), ("pay", f"default on {front.set}"),
                                   excluded=_unresolved(player)))
    return Template("resolve", player, "FOREX-10", _resolve_action, tuple(fields), read=partial(_resolve_values, leader),
                    unlisted=partial(_not_to_name, state, p, player, leader, held))


def _untied(player: str, tied: list[str], held: Mapping[str, int], value: str | None,
            part: tuple[Any, ...]) -> Exception:
    """A dividend's tie left unbroken (ChoiceNeeded: the player must pick), or broken with a
    currency outside it (FOREX-10.5.3)."""
    if value is None:
        reason = refused.tie_reason({"held": held})
        return ChoiceNeeded("FOREX-10.5.3", "strengthen", tuple(tied),
                            f"{', '.join(tied)} are tied ({reason}); {player} must pick one")
    return refused.OUTSIDE_TIE(player=player, value=value, tied=tied, held=held)


@lru_cache(maxsize=64)
def _unresolved(player: str) -> Why:
    """The refusal of defaulting on a contract this Resolve does not resolve (FOREX-10.3), of the
    whole Resolve, not of one of its named parts."""
    return partial(_without_part, refused.NOT_RESOLVED.reason(player=player))


def _without_part(why: Any, value: Any, part: tuple[Any, ...]) -> Exception:
    refusal: Exception = why(value=value)
    return refusal


def _not_to_name(state: State, p: Params, player: str, leader: str | None, held: Mapping[str, int], field: str,
                 value: Any) -> Exception:
    """What a Resolve names that it may not: a currency to strengthen where no dividend's tie
    needs one (FOREX-10.5.3), contracts to default where none may be (10.3)."""
    front = state.queue[0]
    if field == "strengthen":
        if not isinstance(front, Dividend):
            return refused.NOT_A_DIVIDEND(player=player, value=value, front=front.label())
        return refused.NO_TIE(player=player, value=value, leader=leader, held=held)
    if not p.voluntary_default:
        return refused.MUST_PAY(player=player, value=value)
    return refused.NOT_RESOLVED(player=player, value=value)


# --- what each action states, by field, and the actions the fields build -----------------------------------


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
