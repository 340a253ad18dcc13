"""Mutated specs, for the spec fuzzer (tests/test_spec_fuzz.py): the bundled components.yaml
and the tulips example changed one way at a time, as a careless or hostile designer would —
a value of another type; a huge, negative, zero, tiny or non-finite number; a key deleted,
duplicated or misspelt; unicode that measures oddly (combining marks, right-to-left, astral,
invisible); very long texts and lists; deep nesting; alias bombs; templates that ask for huge
formats or walk into the program; and plain typing mistakes in the text — each answered by
`pnp validate` as the command line runs it.

Seeded: a seed and an index give the same mutant, so a failure is found again
(`python tests/fuzz_spec.py SEED INDEX` prints it). Run as a script with a seed, a start and a
count, it answers each mutant in this process and prints one JSON line per mutant: the test
runs it under a 2 GiB memory cap, so a mutant that would take more fails as an internal error.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

ROOT = Path(__file__).resolve().parents[1]
BASES = {"bundled": ROOT / "pnp" / "data" / "components.yaml", "tulips": ROOT / "examples" / "tulips" / "components.yaml"}
MAX_SECONDS = 5.0  # CPU seconds of one answer
# An answer that accepts the spec laid out every sheet of the game the mutant changed: 2–3 s of
# CPU for a bundled game on a quiet machine, up to twice that beside a busy test run.
LAID_OUT_SECONDS = 10.0
GIVE_UP_SECONDS = 30.0  # CPU seconds after which an answer is taken to hang
MAX_MESSAGE = 4000  # characters of what one answer prints on stderr
MEMORY = 2 << 30  # bytes the whole run may use

NUMBERS = [0, -1, -0.5, 1e-300, 0.001, 1e9, 1e9 + 1, 10**12, 2**63, 10**30, 1e300, 1.2e28,
           float("nan"), float("inf"), float("-inf"), 9.2e18]
COMBINING = "e" + "\u0301" * 1000
UNICODE = [COMBINING, "\u0301" * 50, "\u202eRTL override\u202c", "שלום עולם", "مرحبا", "\U0001F600\U0001F4B0",
           "\U0002F800", "\u200b", "\u200b" * 20, "Zoe\u0308", "A\u030a", "\ufeffBOM", "\x7f", "ﷺ" * 30, "𒐫" * 20]
LONG = ["x" * 10_000, "x" * 100_000, "y " * 20_000, "\u0301" * 5_000]
TEMPLATES = ["{name:>900000000}", "{name:>5000000}", "{counts[shares]:0100000000}", "{name:.999999999}",
             "{name:{width}}", "{name!r}", "{name!a}", "{0}", "{}", "{{", "}", "{", "{name:,d}", "{name:%}",
             "{id:c}", "{index:c}", "{index:.1000f}", "{index:010000}", "{name:x<100}", "{name:^101}",
             "{assets:99999}", "{counts}", "{game}", "{tracks}", "{components[shares].value:" + "-" * 50 + "}",
             "{rules[start_cash]:e}", "{vars[nope]}", "{name[0]}", "{name[99999]}", "{index[0]}", "{" * 500,
             "{a" + "[a]" * 500 + "}"]
WALKS = ["{asset.__class__.__init__.__globals__[sys].modules[os].environ[HOME]}", "{name.__class__}",
         "{game.__dict__}", "{game.model_config}", "{game.components[0].__class__.__mro__}", "{tracks[quote].__class__}",
         "{asset.model_dump}", "{game.model_fields}", "{counts.__class__}", "{components[shares]._game}",
         "{game.assets[0].__init__.__globals__}", "{icon.__len__}", "{vars.__class__.__base__.__subclasses__}",
         "{params.__class__}", "{rules._source}", "{game._source}", "{name.upper}", "{index.real}",
         "{game.components[0].model_post_init}", "{tracks[quote].cells.__class__}"]
VALUES = [None, True, False, "", "x", "#zzz", "a4", "deck", "{id}", [], {}, [1, 2], {"a": 1}, [[]], {"kind": "deck"},
          "1e100000000", "9" * 200, "-1", "yes", "~", "null", *NUMBERS[:6]]
KEYS = ["namee", "Kind", "k" * 500, "Zoe\u0308", "1", "null", "<<", "_private", "__class__", "colour", "cards_form"]
SNIPPETS = ["\t", "\t\t", "{", "}", "[", "]", '"', "'", ": ", " #", "- ", "&a ", "*a", "!!python/object:os.system ",
            "\n  ", "\n", "---\n", "%YAML 1.1\n", "\x00", "\x07", "\ufeff", "<<: *a\n"]


@dataclass(frozen=True)
class Mutant:
    base: str  # "bundled" or "tulips"
    kind: str
    what: str  # the mutation, for a failure message
    text: str


@dataclass(frozen=True)
class Answer:
    code: int
    seconds: float  # CPU time of this process: what validate spent, whatever else loads the machine
    err: str


def mutant(seed: int, index: int, *, one_game: bool = True) -> Mutant:
    """The `index`-th mutant of `seed`: each kind of mutation in turn, on one base. With
    `one_game`, the other games of the bundled spec are left out (a third of the layout to do)."""
    rng = random.Random(seed * 1_000_003 + index)
    kind = list(_MUTATIONS)[index % len(_MUTATIONS)]
    base = "tulips" if index % 5 == 4 else "bundled"
    tree = _tree(base)
    if one_game and base == "bundled":
        game = rng.choice(list(tree["games"]))
        tree = {**tree, "games": {game: tree["games"][game]}}
    what, text = _MUTATIONS[kind](copy.deepcopy(tree), rng)
    return Mutant(base, kind, what, text)


def mutants(seed: int, start: int, count: int, *, one_game: bool = True) -> Iterator[tuple[int, Mutant]]:
    for index in range(start, start + count):
        yield index, mutant(seed, index, one_game=one_game)


_TREES: dict[str, Any] = {}


def _tree(base: str) -> Any:
    if base not in _TREES:
        _TREES[base] = yaml.safe_load(BASES[base].read_text(encoding="utf-8"))
    return _TREES[base]


def _dump(tree: Any) -> str:
    """The tree as YAML text, through libyaml where PyYAML has it: the pure-Python emitter took
    0.1 s a mutant of the bundled spec, more than most answers."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(tree, Dumper=dumper, allow_unicode=True, sort_keys=False, width=10_000)


