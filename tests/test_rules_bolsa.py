"""The bolsa engine, rule by rule and option by option (rules/bolsa.md), through its pure API."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pnp.errors import SpecError
from pnp.rules import load_spec, loads_spec
from pnp.rules.base import Outcome, Violation, plain
from pnp.rules.bolsa import engine as bolsa
from pnp.rules.bolsa.engine import Bid, Declare, Pair, Resolve, Settle, Start, Withdraw

GAME = load_spec(None).games["bolsa"]
SPEC_TEXT = (Path(__file__).resolve().parents[1] / "pnp" / "data" / "components.yaml").read_text(encoding="utf-8")
P4 = ("P1", "P2", "P3", "P4")


def params(**options):
    return bolsa.params(GAME, options)


def position(p, names=P4, **start):
    state, _ = bolsa.setup(p, names, Start(**start))
    return state


def run(state, p, actions):
    events = []
    for action in actions:
        state, more = bolsa.apply(state, action, p)
        events += more
    return state, events


def play_round(state, p, declare, bids=None, withdraw=None, pairing=None):
    """Declarations {name: (sell, buy)}, then every company in board order."""
    actions = [Declare(name, sell, buy) for name, (sell, buy) in declare.items()]
    for code in p.companies:
        actions.append(Resolve())
        actions += [Bid(name, amount) for name, amount in (bids or {}).get(code, [])]
        actions += [Withdraw(name) for name in (withdraw or {}).get(code, [])]
        actions.append(Settle((pairing or {}).get(code)))
    return run(state, p, actions)


def said(events, rule):
    """What the events under `rule` say, as their data (the numbers and names their sentences
    word), one plain dict each: the rules' facts, whatever the language or the wording."""
    return [plain(e.data) for e in events if e.rule == rule]


def cash(state):
    return {pl.name: pl.cash for pl in state.players}


def zones(state, name, code, p):
    return state.players[state.index(name)].zones[p.company(code)]


def violation(state, p, actions):
    with pytest.raises(Violation) as caught:
        run(state, p, actions)
    return caught.value


# --- parameters from the spec (the board and the rules agree) ---------------------------------


def test_params_come_from_components_yaml():
    p = params()
    assert p.companies == ("IBE", "SAN", "TEF", "ITX", "FER")
    assert (p.start_quote, p.start_cash, p.rounds) == (10, 50, 5)
    assert (p.price_min, p.price_max, p.board_cells, p.top_cell) == (0, 39, 20, 19)
    assert (p.min_players, p.max_players, p.deck_per_company) == (3, 6, 18)
    assert params(rounds=3, start_cash=80).rounds == 3 and params(start_cash=80).start_cash == 80


def test_a_longer_quote_track_moves_the_start_the_top_and_the_flip():
    spec = loads_spec(SPEC_TEXT.replace("quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 29, start: 15}"))
    p = bolsa.params(spec.games["bolsa"])
    assert (p.start_quote, p.price_max, p.top_cell) == (15, 59, 29)
    state = position(p, prices={"FER": 29}, cash={"P1": 60})
    state, events = play_round(state, p, {"P1": ({}, {"FER": 2})})
    assert state.prices[4] == 31
    assert said(events, "BOLSA-6.2") == [{"company": "FER", "from": 29, "to": 31, "cells": 30, "cell": 1}]  # flipped


# --- BOLSA-1.9, 2 setup ------------------------------------------------------------------------


def test_setup_deals_the_standard_position():
    p = params()
    state, events = bolsa.setup(p, P4)
    assert state.prices == (10,) * 5 and state.round == 1 and state.token == 0
    assert all(pl.cash == 50 and all((z.owned, z.orders, z.offered, z.requested) == (1, 2, 0, 0) for z in pl.zones)
               for pl in state.players)
    assert [e.rule for e in events] == ["BOLSA-1.9", "BOLSA-2.1", "BOLSA-2.2", "BOLSA-2.3", "BOLSA-2.4"]


