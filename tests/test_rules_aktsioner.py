"""The Акционер engine, rule by rule and option by option (rules/aktsioner.md)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from pnp.rules import load_spec, loads_spec
from pnp.rules.aktsioner import engine as A
from pnp.rules.aktsioner.cards import parse_effect
from pnp.rules.base import Violation, plain
from spec_text import BUNDLED


@pytest.fixture(scope="module")
def game():
    return load_spec(None).games["aktsioner"]


@pytest.fixture(scope="module")
def p(game):
    return A.params(game)


def start(p, players=("M", "O"), **accounts_and_prices):
    """A position: prices as colour=price, accounts as name=(cash, {colour: n})."""
    prices = {k: v for k, v in accounts_and_prices.items() if k in p.colours}
    holdings = {k: v for k, v in accounts_and_prices.items() if k not in p.colours}
    accounts = {name: A.Account(cash, tuple(shares.get(c, 0) for c in p.colours)) for name, (cash, shares) in holdings.items()}
    return A.setup(p, list(players), A.Start(prices, accounts))[0]


def run(p, state, *actions):
    """Apply actions (strings are card plays) and return the state and all events."""
    events = []
    for action in actions:
        if isinstance(action, str):
            action = A.parse_play(action, p.colours)
        state, more = A.apply(state, action, p)
        events += more
    return state, events


def said(events, rule):
    """What the events under `rule` say, as their data (the numbers and names their sentences word)."""
    return [plain(e.data) for e in events if e.rule == rule]


def violation(p, state, *actions) -> Violation:
    with pytest.raises(Violation) as caught:
        run(p, state, *actions)
    return caught.value


def cash(p, state, name):
    return state.accounts[state.seat(name)].cash


def shares(p, state, name, colour):
    return state.accounts[state.seat(name)].shares[p.colours.index(colour)]


# --- components read from the spec (AKT-1) ---------------------------------------------------


def test_decks_are_read_from_the_printed_faces(p):
    assert p.colours == ("blue", "red", "yellow", "green")
    assert p.deck_size("big_cards") == 20 and p.deck_size("small_cards") == 32
    assert p.copies["+100 blue"] == 3 and p.copies["x2 red"] == 1 and p.copies["/2 green"] == 1
    hundred = p.cards["+100 yellow"]
    assert hundred.others == (A.Effect("+", -10), A.Effect("+", -20), A.Effect("+", -30)) and hundred.rule == "AKT-4.1"
    assert p.cards["x2 blue"].others == (A.Effect("/", 2),) and p.cards["x2 blue"].rule == "AKT-4.2"
    small = [card for card in p.cards.values() if card.deck == "small_cards"]
    assert len(small) == 32 and all(card.rule == "AKT-4.3" for card in small)
    # the two numbers' absolute values sum to 90 (AKT-1.5)
    assert all(abs(card.own.amount) + abs(card.others[0].amount) == 90 for card in small)


def test_a_changed_deck_is_refereed_as_printed():
    text = BUNDLED.replace("            count: 3\n            title: Hundred", "            count: 2\n            title: Hundred", 1)
    p = A.params(loads_spec(text).games["aktsioner"])
    assert p.copies["+100 blue"] == 2 and p.deck_size("big_cards") == 16


def test_price_track_comes_from_the_board(p):
    assert p.cells == tuple(range(10, 251, 10)) and p.start_price == 100


def test_card_numbers_read_unicode_and_ascii():
    assert parse_effect("−60") == parse_effect("-60") == A.Effect("+", -60)
    assert parse_effect("×2") == parse_effect("x2") == A.Effect("x", 2)
    assert parse_effect("÷2") == parse_effect("/2") == A.Effect("/", 2)
    assert str(A.Effect("+", 30)) == "+30" and str(A.Effect("/", 2)) == "/2"


@pytest.mark.parametrize(
    "text, message",
    [
        ("+30red", "not a card"),
        ("+30 purple -60 blue", 'unknown colour "purple"'),
        ("+30 red -60", "not a card"),
        ("plus30 red", '"plus30" is not a card number'),
        (30, "expected card text"),
    ],
)
def test_unreadable_notation_is_a_notation_error(p, text, message):
    with pytest.raises(A.NotationError, match=message):
        A.parse_play(text, p.colours)


def test_a_dealt_card_is_named_without_choices(p):
    assert A.parse_play("+30 red", p.colours, with_choices=False).card == "+30 red"
    with pytest.raises(A.NotationError, match="without choices"):
        A.parse_play("+30 red -60 blue", p.colours, with_choices=False)


# --- setup (AKT-2) ---------------------------------------------------------------------------


def test_standard_setup_and_capital_400(p):
    state, events = A.setup(p, ["Ana", "Ben"])
    assert state.prices == (100,) * 4 and state.accounts[0] == A.Account(0, (1, 1, 1, 1))
    assert [A.capital(p, state, seat) for seat in (0, 1)] == [400, 400]
    assert events[0].rule == "AKT-2.1"


def test_start_options_change_the_setup(game):
    p = A.params(game, {"start_cash": 50, "start_shares": 2, "start_price": 120})
    state, _ = A.setup(p, ["Ana", "Ben"])
    assert state.prices == (120,) * 4 and state.accounts[1] == A.Account(50, (2, 2, 2, 2))


def test_price_bounds_options_redraw_the_board(game):
    p = A.params(game, {"price_min": 20, "price_max": 200, "price_step": 20})
    assert p.cells == tuple(range(20, 201, 20))
    with pytest.raises(ValueError, match="start_price 90 is not a space"):
        A.params(game, {"start_price": 90, "price_step": 20, "price_min": 20})


def test_one_player_is_not_a_game(p):
    with pytest.raises(Violation) as caught:
        A.setup(p, ["Solo"])
    assert caught.value.rule == "AKT-1.10"


def test_formula_and_min_undealt_limit_the_table(game):
    """AKT-X19: 3+5 allows 2–6 players; 4+6 allows 2–4 (5 with min_undealt 0)."""
    for formula, most in (("3+5", 6), ("4+6", 4), ("5+7", 3)):
        p = A.params(game, {"formula": formula})
        A.setup(p, [f"P{i}" for i in range(most)])
        with pytest.raises(Violation) as caught:
            A.setup(p, [f"P{i}" for i in range(most + 1)])
        assert caught.value.rule == "AKT-2.4"
    A.setup(A.params(game, {"formula": "4+6", "min_undealt": 0}), [f"P{i}" for i in range(5)])


def test_deal_checks(p):
    full = {"M": ["+100 blue", "x2 red", "/2 green", "+30 red", "+40 red", "+50 red", "+60 red", "-30 red"],
            "O": ["+100 blue", "+100 red", "x2 blue", "+30 blue", "+40 blue", "+50 blue", "+60 blue", "-30 blue"]}
    state, _ = A.setup(p, ["M", "O"], A.Start(hands=full))
    assert state.hands[0][0] == "+100 blue" and len(state.hands[1]) == 8
    with pytest.raises(Violation) as caught:  # a fresh deal holds exactly the formula
        A.setup(p, ["M", "O"], A.Start(hands={**full, "M": full["M"][1:]}))
    assert (caught.value.rule, caught.value.scope, caught.value.data["held"], caught.value.data["allowed"]) == (
        "AKT-2.3", "deal", 2, 3)
    A.setup(p, ["M", "O"], A.Start(hands={**full, "M": full["M"][1:]}, complete=False))  # mid-game: fewer is fine
    with pytest.raises(Violation) as caught:  # there is one x2 red
        A.setup(p, ["M", "O"], A.Start(hands={**full, "O": ["x2 red", *full["O"][1:]]}))
    assert caught.value.rule == "AKT-1.4" and (caught.value.data["count"], caught.value.data["copies"]) == (2, 1)
    with pytest.raises(Violation) as caught:
        A.setup(p, ["M", "O"], A.Start(hands={**full, "O": ["+70 red", *full["O"][1:]]}))
    assert (caught.value.rule, caught.value.scope) == ("AKT-1.5", "deal")


# --- new prices (AKT-5) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "rounding, old, effect, new, zeroed",
    [
        ("up", 210, "/2", 110, False),  # AKT-X6
        ("down", 210, "/2", 100, False),
        ("up", 10, "/2", 10, True),  # AKT-5.3: calc 5 is a zeroing with penalty 5
        ("down", 10, "/2", 10, True),
        ("down", 30, "/2", 10, False),  # 15 → 10: rounded onto the bottom, not a zeroing
        ("up", 40, "-30", 10, False),  # calc exactly 10 is neither (AKT-5.5)
        ("up", 40, "-40", 10, True),
        ("up", 130, "x2", 250, False),
        ("up", 250, "+30", 250, False),  # AKT-A15: raising 250 is legal and overflows
    ],
)
def test_new_prices(game, rounding, old, effect, new, zeroed):
    p = A.params(game, {"rounding": rounding})
    item = A.change("red", parse_effect(effect), old, p)
    assert item.new == new and item.zeroed == zeroed
    if zeroed and effect == "/2":
        assert item.penalty == 5


def test_overflow_per_share(p):
    assert A.change("blue", parse_effect("+100"), 230, p).overflow == 80
    assert A.change("blue", parse_effect("+30"), 250, p).overflow == 30
    assert A.change("blue", parse_effect("+30"), 200, p).overflow == 0


def test_odd_prices_on_a_custom_track_halve_exactly(game):
    p = A.params(game, {"price_min": 5, "price_max": 255, "price_step": 5, "start_price": 100})
    item = A.change("red", parse_effect("/2"), 5, p)
    assert item.calc == Fraction(5, 2) and item.penalty == Fraction(5, 2)


# --- the mover's choices (AKT-4) ------------------------------------------------------------


@pytest.mark.parametrize(
    "play, rule, data",
    [
        ("+30 red -60 red", "AKT-4.4", {"card": "+30 red", "colour": "red"}),
        ("+100 blue -10 red -20 red -30 green", "AKT-4.4", {"colour": "red"}),
        ("+100 blue -10 red -20 yellow", "AKT-4.1", {"needed": 3, "given": 2}),
        ("+100 blue -10 red -10 yellow -30 green", "AKT-4.1", {"given": ["-10", "-10", "-30"]}),
        ("+30 red -50 blue", "AKT-4.3", {"numbers": ["-60"], "given": ["-50"]}),
        ("x2 blue x2 red", "AKT-4.2", {"given": ["x2"]}),
        ("x2 blue", "AKT-4.2", {"needed": 1, "given": 0}),
    ],
)
def test_choices_must_match_the_card(p, play, rule, data):
    """The play template's own statement refuses an assignment its card does not allow."""
    state = start(p)
    error = violation(p, state, A.Begin("M"), play)
    assert error.rule == rule and error.origin == "template"
    assert {key: error.data[key] for key in data} == data


