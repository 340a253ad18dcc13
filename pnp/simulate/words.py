"""The simulator's answers in plain words: a name for every metric, a glossary, and the verdict.

A metric is kept under its path in the JSON answer (`components.money[Money].denominations[100].short`);
people read it by the name `name(path)` gives it ("games short of 100 bills of Money"), and the
glossary says what each kind of metric measures. The verdict opens every answer (text, JSON,
report): for one rule set what a designer asks first — how long games are, whether a seat has
an advantage, whether the printed components run out — and for a comparison each metric that
changed beyond chance (Holm-corrected, `simulation.differences`) with its old and new value,
then the key metrics that did not change.

Each verdict item is data (the metric, its numbers, a `kind`) with its sentence beside it, so
tests read the numbers and people read the sentence; every sentence is made here.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

REASONS = {  # how a game ended (`Outcome.reason`), as a phrase after "games ending"
    "last_round": "after the last round",
    "all_cards_played": "when every card is played",
    "last_dividend": "with the last dividend",
    "bankruptcy": "in a bankruptcy",
}
MARKS = {  # what a track's mark is (`Probe.mark_names`)
    "bottom": "the track's lowest value is reached",
    "top": "the track's highest value is reached",
    "flip": "a token is flipped past the printed row",
    "cap": "a pair counter reaches its last box",
}
NOTABLE = 0.005  # a share of games below this is "never" in the verdict of one run

GLOSSARY = {  # family of metric → what it measures; shown for the families an answer has
    "seat": "Seat N wins: the share of games won from seat N (a shared win counts 1/k to each of its k winners). "
            "Fair: 1 / players.",
    "balance": "Seat balance: Pearson's χ² test that every seat wins equally often; p below 0.05 says a seat has "
               "an advantage (a fair game says so in 5 % of simulations). The gap between the best and the worst "
               "seat has an interval that holds for every pair of seats at once.",
    "bot": "BOT wins per seat: the share of the seats BOT played that won.",
    "length": "Game length: rounds or turns, as the game counts them; actions: every step applied.",
    "ends": "Games ending …: the share of games that ended that way.",
    "scores": "Winner's score and lead: the winning score and its lead over the runner-up; inequality: the Gini "
              "coefficient of the final scores (0 all equal, towards 1 one player holds all).",
    "leader": "The mid-game leader wins: games where a player ahead when the middle round or turn began won.",
    "money": "Short of money: games in which the players held, at some moment, more money (or more bills of one "
             "value) than is printed; the table then makes change or writes IOUs.",
    "track": "Track marks: the share of games in which the mark happens, and how often per game.",
    "supplies": "Runs out: the share of games that empty a supply (certificates, contract sets).",
    "interval": "95 % interval: the range the true value lies in, 19 times out of 20. In a comparison a star marks "
                "a change beyond chance, corrected for the number of metrics compared (Holm).",
}


def name(path: str, unit: str = "") -> str:
    """A metric's name in plain words, from its path in the JSON answer."""
    for pattern, words in _NAMES:
        found = re.fullmatch(pattern, path)
        if found:
            return words(found.groupdict(), unit)
    return path.replace("_", " ")


def _mark(key: str) -> str:
    return MARKS.get(key, f"{key.replace('_', ' ')} happens")


def _reason(key: str) -> str:
    return REASONS.get(key, key.replace("_", " "))


def money_name(currency: str) -> str:
    """A currency as a sentence names it: its code, or "money" for a game's one money."""
    return currency if currency not in ("", "Money") else "money"


def _bills(currency: str, value: Any) -> str:
    """"100 bills", or "USD 100 bills" where each currency has its own."""
    return f"{value} bills" if money_name(currency) == "money" else f"{currency} {value} bills"


_NAMES: tuple[tuple[str, Any], ...] = (
    (r"seat_win_rate\[(?P<seat>\d+)\]\.win_rate", lambda g, u: f"seat {g['seat']} wins"),
    (r"balance_gap\.gap", lambda g, u: "best seat's lead over the worst seat"),
    (r"bot_win_rate\.(?P<bot>.+)\.win_rate", lambda g, u: f"{g['bot']} wins per seat"),
    (r"length\.mean", lambda g, u: f"game length ({u or 'steps'})"),
    (r"length\.steps\.mean", lambda g, u: "actions per game"),
    (r"ends\.(?P<reason>.+)", lambda g, u: f"games ending {_reason(g['reason'])}"),
    (r"scores\.winner", lambda g, u: "winner's score"),
    (r"scores\.margin", lambda g, u: "winner's lead over the runner-up"),
    (r"scores\.gini", lambda g, u: "inequality of final scores (Gini)"),
    (r"scores\.mid_game_leader_wins", lambda g, u: "games the mid-game leader wins"),
    (r"components\.money\[(?P<currency>[^\]]*)\]\.short",
     lambda g, u: f"games short of {money_name(g['currency'])} (more in hands than printed)"),
    (r"components\.money\[(?P<currency>[^\]]*)\]\.denominations\[(?P<value>[^\]]+)\]\.short",
     lambda g, u: f"games short of {_bills(g['currency'], g['value'])}"),
    (r"components\.track\.marks\.(?P<mark>.+)\.games", lambda g, u: f"games where {_mark(g['mark'])}"),
    (r"components\.track\.marks\.(?P<mark>.+)\.per_game", lambda g, u: f"times per game {_mark(g['mark'])}"),
    (r"components\.supplies\.(?P<supply>.+)\.exhausted", lambda g, u: f"games that run out of {g['supply']}"),
)

