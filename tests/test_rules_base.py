"""The value helpers every engine builds its positions with (`pnp.rules.base`): `fast_init`
makes the same instances as the dataclass's own `__init__`, and `evolve` changes only fields."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from pnp.rules.base import evolve, fast_init


@dataclass(frozen=True)
class Plain:
    name: str
    cash: int = 30
    zones: tuple[int, ...] = ()
    seen: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        object.__setattr__(self, "zones", tuple(self.zones))


@fast_init
@dataclass(frozen=True)
class Fast(Plain):
    """The same fields, defaults and `__post_init__`, with `fast_init`'s constructor."""


@pytest.mark.parametrize("args, kwargs", [(("Ana",), {}), (("Ben", 12), {"zones": [1, 2]}),
                                          ((), {"name": "Cid", "seen": [3]})])
def test_fast_init_makes_what_the_dataclass_makes(args, kwargs):
    plain, fast = Plain(*args, **kwargs), Fast(*args, **kwargs)
    assert dataclasses.astuple(fast) == dataclasses.astuple(plain)
    assert isinstance(fast.zones, tuple)  # __post_init__ ran
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.cash = 1  # type: ignore[misc]


def test_fast_init_gives_each_instance_its_own_default():
    one, two = Fast("Ana"), Fast("Ben")
    one.seen.append(1)
    assert two.seen == [] and one == Fast("Ana", seen=[1])


def test_fast_init_refuses_keyword_only_fields():
    @dataclass(frozen=True)
    class Keyword:
        a: int = field(kw_only=True)

    with pytest.raises(TypeError, match="plain positional"):
        fast_init(Keyword)


def test_evolve_changes_only_fields():
    before = Plain("Ana", 30, (1,))
    after = evolve(before, cash=12)
    assert (after.name, after.cash, after.zones, before.cash) == ("Ana", 12, (1,), 30)
    with pytest.raises(TypeError, match="no field money"):
        evolve(before, money=3)
