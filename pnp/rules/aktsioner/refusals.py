"""Every kind of refusal Акционер's engine makes: its rule and the sentence made from its data.

A refusal is made where its condition is stated — a template's bound or options (`listing`),
the condition a position lists no template under, the legal assignments of a card's numbers
(`cards.assignment_refusal`), a setup's check (`state`) — with the numbers the sentence
states; its words are here, said in the language being spoken, colours and cards as the
catalog names them (`named`), as the events are (`events`).
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.i18n import N_, _, named
from pnp.rules.base import Refusal

Data = Mapping[str, Any]
DECKS = {"big_cards": N_("big"), "small_cards": N_("small")}  # a deck as a sentence names it


def _deck(d: Data) -> str:
    return _(DECKS[d["deck"]])


def _cards(d: Data) -> str:
    """What the deck holds: "big: +100, x2, /2; small: +30, +40 of each colour"."""
    decks = "; ".join(f"{_(DECKS[deck])}: {', '.join(owns)}" for deck, owns in d["cards"].items())
    return _("{decks} of each colour").format(decks=decks)


def _with_colour(d: Data) -> dict[str, Any]:
    return {**d, "colour": named(d["colour"])}


# --- seats and the start (AKT-1, 2, A11) ----------------------------------------------------------------

TOO_FEW = Refusal("AKT-1.10", lambda d: _("Акционер needs {least} or more players, the record seats {count}").format(**d))
TOO_MANY = Refusal("AKT-1.10", lambda d: _("the game is for {low}–{high} players (components.yaml), not "
                                           "{count}").format(**d))
FORMULA_SEATS = Refusal("AKT-2.4", lambda d: _(
    "formula {formula} with {count} players deals {dealt} {deck} cards, but at least {undealt} of the {size} must stay "
    "undealt (min_undealt)").format(formula=d["formula"], count=d["count"], dealt=d["dealt"], deck=_deck(d),
                                    undealt=d["undealt"], size=d["size"]))
NEGATIVE_ACCOUNT = Refusal("AKT-2.1", lambda d: _("{player}'s account holds {cash} cash and shares {shares}: an account "
                                                  "holds none or more of each").format(
    player=d["player"], cash=d["cash"], shares=", ".join(f"{named(c)} {n}" for c, n in d["shares"].items())))
OFF_BOARD = Refusal("AKT-1.2", lambda d: _("the {colour} price {price} is not a space of the board ({spaces})").format(
    colour=named(d["colour"]), price=d["price"],
    spaces=", ".join(map(str, d["spaces"])) if len(d["spaces"]) <= 3 else
    f"{d['spaces'][0]}, {d['spaces'][1]}, …, {d['spaces'][-1]}"))
ALL_OUT = Refusal("AKT-A11", lambda d: _("every player is eliminated before the first turn: no shares, and cash below "
                                         "the cheapest price {cheapest}").format(**d))
DEALT_COUNT = Refusal("AKT-2.3", lambda d: _("{player} is dealt {held} {deck} cards; formula {formula} deals "
                                             "{allowed}").format(player=d["player"], held=d["held"], deck=_deck(d),
                                                                 formula=d["formula"], allowed=d["allowed"]),
                      scope="deal")
DEALT_COPIES = Refusal("AKT-1.4", lambda d: _('"{card}" is dealt {count} times; the {deck} deck has {copies}').format(
    card=named(d["card"]), count=d["count"], deck=_deck(d), copies=d["copies"]), scope="deal")  # AKT-1.5 small
DEALT_UNKNOWN = Refusal("AKT-1.4", lambda d: _('{player} is dealt "{card}", which is not a card of the deck '
                                               '({cards})').format(player=d["player"], card=named(d["card"]),
                                                                   cards=_cards(d)), scope="deal")

# --- beginning a turn (AKT-3.6, 9.1, A11) -------------------------------------------------------------------

NOT_SEATED = Refusal("AKT-3.6", lambda d: _("{player} is not at the table ({players})").format(
    player=d["player"], players=", ".join(d["players"])))
GAME_OVER = Refusal("AKT-9.1", lambda d: _("the game is over (every card has been played); {player} cannot "
                                           "move").format(**d))
NO_CARD_YET = Refusal("AKT-3.2", lambda d: _("{mover} has not played a card yet, so {player}'s turn cannot "
                                             "begin").format(**d))
ELIMINATED = Refusal("AKT-A11", lambda d: _("{player} is out of the game (no shares and cash below the cheapest "
                                            "price)").format(**d))
NO_CARDS_LEFT = Refusal("AKT-9.1", lambda d: _("{player} has no card left to play").format(**d))
NOT_YOUR_TURN = Refusal("AKT-3.6", lambda d: _("it is {mover}'s turn in seating order, not {player}'s").format(**d))

# --- trading (AKT-3.1, 3.3, 3.4, 8.1) -------------------------------------------------------------------------

NO_TURN = Refusal("AKT-3.4", lambda d: _("shares are traded only during one's own turn, and no turn has begun"))
LAST_ROUND = Refusal("AKT-8.1", lambda d: _("{player} may not trade shares: every player has one card left "
                                            "(last-move rule)").format(**d))
STAGE_CLOSED = Refusal("AKT-3.1", lambda d: (
    _("{player} has ended the trading of stage 1 (a trade of nothing); the card comes next") if d["stage"] == 1 else
    _("{player} has ended the trading of stage 3 (a trade of nothing); the next player begins")).format(**d))
UNKNOWN_COLOUR = Refusal("AKT-3.1", lambda d: _('there are no "{colour}" shares (colours: {colours})').format(
    colour=d["colour"], colours=", ".join(map(named, d["colours"]))))
NEGATIVE_TRADE = Refusal("AKT-3.1", lambda d: _("cannot trade {value} {colour}: quantities are whole shares, 0 or "
                                                "more").format(**_with_colour(d)))
SELLS_UNHELD = Refusal("AKT-3.1", lambda d: _("{player} sells {value} {colour} but holds {bound}").format(
    **_with_colour(d)))  # AKT-3.3 in stage 3
SELLS_BOUGHT = Refusal("AKT-3.3", lambda d: (
    _("{player} sells {value} {colour} in stage 3 but may sell only {bound}: {bought} of the {held} were bought in "
      "stage 1 of this turn") if d["bought"] <= d["held"] else
    _("{player} sells {value} {colour} in stage 3 but may sell only {bound}: {bought} were bought in stage 1 of this "
      "turn, and {held} are held")).format(**_with_colour(d)))


def _over_cash(d: Data) -> str:
    prices, chosen = d["prices"], d["chosen"]

    def listed(side: str) -> str:
        return _(" and ").join(_("{n} {colour} at {price}").format(n=n, colour=named(colour), price=prices[colour])
                               for colour, n in chosen.get(side, {}).items())

    cost = sum(n * prices[colour] for colour, n in chosen.get("buy", {}).items())
    if not chosen.get("sell"):
        return _("{player} buys {buys} = {cost} but has {cash} cash").format(player=d["player"], buys=listed("buy"),
                                                                             cost=cost, cash=d["limit"])
    return _("{player} buys {buys} = {cost} but has {cash} cash and {proceeds} from selling {sells}").format(
        player=d["player"], buys=listed("buy"), cost=cost, cash=d["limit"], proceeds=cost - d["total"],
        sells=listed("sell"))


OVER_CASH = Refusal("AKT-3.1", _over_cash)  # AKT-3.3 in stage 3
BUYS_BEYOND = Refusal("AKT-3.1", lambda d: _(
    "{player} buys {value} {colour} at {price}, but {cash} cash and all he may sell pay for at most {bound}").format(
    **_with_colour(d)))  # AKT-3.3 in stage 3

# --- playing a card (AKT-2.3, 3.2, 4) --------------------------------------------------------------------------

OUTSIDE_TURN = Refusal("AKT-3.2", lambda d: _("{card} is played outside a turn; a card is played in stage 2 of one's "
                                              "own turn").format(card=named(d["card"])))
PLAYED_TWICE = Refusal("AKT-3.2", lambda d: _("{player} has already played a card this turn; a turn has exactly "
                                              "one").format(**d))
NOT_A_CARD = Refusal("AKT-1.4", lambda d: _('{player} plays "{card}", which is not a card of the deck ({cards})').format(
    player=d["player"], card=named(d["card"]), cards=_cards(d)))  # AKT-1.5 for a small card's number
NOT_HELD = Refusal("AKT-3.2", lambda d: _('{player} plays "{card}" but holds {hand}').format(
    player=d["player"], card=named(d["card"]), hand=", ".join(map(named, d["hand"])) or _("no cards")))
COPIES_PLAYED = Refusal("AKT-1.4", lambda d: _('"{card}" would be played {count} times, but the deck has {copies}').format(
    card=named(d["card"]), count=d["count"], copies=d["copies"]))  # AKT-1.5 small
FORMULA_PLAYED = Refusal("AKT-2.3", lambda d: _("{player} would play {count} {deck} cards, but formula {formula} deals "
                                                "{allowed}").format(player=d["player"], count=d["count"], deck=_deck(d),
                                                                    formula=d["formula"], allowed=d["allowed"]))
OWN_COLOUR = Refusal("AKT-4.4", lambda d: _("{card}: its uncoloured number goes to another colour, not "
                                            "{colour} itself").format(card=named(d["card"]), colour=named(d["colour"])))
COLOUR_TWICE = Refusal("AKT-4.4", lambda d: _("{play}: a card changes each colour at most once, {colour} is named "
                                              "twice").format(play=named(d["play"]), colour=named(d["colour"])))
CHOICES_COUNT = Refusal("AKT-4.3", lambda d: _("{card}: {needed} choices needed ({numbers} to other colours), {given} "
                                               "given").format(card=named(d["card"]), needed=d["needed"],
                                                               numbers=" ".join(d["numbers"]),
                                                               given=d["given"]))  # the card's own rule
NOT_ITS_NUMBER = Refusal("AKT-4.1", lambda d: _("{card}: {number} is not one of its numbers ({numbers})").format(
    card=named(d["card"]), number=d["number"], numbers=" ".join(d["numbers"])))  # the card's own rule
NOT_ITS_NUMBERS = Refusal("AKT-4.1", lambda d: _("{card}: its numbers are {numbers}, {given} given instead").format(
    card=named(d["card"]), numbers=" ".join(d["numbers"]), given=" ".join(d["given"])))  # the card's own rule
