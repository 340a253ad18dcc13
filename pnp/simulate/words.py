"""The simulator's answers in plain words: a name for every metric, a glossary, and the verdict.

A metric is kept under its path in the JSON answer (`components.money[USD].short`); people read
it by the name `name(path)` gives it ("games the printed USD cannot pay"), and the glossary says
what each kind of metric measures. The verdict opens every answer (text, JSON, report): for one
rule set what a designer asks first — how long games are, whether a seat has an advantage,
whether the printed money can pay the table — and for a comparison the key metrics and every
metric that changed, each as its judgement (`pnp.simulate.judge`) says.

Every sentence is made here from the numbers it states — an estimate and its interval, the
margin a difference was held to — and says them, so that no sentence can read otherwise than
its numbers; each verdict item is data (the metric, its numbers, a `kind`) with its sentence
in `text`. The words go through the catalogs (`_`), in the language the caller speaks
(`pnp simulate --lang es`).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping, Sequence

from pnp.i18n import N_, N_plural, _, ngettext
from pnp.simulate import judge

REASONS = {  # how a game ended (`Outcome.reason`, the game's `ends`), as a phrase after "games ending"
    "last_round": N_("after the last round"),
    "all_cards_played": N_("when every card is played"),
    "last_dividend": N_("with the last dividend"),
    "bankruptcy": N_("in a bankruptcy"),
}
MARKS = {  # what a track's mark is (`Probe.mark_names`)
    "bottom": N_("the track's lowest value is reached"),
    "top": N_("the track's highest value is reached"),
    "flip": N_("a token is flipped past the printed row"),
    "cap": N_("a pair counter reaches its last box"),
}
SUPPLIES = {  # a supply (`Probe.supply_names`), as a sentence names it
    r"certificates (?P<currency>.+)": N_("{currency} certificates"),
    r"contract sets": N_("contract sets"),
}
UNITS = {  # a length's unit (`Probe.unit`) with a number
    "rounds": N_plural("{n} round", "{n} rounds"),
    "turns": N_plural("{n} turn", "{n} turns"),
    "steps": N_plural("{n} step", "{n} steps"),
}
NOTABLE = 0.005  # a share of games below this is "never" in the verdict of one run
SUPPLY_NOTABLE = 0.05  # an emptied supply is the rules at work: said from this share of games up

GLOSSARY = {  # family of metric → what it measures; shown for the families an answer has
    "seat": N_("Seat N wins: the share of games won from seat N (a shared win counts 1/k to each of its k winners). "
               "Fair: 1 / players."),
    "balance": N_("Seat balance: the best seat's win rate minus the worst's, with an interval that holds for every "
                  "pair of seats at once, so that picking the extremes after the fact does not make it exclude 0 more "
                  "often than 5 % of the time in a fair game; a seat has an advantage when the interval lies above 0."),
    "bot": N_("BOT wins per seat: the share of the seats BOT played that won."),
    "length": N_("Game length: rounds or turns, as the game counts them; actions: every step applied."),
    "ends": N_("Games ending …: the share of games that ended that way."),
    "scores": N_("Winner's score and lead: the winning score and its lead over the runner-up; inequality: the Gini "
                 "coefficient of the final scores (0 all equal, towards 1 one player holds all)."),
    "leader": N_("The mid-game leader wins: games where a player ahead when the middle round or turn began won."),
    "money": N_("Money the printed bills cannot pay: games in which, at some moment, the printed bills could not be "
                "shared out so that every player held exactly his amount (the bank holds the rest and makes change "
                "whenever asked); the fix is the denomination that pays every game but the hardest 1 % with the "
                "fewest added bills."),
    "track": N_("Track marks: the share of games in which the mark happens, and how often per game."),
    "supplies": N_("Supply emptied: the share of games that take the last piece of a supply (certificates, contract "
                   "sets); the rules then stop taking from it: its printed count is the rules' limit, not a shortage."),
    "interval": N_("95 % interval: the range the true value lies in, 19 times out of 20."),
    "judged": N_("Judgement of a difference: changed (it stands after Holm's correction for the number of metrics "
                 "compared); changed, small (it stands, but lies within the margin); unchanged (the 95 % interval lies "
                 "within ± the metric's margin of practical equivalence: a change as large as the margin is ruled out); "
                 "chance (the interval excludes 0, but among this many metrics one or two do by chance alone); too "
                 "few games (none of these: more games would tell)."),
}
JUDGED = {  # a comparison row's judgement (`judge`), as the table's column says it
    judge.CHANGED: N_("changed"), judge.SMALL: N_("changed, small"), judge.UNCHANGED: N_("unchanged"),
    judge.CHANCE: N_("chance"), judge.UNDECIDED: N_("too few games"),
}


def name(path: str, unit: str = "") -> str:
    """A metric's name in plain words, from its path in the JSON answer."""
    for pattern, words in _NAMES:
        found = re.fullmatch(pattern, path)
        if found:
            return words(found.groupdict(), unit)
    return path.replace("_", " ")


