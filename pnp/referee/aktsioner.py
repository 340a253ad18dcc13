"""The Акционер referee: reads `start`, `deal` and `turns` of a record (REFEREE.md) and drives
the engine (`pnp.rules.aktsioner`).

Each turn is one step; its stages are applied in order — `player` (the turn begins),
`trade` (stage 1), `play` (stage 2), `then` (stage 3) — so a violation is reported at the
stage that breaks the rule, e.g. `turns[3].play`. A stage trades as often as the mover likes:
`trade` (or `then`) is one trade, or a list of them in order (`turns[3].then[1]`); a trade of
nothing (`{}`) ends the stage's trading. The record's last turn may stop before its card
(`player` alone, or with its `trade`): the position is the table's at that moment.

Reading `start`: whatever is omitted is the standard setup (REFEREE.md) — a price, a player,
a player's `cash`, `shares`, or one colour of his `shares` (`{red: 12}` leaves the other
colours at the standard holding). Without `start`, a `deal` is a fresh deal (exactly the
formula's cards each); with one, it is the hands at that position (at most that many).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from pnp.referee.fields import Reader
from pnp.referee.record import Record, dump, scalar
from pnp.referee.replay import Step, StepViolation, seated
from pnp.rules.aktsioner import engine as rules
from pnp.rules.base import Event, Violation

if TYPE_CHECKING:
    from pnp.spec.model import Game

KEYS = ("deal", "turns")
TURN_KEYS = ("player", "trade", "play", "then")


def setup(record: Record, params: rules.Params) -> tuple[rules.State, Sequence[Event]]:
    reader = Reader(record)
    colours = params.colours
    reader.mapping(("start",), ("prices", "players"))
    prices = reader.counts(("start", "prices"), colours, "colour")
    accounts = {}
    for name, entry in reader.mapping(("start", "players")).items():
        path = ("start", "players", name)
        if reader.player(path, name, key=True) is None:
            continue
        entry = reader.mapping(path, ("cash", "shares"))
        cash = reader.count(path + ("cash",)) if "cash" in entry else params.start_cash
        held = reader.counts(path + ("shares",), colours, "colour")
        shares = tuple(held.get(colour, params.start_shares) for colour in colours)
        accounts[name] = rules.Account(cash, shares)
    hands = _deal(reader, colours) if record.get(("deal",)) is not None else None
    reader.done()
    complete = record.get(("start",)) is None
    try:
        return rules.setup(params, record.players, rules.Start(prices, accounts, hands, complete))
    except rules.DealViolation as violation:
        raise StepViolation(violation, "deal", _line(record, ("deal",))) from None
    except Violation as violation:
        raise StepViolation(violation, "start", _line(record, ("start",))) from None


def _deal(reader: Reader, colours: tuple[str, ...]) -> dict[str, list[str]]:
    hands: dict[str, list[str]] = {}
    for name in reader.mapping(("deal",)):
        if reader.player(("deal", name), name, key=True) is None:
            continue
        hands[name] = []
        for index, text in enumerate(reader.sequence(("deal", name))):
            try:
                hands[name].append(rules.parse_play(text, colours, with_choices=False).card)
            except rules.NotationError as error:
                reader.fail(("deal", name, index), str(error))
    missing = [name for name in reader.record.players if name not in hands]
    if isinstance(reader.get(("deal",)), dict) and missing:
        reader.fail(("deal",), f"missing the hand of {', '.join(missing)} (write [] for a player with no cards)", key=True)
    return hands


def steps(record: Record, params: rules.Params) -> list[Step]:
    seated(record, rules.check_players, params)
    reader = Reader(record)
    colours = params.colours
    result = []
    turns = reader.sequence(("turns",))
    for index, _ in enumerate(turns):
        path = ("turns", index)
        if not isinstance(reader.get(path), dict):
            reader.fail(path, 'expected a turn such as {player: Ana, play: "+30 red -60 blue"}')
            continue
        entry = reader.mapping(path, TURN_KEYS)
        stages: list[tuple[str, int, rules.Action]] = []
        if "player" not in entry:
            reader.fail(path, 'missing "player" (who moves)')
        elif reader.player(path + ("player",), entry["player"]) is not None:
            stages.append(("player", _line(record, path + ("player",)), rules.Begin(entry["player"])))
        if "trade" in entry:
            stages += _trades(reader, path, "trade", colours)
        if "play" not in entry:
            if index < len(turns) - 1 or "then" in entry:  # only the last turn may stop before its card
                reader.fail(path, 'missing "play" (stage 2: every turn plays one card, e.g. "+30 red -60 blue")')
        else:
            try:
                stages.append(("play", _line(record, path + ("play",)), rules.parse_play(entry["play"], colours)))
            except rules.NotationError as error:
                reader.fail(path + ("play",), str(error))
        if "then" in entry:
            stages += _trades(reader, path, "then", colours)
        result.append(Step(f"turns[{index}]", record.line(path), tuple(stages)))
    reader.done()
    return result


def _trades(reader: Reader, turn: tuple, key: str, colours: tuple[str, ...]) -> list[tuple[str, int, rules.Trade]]:
    """A stage's trades: `{sell: …, buy: …}`, or a list of them in order; each with where it
    is (`then`, or `then[1]` in a list) and its line."""
    path = turn + (key,)
    if not isinstance(reader.get(path), tuple):
        return [(key, _line(reader.record, path), _trade(reader, path, colours))]
    return [(f"{key}[{k}]", reader.record.line(path + (k,)), _trade(reader, path + (k,), colours))
            for k in range(len(reader.sequence(path)))]


def _trade(reader: Reader, path: tuple, colours: tuple[str, ...]) -> rules.Trade:
    reader.mapping(path, ("sell", "buy"))
    sell, buy = (reader.counts(path + (side,), colours, "colour") for side in ("sell", "buy"))
    return rules.Trade.of(sell, buy)


def apply(state: rules.State, step: Step, params: rules.Params) -> tuple[rules.State, Sequence[Event]]:
    """Apply the stages of one turn; a violation is located at its stage (`turns[3].then`)."""
    events: list[Event] = []
    for key, line, action in step.action:
        try:
            state, applied = rules.apply(state, action, params)
        except Violation as violation:
            raise StepViolation(violation, f"{step.at}.{key}", line, state, events) from None
        events += applied
    return state, events


def actions(step: Step) -> tuple[rules.Action, ...]:
    """The engine actions of one turn: its stages, in order."""
    return tuple(action for _, _, action in step.action)


def state_json(state: rules.State, params: rules.Params) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "prices": dict(zip(params.colours, state.prices, strict=True)),
        "players": {
            name: {"cash": _number(account.cash), "shares": dict(zip(params.colours, account.shares, strict=True))}
            for name, account in zip(state.players, state.accounts, strict=True)
        },
    }
    if state.hands is not None:
        answer["hands"] = {name: list(hand) for name, hand in zip(state.players, state.hands, strict=True)}
    result = rules.outcome(state, params)
    if result is not None:
        answer["over"] = True
        answer["scores"] = {name: _number(score) for name, score in result.scores.items()}
        answer["winners"] = list(result.winners)
    return answer


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


def _line(record: Record, path: tuple) -> int:
    """The line of a key (`deal:`, `then:`), where a reader looks, even when its value starts below."""
    return record.source.position(path, key=True)[0]


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
            sides = {side: dict(counts) for side, counts in (("sell", action.sell), ("buy", action.buy)) if counts}
            stage = "then" if "play" in turns[-1] else "trade"
            if stage not in turns[-1]:
                turns[-1][stage] = sides
            elif isinstance(turns[-1][stage], list):  # a stage's third trade, or later
                turns[-1][stage].append(sides)
            else:
                turns[-1][stage] = [turns[-1][stage], sides]
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


def _number(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value
