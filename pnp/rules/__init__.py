"""Rules engines, one package per game, pure (no I/O, no rendering), all keeping one contract
(`pnp.rules.contract.Engine`).

`GAMES` is the registry (`pnp.rules.registry`): a game's id and its rules module (whose
`RULEBOOK` the spec layer reads on every load, whose `ABOUT` says what the game is and offers —
a record reader of its own included —, and which keeps the contract itself or, a package, in its
`engine` module). A game is added by an entry point of group `pnp.games` in an installed
package (pnp's pyproject.toml registers the bundled three so), or for one run by
`pnp --engine mygame.py`; `pnp engine check` and the conformance test play every one. What a game
offers is read from the registry — `GAMES[id].about`: its rule prefix, its end reasons
(`end_reasons(id)`, what `pnp tune --target ends.X` may name), whether it has a fast playout
and a random deal — never probed with `getattr` on its engine. `engine(game)` imports one engine on demand, so a referee
for one game never pays for the others. It is typed per game: `engine("bolsa")` is an
`Engine` of Bolsa's own Params, State and Action; a game named at run time (a record's, a
command's) gives `AnyEngine`, whose types are the engine's own business.

`load_spec` is the one loader of components.yaml for everything above the spec layer (build,
referee, validate, tests, benchmarks): the spec checked against every registered engine — its
house rules, what it needs, and that it can set up a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, overload

from pnp.rules.registry import GAMES, Registered
from pnp.spec.options import Rulebook

if TYPE_CHECKING:
    import pnp.rules.aktsioner.params as aktsioner_params
    import pnp.rules.bolsa.params as bolsa_params
    import pnp.rules.forex.params as forex_params
    from pnp.rules.aktsioner import engine as aktsioner
    from pnp.rules.aktsioner import state as aktsioner_state
    from pnp.rules.base import Violation
    from pnp.rules.bolsa import engine as bolsa
    from pnp.rules.bolsa import state as bolsa_state
    from pnp.rules.contract import AnyEngine, Engine
    from pnp.rules.forex import engine as forex
    from pnp.rules.forex import state as forex_state
    from pnp.spec.loader import LayoutCheck
    from pnp.spec.model import Game, Spec
    from pnp.spec.source import PathKey

    BolsaEngine = Engine[bolsa_params.Params, bolsa_state.State, bolsa_state.Action]
    AktsionerEngine = Engine[aktsioner_params.Params, aktsioner_state.State, aktsioner.Action]
    ForexEngine = Engine[forex_params.Params, forex_state.State, forex.Action]

    # mypy checks that every engine module keeps the contract, with its own types
    _bolsa: BolsaEngine = bolsa
    _aktsioner: AktsionerEngine = aktsioner
    _forex: ForexEngine = forex


__all__ = ["GAMES", "Registered", "end_reasons", "engine", "load_spec", "loads_spec", "register_file", "rulebook",
           "rulebooks"]


def register_file(path: str | Path) -> Registered:
    """The rules file `path` (`pnp --engine mygame.py`) registered as the game named by its stem."""
    return GAMES.register_file(path)


@overload
def engine(game: Literal["bolsa"]) -> BolsaEngine: ...
@overload
def engine(game: Literal["aktsioner"]) -> AktsionerEngine: ...
@overload
def engine(game: Literal["forex"]) -> ForexEngine: ...
@overload
def engine(game: str) -> AnyEngine: ...
def engine(game: str) -> AnyEngine:
    """The engine of `game` (KeyError for a game without one), typed per game (see above)."""
    return GAMES[game].engine


def end_reasons(game: str) -> tuple[str, ...]:
    """Every way a game of `game` can end, as `Outcome.reason` says it (KeyError for an unknown
    game): the names `pnp tune --target ends.X` and the simulator's tallies accept."""
    return GAMES[game].about.end_reasons


def rulebook(game: str) -> Rulebook:
    """The house rules and needs of `game` (KeyError for an unknown game), without its engine."""
    return GAMES[game].rulebook


def rulebooks() -> dict[str, Rulebook]:
    return {game: entry.rulebook for game, entry in GAMES.items()}


def load_spec(path: str | Path | None = None, layout: LayoutCheck | None = None) -> Spec:
    """components.yaml (default: ./components.yaml, else the bundled one), validated and checked
    against every registered engine — and laid out by `layout` when given (`pnp validate`
    passes the build's) —; SpecError with every problem located otherwise."""
    from pnp.spec.loader import load

    return load(path, rulebooks(), check=playable, layout=layout)


def loads_spec(text: str, file: str = "components.yaml", layout: LayoutCheck | None = None) -> Spec:
    """Spec text, checked as `load_spec` checks a file (for tests and tools)."""
    from pnp.spec.loader import loads

    return loads(text, rulebooks(), file, check=playable, layout=layout)


def playable(game_id: str, game: Game) -> list[tuple[PathKey, str]]:
    """What a registered engine cannot play in `game`: it must read it (`params`), compute its
    printed tables, and set up the standard position for every player count the game lists
    (`players.min` to `players.max`; only the fewest where the deal sets the most, as in
    Акционер). Counts it cannot seat are reported once, at `players.min` when even the fewest
    fail, else at `players.max`, with the engine's reason for the most of them: what the deck or
    the deal lacks for every count to be seated."""
    from pnp.spec.contract import Mismatch

    rules = engine(game_id)
    try:
        params = rules.params(game)
        rules.tables(params)
        rules.marks(params)
    except Mismatch as mismatch:
        return [(mismatch.path, mismatch.message)]
    except ValueError as error:
        return [((), str(error))]
    listed = range(game.players.min, game.players.max + 1)
    counts = listed[:1] if GAMES[game_id].rulebook.deal_limits_players else listed
    refused = _unseated(rules, params, counts)
    if not refused:
        return []
    most = max(refused)
    seated = [count for count in counts if count not in refused]
    also = f" (they seat {_counts(seated)})" if seated else ""
    return [(("players", "min" if game.players.min in refused else "max"),
             f"the rules cannot seat {_counts(list(refused))} players{also}: {refused[most].message} ({refused[most].rule})")]


def _unseated(rules: AnyEngine, params: object, counts: Sequence[int]) -> dict[int, Violation]:
    """The player counts whose standard setup the engine refuses, with its refusal."""
    from pnp.rules.base import Violation

    refused: dict[int, Violation] = {}
    for count in counts:
        try:
            rules.setup(params, [f"P{seat}" for seat in range(1, count + 1)])
        except Violation as violation:
            refused[count] = violation
    return refused


def _counts(counts: list[int]) -> str:
    """Player counts as a reader writes them: "7–9", "2", "2, 4"."""
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(map(str, counts))