def test_hundred_split_free_allows_repeated_amounts(game):
    p = A.params(game, {"hundred_split": "free"})
    state, _ = run(p, start(p), A.Begin("M"), "+100 blue -30 red -30 yellow -30 green")
    assert state.prices == (200, 70, 70, 70)
    error = violation(p, start(p), A.Begin("M"), "+100 blue -40 red -30 yellow -30 green")
    assert error.rule == "AKT-4.1" and error.data["number"] == "-40"


def plays(p, state):
    """Every card play `legal_actions` offers, spelled out."""
    return [t.action({"choices": c}) for t in A.legal_actions(state, p) if t.kind == "play" for c in t.fields[0].options]


def test_legal_plays_are_all_legal_and_complete(p):
    state, _ = run(p, start(p), A.Begin("M"))
    plays_ = plays(p, state)
    hundreds = [play for play in plays_ if play.card == "+100 blue"]
    assert len(hundreds) == 6  # three other colours, −10/−20/−30 permuted
    assert len([play for play in plays_ if play.card == "+30 red"]) == 3
    assert len(plays_) == 4 * 6 + 8 * 3 + 32 * 3  # Hundreds, Doubles and Halves, small cards
    for play in plays_:
        run(p, state, play)


def test_legal_plays_with_free_split(game):
    p = A.params(game, {"hundred_split": "free"})
    state, _ = run(p, start(p), A.Begin("M"))
    assert len([play for play in plays(p, state) if play.card == "+100 green"]) == 27


