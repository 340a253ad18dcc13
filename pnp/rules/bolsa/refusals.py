"""Every kind of refusal Bolsa's engine makes: its rule and the sentence made from its data.

A refusal is made where its condition is stated — a template's bound (`listing`), the
condition a position lists no template under, a setup's check — with the numbers the sentence
states; its words are here, one function per kind, said in the language being spoken
(`pnp referee explain --lang es`), as the events are (`events`).
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.i18n import _
from pnp.rules.base import Refusal

Data = Mapping[str, Any]


def _track(d: Data) -> str:
    """The quote track's ends: "0–39", or "at least 0" without a top (BOLSA-6.1)."""
    if d["high"] is None:
        return _("at least {low}").format(low=d["low"])
    return f"{d['low']}–{d['high']}"


# --- seats and the start (BOLSA-1.9, 2, 3.1, 6.1) ------------------------------------------------

SEATS = Refusal("BOLSA-1.9", lambda d: _("the game is for {low}–{high} players, not {count}").format(**d))
DECK_SHORT = Refusal("BOLSA-1.9", lambda d: _("{count} players need {needed} cards of each company, but the deck "
                                              "has {deck}").format(**d))
NEGATIVE_CASH = Refusal("BOLSA-2.2", lambda d: _("{player} starts with {cash} in money: a player holds none or "
                                                 "more").format(**d))
ROUND_PAST = Refusal("BOLSA-3.1", lambda d: _("the start is round {round}, but the game has {rounds} "
                                              "rounds").format(**d))
ROUND_BEFORE = Refusal("BOLSA-3.1", lambda d: _("the start is round {round}, but the rounds count from "
                                                "1").format(**d))
OFF_TRACK = Refusal("BOLSA-6.1", lambda d: _("{company} starts at {price}, off the quote track ({track})").format(
    company=d["company"], price=d["price"], track=_track(d)))
OWNED_IN_ALL = Refusal("BOLSA-2.6", lambda d: _(
    "{owned} {company} shares are owned in all, but {players} players own exactly {players} ({each} each at setup; "
    "trades only move them)").format(**d))
CARDS_EACH = Refusal("BOLSA-2.6", lambda d: _(
    "{player} starts with {owned} {company} in zone 1 and {orders} in zone 2, but every player has exactly {cards} "
    "{company} cards").format(**d))

# --- the round (BOLSA-3) ---------------------------------------------------------------------------

GAME_OVER = Refusal("BOLSA-3.5.2", lambda d: _("the game ended after round {round}; nothing more can be "
                                               "played").format(**d), scope="step")
DECLARED_LATE = Refusal("BOLSA-3.2.7", lambda d: _("{player} declares after the trade phase of round {round} "
                                                   "began").format(**d))
DECLARED_TWICE = Refusal("BOLSA-3.2.1", lambda d: _("{player} has already declared in round {round}").format(**d))
OFFERS_UNOWNED = Refusal("BOLSA-3.2.2", lambda d: _("{player} offers {value} {company} but owns {bound}").format(**d))
REQUESTS_UNORDERED = Refusal("BOLSA-3.2.3", lambda d: _("{player} requests {value} {company} but has {bound} order "
                                                        "cards of it").format(**d))
REQUESTS_TOO_DEAR = Refusal("BOLSA-3.2.5", lambda d: _("{player} requests {terms} = {total} but holds {limit}").format(
    player=d["player"], total=d["total"], limit=d["limit"],
    terms=" + ".join(_("{n} {company} at {price}").format(n=n, company=code, price=d["prices"][code])
                     for code, n in d["chosen"].get("buy", {}).items())))
BOTH_WAYS = Refusal("BOLSA-3.2.6", lambda d: _("{player} both offers and requests {company} in one round").format(
    player=d["player"], company=", ".join(d["chosen"].get("sell", {}))))
UNSETTLED = Refusal("BOLSA-3.3.2", lambda d: _("{company} is not settled yet; companies are resolved one at a "
                                               "time").format(**d))
NOTHING_UP = Refusal("BOLSA-3.3.2", lambda d: _("no company is being resolved"))

# --- auctions (BOLSA-4.5, 4.6, 5) --------------------------------------------------------------------


def _no_auction(d: Data) -> str:
    if d["side"] is None:
        why = _("{offered} offered, {wanted} wanted: case {case}").format(**d)
    elif d["side"] == "buyers":
        why = _("{offered} offered, {wanted} wanted, {count} buyers: an auction needs {needed} (BOLSA-A2)").format(**d)
    else:
        why = _("{offered} offered, {wanted} wanted, {count} sellers: an auction needs {needed} (BOLSA-A2)").format(**d)
    return _("{company} goes to no auction this round ({why}), yet {player} bids").format(
        company=d["company"], why=why, player=d["player"])