def _mark(key: str) -> str:
    return _(MARKS[key]) if key in MARKS else _("{mark} happens").format(mark=key.replace("_", " "))


def reason(key: str) -> str:
    """How a game ended, as a phrase after "games ending"."""
    return _(REASONS[key]) if key in REASONS else key.replace("_", " ")


def supply_name(key: str) -> str:
    """A supply as a sentence names it ("GBP certificates"), its key as the probe gives it."""
    for pattern, words in SUPPLIES.items():
        found = re.fullmatch(pattern, key)
        if found:
            return _(words).format(**found.groupdict())
    return key


def money_name(currency: str) -> str:
    """A currency as a sentence names it: its code, or "money" for a game's one money."""
    return currency if currency not in ("", "Money") else _("money")


def _unit_name(unit: str) -> str:
    return {"rounds": _("rounds"), "turns": _("turns")}.get(unit, _("steps"))


_NAMES: tuple[tuple[str, Callable[[dict[str, str], str], str]], ...] = (
    (r"seat_win_rate\[(?P<seat>\d+)\]\.win_rate", lambda g, u: _("seat {seat} wins").format(seat=g["seat"])),
    (r"seat_balance\.gap", lambda g, u: _("best seat's lead over the worst seat")),
    (r"bot_win_rate\.(?P<bot>.+)\.win_rate", lambda g, u: _("{bot} wins per seat").format(bot=g["bot"])),
    (r"length\.mean", lambda g, u: _("game length ({unit})").format(unit=_unit_name(u))),
    (r"length\.steps\.mean", lambda g, u: _("actions per game")),
    (r"ends\.(?P<reason>.+)", lambda g, u: _("games ending {how}").format(how=reason(g["reason"]))),
    (r"scores\.winner", lambda g, u: _("winner's score")),
    (r"scores\.margin", lambda g, u: _("winner's lead over the runner-up")),
    (r"scores\.gini", lambda g, u: _("inequality of final scores (Gini)")),
    (r"scores\.mid_game_leader_wins", lambda g, u: _("games the mid-game leader wins")),
    (r"components\.money\[(?P<currency>[^\]]*)\]\.short",
     lambda g, u: _("games the printed {money} cannot pay").format(money=money_name(g["currency"]))),
    (r"components\.track\.marks\.(?P<mark>.+)\.games", lambda g, u: _("games where {mark}").format(mark=_mark(g["mark"]))),
    (r"components\.track\.marks\.(?P<mark>.+)\.per_game",
     lambda g, u: _("times per game {mark}").format(mark=_mark(g["mark"]))),
    (r"components\.supplies\.(?P<supply>.+)\.exhausted",
     lambda g, u: _("games that empty the supply of {supply}").format(supply=supply_name(g["supply"]))),
)

