"""Every bot that can play a game, by the name `--bots` gives it: the common ones (`random`,
`greedy`), the game's heuristics (`pnp.bots.games.<game>`), and the search bot with its
budget (`search`, `search:400`, `search:0.5s`, see `pnp.bots.search`)."""

from __future__ import annotations

from pnp.bots import games
from pnp.bots.common import Bot

SEARCH = "search"


def names(game: str) -> list[str]:
    """The bots of `game`, as `--bots` names them (the search bot at its default budget)."""
    return [*games.bots(game), SEARCH]


def bot_named(game: str, text: str) -> Bot | None:
    """The bot `text` names for `game` (`search:BUDGET` included), or None."""
    known = games.bots(game)
    if text in known:
        return known[text]
    name, colon, argument = text.partition(":")
    if name != SEARCH:
        return None
    from pnp.bots.search import search_bot

    return search_bot(argument if colon else None, known)
