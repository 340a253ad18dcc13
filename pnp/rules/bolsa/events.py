"""Every kind of event bolsa's engine reports: its rule and the sentence made from its data.

The engine records numbers (who, which company, how many, at what price); the words are here,
one function per kind, so the referee, the table companion and any report say the same thing.
"""

from __future__ import annotations

from typing import Any, Mapping

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

DEALT = EventKind("BOLSA-1.9", lambda d: f"{d['players']} players: {d['dealt']} share cards dealt, {d['box']} stay "
                  f"in the box ({d['box_each']} per company)")
QUOTES = EventKind("BOLSA-2.1", lambda d: f"quotes {_pairs(d['prices'])}; round {d['round']}")
CASH = EventKind("BOLSA-2.2", lambda d: f"cash {_pairs(d['cash'])}")
HOLDS = EventKind("BOLSA-2.3", lambda d: f"{d['player']} holds (zone 1 + zone 2) "
                  + ", ".join(f"{code} {n}+{d['orders'][code]}" for code, n in d["owned"].items()))
STANDARD_HOLDINGS = EventKind("BOLSA-2.3", lambda d: f"each player: {d['owned']} card of each company in zone 1, "
                              f"{d['orders']} in zone 2")
TOKEN = EventKind("BOLSA-2.4", lambda d: f"{d['player']} holds the auction-order token")

# --- declarations (BOLSA-3.2, 3.3.1) -------------------------------------------------------------

OFFERED = EventKind("BOLSA-3.2.2", lambda d: f"{d['player']} offers {_listing(d['sell'])} (zone 1 → 3)")
REQUESTED = EventKind("BOLSA-3.2.3", lambda d: f"{d['player']} requests {_listing(d['buy'])} (zone 2 → 4): "
                      + " + ".join(f"{n} {code} at {d['prices'][code]}" for code, n in d["buy"].items())
                      + f" = {d['cost']}, cash {d['cash']}")
NOTHING = EventKind("BOLSA-3.2.4", lambda d: f"{d['player']} declares nothing")
NETTED = EventKind("BOLSA-3.2.6", lambda d: f"{d['player']}'s {d['company']} offer and request cancel {d['shares']} "
                   f"for {d['shares']} (3 → 1, 4 → 2)")
REVEALED = EventKind("BOLSA-3.3.1", lambda d: f"round {d['round']}: declarations revealed (offered/requested) "
                     + ", ".join(f"{code} {n}/{d['requested'][code]}" for code, n in d["offered"].items()))

# --- bringing up a company (BOLSA-4.7.1, 4.5.2, 4.6.2) and auctions (BOLSA-5) -------------------

SHORT_OF_CASH = EventKind("BOLSA-4.7.1", lambda d: f"{d['company']}: {d['player']} has {d['cash']}, less than "
                          f"{d['shares']} × {d['quote']} = {d['cost']}: withdraws all remaining requests "
                          f"({_pairs(d['withdrawn'])})")


def _auction(d: Data) -> str:
    if d["ascending"]:
        who = f"{d['bidders']} buyers want {d['requested']}, {d['offered']} offered → auction (ascending"
    else:
        who = f"{d['bidders']} sellers offer {d['offered']}, {d['requested']} wanted → auction (descending"
    return f"{d['company']}: {who} from {d['quote']}; bidding order {', '.join(d['order'])})"


AUCTION = EventKind("BOLSA-4.5.2", _auction)  # BOLSA-4.6.2 when descending
BID = EventKind("BOLSA-5.3", lambda d: f"{d['company']}: {d['player']} bids {d['amount']}")  # 5.4 descending
PASS = EventKind("BOLSA-5.3", lambda d: f"{d['company']}: {d['player']} passes")
WON = EventKind("BOLSA-5.5", lambda d: f"{d['company']}: {d['player']} "
                + (f"wins at the quote {d['price']}: nobody bid" if d["unbid"] else f"wins at {d['price']}")
                + f"; ranking {', '.join(d['ranking'])}")
WITHDRAWN = EventKind("BOLSA-5.7", lambda d: f"{d['company']}: {d['player']} withdraws {d['shares']} "
                      + ("offered (3 → 1)" if d["side"] == "offered" else "requested (4 → 2)"))

# --- settling a company (BOLSA-4, 5.6, 3.4, 6) -----------------------------------------------------