# --- trading (AKT-3) ------------------------------------------------------------------------


def test_trades_at_board_prices(p):
    state = start(p, M=(0, {"red": 2}), red=150)
    state, events = run(p, state, A.Begin("M"), A.Trade.of(sell={"red": 2}, buy={"blue": 3}))
    assert cash(p, state, "M") == 0 and shares(p, state, "M", "blue") == 3
    assert said(events, "AKT-3.1") == [  # shares and amount signed: what M's account gains
        {"player": "M", "colour": "red", "shares": -2, "price": 150, "amount": 300, "cash": 300},
        {"player": "M", "colour": "blue", "shares": 3, "price": 100, "amount": -300, "cash": 0},
    ]


@pytest.mark.parametrize(
    "trade, rule, message",
    [
        (A.Trade.of(sell={"red": 3}), "AKT-3.1", "M sells 3 red but holds 2"),
        (A.Trade.of(buy={"blue": 2}), "AKT-3.1", "M buys 2 blue at 100 = 200 but has 150 cash"),
        (A.Trade.of(sell={"purple": 1}), "AKT-3.1", 'there are no "purple" shares'),
    ],
)
def test_stage_1_limits(p, trade, rule, message):
    state = start(p, M=(150, {"red": 2}))
    error = violation(p, state, A.Begin("M"), trade)
    assert (error.rule, error.message.split(" (")[0]) == (rule, message)


