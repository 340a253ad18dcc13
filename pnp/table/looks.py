"""How each game's position is laid out on the table's page, as data: which value of the
referee's JSON state sits on which printed component of the spec.

The state's keys are the referee's (docs/referee.md); the components — tracks, mats and their
zones, bills, tokens — are the spec's, and the board draws them with the spec's names, colours
and symbols (`board`). What links the two is a game's fact, not code: that Bolsa's `shares`
are the cards in zone 1 of the player mat, that `token` names the holder of the token whose
face reads S. A game with no look here is still shown, value by value, under its keys' words.

The words for the state's keys are here too (`LABELS`, marked for the catalogs and worded in
the page's language by `label`): the page never shows a raw key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pnp.i18n import N_, _


@dataclass(frozen=True)
class Action:
    """A kind of step as the players call it, and one line saying what it does (`{name}`: a
    house rule's value in effect, `{front}`: the first of the position's queue)."""

    name: str
    line: str


@dataclass(frozen=True)
class Look:
    """Where a game's state values go.

    `tracks`: a state key → the spec track it marks (a number, or one per asset: the quote
    board's tokens). `counters`: a state key of pair counters (`stronger`, `position`) → the
    track each sits on, on the stronger asset's row. `zones`: a player's key → the label of
    the mat zone holding those cards. `money`: a player's keys counted in bills (one currency,
    or one per asset). `holders`: a state key naming a player → the face value of the token
    that player holds. `panels`: state keys shown together under a heading (key → heading)."""

    tracks: Mapping[str, str] = field(default_factory=dict)
    counters: Mapping[str, str] = field(default_factory=dict)
    zones: Mapping[str, str] = field(default_factory=dict)
    money: tuple[str, ...] = ()
    holders: Mapping[str, str] = field(default_factory=dict)
    panels: Mapping[str, str] = field(default_factory=dict)
    actions: Mapping[str, Action] = field(default_factory=dict)  # a template's kind → its words
    hands: str = ""  # the state key of each player's hand of cards (shown to its holder as cards to play)
    limits: Mapping[str, str] = field(default_factory=dict)  # a track's state key → the house rule that ends it


LOOKS: dict[str, Look] = {
    "bolsa": Look(
        tracks={"round": "round", "prices": "quote"},
        zones={"shares": "1", "orders": "2", "offered": "3", "requested": "4"},
        money=("cash",),
        holders={"token": "S"},
        panels={"phase": N_("This round"), "declared": N_("This round"), "trade": N_("Trading")},
        actions={
            "declare": Action(N_("Declare"), N_("In secret: the shares you offer to sell and those you ask to buy, "
                                                "one side per company; shown when all have declared.")),
            "bid": Action(N_("Bid"), N_("Offer a price for {company} (quote {quote}; best bid so far: {best}).")),
            "pass": Action(N_("Pass"), N_("Leave this auction for good.")),
            "resolve": Action(N_("Reveal and trade"), N_("Turn every declaration face up and trade company by company.")),
        },
        limits={"round": "rounds"},
    ),
    "aktsioner": Look(
        tracks={"prices": "price"},
        panels={"hands": N_("Cards in hand")},
        actions={
            "begin": Action(N_("Begin the turn"), N_("Your turn: trade, play one card, trade again.")),
            "trade": Action(N_("Trade"), N_("Sell shares you hold and buy shares, at the prices now.")),
            "play": Action(N_("Play a card"), N_("One card from your hand, in one tap: it moves its colour, and the "
                                                 "others as the button says.")),
            "end": Action(N_("End the turn"), N_("Nothing more this turn: the next player moves.")),
        },
        hands="hands",
    ),
    "forex": Look(
        counters={"pairs": "rate"},
        money=("money",),
        panels={"supply": N_("Certificates in the supply"), "strength": N_("Pairs won"), "queue": N_("The queue")},
        actions={
            "spot": Action(N_("Spot exchange"), N_("Optional, first: one exchange with another player, at the rate.")),
            "contract": Action(N_("Make a contract"), N_("Nothing paid now: you pay and receive when it is resolved.")),
            "invest": Action(N_("Invest"), N_("1 or 2 certificates of different currencies, {certificate_price} "
                                              "bucks each.")),
            "divest": Action(N_("Divest"), N_("Sell certificates of one currency, {certificate_price} bucks each.")),
            "resolve": Action(N_("Resolve"), N_("Settle the front of the queue: {front}.")),
        },
    ),
}

DEFAULT = Look()

# The referee's keys in words. Keys of a game's own things (companies, players) are shown by
# their names; any key missing here is shown with its underscores as spaces.
LABELS: dict[str, str] = {
    "round": N_("Round"),
    "token": N_("Auction token"),
    "prices": N_("Prices"),
    "players": N_("Players"),
    "cash": N_("Cash"),
    "money": N_("Money"),
    "shares": N_("Shares"),
    "orders": N_("Orders"),
    "offered": N_("Offered"),
    "requested": N_("Requested"),
    "certificates": N_("Certificates"),
    "phase": N_("Phase"),
    "declared": N_("Declared"),
    "trade": N_("Company being traded"),
    "company": N_("Company"),
    "case": N_("Case"),
    "quote": N_("Quote"),
    "auction": N_("Auction"),
    "ascending": N_("Rising bids"),
    "bidders": N_("Bidders"),
    "passed": N_("Passed"),
    "best": N_("Best bid"),
    "bidder": N_("Best bidder"),
    "over": N_("Finished"),
    "to_act": N_("To bid"),
    "hands": N_("Hand"),
    "pairs": N_("Pairs"),
    "stronger": N_("Stronger"),
    "position": N_("Box"),
    "rate": N_("Rate"),
    "supply": N_("Supply"),
    "queue": N_("Queue"),
    "strength": N_("Pairs won"),
    "scores": N_("Scores"),
    "winners": N_("Winners"),
}

# The engines' names of steps, phases and fields (a template's kind, `to_move`'s phase, a field's
# name) are identifiers, kept as they are in records and in the API; the page words them (`word`).
WORDS = frozenset((
    N_("declare"), N_("bid"), N_("pass"), N_("resolve"), N_("auction"),  # Bolsa's
    N_("begin"), N_("play"), N_("trade"), N_("end"), N_("stage 1"), N_("stage 2"), N_("stage 3"),  # Aktsioner's
    N_("contract"), N_("divest"), N_("invest"), N_("spot"), N_("turn"),  # For-Ex's
    N_("sell"), N_("buy"), N_("amount"), N_("choices"), N_("count"), N_("currencies"), N_("deal"), N_("pay"),
    N_("receive"), N_("strengthen"), N_("others"),
))

NOTHING = "—"  # a value that is not there (no bid yet, nobody to act)


def label(key: str) -> str:
    """A state key in words, in the current language (a key without words: with its
    underscores as spaces)."""
    if key in LABELS:
        return _(LABELS[key])
    text = str(key).replace("_", " ")
    return text[:1].upper() + text[1:]


def heading(look: Look, key: str) -> str:
    """The heading of the panel a state key is shown under, in the current language."""
    return _(look.panels[key]) if key in look.panels else label(key)


def word(name: str) -> str:
    """An engine's name of a step, a phase or a field, in the current language (a name the
    table has no word for: as it is)."""
    return _(name) if name in WORDS else name


def step_word(look: Look, name: str) -> str:
    """A phase's or a step's name as the players call it: the look's name for a kind of step
    ("declare": "Declare"), else the catalog's word."""
    return _(look.actions[name].name) if name in look.actions else word(name)


def action(look: Look, kind: str, values: Mapping[str, object]) -> tuple[str, str]:
    """A step's kind as the players call it and its one line, in the current language, the
    line's `{…}` filled from `values` (a house rule's value, the queue's front); a kind the look
    has no words for: its name, and no line."""
    found = look.actions.get(kind)
    if found is None:
        return word(kind), ""
    return _(found.name), _(found.line).format_map(_Filled(values))


class _Filled(dict[str, object]):
    """`format_map`'s values: a name with no value stays as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
