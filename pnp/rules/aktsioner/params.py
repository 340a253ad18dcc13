"""The parameters of one game of Акционер: house rules plus the facts of the printed spec.

Colours, the price track and the two decks are read from components.yaml, so the board that
is printed and the rules that are refereed cannot disagree (DESIGN.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, partial
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, Mapping

from pnp.errors import brief
from pnp.rules.aktsioner.cards import Assignment, Card, NotationError, assignment_refusal, parse_effects
from pnp.rules.aktsioner.rulebook import RULEBOOK, HundredSplit, Match, PenaltyOrder, Rounding, Tiebreak
from pnp.rules.base import resolve_options
from pnp.rules.legal import Field
from pnp.spec.contract import MAX_CELLS, Mismatch

if TYPE_CHECKING:
    from pnp.spec.faces import Side
    from pnp.spec.model import Game

DECKS = ("big_cards", "small_cards")
DECK_RULES = {"big_cards": "AKT-1.4", "small_cards": "AKT-1.5"}
# A card another player holds, as a view shows it (`engine.view`): its back, which tells the
# deck (how many big and small cards each holds is public, AKT-2.6), and no more.
HIDDEN = {"big_cards": "(big card)", "small_cards": "(small card)"}
HIDDEN_DECK = {name: deck for deck, name in HIDDEN.items()}


@dataclass(frozen=True)
class Params:
    """Everything the engine needs besides the state. Build it with `params(game, overrides)`."""

    colours: tuple[str, ...]  # board order
    cells: tuple[int, ...]  # the price track, ascending (10, 20, …, 250)
    start_price: int
    start_shares: int
    start_cash: int
    big: int  # formula b+s: big and small cards dealt to each player (AKT-2.3)
    small: int
    min_undealt: int
    rounding: Rounding
    hundred_split: HundredSplit
    equal_penalty_order: PenaltyOrder
    eliminate_broke: bool
    match: Match
    tiebreak: Tiebreak
    cards: Mapping[str, Card]  # by name ("+30 red"), in deck order
    copies: Mapping[str, int]  # how many of each card the deck holds
    min_players: int = 2  # the spec's seats (AKT-1.10); the formula may seat fewer (AKT-2.4)
    max_players: int = 6

    @property
    def price_min(self) -> int:
        return self.cells[0]

    @property
    def price_max(self) -> int:
        return self.cells[-1]

    @property
    def price_step(self) -> int:
        return self.cells[1] - self.cells[0] if len(self.cells) > 1 else 10

    @property
    def formula(self) -> str:
        return f"{self.big}+{self.small}"

    def deck_size(self, deck: str) -> int:
        return len(self.decks[deck])

    @cached_property
    def decks(self) -> Mapping[str, tuple[str, ...]]:
        """Per deck, every card in it, each copy once, in deck order: what is shuffled for a
        deal (made once: a simulation deals thousands of games)."""
        return {deck: tuple(name for name, card in self.cards.items() if card.deck == deck
                            for _ in range(self.copies[name])) for deck in DECKS}

    @cached_property
    def order(self) -> Mapping[str, int]:
        """Each card's place in the deck order, the order in which a hand is held."""
        return {name: k for k, name in enumerate(self.cards)}

    def dealt(self, deck: str) -> int:
        """Cards of `deck` in one full hand."""
        return self.big if deck == "big_cards" else self.small

    @cached_property
    def choices(self) -> Mapping[str, tuple[tuple[Assignment, ...], tuple[str, ...]]]:
        """Per card: every legal assignment of its uncoloured numbers (`cards.assignment_refusal`
        lets it through), its colours in board order (the order a record writes them in changes
        nothing, AKT-A12), and each written as in a record ("-60 blue")."""
        found = {}
        free = self.hundred_split is HundredSplit.FREE
        for name, card in self.cards.items():
            k = len(card.others)
            splits = sorted(product(sorted(set(card.others)), repeat=k))
            candidates = (tuple(zip(split, targets, strict=True)) for targets in combinations(self.colours, k)
                          for split in splits)
            options = tuple(option for option in candidates if assignment_refusal(card, self.colours, free, option) is None)
            found[name] = (options, tuple(" ".join(f"{e} {c}" for e, c in option) for option in options))
        return found

    @cached_property
    def play_fields(self) -> Mapping[str, Field]:
        """Per card, the field that chooses its assignment when it is played, an assignment it
        does not list refused as `cards.assignment_refusal` says: a turn offers every card in the
        mover's hand, at every step of every simulated game, so made once."""
        free = self.hundred_split is HundredSplit.FREE
        return {name: Field.choice("choices", *choices,
                                   excluded=partial(_unassigned, self.cards[name], self.colours, free))
                for name, choices in self.choices.items()}


def _unassigned(card: Card, colours: tuple[str, ...], free: bool, value: Assignment,
                part: tuple[object, ...]) -> Exception:
    refusal = assignment_refusal(card, colours, free, value)
    assert refusal is not None, f"{value} is an assignment of {card.name}"  # an option of the field otherwise
    return refusal