def test_stage_1_may_sell_what_it_just_bought(p):
    """The restriction is on stage 3 only (AKT-3.3)."""
    state = start(p, M=(100, {}))
    state, _ = run(p, state, A.Begin("M"), A.Trade.of(buy={"red": 1}), A.Trade.of(sell={"red": 1}))
    assert cash(p, state, "M") == 100 and shares(p, state, "M", "red") == 0


def test_compensation_is_spendable_in_stage_3(p):
    """AKT-3.5: M lowers red holding 12 (+360), then buys 5 red at 70 with it."""
    state = start(p, M=(0, {"red": 12}))
    state, _ = run(p, state, A.Begin("M"), "+60 blue -30 red", A.Trade.of(buy={"red": 5}))
    assert cash(p, state, "M") == 360 - 350 and shares(p, state, "M", "red") == 17


def test_stage_3_sellable_counts_holding_minus_stage_1_purchases(p):
    state = start(p, M=(300, {"red": 1}))
    state, _ = run(p, state, A.Begin("M"), A.Trade.of(buy={"red": 2}), "+50 red -40 green")
    (trade,) = [t for t in A.legal_actions(state, p) if t.kind == "trade"]
    assert {f.name: f.high for f in trade.fields}["sell.red"] == 1
    error = violation(p, state, A.Trade.of(sell={"red": 2}))
    assert error.rule == "AKT-3.3"


def test_trading_only_during_ones_turn(p):
    assert violation(p, start(p), A.Trade.of(buy={"red": 1})).rule == "AKT-3.4"
    assert violation(p, start(p), "+30 red -60 blue").rule == "AKT-3.2"


# --- turn structure and order (AKT-3.2, 3.6, 9.1) --------------------------------------------


def test_turn_order_follows_seating_after_the_first_mover(p):
    state = start(p, players=("Ana", "Ben", "Cris"))
    state, _ = run(p, state, A.Begin("Ben"), "+30 red -60 blue")  # first mover by lot (AKT-2.5)
    error = violation(p, state, A.Begin("Ana"))
    assert error.rule == "AKT-3.6" and error.message == "it is Cris's turn in seating order, not Ana's"
    state, _ = run(p, state, A.Begin("Cris"), "+30 blue -60 red", A.Begin("Ana"))
    assert state.turn.mover == 0


def test_exactly_one_card_per_turn(p):
    state, _ = run(p, start(p), A.Begin("M"))
    assert violation(p, state, A.Begin("O")).rule == "AKT-3.2"
    state, _ = run(p, state, "+30 red -60 blue")
    assert violation(p, state, "+40 red -50 blue").rule == "AKT-3.2"


