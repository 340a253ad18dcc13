"""The currency board: pairs, rates, strengthening and weakening, and the setup diagram.

A pair counter sits on the stronger currency's track at a position 1 … N (FOREX-2.1); one buck
of the stronger is worth rate(position) bucks of the weaker. Strengthening a currency moves
each of its pairs one box in its favour, flipping at 1:1 and stopping at the "8" space
(FOREX-3.1, 3.2). The printed setup diagram and marks are computed here from the same
`start_pairs` the engine starts from.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pnp.errors import brief
from pnp.i18n import _
from pnp.rules.base import Malformed, Marks, Table, evolve, fast_init
from pnp.rules.forex.params import Params, show_rate
from pnp.rules.forex.rulebook import NoDividendSide


@fast_init
@dataclass(frozen=True)
class Pair:
    """One pair counter: `a`/`b` in currency order, the stronger side and its box."""

    a: str
    b: str
    stronger: str
    position: int

    @property
    def key(self) -> str:
        return f"{self.a}/{self.b}"

    @property
    def weaker(self) -> str:
        return self.b if self.stronger == self.a else self.a

    def other(self, currency: str) -> str:
        return self.b if currency == self.a else self.a

    def label(self) -> str:
        """"GBP>CNY 7" as the rules file writes a pair."""
        return f"{self.stronger}>{self.weaker} {self.position}"


def start_pairs(p: Params) -> tuple[Pair, ...]:
    """FOREX-2.3 / 4.1: every pair counter on its starting box, in pair-key order."""
    pairs = []
    for key, stronger, position in p.start_pairs:
        a, b = key.split("/")
        pairs.append(Pair(a, b, stronger, position))
    return tuple(pairs)


def find(pairs: tuple[Pair, ...], x: str, y: str) -> Pair:
    """The pair of currencies x and y (either order); Malformed when they are none."""
    for pair in pairs:
        if (pair.a == x and pair.b == y) or (pair.a == y and pair.b == x):
            return pair
    raise Malformed(f"{brief(x)} and {brief(y)} are not two currencies of the game")


def value_in(pairs: tuple[Pair, ...], p: Params, amount: Fraction, currency: str, target: str) -> Fraction:
    """What `amount` bucks of `currency` are worth in `target` at the current rates (exact)."""
    if currency == target:
        return amount
    pair = find(pairs, currency, target)
    rate = p.rate(pair.position)
    return amount * rate if pair.stronger == currency else amount / rate


def strengths(pairs: tuple[Pair, ...], p: Params) -> dict[str, int]:
    """FOREX-2.4: pairs won per currency, in currency order."""
    counts = dict.fromkeys(p.currencies, 0)
    for pair in pairs:
        counts[pair.stronger] += 1
    return counts


def eight_space(pairs: tuple[Pair, ...], p: Params) -> dict[str, str]:
    """FOREX-10.5.2: currencies whose certificates pay nothing → the pair that stops them."""
    stopped: dict[str, str] = {}
    for pair in pairs:
        if pair.position == p.boxes:
            stopped.setdefault(pair.weaker, pair.key)
            if p.no_dividend_side is NoDividendSide.BOTH:
                stopped.setdefault(pair.stronger, pair.key)
    return stopped


def shift(pairs: tuple[Pair, ...], p: Params, currency: str, stronger: bool,
          notes: bool = True) -> tuple[tuple[Pair, ...], list[dict[str, Any]]]:
    """Strengthen (FOREX-3.1) or weaken (FOREX-3.2) `currency` once: every one of its pairs
    moves one box in (or against) its favour. Returns the pairs and what moved, in the order of
    the other currency: {stronger, weaker, position, note} with note "flip", "at the cap" or
    None (none listed without `notes`: nobody reads the events)."""
    moved: list[Pair] = []
    noted: list[tuple[int, dict[str, Any]]] = []
    for pair in pairs:
        if currency not in (pair.a, pair.b):
            moved.append(pair)
            continue
        gains = (pair.stronger == currency) == stronger  # the pair's stronger side gains
        if gains:
            new = evolve(pair, position=min(pair.position + 1, p.boxes))
            note = "at the cap" if new.position == pair.position else None
        elif pair.position > 1:
            new, note = evolve(pair, position=pair.position - 1), None
        else:
            new, note = evolve(pair, stronger=pair.weaker), "flip"
        moved.append(new)
        if notes:
            noted.append((p.index(pair.other(currency)),
                          {"stronger": new.stronger, "weaker": new.weaker, "position": new.position, "note": note}))
    return tuple(moved), [note for _, note in sorted(noted, key=lambda item: item[0])]


# --- printed setup (FOREX-2.3) -------------------------------------------------------------------


def _by_strength(pairs: tuple[Pair, ...], p: Params) -> list[str]:
    counts = strengths(pairs, p)
    return sorted(p.currencies, key=lambda c: (-counts[c], p.index(c)))


def _start_cell(p: Params, pairs: tuple[Pair, ...], row: str, column: str) -> str:
    """"box 2 (1½)" where the row's currency starts stronger than the column's, else "—"."""
    pair = find(pairs, row, column) if row != column else None
    if pair is not None and pair.stronger == row:
        return _("box {n} ({rate})").format(n=pair.position, rate=show_rate(p.rate(pair.position)))
    return "—"


def tables(p: Params) -> dict[str, Table]:
    """`dividends`: the payout per certificate of each dividend in turn (FOREX-10.5.1), read
    from the Dividend cards. `start_positions`: rows = the stronger currency, columns = the weaker, cells
    "box 2 (1½)" (position and rate) or "—" where the column currency is not the weaker."""
    pairs = start_pairs(p)
    order = _by_strength(pairs, p)
    rows = [c for c in order if any(pair.stronger == c for pair in pairs)]
    columns = [c for c in order if any(pair.weaker == c for pair in pairs)]
    body = [(row, *(_start_cell(p, pairs, row, column) for column in columns)) for row in rows]
    caption = _(
        "Each pair counter starts on the stronger currency's track (the row) in the box shown, "
        "weaker side up; the rate in brackets is how many bucks of the weaker currency one buck "
        "of the stronger is worth."
    )
    return {"start_positions": Table((_("stronger \\ weaker"), *columns), tuple(body), caption),
            "dividends": _dividends(p)}


def _dividends(p: Params) -> Table:
    """FOREX-10.5.1: the payout per certificate of each dividend in turn."""
    return Table((_("Dividend"), *(str(n) for n in range(1, len(p.dividends) + 1))),
                 ((_("Pays per certificate"), *(str(d) for d in p.dividends)),),
                 _("In the order the Dividend cards are resolved; after the last one there are no more turns."))


def marks(p: Params) -> dict[str, Marks]:
    """`start_positions`: (currency, 0-based box) → the weaker currencies whose counters start
    there on that track, e.g. ("GBP", 1) → ("EUR", "CHF", "JPY")."""
    found: dict[tuple[str, int], list[str]] = {}
    for pair in start_pairs(p):
        found.setdefault((pair.stronger, pair.position - 1), []).append(pair.weaker)
    return {"start_positions": {spot: tuple(sorted(labels, key=p.index)) for spot, labels in found.items()}}
