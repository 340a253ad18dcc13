"""Every kind of event Акционер's engine reports: its rule and the sentence made from its data.

Money events carry `player`, `colour` and `amount` (the change of the player's cash, signed),
share events `shares` (signed) and `lost` (to the bank), so every change of an account can be
added up from the events alone. Each sentence is worded in English, its numbers and names as
placeholders, and said in the language being spoken (`pnp.i18n`: `pnp referee explain --lang ru`);
the catalogs translate it.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.i18n import _, named, ngettext
from pnp.rules.base import EventKind

Data = Mapping[str, Any]


def _with_colour(d: Data) -> dict[str, Any]:
    """The data with its colour as the language being spoken names it: its id in English (what
    a record says), the catalog's word in a translated kit or answer ("покупает 2 синие")."""
    return {**d, "colour": named(d["colour"])}


def _setup(d: Data) -> str:
    prices = ", ".join(f"{named(colour)} {price}" for colour, price in d["prices"].items())
    if d["dealt"]:
        return _("prices {prices}; {players} players; hands dealt").format(prices=prices, players=d["players"])
    return _("prices {prices}; {players} players; formula {formula}").format(prices=prices, players=d["players"],
                                                                            formula=d["formula"])


def _accounts(d: Data) -> str:
    """Every account at the start: one sentence when all are the standard one (AKT-2.1)."""
    if d["standard"]:
        return ngettext("every account: {shares} share of each colour, cash {cash}",
                        "every account: {shares} shares of each colour, cash {cash}", d["shares"]).format(**d)
    return "; ".join(_("{player}: cash {cash}, shares {shares}").format(
        player=name, cash=account["cash"], shares=", ".join(f"{named(c)} {n}" for c, n in account["shares"].items()))
        for name, account in d["accounts"].items())


def _traded(d: Data) -> str:
    said = (_("{player} sells {shares} {colour} at {price} = {amount}: cash {cash}") if d["shares"] < 0 else
            _("{player} buys {shares} {colour} at {price} = {amount}: cash {cash}"))
    return said.format(player=d["player"], shares=abs(d["shares"]), colour=named(d["colour"]), price=d["price"],
                       amount=abs(d["amount"]), cash=d["cash"])


def _price(d: Data) -> str:
    text = f"{named(d['colour'])}: {d['old']} {d['effect']} = {d['calc']}"
    if d["overflow"]:
        return _("{text} → {new} (overflow {overflow} per share)").format(text=text, new=d["new"], overflow=d["overflow"])
    if d["penalty"]:
        return _("{text} → {new} (zeroed: penalty {penalty} per share)").format(text=text, new=d["new"],
                                                                               penalty=d["penalty"])
    if d["calc"] != d["new"]:
        rounded = _("{text} → {new} (rounded up)") if d["new"] > d["calc"] else _("{text} → {new} (rounded down)")
        return rounded.format(text=text, new=d["new"])
    return text


def _short(d: Data) -> str:
    return ngettext("{player} owes {penalty} × {held} {colour} = {due} with cash {cash}: pays for {kept} ({paid}), "
                    "{lost} {colour} goes to the bank",
                    "{player} owes {penalty} × {held} {colour} = {due} with cash {cash}: pays for {kept} ({paid}), "
                    "{lost} {colour} go to the bank", d["lost"]).format(paid=-d["amount"], **_with_colour(d))


def _penalty_order(d: Data) -> str:
    text = _("{player} pays {order}").format(player=d["player"], order=_(", then ").join(
        _("{colour} ({penalty} per share)").format(colour=named(colour), penalty=penalty) for colour, penalty in d["order"]))
    ties = "; ".join(_("{colours} tie on penalty and old price: paid in board order").format(
        colours=_(" and ").join(map(named, colours))) for colours in d["tied"])
    return f"{text}; {ties}" if ties else text


def _capital(d: Data) -> str:
    parts = [f"{n} {named(colour)} × {d['prices'][colour]}" for colour, n in d["shares"].items()]
    cash = _("cash {cash}").format(cash=d["cash"])
    return f"{d['player']}: {' + '.join([*parts, cash])} = {d['capital']}"


SETUP = EventKind("AKT-2.1", _setup)
ACCOUNTS = EventKind("AKT-2.1", _accounts)  # `accounts` (each player's cash and shares), `standard`, `cash`, `shares`
TURN = EventKind("AKT-3.6", lambda d: _("{player}'s turn: {big} big and {small} small cards in hand").format(**d))
LAST_ROUND = EventKind("AKT-8.1", lambda d: _("last round: every player has one card left, nobody buys or sells"))
TRADED = EventKind("AKT-3.1", _traded)  # AKT-3.3 in stage 3
PLAYED = EventKind("AKT-4.3", lambda d: _("{player} plays {play}").format(  # the card's own rule
    player=d["player"], play=named(d["play"])))
PRICE = EventKind("AKT-5.4", _price)  # 5.2 rounded, 6.2 overflow, 5.3 or 7.1 zeroed
COMPENSATION = EventKind("AKT-6.1", lambda d: _("{player}: compensation ({old} − {new}) × {held} {colour} = "
                                                "{amount}").format(**_with_colour(d)))  # AKT-6.3 when the price is zeroed
OVERFLOW_BONUS = EventKind("AKT-6.2", lambda d: _("{player}: overflow bonus {overflow} × {held} {colour} = "
                                                  "{amount}").format(**_with_colour(d)))
PENALTY_ORDER = EventKind("AKT-7.5", _penalty_order)
PENALTY = EventKind("AKT-7.2", lambda d: _("{player} pays penalty {penalty} × {held} {colour} = {due}: cash "
                                           "{cash}").format(player=d["player"], penalty=d["penalty"], held=d["held"],
                                                            colour=named(d["colour"]), due=d["due"],
                                                            cash=d["cash"] + d["amount"]))
PENALTY_SHORT = EventKind("AKT-7.4", _short)
ELIMINATED = EventKind("AKT-A11", lambda d: _("{player} has no shares and {cash} cash (< {cheapest}): out of the "
                                          "game").format(**d))
OVER = EventKind("AKT-9.1", lambda d: _("every card has been played: the game is over"))
CAPITAL = EventKind("AKT-9.2", _capital)
WINNERS = EventKind("AKT-9.3", lambda d: ngettext("{winners} wins", "{winners} win", len(d["winners"])).format(
    winners=_(" and ").join(d["winners"])))
