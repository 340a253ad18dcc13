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
from typing import Annotated, Any, Callable, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, create_model

from pnp.errors import Issue, brief
from pnp.referee.limits import MAX_AMOUNT, MAX_NAME
from pnp.rules import GAMES
from pnp.spec.source import Source

__all__ = ["Count", "Shape", "issues", "worded"]


class Shape(BaseModel):
    """A part of a record: its keys and nothing else, each value of its own type as written
    (strict: `"5"` is no number, `true` no count)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Count = Annotated[int, Field(ge=0, le=MAX_AMOUNT)]  # of shares, cards, money: a negative one is unreadable


def _name(name: object) -> object:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a player name must be text, got {brief(name)}")
    if len(name) > MAX_NAME:
        raise ValueError(f"a player name has at most {MAX_NAME} letters, {brief(name)} has {len(name):,}")
    return name


def worded(expected: str, sound: Callable[[object], bool]) -> BeforeValidator:
    """A value that must be `sound`, its error in the record's words (`expected …`)."""

    def check(value: object) -> object:
        if not sound(value):
            raise ValueError(f"expected {expected}")
        return value

    return BeforeValidator(check)


Names = Annotated[tuple[Annotated[str, BeforeValidator(_name)], ...],
                  worded("a list of names in seating order, e.g. [Ana, Ben, Cris]",
                         lambda names: isinstance(names, tuple) and bool(names))]


class Common(Shape):
    """The keys every record has (REFEREE.md); `game` is read first, to know the rest."""

    game: str
    players: Names
    options: Optional[Annotated[dict[str, object], worded("a mapping of house rules, e.g. {rounds: 5}",
                                                       lambda rules: isinstance(rules, dict))]] = None
    start: Optional[dict[str, object]] = None  # the game's own `start` when its shape has one


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
    typed = {name: fields.get(name, object) for name in keys + (("start",) if "start" in fields else ())}
    own: dict[str, Any] = {name: (Optional[annotation], None) for name, annotation in typed.items()}  # pydantic's type forms
    model: type[Shape] = create_model(f"{game.title()}Record", __base__=Common, **own)
    return model


def _fields(game: str) -> dict[str, object]:
    referee = GAMES[game].about.referee
    if referee is None or find_spec(f"{referee}.shape") is None:
        return {}
    fields: dict[str, object] = import_module(f"{referee}.shape").FIELDS
    return fields