def test_without_a_deal_the_deck_and_formula_bound_the_plays(game):
    p = A.params(game, {"formula": "2+1"})
    state = start(p)
    state, _ = run(p, state, A.Begin("M"), "x2 blue /2 red", A.Begin("O"))
    error = violation(p, state, "x2 blue /2 green")
    assert error.rule == "AKT-1.4" and (error.data["card"], error.data["count"], error.data["copies"]) == ("x2 blue", 2, 1)
    hundred = "+100 red -10 blue -20 yellow -30 green"
    state, _ = run(p, state, hundred, A.Begin("M"), hundred, A.Begin("O"), hundred, A.Begin("M"))
    error = violation(p, state, hundred)
    assert error.rule == "AKT-1.4" and (error.data["card"], error.data["count"], error.data["copies"]) == ("+100 red", 4, 3)
    error = violation(p, state, "+100 green -10 blue -20 yellow -30 red")
    assert error.rule == "AKT-2.3" and (error.data["count"], error.data["deck"], error.data["allowed"]) == (3, "big_cards", 2)


def test_a_dealt_player_plays_from_his_hand(p):
    state, _ = A.setup(p, ["M", "O"], A.Start(hands={"M": ["x2 red"], "O": ["+30 red"]}, complete=False))
    error = violation(p, state, A.Begin("M"), "x2 blue /2 red")
    assert error.rule == "AKT-3.2" and error.message == 'M plays "x2 blue" but holds x2 red'


def test_the_game_ends_when_every_card_is_played(game):
    p = A.params(game, {"formula": "0+1"})
    state = start(p, players=("Ana", "Ben"))
    state, events = run(p, state, A.Begin("Ben"), "+30 red -60 blue", A.Begin("Ana"), "+60 blue -30 red")
    assert state.over and events[-1].rule == "AKT-9.3"
    assert state.prices == (100, 100, 100, 100)
    assert A.outcome(state, p).scores == {"Ana": 400 + 30, "Ben": 400 + 60}  # compensation for red, blue
    assert violation(p, state, A.Begin("Ben")).rule == "AKT-9.1"


def test_shared_win_on_equal_capital(p):
    state = start(p, players=("Ana", "Ben", "Cris"), Ana=(500, {}), Ben=(500, {}), Cris=(400, {}))
    state = dataclasses.replace(state, over=True)
    assert A.outcome(state, p).winners == ("Ana", "Ben")


# --- the last move (AKT-8.1) ------------------------------------------------------------------


def test_last_move_rule_without_a_deal_counts_turns(game):
    """1+1 for two players: trading stops as soon as everyone holds one card."""
    p = A.params(game, {"formula": "1+1"})
    state = start(p, M=(500, {}), O=(500, {}))
    state, _ = run(p, state, A.Begin("M"), A.Trade.of(buy={"red": 1}), "+30 red -60 blue", A.Trade.of(buy={"red": 1}))
    state, _ = run(p, state, A.Begin("O"), A.Trade.of(buy={"red": 1}), "+30 blue -60 red")
    assert not [t for t in A.legal_actions(state, p) if t.kind == "trade"]  # each holds one card: O's own stage 3 too
    assert violation(p, state, A.Trade.of(sell={"red": 1})).rule == "AKT-8.1"
    state, events = run(p, state, A.Begin("M"))
    assert events[-1].rule == "AKT-8.1"
    assert violation(p, state, A.Trade.of(buy={"blue": 1})).rule == "AKT-8.1"
    assert violation(p, state, A.Trade.of()).rule == "AKT-8.1"  # not even a trade of nothing is offered
    state, _ = run(p, state, "x2 red /2 blue")
    assert [t.kind for t in A.legal_actions(state, p)] == ["begin"]  # no trade, no second card


# --- compensation, overflow, penalties (AKT-6, 7) ---------------------------------------------


def test_every_money_event_carries_its_amount(p):
    state = start(p, M=(0, {"blue": 2, "red": 1, "yellow": 2, "green": 5}), O=(40, {"red": 2, "yellow": 3}),
                  blue=240, red=10, yellow=20, green=30)
    state, events = run(p, state, A.Begin("M"), "+100 blue -30 red -20 yellow -10 green")
    money = [(e.rule, e.data["player"], e.data["amount"]) for e in events if "amount" in e.data]
    assert money == [
        ("AKT-6.3", "M", 0), ("AKT-6.3", "M", 20), ("AKT-6.1", "M", 50), ("AKT-6.2", "M", 180),
        ("AKT-7.2", "O", -30), ("AKT-7.4", "O", 0),
    ]
    assert [e.data.get("lost") for e in events if e.rule.startswith("AKT-7.") and "lost" in e.data] == [0, 2]