_FAMILIES = (("seat_win_rate", "seat"), ("seat_balance", "balance"), ("bot_win_rate", "bot"), ("length", "length"),
             ("ends", "ends"), ("scores.mid", "leader"), ("scores", "scores"), ("components.money", "money"),
             ("components.track", "track"), ("components.supplies", "supplies"))


def glossary(paths: Iterable[str], compared: bool = False) -> dict[str, str]:
    """The glossary entries of the metric families among `paths`, in a fixed order (the
    judgement of a difference too in a comparison)."""
    found = {family for path in paths for prefix, family in _FAMILIES if path.startswith(prefix)}
    found |= {"interval"} | ({"judged"} if compared else set())
    return {family: _(text) for family, text in GLOSSARY.items() if family in found}


# --- numbers as sentences show them --------------------------------------------------------------------


def percent(share: float) -> str:
    percent = 100 * share
    return f"{percent:.0f} %" if percent >= 10 or percent == 0 else f"{percent:.1f} %"


def _num(value: float) -> str:
    shown = f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return shown.replace("-", "−")


def _share_interval(low: float, high: float) -> str:
    """"[50, 59 %]": the interval of a share."""
    return f"[{_percent_number(low)}, {percent(high)}]"


def _percent_number(share: float) -> str:
    return percent(share).removesuffix(" %")


def _points(share: float) -> str:
    """A difference of two shares in percentage points, signed where negative: "2.1", "−0.4"."""
    return _num(round(100 * share, 1))


def _count(value: float, unit: str) -> str:
    """"5 rounds", "22.1 turns": a length with its unit (a fraction takes the plural)."""
    forms = UNITS.get(unit, UNITS["steps"])
    whole = value == int(value)
    return ngettext(*forms, int(value) if whole else 2).format(n=_num(value))


def _interval(low: float, high: float) -> str:
    return f"[{_num(low)}, {_num(high)}]"


# --- the verdict of one rule set ----------------------------------------------------------------------


def verdict(summary: Mapping[str, Any], players: int, bots: Sequence[str]) -> list[dict[str, Any]]:
    """What one rule set's games come to, most asked first (see the module's docstring)."""
    items = [_length(summary), _balance(summary, players, bots), *_ends(summary), *_money(summary), *_supplies(summary)]
    leader = summary["scores"]["mid_game_leader_wins"]
    if leader.n:
        items.append(_item("leader", "scores.mid_game_leader_wins", leader,
                           _("The player ahead at mid-game wins {share} of games {interval}.").format(
                               share=percent(leader.value), interval=_share_interval(leader.low, leader.high))))
    if len(bots) > 1:
        rates = summary["bot_win_rate"]
        ranked = sorted(bots, key=lambda bot: -rates[bot]["win_rate"].value)
        shown = ", ".join(f"{bot} {percent(rates[bot]['win_rate'].value)} "
                          f"{_share_interval(rates[bot]['win_rate'].low, rates[bot]['win_rate'].high)}" for bot in ranked)
        items.append({"kind": "bots", "metric": "bot_win_rate", "order": ranked,
                      "text": _("Bots, strongest first (wins per seat played): {bots}.").format(bots=shown)})
    return items


def _item(kind: str, metric: str, estimate: Any, text: str, **more: Any) -> dict[str, Any]:
    return {"kind": kind, "metric": metric, "value": estimate.value, "ci95": [estimate.low, estimate.high],
            **more, "text": text}


def _length(summary: Mapping[str, Any]) -> dict[str, Any]:
    length = summary["length"]
    mean, low, high, unit = length["mean"], length["percentiles"]["p5"], length["percentiles"]["p95"], length["unit"]
    if low == high:
        text = _("Games last {mean} on average {interval}; 90 % of games last exactly {low}.")
    else:
        text = _("Games last {mean} on average {interval}; 90 % of games last {low} to {high}.")
    return _item("length", "length.mean", mean, text.format(mean=_count(mean.value, unit),
                                                             interval=_interval(mean.low, mean.high),
                                                             low=_count(low, unit), high=_count(high, unit)))


