"""Bolsa's parameters: the spec's facts and the house rules, read once.

Everything the engine needs from components.yaml is read once into `Params` — companies in
board order, the quote track, the share deck, starting cash, house rules — so the board that
is printed and the rules that are refereed cannot disagree.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from pnp.errors import brief
from pnp.rules.base import Malformed, resolve_options
from pnp.rules.bolsa.rulebook import RULEBOOK, BothWays, Bounds, CashCheck, Losers, Tiebreak, Trigger
from pnp.spec.contract import Mismatch

if TYPE_CHECKING:
    from pnp.spec.model import Game

OWNED_AT_SETUP = 1  # BOLSA-2.3: one card of each company in zone 1 ...
ORDERS_AT_SETUP = 2  # ... and two in zone 2
CARDS_EACH = OWNED_AT_SETUP + ORDERS_AT_SETUP  # BOLSA-2.6: per player and company, in zones 1–4


@dataclass(frozen=True)
class Params:
    """Resolved house rules and the spec facts the rules depend on."""

    companies: tuple[str, ...]  # board order = resolution order (BOLSA-1.1, 3.3.2)
    start_quote: int
    start_cash: int
    rounds: int
    board_cells: int  # cells per quote row (20): a flipped token adds this (BOLSA-1.3)
    price_min: int
    price_max: int | None  # None under price_bounds = unbounded_top (BOLSA-6.1)
    min_players: int
    max_players: int
    deck_per_company: int  # share cards of each company in the box (BOLSA-1.7)
    declaration_cash_check: CashCheck = CashCheck.TOTAL
    same_company_both_ways: BothWays = BothWays.FORBID
    auction_trigger: Trigger = Trigger.TWO
    auction_losers: Losers = Losers.MUST_TRADE
    price_bounds: Bounds = Bounds.CLAMP
    tiebreak: Tiebreak = Tiebreak.SHARED

    def company(self, code: str) -> int:
        try:
            return self.companies.index(code)
        except ValueError:
            raise Malformed(f"unknown company {brief(code)} (known: {', '.join(self.companies)})") from None

    @property
    def top_cell(self) -> int:
        """The last cell of a quote row (19); above it the token is flipped."""
        return self.price_min + self.board_cells - 1


def params(game: Game, overrides: Mapping[str, Any] | None = None) -> Params:
    """Params from the spec's bolsa game and a record's `options` (already checked)."""
    from pnp.spec.faces import deck_pieces  # with the spec's model, loaded when a spec is read
    quote = game.tracks.get("quote")
    if quote is None:
        raise Mismatch(("tracks",), "bolsa needs a track `quote` (the quote board, BOLSA-1.3)")
    derived = {"start_quote": int(quote.start)} if quote.start is not None else {}
    values = resolve_options(RULEBOOK, game, derived, overrides)
    low, size = int(quote.cells[0]), quote.size
    cards = Counter(
        piece.front.asset.id
        for deck in game.components
        if deck.kind == "deck"
        for piece in deck_pieces(game, deck)
        if piece.front.asset is not None
    )
    companies = tuple(asset.id for asset in game.assets)
    return Params(
        companies=companies,
        start_quote=int(values["start_quote"]),
        start_cash=int(values["start_cash"]),
        rounds=int(values["rounds"]),
        board_cells=size,
        price_min=low,
        price_max=None if Bounds(values["price_bounds"]) is Bounds.UNBOUNDED_TOP else low + 2 * size - 1,
        min_players=game.players.min,
        max_players=game.players.max,
        deck_per_company=min((cards[code] for code in companies), default=0),
        declaration_cash_check=CashCheck(values["declaration_cash_check"]),
        same_company_both_ways=BothWays(values["same_company_both_ways"]),
        auction_trigger=Trigger(values["auction_trigger"]),
        auction_losers=Losers(values["auction_losers"]),
        price_bounds=Bounds(values["price_bounds"]),
        tiebreak=Tiebreak(values["tiebreak"]),
    )