NO_AUCTION = Refusal("BOLSA-5.1", lambda d: _("{player} bids, but no auction is running").format(**d))
NOT_AUCTIONED = Refusal("BOLSA-4.1", _no_auction)  # the rule of the company's case (4.1 to 4.6.1)
AUCTION_OVER = Refusal("BOLSA-5.3", lambda d: _("the auction ended when all but {leader} had passed ({leader} won "
                                                "at {price}); {player} bids after its end").format(**d))
NOT_A_BIDDER = Refusal("BOLSA-5.1", lambda d: (
    _("{player} is not in the {company} auction; only its buyers bid ({bidders})") if d["ascending"] else
    _("{player} is not in the {company} auction; only its sellers bid ({bidders})")).format(
    player=d["player"], company=d["company"], bidders=", ".join(d["bidders"])))
PASSED = Refusal("BOLSA-5.3", lambda d: _("{player} already passed in the {company} auction, and a pass is "
                                          "final").format(**d))
OUT_OF_TURN = Refusal("BOLSA-5.2", lambda d: _("{player} bids out of turn in the {company} auction: it is {turn}'s "
                                               "turn").format(**d))
OPENS_BELOW = Refusal("BOLSA-5.3", lambda d: _("{player} opens the {company} auction at {value}, below the quote "
                                               "{bound}").format(**d))
OPENS_ABOVE = Refusal("BOLSA-5.4", lambda d: _("{player} opens the {company} auction at {value}, above the quote "
                                               "{bound}").format(**d))
NOT_HIGHER = Refusal("BOLSA-5.3", lambda d: _("{player} bids {value} on {company}, not above the high bid "
                                              "{best}").format(**d))
NOT_LOWER = Refusal("BOLSA-5.4", lambda d: _("{player} bids {value} on {company}, not below the low bid "
                                             "{best}").format(**d))
OVER_TOP = Refusal("BOLSA-5.3", lambda d: _("{player} bids {value} on {company}, above the top of the quote track "
                                            "({bound})").format(**d))
UNDER_BOTTOM = Refusal("BOLSA-5.4", lambda d: _("{player} bids {value} on {company}, below the bottom of the quote "
                                                "track ({bound})").format(**d))
BID_OVER_CASH = Refusal("BOLSA-5.3", lambda d: _(
    "{player} bids {value} on {company}: {value} × {requested} requested = {cost} but holds {cash} (at most "
    "{bound})").format(cost=d["value"] * d["requested"], **d))
STILL_BIDDING = Refusal("BOLSA-5.3", lambda d: _("the {company} auction is not over: {player} is to bid").format(**d))

# --- withdrawing (BOLSA-5.7) ---------------------------------------------------------------------------

MUST_TRADE = Refusal("BOLSA-5.7", lambda d: _("{player} may not withdraw: the losers of an auction trade at its "
                                              "price too").format(**d))
NO_LOSERS_YET = Refusal("BOLSA-5.7", lambda d: _("{player} may withdraw only as a loser of a finished "
                                                 "auction").format(**d))
NOT_A_LOSER = Refusal("BOLSA-5.7", lambda d: _("{player} did not lose the {company} auction, so he cannot withdraw "
                                               "from it").format(**d))
WITHDRAWN = Refusal("BOLSA-5.7", lambda d: _("{player} has already withdrawn from {company}").format(**d))

# --- the pairing (BOLSA-4.8), which no template states ---------------------------------------------------

PAIRING_UNTRADED = Refusal("BOLSA-4.8", lambda d: _("a pairing is given for {company}, but no {company} shares "
                                                    "change hands").format(**d))
PAIRED_NON_BUYER = Refusal("BOLSA-4.8", lambda d: _("the pairing has {player} buying {company}, but {player} has no "
                                                    "{company} requests").format(**d))
PAIRED_NON_SELLER = Refusal("BOLSA-4.8", lambda d: _("the pairing has {player} selling {company}, but {player} "
                                                     "offered none").format(**d))
PAIRED_TOO_MANY = Refusal("BOLSA-4.8", lambda d: (
    _("the pairing has {player} buying {shares} {company}, but only {cards} are his to trade") if d["buying"] else
    _("the pairing has {player} selling {shares} {company}, but only {cards} are his to trade")).format(**d))
PAIRED_TOTAL = Refusal("BOLSA-4.8", lambda d: (
    _("the pairing buys {paired} {company}, but {traded} change hands") if d["buying"] else
    _("the pairing sells {paired} {company}, but {traded} change hands")).format(**d))
PAIRED_SHARE = Refusal("BOLSA-4.8", lambda d: (
    _("the pairing has {player} trading {paired} {company}, but {player} bought {traded}") if d["buying"] else
    _("the pairing has {player} trading {paired} {company}, but {player} sold {traded}")).format(**d))