def rotation(players: int, bots: Sequence[str]) -> str:
    """Where several bots rotate through the seats, what that does to the seats' win rates."""
    if len(bots) < 2:
        return ""
    text = _("{bots} bots rotate through the {players} seats (game i seats bot i + seat)").format(
        bots=len(bots), players=players)
    if len(bots) < players:
        twins = [_("{seat} and {twin}").format(seat=s + 1, twin=s + 1 + len(bots)) for s in range(players - len(bots))]
        text += _("; seats {twins} always hold the same bot").format(twins=", ".join(twins))
    return text + _(": the seats' win rates mix the seat with the bots around it; read seat balance from a run with "
                    "one bot, and bot strength from the bots' rows.")


def _balance(summary: Mapping[str, Any], players: int, bots: Sequence[str]) -> dict[str, Any]:
    """Seat balance as the table states it: the gap between the best and the worst seat, its
    interval for every pair of seats at once (`metrics.seat_balance`)."""
    balance, seats = summary["seat_balance"], summary["seat_win_rate"]
    first = seats[0]["win_rate"].value if seats else 0.0
    fair, gap = 1 / players, balance["gap"]
    facts = {"kind": "balance", "metric": "seat_balance.gap", "value": gap.value, "ci95": [gap.low, gap.high],
             "equal": balance["equal"], "judged": len(bots) == 1, "first_seat": first, "fair": fair}
    if len(bots) > 1:
        return {**facts, "text": _("Seat balance is not judged with several bots ({rotation}).").format(
            rotation=rotation(players, bots))}
    if not balance["seats"]:
        return {**facts, "text": _("Seat balance is not judged: no game was played.")}
    best, worst = balance["seats"]
    rates = {s["seat"]: s["win_rate"].value for s in seats}
    numbers = {"best": best, "worst": worst, "gap": _points(gap.value), "low": _points(gap.low),
               "high": _points(gap.high), "best_rate": percent(rates[best]), "worst_rate": percent(rates[worst]),
               "first": percent(first), "fair": percent(fair)}
    if balance["equal"]:
        text = _("No seat has an advantage beyond chance: the largest gap, seat {best} over seat {worst}, is {gap} "
                 "points [{low}, {high}] (an interval for every pair of seats at once); the first seat wins {first} "
                 "against a fair {fair}.")
    else:
        text = _("Seat {best} wins more often than seat {worst}: {best_rate} against {worst_rate}, {gap} points more "
                 "[{low}, {high}] (an interval for every pair of seats at once); a fair share is {fair}.")
    return {**facts, "text": text.format(**numbers)}


