"""Mutated game records, for the referee's fuzz test (tests/test_referee_fuzz.py) and its
benchmark (benchmarks/bench_referee_fuzz.py): each record under tests/records changed the
ways a careless or hostile writer would — a value of another type, a number out of any range,
nesting, keys, the players, the encoding, whole lines — and run through `pnp referee check`
in this process, as the command line runs it.

Seeded: the same record and seed give the same mutants, so a failure is found again.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

from pnp.cli import main

RECORDS = Path(__file__).parent / "records"
CORPUS = Path(__file__).parent / "corpus"
LONGEST_LINE = 1000  # characters of any line the referee prints, whatever the record holds

_NEST = "__nested__"
NUMBERS = [-1, 0, 1, 10**9, 10**9 + 1, 10**30, 2**100, 0.5, 2.25, 1e-300, 1e308,
           float("inf"), float("-inf"), float("nan")]
VALUES = [None, True, "", "pass", "Ana", "x" * 3000, "1e100000000", "1/3", "9" * 200, "yes", "Zoe\u0308",
          "\u202e", "a\nb", [], {}, [1, 2], {"a": 1}, *NUMBERS]
KEYS = ["gamee", "Rounds", "k" * 500, "Zoe\u0308", "1", "null", "<<", "turns", "deal", "start"]


def records() -> list[Path]:
    return sorted(RECORDS.rglob("*.yaml"))


def mutants(path: Path, count: int, seed: int = 13) -> Iterator[tuple[str, bytes]]:
    """`count` mutants of the record at `path`, each kind of mutation in turn: (kind, bytes)."""
    text = path.read_text(encoding="utf-8")
    rng = random.Random(seed * 1_000_003 + zlib.crc32(path.name.encode()))
    kinds = list(_MUTATIONS)
    for k in range(count):
        kind = kinds[k % len(kinds)]
        yield kind, _MUTATIONS[kind](text, rng)


@dataclass(frozen=True)
class Run:
    code: int
    seconds: float  # CPU time of this process: what the referee spent, whatever else loads the machine
    out: str
    err: str


def check(path: Path) -> Run:
    """`pnp referee check PATH --json`, in this process: the command line's own code path."""
    out, err = io.StringIO(), io.StringIO()
    started = time.process_time()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["referee", "check", str(path), "--json"])
    return Run(code, time.process_time() - started, out.getvalue(), err.getvalue())


def problems(run: Run) -> list[str]:
    """What is wrong with an answer to any record: an exit other than 0, 1 or 2, an internal
    error, a line too long to read, or JSON that does not say what the exit says."""
    found = []
    if run.code not in (0, 1, 2) or any(bad in run.out + run.err for bad in ("internal error", "Traceback")):
        found.append(f"exit {run.code}: {run.err[:500]}")
    if any(len(line) > LONGEST_LINE for line in (run.out + run.err).splitlines()):
        found.append(f"a line of {max(len(line) for line in (run.out + run.err).splitlines())} characters")
    if run.code in (0, 1):
        answer = json.loads(run.out)
        if answer["ok"] != (run.code == 0) or run.err:
            found.append(f"exit {run.code} with ok {answer['ok']} and {run.err[:200]!r}")
    elif run.code == 2:  # answered in JSON too (issue 41): the error and where it is, nothing beside
        answer = json.loads(run.out)
        if run.err or not answer.get("error") or "where" not in answer:
            found.append(f"exit 2 with output {run.out[:200]!r} and message {run.err[:200]!r}")
    return found


# --- the mutations -------------------------------------------------------------------------------


def _tree(text: str) -> Any:
    return copy.deepcopy(yaml.safe_load(text))


def _paths(node: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, path + (index,))


def _at(tree: Any, path: tuple) -> Any:
    for part in path:
        tree = tree[part]
    return tree


