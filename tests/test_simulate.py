"""`pnp simulate`: metrics on hand-made results, intervals that cover, the same answer for any
number of workers (and on Dask), records the referee accepts, a report with every plot, and
command-line errors that name the option."""

from __future__ import annotations

import base64
import io
import json
import random
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from pnp.cli import main
from pnp.referee import check, read_record
from pnp.referee.replay import referee_for
from pnp.rules import GAMES
from pnp.rules.base import Outcome, ToMove
from pnp.rules.legal import Field, Template
from pnp.simulate import games
from pnp.simulate.bots import fit
from pnp.simulate.metrics import difference, gini, mean, quantile, rate, summarise
from pnp.simulate.play import GameResult, play_game
from pnp.simulate.pressure import Bills, printed_money
from pnp.simulate.probe import Probe
from pnp.simulate.report import write_report
from pnp.simulate.runner import Setup, chunks, run
from pnp.simulate.simulation import answer, compare, simulate
from spec_text import BUNDLED, edit, spec_of

ROOT = Path(__file__).resolve().parents[1]
SPEC = str(ROOT / "pnp" / "data" / "components.yaml")


def result(index: int, scores: tuple[float, ...], winners: tuple[int, ...], **more) -> GameResult:
    fields = dict(bots=(0,) * len(scores), reason="last_round", steps=10, length=5, mid_leaders=(), marks=(),
                  money=(), supplies=())
    return GameResult(index=index, scores=scores, winners=winners, **{**fields, **more})


# --- metrics on hand-made results --------------------------------------------------------------------


def test_intervals_match_textbook_values():
    wilson = rate(50, 100)  # Wilson score interval of 50/100: 0.4038–0.5962
    assert (round(wilson.low, 4), round(wilson.high, 4)) == (0.4038, 0.5962)
    assert rate(0, 20).low == 0 and round(rate(0, 20).high, 4) == 0.1611 and rate(20, 20).high == 1
    average = mean([1, 2, 3, 4])  # sd 1.2910, se 0.6455
    assert average.value == 2.5 and round(average.high - average.value, 4) == round(1.959964 * 1.290994 / 2, 4)
    assert quantile([1, 2, 3, 4, 5], 0.99) == pytest.approx(4.96) and quantile([7], 0.5) == 7
    assert gini([1, 1, 1, 1]) == 0 and gini([0, 0, 0, 4]) == pytest.approx(0.75)
    delta = difference(rate(30, 100), rate(50, 100))  # Agresti–Caffo: (51/102 − 31/102) ± 1.96·se
    assert delta.value == pytest.approx(0.2) and delta.low > 0 and delta.high == pytest.approx(0.3279, abs=1e-4)


def test_summary_of_hand_made_games():
    """Four 3-player games of two bots (seats rotate), one shared win, one bankruptcy."""
    bills = Bills("", "Money", (10, 5, 1), (2, 4, 10))
    probe = Probe(None)
    probe.mark_names, probe.supply_names = ("bottom", "top"), ("deck",)
    games_ = [
        result(0, (30, 20, 10), (0,), bots=(0, 1, 0), length=5, mid_leaders=(0,), marks=(1, 0), supplies=(3,),
               money=((60.0, (3, 1, 5)),)),
        result(1, (10, 40, 40), (1, 2), bots=(1, 0, 1), length=6, mid_leaders=(0,), marks=(0, 0), supplies=(0,),
               money=((40.0, (2, 2, 0)),)),
        result(2, (5, 5, 50), (2,), bots=(0, 1, 0), length=5, mid_leaders=(2,), marks=(2, 1), supplies=(2,),
               money=((90.0, (2, 4, 12)),)),
        result(3, (0, 70, 30), (1,), bots=(1, 0, 1), length=7, mid_leaders=(1, 2), marks=(0, 0), supplies=(1,),
               money=((20.0, (1, 1, 5)),), reason="bankruptcy"),
    ]
    summary = summarise(games_, ("random", "greedy"), probe, [bills])
    seats = [s["win_rate"].value for s in summary["seat_win_rate"]]
    assert seats == [0.25, 0.375, 0.375]  # seat 2: 1/2 + 1, seat 3: 1/2 + 1 over 4 games
    assert summary["balance_gap"]["seats"] == [2, 1] and summary["balance_gap"]["gap"].value == pytest.approx(0.125)
    bots = summary["bot_win_rate"]  # random sat in 6 seats and won 1 + 1/2 + 1 + 1; greedy in 6, won 1/2
    assert bots["random"]["seats"] == 6 and bots["random"]["win_rate"].value == pytest.approx(3.5 / 6)
    assert bots["greedy"]["seats"] == 6 and bots["greedy"]["win_rate"].value == pytest.approx(0.5 / 6)
    assert summary["length"]["histogram"] == {"5": 2, "6": 1, "7": 1} and summary["length"]["mean"].value == 5.75
    assert {k: v.value for k, v in summary["ends"].items()} == {"bankruptcy": 0.25, "last_round": 0.75}
    scores = summary["scores"]
    assert scores["winner"].value == pytest.approx((30 + 40 + 50 + 70) / 4)
    assert scores["margin"].value == pytest.approx((10 + 0 + 45 + 40) / 4)
    assert scores["mid_game_leader_wins"].value == pytest.approx(0.75)  # game 1's leader (seat 1) lost
    money = summary["components"]["money"][0]
    assert money["printed"] == 10 * 2 + 5 * 4 + 10 and money["short"].value == 0.5  # 60 and 90 exceed 50
    assert [d["short"].value for d in money["denominations"]] == [0.25, 0, 0.25]  # 3 tens, 12 ones
    assert money["denominations"][2]["max_in_hands"] == 12 and money["max_in_hands"] == 90
    marks = summary["components"]["track"]["marks"]
    assert marks["bottom"]["games"].value == 0.5 and marks["bottom"]["per_game"].value == 0.75
    assert marks["top"]["games"].value == 0.25
    assert summary["components"]["supplies"]["deck"]["exhausted"].value == 0.25


