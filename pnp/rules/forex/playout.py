"""Random legal play, for property tests and benchmarks (not a strategy: a fair sampler).

`random_turn` builds the actions of one turn that are legal by construction (a Spot only
when both sides hold the money, an Invest only in what the player can buy, …) and breaks any
tie the engine asks about with `ChoiceNeeded`, so a whole game can be played to its end.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Mapping

from pnp.rules.base import Event
from pnp.rules.forex.board import value_in
from pnp.rules.forex.params import Params
from pnp.rules.forex.resolve import Resolve
from pnp.rules.forex.scoring import ChoiceNeeded
from pnp.rules.forex.state import Contract, State, setup
from pnp.rules.forex.turns import Action, Divest, Invest, MakeContract, Spot, apply

WEIGHTS = {"resolve": 4, "contract": 3, "invest": 2, "divest": 1}


def random_turn(
    state: State, p: Params, rng: random.Random, weights: Mapping[str, int] = WEIGHTS
) -> tuple[tuple[Action, ...], State, list[Event]]:
    """One legal turn of the player to move (a random one before the first turn): its
    actions, the state after it and its events. `weights` favour some actions (a low
    `resolve` weight makes long games)."""
    player = state.players[state.to_move] if state.to_move is not None else rng.choice(state.players)
    actions: list[Action] = []
    events: list[Event] = []
    spot = _spot(state, p, rng, player) if rng.random() < 0.3 else None
    if spot is not None:
        state, more = apply(state, spot, p)
        actions.append(spot)
        events += more
    kinds = [k for k in WEIGHTS if _possible(state, p, player, k)]
    kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
    action = _ACTIONS[kind](state, p, rng, player)
    while True:
        try:
            state, more = apply(state, action, p)
            break
        except ChoiceNeeded as choice:
            action = replace(action, **{choice.what: rng.choice(choice.options)})
    return tuple(actions) + (action,), state, events + more


def random_game(
    p: Params, players: tuple[str, ...], rng: random.Random, weights: Mapping[str, int] = WEIGHTS, max_turns: int = 5000
) -> list[tuple[Action, ...]]:
    """The turns of a whole random game (it ends well before `max_turns` in practice)."""
    state, turns = setup(p, players), []
    while not state.over and len(turns) < max_turns:
        actions, state, _ = random_turn(state, p, rng, weights)
        turns.append(actions)
    return turns


def _possible(state: State, p: Params, player: str, kind: str) -> bool:
    holding = state.holding(player)
    if kind == "contract":
        return bool(state.display(p))
    if kind == "invest":
        return bool(_investable(state, p, player))
    if kind == "divest":
        return any(holding.certificates)
    return True


def _investable(state: State, p: Params, player: str) -> list[str]:
    holding = state.holding(player)
    return [c for i, c in enumerate(p.currencies)
            if state.supply[i] and holding.certificates[i] < p.cert_cap and holding.money[i] >= p.certificate_price]


def _spot(state: State, p: Params, rng: random.Random, player: str) -> Spot | None:
    other = rng.choice([n for n in state.players if n != player])
    gives, gets = rng.sample(p.currencies, 2)
    if rng.random() < 0.5:  # one buck given …
        x, y = Fraction(1), value_in(state.pairs, p, Fraction(1), gives, gets)
    else:  # … or one buck received
        x, y = value_in(state.pairs, p, Fraction(1), gets, gives), Fraction(1)
    if p.spot_unit == "stronger_one" and min(x, y) < 1:
        return None  # the one buck must be of the stronger currency
    mine, theirs = state.holding(player).money, state.holding(other).money
    if mine[p.index(gives)] < x or theirs[p.index(gets)] < y:
        return None
    return Spot(player, other, (gives, x), (gets, y))


def _contract(state: State, p: Params, rng: random.Random, player: str) -> MakeContract:
    """Mostly a contract the player could pay today (else most games end in a bankruptcy)."""
    pay, receive = rng.sample(p.currencies, 2)
    per_unit = max(value_in(state.pairs, p, Fraction(1), receive, pay), Fraction(1))  # pay per k
    affordable = int(state.holding(player).money[p.index(pay)] // per_unit)
    top = min(affordable, p.contract_max) if affordable and rng.random() < 0.95 else p.contract_max
    return MakeContract(player, pay, receive, Fraction(rng.randint(1, top)))


def _invest(state: State, p: Params, rng: random.Random, player: str) -> Invest:
    options = _investable(state, p, player)
    return Invest(player, tuple(rng.sample(options, rng.randint(1, min(2, len(options))))))


def _divest(state: State, p: Params, rng: random.Random, player: str) -> Divest:
    holding = state.holding(player)
    index = rng.choice([i for i, n in enumerate(holding.certificates) if n])
    others = tuple((name, rng.randint(0, state.holding(name).certificates[index]))
                   for name in state.players if name != player and rng.random() < 0.5)
    return Divest(player, p.currencies[index], rng.randint(1, holding.certificates[index]), others)


def _resolve(state: State, p: Params, rng: random.Random, player: str) -> Resolve:
    front = state.queue[0]
    if p.voluntary_default and isinstance(front, Contract) and rng.random() < 0.3:
        return Resolve(player, default=(front.set,))
    return Resolve(player)


_ACTIONS = {"contract": _contract, "invest": _invest, "divest": _divest, "resolve": _resolve}
