"""Bolsa's house-rule options (rules/bolsa.md section 8), named as in the rules file, the values
of each listed one as an enum, and what the registry reads of the game (`ABOUT`).

Kept apart from the engine because the spec layer reads this rulebook on every load.
"""

from __future__ import annotations

from pnp.rules.base import About
from pnp.spec.contract import Need
from pnp.spec.options import Choice, Option, Rulebook


class CashCheck(Choice):
    """BOLSA-3.2.5: whether a declaration's requests at today's quotes must fit the cash held."""

    TOTAL = "total"
    NONE = "none"


class BothWays(Choice):
    """BOLSA-3.2.6: offering and requesting one company in a round."""

    FORBID = "forbid"
    NET = "net"


class Trigger(Choice):
    """BOLSA-4.5, A2: how many players of the excess side start an auction (2, or under
    `literal` 3 sellers, as the rules' text says)."""

    TWO = "excess_side_players>=2"
    LITERAL = "literal"


class Losers(Choice):
    """BOLSA-5.7: whether the losers of an auction trade at its price or may take their cards back."""

    MUST_TRADE = "must_trade"
    MAY_WITHDRAW = "may_withdraw"


class Bounds(Choice):
    """BOLSA-6.1: quotes clamped to the track, or without a top."""

    CLAMP = "clamp"
    UNBOUNDED_TOP = "unbounded_top"


class Tiebreak(Choice):
    """BOLSA-7.2: equal money shares the win, or the cash before the payout breaks the tie."""

    SHARED = "shared"
    CASH_BEFORE_PAYOUT = "cash_before_payout"


class End(Choice):
    """How a game of Bolsa ends (`Outcome.reason`): after its last round (BOLSA-3.5.2)."""

    LAST_ROUND = "last_round"


RULEBOOK = Rulebook(
    "bolsa",
    options=(
        Option("rounds", 5, "BOLSA-3.1", minimum=1, maximum=10),
        Option("declaration_cash_check", CashCheck.TOTAL, "BOLSA-3.2.5", choices=tuple(CashCheck)),
        Option("same_company_both_ways", BothWays.FORBID, "BOLSA-3.2.6", choices=tuple(BothWays)),
        Option("auction_trigger", Trigger.TWO, "BOLSA-4.5", choices=tuple(Trigger)),
        Option("auction_losers", Losers.MUST_TRADE, "BOLSA-5.7", choices=tuple(Losers)),
        Option("price_bounds", Bounds.CLAMP, "BOLSA-6.1", choices=tuple(Bounds)),
        Option("start_quote", 10, "BOLSA-2.1", minimum=0, set_by="tracks.quote.start"),
        Option("start_cash", 50, "BOLSA-2.2", minimum=0),
        Option("tiebreak", Tiebreak.SHARED, "BOLSA-7.2", choices=tuple(Tiebreak)),
    ),
    tables=("deal",),
    needs=(Need.track("quote", "BOLSA-1.3", "the quote board", whole=True, step=1, cells=2),),
)

ABOUT = About("BOLSA", End, playout=True, deal=False, referee="pnp.referee.bolsa")
