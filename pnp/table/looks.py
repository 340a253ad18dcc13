"""How each game's position is laid out on the table's page, as data: which value of the
referee's JSON state sits on which printed component of the spec.

The state's keys are the referee's (docs/referee.md); the components — tracks, mats and their
zones, bills, tokens — are the spec's, and the board draws them with the spec's names, colours
and symbols (`board`). What links the two is a game's fact, not code: that Bolsa's `shares`
are the cards in zone 1 of the player mat, that `token` names the holder of the token whose
face reads S. A game with no look here is still shown, value by value, under its keys' words.

The words for the state's keys, in English for now, are here too (`LABELS`): the page never
shows a raw key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


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


LOOKS: dict[str, Look] = {
    "bolsa": Look(
        tracks={"round": "round", "prices": "quote"},
        zones={"shares": "1", "orders": "2", "offered": "3", "requested": "4"},
        money=("cash",),
        holders={"token": "S"},
        panels={"phase": "This round", "declared": "This round", "trade": "Trading"},
    ),
    "aktsioner": Look(
        tracks={"prices": "price"},
        panels={"hands": "Hands"},
    ),
    "forex": Look(
        counters={"pairs": "rate"},
        money=("money",),
        panels={"supply": "Certificates in the supply", "strength": "Pairs won", "queue": "The queue"},
    ),
}

DEFAULT = Look()

# The referee's keys in words. Keys of a game's own things (companies, players) are shown by
# their names; any key missing here is shown with its underscores as spaces.
LABELS: dict[str, str] = {
    "round": "Round",
    "token": "Auction token",
    "prices": "Prices",
    "players": "Players",
    "cash": "Cash",
    "money": "Money",
    "shares": "Shares",
    "orders": "Orders",
    "offered": "Offered",
    "requested": "Requested",
    "certificates": "Certificates",
    "phase": "Phase",
    "declared": "Declared",
    "trade": "Company being traded",
    "company": "Company",
    "case": "Case",
    "quote": "Quote",
    "auction": "Auction",
    "ascending": "Rising bids",
    "bidders": "Bidders",
    "passed": "Passed",
    "best": "Best bid",
    "bidder": "Best bidder",
    "over": "Finished",
    "to_act": "To bid",
    "hands": "Hand",
    "pairs": "Pairs",
    "stronger": "Stronger",
    "position": "Box",
    "rate": "Rate",
    "supply": "Supply",
    "queue": "Queue",
    "strength": "Pairs won",
    "scores": "Scores",
    "winners": "Winners",
}

NOTHING = "—"  # a value that is not there (no bid yet, nobody to act)
