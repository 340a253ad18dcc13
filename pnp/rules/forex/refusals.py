"""Every kind of refusal For-Ex's engine makes: its rule and the sentence made from its data.

A refusal is made where its condition is stated — a template's bound or options (`listing`),
the condition a position lists no template under, a setup's check (`state`), a pick beyond
the templates (`scoring`) — with the numbers the sentence states; its words are here, said in
the language being spoken, as the events are (`events`). Amounts are exact in the data and
shown as the rules file writes them (4.5).
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.i18n import _, ngettext
from pnp.rules.base import Refusal
from pnp.rules.forex.events import item
from pnp.rules.forex.params import show, show_rate

Data = Mapping[str, Any]


def _amount(amount: Any) -> str:
    """("GBP", 1.5) → "1.5 GBP"."""
    currency, value = amount
    return f"{show(value)} {currency}"


def _pair(d: Data) -> str:
    return f"{d['stronger']}>{d['weaker']} {d['position']}"


def tie_reason(d: Data) -> str:
    """Why the currencies are tied (or one leads): most certificates in hand at a dividend
    (FOREX-10.5.3), or most pairs won, then certificates in hand, at the end (12.1)."""
    held = d["held"]
    if "pairs" not in d:
        most = max(held.values())
        others = ", ".join(f"{c} {n}" for c, n in sorted(held.items(), key=lambda item: -item[1])
                           if n and n != most)
        return ngettext("{n} certificate in hand", "{n} certificates in hand", most).format(n=most) + (
            _("; then {others}").format(others=others) if others else "")
    if held:
        return _("{currencies} win {pairs} pairs each; certificates in hand: {held}").format(
            currencies=", ".join(held), pairs=d["pairs"], held=", ".join(f"{c} {n}" for c, n in held.items()))
    return _("stronger side of {pairs} pairs").format(pairs=d["pairs"])


# --- seats and the start (FOREX-1, 2, 4, 7, 8, 10) ------------------------------------------------

SEATS = Refusal("FOREX-1.10", lambda d: _("For-Ex is for {low}–{high} players, not {count}").format(**d))
SUPPLY_RANGE = Refusal("FOREX-1.6", lambda d: _("{currency}: {left} certificates in the supply, but a supply holds "
                                                "none or more, up to the game's {total}").format(**d))
SUPPLY_AND_HELD = Refusal("FOREX-1.6", lambda d: _("{currency}: {supply} in the supply and {held} held make {sum}, "
                                                   "but the game has {total} certificates").format(**d))
SUPPLY_SHORT = Refusal("FOREX-4.3", lambda d: _("players hold {held} {currency} certificates but only {left} are in "
                                                "the supply after setup; give start.supply").format(**d))
SUPPLY_OVER = Refusal("FOREX-4.3", lambda d: _(
    "{supply} certificates in the supply and {held} held make {sum}, but {removed} of the game's {total} are removed "
    "at setup: at most {most}").format(**d))
PAIR_OFF = Refusal("FOREX-2.1", lambda d: _("pair {pair} is at {stronger} box {position}: the stronger side is {a} "
                                            "or {b}, on a box from 1 to {boxes}").format(**d))
CAPPED = Refusal("FOREX-8.2", lambda d: _("{player} holds {count} {currency} certificates; at most {cap} of a "
                                          "currency").format(**d))
NEGATIVE_CERTIFICATES = Refusal("FOREX-1.6", lambda d: _("{player} holds {count} {currency} certificates; a holding "
                                                         "is none or more").format(**d))
NEGATIVE_MONEY = Refusal("FOREX-1.7", lambda d: _("{player} holds {amount} {currency}: money in hand is none or "
                                                  "more").format(player=d["player"], amount=show(d["amount"]),
                                                                 currency=d["currency"]))
STACKS = Refusal("FOREX-4.5", lambda d: _("the queue must hold the Dividend stack exactly once, not {count} "
                                          "times").format(**d))
DIVIDEND_RANGE = Refusal("FOREX-10.5.1", lambda d: _("the Dividend stack is at dividend {number}, but the game has "
                                                     "dividends 1 to {dividends}").format(**d))
UNKNOWN_SET = Refusal("FOREX-1.4", lambda d: _("{item}: the game's contract sets are {sets}").format(
    item=item(d["item"]), sets=", ".join(d["sets"])))
SET_TWICE = Refusal("FOREX-7.1", lambda d: _("set {set} is in the queue {count} times; each set exists once").format(**d))
LOANS_TWICE = Refusal("FOREX-10.2.2", lambda d: _("{owner} has {count} Loans in the queue; a second debt joins the "
                                                  "first").format(**d))
TERMS_SAME = Refusal("FOREX-7.2", lambda d: _("contract {set} pays and receives {currency}; the currencies must "
                                              "differ").format(**d))
TERMS = Refusal("FOREX-7.3", lambda d: _(
    "contract {set}: pay {pay}, receive {receive}, which no contract makes: one side is k = 1 … {most} of the "
    "stronger currency, the other k × a rate of the track").format(set=d["set"], pay=_amount(d["pay"]),
                                                                   receive=_amount(d["receive"]), most=d["most"]))
LOAN_PARTS = Refusal("FOREX-10.2.2", lambda d: _("{item} owes {owe}: a Loan owes one amount per currency, at least "
                                                 "one").format(item=item(d["item"]), owe=" + ".join(map(_amount, d["owe"]))
                                                               or _("nothing")))
LOAN_SMALL = Refusal("FOREX-10.2", lambda d: _(
    "{item} owes {amount} {currency}, but a Loan owes a contract's pay amount (at least 1) plus the interest "
    "({interest}): at least {least}").format(item=item(d["item"]), amount=show(d["amount"]), currency=d["currency"],
                                             interest=show(d["interest"]), least=show(d["least"])))

# --- a turn (FOREX-5) ---------------------------------------------------------------------------------


def _over(d: Data) -> str:
    why = (_("{player} went Bankrupt").format(player=d["bankrupt"]) if d["bankrupt"] else
           _("the last dividend has been paid"))
    return _("the game is over ({why}); {player} cannot take a turn").format(why=why, player=d["player"])


GAME_OVER = Refusal("FOREX-11.1", _over, scope="step")
NOT_PLAYING = Refusal("FOREX-5.3", lambda d: _("{player} is not playing ({players})").format(
    player=d["player"], players=", ".join(d["players"])), scope="player")
NOT_YOUR_TURN = Refusal("FOREX-5.3", lambda d: _("it is {mover}'s turn, not {player}'s: play goes clockwise "
                                                 "({players})").format(mover=d["mover"], player=d["player"],
                                                                       players=", ".join(d["players"])), scope="player")

# --- spot transactions (FOREX-6, A5) -------------------------------------------------------------------

SECOND_SPOT = Refusal("FOREX-5.1", lambda d: _("{player} has already made this turn's Spot Transaction; one per "
                                               "turn").format(**d))
SPOT_SELF = Refusal("FOREX-6.1", lambda d: _("{player} trades with {other}: a Spot Transaction is with another "
                                             "player").format(**d))
SPOT_ONE_CURRENCY = Refusal("FOREX-6.2", lambda d: _("{player} gives and gets {currency}; a Spot Transaction "
                                                     "exchanges two currencies").format(**d))
SPOT_RATE = Refusal("FOREX-6.2", lambda d: _(
    "at {pair}, rate {rate}, a Spot Transaction is {terms}: {player} gives {give} for {get}").format(
    pair=_pair(d), rate=show_rate(d["rate"]), player=d["player"], give=_amount(d["give"]), get=_amount(d["get"]),
    terms=_(" or ").join(_("{give} for {get}").format(give=_amount(give), get=_amount(get)) for give, get in d["terms"])))
SPOT_NOTES = Refusal("FOREX-A5", lambda d: _(
    "at {pair}, rate {rate}, {player} gives {give} for {get}, but no notes pay {amount}: money is kept in halves "
    "(FOREX-A6)").format(pair=_pair(d), rate=show_rate(d["rate"]), player=d["player"], give=_amount(d["give"]),
                         get=_amount(d["get"]), amount=_amount(d["unpaid"])))
SPOT_SHORT = Refusal("FOREX-6.2", lambda d: _("{player} must give {amount} but holds {held}").format(
    player=d["player"], amount=_amount(d["amount"]), held=show(d["held"])))

# --- contracts, investments, divestments (FOREX-7, 8, 9) ---------------------------------------------------

NO_SET = Refusal("FOREX-7.1", lambda d: _("all {sets} contract sets are in use (queue: {queue}); {player} cannot "
                                          "make a contract").format(sets=d["sets"], queue=", ".join(map(item, d["queue"])),
                                                                    player=d["player"]))
CONTRACT_SAME = Refusal("FOREX-7.2", lambda d: _("{player} would pay and receive {value}; name two different "
                                                 "currencies").format(**d))
CONTRACT_AMOUNT = Refusal("FOREX-7.2", lambda d: _("{player} names {value} of the stronger currency: the amount must "
                                                   "be a whole number from 1 to {most}").format(
    player=d["player"], value=show(d["value"]), most=d["most"]))
INVEST_COUNT = Refusal("FOREX-8.1", lambda d: _("{player} invests in {value} currencies: buy one or two certificates "
                                                "of different currencies").format(**d))
NO_CERTIFICATE = Refusal("FOREX-8.1", lambda d: _("no {value} certificate is left in the supply for {player}").format(**d))
AT_CAP = Refusal("FOREX-8.2", lambda d: _("{player} holds {held} {value} certificates already; at most {cap} of a "
                                          "currency").format(**d))
CERTIFICATE_DEAR = Refusal("FOREX-8.1", lambda d: _("a {value} certificate costs {price} {value} but {player} holds "
                                                    "{held}").format(value=d["value"], price=show(d["price"]),
                                                                     player=d["player"], held=show(d["held"])))
DIVEST_NONE = Refusal("FOREX-9.1", lambda d: _("{player} divests {value} {currency}: sell one or more").format(**d))
SELLS_UNHELD = Refusal("FOREX-9.1", lambda d: _("{player} sells {value} {currency} certificates but holds "
                                                "{bound}").format(**d))  # FOREX-9.2 for the others
SALE_NEGATIVE = Refusal("FOREX-9.2", lambda d: _("{player} sells {value} {currency} certificates: a sale is of none or "
                                                 "more").format(**d))
NOT_OTHER = Refusal("FOREX-9.2", lambda d: _("{player} is not another player of this game: the others are "
                                             "{others}").format(player=d["player"], others=", ".join(d["others"])))

# --- resolving the queue (FOREX-10) and the end (FOREX-12) --------------------------------------------------

MUST_PAY = Refusal("FOREX-10.3", lambda d: _("{player} names contract {sets} to default, but a player who can pay "
                                             "must pay (voluntary_default is off)").format(
    player=d["player"], sets=", ".join(d["value"])))
NOT_RESOLVED = Refusal("FOREX-10.3", lambda d: _("{player} names contract {sets} to default, but no such contract is "
                                                 "resolved by this action").format(
    player=d["player"], sets=", ".join(d["value"]) if isinstance(d["value"], (list, tuple)) else d["value"]))
NOT_A_DIVIDEND = Refusal("FOREX-10.5.3", lambda d: _("{player} names {value} to strengthen, but the front of the "
                                                     "queue is {front}, not a dividend").format(
    player=d["player"], value=d["value"], front=item(d["front"])))
NO_TIE = Refusal("FOREX-10.5.3", lambda d: _("{player} picks {value}, but {leader} leads alone ({why}); there is no "
                                             "tie to break").format(why=tie_reason(d), **d))  # FOREX-12.1 at the end
OUTSIDE_TIE = Refusal("FOREX-10.5.3", lambda d: _("{player} picks {value}, but the tie is between {tied} "
                                                  "({why})").format(player=d["player"], value=d["value"],
                                                                    tied=", ".join(d["tied"]), why=tie_reason(d)))
NOT_THE_END = Refusal("FOREX-12.1", lambda d: _("{player} names {value} strongest, but the game does not end with "
                                                "this action").format(**d))