_FAMILIES = (("seat_win_rate", "seat"), ("balance_gap", "balance"), ("bot_win_rate", "bot"), ("length", "length"),
             ("ends", "ends"), ("scores.mid", "leader"), ("scores", "scores"), ("components.money", "money"),
             ("components.track", "track"), ("components.supplies", "supplies"))


def glossary(paths: Iterable[str]) -> dict[str, str]:
    """The glossary entries of the metric families among `paths`, in a fixed order."""
    found = {family for path in paths for prefix, family in _FAMILIES if path.startswith(prefix)}
    return {family: text for family, text in GLOSSARY.items() if family in found or family == "interval"}


# --- the verdict ------------------------------------------------------------------------------------------


def verdict(summary: Mapping[str, Any], players: int, bots: Sequence[str]) -> list[dict[str, Any]]:
    """What one rule set's games come to, most asked first (see the module's docstring)."""
    items = [_length(summary)]
    items.append(_balance(summary, players, bots))
    items += _ends(summary)
    items += _shortages(summary)
    leader = summary["scores"]["mid_game_leader_wins"]
    if leader.n:
        items.append(_item("leader", "scores.mid_game_leader_wins", leader,
                           f"The player ahead at mid-game wins {percent(leader.value)} of games."))
    if len(bots) > 1:
        rates = summary["bot_win_rate"]
        ranked = sorted(bots, key=lambda bot: -rates[bot]["win_rate"].value)
        items.append({"kind": "bots", "metric": "bot_win_rate", "order": ranked,
                      "text": "Bots, strongest first (wins per seat played): "
                              + ", ".join(f"{bot} {percent(rates[bot]['win_rate'].value)}" for bot in ranked) + "."})
    return items


def _item(kind: str, metric: str, estimate: Any, text: str, **more: Any) -> dict[str, Any]:
    return {"kind": kind, "metric": metric, "value": estimate.value, "ci95": [estimate.low, estimate.high],
            **more, "text": text}


def _length(summary: Mapping[str, Any]) -> dict[str, Any]:
    length = summary["length"]
    mean, low, high = length["mean"], length["percentiles"]["p5"], length["percentiles"]["p95"]
    spread = f"{_num(low)} to {_num(high)}" if low != high else f"always {_num(low)}"
    return _item("length", "length.mean", mean,
                 f"Games last {_num(mean.value)} {length['unit']} on average ({spread} in 90 % of games).")


def rotation(players: int, bots: Sequence[str]) -> str:
    """Where several bots rotate through the seats, what that does to the seats' win rates."""
    if len(bots) < 2:
        return ""
    text = f"{len(bots)} bots rotate through the {players} seats (game i seats bot i + seat)"
    if len(bots) < players:
        twins = [f"{s + 1} and {s + 1 + len(bots)}" for s in range(players - len(bots))]
        text += f"; seats {', '.join(twins)} always hold the same bot"
    return text + ": the seats' win rates mix the seat with the bots around it; read seat balance from a run " \
                  "with one bot, and bot strength from the bots' rows."


def _balance(summary: Mapping[str, Any], players: int, bots: Sequence[str]) -> dict[str, Any]:
    test, seats = summary["seat_balance"], summary["seat_win_rate"]
    first = seats[0]["win_rate"] if seats else None
    p, fair = test["p_value"], 1 / players
    where = f"χ² p = {_p(p)}"
    if len(bots) > 1:
        text = f"Seat balance is not judged with several bots ({rotation(players, bots)})"
    elif test["equal"]:
        text = f"No seat has an advantage beyond chance ({where}); the first seat wins {percent(first.value if first else 0)}" \
               f" against a fair {percent(fair)}."
    else:
        gap = summary["balance_gap"]
        best, worst = gap["seats"]
        rates = {s["seat"]: s["win_rate"].value for s in seats}
        text = f"The seats are not equal ({where}): seat {best} wins {percent(rates[best])}, seat {worst} " \
               f"{percent(rates[worst])}, against a fair {percent(fair)}."
    return {"kind": "balance", "metric": "seat_balance", "p_value": p, "equal": test["equal"],
            "judged": len(bots) == 1, "first_seat": first.value if first else 0.0, "fair": fair, "text": text}