def test_the_mover_never_pays_penalties(p):
    state = start(p, M=(0, {"green": 3}), green=20)
    state, _ = run(p, state, A.Begin("M"), "+30 red -60 green")
    assert cash(p, state, "M") == 30 and shares(p, state, "M", "green") == 3


def test_penalty_with_no_cash_takes_all_shares(p):
    state = start(p, O=(0, {"green": 6}), green=20)
    state, events = run(p, state, A.Begin("M"), "+30 red -60 green")
    assert shares(p, state, "O", "green") == 0
    assert (events[-1].rule, plain(events[-1].data)) == ("AKT-7.4", {
        "player": "O", "colour": "green", "penalty": 50, "held": 6, "due": 300, "cash": 0, "kept": 0, "amount": 0, "lost": 6})


def test_overflow_bonuses_pay_penalties_of_the_same_move(p):
    """AKT-7.3: the bonus from blue past 250 pays the green penalty of the same card."""
    state = start(p, O=(0, {"blue": 4, "green": 1}), blue=230, green=40)
    state, _ = run(p, state, A.Begin("M"), "-60 green +30 blue")
    assert cash(p, state, "O") == 4 * 10 - 30 and shares(p, state, "O", "green") == 1


# --- options: elimination and match play --------------------------------------------------------


def test_eliminate_broke(game):
    p = A.params(game, {"eliminate_broke": True, "formula": "0+2"})
    players = ("M", "O", "X")
    state = start(p, players=players, O=(0, {"green": 2}), green=20)
    state, events = run(p, state, A.Begin("M"), "+30 red -60 green")
    assert 1 in state.out and events[-1].rule == "AKT-A11"
    assert violation(p, state, A.Begin("O")).rule == "AKT-A11"
    state, _ = run(p, state, A.Begin("X"), "+40 red -50 blue", A.Begin("M"), "+50 red -40 blue")
    state, _ = run(p, state, A.Begin("X"), "+60 red -30 blue")
    assert state.over  # O's cards are out of the game with him


def test_everyone_eliminated_at_setup_is_no_game(game):
    """With nothing held and cash below every price, eliminate_broke leaves nobody to play: a
    setup the rules cannot reach (AKT-A11), not a game that never ends."""
    p = A.params(game, {"eliminate_broke": True, "start_shares": 0})
    with pytest.raises(Violation) as refused:
        A.setup(p, ("M", "O", "X"))
    assert refused.value.rule == "AKT-A11"
    state, _ = A.setup(A.params(game, {"eliminate_broke": True, "start_shares": 0, "start_cash": 100}), ("M", "O"))
    assert state.out == frozenset()  # cash enough for the cheapest share: everyone plays


def test_without_the_option_a_broke_player_keeps_playing(p):
    state = start(p, O=(0, {"green": 2}), green=20)
    state, _ = run(p, state, A.Begin("M"), "+30 red -60 green", A.Begin("O"), "+40 red -50 blue")
    assert not state.out and state.turn.mover == 1


@pytest.mark.parametrize("match, games", [("seed_formula", 4), ("single", 1), ("rotation_n", 3)])
def test_match_length(game, match, games):
    assert A.match_games(A.params(game, {"match": match}), 3) == games


def test_match_seating_rotates_the_first_and_last_mover(game):
    p = A.params(game)
    players = ("A", "Б")
    assert [A.seating(players, k) for k in range(A.match_games(p, 2))] == [("A", "Б"), ("Б", "A")]
    three = [A.seating(("A", "B", "C"), k) for k in range(4)]
    assert three == [("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B"), ("A", "B", "C")]


def test_apply_never_changes_its_input(p):
    state = start(p, M=(300, {"red": 3}))
    before = repr(state)
    run(p, state, A.Begin("M"), A.Trade.of(buy={"red": 1}), "+100 red -10 blue -20 yellow -30 green")
    assert repr(state) == before
