"""`pnp simulate`: what a rule change does to a game, before anyone prints it.

Thousands of games between bots that choose only among the engine's legal actions
(`pnp.rules.legal`), summarised with 95 % confidence intervals: who wins from which seat and
with which bot, how long games last and how they end, how far apart the scores are, and how
hard a game pushes its printed components (money per currency and denomination, the track's
ends, the supplies). Two rule sets are compared with the same seeds.

The bots themselves, each game's probe and the roster of names are `pnp.bots`, the floor below
(the table seats them too). Modules, bottom up: `play` (one game), `pressure` (printed money), `runner` (chunks,
seeds, processes, Dask), `metrics` (estimates and the summary), `simulation` (one call, the
JSON answer, comparisons), `report` (HTML/PDF with matplotlib, imported only for a report),
`command` (the command line).
"""