def test_bills_are_counted_out_largest_first_from_the_printed_spec():
    text = edit("- {value: 100, count: 2,  color: \"#d55e00\"}", "- {value: 100, count: 7,  color: \"#d55e00\"}")
    bolsa = printed_money(spec_of(text).games["bolsa"])[""]
    assert bolsa.values == (100, 50, 25, 10, 5, 1) and bolsa.counts == (7, 4, 10, 16, 28, 50)
    assert bolsa.total == 1500 and bolsa.count_out(187) == (1, 1, 1, 1, 0, 2)
    assert bolsa.in_hands([50, 37]) == (87, (0, 1, 1, 1, 0, 2))
    forex = printed_money(spec_of(BUNDLED).games["forex"])
    assert set(forex) == set(GAMES["forex"].engine.params(spec_of(BUNDLED).games["forex"]).currencies)
    assert forex["GBP"].count_out(7.5) == (0, 1, 1, 0, 1)  # 5 + 2 + ½
    assert printed_money(spec_of(BUNDLED).games["aktsioner"]) == {}


def test_fit_makes_wishes_legal():
    """Numbers within bounds, one side of an at-most-one pair, a budget trimmed from the last wish."""
    from pnp.rules.legal import AtMostOne, Budget

    template = Template("declare", "Ana", "X-1", dict, (Field.number("buy.A", 0, 3), Field.number("buy.B", 0, 3),
                                                         Field.number("sell.A", 0, 2)),
                        constraints=(AtMostOne(("sell.A", "buy.A")), Budget((("buy.A", 10), ("buy.B", 4)), 25)))
    assert fit(template, {"buy.A": 9, "buy.B": 9, "sell.A": 2}) == {"buy.A": 2, "buy.B": 1, "sell.A": 0}
    assert fit(template, {"sell.A": 5, "buy.A": 1}) == {"buy.A": 0, "buy.B": 0, "sell.A": 2}


# --- a synthetic game with known odds: the intervals cover the truth ---------------------------------


@dataclass(frozen=True)
class Dice:
    """Two players roll in turn; the first roll of 1 or 2 on a d10 ends the game and wins it.
    The first player wins with probability 0.2 / (1 − 0.8²) = 5/9; a game lasts 5 rolls on
    average (geometric, p = 0.2)."""

    players: tuple[str, ...]
    rolls: int = 0
    winner: str | None = None


class DiceEngine:
    playout = None  # no fast path: random bots play on the general one

    def deal(self, params, players, rng):
        return None

    def setup(self, params, players, start=None):
        return Dice(tuple(players)), ()

    def to_move(self, state, params):
        return None if state.winner else ToMove("roll", (state.players[state.rolls % 2],))

    def legal_actions(self, state, params):
        if state.winner:
            return ()
        player = state.players[state.rolls % 2]
        return (Template("roll", player, "DICE-1", lambda v: (v["player"], v["roll"]), (Field.number("roll", 1, 10),)),)

    def apply(self, state, action, params, events=True):
        player, roll = action
        return replace(state, rolls=state.rolls + 1, winner=player if roll <= 2 else None), ()

    def outcome(self, state, params):
        if not state.winner:
            return None
        return Outcome({p: int(p == state.winner) for p in state.players}, (state.winner,), "roll")


