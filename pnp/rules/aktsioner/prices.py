"""New prices, rounding, bounds and the penalty per share (rules sections 5 and 7.1).

A card's changes are all computed from the prices before it (AKT-4.5): `change` gives, for
one colour, the calculated value, the new price, and what follows — an overflow above the top
of the board (AKT-6.2) or a zeroing below its bottom (AKT-7). The penalty table printed on the
aid is computed here too, so the aid and the referee share one formula.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pnp.i18n import _
from pnp.rules.aktsioner.cards import Effect, Number
from pnp.rules.aktsioner.params import Params
from pnp.rules.aktsioner.rulebook import Rounding
from pnp.rules.base import Table, fast_init


@fast_init
@dataclass(frozen=True)
class Change:
    """What one effect does to one colour's price."""

    colour: str
    effect: Effect
    old: int
    calc: Number  # before rounding and bounds (AKT-5.1)
    new: int  # the space the token moves to (AKT-5.4)
    bottom: int  # the board's range when the change was made
    top: int

    @property
    def overflow(self) -> Number:
        """Per-share bonus to every holder when calc passes the top (AKT-6.2), else 0."""
        return max(self.calc - self.top, 0)

    @property
    def zeroed(self) -> bool:
        """calc below the bottom (AKT-5.5); halving 10 gives 5: a zeroing, not a rounding (AKT-5.3)."""
        return self.calc < self.bottom

    @property
    def penalty(self) -> Number:
        """Per-share penalty for the mover's opponents on a zeroing (AKT-7.1), else 0."""
        return self.bottom - self.calc if self.zeroed else 0

    @property
    def drop(self) -> int:
        """Per-share compensation for the mover: old − new when the price falls (AKT-6.1, 6.3)."""
        return max(self.old - self.new, 0)

    @property
    def rounded(self) -> bool:
        """A value between two spaces moved to one of them (AKT-5.2)."""
        return self.bottom <= self.calc <= self.top and self.calc != self.new


def change(colour: str, effect: Effect, old: int, params: Params) -> Change:
    """Apply one effect to one colour (AKT-5.1 to 5.5)."""
    calc = effect.apply(old)
    return Change(colour, effect, old, calc, new_price(calc, params), params.price_min, params.price_max)


def new_price(calc: Number, params: Params) -> int:
    """Clamp to the board (AKT-5.4); a value between two spaces (105) is rounded (AKT-5.2)."""
    if calc >= params.price_max:
        return params.price_max
    if calc <= params.price_min:
        return params.price_min
    if calc in params.cells:
        return int(calc)
    if params.rounding is Rounding.UP:
        return min(cell for cell in params.cells if cell > calc)
    return max(cell for cell in params.cells if cell < calc)


def penalty_per_share(old: int, decrease: int, params: Params) -> Number:
    """AKT-7.1: decrease + bottom − old when the price is pushed below the bottom, else 0."""
    return change("", Effect("+", -decrease), old, params).penalty


def penalty_table(params: Params) -> Table:
    """AKT-7.6: penalty per share by decrease (rows) and old price (columns); "—" = no zeroing.

    Rows are the decreases printed on the cards (10 … 60); columns the prices a decrease on
    the cards can zero (10 … 60).
    """
    decreases = _decreases(params)
    deepest, bottom = max(decreases, default=0), params.price_min
    olds = [cell for cell in params.cells if cell - deepest < params.price_min]
    rows = tuple(
        (str(decrease), *(_cell(penalty_per_share(old, decrease, params)) for old in olds)) for decrease in decreases
    )
    return Table(
        header=(_("decrease \\ old"), *(str(old) for old in olds)),
        rows=rows,
        caption=_("penalty = decrease + {bottom} − old; {bottom} ÷ 2 → {halved}").format(
            bottom=bottom, halved=_cell(bottom - Fraction(bottom, 2))),
    )


def _decreases(params: Params) -> list[int]:
    """Every decrease a card prints (its own effect or one on others), smallest first."""
    effects = [effect for card in params.cards.values() for effect in (card.own, *card.others)]
    return sorted({-effect.amount for effect in effects if effect.op == "+" and effect.amount < 0})


def _cell(value: Number) -> str:
    if not value:
        return "—"
    return str(int(value)) if Fraction(value).denominator == 1 else f"{float(value):g}"
