"""Every kind of event Акционер's engine reports: its rule and the sentence made from its data.

Money events carry `player`, `colour` and `amount` (the change of the player's cash, signed),
share events `shares` (signed) and `lost` (to the bank), so every change of an account can be
added up from the events alone.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.rules.base import EventKind

Data = Mapping[str, Any]


def _setup(d: Data) -> str:
    prices = ", ".join(f"{colour} {price}" for colour, price in d["prices"].items())
    return f"prices {prices}; {d['players']} players; {'hands dealt' if d['dealt'] else 'formula ' + d['formula']}"


def _traded(d: Data) -> str:
    verb = "sells" if d["shares"] < 0 else "buys"
    return f"{d['player']} {verb} {abs(d['shares'])} {d['colour']} at {d['price']} = {abs(d['amount'])}: cash {d['cash']}"


def _price(d: Data) -> str:
    text = f"{d['colour']}: {d['old']} {d['effect']} = {d['calc']}"
    if d["overflow"]:
        return f"{text} → {d['new']} (overflow {d['overflow']} per share)"
    if d["penalty"]:
        return f"{text} → {d['new']} (zeroed: penalty {d['penalty']} per share)"
    if d["calc"] != d["new"]:
        return f"{text} → {d['new']} (rounded {'up' if d['new'] > d['calc'] else 'down'})"
    return text


def _short(d: Data) -> str:
    goes = "goes" if d["lost"] == 1 else "go"
    return (f"{d['player']} owes {d['penalty']} × {d['held']} {d['colour']} = {d['due']} with cash {d['cash']}: "
            f"pays for {d['kept']} ({-d['amount']}), {d['lost']} {d['colour']} {goes} to the bank")


def _penalty_order(d: Data) -> str:
    text = f"{d['player']} pays " + ", then ".join(f"{colour} ({penalty} per share)" for colour, penalty in d["order"])
    ties = "; ".join(f"{' and '.join(colours)} tie on penalty and old price: paid in board order" for colours in d["tied"])
    return f"{text}; {ties}" if ties else text


def _capital(d: Data) -> str:
    parts = [f"{n} {colour} × {d['prices'][colour]}" for colour, n in d["shares"].items()]
    cash = f"cash {d['cash']}"
    return f"{d['player']}: {' + '.join([*parts, cash])} = {d['capital']}"


SETUP = EventKind("AKT-2.1", _setup)
TURN = EventKind("AKT-3.6", lambda d: f"{d['player']}'s turn: {d['big']} big and {d['small']} small cards in hand")
LAST_ROUND = EventKind("AKT-8.1", lambda d: "last round: every player has one card left, nobody buys or sells")
TRADED = EventKind("AKT-3.1", _traded)  # AKT-3.3 in stage 3
PLAYED = EventKind("AKT-4.3", lambda d: f"{d['player']} plays {d['play']}")  # the card's own rule
PRICE = EventKind("AKT-5.4", _price)  # 5.2 rounded, 6.2 overflow, 5.3 or 7.1 zeroed
COMPENSATION = EventKind("AKT-6.1", lambda d: f"{d['player']}: compensation ({d['old']} − {d['new']}) × {d['held']} "
                         f"{d['colour']} = {d['amount']}")  # AKT-6.3 when the price is zeroed
OVERFLOW_BONUS = EventKind("AKT-6.2", lambda d: f"{d['player']}: overflow bonus {d['overflow']} × {d['held']} "
                           f"{d['colour']} = {d['amount']}")
PENALTY_ORDER = EventKind("AKT-7.5", _penalty_order)
PENALTY = EventKind("AKT-7.2", lambda d: f"{d['player']} pays penalty {d['penalty']} × {d['held']} {d['colour']} = "
                    f"{d['due']}: cash {d['cash'] + d['amount']}")
PENALTY_SHORT = EventKind("AKT-7.4", _short)
ELIMINATED = EventKind("AKT-A11", lambda d: f"{d['player']} has no shares and {d['cash']} cash (< {d['cheapest']}): "
                       "out of the game")
OVER = EventKind("AKT-9.1", lambda d: "every card has been played: the game is over")
CAPITAL = EventKind("AKT-9.2", _capital)
WINNERS = EventKind("AKT-9.3", lambda d: f"{' and '.join(d['winners'])} win{'s' if len(d['winners']) == 1 else ''}")
