"""Every kind of event For-Ex's engine reports: its rule and the sentence made from its data.

Amounts are exact (`Fraction`) in the data and shown as the rules file writes them (4.5, 1½ for
a rate); money is `{currency: amount}`; a pair moved on the board is `{stronger, weaker,
position, note}`; the queue is its labels, front first ("dividend 2", "contract B Ana").
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from pnp.rules.base import EventKind
from pnp.rules.forex.params import show, show_rate

Data = Mapping[str, Any]


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
    return ", ".join(_pair(m) + (f" ({m['note']})" if m["note"] else "") for m in moves)


def _queue(labels: list[str]) -> str:
    return ", ".join(labels) or "empty"


def _terms(d: Data) -> str:
    (pay, paid), (gets, got) = _one(d["pay"]), _one(d["receive"])
    return f"pay {show(paid)} {pay}, receive {show(got)} {gets}"


# --- setup, turns (FOREX-4, 6 to 9) --------------------------------------------------------------

SUPPLY = EventKind("FOREX-4.3", lambda d: f"{d['players']} players; {sum(d['supply'].values())} certificates in the "
                   f"supply ({', '.join(f'{c} {n}' for c, n in d['supply'].items())})")
DISPLAY = EventKind("FOREX-4.4", lambda d: f"contract display {', '.join(d['display']) or 'empty'}; "
                    f"queue {_queue(d['queue'])}")
SPOT = EventKind("FOREX-6.2", lambda d: f"spot: {d['player']} gives {d['other']} {_money(d['give'])} for "
                 f"{_money(d['get'])} ({_pair(d)}, rate {show_rate(d['rate'])})")
CONTRACT = EventKind("FOREX-7.3", lambda d: f"{d['player']} makes contract {d['set']} at {_pair(d)} "
                     f"(rate {show_rate(d['rate'])}): {_terms(d)}")
CONTRACT_CARDS = EventKind("FOREX-7.4", lambda d: f"one card of set {d['set']} to {d['player']}, one to the back of "
                           f"the queue ({_queue(d['queue'])}), one to the display with the terms")
CERTIFICATE = EventKind("FOREX-8.1", lambda d: f"{d['player']} buys a {d['currency']} certificate for "
                        f"{show(d['price'])} {d['currency']} ({d['held']} held, {d['supply']} left in the supply)")
STRENGTHENED = EventKind("FOREX-8.3", lambda d: f"{d['currency']} strengthened: {_moved(d['moved'])}")
SOLD = EventKind("FOREX-9.1", lambda d: f"{d['player']} sells no {d['currency']} certificate" if not d["count"] else
                 f"{d['player']} sells {d['count']} {d['currency']} certificate{'s' * (d['count'] > 1)} for "
                 f"{show(d['proceeds'])} {d['currency']}; they leave the game")  # FOREX-9.2 for the others
WEAKENED = EventKind("FOREX-9.3", lambda d: f"{d['currency']} weakened ({d['time']} of {d['of']}): "
                     f"{_moved(d['moved'])}")

# --- the queue (FOREX-10) and the end (FOREX-11) ----------------------------------------------------

CONTRACT_PAID = EventKind("FOREX-10.1", lambda d: f"contract {d['set']}: {d['owner']} pays {_money(d['pay'])} and "
                          f"receives {_money(d['receive'])}; set {d['set']} returns to the display")


def _defaulted(d: Data) -> str:
    (pay, paid), (held,) = _one(d["pay"]), (d["holds"],)
    why = (f"defaults by choice (holds {show(held)} {pay})" if d["by_choice"] else
           f"holds {show(held)} {pay}, cannot pay {show(paid)}")
    return (f"contract {d['set']}: {d['owner']} {why} → receives {_money(d['receive'])} and owes {_money(d['owe'])} "
            f"({show(paid)} + {show(d['interest'])} interest)")


DEFAULTED = EventKind("FOREX-10.2", _defaulted)
LOAN = EventKind("FOREX-10.2.1", lambda d: f"loan {d['set']} ({_money(d['owe'])}) goes to the back: "
                 f"queue {_queue(d['queue'])}")
LOAN_GROWS = EventKind("FOREX-10.2.2", lambda d: f"the debt joins {d['owner']}'s loan {d['loan']}, which keeps its "
                       f"place: loan {d['loan']} = {_money(d['owe'])}; set {d['set']} returns to the display")
LOAN_PAID = EventKind("FOREX-10.4", lambda d: f"loan {d['set']}: {d['owner']} pays {_money(d['owe'])}; set {d['set']} "
                      "returns to the display")
BANKRUPT = EventKind("FOREX-10.4", lambda d: f"loan {d['set']}: {d['owner']} owes {_money(d['owe'])} but holds "
                     + ", ".join(f"{c} {show(a)}" for c, a in d["holds"].items())
                     + f", cannot pay {_money(d['short'], ' and ')} → Bankrupt")
DIVIDEND = EventKind("FOREX-10.5.1", lambda d: f"dividend {d['dividend']} pays {d['pays']} per certificate: " + "; ".join(
    f"{name} " + (", ".join(f"+{show(a)} {c}" for c, a in got.items()) or "nothing") for name, got in d["gains"].items()))
NO_DIVIDEND = EventKind("FOREX-10.5.2", lambda d: f"{d['currency']} certificates pay nothing: {d['currency']} is "
                        f"{'a side' if d['side'] == 'either' else 'the weaker side'} of {d['pair']} on the “8” space")


def _most_held(d: Data) -> str:
    held, tied, most = d["held"], d["tied"], d["most"]
    others = ", ".join(f"{c} {held[c]}" for c in sorted(held, key=lambda c: -held[c]) if held[c] and c not in tied)
    reason = f"{most} certificate{'s' * (most != 1)} in hand" + (f"; then {others}" if others else "")
    how = f"{d['picked_by']} picks {d['currency']} among {', '.join(tied)}" if len(tied) > 1 else \
        f"most in hand: {d['currency']}"
    return f"{how} ({reason}) → {d['currency']} strengthened: {_moved(d['moved'])}"


MOST_HELD = EventKind("FOREX-10.5.3", _most_held)
DIVIDEND_BACK = EventKind("FOREX-10.5.4", lambda d: f"the Dividend stack goes to the back: queue {_queue(d['queue'])}")
LAST_DIVIDEND = EventKind("FOREX-10.5.5", lambda d: "last dividend resolved: no more turns; " + (
    f"the rest of the queue resolves in order: {_queue(d['queue'])}" if d["queue"] else "the queue is empty"))
GAME_OVER = EventKind("FOREX-11.1", lambda d: "game over: " + (f"{d['bankrupt']} is Bankrupt" if d["bankrupt"] else
                                                                "the queue is empty after the last dividend"))

# --- scoring (FOREX-12) ---------------------------------------------------------------------------------


def _strongest(d: Data) -> str:
    if d["held"]:
        reason = (f"{', '.join(d['held'])} win {d['pairs']} pairs each; certificates in hand: "
                  + ", ".join(f"{c} {n}" for c, n in d["held"].items()))
    else:
        reason = f"stronger side of {d['pairs']} pairs"
    text = f"strongest currency: {d['currency']} ({reason})"
    return text + (f"; {d['picked_by']}, who ended the game, picks {d['currency']}" if d["picked_by"] else "")


def _approx(value: Any) -> str:
    text = show(value)
    return text if "/" not in text else f"{float(value):.2f}"


def _converted(d: Data) -> str:
    target, total = d["currency"], d["score"]
    if d["rounding"] == "total":
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
    return f"{d['player']}: {'; '.join(shown)}; total {show(total)} {target}"


def _winners(d: Data) -> str:
    winners, tied, best, target = d["winners"], d["tied"], show(d["score"]), d["currency"]
    if len(tied) == 1:
        return f"winner: {winners[0]} with {best} {target}"
    held = ", ".join(f"{name} {n}" for name, n in d["certificates"].items())
    if len(winners) == 1:
        return (f"{' and '.join(tied)} tie at {best} {target}; {winners[0]} holds the most {target} certificates "
                f"({held}) and wins")
    return f"{' and '.join(winners)} tie at {best} {target} with as many {target} certificates ({held}): they share the win"


STRONGEST = EventKind("FOREX-12.1", _strongest)
CONVERTED = EventKind("FOREX-12.2", _converted)
BANKRUPT_LAST = EventKind("FOREX-12.4", lambda d: f"{d['player']} is bankrupt: scores 0 and ranks last "
                          f"(would have {show(d['would_have'])} {d['currency']})")
WINNERS = EventKind("FOREX-12.3", _winners)
