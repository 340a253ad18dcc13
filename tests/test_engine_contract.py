"""What every engine promises its callers beyond playing (`pnp.rules.contract.Engine`): every
member present, an unknown action refused as Malformed, a worth on every position, the deal,
and hidden information — each seat's `view` and a `determinize` consistent with it.

Every registered game is played here at random (the shared sampler), with no edit of this
file for a new one; the game-specific tests below pin what each game hides and deals.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any, Iterator

import pytest

from pnp.referee import check, reads_record
from pnp.referee import record as records
from pnp.referee.conformance import check_engine
from pnp.referee.replay import referee_for
from pnp.rules import GAMES, load_spec
from pnp.rules.aktsioner import engine as akt
from pnp.rules.aktsioner.state import deck_of
from pnp.rules.base import Malformed, Violation
from pnp.rules.contract import members as contract_members
from pnp.rules.contract import play
from pnp.rules.forex import engine as forex

SPEC = load_spec(None)
NAMES = ("Ana", "Ben", "Cris", "Dan", "Eva", "Fer")
SEEDS = range(6)


def positions(game: str, seed: int) -> Iterator[tuple[Any, Any, Any]]:
    """(engine, params, position) along one random game from the game's deal, its players a
    count drawn from the spec's range."""
    engine, spec_game = GAMES[game].engine, SPEC.games[game]
    rng = random.Random(seed)
    p = engine.params(spec_game)
    players = NAMES[:rng.randint(max(2, spec_game.players.min), spec_game.players.max)]
    state, _ = engine.setup(p, players, engine.deal(p, players, rng))
    yield engine, p, state
    for _, after, _ in play(engine, state, p, rng):
        yield engine, p, after


def test_the_contract_names_every_member_a_caller_uses():
    assert {"Start", "check_players", "deal", "worth", "view", "determinize", "playout"} <= set(contract_members())


@pytest.mark.parametrize("game", list(GAMES))
def test_every_engine_has_every_member_of_the_contract(game):
    engine = GAMES[game].engine
    missing = [name for name in contract_members() if not hasattr(engine, name)]
    assert not missing
    assert isinstance(engine.Start(), engine.Start)  # a start that omits everything: the standard setup


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("action", [object(), "Ana", None, ("Ana", 3)])
def test_an_object_that_is_no_action_of_the_game_is_malformed(game, action):
    _, p, state = next(positions(game, 0))
    with pytest.raises(Malformed):
        GAMES[game].engine.apply(state, action, p)


@pytest.mark.parametrize("game", list(GAMES))
def test_worth_is_exact_on_every_position_and_ends_as_the_scores(game):
    for seed in SEEDS:
        for engine, p, state in positions(game, seed):
            worth = engine.worth(state, p)
            assert len(worth) == len(state.players)
            assert all(isinstance(value, (int, Fraction)) for value in worth)
        result = engine.outcome(state, p)
        assert result is not None and worth == tuple(result.scores.values())


def _names(state: Any) -> list[str]:
    """The seating of a position, whatever the game calls its players."""
    return [getattr(player, "name", player) for player in state.players]


# --- hidden information ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_a_determinized_view_has_the_same_view(game):
    """For every seat and a spectator, at every position of random games: the view of a
    view is itself, a determinized view has that view again (so the two positions, which
    differ only in what the seat cannot see, have equal views), and everything that reads a
    position reads a view as it reads the position (`pnp engine check`'s "view")."""
    report = check_engine(game, SPEC, games=len(SEEDS))
    assert report.positions > 100 and not report.failed("view") and report.ok, "\n".join(report.lines(game))