@pytest.mark.parametrize("count", [2, 7])
def test_three_to_six_players(count):
    with pytest.raises(Violation) as caught:
        bolsa.setup(params(), [f"P{i}" for i in range(count)])
    assert caught.value.rule == "BOLSA-1.9" and caught.value.message == f"the game is for 3–6 players, not {count}"


def test_a_smaller_deck_seats_fewer_players():
    spec = loads_spec(SPEC_TEXT.replace("count: 18", "count: 15").replace("players: {min: 3, max: 6}",
                                                                          "players: {min: 3, max: 5}"))
    p = bolsa.params(spec.games["bolsa"])
    assert p.deck_per_company == 15
    bolsa.setup(p, ["A", "B", "C", "D", "E"])
    with pytest.raises(Violation) as caught:
        bolsa.setup(replace(p, max_players=6), ["A", "B", "C", "D", "E", "F"])
    assert caught.value.message == "6 players need 18 cards of each company, but the deck has 15"
    with pytest.raises(SpecError) as refused:  # the spec may not list a count its deck cannot seat
        loads_spec(SPEC_TEXT.replace("count: 18", "count: 15"))
    (issue,) = refused.value.issues
    assert issue.path == "games.bolsa.players.max" and "6 players need 18" in issue.message


def test_start_completes_each_holding_to_three_cards():
    state = position(params(), owned={"P1": {"IBE": 3}, "P2": {"IBE": 0}, "P3": {"IBE": 0}}, orders={"P4": {"IBE": 2}})
    assert [(pl.zones[0].owned, pl.zones[0].orders) for pl in state.players] == [(3, 0), (0, 3), (0, 3), (1, 2)]


@pytest.mark.parametrize(
    "start, rule, message",
    [
        ({"owned": {"P1": {"SAN": 2}}, "orders": {"P1": {"SAN": 2}}}, "BOLSA-2.6",
         "P1 starts with 2 SAN in zone 1 and 2 in zone 2, but every player has exactly 3 SAN cards"),
        ({"owned": {"P1": {"SAN": 4}}}, "BOLSA-2.6",
         "P1 starts with 4 SAN in zone 1 and -1 in zone 2, but every player has exactly 3 SAN cards"),
        ({"owned": {"P1": {"SAN": 2}}}, "BOLSA-2.6",
         "5 SAN shares are owned in all, but 4 players own exactly 4 (1 each at setup; trades only move them)"),
        ({"prices": {"TEF": 40}}, "BOLSA-6.1", "TEF starts at 40, off the quote track (0–39)"),
        ({"round": 6}, "BOLSA-3.1", "the start is round 6, but the game has 5 rounds"),
    ],
)
def test_a_start_the_rules_cannot_reach_is_a_violation(start, rule, message):
    with pytest.raises(Violation) as caught:
        bolsa.setup(params(), P4, Start(**start))
    assert (caught.value.rule, caught.value.message) == (rule, message)


# --- BOLSA-3.2 declarations --------------------------------------------------------------------


def test_declaring_moves_cards_to_zones_3_and_4():
    p = params()
    state, events = run(position(p), p, [Declare("P1", {"SAN": 1}, {"TEF": 2})])
    assert zones(state, "P1", "SAN", p) == bolsa.Zones(0, 2, 1, 0)
    assert zones(state, "P1", "TEF", p) == bolsa.Zones(1, 0, 0, 2)
    assert [e.rule for e in events] == ["BOLSA-3.2.2", "BOLSA-3.2.3"]
    state, events = run(state, p, [Declare("P2")])
    assert said(events, "BOLSA-3.2.4") == [{"player": "P2"}]


@pytest.mark.parametrize(
    "action, rule, message",
    [
        (Declare("P1", sell={"SAN": 2}), "BOLSA-3.2.2", "P1 offers 2 SAN but owns 1"),
        (Declare("P1", buy={"TEF": 3}), "BOLSA-3.2.3", "P1 requests 3 TEF but has 2 order cards of it"),
        (Declare("P1", {"TEF": 1}, {"TEF": 1}), "BOLSA-3.2.6", "P1 both offers and requests TEF in one round"),
        (Declare("P4", buy={"IBE": 2, "FER": 2}), "BOLSA-3.2.5", "P4 requests 2 IBE at 10 + 2 FER at 10 = 40 but holds 30"),
    ],
)
def test_illegal_declarations(action, rule, message):
    p = params()
    v = violation(position(p, cash={"P4": 30}), p, [action])
    assert (v.rule, v.message) == (rule, message)


