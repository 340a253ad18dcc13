"""`pnp simulate`: metrics on hand-made results, intervals that cover, the same answer for any
number of workers (and on Dask), records the referee accepts, a report with every plot, and
command-line errors that name the option."""

from __future__ import annotations

import base64
import io
import itertools
import json
import random
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import numpy
import pytest
from PIL import Image
from pypdf import PdfReader

from pnp.bots import games
from pnp.bots.common import fit
from pnp.bots.probe import Probe
from pnp.cli import main
from pnp.referee import check, read_record
from pnp.referee.replay import state_json
from pnp.rules import GAMES
from pnp.rules.base import Outcome, ToMove
from pnp.rules.legal import Field, Template
from pnp.simulate.metrics import difference, mean, rate, summarise
from pnp.simulate.play import GameResult, play_game
from pnp.simulate.pressure import CANNOT, Bills, printed_money
from pnp.simulate.report import write_report
from pnp.simulate.runner import Setup, chunks, context, play_chunk, run
from pnp.simulate.simulation import answer, compare, simulate
from pnp.simulate.tally import Distribution, Tally, gini, tally
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
    numbers, kept = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], Distribution()  # the one quantile: numpy's, off the counts
    kept.extend(numbers)
    for q in (0, 0.1, 0.5, 0.9, 0.99, 1):
        assert kept.quantile(q) == pytest.approx(float(numpy.quantile(numbers, q)))
    assert gini([1, 1, 1, 1]) == 0 and gini([0, 0, 0, 4]) == pytest.approx(0.75)
    delta = difference(rate(30, 100), rate(50, 100))  # Agresti–Caffo: (51/102 − 31/102) ± 1.96·se
    assert delta.value == pytest.approx(0.2) and delta.low > 0 and delta.high == pytest.approx(0.3279, abs=1e-4)


def test_summary_of_hand_made_games():
    """Four 3-player games of two bots (seats rotate), one shared win, one bankruptcy; two
    games the printed money could not pay, with the bills each denomination would have to add."""
    bills = Bills("", "Money", (10, 5, 1), (2, 4, 10))
    probe = Probe(None)
    probe.mark_names, probe.supply_names = ("bottom", "top"), ("deck",)
    games_ = [
        result(0, (30, 20, 10), (0,), bots=(0, 1, 0), length=5, mid_leaders=(0,), marks=(1, 0), supplies=(3,),
               money=((60.0, (2, 4, 10)),)),
        result(1, (10, 40, 40), (1, 2), bots=(1, 0, 1), length=6, mid_leaders=(0,), marks=(0, 0), supplies=(0,),
               money=((40.0, (0, 0, 0)),)),
        result(2, (5, 5, 50), (2,), bots=(0, 1, 0), length=5, mid_leaders=(2,), marks=(2, 1), supplies=(2,),
               money=((90.0, (CANNOT, CANNOT, 3)),)),
        result(3, (0, 70, 30), (1,), bots=(1, 0, 1), length=7, mid_leaders=(1, 2), marks=(0, 0), supplies=(1,),
               money=((20.0, (0, 0, 0)),), reason="bankruptcy"),
    ]
    summary = summarise(tally(games_, [bills]), ("random", "greedy"), probe, [bills], 3)
    seats = [s["win_rate"].value for s in summary["seat_win_rate"]]
    assert seats == [0.25, 0.375, 0.375]  # seat 2: 1/2 + 1, seat 3: 1/2 + 1 over 4 games
    balance = summary["seat_balance"]
    assert balance["seats"] == [2, 1] and balance["gap"].value == pytest.approx(0.125) and balance["pairs"] == 3
    assert balance["gap"].low == 0 and balance["equal"]  # four games: a gap's interval never below 0
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
    assert money["printed"] == 10 * 2 + 5 * 4 + 10 and money["short"].value == 0.5 and money["max_in_hands"] == 90
    assert [(d["value"], d["printed"], d["add_max"]) for d in money["denominations"]] == [(10, 2, None), (5, 4, None),
                                                                                        (1, 10, 10)]
    assert money["fix"] == {"value": 1, "add": 10, "every_game": False}  # 3 ones is not enough for game 0
    marks = summary["components"]["track"]["marks"]
    assert marks["bottom"]["games"].value == 0.5 and marks["bottom"]["per_game"].value == 0.75
    assert marks["top"]["games"].value == 0.25
    assert summary["components"]["supplies"]["deck"]["exhausted"].value == 0.25


