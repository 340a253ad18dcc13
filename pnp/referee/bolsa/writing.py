"""Writing Bolsa records: the starter record of `pnp referee new`, and any played actions
(a simulated game, a benchmark's, a round-trip test's, the table's), as plain data for
`record.dump`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from pnp.referee.record import dump, scalar
from pnp.rules.bolsa import engine

if TYPE_CHECKING:
    from pnp.spec.model import Game

def starter(game: Game, players: list[str], start: engine.Start | None = None) -> str:
    """The standard setup (BOLSA-2) written out, ready for the rounds to be added (Bolsa deals
    nothing at random: `start` is None)."""
    params = engine.params(game)
    state, _ = engine.setup(params, players)
    options = [f"{o.name}: {getattr(params, o.name)}" for o in engine.RULEBOOK.options if not o.set_by]
    first, second, third = (scalar(name) for name in players[:3])
    code, bid = params.companies[-1], params.start_quote + 2
    return "\n".join([
        f"# {game.title} — game record for `pnp referee check`; `pnp rules show BOLSA-2` quotes a rule it names.",
        "# players: seating, clockwise; start: the standard setup (BOLSA-2): the holder of the",
        "# auction-order token, the quotes, and each player's cash, owned (zone 1) and orders (zone 2).",
        "# House rules (`pnp rules show BOLSA-8` lists them) go in options; omitted = the values of components.yaml:",
        *(f"#   {option}" for option in options),
        dump(record(params, players, (), start=state)).rstrip(),
        "# Replace [] with one entry per round, e.g.:",
        "# - declare:                 # sealed declarations; a player left out declares nothing",
        f"#     {first}: {{sell: {{{code}: 1}}}}",
        f"#     {second}: {{buy: {{{code}: 2}}}}",
        f"#     {third}: {{buy: {{{code}: 1}}}}",
        "#   auctions:                # each auctioned company's bids, in bidding order",
        f"#     {code}: [{{{second}: {bid}}}, {{{third}: pass}}]",
        "#   pairing:                 # optional: who buys from whom (BOLSA-4.8)",
        f"#     {code}: [{{buyer: {second}, seller: {first}, shares: 1}}]",
        f"# (Under auction_losers: may_withdraw, `withdraw: {{{code}: [{third}]}}` names the losers who take",
        "# back their cards.)",
        "",
    ])


def record(
    params: engine.Params,
    players: Sequence[str],
    actions: Iterable[engine.Action],
    options: Mapping[str, Any] | None = None,
    start: engine.State | None = None,
) -> dict[str, Any]:
    """A record (plain data for `dump`) of `actions` played through the engine from `start`
    (a position at the beginning of a round; None: the standard setup) — the inverse of
    `steps`, for starters, simulations, benchmarks, round-trip tests and the table, whose
    actions may stop before a company is settled (`unsettled`)."""
    data: dict[str, Any] = {"game": "bolsa", "players": list(players), "options": dict(options or {})}
    if start is not None:
        data["start"] = _start_data(params, start)
    return {**data, "rounds": _rounds(params, actions)}


def _rounds(params: engine.Params, actions: Iterable[engine.Action]) -> list[dict[str, Any]]:
    """The record's rounds: each round's declarations, then per company resolved its bids,
    withdrawals and pairing; a round ends when its last company is settled, and a company
    resolved but not settled is named `unsettled`."""
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    resolved, code, settled = 0, "", True
    for action in actions:
        if current is None:
            current = {}
            rounds.append(current)
        if isinstance(action, engine.Resolve):
            code = params.companies[resolved % len(params.companies)]
            resolved, settled = resolved + 1, False
        elif isinstance(action, (engine.Declare, engine.Bid, engine.Withdraw)):
            _write_players(current, action, code)
        elif isinstance(action, engine.Settle):
            settled = True
            if action.pairing is not None:
                current.setdefault("pairing", {})[code] = [vars(pair) for pair in action.pairing]
            if resolved % len(params.companies) == 0:
                current = None
    if not settled and current is not None:
        current["unsettled"] = code
    return rounds


def _write_players(current: dict[str, Any], action: engine.Declare | engine.Bid | engine.Withdraw, code: str) -> None:
    """A player's declaration, bid or withdrawal written into its round (`current`; `code`:
    the company up)."""
    if isinstance(action, engine.Declare):
        sides = {"sell": dict(action.sell), "buy": dict(action.buy)}
        current.setdefault("declare", {})[action.player] = {side: n for side, n in sides.items() if n}
    elif isinstance(action, engine.Bid):
        bid = "pass" if action.amount is None else action.amount
        current.setdefault("auctions", {}).setdefault(code, []).append({action.player: bid})
    else:
        current.setdefault("withdraw", {}).setdefault(code, []).append(action.player)


def _start_data(params: engine.Params, start: engine.State) -> dict[str, Any]:
    """A record's `start`: the round, the token's holder, the quotes and each player's cash,
    owned shares (zone 1) and orders (zone 2)."""
    codes = params.companies
    return {
        "round": start.round,
        "token": start.players[start.token].name,
        "prices": dict(zip(codes, start.prices, strict=True)),
        "players": {
            p.name: {"cash": p.cash, "owned": {c: z.owned for c, z in zip(codes, p.zones, strict=True)},
                     "orders": {c: z.orders for c, z in zip(codes, p.zones, strict=True)}}
            for p in start.players
        },
    }

