"""Whether two rule sets differ on a metric, decided from the interval of the difference.

Every row of a comparison (`simulation.differences`) is judged once, here, and the verdict's
sentence, the table's column and the JSON's `judged` all read that one judgement, so they
cannot disagree:

- `changed`: the change stands after Holm's correction for the number of metrics compared
  (rows that cannot differ, both sides constant and equal, are not counted), at a family-wise
  `CLAIM_ALPHA` of 1 %: of a hundred comparisons of rule sets that change nothing, about one
  claims a change somewhere (at 5 % it would be five: a designer acts on a claim);
- `small`: it stands, but its 95 % interval lies within the metric's margin of practical
  equivalence: real, and too small to matter;
- `unchanged`: the 95 % interval lies within ±margin — two one-sided tests at 2.5 % each, so
  "unchanged" is said only when a change as large as the margin is ruled out, never merely
  because none was found;
- `chance`: the 95 % interval excludes 0 but the change does not stand the correction: among
  thirty metrics one or two do so by chance alone (the verdict names the direction, with the
  interval, and the games it would take to tell);
- `undecided`: none of these: not enough games to tell.

Where the answer is not yet known (`chance`, `undecided`) `more` is about how many more games
a side would tell, were the estimate to stay where it is: enough for the interval to fit inside
the margin, or to exclude 0 at the corrected level, whichever is fewer.

A margin is per family of metrics (`MARGINS`), absolute in the metric's own unit (a share: 0.02
is 2 points) or relative to the first rule set's value ("5%"), and the user may set each
(`--margin length=0.5`, `--margin seats=1%`... see docs/simulate.md).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from statistics import NormalDist
from typing import Mapping, Sequence

from pnp.simulate.metrics import Estimate, Z, holm
from pnp.simulate.runner import CHUNK_GAMES

CHANGED, SMALL, UNCHANGED, CHANCE, UNDECIDED = "changed", "small", "unchanged", "chance", "undecided"
CLAIM_ALPHA = 0.01  # the family-wise rate of a claimed change among rule sets that change nothing

MARGINS: dict[str, str] = {  # family → its margin of practical equivalence (a share in points, a mean in %)
    "length": "5%",  # the mean game length, relative to the first rule set's
    "steps": "5%",  # actions per game
    "seats": "0.02",  # a seat's or a bot's win rate, the gap between seats: 2 points
    "ends": "0.02",  # the share of games ending each way
    "scores": "5%",  # the winner's score and lead
    "gini": "0.01",  # the inequality of the final scores
    "leader": "0.03",  # the share of games the mid-game leader wins
    "money": "0.01",  # the share of games the printed money cannot pay
    "marks": "0.02",  # the share of games a track's mark happens in
    "per_game": "10%",  # how often per game it happens
    "supplies": "0.02",  # the share of games that empty a supply
}
_FAMILY = (  # a row's path → its family
    (r"length\.mean", "length"), (r"length\.steps\.mean", "steps"),
    (r"seat_win_rate\[.*|seat_balance\.gap|bot_win_rate\..*", "seats"), (r"ends\..*", "ends"),
    (r"scores\.(winner|margin)", "scores"), (r"scores\.gini", "gini"), (r"scores\.mid_game_leader_wins", "leader"),
    (r"components\.money\[.*", "money"), (r"components\.track\.marks\..*\.games", "marks"),
    (r"components\.track\.marks\..*\.per_game", "per_game"), (r"components\.supplies\..*", "supplies"),
)


@dataclass(frozen=True)
class Margin:
    """A margin of practical equivalence: `size` in the metric's unit, or a share of the first
    rule set's value when `relative`."""

    size: float
    relative: bool = False

    @classmethod
    def read(cls, text: str) -> Margin:
        """"0.5" or "5%" (ValueError for anything else, or a negative size)."""
        found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(%?)\s*", text)
        if found is None:
            raise ValueError(f"{text!r} is not a margin: give a number in the metric's unit (0.5) or a percentage (5%)")
        return cls(float(found[1]) / 100 if found[2] else float(found[1]), bool(found[2]))

    def around(self, a: float) -> float:
        return self.size * abs(a) if self.relative else self.size

    def __str__(self) -> str:
        return f"{self.size * 100:g}%" if self.relative else f"{self.size:g}"


def margins(settings: Mapping[str, str] | None = None) -> dict[str, Margin]:
    """Every family's margin: the defaults, with `settings` (family → text) over them
    (ValueError naming the family for one that is not, or a margin that is not one)."""
    unknown = sorted(set(settings or {}) - set(MARGINS))
    if unknown:
        raise ValueError(f"no family {unknown[0]!r} (families: {', '.join(MARGINS)})")
    return {family: Margin.read((settings or {}).get(family, default)) for family, default in MARGINS.items()}


def family(path: str) -> str:
    """The margin family of a metric's path ("seats" for `seat_win_rate[2].win_rate`)."""
    return next((name for pattern, name in _FAMILY if re.fullmatch(pattern, path)), "supplies")


@dataclass(frozen=True)
class Judged:
    """One row's judgement (see the module's docstring): its kind, the margin it was held to
    (absolute), how many metrics were compared, and about how many more games a side would
    tell (None: no number would, at this estimate; 0: it is told)."""

    kind: str
    margin: float
    compared: int
    more: int | None


def judge(rows: Sequence[tuple[str, Estimate, Estimate, Estimate]],
          chosen: Mapping[str, Margin] | None = None) -> list[Judged]:
    """Each row (path, a, b, the difference b − a) judged, the rows that can differ counted
    for Holm's correction (see the module's docstring)."""
    held = dict(chosen) if chosen is not None else margins()
    informative = [k for k, (_, a, b, delta) in enumerate(rows) if delta.se > 0 or a.value != b.value]
    stands = dict(zip(informative, holm([rows[k][3].p_value for k in informative], CLAIM_ALPHA), strict=True))
    compared = len(informative)
    found = []
    for k, (path, a, _, delta) in enumerate(rows):
        margin = held[family(path)].around(a.value)
        found.append(_judged(delta, margin, stands.get(k, False), compared))
    return found


def _judged(delta: Estimate, margin: float, stands: bool, compared: int) -> Judged:
    within = -margin <= delta.low and delta.high <= margin
    if stands:
        return Judged(SMALL if within else CHANGED, margin, compared, 0)
    if within:
        return Judged(UNCHANGED, margin, compared, 0)
    excludes = delta.low > 0 or delta.high < 0
    return Judged(CHANCE if excludes else UNDECIDED, margin, compared, games_to_tell(delta, margin, compared, excludes))


def games_to_tell(delta: Estimate, margin: float, compared: int, excludes: bool) -> int | None:
    """About how many more games a side would make the interval fit within ±margin, or exclude
    0 at the level Holm's correction asks of the first of `compared` rows, the estimate staying
    where it is (a standard error shrinks as 1/√games); the fewer, rounded up to a chunk."""
    d, se, n = abs(delta.value), delta.se, max(delta.n, 1)
    strict = NormalDist().inv_cdf(1 - CLAIM_ALPHA / 2 / max(compared, 1))
    needed = []
    if d > 0:
        needed.append(n * (strict * se / d) ** 2)
    if d < margin and not excludes:
        needed.append(n * (Z * se / (margin - d)) ** 2)
    if not needed or se == 0:
        return None
    more = max(min(needed) - n, 1.0)
    return math.ceil(more / CHUNK_GAMES) * CHUNK_GAMES