def test_the_printed_bills_pay_whenever_the_bank_can_make_change():
    """Issue 41: five players holding 100 or more each need more than the two 100-bills a
    greedy count asks for, but the bank pays them in 50s and 25s; money is short only when no
    sharing out of the printed bills gives every player his amount."""
    text = edit("- {value: 100, count: 2,  color: \"#d55e00\"}", "- {value: 100, count: 7,  color: \"#d55e00\"}")
    bolsa = printed_money(spec_of(text).games["bolsa"])[""]
    assert bolsa.values == (100, 50, 25, 10, 5, 1) and bolsa.counts == (7, 4, 10, 16, 28, 50) and bolsa.total == 1500
    bundled = printed_money(spec_of(BUNDLED).games["bolsa"])[""]
    assert bundled.payable([145, 130, 120, 110, 100])  # 5 hundreds in a greedy count; 2 printed
    assert bundled.payable([333, 333, 333]) and not bundled.payable([333, 333, 334, 1])  # 1000 printed in all
    assert bundled.to_add([333, 333, 334, 1]) == (1, 1, 1, 1, 1, 1)  # any one bill more covers the 1 missing
    few_ones = Bills("", "Money", (Fraction(5), Fraction(1)), (10, 3))
    assert few_ones.payable([7, 1]) and not few_ones.payable([4, 4])  # 5+1+1 and 1; but 4 and 4 need 8 ones
    assert few_ones.to_add([4, 4]) == (CANNOT, 5)  # no number of fives pays a 4; five more ones do
    forex = printed_money(spec_of(BUNDLED).games["forex"], {"GBP": Fraction(1, 2)})
    assert set(forex) == set(GAMES["forex"].engine.params(spec_of(BUNDLED).games["forex"]).currencies)
    gbp = forex["GBP"]  # ½ ×8, 1 ×12, 2 ×8, 5 ×6, 10 ×4: 102 bucks
    assert gbp.payable([Fraction(15, 2), Fraction(1, 2) * 7]) and gbp.payable([50, 50, 2])
    assert not gbp.payable([Fraction(1, 2)] * 9)  # nine players holding ½ each: eight ½-notes printed
    assert printed_money(spec_of(BUNDLED).games["aktsioner"]) == {}