def test_declaration_cash_check_none_lets_the_shortfall_rule_decide():
    p = params(declaration_cash_check="none")
    state, events = play_round(position(p, cash={"P4": 30}), p, {"P4": ({}, {"IBE": 2, "FER": 2})})
    assert state.prices[0] == 12  # IBE: case 3 with both requests (20 ≤ 30)
    assert said(events, "BOLSA-4.7.1") == []
    assert state.prices[4] == 12  # FER: he still has 30 ≥ 2 × 10
    p = params(declaration_cash_check="none")
    state, events = play_round(position(p, cash={"P4": 15}), p, {"P4": ({}, {"IBE": 2, "FER": 1})})
    assert said(events, "BOLSA-4.7.1") == [{"company": "IBE", "player": "P4", "cash": 15, "shares": 2, "quote": 10, "cost": 20,
                                            "withdrawn": {"IBE": 2, "FER": 1}}]
    assert state.prices[0] == 10 and state.prices[4] == 10  # nothing left to count at FER either


def test_declaring_twice_or_after_the_trade_phase_began():
    p = params()
    state, _ = run(position(p), p, [Declare("P1")])
    assert violation(state, p, [Declare("P1")]).rule == "BOLSA-3.2.1"
    state, _ = run(state, p, [Resolve()])
    assert violation(state, p, [Declare("P2")]).rule == "BOLSA-3.2.7"


def test_same_company_both_ways_net_cancels_one_for_one_before_trade():
    p = params(same_company_both_ways="net")
    state = position(p, owned={"P1": {"SAN": 2}, "P2": {"SAN": 0}})
    state, events = run(state, p, [Declare("P1", {"SAN": 2}, {"SAN": 1}), Resolve()])
    assert said(events, "BOLSA-3.2.6") == [{"player": "P1", "company": "SAN", "shares": 1}]
    assert zones(state, "P1", "SAN", p) == bolsa.Zones(1, 1, 1, 0)


# --- BOLSA-4 the six cases ---------------------------------------------------------------------


def test_case_1_nothing_happens():
    p = params()
    state, events = play_round(position(p), p, {})
    assert state.prices == (10,) * 5 and cash(state) == dict.fromkeys(P4, 50)
    assert said(events, "BOLSA-4.1") == [{"company": code, "quote": 10} for code in p.companies]


def test_cases_2_and_3_move_the_quote_by_the_cards_without_trading():
    p = params()
    state, events = play_round(position(p), p, {"P1": ({"SAN": 1}, {"TEF": 2}), "P2": ({"SAN": 1}, {"TEF": 1})})
    assert state.prices[1:3] == (8, 13) and cash(state) == dict.fromkeys(P4, 50)
    assert zones(state, "P1", "SAN", p) == bolsa.Zones(1, 2) and zones(state, "P1", "TEF", p) == bolsa.Zones(1, 2)


def test_case_4_everyone_trades_at_the_quote():
    p = params()
    state, events = play_round(position(p), p, {"P1": ({"ITX": 1}, {}), "P2": ({"ITX": 1}, {}), "P3": ({}, {"ITX": 2})})
    assert state.prices[3] == 10 and cash(state) == {"P1": 60, "P2": 60, "P3": 30, "P4": 50}