def params(game: Game, overrides: Mapping[str, Any] | None = None) -> Params:
    """Resolve the house rules and read colours, track and decks from the spec.

    Raises Mismatch (a ValueError) where the spec makes no playable game (a card face that does
    not read as numbers), ValueError when the overrides do (a start price off the track).
    """
    track = game.tracks.get("price")
    if track is None:
        raise Mismatch(("tracks",), "aktsioner needs a track `price` (the price board, AKT-1.2)")
    cells = tuple(_whole(value, "tracks.price") for value in track.cells)
    derived = {"price_min": cells[0], "price_max": cells[-1], "price_step": cells[1] - cells[0] if len(cells) > 1 else 10}
    if track.start is not None:
        derived["start_price"] = _whole(track.start, "tracks.price.start")
    values = resolve_options(RULEBOOK, game, derived, overrides)
    bounds = (values["price_min"], values["price_max"], values["price_step"])
    if bounds != (derived["price_min"], derived["price_max"], derived["price_step"]):
        cells = _track(bounds)
    start_price = _whole(values["start_price"], "start_price")
    if start_price not in cells:
        raise ValueError(f"start_price {start_price} is not a space of the price track ({cells[0]}…{cells[-1]})")
    big, small = (int(n) for n in values["formula"].split("+"))
    cards, copies = _decks(game)
    return Params(
        colours=tuple(asset.id for asset in game.assets),
        cells=cells,
        start_price=start_price,
        start_shares=int(values["start_shares"]),
        start_cash=int(values["start_cash"]),
        big=big,
        small=small,
        min_undealt=int(values["min_undealt"]),
        rounding=Rounding(values["rounding"]),
        hundred_split=HundredSplit(values["hundred_split"]),
        equal_penalty_order=PenaltyOrder(values["equal_penalty_order"]),
        eliminate_broke=bool(values["eliminate_broke"]),
        match=Match(values["match"]),
        tiebreak=Tiebreak(values["tiebreak"]),
        cards=cards,
        copies=copies,
        min_players=game.players.min,
        max_players=game.players.max,
    )


def _track(bounds: tuple[object, object, object]) -> tuple[int, ...]:
    """The price track the house rules' price_min, price_max and price_step make in place of
    the spec's, if a board can hold it."""
    low, high, step = (_whole(v, "price_min/price_max/price_step") for v in bounds)
    if step <= 0 or high < low:
        raise ValueError(f"price_min {low}, price_max {high} and price_step {step} make no price track")
    if (high - low) // step >= MAX_CELLS:
        raise ValueError(f"price_min {low}, price_max {high} and price_step {step} make a track of "
                         f"{(high - low) // step + 1:,} spaces; a board has at most {MAX_CELLS}")
    return tuple(range(low, high + 1, step))


def _decks(game: Game) -> tuple[dict[str, Card], dict[str, int]]:
    """Card kinds and copies from the printed faces of `big_cards` and `small_cards`."""
    from pnp.spec.faces import deck_pieces  # with the spec's model, loaded when a spec is read
    from pnp.spec.model import Deck

    cards: dict[str, Card] = {}
    copies: dict[str, int] = {}
    for deck_id in DECKS:
        index, deck = next(((i, c) for i, c in enumerate(game.components) if c.id == deck_id and c.kind == "deck"),
                           (None, None))
        if index is None or not isinstance(deck, Deck):
            raise Mismatch(("components",), f"aktsioner needs a deck `{deck_id}` ({DECK_RULES[deck_id]})")
        here = ("components", index)
        for piece in deck_pieces(game, deck):
            card = _card(deck_id, piece.front, here)
            known = cards.setdefault(card.name, card)
            if known != card:
                raise Mismatch(here, f'two different cards are both named "{card.name}"; the referee could not '
                               "tell them apart (AKT-1.4, 1.5)")
            copies[card.name] = copies.get(card.name, 0) + deck.copies
    return cards, copies


def _card(deck_id: str, front: Side, here: tuple[str, int]) -> Card:
    """The card a printed face shows: its colour, its own effect and its effects on others."""
    if front.asset is None:
        raise Mismatch(here, f"every card of `{deck_id}` needs a colour (for_each: asset, {DECK_RULES[deck_id]})")
    try:
        (own,), others = parse_effects(front.value), parse_effects(front.other)
    except (NotationError, ValueError):
        raise Mismatch(here, f'cannot read the card "{front.value}" / "{front.other}" as '
                       f"numbers (expected e.g. +100 / −10 −20 −30, ×2 / ÷2, +30 / −60; {DECK_RULES[deck_id]})"
                       ) from None
    return Card(deck_id, front.asset.id, own, others)


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise ValueError(f"{what}: Акционер prices are whole numbers, got {brief(value)}")
    return int(value)