def _paths(node: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, prefix + (index,))


def _pick(tree: Any, rng: random.Random, want: Callable[[Any], bool] = lambda value: True) -> tuple:
    paths = [path for path in _paths(tree) if path and want(_at(tree, path))]
    return rng.choice(paths) if paths else rng.choice([p for p in _paths(tree) if p])


def _at(tree: Any, path: tuple) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def _set(tree: Any, path: tuple, value: Any) -> Any:
    _at(tree, path[:-1])[path[-1]] = value
    return tree


def _show(path: tuple) -> str:
    return ".".join(str(step) for step in path)


def _type(tree: Any, rng: random.Random) -> tuple[str, str]:
    path, value = _pick(tree, rng), rng.choice(VALUES)
    return f"{_show(path)} = {value!r}", _dump(_set(tree, path, value))


def _number(tree: Any, rng: random.Random) -> tuple[str, str]:
    path = _pick(tree, rng, lambda v: isinstance(v, (int, float)) and not isinstance(v, bool))
    value = rng.choice(NUMBERS)
    return f"{_show(path)} = {value!r}", _dump(_set(tree, path, value))


def _delete(tree: Any, rng: random.Random) -> tuple[str, str]:
    path = _pick(tree, rng)
    del _at(tree, path[:-1])[path[-1]]
    return f"del {_show(path)}", _dump(tree)


def _duplicate(tree: Any, rng: random.Random) -> tuple[str, str]:
    """A key written twice (in the text: YAML dumps cannot hold one), or a list item twice."""
    if rng.random() < 0.5:
        lines = _dump(tree).split("\n")
        keyed = [i for i, line in enumerate(lines) if ":" in line and not line.lstrip().startswith("-")]
        i = rng.choice(keyed)
        lines.insert(i + 1, lines[i])
        return f"line {i + 1} twice", "\n".join(lines)
    path = _pick(tree, rng, lambda v: isinstance(v, list) and bool(v))
    items = _at(tree, path)
    items.insert(rng.randrange(len(items) + 1), copy.deepcopy(rng.choice(items)))
    return f"{_show(path)}: an item twice", _dump(tree)