UNTOUCHED = EventKind("BOLSA-4.1", lambda d: f"{d['company']}: nothing offered or requested: stays at {d['quote']}")
UNWANTED = EventKind("BOLSA-4.2", lambda d: f"{d['company']}: {d['offered']} offered, none wanted: {_move(d)}")
UNOFFERED = EventKind("BOLSA-4.3", lambda d: f"{d['company']}: none offered, {d['requested']} wanted: {_move(d)}")
MATCHED = EventKind("BOLSA-4.4", lambda d: f"{d['company']}: {d['offered']} offered, {d['requested']} wanted: "
                    f"all trade at {d['price']}; quote stays")
ONE_BUYER = EventKind("BOLSA-4.5.1", lambda d: f"{d['company']}: {d['offered']} offered, {d['requested']} wanted by "
                      f"{d['buyer']} alone: {d['buyer']} buys {d['offered']} at {d['price']}; {d['unfilled']} "
                      f"unfilled: {_move(d)}")
SELLERS = EventKind("BOLSA-4.6.1", lambda d: f"{d['company']}: {d['offered']} offered by {', '.join(d['sellers'])}, "
                    f"{d['requested']} wanted: {d['requested']} sold at {d['price']}; {d['unsold']} unsold: {_move(d)}")
ALLOCATED = EventKind("BOLSA-5.6", lambda d: f"{d['company']}: allocation at {d['price']} in ranking order: "
                      f"{_pairs(d['shares'])}")
CANNOT_PAY = EventKind("BOLSA-4.7.2", lambda d: f"{d['company']}: {d['player']} cannot pay {d['shares']} × "
                       f"{d['price']} = {d['cost']} with {d['cash']}: withdraws all remaining requests "
                       f"({_pairs(d['withdrawn'])}); his share passes down")
PAID = EventKind("BOLSA-4.8", lambda d: f"{d['company']}: {d['buyer']} buys {d['shares']} from {d['seller']} at "
                 f"{d['price']} = {d['amount']} ({'automatic pairing' if d['automatic'] else 'as paired'})")
AUCTION_QUOTE = EventKind("BOLSA-4.5.2", lambda d: f"{d['company']}: the quote becomes the auction price: {_move(d)}")
_ZONES = (("sold", "3→2"), ("unsold", "3→1"), ("bought", "4→1"), ("unbought", "4→2"))
PROVISIONED = EventKind("BOLSA-3.4", lambda d: f"{d['company']} cards: " + "; ".join(
    f"{name} " + ", ".join(f"{moved[key]}: {arrow}" for key, arrow in _ZONES if moved.get(key))
    for name, moved in d["moves"].items()))
CLAMPED = EventKind("BOLSA-6.1", lambda d: f"{d['company']}: {d['quote']} is off the track: clamped to {d['to']}")
FLIPPED = EventKind("BOLSA-6.2", lambda d: f"{d['company']} {_move(d)}: token flipped (+{d['cells']}) "
                    + (f"on cell {d['cell']}" if d["cell"] is not None else "beyond the board: note it on paper"))
FACE_UP = EventKind("BOLSA-6.2", lambda d: f"{d['company']} {_move(d)}: token turned face up on cell {d['to']}")
OFF_BOARD = EventKind("BOLSA-6.1", lambda d: f"{d['company']} {d['quote']}: beyond the board, note it on paper")

# --- the end of a round (BOLSA-3.5) and of the game (BOLSA-7) ------------------------------------

TOKEN_PASSED = EventKind("BOLSA-3.5.1", lambda d: f"auction-order token: {_move(d)}")
NEXT_ROUND = EventKind("BOLSA-3.5.2", lambda d: f"round {_move(d)}")
LAST_ROUND = EventKind("BOLSA-3.5.2", lambda d: f"round {d['round']} was the last: the game ends")
BOUGHT_BACK = EventKind("BOLSA-7.1", lambda d: f"the bank buys {d['player']}'s shares: "
                        + (" + ".join(f"{n} {code} × {d['prices'][code]}" for code, n in d["shares"].items()) or "none")
                        + f" = {d['payout']}; {d['cash']} + {d['payout']} = {d['score']}")


def _result(d: Data) -> str:
    tied, winners = d["tied"], d["winners"]
    if len(tied) > 1 and len(winners) < len(tied):
        return f"{', '.join(tied)} tie at {d['score']}; {', '.join(winners)} had the most cash before the payout"
    if len(winners) > 1:
        return f"{', '.join(winners)} share the win with {d['score']}"
    return f"{winners[0]} wins with {d['score']}"


RESULT = EventKind("BOLSA-7.2", _result)
