"""Bolsa's house-rule options (rules/bolsa.md section 8), named as in the rules file.

Kept apart from the engine because the spec layer reads this rulebook on every load.
"""

from __future__ import annotations

from pnp.spec.contract import Need
from pnp.spec.options import Option, Rulebook

RULEBOOK = Rulebook(
    "bolsa",
    options=(
        Option("rounds", 5, "BOLSA-3.1", minimum=1, maximum=10),
        Option("declaration_cash_check", "total", "BOLSA-3.2.5", choices=("total", "none")),
        Option("same_company_both_ways", "forbid", "BOLSA-3.2.6", choices=("forbid", "net")),
        Option("auction_trigger", "excess_side_players>=2", "BOLSA-4.5", choices=("excess_side_players>=2", "literal")),
        Option("auction_losers", "must_trade", "BOLSA-5.7", choices=("must_trade", "may_withdraw")),
        Option("price_bounds", "clamp", "BOLSA-6.1", choices=("clamp", "unbounded_top")),
        Option("start_quote", 10, "BOLSA-2.1", minimum=0, set_by="tracks.quote.start"),
        Option("start_cash", 50, "BOLSA-2.2", minimum=0),
        Option("tiebreak", "shared", "BOLSA-7.2", choices=("shared", "cash_before_payout")),
    ),
    tables=("deal",),
    needs=(Need.track("quote", "BOLSA-1.3", "the quote board", whole=True, step=1, cells=2),),
)
