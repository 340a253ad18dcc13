"""The search bot: it decides from its seat's view only (never another seat's secrets), a sealed
phase shows every bot the position it began from, its games are legal records, and it beats the
one-step lookahead (`greedy`) in Bolsa and For-Ex and holds its own in Акционер — the slow lane
measures that with a fixed seed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pnp.bots import roster
from pnp.bots.common import Decision
from pnp.bots.search import SCORE_WEIGHT, SearchBot, reward
from pnp.cli import main
from pnp.referee import check, read_record
from pnp.rules import GAMES
from pnp.rules.base import Outcome
from pnp.rules.contract import apply_choosing
from pnp.rules.legal import sample
from pnp.simulate.play import play_game
from pnp.simulate.runner import Setup, chunks, context, run, seating
from spec_text import BUNDLED, spec_of

SPEC = str(Path(__file__).resolve().parents[1] / "pnp" / "data" / "components.yaml")


def akt_position(seed: int, steps: int = 9):
    """An Акционер position a few steps into a dealt game, and its context."""
    setup = Setup("aktsioner", SPEC, (), 4, ("random",))
    ctx = context(setup)
    _, names = seating(setup, 0)
    rng = random.Random(seed)
    state, _ = ctx.engine.setup(ctx.params, names, ctx.engine.deal(ctx.params, names, rng))
    for _ in range(steps):
        who = ctx.engine.to_move(state, ctx.params)
        mine = [t for t in ctx.engine.legal_actions(state, ctx.params) if t.player in (who.players[:1] or (None,))]
        _, state, _ = apply_choosing(ctx.engine, state, sample(mine, rng), ctx.params, rng, events=False)
    return ctx, names, state


def test_the_search_bot_reads_only_its_seats_view():
    """Two positions that differ only in the cards the deciding seat cannot see (another's
    hand, drawn again from what it has not seen) have the same view, and the bot, given the same
    generator, chooses the same action in both: nothing of the hidden cards reaches it. Its
    `Seat` holds the view, where the others' hands are card backs."""
    ctx, names, state = akt_position(3)
    who = ctx.engine.to_move(state, ctx.params)
    seat = names.index(who.players[0])
    view = ctx.engine.view(state, ctx.params, seat)
    other = ctx.engine.determinize(view, ctx.params, seat, random.Random(99))
    assert ctx.engine.view(other, ctx.params, seat) == view
    assert other.hands != state.hands  # the others' cards really differ
    assert all(card == state.hands[seat][k] for k, card in enumerate(view.hands[seat]))  # its own hand is its own
    hidden = {card for k, hand in enumerate(view.hands) if k != seat for card in hand}
    assert hidden and not hidden & set(ctx.params.cards)  # the others' hands are backs, no card of the deck
    templates = tuple(t for t in ctx.engine.legal_actions(state, ctx.params) if t.player == who.players[0])
    bot = SearchBot(40)
    chosen = [bot(Decision(ctx.engine, ctx.params, ctx.probe, position, seat, templates, False), random.Random(5))
              for position in (state, other)]
    assert chosen[0] == chosen[1]


def test_a_sealed_phase_shows_every_bot_the_position_it_began_from():
    """Bolsa's declarations are sealed (BOLSA-3.2.1): every declaring bot of a round is shown
    the same position, in which nobody has declared yet."""
    seen: list = []

    def spy(decision, rng):
        if decision.of_kind("declare") is not None:
            seen.append(decision.state)
        return roster.bot_named("bolsa", "random")(decision, rng)

    setup = Setup("bolsa", SPEC, (("rounds", 2),), 4, ("random",))
    ctx = context(setup)
    _, names = seating(setup, 0)
    play_game(ctx.engine, ctx.params, ctx.probe, ctx.money, [spy] * 4, names, random.Random(2), fast=False)
    assert len(seen) == 2 * 4
    assert all(state.declared == frozenset() for state in seen)
    assert all(seen[r * 4 + k] is seen[r * 4] for r in range(2) for k in range(4))


def test_search_budgets_are_named_like_bots(capsys):
    assert isinstance(roster.bot_named("forex", "search"), SearchBot)
    assert roster.bot_named("forex", "search:120").iterations == 120
    assert roster.bot_named("forex", "search:0.25s").seconds == 0.25
    for bad in ("search:0", "search:x", "search:1.5", "searching"):
        assert roster.bot_named("forex", bad) is None
    assert main(["simulate", "forex", "--bots", "search:lots"]) == 2
    assert "unknown bot search:lots" in capsys.readouterr().err


def test_the_reward_is_the_win_share_and_a_little_of_the_lead():
    outcome = Outcome({"A": 10, "B": 30, "C": 30}, ("B", "C"), "last_round")
    assert reward(outcome, 1) == pytest.approx((1 - SCORE_WEIGHT) * 0.5 + SCORE_WEIGHT * 0.5)  # a shared win, level
    assert reward(outcome, 0) == pytest.approx(0.0)  # lost, 20 behind over a spread of 20
    assert reward(Outcome({"A": 10, "B": 0}, ("A",), "last_round"), 0) == 1.0


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow) if g == "forex" else g for g in GAMES])
def test_search_games_are_records_the_referee_accepts(tmp_path, capsys, game):
    assert main(["simulate", game, "--games", "2", "--players", "3", "--bots", "search:8,greedy", "--workers", "1",
                 "--save-records", str(tmp_path), "--json"]) == 0
    capsys.readouterr()
    for path in sorted(tmp_path.glob("*.yaml")):
        verdict = check(read_record(path), spec_of(BUNDLED))
        assert verdict.ok, (path.name, verdict.violation)


@pytest.mark.slow
@pytest.mark.parametrize("game, games, beats", [("bolsa", 100, True), ("aktsioner", 120, False), ("forex", 40, True)])
def test_the_search_bot_beats_greedy(game, games, beats):
    """With a fixed seed and a small budget (50 iterations a decision), the search bot's seats
    take at least 60 % of the wins against greedy's, the interval above the fair half
    (`benchmarks/bench_search.py` measures it over 2,000 games a game). In Акционер, since
    greedy trades on a tie (issue 41), that budget only holds its own: 52 % [47, 57] over 400
    games (docs/simulate.md), so there the share is held to an interval reaching ½ and above 40 %.
    The game counts are the fewest whose intervals still say so (For-Ex: 97.5 % [87, 99.6] over 40;
    Акционер: 57 % [48, 65] over 120), the slow lane's largest cost before."""
    from pnp.simulate.metrics import rate

    played = run(chunks(Setup(game, SPEC, (), 4, ("search:50", "greedy")), games, 26), workers=0)
    _, wins = played.bot_seats(2)
    share = rate(float(wins[0]), games)
    if beats:
        assert share.value >= 0.6 and share.low > 0.5, (game, share)
    else:
        assert share.high >= 0.5 and share.low > 0.4, (game, share)