def _unicode(tree: Any, rng: random.Random) -> tuple[str, str]:
    path = _pick(tree, rng, lambda v: isinstance(v, str))
    value = rng.choice(UNICODE)
    value = value if rng.random() < 0.5 else _at(tree, path) + value
    return f"{_show(path)} = {value[:40]!r}…", _dump(_set(tree, path, value))


def _long(tree: Any, rng: random.Random) -> tuple[str, str]:
    if rng.random() < 0.25:
        path = _pick(tree, rng, lambda v: isinstance(v, list) and bool(v))
        items = _at(tree, path)
        _set(tree, path, [copy.deepcopy(items[0]) for _ in range(rng.choice((1001, 5000, 20_000)))])
        return f"{_show(path)}: a list of thousands", _dump(tree)
    path = _pick(tree, rng, lambda v: isinstance(v, str))
    value = rng.choice(LONG)
    return f"{_show(path)} = {len(value):,} characters", _dump(_set(tree, path, value))


def _nesting(tree: Any, rng: random.Random) -> tuple[str, str]:
    depth = rng.choice((20, 99, 101, 200, 2000))
    kinds = [rng.choice("[{") for _ in range(depth)]  # written out: a parser of our own would recurse
    flow = "".join("[" if k == "[" else "{a: " for k in kinds) + "1" + "".join("]" if k == "[" else "}" for k in reversed(kinds))
    path = _pick(tree, rng)
    text = _dump(_set(tree, path, "NESTED"))
    return f"{_show(path)} nested {depth} deep", text.replace("NESTED", flow, 1)


def _alias(tree: Any, rng: random.Random) -> tuple[str, str]:
    """A billion laughs, a cycle, or an anchor merged into itself, where a game's values go."""
    game = next(iter(tree["games"]))
    bomb = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, rng.choice((3, 6, 9))):
        bomb.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    shapes = {"bomb": bomb, "cycle": ["c: &c [*c]"], "merge": ["m: &m {a: 1, <<: *m}"],
              "string bomb": ['s0: &s0 "' + "x" * 1000 + '"'] + [f"s{i}: &s{i} [" + ", ".join([f"*s{i - 1}"] * 20) + "]"
                                                               for i in range(1, 5)]}
    shape = rng.choice(list(shapes))
    text = _dump(tree)
    marker = f"  {game}:\n"
    block = "".join(f"    {line}\n" for line in ["vars_x:", *("  " + line for line in shapes[shape])])
    at = text.index(marker) + len(marker)
    return f"{shape} in games.{game}", text[:at] + block + text[at:]


def _template(tree: Any, rng: random.Random) -> tuple[str, str]:
    path = _pick(tree, rng, lambda v: isinstance(v, str) and ("{" in v or len(v) > 3))
    value = rng.choice(TEMPLATES)
    return f"{_show(path)} = {value[:60]!r}", _dump(_set(tree, path, value))


def _walk(tree: Any, rng: random.Random) -> tuple[str, str]:
    path = _pick(tree, rng, lambda v: isinstance(v, str) and len(v) > 1)
    value = rng.choice(WALKS)
    return f"{_show(path)} = {value!r}", _dump(_set(tree, path, value))


def _key(tree: Any, rng: random.Random) -> tuple[str, str]:
    path = _pick(tree, rng, lambda v: isinstance(v, dict) and bool(v))
    mapping = _at(tree, path)
    key = rng.choice(list(mapping))
    if rng.random() < 0.5:
        mapping[rng.choice(KEYS)] = mapping[key]
        return f"{_show(path)}: a key added", _dump(tree)
    _set(tree, path, {(str(k) + rng.choice("xes_") if k == key else k): v for k, v in mapping.items()})
    return f"{_show(path)}.{key}: misspelt", _dump(tree)


def _text(tree: Any, rng: random.Random) -> tuple[str, str]:
    text = _dump(tree)
    start = rng.randrange(len(text))
    length = rng.choice((0, 0, 1, 3, 40))
    insert = rng.choice(SNIPPETS)
    return f"text[{start}:{start + length}] = {insert!r}", text[:start] + insert + text[start + length:]


