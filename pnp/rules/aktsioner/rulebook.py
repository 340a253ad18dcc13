"""Акционер: the house-rule options of rules/aktsioner.md section 12, with their defaults, the
values of each listed one as an enum, and what the registry reads of the game (`ABOUT`).

Its own module so that every part of the engine can import it without an import cycle.
"""

from __future__ import annotations

import re
from typing import Any

from pnp.errors import brief
from pnp.rules.base import About
from pnp.spec.contract import Need
from pnp.spec.options import Choice, Option, Rulebook


class Rounding(Choice):
    """AKT-5.2: a calculated price between two spaces moves to the higher one, or the lower."""

    UP = "up"
    DOWN = "down"


class HundredSplit(Choice):
    """AKT-4.1: a card's uncoloured numbers are assigned one each, or any of them to each colour."""

    PERMUTATION = "permutation"
    FREE = "free"


class PenaltyOrder(Choice):
    """AKT-7.5: of two zeroed colours with equal penalties, the dearer one before is paid first, or the cheaper."""

    HIGHER_OLD_FIRST = "higher_old_first"
    LOWER_OLD_FIRST = "lower_old_first"


class Match(Choice):
    """AKT-10.1: how many games a match has."""

    SEED_FORMULA = "seed_formula"
    SINGLE = "single"
    ROTATION_N = "rotation_n"


class Tiebreak(Choice):
    """AKT-9.3: equal capital shares the win."""

    SHARED = "shared"


class End(Choice):
    """How a game of Акционер ends (`Outcome.reason`): every card dealt has been played (AKT-9.1)."""

    ALL_CARDS_PLAYED = "all_cards_played"


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
        Option("rounding", Rounding.UP, "AKT-5.2", choices=tuple(Rounding)),
        Option("hundred_split", HundredSplit.PERMUTATION, "AKT-4.1", choices=tuple(HundredSplit)),
        Option("equal_penalty_order", PenaltyOrder.HIGHER_OLD_FIRST, "AKT-7.5", choices=tuple(PenaltyOrder)),
        Option("eliminate_broke", False, "AKT-A11"),
        Option("match", Match.SEED_FORMULA, "AKT-10.1", choices=tuple(Match)),
        Option("tiebreak", Tiebreak.SHARED, "AKT-9.3", choices=tuple(Tiebreak)),
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

ABOUT = About("AKT", End, playout=True, deal=True, referee="pnp.referee.aktsioner")