def test_the_change_making_model_agrees_with_every_way_of_sharing_out_the_bills():
    """`fits` against an exhaustive search, on a thousand small tables of odd denominations."""
    from pnp.simulate.pressure import fits

    def exhaustive(amounts, values, counts) -> bool:
        states = {tuple(counts)}
        for amount in amounts:
            states = {tuple(c - u for c, u in zip(left, used, strict=True)) for left in states
                      for used in itertools.product(*(range(min(c, amount // v) + 1) for v, c in zip(values, left,
                                                                                                      strict=True)))
                      if sum(u * v for u, v in zip(used, values, strict=True)) == amount}
        return bool(states)

    rng, disagree = random.Random(41), []
    for _ in range(1000):
        values = sorted(rng.sample([1, 2, 3, 5, 7, 10, 25], rng.randint(1, 4)), reverse=True)
        counts = [rng.randint(0, 4) for _ in values]
        amounts = sorted((rng.randint(1, 25) for _ in range(rng.randint(1, 4))), reverse=True)
        if fits(amounts, values, counts) != exhaustive(amounts, values, counts):
            disagree.append((amounts, values, counts))
    assert disagree == []


def test_bolsa_as_bundled_is_never_short_of_money_and_without_its_ones_it_says_which_bill_to_add(capsys, tmp_path):
    """Issue 41: the bundled Bolsa's money pays every game (its 100s run short only in a greedy
    count of each hand); with its 1-bills removed, every game needs ones the spec no longer
    prints, and the verdict names the bill and how many."""
    assert main(["simulate", "bolsa", "--games", "300", "--workers", "1", "--json"]) == 0
    bundled = json.loads(capsys.readouterr().out)
    money = bundled["components"]["money"][0]
    assert money["short"]["value"] == 0 and money["fix"] is None
    assert [item["kind"] for item in bundled["verdict"]].count("enough") == 1
    assert not [item for item in bundled["verdict"] if item["kind"] == "short"]
    no_ones = tmp_path / "components.yaml"
    no_ones.write_text(edit('          - {value: 1,   count: 50, color: "#7f7f7f"}\n', ""), encoding="utf-8")
    assert main(["simulate", "bolsa", "--games", "300", "--workers", "1", "--json", "--spec", str(no_ones)]) == 0
    answer_ = json.loads(capsys.readouterr().out)
    money = answer_["components"]["money"][0]
    ones = money["denominations"][-1]
    assert (ones["value"], ones["printed"]) == (1, 0) and money["short"]["value"] > 0.9
    assert money["fix"]["value"] == 1 and money["fix"]["add"] == ones["add_p99"] and 4 <= ones["add_p99"] <= ones["add_max"]
    assert all(d["add_p99"] is None for d in money["denominations"][:-1])  # no number of fives pays a 3
    (short,) = [item for item in answer_["verdict"] if item["kind"] == "short"]
    assert short["fix"] == money["fix"] and f"add {ones['add_p99']} bills of 1" in short["text"]


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


@pytest.mark.slow  # 300 × 400 games; the fast lane checks the intervals against textbook values
def test_confidence_intervals_cover_a_biased_game():
    """300 simulations of 400 dice games: the 95 % intervals of the first seat's win rate (5/9)
    and of the mean length (5, a skewed geometric length) hold the truth about 95 % of the
    time (a binomial 300 × 0.95 leaves 0.92–0.98 one time in a few hundred)."""
    rng, probe = random.Random(16), Probe(None)
    covered_rate = covered_mean = 0
    repeats = 300
    for _ in range(repeats):
        summary = summarise(tally([dice_result(k, rng) for k in range(400)], []), ("random",), probe, [], 2)
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
    summary = summarise(tally(played, []), ("random",), probe, [], 2)
    first, length = summary["seat_win_rate"][0]["win_rate"], summary["length"]["mean"]
    assert first.low <= 5 / 9 <= first.high and first.high - first.low < 0.05
    assert length.low <= 5 <= length.high and {r.steps for r in played} >= {1, 2, 3, 10}


# --- the runner: seats, determinism, Dask ------------------------------------------------------------

SHORT = Setup("bolsa", SPEC, (("rounds", 2),), 3, ("random", "value", "bull"))


def test_every_bot_sits_in_every_seat_equally_often():
    played = [result for chunk in chunks(SHORT, 30, 5) for result in play_chunk(chunk)]
    for seat in range(3):
        assert sorted(sum(r.bots[seat] == bot for r in played) for bot in range(3)) == [10, 10, 10]
    assert [r.index for r in played] == list(range(30))


def test_the_same_seed_gives_the_same_results_for_any_number_of_workers():
    one = run(chunks(SHORT, 230, 11), workers=1)  # three chunks, the last one short
    two = run(chunks(SHORT, 230, 11), workers=2)
    assert one == two and one.games == 230
    games_ = [result for chunk in chunks(SHORT, 230, 11) for result in play_chunk(chunk)]
    assert tally(games_, context(SHORT).printed, 3) == one  # the tally of the games one by one
    assert run(chunks(SHORT, 230, 12), workers=1) != one  # and another seed gives other games


def test_a_dask_local_cluster_gives_the_process_pool_results():
    from dask.distributed import LocalCluster

    with LocalCluster(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as cluster:
        on_dask = run(chunks(SHORT, 150, 3), dask=cluster.scheduler_address)
    assert on_dask == run(chunks(SHORT, 150, 3), workers=2) and on_dask.games == 150


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
        assert state_json(game, verdict.state, verdict.params)["over"] is True
    capsys.readouterr()
    assert main(["referee", "check", str(written[-1])]) == 0


# --- comparison and report -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_runs():
    """SHORT and SHORT with five rounds, the same 60 seeds: the comparison the report tests read."""
    return simulate(SHORT, 60, 2, workers=1), simulate(replace(SHORT, options=(("rounds", 5),)), 60, 2, workers=1)


@pytest.fixture(scope="module")
def compared_html(two_runs, tmp_path_factory) -> tuple[Path, list[str]]:
    """The HTML report of the comparison and its plots' titles, written once for the tests
    that read it (matplotlib takes a second a report)."""
    path = tmp_path_factory.mktemp("report") / "report.html"
    return path, write_report(path, [two_runs])


def test_a_comparison_plays_the_same_seeds_and_flags_real_differences(two_runs, compared_html, tmp_path):
    """Five rounds instead of two make bolsa longer for certain, and every metric is paired."""
    a, b = two_runs
    compared = compare(a, b)
    rows = {row["metric"]: row for row in compared["differences"]}
    length = rows["length.mean"]
    assert length["a"]["value"] == 2 and length["b"]["value"] == 5 and length["significant"] is True
    assert rows["seat_win_rate[1].win_rate"]["difference"]["ci95"][0] < 0  # intervals of a few hundred games
    assert compared["a"]["options"] == {"rounds": 2} and compared["b"]["options"] == {"rounds": 5}
    again = simulate(SHORT, 60, 2, workers=1)
    assert answer(again) | {"elapsed_s": 0} == answer(a) | {"elapsed_s": 0}

    titles = write_report(tmp_path / "report.pdf", [(a, b)])
    assert len(titles) == 4 and any("Money" in title for title in titles) and any("quote" in title for title in titles)
    pdf = PdfReader(tmp_path / "report.pdf")
    assert len(pdf.pages) >= 5  # the verdict and the table, then one page per plot
    assert "Games are longer by 3 rounds [3, 3] (2 → 5)." in pdf.pages[0].extract_text()  # the verdict opens it
    html, html_titles = compared_html
    assert html_titles == titles
    page = html.read_text(encoding="utf-8")
    assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in page
    images = re.findall(r"src='data:image/png;base64,([^']+)'", page)
    assert len(images) == 2 + 2 + 2 + 5  # seats and bots; length and lead; money's ECDF and bills; a quote per company
    for data in images:
        image = Image.open(io.BytesIO(base64.b64decode(data)))
        colours = image.convert("L").getcolors(maxcolors=4096)
        assert image.width >= 400 and colours is not None and len(colours) > 10  # a drawn plot, not a blank
    assert page.index("class='verdict'") < page.index("<img") < page.index("<table")  # the answer first
    assert ">seat 1 wins<" in page and "<dt>Seat balance</dt>" in page  # plain names and a glossary


def test_a_report_without_money_still_has_the_other_plots(tmp_path):
    run_ = simulate(Setup("aktsioner", SPEC, (), 2, ("greedy",)), 6, 1, workers=1)
    titles = write_report(tmp_path / "a.html", [(run_, None)])
    assert len(titles) == 3 and not any("Money" in t for t in titles) and any("price" in t for t in titles)
    assert len(re.findall("<img", (tmp_path / "a.html").read_text(encoding="utf-8"))) == 1 + 2 + 4  # a price per colour


# --- the command line ----------------------------------------------------------------------------------


DEEP = "[" * 5000  # `rules.rounds=[[[[…`: the spec layer's reader bounds the nesting


@pytest.mark.parametrize("argv, message", [
    (["simulate", "chess"], 'unknown game "chess"'),
    (["simulate", "bolsa", "--bots", "random,shark"], "unknown bot shark"),
    (["simulate", "bolsa", "--players", "9"], "--players 9: the game seats 3–6 players"),
    (["simulate", "bolsa", "--players", "x-y"], "--players x-y: give a count or a range"),
    (["simulate", "bolsa", "--players", "6-3"], "--players 6-3: the game seats 3–6"),
    (["simulate", "bolsa", "--players", "3-1000000000000"], "--players 3-1000000000000: the game seats 3–6"),
    (["simulate", "bolsa", "--players", "3-" + "9" * 5000], "--players 3-99999"),
    (["simulate", "bolsa", "--games", "1000000000000"], "--games 1000000000000: give a whole number from 1 to"),
    (["simulate", "bolsa", "--games", "0"], "--games 0: give a whole number from 1 to"),
    (["simulate", "bolsa", "--games", "many"], "--games many: give a whole number"),
    (["simulate", "bolsa", "--seed", "1.5"], "--seed 1.5: give a whole number"),
    (["simulate", "bolsa", "--workers", "-1"], "--workers -1: give 1 to"),
    (["simulate", "bolsa", "--workers", "1000"], "--workers 1000: give 1 to"),
    (["simulate", "bolsa", "--dask", "http://localhost:8786"], "--dask http://localhost:8786: a Dask scheduler's address"),
    (["simulate", "bolsa", "--dask", "bogus://x"], "--dask bogus://x: a Dask scheduler's address"),
    (["simulate", "bolsa", "--dask", ""], "--dask : a Dask scheduler's address"),
    (["simulate", "bolsa", "--dask", "tcp://host:99999"], "--dask tcp://host:99999"),
    (["simulate", "bolsa", "--set", "rules.roundz=3"], "--set rules.roundz"),
    (["simulate", "bolsa", "--set", "rounds=3"], "write rules.KEY=VALUE"),
    (["simulate", "bolsa", "--set", "rules.rounds="], "--set rules.rounds=: give a value"),
    (["simulate", "bolsa", "--set", "rules.rounds=" + DEEP], "--set rules.rounds: nested more than"),
    (["simulate", "bolsa", "--set", "rules.rounds=" + DEEP + "]" * len(DEEP)], "--set rules.rounds: nested more than"),
    (["simulate", "bolsa", "--set", "rules.rounds=[1, 2"], "--set rules.rounds: not valid YAML"),
    (["simulate", "bolsa", "--set", "rules.rounds=1e400"], "--set rules.rounds"),
    (["simulate", "bolsa", "--vs-set", "rules.tiebreak=coin"], "--vs-set rules.tiebreak"),
    (["simulate", "bolsa", "--spec", "no/such.yaml"], "--spec no/such.yaml: no such file"),
    (["simulate", "bolsa", "--vs", "no/such.yaml"], "--vs no/such.yaml: no such file"),
    (["simulate", "bolsa", "--report", "out.png"], "FILE.html or FILE.pdf"),
    (["simulate", "bolsa", "--report", "no/such/folder/r.html"], "there is no folder"),
    (["simulate", "bolsa", "--save-records", "README.md/games"], "--save-records README.md/games"),
    (["simulate", "bolsa", "--records", "3"], "needs --save-records"),
    (["simulate", "bolsa", "--shard", "0/2"], "--shard 0/2: give I/N"),
    (["simulate", "bolsa", "--shard", "3/2"], "--shard 3/2: give I/N"),
    (["simulate", "bolsa", "--games", "100", "--shard", "1/5"], "N ≤ 1 (the chunks of 100 games)"),
    (["simulate", "bolsa", "--ladder", "--vs-set", "rules.rounds=3"], "--ladder plays the bots"),
    (["simulate", "aktsioner", "--set", "rules.eliminate_broke=true", "--set", "rules.start_shares=0"], "AKT-A11"),
])
def test_bad_command_lines_are_one_line_usage_errors_before_any_work(capsys, argv, message):
    """Issue 25: each bad value is one line naming the option, exit 2, within a second of CPU
    and without building what it asks for (a trillion games is no list, a range to a trillion
    no range)."""
    import time
    import tracemalloc

    tracemalloc.start()  # the first run for its memory: what it imports counted, tracing's own cost left out of the CPU
    assert main(argv) == 2
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    capsys.readouterr()
    started = time.process_time()  # the second, untraced, for its CPU: the process's first imports are not its work
    assert main(argv) == 2
    cpu = time.process_time() - started
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error
    assert len(error.strip().splitlines()) == 1 and len(error) < 400
    assert cpu < 1.0 and peak < 50_000_000


def test_more_workers_than_cores_names_the_cores(capsys, monkeypatch):
    from pnp.simulate import command

    monkeypatch.setattr(command, "cores", lambda: 2)
    assert main(["simulate", "bolsa", "--workers", "3"]) == 2
    assert capsys.readouterr().err.strip() == "--workers 3: give 1 to 2 (this machine has 2 cores), or 0 for all of them"


def test_the_text_answer_compares_side_by_side(capsys):
    assert main(["simulate", "bolsa", "--games", "40", "--players", "3", "--workers", "1", "--set", "rules.rounds=2",
                 "--vs-set", "rules.rounds=4"]) == 0
    out = capsys.readouterr().out
    assert "b: components.yaml (rounds=4)" in out
    line = next(line for line in out.splitlines() if line.strip().startswith("game length (rounds)"))
    assert line.split()[3:6] == ["2", "4", "2"] and line.endswith(" changed")


# --- honest balance statistics -------------------------------------------------------------------------


def fair_die_tally(rng: random.Random, games: int, seats: int) -> Tally:
    """`games` games of a fair die: each seat wins with probability 1/seats; one game in 20 is
    a shared win of two seats (still fair)."""
    made = Tally(games=games)
    for _ in range(games):
        winner = int(rng.random() * seats)
        winners = (winner,) if rng.random() >= 0.05 else tuple(sorted({winner, (winner + 1) % seats}))
        made.seats[((0,) * seats, winners)] += 1
    return made


def seat_alarms(rng: random.Random, runs: int, games: int, loaded: float = 0.25) -> int:
    """How many of `runs` simulations of a die whose first seat wins `loaded` of the games (the
    rest evenly) judge the seats unequal."""
    probe, alarms = Probe(None), 0
    for _ in range(runs):
        made = Tally(games=games) if loaded != 0.25 else fair_die_tally(rng, games, 4)
        if loaded != 0.25:
            for _ in range(games):
                r = rng.random()
                made.seats[((0,) * 4, (0 if r < loaded else 1 + int((r - loaded) / (1 - loaded) * 3),))] += 1
        balance = summarise(made, ("random",), probe, [], 4)["seat_balance"]
        assert balance["pairs"] == 6 and 0 <= balance["gap"].low <= balance["gap"].value <= balance["gap"].high <= 1
        alarms += not balance["equal"]
    return alarms


@pytest.mark.slow  # a thousand simulated runs; the fast lane runs a hundred
def test_equal_seats_raise_a_false_alarm_at_most_at_the_nominal_rate():
    """Issues 26 and 41: with four truly equal seats and 4,000 games, the old gap (best minus
    worst seat, the pair's own interval) excluded 0 in a third of the runs. The gap's interval
    for every pair at once — the one method the sentence and the table both read — alarms in at
    most 5 % of 1,000 seeded simulations of a fair die (Bonferroni: about 2 % here); and is not
    deaf: a die loaded by 5 points on the first seat is found nearly every time."""
    rng = random.Random(26)
    assert seat_alarms(rng, 1000, 4000) <= 50
    assert seat_alarms(rng, 100, 4000, loaded=0.30) >= 90


def test_equal_seats_rarely_alarm_and_a_loaded_die_is_found():
    rng = random.Random(41)
    assert seat_alarms(rng, 100, 2000) <= 6 and seat_alarms(rng, 20, 4000, loaded=0.30) >= 17


def test_holm_keeps_the_family_wise_rate():
    from pnp.simulate.metrics import holm

    assert holm([0.01, 0.04, 0.03, 0.2]) == [True, False, False, False]  # 0.01 ≤ 0.05/4; then 0.03 > 0.05/3
    assert holm([0.001, 0.012, 0.02]) == [True, True, True]


def test_a_comparison_with_a_rule_that_changes_nothing_claims_nothing(capsys):
    """The same seeds under a no-op (`rounds` at its default) play the same games: every
    difference is 0 and nothing changed. The length, fixed by the rules, is unchanged (its
    interval [0, 0] inside the margin); a seat's share over 200 games is not known to 2 points,
    so the verdict says how many more games would tell, not "unchanged"."""
    assert main(["simulate", "bolsa", "--games", "200", "--workers", "1", "--json", "--vs-set", "rules.rounds=5"]) == 0
    answer_ = json.loads(capsys.readouterr().out)
    assert answer_["differences"] and not any(row["significant"] for row in answer_["differences"])
    assert all(row["difference"]["value"] == 0 for row in answer_["differences"])
    assert answer_["verdict"][0]["kind"] == "nothing"
    said = {item["metric"]: item for item in answer_["verdict"]}
    assert said["length.mean"]["kind"] == "unchanged" and said["length.mean"]["ci95"] == [0, 0]
    first = said["seat_win_rate[1].win_rate"]
    low, high = first["ci95"]
    assert first["kind"] == "undecided" and low < -first["margin"] and first["margin"] == 0.02
    assert first["more"] > 1000 and f"run about {first['more']:,} more games a side" in first["text"]


def test_the_verdict_comes_first_with_its_numbers(capsys):
    assert main(["simulate", "bolsa", "--games", "300", "--workers", "1", "--json", "--set", "rules.rounds=3",
                 "--vs-set", "rules.rounds=6"]) == 0
    answer_ = json.loads(capsys.readouterr().out)
    assert list(answer_)[0] == "verdict"
    longer = next(item for item in answer_["verdict"] if item["metric"] == "length.mean")
    assert longer["kind"] == "changed" and longer["a"] == 3 and longer["b"] == 6 and longer["relative"] == 1
    assert longer["ci95"] == [3, 3] and longer["text"] == "Games are longer by 3 rounds [3, 3] (3 → 6)."
    rows = {row["metric"]: row for row in answer_["differences"]}
    assert rows["length.mean"]["name"] == "game length (rounds)" and rows["length.mean"]["p_value"] == 0
    one = answer_["a"]
    assert list(one)[0] == "verdict" and one["verdict"][0]["kind"] == "length" and one["verdict"][0]["value"] == 3
    assert one["verdict"][1]["kind"] == "balance" and one["verdict"][1]["judged"] is True
    assert set(one["glossary"]) >= {"seat", "balance", "length", "money", "interval"}


def test_rotating_bots_are_stated_and_seat_balance_is_not_judged(capsys):
    assert main(["simulate", "bolsa", "--games", "30", "--workers", "1", "--json", "--bots", "random,value,bull"]) == 0
    answer_ = json.loads(capsys.readouterr().out)
    assert "seats 1 and 4 always hold the same bot" in answer_["rotation"]
    balance = next(item for item in answer_["verdict"] if item["kind"] == "balance")
    assert balance["judged"] is False
    bots = next(item for item in answer_["verdict"] if item["kind"] == "bots")
    assert sorted(bots["order"]) == ["bull", "random", "value"]


# --- shards, merge, workers that die ----------------------------------------------------------------------


def without_timings(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if '"elapsed_s":' not in line)


@pytest.mark.parametrize("extra", [[], pytest.param(["--vs-set", "rules.rounds=3", "--players", "3-4"], marks=pytest.mark.slow)])
def test_shards_merged_answer_byte_for_byte_as_one_run(tmp_path, capsys, extra):
    base = ["simulate", "bolsa", "--games", "450", "--seed", "8", "--workers", "1", *extra]
    assert main([*base, "--json"]) == 0
    whole_run = capsys.readouterr().out
    files = []
    for shard in (2, 1, 3):
        assert main([*base, "--shard", f"{shard}/3"]) == 0
        files.append(tmp_path / f"shard-{shard}.json")
        files[-1].write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["simulate", "merge", *map(str, files), "--json"]) == 0
    merged_run = capsys.readouterr().out
    assert without_timings(merged_run) == without_timings(whole_run)
    assert main(["simulate", "merge", *map(str, files[:2])]) == 2
    assert "3 shards make the simulation; missing 3" in capsys.readouterr().err
    assert main(["simulate", "merge", *map(str, files), str(files[0])]) == 2
    assert "given twice: 2" in capsys.readouterr().err
    assert main(["simulate", "merge", str(files[0]), "--games", "3"]) == 2
    assert "--games belong to the shards' own run" in capsys.readouterr().err


def test_a_shard_tally_reads_back_equal():
    played = run(chunks(SHORT, 250, 4), workers=1)
    again = Tally.from_json(json.loads(json.dumps(played.as_json())))
    assert again == played and again.as_json() == played.as_json() and again.games == 250


# the fast lane: four chunks, the last one short; the full lane: six
@pytest.mark.parametrize("games", [330, pytest.param(600, marks=pytest.mark.slow)])
def test_merging_is_exact_in_any_grouping(games):
    parts = [run_chunk_of(SHORT, games, 6, number) for number in range(-(-games // 100))]
    assert len(parts) >= 4
    forwards, backwards = Tally(), Tally()
    for part in parts:
        forwards.merge(part)
    for part in reversed(parts):
        backwards.merge(part)
    assert forwards == backwards == run(chunks(SHORT, games, 6), workers=1)


def run_chunk_of(setup, games, seed, number):
    from pnp.simulate.runner import run_chunk

    return run_chunk(next(chunks(setup, games, seed, numbers=range(number, number + 1))))


def dying(marker: str, deaths: int, chunk):
    """A worker's play that kills its process on chunk 2, the first `deaths` times."""
    import os

    from pnp.simulate.runner import run_chunk

    if chunk.number == 2:
        path = Path(marker)
        died = int(path.read_text()) if path.exists() else 0
        if died < deaths:
            path.write_text(str(died + 1))
            os._exit(9)
    return run_chunk(chunk)


# the fast lane: chunk 2 of four (350 games) dies; the full lane: of six
@pytest.mark.parametrize("games", [350, pytest.param(600, marks=pytest.mark.slow)])
def test_a_worker_that_dies_is_replaced_and_its_chunks_played_again(tmp_path, games):
    from functools import partial

    again = run(chunks(SHORT, games, 7), workers=2, play=partial(dying, str(tmp_path / "died"), 1))
    assert (tmp_path / "died").read_text() == "1"
    assert again == run(chunks(SHORT, games, 7), workers=1) and again.games == games


def test_a_worker_that_dies_twice_is_reported_with_the_chunk_it_lost(tmp_path):
    from functools import partial

    from pnp.simulate.runner import WorkerLost

    with pytest.raises(WorkerLost) as lost:
        run(chunks(SHORT, 600, 7), workers=2, play=partial(dying, str(tmp_path / "died"), 2))
    assert 2 in lost.value.lost and lost.value.exit_code == 1
    assert "chunk" in str(lost.value) and "201–300" in str(lost.value)


@pytest.mark.slow  # the fast lane kills a worker of run() in process (test_a_worker_that_dies_is_replaced…)
def test_killing_a_worker_of_pnp_simulate_still_answers_as_one_run(tmp_path):
    """A worker killed with SIGKILL mid-run (out of memory, an impatient admin): the run goes on
    on a new pool, plays the lost chunks again and answers what an undisturbed run answers."""
    import os
    import signal
    import subprocess
    import sys
    import time

    argv = [sys.executable, "-m", "pnp", "simulate", "aktsioner", "--bots", "greedy", "--games", "200", "--players", "3",
            "--workers", "2", "--json", "--seed", "5"]
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    children: list[str] = []
    deadline = time.monotonic() + 60
    while not children and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    assert children, "the run started no worker"
    time.sleep(1.0)  # into its first chunk
    os.kill(int(children[0]), signal.SIGKILL)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    undisturbed = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert without_timings(out) == without_timings(undisturbed.stdout)


@pytest.mark.parametrize("width", [390, pytest.param(1280, marks=pytest.mark.slow)])
def test_the_report_reads_on_a_phone_and_a_desktop(compared_html, tmp_path, browser, width):
    """The report at a phone's 390 px and a desktop's 1280 px: nothing wider than the screen
    (the table scrolls in its own box), the verdict on the first screen, every plot shown whole
    and at most its drawn size; a screenshot is kept for a person to look at."""
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(compared_html[0].as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    verdict = page.locator(".verdict").bounding_box()
    assert verdict is not None and verdict["y"] + 40 < 800  # the answer starts on the first screen
    boxes = [page.locator("img").nth(k).bounding_box() for k in range(page.locator("img").count())]
    assert len(boxes) == 11 and all(box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
                                    for box in boxes)
    assert all(box["width"] <= 500 + 1 for box in boxes)  # never blown up past the drawn pixels
    columns = len({round(box["x"]) for box in boxes})
    assert columns == (1 if width < 600 else 2)
    shot = tmp_path / f"report-{width}.png"
    page.screenshot(path=str(shot), full_page=True)
    image = Image.open(shot)
    assert image.width == width and len(image.convert("L").getcolors(maxcolors=100_000) or ()) > 50
    page.close()
