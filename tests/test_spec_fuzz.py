"""Every spec answered in seconds (issue #25): mutations of the bundled spec and of the tulips
example (tests/fuzz_spec.py: types, numbers, deleted and duplicated keys, unicode, long texts,
nesting, aliases, template format specs and attribute walks, typing mistakes) each get exit 0,
1 or 2 from `pnp validate` — never an internal error — within MAX_SECONDS of CPU (a spec it
accepts, laid out whole: LAID_OUT_SECONDS), under a 2 GiB memory cap, with a message under 4,000
characters that says where. Twelve (every kind once) in the fast lane; in the slow lane
(`pytest -m slow`) 240 of the same seed and over a thousand more, every game at once.

On a failure the seed, the index and the mutation are printed: `python tests/fuzz_spec.py SEED
INDEX` writes that mutant out again. Also here: any single edit of the tree or of the text is a
spec or a located error (hypothesis, through the loader alone: 10 tree edits and 40 text edits
in the fast lane, 100 and 150 in the slow one)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_spec import MEMORY, ROOT
from pnp.errors import SpecError
from pnp.rules import loads_spec
from spec_text import BUNDLED, TREE

FAST = 12  # mutants in the fast lane: every kind of mutation once
STEADY = 240  # in the slow lane, the same seed: every kind twenty times
SLOW = 1200  # in the slow lane: 400 of each of three seeds, every game at once


def fuzz(seed: int, start: int, count: int, *extra: str) -> tuple[list[dict], int]:
    """The answers to mutants `start`… of `seed`, from a process capped at 2 GiB, and its peak."""
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "fuzz_spec.py"), str(seed), str(start), str(count),
                             *extra], cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stderr[-3000:]
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    peak = rows.pop()["peak_bytes"]
    return rows, peak


def failures(rows: list[dict], seed: int) -> list[str]:
    return [f"seed {seed} index {row['index']} ({row['kind']}: {row['what']}): {'; '.join(row['problems'])}"
            for row in rows if row["problems"]]


@pytest.mark.parametrize("count", [FAST, pytest.param(STEADY, marks=pytest.mark.slow)])
def test_mutants_of_every_kind_are_each_answered_in_seconds_with_a_located_message(count):
    seed = 25
    rows, peak = fuzz(seed, 0, count)
    assert not failures(rows, seed), "\n".join(failures(rows, seed)[:10])
    assert len(rows) == count and peak < MEMORY
    codes = Counter(row["code"] for row in rows)
    assert codes[2] >= count * 5 // 12  # refused specs, and (in the slow run: twelve of them are too few to tell) valid ones
    assert count == FAST or codes[0] >= count // 12  # the fast sample's two valid ones put a brace in rules_words (#42)
    assert {row["kind"] for row in rows} == {"type", "number", "delete", "duplicate", "unicode", "long", "nesting",
                                             "alias", "template", "walk", "key", "text"}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_over_a_thousand_mutants_of_every_game_at_once(seed):
    rows, peak = fuzz(seed, 0, SLOW // 3, "--all-games")
    assert not failures(rows, seed), "\n".join(failures(rows, seed)[:10])
    assert len(rows) == SLOW // 3 and peak < MEMORY


# --- the loader alone, any single edit -------------------------------------------------------

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
    """A spec, or a SpecError each of whose issues is located (the lines shown under a YAML
    mistake, indented, quote the file)."""
    try:
        loads_spec(text)
    except SpecError as error:
        assert error.lines(), "a SpecError must say something"
        for line in error.lines():
            assert LOCATED.match(line) or line.startswith(" ") or line.startswith("… and "), line


EDITS = (st.sampled_from(ALL_PATHS), st.sampled_from(["replace", "delete", "add"]), values)


def check_tree_mutation(path, how, value):
    assert_valid_or_located(yaml.safe_dump(mutate(TREE, path, how, value), allow_unicode=True, sort_keys=False))


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*EDITS)
def test_tree_mutations_give_a_spec_or_a_located_error(path, how, value):
    # five mutations in the fast lane; a hundred: slow (the test below)
    check_tree_mutation(path, how, value)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*EDITS)
def test_a_hundred_tree_mutations_give_a_spec_or_a_located_error(path, how, value):
    check_tree_mutation(path, how, value)


TEXT_EDITS = (st.integers(0, len(BUNDLED) - 1), st.integers(0, 40), st.text(max_size=5))


@settings(max_examples=15, deadline=None)
@given(*TEXT_EDITS)
def test_text_mutations_give_a_spec_or_a_located_error(start, length, insert):
    # fifteen edits in the fast lane; a hundred and fifty: slow (the test below)
    assert_valid_or_located(BUNDLED[:start] + insert + BUNDLED[start + length:])


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(*TEXT_EDITS)
def test_a_hundred_and_fifty_text_mutations_give_a_spec_or_a_located_error(start, length, insert):
    assert_valid_or_located(BUNDLED[:start] + insert + BUNDLED[start + length:])
