"""Writing For-Ex records: the starter record of `pnp referee new`, and any played actions
(a simulated game, a benchmark's, a round-trip test's), as plain data for `record.dump`."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from pnp.referee.record import dump, scalar
from pnp.rules.forex import engine
from pnp.rules.forex.params import show

if TYPE_CHECKING:
    from pnp.spec.model import Game


def starter(game: Game, players: list[str], start: engine.Start | None = None) -> str:
    """A record with the setup written out (FOREX-4), ready for its turns: the standard one,
    its supply the deal's (`start`, the certificates removed at random, FOREX-4.3)."""
    p = engine.params(game)
    state, _ = engine.setup(p, players, start)
    first, last = scalar(players[0]), scalar(players[-1])
    return "\n".join([
        "# For-Ex game record: edit, then `pnp referee check` it; `pnp rules show FOREX-4` quotes a rule it names.",
        "# players: seating, clockwise; anyone may start. options: house rules (`pnp rules show FOREX-13`),",
        "# e.g. {voluntary_default: true}. start: the standard setup (FOREX-4): each pair's stronger currency",
        f"# and its box 1..{p.boxes} (FOREX-2.3); the supply after {p.removed_certificates} certificates were",
        "# removed at random (FOREX-4.3; drawn for this record: remove those, or write what you removed);",
        "# the queue, front first.",
        dump(record(p, players, (), start=state)).rstrip(),
        "# Replace [] with one entry per turn, e.g.:",
        f"# - player: {first}",
        f"#   spot: {{with: {last}, give: {{GBP: 1}}, get: {{CAD: 2}}}}   # optional",
        "#   contract: {pay: GBP, receive: CNY, amount: 3}   # or invest: [USD, CNY]",
        "#   # divest: {currency: JPY, count: 2, others: {Ben: 1}}",
        "#   # resolve: {}   (strengthen: X for a dividend tie, strongest: X for the final tie)",
        "",
    ])


def record(
    p: engine.Params,
    players: Sequence[str],
    actions: Iterable[engine.Action],
    options: Mapping[str, Any] | None = None,
    start: engine.State | None = None,
) -> dict[str, Any]:
    """A record (plain data for `dump`) of `actions` played through the engine from `start`
    (None: the standard setup): each Spot joins the turn of the action after it, or ends the
    record in a turn of its own — the inverse of `steps`, for starters, simulations,
    benchmarks, round-trip tests and the table."""
    turns: list[dict[str, Any]] = []
    spot: dict[str, Any] | None = None
    pending_player = ""
    for action in actions:
        if isinstance(action, engine.Spot):
            (gives, x), (gets, y) = action.give, action.get
            spot = {"with": action.other, "give": {gives: _amount(x)}, "get": {gets: _amount(y)}}
            pending_player = action.player
            continue
        turn: dict[str, Any] = {"player": action.player}
        if spot is not None:
            turn["spot"], spot = spot, None
        turns.append({**turn, **_action(action)})
    if spot is not None:  # the actions stop after a spot, before its turn's action
        turns.append({"player": pending_player, "spot": spot})
    data: dict[str, Any] = {"game": "forex", "players": list(players), "options": _plain(options or {})}
    if start is not None:
        data["start"] = _start(p, start)
    return {**data, "turns": turns}


def _start(p: engine.Params, start: engine.State) -> dict[str, object]:
    """A position's `start`: the pairs, the supply, each player's money and certificates, the queue."""
    return {
        "pairs": {pair.key: {"stronger": pair.stronger, "position": pair.position} for pair in start.pairs},
        "supply": dict(zip(p.currencies, start.supply, strict=True)),
        "players": {name: {"money": {c: _amount(m) for c, m in zip(p.currencies, h.money, strict=True)},
                           "certificates": {c: n for c, n in zip(p.currencies, h.certificates, strict=True) if n}}
                    for name, h in zip(start.players, start.holdings, strict=True)},
        "queue": [_queued(item) for item in start.queue],
    }


def _action(action: engine.Action) -> dict[str, Any]:
    if isinstance(action, engine.MakeContract):
        return {"contract": {"pay": action.pay, "receive": action.receive, "amount": _amount(action.amount)}}
    if isinstance(action, engine.Invest):
        return {"invest": list(action.currencies)}
    if isinstance(action, engine.Divest):
        return {"divest": {"currency": action.currency, "count": action.count, "others": dict(action.others)}}
    assert isinstance(action, engine.Resolve)
    picks = (("strengthen", action.strengthen), ("strongest", action.strongest))
    choices: dict[str, Any] = {key: value for key, value in picks if value}
    if action.default:
        choices["default"] = list(action.default)
    return {"resolve": choices}


def _queued(item: engine.Item) -> Any:
    if isinstance(item, engine.Dividend):
        return item.label()
    owner = {"owner": item.owner}
    if isinstance(item, engine.Contract):
        return {"contract": item.set, **owner, "pay": {item.pay[0]: _amount(item.pay[1])},
                "receive": {item.receive[0]: _amount(item.receive[1])}}
    return {"loan": item.set, **owner, "owe": {c: _amount(a) for c, a in item.owe}}


def _amount(value: Fraction) -> int | float | str:
    """Whole amounts as integers, halves as 4.5, others (a spec's own rates) as "5/3"."""
    text = show(value)
    if "/" in text:
        return text
    return value.numerator if value.denominator == 1 else float(value)


def _plain(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as YAML writes them: tuples as lists, start pairs as mappings."""
    plain: dict[str, Any] = {}
    for key, value in options.items():
        if key == "start_pairs":
            value = {pair: {"stronger": s, "position": n} for pair, (s, n) in value.items()}
        plain[key] = list(value) if isinstance(value, tuple) else value
    return plain