def test_case_6_under_the_literal_trigger_two_sellers_do_not_auction():
    p = params(auction_trigger="literal")
    state, events = play_round(position(p, token="P2"), p, {"P1": ({"SAN": 1}, {}), "P2": ({"SAN": 1}, {}), "P3": ({}, {"SAN": 1})})
    assert said(events, "BOLSA-4.6.1") == [{"company": "SAN", "offered": 2, "sellers": ["P2", "P1"], "requested": 1, "price": 10,
                                            "unsold": 1, "from": 10, "to": 9}]
    assert cash(state) == {"P1": 50, "P2": 60, "P3": 40, "P4": 50}  # the token holder's side sells first
    default = params()
    state, events = run(position(default), default, [Declare("P1", {"SAN": 1}), Declare("P2", {"SAN": 1}),
                                                      Declare("P3", {}, {"SAN": 1}), Resolve(), Settle(), Resolve()])
    assert state.trade.auction is not None and state.trade.auction.order == (0, 1)


def test_case_6_literal_with_three_sellers_still_auctions():
    p = params(auction_trigger="literal")
    acts = [Declare(n, {"SAN": 1}) for n in ("P1", "P2", "P3")] + [Declare("P4", {}, {"SAN": 1}), Resolve(), Settle(), Resolve()]
    state, events = run(position(p), p, acts)
    assert state.trade.auction.order == (0, 1, 2) and not state.trade.auction.ascending


def test_shortfall_at_payment_passes_the_share_down_and_leaves_shares_unsold():
    p = params(declaration_cash_check="none")
    state = position(p, cash={"P2": 20})
    acts = [Declare("P1", {}, {"IBE": 1}), Declare("P2", {}, {"IBE": 2, "FER": 1}), Declare("P3", {"IBE": 1}), Declare("P4", {"IBE": 1}),
            Resolve(), Bid("P1", 21), Bid("P2", None), Settle()]
    state, events = run(state, p, acts)
    assert said(events, "BOLSA-4.7.2") == [{"company": "IBE", "player": "P2", "shares": 1, "price": 21, "cost": 21, "cash": 20,
                                            "withdrawn": {"IBE": 2, "FER": 1}}]
    assert cash(state) == {"P1": 29, "P2": 20, "P3": 71, "P4": 50}  # P3 sells first from the token holder P1
    assert zones(state, "P4", "IBE", p) == bolsa.Zones(1, 2)  # unsold: 3 → 1
    assert zones(state, "P2", "FER", p) == bolsa.Zones(1, 2)  # his FER request went back too
    assert state.prices[0] == 21  # Q := P anyway


def test_pairing_chooses_which_seller_keeps_an_unsold_share():
    p = params(declaration_cash_check="none")
    state = position(p, cash={"P2": 20})
    acts = [Declare("P1", {}, {"IBE": 1}), Declare("P2", {}, {"IBE": 2}), Declare("P3", {"IBE": 1}), Declare("P4", {"IBE": 1}),
            Resolve(), Bid("P1", 21), Bid("P2", None), Settle((Pair("P1", "P4", 1),))]
    state, events = run(state, p, acts)
    assert cash(state) == {"P1": 29, "P2": 20, "P3": 50, "P4": 71}
    assert said(events, "BOLSA-4.8") == [{"company": "IBE", "buyer": "P1", "seller": "P4", "shares": 1, "price": 21, "amount": 21,
                                          "automatic": False}]  # as paired


@pytest.mark.parametrize(
    "pairing, message",
    [
        ((Pair("P3", "P1", 1), Pair("P4", "P1", 1)), "the pairing has P3 buying ITX, but P3 has no ITX requests"),
        ((Pair("P2", "P3", 2),), "the pairing has P3 selling ITX, but P3 offered none"),
        ((Pair("P2", "P1", 1),), "the pairing has P2 trading 1 ITX, but P2 bought 2"),
        ((Pair("P2", "P1", 2),), "the pairing has P1 selling 2 ITX, but only 1 are his to trade"),
        ((Pair("P2", "P1", 1), Pair("P2", "P1", 1)), "the pairing has P1 selling 2 ITX, but only 1 are his to trade"),
    ],
)
def test_an_inconsistent_pairing_is_a_violation(pairing, message):
    p = params()
    state = position(p, owned={"P3": {"ITX": 2}, "P1": {"ITX": 1}, "P2": {"ITX": 0}, "P4": {"ITX": 1}})
    acts = [Declare("P1", {"ITX": 1}), Declare("P4", {"ITX": 1}), Declare("P2", {}, {"ITX": 2})] + [Resolve(), Settle()] * 3 + [Resolve()]
    state, _ = run(state, p, acts)
    v = violation(state, p, [Settle(pairing)])
    assert (v.rule, v.message) == ("BOLSA-4.8", message)


