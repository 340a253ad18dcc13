"""Writing Акционер records: the starter record of `pnp referee new`, and any played actions
(a simulated game, a benchmark's, a round-trip test's, the table's), as plain data for
`record.dump`."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from pnp.referee.record import dump, scalar
from pnp.rules.aktsioner import engine as rules

if TYPE_CHECKING:
    from pnp.spec.model import Game


def starter(game: Game, players: list[str], start: rules.Start | None = None) -> str:
    """The standard setup (AKT-2) written out. The deal's hands stay off it: each player's are
    secret at the table (AKT-2.6), and the record may add them as `deal` afterwards."""
    params = rules.params(game)
    state, _ = rules.setup(params, players)
    example = ", ".join(scalar(name) for name in list(params.cards)[:2])
    first = scalar(players[0])
    return f"""\
# Акционер — game record for `pnp referee check FILE`; `pnp rules show AKT-2.1` quotes a rule it names.
# players: seating, clockwise; options: house rules (`pnp rules show AKT-12` lists them), e.g.
# {{formula: 4+6, rounding: down}} (defaults: {params.formula}, {params.rounding}); start: the standard setup (AKT-2.1, 2.2).
{dump(record(params, players, (), start=state)).rstrip()}
# deal:          # optional: each player's {params.big} big + {params.small} small cards; plays then come from the hand
#   {first}: [{example}, ...]
# Replace [] with one entry per turn, e.g.:
# - player: {first}
#   trade: {{sell: {{red: 1}}, buy: {{blue: 1}}}}   # stage 1 (optional)
#   play: "+30 red -60 blue"                  # stage 2: the card, then your choices
#   then: {{buy: {{blue: 1}}}}                    # stage 3 (optional)
"""



def record(
    params: rules.Params,
    players: Sequence[str],
    actions: Iterable[rules.Action],
    options: Mapping[str, Any] | None = None,
    start: rules.State | None = None,
) -> dict[str, Any]:
    """A record (plain data for `dump`) of `actions` played through the engine from `start`
    (a position between turns, its hands written as the `deal`; None: the standard setup) —
    the inverse of `steps`, for starters, simulations, benchmarks and round-trip tests."""
    turns: list[dict[str, Any]] = []
    for action in actions:
        if isinstance(action, rules.Begin):
            turns.append({"player": action.player})
        elif isinstance(action, rules.Play):
            turns[-1]["play"] = str(action)
        else:
            _write_trade(turns[-1], action)
    data: dict[str, Any] = {"game": "aktsioner", "players": list(players), "options": dict(options or {})}
    if start is not None:
        data["start"] = {
            "prices": dict(zip(params.colours, start.prices, strict=True)),
            "players": {name: {"cash": _number(account.cash), "shares": dict(zip(params.colours, account.shares, strict=True))}
                        for name, account in zip(start.players, start.accounts, strict=True)},
        }
        if start.hands is not None:
            data["deal"] = {name: list(hand) for name, hand in zip(start.players, start.hands, strict=True)}
    return {**data, "turns": turns}


def _write_trade(turn: dict[str, Any], trade: rules.Trade) -> None:
    """A trade into its turn's stage (`trade` before the card, `then` after it): the stage's
    one trade, or a list once it has a second."""
    sides = {side: dict(counts) for side, counts in (("sell", trade.sell), ("buy", trade.buy)) if counts}
    stage = "then" if "play" in turn else "trade"
    if stage not in turn:
        turn[stage] = sides
    elif isinstance(turn[stage], list):  # a stage's third trade, or later
        turn[stage].append(sides)
    else:
        turn[stage] = [turn[stage], sides]


def _number(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value

