"""The shape of a game record as pydantic models, as the spec's is (`pnp.spec.model`): which
keys, which types, which bounds; pydantic's errors are worded and located at file:line:col by
the spec's own mapping (`pnp.spec.loader.shape_issues`).

The common keys are `Common`'s; a game's own keys (`rounds`, `turns`, `deal`) and its `start`
take their types from the `FIELDS` of its referee's `shape` module (`pnp.referee.bolsa.shape`),
else any value, read by the game's referee. What pydantic cannot know stays with the readers:
names (players, companies, colours: a record's or the spec's), house-rule values (the
rulebooks) and legality (the engines).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from importlib.util import find_spec
from typing import Annotated, Any, Optional

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model

from pnp.errors import Issue, brief
from pnp.referee.limits import MAX_AMOUNT, MAX_NAME
from pnp.rules import GAMES
from pnp.spec.source import Source

__all__ = ["Count", "Shape", "issues"]


class Shape(BaseModel):
    """A part of a record: its keys and nothing else, each value of its own type as written
    (strict: `"5"` is no number, `true` no count)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Count = Annotated[int, Field(ge=0, le=MAX_AMOUNT)]  # of shares, cards, money: a negative one is unreadable


def _name(name: str) -> str:
    if not name.strip():
        raise ValueError(f"a player name must be text, got {brief(name)}")
    if len(name) > MAX_NAME:
        raise ValueError(f"a player name has at most {MAX_NAME} letters, {brief(name)} has {len(name):,}")
    return name


class Common(Shape):
    """The keys every record has (REFEREE.md); `game` is read first, to know the rest."""

    game: str
    players: Annotated[tuple[Annotated[str, AfterValidator(_name)], ...], Field(min_length=1)]
    options: dict[str, Any] | None = None  # house rules: their names and values are the rulebook's
    start: dict[str, Any] | None = None


def issues(source: Source, game: str, keys: tuple[str, ...]) -> list[Issue]:
    """What is wrong with the shape of the record in `source`, of `game` with its own `keys`."""
    try:
        _model(game, keys).model_validate(source.data)
    except ValidationError as error:
        from pnp.spec.loader import shape_issues

        return shape_issues(source, error, _model(game, keys), "key")
    return []


@lru_cache(maxsize=None)
def _model(game: str, keys: tuple[str, ...]) -> type[Shape]:
    """`Common` with `game`'s own keys, typed by its referee's `shape.FIELDS` (any value when
    it has none)."""
    fields = _fields(game)
    typed = {name: fields.get(name, Any) for name in keys + (("start",) if "start" in fields else ())}
    own: dict[str, Any] = {name: (Optional[annotation], None) for name, annotation in typed.items()}
    model: type[Shape] = create_model(f"{game.title()}Record", __base__=Common, **own)
    return model


def _fields(game: str) -> dict[str, Any]:
    referee = GAMES[game].about.referee
    if referee is None or find_spec(f"{referee}.shape") is None:
        return {}
    fields: dict[str, Any] = import_module(f"{referee}.shape").FIELDS
    return fields