def dice_result(index: int, rng: random.Random) -> GameResult:
    """The dice game's result drawn directly: the first roll of 1 or 2 wins."""
    rolls = 1
    while rng.randint(1, 10) > 2:
        rolls += 1
    winner = (rolls - 1) % 2
    return result(index, (1 - winner, winner), (winner,), length=rolls, steps=rolls)


def test_confidence_intervals_cover_a_biased_game():
    """300 simulations of 400 dice games: the 95 % intervals of the first seat's win rate (5/9)
    and of the mean length (5, a skewed geometric length) hold the truth about 95 % of the
    time (a binomial 300 × 0.95 leaves 0.92–0.98 one time in a few hundred)."""
    rng, probe = random.Random(16), Probe(None)
    covered_rate = covered_mean = 0
    repeats = 300
    for _ in range(repeats):
        summary = summarise([dice_result(k, rng) for k in range(400)], ("random",), probe, [])
        first = summary["seat_win_rate"][0]["win_rate"]
        covered_rate += first.low <= 5 / 9 <= first.high
        length = summary["length"]["mean"]
        covered_mean += length.low <= 5 <= length.high
    assert 0.92 <= covered_rate / repeats <= 0.98
    assert 0.92 <= covered_mean / repeats <= 0.98


def test_the_driver_plays_the_dice_game_to_its_odds():
    """The same game through the driver and the random bot: 2000 games land on the odds."""
    engine, probe, rng = DiceEngine(), Probe(None), random.Random(9)
    seats = [games.bots("bolsa")["random"]] * 2
    played = [play_game(engine, None, probe, (), seats, ("A", "B"), rng, index=k) for k in range(2000)]
    summary = summarise(played, ("random",), probe, [])
    first, length = summary["seat_win_rate"][0]["win_rate"], summary["length"]["mean"]
    assert first.low <= 5 / 9 <= first.high and first.high - first.low < 0.05
    assert length.low <= 5 <= length.high and {r.steps for r in played} >= {1, 2, 3, 10}


# --- the runner: seats, determinism, Dask ------------------------------------------------------------

SHORT = Setup("bolsa", SPEC, (("rounds", 2),), 3, ("random", "value", "bull"))


def test_every_bot_sits_in_every_seat_equally_often():
    played = run(chunks(SHORT, 30, 5), workers=1)
    for seat in range(3):
        assert sorted(sum(r.bots[seat] == bot for r in played) for bot in range(3)) == [10, 10, 10]
    assert [r.index for r in played] == list(range(30))


def test_the_same_seed_gives_the_same_results_for_any_number_of_workers():
    jobs = chunks(SHORT, 230, 11)  # three chunks, the last one short
    one, two = run(jobs, workers=1), run(jobs, workers=2)
    assert one == two and len(one) == 230
    assert run(chunks(SHORT, 230, 12), workers=1) != one  # and another seed gives other games


