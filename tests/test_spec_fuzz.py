"""Property: any mutation of the bundled spec is either valid or a located SpecError."""

from __future__ import annotations

import re

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spec_text import BUNDLED

from pnp.errors import SpecError
from pnp.rules import loads_spec

TREE = yaml.safe_load(BUNDLED)
LOCATED = re.compile(r"^components\.yaml:\d+:\d+: ")

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-1000, 1000), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12), st.sampled_from(["#zzz", "#abc", "circle", "a4", "deck", "{id}", "{nope}", "-1"]),
)
values = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(st.text(max_size=6), scalars, max_size=3))


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths(value, prefix + (index,))


ALL_PATHS = [p for p in paths(TREE) if p]


def mutate(tree, path, how, value):
    import copy

    tree = copy.deepcopy(tree)
    parent = tree
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = value
    elif how == "delete":
        del parent[last]
    elif how == "add" and isinstance(parent, dict):
        parent[f"{last}_x"] = value
    elif how == "add":
        parent.insert(last, value)
    return tree


def assert_valid_or_located(text):
    try:
        loads_spec(text)
    except SpecError as error:
        assert error.lines(), "a SpecError must say something"
        for line in error.lines():
            assert LOCATED.match(line), line


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ALL_PATHS), st.sampled_from(["replace", "delete", "add"]), values)
def test_tree_mutations_give_a_spec_or_a_located_error(path, how, value):
    assert_valid_or_located(yaml.safe_dump(mutate(TREE, path, how, value), allow_unicode=True, sort_keys=False))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(BUNDLED) - 1), st.integers(0, 40), st.text(max_size=5))
def test_text_mutations_give_a_spec_or_a_located_error(start, length, insert):
    assert_valid_or_located(BUNDLED[:start] + insert + BUNDLED[start + length:])
