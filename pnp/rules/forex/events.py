"""Every kind of event For-Ex's engine reports: its rule and the sentence made from its data.

Amounts are exact (`Fraction`) in the data and shown as the rules file writes them (4.5, 1½ for
a rate); money is `{currency: amount}`; a pair moved on the board is `{stronger, weaker,
position, note}`; the queue is its labels, front first ("dividend 2", "contract B Ana").

Each sentence is worded in English, its numbers and names as placeholders, and said in the
language being spoken (`pnp.i18n`: `pnp referee explain --lang es`); the catalogs translate it.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from pnp.i18n import N_, _, ngettext
from pnp.rules.base import EventKind
from pnp.rules.forex.params import show, show_rate
from pnp.rules.forex.rulebook import Conversion

Data = Mapping[str, Any]
NOTES = (N_("flip"), N_("at the cap"))  # what the board says of a moved pair (`board.move`), worded here


def _money(amounts: Mapping[str, Any], joint: str = " + ") -> str:
    """{"GBP": 3, "EUR": 4.5} → "3 GBP + 4.5 EUR"."""
    return joint.join(f"{show(amount)} {currency}" for currency, amount in amounts.items())


def _one(amounts: Mapping[str, Any]) -> tuple[str, Any]:
    ((currency, amount),) = amounts.items()
    return currency, amount


def _pair(d: Data) -> str:
    return f"{d['stronger']}>{d['weaker']} {d['position']}"


def _moved(moves: Iterable[Data]) -> str:
    """The pairs a strengthening or weakening moved: "USD>GBP 1 (flip), USD>CHF 2"."""
    return ", ".join(_pair(m) + (f" ({_(m['note'])})" if m["note"] else "") for m in moves)


def item(label: str) -> str:
    """A queue item's label ("dividend 2", "contract B Ana", "loan C Ben": the record's notation,
    which the data keeps) as the language being spoken says it."""
    kind, _space, rest = label.partition(" ")
    set_, _space, owner = rest.partition(" ")
    if kind == "dividend":
        return _("dividend {number}").format(number=rest)
    if kind == "contract":
        return _("contract {set} {owner}").format(set=set_, owner=owner)
    return _("loan {set} {owner}").format(set=set_, owner=owner)


def _queue(labels: list[str]) -> str:
    return ", ".join(map(item, labels)) or _("empty")


def _terms(d: Data) -> str:
    (pay, paid), (gets, got) = _one(d["pay"]), _one(d["receive"])
    return _("pay {paid} {pay}, receive {got} {gets}").format(paid=show(paid), pay=pay, got=show(got), gets=gets)


# --- setup, turns (FOREX-4, 6 to 9) --------------------------------------------------------------

def _start_pairs(d: Data) -> str:
    if not d["moved"]:
        return _("pair counters on their starting boxes")
    return _("pair counters on their starting boxes, except {pairs}").format(pairs=", ".join(map(_pair, d["moved"])))


def _start_holdings(d: Data) -> str:
    """Each player's money and certificates, where the position is not the standard one."""
    if not d["players"]:
        return _("each player: {money} bucks of every currency, no certificates").format(money=show(d["money"]))
    return "; ".join(_("{player}: {money}; certificates {certificates}").format(
        player=name, certificates=", ".join(f"{c} {n}" for c, n in held["certificates"].items() if n) or _("none"),
        money=(_("{money} bucks of every currency").format(money=show(d["money"]))
               if all(amount == d["money"] for amount in held["money"].values()) else _money(held["money"], ", ")))
        for name, held in d["players"].items())


START_PAIRS = EventKind("FOREX-4.1", _start_pairs)  # `moved`: the pairs not on their starting boxes
START_HOLDINGS = EventKind("FOREX-4.2", _start_holdings)  # `players`: each whose holding is not the standard one
SUPPLY = EventKind("FOREX-4.3", lambda d: _("{players} players; {certificates} certificates in the supply ({supply})").format(
    players=d["players"], certificates=sum(d["supply"].values()), supply=", ".join(f"{c} {n}" for c, n in d["supply"].items())))
DISPLAY = EventKind("FOREX-4.4", lambda d: _("contract display {display}; queue {queue}").format(
    display=", ".join(d["display"]) or _("empty"), queue=_queue(d["queue"])))
SPOT = EventKind("FOREX-6.2", lambda d: _("spot: {player} gives {other} {give} for {get} ({pair}, rate {rate})").format(
    player=d["player"], other=d["other"], give=_money(d["give"]), get=_money(d["get"]), pair=_pair(d),
    rate=show_rate(d["rate"])))
