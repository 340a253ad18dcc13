"""The numbers a For-Ex game is played with, read from the spec so board and referee agree.

Currencies and their order, the rate track, the starting pairs, the dividend payouts, the
certificates per currency and the contract letters all come from components.yaml; the house
rules of §13 come from `rules:` and, in a referee record, from `options:`. Money is exact:
amounts are `Fraction`s (halves arise from rates 1.5, 2.5, 3.5), never floats.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from typing import TYPE_CHECKING, Any, Mapping

from pnp.errors import brief
from pnp.rules.base import Malformed, resolve_options
from pnp.rules.forex.rulebook import RULEBOOK, BankruptPlayer, Conversion, NoDividendSide, SpotUnit, parse_start_pairs
from pnp.spec.contract import Mismatch

if TYPE_CHECKING:
    from pnp.spec.model import Deck, Game

STANDARD_CERTIFICATES = 8  # FOREX-1.6, when the spec has no certificates deck
STANDARD_SETS = ("A", "B", "C", "D", "E", "F")  # FOREX-1.4, when the spec has no contracts deck


@dataclass(frozen=True)
class Params:
    """Resolved options and spec facts; everything the engine reads besides the state."""

    currencies: tuple[str, ...]  # board order = pair-key order
    rates: tuple[Fraction, ...]  # rate of box 1 … box N (N = the "8" space)
    start_pairs: tuple[tuple[str, str, int], ...]  # (key, stronger, position) in pair order
    certificates: tuple[int, ...]  # per currency, before any are removed
    sets: tuple[str, ...]  # contract-set letters, in taking order
    dividends: tuple[int, ...]  # payout per certificate, 1st … last dividend
    removed_certificates: int = 6
    start_money: Fraction = Fraction(2)
    contract_max: int = 10
    loan_interest: Fraction = Fraction(1)
    cert_cap: int = 4
    certificate_price: Fraction = Fraction(2)
    no_dividend_side: NoDividendSide = NoDividendSide.WEAKER
    spot_unit: SpotUnit = SpotUnit.STRONGER_ONE
    voluntary_default: bool = False
    conversion_rounding: Conversion = Conversion.PER_HOLDING
    bankrupt_player: BankruptPlayer = BankruptPlayer.LAST
    min_players: int = 2
    max_players: int = 6

    @property
    def boxes(self) -> int:
        """Positions run 1 … boxes; the last box is the "8" space (the cap)."""
        return len(self.rates)

    def rate(self, position: int) -> Fraction:
        return self.rates[position - 1]

    def index(self, currency: str) -> int:
        try:
            return self._indices[currency]
        except KeyError:
            raise Malformed(f"{brief(currency)} is not a currency of the game") from None

    @cached_property
    def _indices(self) -> dict[str, int]:
        return {currency: i for i, currency in enumerate(self.currencies)}

    def spot_terms(self, stronger: str, weaker: str, position: int) -> tuple[tuple[str, Fraction, str, Fraction], ...]:
        """FOREX-6.2: the Spot Transactions a pair allows, (gives, amount, gets, amount): one
        buck of the stronger for the rate in the weaker, either way; under `any_one` one buck of
        either side for its worth in the other, wherever notes can pay that worth (FOREX-A5: a rate
        track in fifths makes 1.2 bucks, which no note pays)."""
        sides = {True: (stronger, weaker), False: (weaker, stronger)}
        return tuple((sides[first][0], x, sides[first][1], y) for first, x, y in self.spot_units[position - 1])

    @cached_property
    def spot_units(self) -> tuple[tuple[tuple[bool, Fraction, Fraction], ...], ...]:
        """Per position, each Spot as (the stronger gives?, amount given, amount got): the same
        numbers at every turn, so computed once (a For-Ex turn asks for every pair's)."""
        found = []
        for rate in self.rates:
            terms = [(True, Fraction(1), rate), (False, rate, Fraction(1))]
            if self.spot_unit is SpotUnit.ANY_ONE:  # FOREX-A5: either side's one buck, where notes pay the other side
                terms += [(False, Fraction(1), 1 / rate), (True, 1 / rate, Fraction(1))]
                terms = [(first, x, y) for first, x, y in terms if payable(x) and payable(y)]
            found.append(tuple(dict.fromkeys(terms)))
        return tuple(found)


def params(game: Game, overrides: Mapping[str, Any] | None = None) -> Params:
    """Params for `game` with a record's `options` on top (already checked by the rulebook).

    Raises Mismatch (a ValueError) where the spec lacks what the engine needs (a rate track,
    every pair)."""
    decks = _deck_facts(game)
    values = resolve_options(RULEBOOK, game, {"dividends": decks["dividends"]}, overrides)
    if "rate" not in game.tracks:
        raise Mismatch(("tracks",), "forex needs a track `rate` (the ten boxes 1 … 8, FOREX-1.2)")
    try:  # re-checked against this game: a record's start_pairs was read without the spec
        pairs = parse_start_pairs(dict(values["start_pairs"]), game)
    except ValueError as error:
        raise Mismatch(("rules", "start_pairs"), f"{error} (FOREX-2.3)") from None
    currencies = tuple(a.id for a in game.assets)
    return Params(
        currencies=currencies,
        rates=tuple(Fraction(str(v)) for v in game.tracks["rate"].cells),
        start_pairs=tuple((f"{a}/{b}", *pairs[f"{a}/{b}"]) for a, b in combinations(currencies, 2)),
        certificates=tuple(decks["certificates"].get(c, 0) for c in currencies),
        sets=decks["sets"],
        dividends=tuple(values["dividends"]),
        removed_certificates=values["removed_certificates"],
        start_money=Fraction(values["start_money"]),
        contract_max=values["contract_max"],
        loan_interest=Fraction(values["loan_interest"]),
        cert_cap=values["cert_cap"],
        certificate_price=Fraction(values["certificate_price"]),
        no_dividend_side=NoDividendSide(values["no_dividend_side"]),
        spot_unit=SpotUnit(values["spot_unit"]),
        voluntary_default=values["voluntary_default"],
        conversion_rounding=Conversion(values["conversion_rounding"]),
        bankrupt_player=BankruptPlayer(values["bankrupt_player"]),
        min_players=game.players.min,
        max_players=game.players.max,
    )


def _deck_facts(game: Game) -> dict[str, Any]:
    """Dividend payouts, certificates per currency and contract letters, read from the decks
    (the rules file's numbers when a deck is missing)."""
    from pnp.spec.faces import deck_pieces  # with the spec's model, loaded when a spec is read

    decks = {c.id: c for c in game.components if c.kind == "deck"}
    index = {c.id: i for i, c in enumerate(game.components)}
    facts: dict[str, Any] = {
        "dividends": RULEBOOK.defaults()["dividends"],
        "certificates": {a.id: STANDARD_CERTIFICATES for a in game.assets},
        "sets": STANDARD_SETS,
    }
    if "dividends" in decks:
        facts["dividends"] = _payouts(game, decks["dividends"], index["dividends"])
    if "certificates" in decks:
        facts["certificates"] = _certificates(game, decks["certificates"])
    if "contracts" in decks:
        letters = [str(p.data.get("set", p.front.value)) for p in deck_pieces(game, decks["contracts"])]
        facts["sets"] = tuple(dict.fromkeys(letters))
    return facts


def _payouts(game: Game, deck: Deck, at: int) -> tuple[int, ...]:
    """FOREX-10.5.1: each dividend card's payout, its `data: {pays: N}` (a Mismatch at the
    deck, component `at`, when a card has none)."""
    from pnp.spec.faces import deck_pieces

    given = [p.data.get("pays") for p in deck_pieces(game, deck)]
    pays = tuple(v for v in given if isinstance(v, int) and not isinstance(v, bool) and v >= 0)
    if len(pays) != len(given):
        raise Mismatch(("components", at), "every dividend card needs `data: {pays: N}` (FOREX-10.5.1)")
    return pays


def _certificates(game: Game, deck: Deck) -> dict[str, int]:
    """How many certificates the deck holds of each currency (its cards' assets)."""
    from pnp.spec.faces import deck_pieces

    counts: dict[str, int] = {}
    for piece in deck_pieces(game, deck):
        if piece.front.asset is not None:
            counts[piece.front.asset.id] = counts.get(piece.front.asset.id, 0) + 1
    return counts


# --- showing numbers --------------------------------------------------------------------------


def payable(amount: Fraction) -> bool:
    """Whether notes can pay `amount`: money is kept in halves, the smallest note (FOREX-A6), so a
    quarter or a third of a buck cannot change hands (FOREX-A5)."""
    return amount.denominator <= 2


def show(amount: Fraction | int) -> str:
    """4.5, 12, 0.25 — exact; a value with no short decimal (⅓) shows as 1/3."""
    amount = Fraction(amount)
    if amount.denominator == 1:
        return str(amount.numerator)
    denominator = amount.denominator
    while denominator % 2 == 0:
        denominator //= 2
    while denominator % 5 == 0:
        denominator //= 5
    if denominator == 1:
        return f"{float(amount):g}"
    return f"{amount.numerator}/{amount.denominator}"


def show_rate(rate: Fraction) -> str:
    """The rate as printed on the board: 1, 1½, 8."""
    whole, rest = divmod(rate, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole) or ''}½"
    return show(rate)


def as_number(amount: int | Fraction) -> int | float:
    """JSON: whole amounts as integers, halves as decimals (4.5)."""
    return amount.numerator if amount.denominator == 1 else float(amount)
