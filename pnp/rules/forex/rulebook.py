"""For-Ex house rules (rules/forex.md §13), the values of each listed one as an enum, the
parsers of the structured ones, and what the registry reads of the game (`ABOUT`).

The spec and the referee check values against this one `RULEBOOK`, so components.yaml and a
game record cannot name an option the engine does not know.
"""

from __future__ import annotations

from typing import Any

from pnp.errors import brief
from pnp.rules.base import About
from pnp.spec.contract import Need
from pnp.spec.options import Choice, Option, Rulebook


class NoDividendSide(Choice):
    """FOREX-10.5.2: which side of a pair on the "8" space a dividend skips."""

    WEAKER = "weaker"
    BOTH = "both"


class SpotUnit(Choice):
    """FOREX-6.2, A5: a Spot Transaction is one buck of the stronger currency, or of either."""

    STRONGER_ONE = "stronger_one"
    ANY_ONE = "any_one"


class Conversion(Choice):
    """FOREX-12.2: what is rounded down when money is converted to the strongest currency."""

    PER_HOLDING = "per_holding"
    BGA = "bga"
    TOTAL = "total"


class BankruptPlayer(Choice):
    """FOREX-12.4: a bankrupt player scores 0 and ranks last, or is scored as the others."""

    LAST = "last"
    SCORED_NORMALLY = "scored_normally"


class End(Choice):
    """How a game of For-Ex ends (`Outcome.reason`, FOREX-11.1): a player goes Bankrupt, or the
    queue is resolved after the last dividend."""

    BANKRUPTCY = "bankruptcy"
    LAST_DIVIDEND = "last_dividend"


def ended(bankrupt: object) -> End:
    """How a finished game ended: with a bankrupt player, by bankruptcy; else by the last dividend."""
    return End.BANKRUPTCY if bankrupt is not None else End.LAST_DIVIDEND

# FOREX-2.3, stronger currency and box, every pair keyed in the bundled currency order. The
# bundled components.yaml writes the same table out; a spec with other currencies must too.
STANDARD_PAIRS: dict[str, tuple[str, int]] = {
    "GBP/EUR": ("GBP", 2), "GBP/USD": ("GBP", 1), "GBP/CHF": ("GBP", 2), "GBP/JPY": ("GBP", 2),
    "GBP/CAD": ("GBP", 3), "GBP/CNY": ("GBP", 7), "EUR/USD": ("EUR", 1), "EUR/CHF": ("EUR", 1),
    "EUR/JPY": ("EUR", 2), "EUR/CAD": ("EUR", 2), "EUR/CNY": ("EUR", 6), "USD/CHF": ("USD", 1),
    "USD/JPY": ("USD", 2), "USD/CAD": ("USD", 2), "USD/CNY": ("USD", 6), "CHF/JPY": ("CHF", 2),
    "CHF/CAD": ("CHF", 2), "CHF/CNY": ("CHF", 6), "JPY/CAD": ("JPY", 2), "JPY/CNY": ("JPY", 5),
    "CAD/CNY": ("CAD", 4),
}


def _track_size(game: Any) -> int:
    track = getattr(game, "tracks", {}).get("rate") if game is not None else None
    return track.size if track is not None else 10


def parse_start_pairs(value: Any, game: Any = None) -> dict[str, tuple[str, int]]:
    """FOREX-2.3 as {"GBP/EUR": ("GBP", 2)}: every pair once, keyed in currency order.

    Positions run 1 … the size of `tracks.rate` (10 boxes as bundled)."""
    if not isinstance(value, dict):
        raise ValueError('expected a mapping such as {"GBP/EUR": {stronger: GBP, position: 2}}')
    codes = [a.id for a in game.assets] if game is not None else None
    boxes = _track_size(game)
    pairs = {str(key): _start_pair(key, entry, codes, boxes) for key, entry in value.items()}
    if codes is not None:
        missing = [f"{a}/{b}" for i, a in enumerate(codes) for b in codes[i + 1:] if f"{a}/{b}" not in pairs]
        if missing:
            raise ValueError(f"missing pairs: {', '.join(missing)}")
    return pairs


