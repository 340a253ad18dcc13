"""All in one run after a rename (issue #29): every track, deck, component and company of the
bundled spec renamed one at a time.

Renamed everywhere it is named, the spec validates — laid out as `pnp validate` lays it out —
or is refused only where an engine reads a fixed name, and the refusal says which name that is
(the engines' needs, `Need` in pnp/rules/*/rulebook.py). Renamed where it is defined only, one
run of validate reports every line that still names the old name, each at its line.

The fast lane renames a few names of each game and kind, fixed and free; the slow lane every one."""

from __future__ import annotations

import re

import pytest

from pnp.errors import SpecError
from pnp.rules import loads_spec, rulebooks
from spec_text import BUNDLED, TREE


def block(game: str) -> tuple[int, int]:
    """Where `game`'s part of the bundled text starts and ends."""
    start = BUNDLED.index(f"\n  {game}:\n")
    end = BUNDLED.find("\n  # ----", start + 1)
    return start, len(BUNDLED) if end < 0 else end


# what defines a name, and what names it elsewhere in its game, by kind
DEFINES = {"track": r"(?m)^(      ){name}(: \{{)", "component": r"(?m)^(      - id: ){name}(\s)", "asset": r"(\{{id: ){name}(,)"}
REFERS = {
    "track": [r"(track: ){name}(\b)", r"(tracks\[){name}(\])"],
    "component": [r"(counts\[){name}(\])", r"(components\[){name}(\])",  # and a booklet's setup, an aid's table
                  r"(\b(?:board|tokens|component|deck): ){name}(\b)", r"(each_player: \[(?:\w+, )*){name}(\b)"],
    "asset": [r"(asset: \"?){name}(\b)", r"(\b){name}(/[A-Z])", r"([A-Z]/){name}(\b)", r"(stronger: ){name}(\b)",
              r"(icon\[){name}(\])",
              # and the booklets' worked examples: holdings, auctions, moves
              r"(\{{|, ){name}(: )", r"(?m)(^ +){name}(:$)", r"((?:pay|receive|strengthen|weaken): ){name}(\b)",
              r"(invest: \[(?:\w+, )*){name}(\b)", r"([+-]\d+ ){name}(\b)"],
}


def renamed(game: str, kind: str, name: str, new: str, everywhere: bool) -> str:
    start, end = block(game)
    part = re.sub(DEFINES[kind].format(name=re.escape(name)), rf"\g<1>{new}\g<2>", BUNDLED[start:end], count=1)
    for pattern in REFERS[kind] if everywhere else ():
        part = re.sub(pattern.format(name=re.escape(name)), rf"\g<1>{new}\g<2>", part)
    return BUNDLED[:start] + part + BUNDLED[end:]


def references(game: str, kind: str, name: str) -> set[int]:
    """The lines of the bundled text that name `name` (a `kind` of `game`) outside its definition."""
    start, end = block(game)
    lines = set()
    for pattern in REFERS[kind]:
        for match in re.finditer(pattern.format(name=re.escape(name)), BUNDLED[start:end]):
            lines.add(BUNDLED.count("\n", 0, start + match.start()) + 1)
    return lines


CASES = [(game, "track", track) for game, data in TREE["games"].items() for track in data["tracks"]]
CASES += [(game, "component", c["id"]) for game, data in TREE["games"].items() for c in data["components"]]
CASES += [(game, "asset", a["id"]) for game, data in TREE["games"].items()
          for key in ("companies", "colours", "currencies") for a in data.get(key, ())]


def fixed_names(game: str) -> set[str]:
    """The names the game's engine reads (its needs that are not optional)."""
    return {need.id for need in rulebooks()[game].needs if not need.optional}


def lanes(cases: list[tuple[str, str, str]]) -> list:
    """`cases`, each validated on its own (about a second each): in the fast lane the first of
    each game, and the first fixed and the first free name of each kind, the rest only in the
    slow lane."""
    fast, seen = set(), set()
    for game, kind, name in cases:
        for group in ((game,), (kind, name in fixed_names(game))):
            if group not in seen:
                seen.add(group)
                fast.add((game, kind, name))
    return [case if case in fast else pytest.param(*case, marks=pytest.mark.slow) for case in cases]


@pytest.mark.parametrize("game, kind, name", lanes(CASES), ids=lambda value: str(value))
def test_a_name_renamed_everywhere_validates_or_is_a_fixed_name_said_as_such(game, kind, name):
    from pnp.checks.layout import layout_issues

    text = renamed(game, kind, name, f"{name}2" if kind != "asset" else name[:-1] + "Z", everywhere=True)
    laid_out = lambda spec, game_id: layout_issues(spec, game_id) if game_id == game else ()  # noqa: E731
    try:
        loads_spec(text, layout=laid_out)
    except SpecError as error:
        assert name in fixed_names(game) or kind == "component" and name in _optional(game), error.lines()
        for issue in error.issues:
            assert f"`{name}`" in issue.message and issue.line, issue  # names the name the engine expects


def _optional(game: str) -> set[str]:
    return {need.id for need in rulebooks()[game].needs if need.optional}


@pytest.mark.parametrize("game, kind, name", lanes([case for case in CASES if case[1] != "asset"]),
                         ids=lambda value: str(value))
def test_a_name_renamed_where_it_is_defined_has_every_place_that_names_it_reported_at_once(game, kind, name):
    text = renamed(game, kind, name, f"{name}2", everywhere=False)
    wanted = references(game, kind, name)
    try:
        loads_spec(text)
    except SpecError as error:
        reported = {issue.line for issue in error.issues}
        assert wanted <= reported, (sorted(wanted - reported), error.lines())
        assert len(error.issues) <= len(wanted) + 1  # each place once, and the engine's need if it has one
    else:
        assert not wanted and name not in fixed_names(game)  # nothing names it: a free rename
