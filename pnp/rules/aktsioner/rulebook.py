"""Акционер: the house-rule options of rules/aktsioner.md section 12, with their defaults.

Its own module so that every part of the engine can import it without an import cycle.
"""

from __future__ import annotations

import re
from typing import Any

from pnp.errors import brief
from pnp.spec.contract import Need
from pnp.spec.options import Option, Rulebook


def _formula(value: Any, game: Any = None) -> str:
    """'b+s': big and small cards dealt to each player (AKT-2.3)."""
    match = re.fullmatch(r"\s*(\d+)\s*\+\s*(\d+)\s*", str(value))
    if not match or isinstance(value, bool):
        raise ValueError(f'expected big+small cards such as "3+5", got {brief(value)}')
    big, small = int(match[1]), int(match[2])
    if big + small == 0:
        raise ValueError("a formula must deal at least one card")
    return f"{big}+{small}"


RULEBOOK = Rulebook(
    "aktsioner",
    options=(
        Option("formula", "3+5", "AKT-2.3", parse=_formula),
        Option("min_undealt", 2, "AKT-2.4", minimum=0),
        Option("rounding", "up", "AKT-5.2", choices=("up", "down")),
        Option("hundred_split", "permutation", "AKT-4.1", choices=("permutation", "free")),
        Option("equal_penalty_order", "higher_old_first", "AKT-7.5", choices=("higher_old_first", "lower_old_first")),
        Option("eliminate_broke", False, "AKT-A11"),
        Option("match", "seed_formula", "AKT-10.1", choices=("seed_formula", "single", "rotation_n")),
        Option("tiebreak", "shared", "AKT-9.3", choices=("shared",)),
        Option("start_price", 100, "AKT-2.2", set_by="tracks.price.start"),
        Option("start_shares", 1, "AKT-2.1", minimum=0),
        Option("start_cash", 0, "AKT-2.1", minimum=0),
        Option("price_min", 10, "AKT-1.2", set_by="tracks.price"),
        Option("price_max", 250, "AKT-1.2", set_by="tracks.price"),
        Option("price_step", 10, "AKT-1.2", set_by="tracks.price"),
    ),
    tables=("penalty", "deal"),
    needs=(
        Need.track("price", "AKT-1.2", "the price board", whole=True, cells=2),
        Need.deck("big_cards", "AKT-1.4", "the big cards", per_asset=True),
        Need.deck("small_cards", "AKT-1.5", "the small cards", per_asset=True),
    ),
    deal_limits_players=True,  # AKT-1.10
)