def _ends(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    ends = summary["ends"]
    if len(ends) < 2:
        return []
    ranked = sorted(ends.items(), key=lambda kv: -kv[1].value)
    parts = ", ".join(f"{_reason(reason)} {percent(estimate.value)}" for reason, estimate in ranked)
    return [{"kind": "ends", "metric": "ends", "shares": {reason: e.value for reason, e in ranked},
             "text": f"Games end {parts}."}]


def _shortages(summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each currency, denomination or supply that runs out in a notable share of games; or that
    none does."""
    items = []
    for money in summary["components"]["money"]:
        currency = money_name(money["currency"])
        if money["short"].value >= NOTABLE:
            items.append(_item("short", f"components.money[{money['currency']}].short", money["short"],
                               f"Players hold more {currency} than is printed in {percent(money['short'].value)} of games "
                               f"({_num(money['p99_in_hands'])} at the 99th percentile, {_num(money['printed'])} printed)."))
        for bills in money["denominations"]:
            if bills["short"].value >= NOTABLE:
                items.append(_item(
                    "short", f"components.money[{money['currency']}].denominations[{bills['value']}].short",
                    bills["short"], f"The {_bills(money['currency'], bills['value'])} run out in {percent(bills['short'].value)} "
                                    f"of games ({bills['printed']} printed, {_num(bills['p99_in_hands'])} needed at "
                                    "the 99th percentile)."))
    for supply, found in summary["components"]["supplies"].items():
        if found["exhausted"].value >= NOTABLE:
            items.append(_item("short", f"components.supplies.{supply}.exhausted", found["exhausted"],
                               f"{supply[:1].upper()}{supply[1:]} run out in {percent(found['exhausted'].value)} of games."))
    if not items and (summary["components"]["money"] or summary["components"]["supplies"]):
        items.append({"kind": "enough", "metric": "components", "text": "The printed money and supplies were enough "
                                                                         "in every game (or all but a few)."})
    return items


def comparison(rows: Sequence[Mapping[str, Any]], unit: str) -> list[dict[str, Any]]:
    """The verdict of a comparison: each metric that changed beyond chance, in plain words; then
    the key metrics that did not (game length, the first seat's advantage, seat balance)."""
    items = []
    for row in rows:
        if row["significant"]:
            items.append({"kind": "changed", "metric": row["metric"], "a": row["a"]["value"], "b": row["b"]["value"],
                          "difference": row["difference"]["value"], "relative": _relative(row),
                          "text": _change(row, unit)})
    changed = {item["metric"] for item in items}
    unchanged = [("length.mean", "the game's length is unchanged"),
                 ("seat_win_rate[1].win_rate", "the first seat's advantage is unchanged"),
                 ("balance_gap.gap", "the gap between the best and the worst seat is unchanged")]
    known = {row["metric"] for row in rows}
    for metric, text in unchanged:
        if metric in known and metric not in changed:
            items.append({"kind": "unchanged", "metric": metric, "text": text[:1].upper() + text[1:] + "."})
    if not changed:
        items.insert(0, {"kind": "nothing", "metric": "", "text": "No metric changed beyond chance."})
    return items


def _relative(row: Mapping[str, Any]) -> float | None:
    a = row["a"]["value"]
    return (row["b"]["value"] - a) / abs(a) if a else None


def _change(row: Mapping[str, Any], unit: str) -> str:
    metric, a, b = row["metric"], row["a"]["value"], row["b"]["value"]
    relative = _relative(row)
    if metric == "length.mean" and relative is not None:
        return f"Games are {percent(abs(relative))} {'longer' if b > a else 'shorter'} ({_num(a)} → {_num(b)} {unit})."
    words = name(metric, unit)
    words = words[:1].upper() + words[1:]
    if row.get("kind") == "rate":
        return f"{words}: {percent(a)} → {percent(b)}."
    trend = f" ({'+' if b > a else '−'}{percent(abs(relative))})" if relative is not None else ""
    return f"{words}: {_num(a)} → {_num(b)}{trend}."


def percent(share: float) -> str:
    percent = 100 * share
    return f"{percent:.0f} %" if percent >= 10 or percent == 0 else f"{percent:.1f} %"


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def _num(value: float) -> str:
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