CONTRACT = EventKind("FOREX-7.3", lambda d: _("{player} makes contract {set} at {pair} (rate {rate}): {terms}").format(
    player=d["player"], set=d["set"], pair=_pair(d), rate=show_rate(d["rate"]), terms=_terms(d)))
CONTRACT_CARDS = EventKind("FOREX-7.4", lambda d: _(
    "one card of set {set} to {player}, one to the back of the queue ({queue}), one to the display with the terms").format(
    set=d["set"], player=d["player"], queue=_queue(d["queue"])))
CERTIFICATE = EventKind("FOREX-8.1", lambda d: _(
    "{player} buys a {currency} certificate for {price} {currency} ({held} held, {supply} left in the supply)").format(
    player=d["player"], currency=d["currency"], price=show(d["price"]), held=d["held"], supply=d["supply"]))
STRENGTHENED = EventKind("FOREX-8.3", lambda d: _("{currency} strengthened: {moved}").format(
    currency=d["currency"], moved=_moved(d["moved"])))
SOLD = EventKind("FOREX-9.1", lambda d: _("{player} sells no {currency} certificate").format(**d) if not d["count"] else
                 ngettext("{player} sells {count} {currency} certificate for {proceeds} {currency}; they leave the game",
                          "{player} sells {count} {currency} certificates for {proceeds} {currency}; they leave the game",
                          d["count"]).format(player=d["player"], count=d["count"], currency=d["currency"],
                                             proceeds=show(d["proceeds"])))  # FOREX-9.2 for the others
WEAKENED = EventKind("FOREX-9.3", lambda d: _("{currency} weakened ({time} of {of}): {moved}").format(
    currency=d["currency"], time=d["time"], of=d["of"], moved=_moved(d["moved"])))

# --- the queue (FOREX-10) and the end (FOREX-11) ----------------------------------------------------

CONTRACT_PAID = EventKind("FOREX-10.1", lambda d: _(
    "contract {set}: {owner} pays {pay} and receives {receive}; set {set} returns to the display").format(
    set=d["set"], owner=d["owner"], pay=_money(d["pay"]), receive=_money(d["receive"])))


def _defaulted(d: Data) -> str:
    (pay, paid), (held,) = _one(d["pay"]), (d["holds"],)
    why = (_("defaults by choice (holds {held} {currency})") if d["by_choice"] else
           _("holds {held} {currency}, cannot pay {paid}")).format(held=show(held), currency=pay, paid=show(paid))
    return _("contract {set}: {owner} {why} → receives {receive} and owes {owe} ({paid} + {interest} interest)").format(
        set=d["set"], owner=d["owner"], why=why, receive=_money(d["receive"]), owe=_money(d["owe"]), paid=show(paid),
        interest=show(d["interest"]))


DEFAULTED = EventKind("FOREX-10.2", _defaulted)
LOAN = EventKind("FOREX-10.2.1", lambda d: _("loan {set} ({owe}) goes to the back: queue {queue}").format(
    set=d["set"], owe=_money(d["owe"]), queue=_queue(d["queue"])))
LOAN_GROWS = EventKind("FOREX-10.2.2", lambda d: _(
    "the debt joins {owner}'s loan {loan}, which keeps its place: loan {loan} = {owe}; set {set} returns to the "
    "display").format(owner=d["owner"], loan=d["loan"], owe=_money(d["owe"]), set=d["set"]))
LOAN_PAID = EventKind("FOREX-10.4", lambda d: _("loan {set}: {owner} pays {owe}; set {set} returns to the display").format(
    set=d["set"], owner=d["owner"], owe=_money(d["owe"])))
BANKRUPT = EventKind("FOREX-10.4", lambda d: _("loan {set}: {owner} owes {owe} but holds {holds}, cannot pay {short} → "
                                               "Bankrupt").format(
    set=d["set"], owner=d["owner"], owe=_money(d["owe"]), holds=", ".join(f"{c} {show(a)}" for c, a in d["holds"].items()),
    short=_money(d["short"], _(" and "))))
DIVIDEND = EventKind("FOREX-10.5.1", lambda d: _("dividend {dividend} pays {pays} per certificate: {gains}").format(
    dividend=d["dividend"], pays=d["pays"], gains="; ".join(
        f"{name} " + (", ".join(f"+{show(a)} {c}" for c, a in got.items()) or _("nothing"))
        for name, got in d["gains"].items())))
NO_DIVIDEND = EventKind("FOREX-10.5.2", lambda d: (
    _("{currency} certificates pay nothing: {currency} is a side of {pair} on the “8” space") if d["side"] == "either"
    else _("{currency} certificates pay nothing: {currency} is the weaker side of {pair} on the “8” space")).format(
    currency=d["currency"], pair=d["pair"]))