@pytest.mark.parametrize(
    "pairing, message",
    [
        ((Pair("P1", "P3", 2),), "the pairing has P3 selling 2 IBE, but only 1 are his to trade"),
        ((Pair("P1", "P4", 1),), "the pairing sells 1 IBE, but 2 change hands"),
        ((Pair("P1", "P4", 1), Pair("P2", "P4", 1)), "the pairing has P2 buying IBE, but P2 has no IBE requests"),
    ],
)
def test_a_pairing_that_chooses_sellers_must_add_up(pairing, message):
    """P1 buys 2 of the 3 offered (P2 cannot pay and withdraws): the pairing picks who sells."""
    p = params(declaration_cash_check="none")
    state = position(p, cash={"P2": 20}, owned={"P2": {"IBE": 0}, "P4": {"IBE": 2}})
    acts = [Declare("P1", {}, {"IBE": 2}), Declare("P2", {}, {"IBE": 2}), Declare("P3", {"IBE": 1}), Declare("P4", {"IBE": 2}),
            Resolve(), Bid("P1", 21), Bid("P2", None)]
    state, _ = run(state, p, acts)
    v = violation(state, p, [Settle(pairing)])
    assert (v.rule, v.message) == ("BOLSA-4.8", message)
    state, events = run(state, p, [Settle((Pair("P1", "P4", 2),))])
    assert cash(state) == {"P1": 8, "P2": 20, "P3": 50, "P4": 92}
    assert zones(state, "P3", "IBE", p) == bolsa.Zones(1, 2)  # P3 kept his share


def test_a_pairing_for_a_company_nobody_traded():
    p = params()
    state, _ = run(position(p), p, [Resolve()])
    v = violation(state, p, [Settle((Pair("P1", "P2", 1),))])
    assert v.message == "a pairing is given for IBE, but no IBE shares change hands"


# --- BOLSA-5 auctions --------------------------------------------------------------------------


def auction_position(p, token="P1", buyers=("P1", "P2", "P3")):
    """IBE: P4 offers 1, the buyers request 1 each: an ascending auction."""
    state = position(p, token=token)
    return run(state, p, [Declare("P4", {"IBE": 1})] + [Declare(b, {}, {"IBE": 1}) for b in buyers] + [Resolve()])[0]


def test_bidding_starts_with_the_token_holder_or_the_next_participant():
    p = params()
    assert auction_position(p, token="P2").trade.auction.order == (1, 2, 0)
    assert auction_position(p, token="P4").trade.auction.order == (0, 1, 2)  # P4 sells: P1 is next


@pytest.mark.parametrize(
    "bids, rule, message",
    [
        ([("P2", 11)], "BOLSA-5.2", "P2 bids out of turn in the IBE auction: it is P1's turn"),
        ([("P4", 11)], "BOLSA-5.1", "P4 is not in the IBE auction; only its buyers bid (P1, P2, P3)"),
        ([("P1", 9)], "BOLSA-5.3", "P1 opens the IBE auction at 9, below the quote 10"),
        ([("P1", 12), ("P2", 12)], "BOLSA-5.3", "P2 bids 12 on IBE, not above the high bid 12"),
        ([("P1", 40)], "BOLSA-5.3", "P1 bids 40 on IBE, above the top of the quote track (39)"),
        ([("P1", 51)], "BOLSA-5.3", "P1 bids 51 on IBE, above the top of the quote track (39)"),
        ([("P1", None), ("P2", 11), ("P3", 12), ("P1", 13)], "BOLSA-5.3", "P1 already passed in the IBE auction, and a pass is final"),
    ],
)
def test_illegal_bids(bids, rule, message):
    p = params()
    v = violation(auction_position(p), p, [Bid(n, a) for n, a in bids])
    assert (v.rule, v.message) == (rule, message)