def test_an_aktsioner_view_shows_a_seat_its_own_hand_and_the_backs_of_the_others():
    p = akt.params(SPEC.games["aktsioner"])
    players = NAMES[:4]
    state, _ = akt.setup(p, players, akt.deal(p, players, random.Random(3)))
    seen = akt.view(state, p, 1)
    assert seen.hands[1] == state.hands[1]
    for seat in (0, 2, 3):
        assert set(seen.hands[seat]) == set(akt.HIDDEN.values())  # only backs …
        assert Counter(seen.hands[seat]) == {akt.HIDDEN["big_cards"]: p.big, akt.HIDDEN["small_cards"]: p.small}
    assert akt.view(state, p, None).hands == tuple(seen.hands[0] for _ in players)  # a spectator sees backs only
    assert not set(seen.hands[0]) & set(state.hands[0])  # … so no card of another leaks


def test_an_aktsioner_determinized_hand_is_drawn_from_the_unseen_cards():
    """Backs become cards of their own deck, drawn from those the seat has not seen: never one
    in its own hand beyond the deck's copies, never one already played; each draw differs."""
    p = akt.params(SPEC.games["aktsioner"])
    players = NAMES[:3]
    state, _ = akt.setup(p, players, akt.deal(p, players, random.Random(5)))
    state, _ = akt.apply(state, akt.Begin("Ana"), p)
    state, _ = akt.apply(state, akt.parse_play(_a_play(p, state, 0), p.colours), p)
    seen = akt.view(state, p, 0)
    deals = set()
    for seed in range(20):
        full = akt.determinize(seen, p, 0, random.Random(seed))
        assert full.hands[0] == state.hands[0] and full.plays == state.plays
        used = Counter(card for hand in full.hands for card in hand) + Counter(card for _, card in full.plays)
        assert all(used[card] <= p.copies[card] for card in used)
        for seat, hand in enumerate(full.hands):
            decks = Counter(p.cards[card].deck for card in hand)
            assert decks == Counter(deck_of(p, card) for card in seen.hands[seat])
        deals.add(full.hands)
    assert len(deals) > 10


def _a_play(p: akt.Params, state: akt.State, seat: int) -> str:
    """The first legal play of the mover's first card."""
    (template, *_) = [t for t in akt.legal_actions(state, p) if t.kind == "play"]
    return str(template.action({"choices": template.fields[0].options[0]}))


def test_a_view_of_another_players_turn_offers_the_cards_he_may_hold():
    """On Ana's view of Ben's turn, Ben's hand is backs: the plays offered are every card of
    those decks Ana has not seen, and playing one (at the table, once Ben shows it) works on
    the view too, taking one of the backs."""
    p = akt.params(SPEC.games["aktsioner"])
    players = NAMES[:2]
    state, _ = akt.setup(p, players, akt.deal(p, players, random.Random(8)))
    state, _ = akt.apply(state, akt.Begin("Ben"), p)
    seen = akt.view(state, p, 0)
    offered = {t.fixed["card"] for t in akt.legal_actions(seen, p) if t.kind == "play"}
    assert set(state.hands[1]) <= offered and not offered & (set(state.hands[0]) - set(state.hands[1]))
    play = akt.parse_play(_a_play(p, state, 1), p.colours)
    after, _ = akt.apply(seen, play, p)
    real, _ = akt.apply(state, play, p)
    assert after.prices == real.prices and after.accounts == real.accounts
    assert len(after.hands[1]) == len(real.hands[1]) and akt.view(real, p, 0) == after


@pytest.mark.parametrize("game", ["bolsa", "forex"])
def test_a_game_without_secrets_in_its_positions_views_the_position_itself(game):
    for engine, p, state in positions(game, 1):
        for seat in (0, None):
            assert engine.view(state, p, seat) is state
            assert engine.determinize(state, p, seat, random.Random(0)) is state


# --- the deal --------------------------------------------------------------------------------------


def test_bolsa_deals_the_standard_setup_and_draws_nothing():
    engine = GAMES["bolsa"].engine
    rng = random.Random(4)
    before = rng.getstate()
    assert engine.deal(engine.params(SPEC.games["bolsa"]), NAMES[:4], rng) is None
    assert rng.getstate() == before


