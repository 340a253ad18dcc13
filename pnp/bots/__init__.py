"""Bots: players that choose among the engine's legal actions, for whoever seats them — the
simulator's thousands of games (`pnp.simulate`) and an empty seat at the table (`pnp.table`).

On the floor below both, over the rules alone: `common` (the decision a bot is given, the
common bots `random` and `greedy`, and the helpers that make a wish legal), `probe` (what is
read off a position: each seat's worth, and the simulator's readings of the components),
`games.<game>` (each game's probe and heuristic bots), `search` (the search bot, on the engine
contract alone) and `roster` (every bot by the name `--bots` or a seat gives it).
"""