def test_unbounded_top_lets_bids_pass_39_up_to_the_cash_limit():
    p = params(price_bounds="unbounded_top")
    state, events = run(auction_position(p), p, [Bid("P1", 45), Bid("P2", None), Bid("P3", None), Settle()])
    assert state.prices[0] == 45
    v = violation(auction_position(p), p, [Bid("P1", 51)])
    assert v.message == "P1 bids 51 on IBE: 51 × 1 requested = 51 but holds 50 (at most 50)"


def test_nobody_bids_the_last_one_standing_wins_at_the_quote():
    p = params()
    state, events = run(auction_position(p), p, [Bid("P1", None), Bid("P2", None)])
    assert said(events, "BOLSA-5.5") == [{"company": "IBE", "player": "P3", "price": 10, "unbid": True, "ranking": ["P3", "P2", "P1"]}]
    state, events = run(state, p, [Settle()])
    assert cash(state)["P3"] == 40 and state.prices[0] == 10


def test_settling_before_the_auction_ends_or_resolving_twice():
    p = params()
    assert violation(auction_position(p), p, [Settle()]).message == "the IBE auction is not over: P1 is to bid"
    assert violation(auction_position(p), p, [Resolve()]).rule == "BOLSA-3.3.2"


def test_descending_auction_limits():
    p = params()
    state = position(p, owned={"P1": {"SAN": 2}, "P4": {"SAN": 0}})
    state, _ = run(state, p, [Declare("P1", {"SAN": 2}), Declare("P2", {"SAN": 1}), Declare("P4", {}, {"SAN": 1}),
                              Resolve(), Settle(), Resolve()])
    assert violation(state, p, [Bid("P1", 11)]).message == "P1 opens the SAN auction at 11, above the quote 10"
    assert violation(state, p, [Bid("P1", 5), Bid("P2", 5)]).message == "P2 bids 5 on SAN, not below the low bid 5"
    assert violation(state, p, [Bid("P1", 0), Bid("P2", -1)]).message == "P2 bids -1 on SAN, below the bottom of the quote track (0)"
    state, events = run(state, p, [Bid("P1", 0), Bid("P2", None), Settle()])
    assert state.prices[1] == 0 and cash(state)["P1"] == 50 and zones(state, "P4", "SAN", p) == bolsa.Zones(1, 2)


def test_losers_must_trade_by_default():
    p = params()
    state, _ = run(auction_position(p), p, [Bid("P1", 12), Bid("P2", None), Bid("P3", None)])
    v = violation(state, p, [Withdraw("P2")])
    assert (v.rule, v.message) == ("BOLSA-5.7", "P2 may not withdraw: the losers of an auction trade at its price too")


def test_may_withdraw_lets_a_loser_take_back_his_cards_and_the_share_passes_down():
    p = params(auction_losers="may_withdraw")
    state = position(p, owned={"P4": {"IBE": 2}, "P1": {"IBE": 0}})
    acts = [Declare("P4", {"IBE": 2}), Declare("P1", {}, {"IBE": 1}), Declare("P2", {}, {"IBE": 2}), Declare("P3", {}, {"IBE": 1}),
            Resolve(), Bid("P1", 14), Bid("P2", None), Bid("P3", None)]
    state, _ = run(state, p, acts)
    assert violation(state, p, [Withdraw("P1")]).message == "P1 did not lose the IBE auction, so he cannot withdraw from it"
    state, events = run(state, p, [Withdraw("P3"), Settle()])
    assert said(events, "BOLSA-5.7") == [{"company": "IBE", "player": "P3", "shares": 1, "side": "requested"}]
    (allocated,) = said(events, "BOLSA-5.6")
    assert allocated == {"company": "IBE", "price": 14, "shares": {"P1": 1, "P3": 0, "P2": 1}}
    assert list(allocated["shares"]) == ["P1", "P3", "P2"]  # in ranking order
    assert cash(state) == {"P1": 36, "P2": 36, "P3": 50, "P4": 78}
    assert violation(state, p, [Withdraw("P3")]).rule == "BOLSA-5.7"