def _pair_key(key: object, codes: list[str] | None) -> tuple[str, str]:
    """A pair's key "A/B" as its two currencies, A before B in the currency list (when the
    currencies are known)."""
    left, _, right = str(key).partition("/")
    if codes is not None:
        if left not in codes or right not in codes or codes.index(left) >= codes.index(right):
            raise ValueError(f'pair "{key}": write "A/B" with A before B in the currency list ({", ".join(codes)})')
    return left, right


def _start_pair(key: Any, entry: Any, codes: list[str] | None, boxes: int) -> tuple[str, int]:
    """One pair's start as (stronger, position): a key "A/B" in currency order (when the
    currencies are known), the stronger one of the two, a box of the rate track."""
    left, right = _pair_key(key, codes)
    if isinstance(entry, tuple) and len(entry) == 2:  # already parsed (the default)
        entry = {"stronger": entry[0], "position": entry[1]}
    if not isinstance(entry, dict) or set(entry) != {"stronger", "position"}:
        raise ValueError(f'pair "{key}": expected {{stronger: {left}, position: 1..{boxes}}}')
    stronger, position = entry["stronger"], entry["position"]
    if stronger not in (left, right):
        raise ValueError(f'pair "{key}": stronger must be {left} or {right}, got {brief(stronger)}')
    if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= boxes:
        raise ValueError(f'pair "{key}": position must be a whole number 1..{boxes}, got {brief(position)}')
    return stronger, position


def _dividends(value: Any, game: Any = None) -> tuple[int, ...]:
    """FOREX-10.5.1: the payout per certificate of each dividend, in resolution order."""
    if isinstance(value, (list, tuple)) and value and all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value
    ):
        return tuple(value)
    raise ValueError(f"expected a list of whole payouts ≥ 0 such as [0, 2, 2, 2, 3], got {brief(value)}")


RULEBOOK = Rulebook(
    "forex",
    options=(
        Option("removed_certificates", 6, "FOREX-4.3", minimum=0, maximum=56),
        Option("start_money", 2, "FOREX-4.2", minimum=0),
        Option("dividends", (0, 2, 2, 2, 3), "FOREX-10.5.1", parse=_dividends,
               set_by="components.dividends.pays"),  # the booklet names the deck
        Option("contract_max", 10, "FOREX-7.2", minimum=1),
        Option("loan_interest", 1, "FOREX-10.2", minimum=0),
        Option("cert_cap", 4, "FOREX-8.2", minimum=1),
        Option("certificate_price", 2, "FOREX-8.1", minimum=0),
        Option("no_dividend_side", NoDividendSide.WEAKER, "FOREX-10.5.2", choices=tuple(NoDividendSide)),
        Option("spot_unit", SpotUnit.STRONGER_ONE, "FOREX-6.2", choices=tuple(SpotUnit)),
        Option("voluntary_default", False, "FOREX-10.3"),
        Option("conversion_rounding", Conversion.PER_HOLDING, "FOREX-12.2", choices=tuple(Conversion)),
        Option("bankrupt_player", BankruptPlayer.LAST, "FOREX-12.4", choices=tuple(BankruptPlayer)),
        Option("start_pairs", STANDARD_PAIRS, "FOREX-2.3", parse=parse_start_pairs),
    ),
    tables=("start_positions", "dividends"),
    needs=(
        Need.track("rate", "FOREX-1.2", "the rate track", cells=2, minimum=1),
        Need.deck("dividends", "FOREX-10.5.1", "the Dividend cards", optional=True, data=("pays",)),
        Need.deck("certificates", "FOREX-1.6", "the certificates", optional=True, per_asset=True),
        Need.deck("contracts", "FOREX-1.4", "the contract cards", optional=True),
    ),
)

ABOUT = About("FOREX", End, playout=True, deal=True, referee="pnp.referee.forex")
