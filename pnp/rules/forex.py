"""For-Ex — rules engine (rules/forex.md)."""

from __future__ import annotations

from typing import Any

from pnp.spec.options import Option, Rulebook


def _start_pairs(value: Any, game: Any = None) -> dict[str, tuple[str, int]]:
    """FOREX-2.3 as {"GBP/EUR": ("GBP", 2)}: every pair once, keyed in currency order."""
    if not isinstance(value, dict):
        raise ValueError('expected a mapping such as {"GBP/EUR": {stronger: GBP, position: 2}}')
    codes = [a.id for a in game.assets] if game is not None else None
    pairs: dict[str, tuple[str, int]] = {}
    for key, entry in value.items():
        left, _, right = str(key).partition("/")
        if codes is not None:
            if left not in codes or right not in codes or codes.index(left) >= codes.index(right):
                raise ValueError(f'pair "{key}": write "A/B" with A before B in the currency list ({", ".join(codes)})')
        if not isinstance(entry, dict) or set(entry) != {"stronger", "position"}:
            raise ValueError(f'pair "{key}": expected {{stronger: {left}, position: 1..10}}')
        stronger, position = entry["stronger"], entry["position"]
        if stronger not in (left, right):
            raise ValueError(f'pair "{key}": stronger must be {left} or {right}, got {stronger!r}')
        if isinstance(position, bool) or not isinstance(position, int) or not 1 <= position <= 10:
            raise ValueError(f'pair "{key}": position must be a whole number 1..10, got {position!r}')
        pairs[str(key)] = (stronger, position)
    if codes is not None:
        missing = [f"{a}/{b}" for i, a in enumerate(codes) for b in codes[i + 1:] if f"{a}/{b}" not in pairs]
        if missing:
            raise ValueError(f"missing pairs: {', '.join(missing)}")
    return pairs


RULEBOOK = Rulebook(
    "forex",
    options=(
        Option("removed_certificates", 6, "FOREX-4.3", minimum=0, maximum=56),
        Option("start_money", 2, "FOREX-4.2", minimum=0),
        Option("dividends", (0, 2, 2, 2, 3), "FOREX-10.5.1", set_by="the `pays` data of the dividends deck"),
        Option("contract_max", 10, "FOREX-7.2", minimum=1),
        Option("loan_interest", 1, "FOREX-10.2", minimum=0),
        Option("cert_cap", 4, "FOREX-8.2", minimum=1),
        Option("certificate_price", 2, "FOREX-8.1", minimum=0),
        Option("no_dividend_side", "weaker", "FOREX-10.5.2", choices=("weaker", "both")),
        Option("spot_unit", "stronger_one", "FOREX-6.2", choices=("stronger_one", "any_one")),
        Option("voluntary_default", False, "FOREX-10.3"),
        Option("conversion_rounding", "per_holding", "FOREX-12.2", choices=("per_holding", "bga", "total")),
        Option("bankrupt_player", "last", "FOREX-12.4", choices=("last", "scored_normally")),
        Option("start_pairs", {}, "FOREX-2.3", parse=_start_pairs),
    ),
    tables=("start_positions",),
)