def _put(tree: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    _at(tree, path[:-1])[path[-1]] = value
    return tree


def _dump(tree: Any) -> bytes:
    return yaml.safe_dump(tree, allow_unicode=True, sort_keys=False, width=10_000).encode("utf-8")


def _of_type(text: str, rng: random.Random) -> bytes:
    """Any value replaced by one of another type or size."""
    tree = _tree(text)
    path = rng.choice(list(_paths(tree)))
    return _dump(_put(tree, path, copy.deepcopy(rng.choice(VALUES))))


def _number(text: str, rng: random.Random) -> bytes:
    """A number (or, in a record without one, any value) replaced by one out of every range."""
    tree = _tree(text)
    paths = [p for p in _paths(tree) if isinstance(_at(tree, p), (int, float)) and not isinstance(_at(tree, p), bool)]
    return _dump(_put(tree, rng.choice(paths or list(_paths(tree))), rng.choice(NUMBERS)))


def _nest(text: str, rng: random.Random) -> bytes:
    """A value wrapped in lists, a few levels or hundreds."""
    tree = _tree(text)
    path = rng.choice(list(_paths(tree))[1:] or [()])
    depth = rng.choice([2, 99, 101, 400])
    written = _dump(_put(tree, path, _NEST)).decode("utf-8")
    return written.replace(_NEST, "[" * depth + json.dumps(_at(_tree(text), path) if path else 1) + "]" * depth, 1).encode()


def _key(text: str, rng: random.Random) -> bytes:
    """A key renamed, dropped or added; or a key written twice."""
    tree = _tree(text)
    mappings = [p for p in _paths(tree) if isinstance(_at(tree, p), dict) and _at(tree, p)]
    mapping = _at(tree, rng.choice(mappings))
    key = rng.choice(list(mapping))
    how = rng.randrange(4)
    if how == 0:
        mapping[rng.choice(KEYS)] = mapping.pop(key)
    elif how == 1:
        del mapping[key]
    elif how == 2:
        mapping[rng.choice(KEYS)] = copy.deepcopy(rng.choice(VALUES))
    else:
        first = next(line for line in text.splitlines() if line and not line.startswith(("#", " ")))
        return (text + first + "\n").encode("utf-8")
    return _dump(tree)


def _players(text: str, rng: random.Random) -> bytes:
    """The seating changed: none, a name twice or in another Unicode form, thousands, a long
    name, a name that is not text."""
    tree = _tree(text)
    names = list(tree.get("players") or ["Ana"])
    how = rng.randrange(6)
    if how == 0:
        tree["players"] = []
    elif how == 1:
        tree["players"] = names + [names[0]]
    elif how == 2:
        tree["players"] = [f"P{k}" for k in range(rng.choice([7, 10_000]))]
    elif how == 3:
        tree["players"] = names[:-1] + ["n" * rng.choice([61, 5000])]
    elif how == 4:
        tree["players"] = names + [5, None]
    else:
        tree["players"] = names[:-1] + [names[-1] + "\u0301"]
    return _dump(tree)


def _encoding(text: str, rng: random.Random) -> bytes:
    """The bytes themselves: another encoding, a bad or NUL byte, a cut, a byte-order mark,
    Windows line ends, tabs."""
    raw = text.encode("utf-8")
    at = rng.randrange(len(raw))
    return rng.choice([
        lambda: text.encode("utf-16"),
        lambda: raw[:at] + b"\xff" + raw[at + 1:],
        lambda: raw[:at] + b"\x00" + raw[at:],
        lambda: raw[:at],
        lambda: b"\xef\xbb\xbf" + raw,
        lambda: text.replace("\n", "\r\n").encode("utf-8"),
        lambda: text.replace("  ", "\t").encode("utf-8"),
    ])()


def _lines(text: str, rng: random.Random) -> bytes:
    """Whole lines dropped, doubled or swapped, or YAML's own traps added: an alias bomb, an
    alias into itself, a tag, another document."""
    lines = text.splitlines(keepends=True)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 10)}]\n" for k in range(1, 7))
    how = rng.randrange(7)
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(i, lines[i])
    elif how == 2:
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(i, [bomb, "loop: &l [*l]\n", "x: !!python/object:os.system ls\n", "---\n"][how - 3])
    return "".join(lines).encode("utf-8")


_MUTATIONS: dict[str, Callable[[str, random.Random], bytes]] = {
    "type": _of_type, "number": _number, "nesting": _nest, "key": _key, "players": _players,
    "encoding": _encoding, "lines": _lines,
}