def test_forex_removes_its_certificates_at_random_in_the_deal():
    """FOREX-4.3: `removed_certificates` leave the game at random — different ones from one
    deal to the next, always that many — while a setup given no supply stays deterministic."""
    p = forex.params(SPEC.games["forex"])
    supplies = []
    for seed in range(200):
        start = forex.deal(p, NAMES[:3], random.Random(seed))
        state, _ = forex.setup(p, NAMES[:3], start)
        assert sum(p.certificates) - sum(state.supply) == p.removed_certificates == sum(state.removed)
        supplies.append(state.supply)
    assert len(set(supplies)) > 50
    removed = Counter(c for supply in supplies for c, (left, all_) in enumerate(zip(supply, p.certificates, strict=True))
                      for _ in range(all_ - left))
    assert min(removed.values()) > 0.6 * max(removed.values())  # every currency is removed about as often
    standard = forex.setup(p, NAMES[:3])[0].supply
    assert standard == forex.setup(p, NAMES[:3])[0].supply == forex.standard_supply(p)


def test_forex_removes_none_when_the_house_rule_says_none():
    p = forex.params(SPEC.games["forex"], {"removed_certificates": 0})
    state, _ = forex.setup(p, NAMES[:2], forex.deal(p, NAMES[:2], random.Random(1)))
    assert state.supply == p.certificates and not any(state.removed)


def test_a_forex_deal_replays_from_its_record():
    """The dealt supply is the record's `start.supply`: written, read and replayed, the same."""
    p = forex.params(SPEC.games["forex"])
    referee = referee_for("forex")
    state, _ = forex.setup(p, NAMES[:3], forex.deal(p, NAMES[:3], random.Random(11)))
    answer = check(reads_record(records.dump(referee.record(p, NAMES[:3], (), start=state))), SPEC)
    assert answer.ok and answer.state == state


# --- Акционер's trades: as many as the mover likes per stage --------------------------------------


def _aktsioner(players: tuple[str, ...] = ("Ana", "Ben")) -> tuple[akt.Params, akt.State]:
    p = akt.params(SPEC.games["aktsioner"])
    hands = {"Ana": ["+100 blue", "+30 red", "+40 red"], "Ben": ["x2 red", "+30 blue", "+40 yellow"]}
    state, _ = akt.setup(p, list(players), akt.Start(accounts={"Ana": akt.Account(300, (1, 1, 1, 1))},
                                                      hands=hands, complete=False))
    return p, akt.apply(state, akt.Begin("Ana"), p)[0]


def kinds(p: akt.Params, state: akt.State) -> list[tuple[str, str | None]]:
    return [(t.kind, t.player) for t in akt.legal_actions(state, p)]


def test_aktsioner_offers_trades_until_one_of_nothing_in_stage_1():
    p, state = _aktsioner()
    for trade in (akt.Trade.of(buy={"red": 1}), akt.Trade.of(sell={"red": 2}), akt.Trade.of(buy={"blue": 2})):
        assert ("trade", "Ana") in kinds(p, state)
        state, _ = akt.apply(state, trade, p)
    account = state.accounts[0]
    assert account.shares == (3, 0, 1, 1) and account.cash == 300 - 100 + 200 - 200
    assert state.turn.bought == (2, 1, 0, 0)  # every stage-1 purchase counts against stage 3 (AKT-3.3)
    state, _ = akt.apply(state, akt.Trade.of(), p)  # a trade of nothing ends stage 1's trading
    assert {kind for kind, _ in kinds(p, state)} == {"play"}


