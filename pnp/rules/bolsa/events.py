"""Every kind of event bolsa's engine reports: its rule and the sentence made from its data.

The engine records numbers (who, which company, how many, at what price); the words are here,
one function per kind, so the referee, the table companion and any report say the same thing.
Each sentence is worded in English, its numbers and names as placeholders, and said in the
language being spoken (`pnp.i18n`: `pnp referee explain --lang es`); the catalogs translate it.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.i18n import _
from pnp.rules.base import EventKind

Data = Mapping[str, Any]


def _listing(counts: Mapping[str, int]) -> str:
    """{"IBE": 2, "SAN": 1} → "2 IBE, 1 SAN"."""
    return ", ".join(f"{n} {code}" for code, n in counts.items())


def _pairs(values: Mapping[str, Any]) -> str:
    """{"Ana": 50, "Ben": 40} → "Ana 50, Ben 40"."""
    return ", ".join(f"{key} {value}" for key, value in values.items())


def _move(d: Data) -> str:
    return f"{d['from']} → {d['to']}"


# --- setup (BOLSA-1.9, 2) ---------------------------------------------------------------------

DEALT = EventKind("BOLSA-1.9", lambda d: _("{players} players: {dealt} share cards dealt, {box} stay in the box "
                                           "({box_each} per company)").format(**d))
QUOTES = EventKind("BOLSA-2.1", lambda d: _("quotes {prices}; round {round}").format(prices=_pairs(d["prices"]),
                                                                                      round=d["round"]))
CASH = EventKind("BOLSA-2.2", lambda d: _("cash {cash}").format(cash=_pairs(d["cash"])))
HOLDS = EventKind("BOLSA-2.3", lambda d: _("{player} holds (zone 1 + zone 2) {holdings}").format(
    player=d["player"], holdings=", ".join(f"{code} {n}+{d['orders'][code]}" for code, n in d["owned"].items())))
STANDARD_HOLDINGS = EventKind("BOLSA-2.3", lambda d: _("each player: {owned} card of each company in zone 1, {orders} "
                                                       "in zone 2").format(**d))
TOKEN = EventKind("BOLSA-2.4", lambda d: _("{player} holds the auction-order token").format(**d))

# --- declarations (BOLSA-3.2, 3.3.1) -------------------------------------------------------------

OFFERED = EventKind("BOLSA-3.2.2", lambda d: _("{player} offers {sell} (zone 1 → 3)").format(
    player=d["player"], sell=_listing(d["sell"])))
REQUESTED = EventKind("BOLSA-3.2.3", lambda d: _("{player} requests {buy} (zone 2 → 4): {costs} = {cost}, cash "
                                                 "{cash}").format(
    player=d["player"], buy=_listing(d["buy"]), cost=d["cost"], cash=d["cash"],
    costs=" + ".join(_("{n} {company} at {price}").format(n=n, company=code, price=d["prices"][code])
                     for code, n in d["buy"].items())))
NOTHING = EventKind("BOLSA-3.2.4", lambda d: _("{player} declares nothing").format(**d))
NETTED = EventKind("BOLSA-3.2.6", lambda d: _("{player}'s {company} offer and request cancel {shares} for {shares} "
                                              "(3 → 1, 4 → 2)").format(**d))
REVEALED = EventKind("BOLSA-3.3.1", lambda d: _("round {round}: declarations revealed (offered/requested) "
                                                "{declared}").format(
    round=d["round"], declared=", ".join(f"{code} {n}/{d['requested'][code]}" for code, n in d["offered"].items())))

# --- bringing up a company (BOLSA-4.7.1, 4.5.2, 4.6.2) and auctions (BOLSA-5) -------------------

SHORT_OF_CASH = EventKind("BOLSA-4.7.1", lambda d: _(
    "{company}: {player} has {cash}, less than {shares} × {quote} = {cost}: withdraws all remaining requests "
    "({withdrawn})").format(company=d["company"], player=d["player"], cash=d["cash"], shares=d["shares"],
                            quote=d["quote"], cost=d["cost"], withdrawn=_pairs(d["withdrawn"])))


def _auction(d: Data) -> str:
    if d["ascending"]:
        said = _("{company}: {bidders} buyers want {requested}, {offered} offered → auction (ascending from {quote}; "
                 "bidding order {order})")
    else:
        said = _("{company}: {bidders} sellers offer {offered}, {requested} wanted → auction (descending from {quote}; "
                 "bidding order {order})")
    return said.format(company=d["company"], bidders=d["bidders"], requested=d["requested"], offered=d["offered"],
                       quote=d["quote"], order=", ".join(d["order"]))


AUCTION = EventKind("BOLSA-4.5.2", _auction)  # BOLSA-4.6.2 when descending
BID = EventKind("BOLSA-5.3", lambda d: _("{company}: {player} bids {amount}").format(**d))  # 5.4 descending
PASS = EventKind("BOLSA-5.3", lambda d: _("{company}: {player} passes").format(**d))
WON = EventKind("BOLSA-5.5", lambda d: (
    _("{company}: {player} wins at the quote {price}: nobody bid; ranking {ranking}") if d["unbid"] else
    _("{company}: {player} wins at {price}; ranking {ranking}")).format(
    company=d["company"], player=d["player"], price=d["price"], ranking=", ".join(d["ranking"])))
WITHDRAWN = EventKind("BOLSA-5.7", lambda d: (
    _("{company}: {player} withdraws {shares} offered (3 → 1)") if d["side"] == "offered" else
    _("{company}: {player} withdraws {shares} requested (4 → 2)")).format(**d))

# --- settling a company (BOLSA-4, 5.6, 3.4, 6) -----------------------------------------------------

UNTOUCHED = EventKind("BOLSA-4.1", lambda d: _("{company}: nothing offered or requested: stays at {quote}").format(**d))
UNWANTED = EventKind("BOLSA-4.2", lambda d: _("{company}: {offered} offered, none wanted: {move}").format(
    move=_move(d), **d))
UNOFFERED = EventKind("BOLSA-4.3", lambda d: _("{company}: none offered, {requested} wanted: {move}").format(
    move=_move(d), **d))
MATCHED = EventKind("BOLSA-4.4", lambda d: _("{company}: {offered} offered, {requested} wanted: all trade at {price}; "
                                             "quote stays").format(**d))
ONE_BUYER = EventKind("BOLSA-4.5.1", lambda d: _(
    "{company}: {offered} offered, {requested} wanted by {buyer} alone: {buyer} buys {offered} at {price}; {unfilled} "
    "unfilled: {move}").format(move=_move(d), **d))
SELLERS = EventKind("BOLSA-4.6.1", lambda d: _(
    "{company}: {offered} offered by {sellers}, {requested} wanted: {requested} sold at {price}; {unsold} unsold: "
    "{move}").format(company=d["company"], offered=d["offered"], sellers=", ".join(d["sellers"]),
                     requested=d["requested"], price=d["price"], unsold=d["unsold"], move=_move(d)))
ALLOCATED = EventKind("BOLSA-5.6", lambda d: _("{company}: allocation at {price} in ranking order: {shares}").format(
    company=d["company"], price=d["price"], shares=_pairs(d["shares"])))
CANNOT_PAY = EventKind("BOLSA-4.7.2", lambda d: _(
    "{company}: {player} cannot pay {shares} × {price} = {cost} with {cash}: withdraws all remaining requests "
    "({withdrawn}); his share passes down").format(
    company=d["company"], player=d["player"], shares=d["shares"], price=d["price"], cost=d["cost"], cash=d["cash"],
    withdrawn=_pairs(d["withdrawn"])))
PAID = EventKind("BOLSA-4.8", lambda d: (
    _("{company}: {buyer} buys {shares} from {seller} at {price} = {amount} (automatic pairing)") if d["automatic"] else
    _("{company}: {buyer} buys {shares} from {seller} at {price} = {amount} (as paired)")).format(**d))
AUCTION_QUOTE = EventKind("BOLSA-4.5.2", lambda d: _("{company}: the quote becomes the auction price: {move}").format(
    company=d["company"], move=_move(d)))
_ZONES = (("sold", "3→2"), ("unsold", "3→1"), ("bought", "4→1"), ("unbought", "4→2"))
PROVISIONED = EventKind("BOLSA-3.4", lambda d: _("{company} cards: {moves}").format(company=d["company"], moves="; ".join(
    f"{name} " + ", ".join(f"{moved[key]}: {arrow}" for key, arrow in _ZONES if moved.get(key))
    for name, moved in d["moves"].items())))
CLAMPED = EventKind("BOLSA-6.1", lambda d: _("{company}: {quote} is off the track: clamped to {to}").format(**d))
FLIPPED = EventKind("BOLSA-6.2", lambda d: (
    _("{company} {move}: token flipped (+{cells}) on cell {cell}") if d["cell"] is not None else
    _("{company} {move}: token flipped (+{cells}) beyond the board: note it on paper")).format(move=_move(d), **d))
FACE_UP = EventKind("BOLSA-6.2", lambda d: _("{company} {move}: token turned face up on cell {to}").format(
    move=_move(d), **d))
OFF_BOARD = EventKind("BOLSA-6.1", lambda d: _("{company} {quote}: beyond the board, note it on paper").format(**d))

# --- the end of a round (BOLSA-3.5) and of the game (BOLSA-7) ------------------------------------

TOKEN_PASSED = EventKind("BOLSA-3.5.1", lambda d: _("auction-order token: {move}").format(move=_move(d)))
NEXT_ROUND = EventKind("BOLSA-3.5.2", lambda d: _("round {move}").format(move=_move(d)))
LAST_ROUND = EventKind("BOLSA-3.5.2", lambda d: _("round {round} was the last: the game ends").format(**d))
BOUGHT_BACK = EventKind("BOLSA-7.1", lambda d: _("the bank buys {player}'s shares: {shares} = {payout}; {cash} + "
                                                 "{payout} = {score}").format(
    player=d["player"], payout=d["payout"], cash=d["cash"], score=d["score"],
    shares=" + ".join(f"{n} {code} × {d['prices'][code]}" for code, n in d["shares"].items()) or _("none")))


def _result(d: Data) -> str:
    tied, winners = d["tied"], d["winners"]
    if len(tied) > 1 and len(winners) < len(tied):
        return _("{tied} tie at {score}; {winners} had the most cash before the payout").format(
            tied=", ".join(tied), score=d["score"], winners=", ".join(winners))
    if len(winners) > 1:
        return _("{winners} share the win with {score}").format(winners=", ".join(winners), score=d["score"])
    return _("{winner} wins with {score}").format(winner=winners[0], score=d["score"])


RESULT = EventKind("BOLSA-7.2", _result)