def _most_held(d: Data) -> str:
    held, tied, most = d["held"], d["tied"], d["most"]
    others = ", ".join(f"{c} {held[c]}" for c in sorted(held, key=lambda c: -held[c]) if held[c] and c not in tied)
    reason = ngettext("{n} certificate in hand", "{n} certificates in hand", most).format(n=most) + (
        _("; then {others}").format(others=others) if others else "")
    how = _("{player} picks {currency} among {tied}").format(player=d["picked_by"], currency=d["currency"],
                                                              tied=", ".join(tied)) if len(tied) > 1 else \
        _("most in hand: {currency}").format(currency=d["currency"])
    return _("{how} ({reason}) → {currency} strengthened: {moved}").format(how=how, reason=reason, currency=d["currency"],
                                                                          moved=_moved(d["moved"]))


MOST_HELD = EventKind("FOREX-10.5.3", _most_held)
DIVIDEND_BACK = EventKind("FOREX-10.5.4", lambda d: _("the Dividend stack goes to the back: queue {queue}").format(
    queue=_queue(d["queue"])))
LAST_DIVIDEND = EventKind("FOREX-10.5.5", lambda d: (
    _("last dividend resolved: no more turns; the rest of the queue resolves in order: {queue}").format(
        queue=_queue(d["queue"])) if d["queue"] else _("last dividend resolved: no more turns; the queue is empty")))
GAME_OVER = EventKind("FOREX-11.1", lambda d: _("game over: {player} is Bankrupt").format(player=d["bankrupt"])
                      if d["bankrupt"] else _("game over: the queue is empty after the last dividend"))

# --- scoring (FOREX-12) ---------------------------------------------------------------------------------


def _strongest(d: Data) -> str:
    if d["held"]:
        reason = _("{currencies} win {pairs} pairs each; certificates in hand: {held}").format(
            currencies=", ".join(d["held"]), pairs=d["pairs"], held=", ".join(f"{c} {n}" for c, n in d["held"].items()))
    else:
        reason = _("stronger side of {pairs} pairs").format(pairs=d["pairs"])
    text = _("strongest currency: {currency} ({reason})").format(currency=d["currency"], reason=reason)
    return text + (_("; {player}, who ended the game, picks {currency}").format(player=d["picked_by"],
                                                                                currency=d["currency"])
                   if d["picked_by"] else "")


def _approx(value: Any) -> str:
    text = show(value)
    return text if "/" not in text else f"{float(value):.2f}"


def _converted(d: Data) -> str:
    target, total = d["currency"], d["score"]
    if d["rounding"] == Conversion.TOTAL:  # the data holds the member (its text, once read back)
        exact = sum(part["value"] for part in d["money"])
        parts = " + ".join(f"{part['currency']} {show(part['amount'])}" for part in d["money"])
        return f"{d['player']}: {parts} = {_approx(exact)} {target} → {show(total)} {target}"
    shown = []
    for part in d["money"]:
        text = f"{part['currency']} {show(part['amount'])}"
        if part["currency"] != target and part["amount"]:
            text += f" = {_approx(part['value'])} {target}"
        if part["counted"] != part["value"]:
            text += f" → {show(part['counted'])}"
        shown.append(text)
    return _("{player}: {money}; total {score} {currency}").format(player=d["player"], money="; ".join(shown),
                                                                  score=show(total), currency=target)


def _winners(d: Data) -> str:
    winners, tied, best, target = d["winners"], d["tied"], show(d["score"]), d["currency"]
    if len(tied) == 1:
        return _("winner: {player} with {score} {currency}").format(player=winners[0], score=best, currency=target)
    held = ", ".join(f"{name} {n}" for name, n in d["certificates"].items())
    if len(winners) == 1:
        return _("{tied} tie at {score} {currency}; {player} holds the most {currency} certificates ({held}) and "
                 "wins").format(tied=_(" and ").join(tied), score=best, currency=target, player=winners[0], held=held)
    return _("{winners} tie at {score} {currency} with as many {currency} certificates ({held}): they share the "
             "win").format(winners=_(" and ").join(winners), score=best, currency=target, held=held)


STRONGEST = EventKind("FOREX-12.1", _strongest)
CONVERTED = EventKind("FOREX-12.2", _converted)
BANKRUPT_LAST = EventKind("FOREX-12.4", lambda d: _(
    "{player} is bankrupt: scores 0 and ranks last (would have {would_have} {currency})").format(
    player=d["player"], would_have=show(d["would_have"]), currency=d["currency"]))
WINNERS = EventKind("FOREX-12.3", _winners)