def test_aktsioner_stage_3_trades_until_the_mover_ends_his_turn():
    """After the card the mover may trade again and again; he ends his turn himself (`end`,
    the next player's Begin), or the next player begins, or a trade of nothing closes the
    stage and leaves the next player's Begin alone."""
    p, state = _aktsioner()
    state, _ = akt.apply(state, akt.parse_play("+30 red -60 blue", p.colours), p)
    assert kinds(p, state) == [("trade", "Ana"), ("end", "Ana"), ("begin", "Ben")]
    end = next(t for t in akt.legal_actions(state, p) if t.kind == "end")
    assert end.action() == akt.Begin("Ben") and end.rule == "AKT-3.6"
    state, _ = akt.apply(state, akt.Trade.of(buy={"red": 1}), p)
    state, _ = akt.apply(state, akt.Trade.of(sell={"red": 1}), p)
    assert kinds(p, state) == [("trade", "Ana"), ("end", "Ana"), ("begin", "Ben")]
    closed, _ = akt.apply(state, akt.Trade.of(), p)
    assert kinds(p, closed) == [("begin", "Ben")]
    ended, _ = akt.apply(state, end.action(), p)
    assert ended.turn.mover == 1 and not ended.turn.played


def test_aktsioner_refuses_a_trade_after_the_stage_ended():
    p, state = _aktsioner()
    state, _ = akt.apply(state, akt.Trade.of(), p)
    with pytest.raises(Violation) as caught:
        akt.apply(state, akt.Trade.of(buy={"red": 1}), p)
    assert caught.value.rule == "AKT-3.1"


def test_aktsioner_stage_3_may_not_sell_what_stage_1_bought_even_after_selling_it():
    """AKT-A7 with several trades: stage 1 bought 2 red and sold 3, leaving none: stage 3 may sell
    holding − bought, never below none."""
    p, state = _aktsioner()
    for trade in (akt.Trade.of(buy={"red": 2}), akt.Trade.of(sell={"red": 3})):
        state, _ = akt.apply(state, trade, p)
    state, _ = akt.apply(state, akt.parse_play("+30 red -60 blue", p.colours), p)
    state, _ = akt.apply(state, akt.Trade.of(buy={"red": 1}), p)  # a stage-3 purchase may be sold in stage 3
    (trade,) = [t for t in akt.legal_actions(state, p) if t.kind == "trade"]
    assert next(f for f in trade.fields if f.name == "sell.red").high == 0  # 1 held − 2 bought in stage 1


def test_several_trades_of_a_stage_are_written_and_read_as_a_list():
    p, state = _aktsioner()
    first = state
    actions = [akt.Trade.of(buy={"red": 1}), akt.Trade.of(sell={"blue": 1}), akt.Trade.of(),
               akt.parse_play("+30 red -60 blue", p.colours), akt.Trade.of(buy={"yellow": 1})]
    for action in actions:
        state, _ = akt.apply(state, action, p)
    referee = referee_for("aktsioner")
    data = referee.record(p, ["Ana", "Ben"], [akt.Begin("Ana"), *actions], start=_before_begin(p, first))
    turn = data["turns"][0]
    assert turn["trade"] == [{"buy": {"red": 1}}, {"sell": {"blue": 1}}, {}] and turn["then"] == {"buy": {"yellow": 1}}
    read = reads_record(records.dump(data))
    answer = check(read, SPEC)
    assert answer.ok and answer.state == state
    assert [a for step in referee.steps(read, answer.params) for a in referee.actions(step)] == [akt.Begin("Ana"), *actions]


def test_a_violation_in_the_second_trade_of_a_stage_is_located_there():
    p, state = _aktsioner()
    referee = referee_for("aktsioner")
    data = referee.record(p, ["Ana", "Ben"], [akt.Begin("Ana"), akt.Trade.of(buy={"red": 1})],
                          start=_before_begin(p, state))
    data["turns"][0]["trade"] = [{"buy": {"red": 1}}, {"buy": {"red": 99}}]
    answer = check(reads_record(records.dump(data)), SPEC)
    assert not answer.ok and answer.violation.at == "turns[0].trade[1]" and answer.violation.rule == "AKT-3.1"


def _before_begin(p: akt.Params, state: akt.State) -> akt.State:
    """The position before Ana's Begin (the record's start)."""
    return akt.setup(p, list(state.players), akt.Start(accounts=dict(zip(state.players, state.accounts, strict=True)),
                                                       hands=dict(zip(state.players, state.hands, strict=True)), complete=False))[0]