def test_a_dask_local_cluster_gives_the_process_pool_results():
    from dask.distributed import LocalCluster

    jobs = chunks(SHORT, 150, 3)
    with LocalCluster(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as cluster:
        on_dask = run(jobs, dask=cluster.scheduler_address)
    assert on_dask == run(jobs, workers=2)


def test_the_json_answer_is_the_same_for_one_and_two_workers(capsys):
    answers = []
    for workers in ("1", "2"):
        assert main(["simulate", "aktsioner", "--games", "150", "--players", "2", "--workers", workers, "--json",
                     "--seed", "4", "--set", "rules.formula=1+2"]) == 0
        answer_ = json.loads(capsys.readouterr().out)
        assert answer_.pop("elapsed_s") >= 0
        answers.append(answer_)
    assert answers[0] == answers[1]
    keys = ["game", "games", "players", "seed", "bots", "options", "spec", "seat_win_rate", "bot_win_rate", "length",
            "scores", "components"]
    assert all(key in answers[0] for key in keys)
    assert answers[0]["spec"]["sha256"] and len(answers[0]["seat_win_rate"]) == 2
    assert answers[0]["length"]["unit"] == "turns" and answers[0]["components"]["track"]["name"] == "price"


# --- records the referee accepts --------------------------------------------------------------------------


@pytest.mark.parametrize("game, bots", [("bolsa", "random,value,bull"), ("aktsioner", "greedy,investor,random"),
                                        ("forex", "holder,greedy,random")])
def test_simulated_games_are_records_the_referee_accepts(tmp_path, capsys, game, bots):
    assert main(["simulate", game, "--games", "6", "--players", "3", "--bots", bots, "--workers", "1",
                 "--save-records", str(tmp_path), "--records", "4", "--json"]) == 0
    written = sorted(tmp_path.glob("*.yaml"))
    assert [p.name for p in written] == [f"{game}-3p-{k:06d}.yaml" for k in range(1, 5)]
    for path in written[::2]:
        verdict = check(read_record(path), spec_of(BUNDLED))
        assert verdict.ok, (path.name, verdict.violation)
        assert referee_for(game).state_json(verdict.state, verdict.params)["over"] is True
    capsys.readouterr()
    assert main(["referee", "check", str(written[-1])]) == 0


# --- comparison and report -----------------------------------------------------------------------------


def test_a_comparison_plays_the_same_seeds_and_flags_real_differences(tmp_path):
    """Five rounds instead of two make bolsa longer for certain, and every metric is paired."""
    a = simulate(SHORT, 60, 2, workers=1)
    b = simulate(replace(SHORT, options=(("rounds", 5),)), 60, 2, workers=1)
    compared = compare(a, b)
    rows = {row["metric"]: row for row in compared["differences"]}
    length = rows["length.mean"]
    assert length["a"]["value"] == 2 and length["b"]["value"] == 5 and length["significant"] is True
    assert rows["seat_win_rate[1].win_rate"]["difference"]["ci95"][0] < 0  # intervals of a few hundred games
    assert compared["a"]["options"] == {"rounds": 2} and compared["b"]["options"] == {"rounds": 5}
    again = simulate(SHORT, 60, 2, workers=1)
    assert answer(again) | {"elapsed_s": 0} == answer(a) | {"elapsed_s": 0}

    pages = write_report(tmp_path / "report.pdf", [(a, b)])
    assert len(pages) == 4 and any("Money" in title for title in pages) and any("quote" in title for title in pages)
    pdf = PdfReader(tmp_path / "report.pdf")
    assert len(pdf.pages) >= 5  # the table, then one page per plot
    assert write_report(tmp_path / "report.html", [(a, None)]) == pages
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    images = re.findall(r"src='data:image/png;base64,([^']+)'", page)
    assert len(images) == 4
    for data in images:
        image = Image.open(io.BytesIO(base64.b64decode(data)))
        colours = image.convert("L").getcolors(maxcolors=4096)
        assert image.width >= 400 and colours is not None and len(colours) > 10  # a drawn plot, not a blank
    assert "seat_win_rate[1].win_rate" in page


def test_a_report_without_money_still_has_the_other_plots(tmp_path):
    run_ = simulate(Setup("aktsioner", SPEC, (), 2, ("greedy",)), 6, 1, workers=1)
    titles = write_report(tmp_path / "a.html", [(run_, None)])
    assert len(titles) == 3 and not any("Money" in t for t in titles) and any("price" in t for t in titles)


# --- the command line ----------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, message", [
    (["simulate", "chess"], 'unknown game "chess"'),
    (["simulate", "bolsa", "--bots", "random,shark"], "unknown bot shark"),
    (["simulate", "bolsa", "--players", "9"], "seats 3–6 players"),
    (["simulate", "bolsa", "--players", "x-y"], "give a count or a range"),
    (["simulate", "bolsa", "--set", "rules.roundz=3"], "--set rules.roundz"),
    (["simulate", "bolsa", "--set", "rounds=3"], "write rules.KEY=VALUE"),
    (["simulate", "bolsa", "--vs-set", "rules.tiebreak=coin"], "--vs-set rules.tiebreak"),
    (["simulate", "bolsa", "--report", "out.png"], "FILE.html or FILE.pdf"),
    (["simulate", "bolsa", "--report", "no/such/folder/r.html"], "there is no folder"),
    (["simulate", "bolsa", "--save-records", "README.md/games"], "--save-records README.md/games"),
    (["simulate", "bolsa", "--games", "0"], "at least 1"),
    (["simulate", "bolsa", "--records", "3"], "needs --save-records"),
    (["simulate", "aktsioner", "--set", "rules.eliminate_broke=true", "--set", "rules.start_shares=0"], "A11"),
])
def test_bad_command_lines_are_usage_errors(capsys, argv, message):
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error


def test_the_text_answer_compares_side_by_side(capsys):
    assert main(["simulate", "bolsa", "--games", "40", "--players", "3", "--workers", "1", "--set", "rules.rounds=2",
                 "--vs-set", "rules.rounds=4"]) == 0
    out = capsys.readouterr().out
    assert "b: components.yaml (rounds=4)" in out
    line = next(line for line in out.splitlines() if line.strip().startswith("length.mean"))
    assert line.split()[1:4] == ["2", "4", "2"] and line.endswith("*")