# --- BOLSA-6 quotes, 3.5 end of round, 7 end of game -----------------------------------------------


def test_the_token_turns_back_face_up_below_20():
    p = params()
    state, events = play_round(position(p, prices={"FER": 21}), p, {"P1": ({"FER": 1}, {}), "P2": ({"FER": 1}, {})})
    assert state.prices[4] == 19
    assert said(events, "BOLSA-6.2") == [{"company": "FER", "from": 21, "to": 19}]  # face up on cell 19, nothing flipped


def test_rounds_advance_the_token_passes_and_the_game_ends():
    p = params(rounds=2)
    state, events = play_round(position(p, token="P4"), p, {})
    assert (state.round, state.token, state.over) == (2, 0, False)
    assert said(events, "BOLSA-3.5.1") == [{"from": "P4", "to": "P1"}]
    state, events = play_round(state, p, {})
    assert state.over and said(events, "BOLSA-3.5.2") == [{"round": 2}]  # the last round, no next one
    v = violation(state, p, [Declare("P1")])
    assert (v.rule, v.message) == ("BOLSA-3.5.2", "the game ended after round 2; nothing more can be played")


def test_final_scores_and_a_shared_win():
    p = params(rounds=1)
    state, events = play_round(position(p), p, {})
    assert bolsa.outcome(state, p) == Outcome(dict.fromkeys(P4, 100), P4, "last_round")
    assert said(events, "BOLSA-7.2") == [{"winners": list(P4), "tied": list(P4), "score": 100}]


def test_tiebreak_cash_before_payout():
    p = params(rounds=1, tiebreak="cash_before_payout")
    state = position(p, cash={"P1": 60, "P2": 40, "P3": 0, "P4": 0}, owned={"P1": {"IBE": 0}, "P2": {"IBE": 2}})
    state, events = play_round(state, p, {})
    result = bolsa.outcome(state, p)
    assert result.scores["P1"] == result.scores["P2"] == 100 and result.winners == ("P1",)
    assert said(events, "BOLSA-7.2") == [{"winners": ["P1"], "tied": ["P1", "P2"], "score": 100}]
    shared = params(rounds=1)
    state = position(shared, cash={"P1": 60, "P2": 40, "P3": 0, "P4": 0}, owned={"P1": {"IBE": 0}, "P2": {"IBE": 2}})
    state, _ = play_round(state, shared, {})
    assert bolsa.outcome(state, shared).winners == ("P1", "P2")


def test_sellers_who_withdraw_after_a_descending_auction_leave_requests_unfilled():
    p = params(auction_losers="may_withdraw")
    acts = [Declare("P1", {"TEF": 1}), Declare("P2", {"TEF": 1}), Declare("P3", {"TEF": 1}), Declare("P4", {}, {"TEF": 2})]
    acts += [Resolve(), Settle()] * 2 + [Resolve(), Bid("P1", 9), Bid("P2", None), Bid("P3", None),
                                         Withdraw("P2"), Withdraw("P3"), Settle()]
    state, events = run(position(p, owned={"P4": {"TEF": 0}, "P1": {"TEF": 2}}), p, acts)
    (allocated,) = said(events, "BOLSA-5.6")
    assert allocated == {"company": "TEF", "price": 9, "shares": {"P1": 1, "P3": 0, "P2": 0}}
    assert list(allocated["shares"]) == ["P1", "P3", "P2"]  # in ranking order
    assert cash(state) == {"P1": 59, "P2": 50, "P3": 50, "P4": 41} and state.prices[2] == 9
    assert zones(state, "P4", "TEF", p) == bolsa.Zones(1, 2)  # 1: 4→1, 1: 4→2
    assert zones(state, "P2", "TEF", p) == bolsa.Zones(1, 2)  # took his card back: 3 → 1


def test_the_start_quote_and_cash_can_be_set_for_one_game():
    p = params(start_quote=12, start_cash=80)
    state = position(p)
    assert state.prices == (12,) * 5 and cash(state) == dict.fromkeys(P4, 80)