def _ends(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    ends = summary["ends"]
    if len(ends) < 2:
        return []
    ranked = sorted(ends.items(), key=lambda kv: -kv[1].value)
    parts = ", ".join(f"{reason(key)} {percent(e.value)} {_share_interval(e.low, e.high)}" for key, e in ranked)
    return [{"kind": "ends", "metric": "ends", "shares": {key: e.value for key, e in ranked},
             "text": _("Games end {parts}.").format(parts=parts)}]


def _money(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each currency the printed bills cannot pay in a notable share of games, with the bills
    to add; or that they paid every game."""
    moneys = summary["components"]["money"]
    items = []
    for money in moneys:
        short = money["short"]
        if short.value < NOTABLE:
            continue
        numbers = {"money": money_name(money["currency"]), "share": percent(short.value),
                   "interval": _share_interval(short.low, short.high)}
        fix = money["fix"]
        if fix is None:
            text = _("The printed {money} cannot pay every player's amount in {share} of games {interval}, and no "
                     "single denomination added would.").format(**numbers)
        else:
            enough = _("enough in every game simulated") if fix["every_game"] else _("enough in 99 % of games")
            text = ngettext("The printed {money} cannot pay every player's amount in {share} of games {interval}, "
                            "however the bank makes change: add {count} bill of {value} ({enough}).",
                            "The printed {money} cannot pay every player's amount in {share} of games {interval}, "
                            "however the bank makes change: add {count} bills of {value} ({enough}).",
                            fix["add"]).format(count=fix["add"], value=_value(fix["value"]), enough=enough, **numbers)
        items.append(_item("short", f"components.money[{money['currency']}].short", short, text, fix=fix))
    if moneys and not items:
        worst = max((money["short"] for money in moneys), key=lambda e: e.high)
        items.append(_item("enough", "components.money", worst,
                           _("The printed money paid every player's amount in every game, the bank making change "
                             "(games short: {share} {interval}).").format(
                               share=percent(worst.value), interval=_share_interval(worst.low, worst.high))))
    return items


def _value(value: float) -> str:
    return "½" if value == 0.5 else f"{value:g}"


def _supplies(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Supplies the game empties often: the rules at work, said as such (never a shortage)."""
    items = []
    for supply, found in summary["components"]["supplies"].items():
        emptied = found["exhausted"]
        if emptied.value >= SUPPLY_NOTABLE:
            items.append(_item("emptied", f"components.supplies.{supply}.exhausted", emptied, _(
                "The supply of {supply} is emptied in {share} of games {interval}: the rules then stop taking from it "
                "(its printed count is the rules' limit, not a shortage).").format(
                    supply=supply_name(supply), share=percent(emptied.value),
                    interval=_share_interval(emptied.low, emptied.high))))
    return items


# --- the verdict of a comparison ----------------------------------------------------------------------

KEY_METRICS = ("length.mean", "seat_balance.gap", "seat_win_rate[1].win_rate")  # said whatever their judgement


def comparison(rows: Sequence[Mapping[str, Any]], unit: str) -> list[dict[str, Any]]:
    """The verdict of a comparison: the key metrics whatever their judgement, then every other
    metric that changed, then how many more intervals exclude 0 by chance (each row judged
    once, `judge`, as the table shows it)."""
    changed = [row for row in rows if row["judged"]["kind"] in (judge.CHANGED, judge.SMALL)]
    items: list[dict[str, Any]] = [] if changed else [
        {"kind": "nothing", "metric": "", "text": _("No metric changed beyond chance.")}]
    said = _said_rows(rows, changed)
    items += [_judged_item(row, unit) for row in said]
    chance = [row for row in rows if row["judged"]["kind"] == judge.CHANCE and row not in said]
    if chance:
        items.append(_chance_item(chance))
    return items


def _said_rows(rows: Sequence[Mapping[str, object]], changed: Sequence[Mapping[str, object]]) -> list[Mapping[str, object]]:
    """The rows the verdict says: the key metrics compared, then the other metrics that changed."""
    by_metric = {row["metric"]: row for row in rows}
    said = [by_metric[metric] for metric in KEY_METRICS if metric in by_metric]
    return said + [row for row in changed if row["metric"] not in KEY_METRICS]


def _chance_item(chance: Sequence[Mapping[str, Any]]) -> dict[str, object]:
    """The verdict's item for the other metrics whose intervals exclude 0 no more often than
    chance would."""
    compared = chance[0]["judged"]["compared"]
    return {"kind": "chance", "metric": "", "metrics": [row["metric"] for row in chance],
            "text": ngettext("{count} other metric's interval excludes 0 (judged \"chance\" in the table): no "
                             "more than chance gives among {compared} metrics compared.",
                             "{count} other metrics' intervals exclude 0 (judged \"chance\" in the table): no "
                             "more than chance gives among {compared} metrics compared.",
                             len(chance)).format(count=len(chance), compared=compared)}


def _judged_item(row: Mapping[str, Any], unit: str) -> dict[str, Any]:
    judged, a, b = row["judged"], row["a"]["value"], row["b"]["value"]
    difference = row["difference"]
    return {"kind": judged["kind"], "metric": row["metric"], "a": a, "b": b, "difference": difference["value"],
            "ci95": difference["ci95"], "margin": judged["margin"], "more": judged["more"], "relative": _relative(row),
            "text": sentence(row, unit)}


def _relative(row: Mapping[str, Any]) -> float | None:
    a = row["a"]["value"]
    return (row["b"]["value"] - a) / abs(a) if a else None


def sentence(row: Mapping[str, Any], unit: str) -> str:
    """A comparison row's judgement as a sentence that states its interval (and its margin,
    and the games it would take, where they decide it)."""
    judged, delta = row["judged"], row["difference"]
    share, length = row["kind"] == "rate" or row["metric"].startswith("seat_balance"), row["metric"] == "length.mean"
    d, (low, high) = delta["value"], delta["ci95"]

    def amount(x: float) -> str:
        return _("{n} points").format(n=_points(x)) if share else _num(x)

    up = d > 0
    numbers = {
        "name": name(row["metric"], unit), "a": percent(row["a"]["value"]) if share else _num(row["a"]["value"]),
        "b": percent(row["b"]["value"]) if share else _num(row["b"]["value"]),
        "by": _count(abs(d), unit) if length else amount(abs(d)),
        "interval": _("[{low}, {high}] points").format(low=_points(low), high=_points(high)) if share else
        _interval(low, high), "margin": amount(judged["margin"]),
        "more": f"{judged['more']:,}" if judged["more"] else "", "compared": judged["compared"],
    }
    said = _(_wording(judged["kind"], up, length, bool(judged["more"]))).format(**numbers)
    return said[:1].upper() + said[1:]


def _wording(kind: str, up: bool, length: bool, more: bool) -> str:
    """The sentence (untranslated) for a judgement: of the game's length or another metric,
    which way it moved; for too few games, with the games it would take where known."""
    if kind in (judge.CHANGED, judge.SMALL, judge.CHANCE):
        return (_LENGTH if length else _MOVED)[kind][up]
    if kind == judge.UNCHANGED:
        return N_("{name} is unchanged: the difference, {interval}, lies within the ±{margin} margin ({a} → {b}).")
    if more:
        return N_("Not enough games to tell whether {name} changed: the difference's interval {interval} reaches "
                  "beyond the ±{margin} margin and across 0; run about {more} more games a side.")
    return N_("Not enough games to tell whether {name} changed: the difference's interval {interval} reaches "
              "beyond the ±{margin} margin and across 0.")


_LENGTH = {  # a change of the game's length, by judgement and direction (False: shorter, True: longer)
    judge.CHANGED: (N_("Games are shorter by {by} {interval} ({a} → {b})."),
                    N_("Games are longer by {by} {interval} ({a} → {b}).")),
    judge.SMALL: (N_("Games are shorter by {by} {interval} ({a} → {b}), within the ±{margin} margin: too little to "
                     "matter."),
                  N_("Games are longer by {by} {interval} ({a} → {b}), within the ±{margin} margin: too little to "
                     "matter.")),
    judge.CHANCE: (N_("Games may be shorter by {by} {interval} ({a} → {b}), but not beyond chance among {compared} "
                      "metrics compared: run about {more} more games a side to tell."),
                   N_("Games may be longer by {by} {interval} ({a} → {b}), but not beyond chance among {compared} "
                      "metrics compared: run about {more} more games a side to tell.")),
}
_MOVED = {  # any other metric's change, the same way
    judge.CHANGED: (N_("{name}: {a} → {b}, down by {by} {interval}."), N_("{name}: {a} → {b}, up by {by} {interval}.")),
    judge.SMALL: (N_("{name}: {a} → {b}, down by {by} {interval}, within the ±{margin} margin: too little to matter."),
                  N_("{name}: {a} → {b}, up by {by} {interval}, within the ±{margin} margin: too little to matter.")),
    judge.CHANCE: (N_("{name} may be down by {by} {interval} ({a} → {b}), but not beyond chance among {compared} "
                      "metrics compared: run about {more} more games a side to tell."),
                   N_("{name} may be up by {by} {interval} ({a} → {b}), but not beyond chance among {compared} "
                      "metrics compared: run about {more} more games a side to tell.")),
}
