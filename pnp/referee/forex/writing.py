"""Writing For-Ex records: the starter record of `pnp referee new`, and any played turns
(for example a game from `pnp.rules.forex.playout`, for tests and benchmarks)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from pnp.errors import PnpError
from pnp.rules import forex as engine
from pnp.rules.forex.params import show
from pnp.spec.model import Game


def starter(game: Game, players: list[str]) -> str:
    """A record with the standard setup written out (FOREX-4), ready for its turns."""
    p = engine.params(game)
    if not p.min_players <= len(players) <= p.max_players:
        raise PnpError(f"For-Ex is for {p.min_players}–{p.max_players} players, not {len(players)} (FOREX-1.10)")
    state = engine.setup(p, players)
    money = ", ".join(f"{c}: {show(p.start_money)}" for c in p.currencies)
    lines = [
        "# For-Ex game record: edit, then `pnp referee check` it (REFEREE.md, rules/forex.md).",
        "game: forex",
        f"players: [{', '.join(_yaml_text(n) for n in players)}]   # seating, clockwise; anyone may start",
        "options: {}                 # house rules (rules/forex.md section 13), e.g. {voluntary_default: true}",
        "start:",
        f"  pairs:                    # FOREX-2.3: the stronger currency and its box 1..{p.boxes}",
        *(f"    {pair.key}: {{stronger: {pair.stronger}, position: {pair.position}}}" for pair in state.pairs),
        f"  supply: {{{', '.join(f'{c}: {n}' for c, n in zip(p.currencies, state.supply))}}}"
        f"   # {p.removed_certificates} removed at random (FOREX-4.3): write what is left",
        "  players:",
        *(f"    {_yaml_text(name)}: {{money: {{{money}}}, certificates: {{}}}}" for name in players),
        "  queue: [dividend 1]       # front first",
        "turns: []",
        f"# - player: {_yaml_text(players[0])}",
        f"#   spot: {{with: {_yaml_text(players[-1])}, give: {{GBP: 1}}, get: {{CAD: 2}}}}   # optional",
        "#   contract: {pay: GBP, receive: CNY, amount: 3}   # or invest: [USD, CNY]",
        "#   # divest: {currency: JPY, count: 2, others: {Ben: 1}}",
        "#   # resolve: {}   (strengthen: X for a dividend tie, strongest: X for the final tie)",
        "",
    ]
    return "\n".join(lines)


def _yaml_text(name: str) -> str:
    plain = re.fullmatch(r"[A-Za-z][\w .'-]*", name) and name.lower() not in ("yes", "no", "on", "off", "true", "false", "null")
    return name if plain else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def record_text(players: tuple[str, ...], turns: list[tuple[engine.Action, ...]], options: dict[str, Any] | None = None) -> str:
    """A record of the given turns (each: an optional Spot, then one action), e.g. to store a
    game played with `pnp.rules.forex.playout` for benchmarks and tests."""
    lines = ["game: forex", f"players: [{', '.join(_yaml_text(n) for n in players)}]"]
    if options:
        lines.append("options: {" + ", ".join(f"{k}: {_yaml_value(v)}" for k, v in options.items()) + "}")
    lines.append("turns:" if turns else "turns: []")
    for actions in turns:
        lines.append(f"  - player: {_yaml_text(actions[-1].player)}")
        lines += [f"    {line}" for line in map(_action_text, actions)]
    return "\n".join(lines) + "\n"


def _action_text(action: engine.Action) -> str:
    if isinstance(action, engine.Spot):
        (gives, x), (gets, y) = action.give, action.get
        return f"spot: {{with: {_yaml_text(action.other)}, give: {{{gives}: {_amount(x)}}}, get: {{{gets}: {_amount(y)}}}}}"
    if isinstance(action, engine.MakeContract):
        return f"contract: {{pay: {action.pay}, receive: {action.receive}, amount: {_amount(action.amount)}}}"
    if isinstance(action, engine.Invest):
        return f"invest: [{', '.join(action.currencies)}]"
    if isinstance(action, engine.Divest):
        others = ", ".join(f"{_yaml_text(n)}: {c}" for n, c in action.others)
        return f"divest: {{currency: {action.currency}, count: {action.count}, others: {{{others}}}}}"
    choices = [f"{key}: {value}" for key, value in (("strengthen", action.strengthen), ("strongest", action.strongest)) if value]
    if action.default:
        choices.append(f"default: [{', '.join(action.default)}]")
    return f"resolve: {{{', '.join(choices)}}}"


def _amount(value: Fraction) -> str:
    text = show(value)
    return f'"{text}"' if "/" in text else text


def _yaml_value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)