_MUTATIONS: dict[str, Callable[[Any, random.Random], tuple[str, str]]] = {
    "type": _type, "number": _number, "delete": _delete, "duplicate": _duplicate, "unicode": _unicode,
    "long": _long, "nesting": _nesting, "alias": _alias, "template": _template, "walk": _walk, "key": _key,
    "text": _text,
}


# --- answering -----------------------------------------------------------------------------


def answer(path: Path) -> Answer:
    """`pnp validate PATH`, in this process: the command line's own code path."""
    return command(["validate", str(path)])


def command(argv: list[str]) -> Answer:
    """`pnp ARGV`, in this process, with its CPU time (given up past GIVE_UP_SECONDS: the
    caller has set `_give_up` as the handler of SIGPROF)."""
    from pnp.cli import main

    out, err = io.StringIO(), io.StringIO()
    started = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, GIVE_UP_SECONDS)  # a hang is one failed answer, not a stuck run
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as stop:  # argparse refusing the command line itself
        code = stop.code if isinstance(stop.code, int) else 2
    except NoAnswer:
        return Answer(-1, time.process_time() - started, f"no answer within {GIVE_UP_SECONDS:g} s of CPU")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return Answer(code, time.process_time() - started, err.getvalue())


class NoAnswer(BaseException):
    """Raised by the CPU timer in an answer that runs past GIVE_UP_SECONDS (BaseException: no
    `except Exception` of the code under test swallows it)."""


def _give_up(signum: int, frame: Any) -> None:
    raise NoAnswer()


def problems(answer: Answer, shown_as: str) -> list[str]:
    """What is wrong with an answer to any spec: an exit other than 0, 1 or 2, an internal
    error, too long a message, too long a time, or an error that does not say where."""
    found = []
    if answer.code not in (0, 1, 2) or "internal error" in answer.err or "Traceback" in answer.err:
        found.append(f"exit {answer.code}: {answer.err[:600]}")
    if len(answer.err) >= MAX_MESSAGE:
        found.append(f"a message of {len(answer.err):,} characters")
    if answer.seconds > (LAID_OUT_SECONDS if answer.code == 0 else MAX_SECONDS):
        found.append(f"{answer.seconds:.1f} s of CPU")
    if answer.code == 2 and not answer.err.startswith(shown_as):
        found.append(f"not located: {answer.err[:300]}")
    return found


def run(seed: int, start: int, count: int, one_game: bool = True) -> Iterator[dict[str, Any]]:
    """Answer mutants `start`…`start + count - 1` of `seed`, each in a copy of its base's folder
    (so the tulips' art and card list are found): one result each."""
    with tempfile.TemporaryDirectory(prefix="pnp-fuzz-") as scratch:
        # a cache of its own, as a designer's validate has: the games a mutant leaves alone are
        # remembered as laid out, so each answer lays out what the mutation touched
        os.environ["PNP_CACHE"] = str(Path(scratch) / "cache")
        folders = {}
        for base, spec in BASES.items():
            folders[base] = Path(scratch) / base
            shutil.copytree(spec.parent, folders[base], ignore=shutil.ignore_patterns("output", "*.pdf"))
        for folder in folders.values():  # untimed: the imports validate uses, and each base laid out once
            answer(folder / "components.yaml")
        for index, mutated in mutants(seed, start, count, one_game=one_game):
            target = folders[mutated.base] / "components.yaml"
            target.write_text(mutated.text, encoding="utf-8", errors="surrogatepass")
            result = answer(target)
            yield {"index": index, "kind": mutated.kind, "what": mutated.what[:200], "code": result.code,
                   "seconds": round(result.seconds, 3), "chars": len(result.err),
                   "problems": problems(result, str(target.parent)), "first": result.err[:200]}


def main(argv: list[str]) -> int:
    """`fuzz_spec.py SEED START COUNT [--all-games]`: JSON lines; `fuzz_spec.py SEED INDEX`: the mutant."""
    if len(argv) == 2:
        print(mutant(int(argv[0]), int(argv[1])).text)
        return 0
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    signal.signal(signal.SIGPROF, _give_up)
    seed, start, count = (int(value) for value in argv[:3])
    for result in run(seed, start, count, one_game="--all-games" not in argv):
        print(json.dumps(result, ensure_ascii=False), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"peak_bytes": peak}), flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main(sys.argv[1:]))
