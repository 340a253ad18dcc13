"""Cards of Акционер: what a printed card does, and the notation records use for it.

A card changes its own colour by one effect (`+100`, `x2`, `/2`, `+30`, `-40`) and one or more
other colours, chosen by the mover, by its uncoloured effects (`-10 -20 -30`, `/2`, `-60`).
The composition is read from the printed faces in components.yaml (`value` / `other`), so a
changed deck is refereed as printed. Notation (REFEREE.md): the card's own effect and colour,
then each choice as effect and colour: `"+100 blue -10 red -20 yellow -30 green"`,
`"x2 blue /2 red"`, `"+30 red -60 blue"`; a card alone (in a deal) is `"+30 red"`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Literal

from pnp.errors import brief
from pnp.rules.aktsioner import refusals as refused
from pnp.rules.base import Malformed

Op = Literal["+", "x", "/"]
Number = int | Fraction  # prices and money: whole, except halving an odd price on a custom track

# Unicode as printed (− × ÷) and ASCII as typed (- x /) both read; `*` and `:` too.
_EFFECT = re.compile(r"^(?:(?P<sign>[+\-−])(?P<add>\d+)|(?P<mul>[x×*X])(?P<m>\d+)|(?P<div>[/÷:])(?P<d>\d+))$")


class NotationError(ValueError):
    """Card text that cannot be read (a record error, not an illegal move)."""


@dataclass(frozen=True, order=True)
class Effect:
    """One change to one colour: add `amount` (signed), or multiply / divide by it."""

    op: Op
    amount: int

    def __str__(self) -> str:
        if self.op == "+":
            return f"{self.amount:+d}"
        return f"{self.op}{self.amount}"

    def apply(self, old: int) -> int | Fraction:
        """The calculated price before rounding and bounds (AKT-5.1); halving may give 105 or 5."""
        if self.op == "+":
            return old + self.amount
        if self.op == "x":
            return old * self.amount
        result = Fraction(old, self.amount)
        return int(result) if result.denominator == 1 else result


def parse_effect(token: str) -> Effect:
    match = _EFFECT.match(token.strip())
    if not match:
        raise NotationError(f'"{token}" is not a card number (expected e.g. +30, -60, x2 or /2)')
    if match["sign"]:
        amount = int(match["add"])
        return Effect("+", -amount if match["sign"] in "-−" else amount)
    if match["mul"]:
        return Effect("x", int(match["m"]))
    return Effect("/", int(match["d"]))


def parse_effects(text: str) -> tuple[Effect, ...]:
    """A printed field such as "−10 −20 −30" → three effects."""
    return tuple(parse_effect(token) for token in text.split())


@dataclass(frozen=True)
class Card:
    """One kind of card: which deck, its colour, its own effect and its uncoloured effects."""

    deck: str  # "big_cards" or "small_cards"
    colour: str
    own: Effect
    others: tuple[Effect, ...]

    @property
    def name(self) -> str:
        """The card as named in a deal: "+30 red", "x2 blue"."""
        return f"{self.own} {self.colour}"

    @property
    def rule(self) -> str:
        """The rule ID of its effect: Hundred AKT-4.1, Double/Halve AKT-4.2, small card AKT-4.3."""
        if self.own.op != "+":
            return "AKT-4.2"
        return "AKT-4.1" if len(self.others) > 1 else "AKT-4.3"



@dataclass(frozen=True)
class Play:
    """Stage 2 of a turn: the card played and the mover's choices, one (effect, colour) each."""

    card: str  # the card's name, e.g. "+30 red"
    choices: tuple[tuple[Effect, str], ...] = ()

    def __str__(self) -> str:
        return " ".join([self.card, *(f"{effect} {colour}" for effect, colour in self.choices)])


def parse_play(text: object, colours: Iterable[str], *, with_choices: bool = True) -> Play:
    """Read `"+30 red -60 blue"` (or `"+30 red"` when `with_choices` is false, as in a deal).

    Raises NotationError for text that does not read as a card; whether the card exists and
    the choices are legal is for the engine to decide.
    """
    colours = tuple(colours)
    if not isinstance(text, str):
        raise NotationError(f'expected card text such as "+30 red -60 blue", got {brief(text)}')
    tokens = text.split()
    if not tokens or len(tokens) % 2:
        example = '"+30 red -60 blue"' if with_choices else '"+30 red"'
        raise NotationError(f'"{text}" is not a card: write number and colour pairs, e.g. {example}')
    pairs = []
    for effect_text, colour in zip(tokens[::2], tokens[1::2], strict=True):
        effect = parse_effect(effect_text)
        if colour not in colours:
            raise NotationError(f'unknown colour "{colour}" in "{text}" (known: {", ".join(colours)})')
        pairs.append((effect, colour))
    if not with_choices and len(pairs) > 1:
        raise NotationError(f'"{text}": name a dealt card without choices, e.g. "{pairs[0][0]} {pairs[0][1]}"')
    (own, colour), choices = pairs[0], tuple(pairs[1:])
    return Play(f"{own} {colour}", choices)


Assignment = tuple[tuple[Effect, str], ...]  # a card's uncoloured numbers, each with its colour


def assignment_refusal(card: Card, colours: tuple[str, ...], free: bool, choices: Assignment) -> Exception | None:
    """Why `choices` is no legal assignment of the card's uncoloured numbers (AKT-4.1 to 4.4,
    A3, A6): each to a colour of the game (Malformed otherwise), another than the card's own,
    each colour once, one choice per number — under `hundred_split: free` any of its numbers
    for each, else its numbers exactly. None for a legal one: `Params.choices` lists the
    assignments this lets through, so the play template and its refusals say the same."""
    refusal = _colour_refusal(card, colours, choices)
    return refusal if refusal is not None else _number_refusal(card, free, choices)


def _colour_refusal(card: Card, colours: tuple[str, ...], choices: Assignment) -> Exception | None:
    """AKT-4.4: each choice's colour one of the game's (Malformed otherwise), not the card's own, none twice."""
    named = [colour for _, colour in choices]
    unknown = [colour for colour in named if colour not in colours]
    if unknown:
        return Malformed(f'{Play(card.name, choices)}: there is no colour "{unknown[0]}" (colours: {", ".join(colours)})')
    if card.colour in named:
        return refused.OWN_COLOUR(card=card.name, colour=card.colour)
    twice = next((colour for colour in named if named.count(colour) > 1), None)
    if twice:
        return refused.COLOUR_TWICE(play=str(Play(card.name, choices)), colour=twice)
    return None


def _number_refusal(card: Card, free: bool, choices: Assignment) -> Exception | None:
    """The card's rule (AKT-4.3, A3, A6): one choice per uncoloured number — under `hundred_split:
    free` any of its numbers for each, else its numbers exactly."""
    numbers = [str(effect) for effect in card.others]
    given = [effect for effect, _ in choices]
    if len(given) != len(card.others):
        return refused.CHOICES_COUNT(card.rule, card=card.name, needed=len(card.others), numbers=numbers,
                                     given=len(given))
    if free:
        wrong = next((effect for effect in given if effect not in card.others), None)
        if wrong is not None:
            return refused.NOT_ITS_NUMBER(card.rule, card=card.name, number=str(wrong), numbers=numbers)
    elif sorted(given) != sorted(card.others):
        return refused.NOT_ITS_NUMBERS(card.rule, card=card.name, numbers=numbers, given=[str(e) for e in given])
    return None
