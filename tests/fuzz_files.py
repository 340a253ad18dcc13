"""Mutated catalogs, shard pairs, manifests and images, for tests/test_files_fuzz.py (issue #42):
every file pnp reads besides the spec, changed one way at a time as a careless or hostile
contributor would — each answered by the command that reads it, as the command line runs it.

- catalogs (`pnp validate`, `translate status`, `translate update`): headers and Plural-Forms
  (a million forms, n/0, a negative index, a Python name), charsets and encodings (UTF-16,
  Latin-1 bytes, NUL, a bogus charset), format specs and placeholders (`{n:>900000000}`, walks
  into the program), sizes (a megabyte msgstr, thousands of entries), broken PO structure, and a
  folder, a FIFO or /dev/zero in the catalog's place;
- shard pairs (`pnp simulate merge`): any value of either shard retyped, renumbered or deleted,
  the question, the house rules and the spec changed in one shard or in both alike, versions,
  formats, truncation, nesting, size, and what is not a file;
- manifests (`pnp build --since`): retyped and renumbered values, ids and paths that would
  reach a page or leave the folder, nesting, size, truncation, and what is not a file;
- images (`pnp validate`): raster dimensions and bit depths (bombs of a few hundred bytes),
  truncation, damaged checksums and data, JPEG frame headers, SVG numbers (NaN, 1e400), text,
  links, entities and nesting, and what is not a file or leads outside the spec's folder.

Each answer must be exit 0, 1 or 2, within MAX_SECONDS of CPU, with a message under MAX_MESSAGE
characters that says where (the file, and its line where it has lines), never an internal error
or a traceback; the run is capped at 2 GiB. Seeded: `python tests/fuzz_files.py KIND SEED INDEX`
describes a mutant again; `python tests/fuzz_files.py KIND SEED START COUNT` answers mutants in
one process, one JSON line each (what the test runs, under the memory cap).
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
import struct
import sys
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from fuzz_spec import MAX_MESSAGE, MAX_SECONDS, MEMORY, NUMBERS, TEMPLATES, VALUES, WALKS, Answer, _give_up, command

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("catalog", "shard", "manifest", "image")

TINY = """\
print: {paper: a4}
games:
  dash:
    title: Dash
    language: es
    languages: [es, en, ru]
    players: {min: 2, max: 4}
    vars: {bonus: 3}
    companies:
      - {id: AA, name: Alpha, color: "#0072b2", symbol: circle, IMAGE}
      - {id: BB, name: Beta, color: "#d55e00", symbol: square}
    components:
      - id: shares
        kind: deck
        name: Shares
        cards:
          - {for_each: asset, count: 2, value: "{id}", title: "{name}", text: "Pays {vars[bonus]:plural:# point|# points}"}
      - id: aid
        kind: aid
        name: Player aid
        sections:
          - heading: Turn
            lines: ["Draw a card, then pay {vars[bonus]} to the bank.", "Sell a share of {assets}."]
"""
PICTURE = "art/picture"  # what the image fuzzer's spec names (identified by its bytes, as pnp does)
SPECIAL = ("fifo", "folder", "link:/dev/zero", "link:/etc/hostname", "missing", "empty")  # what is not a file


@dataclass(frozen=True)
class Mutant:
    kind: str
    what: str
    files: dict[str, bytes | str]  # path in the kind's folder → its bytes, or one of SPECIAL
    argv: tuple[str, ...]  # the command that answers it, run in the kind's folder
    located: tuple[str, ...]  # what every refusal's first line starts with


# --- the bases: a folder per kind, made once a run -----------------------------------------------


def make_base(folder: Path, kind: str) -> Any:
    """The kind's folder, with the files its mutants change as pnp wrote them; what they start from."""
    folder.mkdir(parents=True, exist_ok=True)
    one_language = TINY.replace("languages: [es, en, ru]", "languages: [es]")
    if kind == "catalog":
        (folder / "components.yaml").write_text(TINY.replace(", IMAGE", ""), encoding="utf-8")
        _in(folder, ["translate", "update", "--spec", "components.yaml"])
        return {code: _translated(folder / "locale" / code / "dash.po", code) for code in ("es", "ru")}
    if kind == "image":
        (folder / "components.yaml").write_text(one_language.replace("IMAGE", f"image: {PICTURE}"), encoding="utf-8")
        (folder / "art").mkdir(exist_ok=True)
        return {"png": _picture("PNG"), "jpeg": _picture("JPEG"), "svg": SVG.encode()}
    if kind == "manifest":
        (folder / "components.yaml").write_text(one_language.replace(", IMAGE", ""), encoding="utf-8")
        _in(folder, ["build", "--spec", "components.yaml", "--out", "old", "-q"])
        return json.loads((folder / "old" / "manifest.json").read_text(encoding="utf-8"))
    spec = ROOT / "pnp" / "data" / "components.yaml"
    return [json.loads(_in(folder, ["simulate", "bolsa", "--games", "200", "--players", "3", "--seed", "3", "--workers",
                                    "1", "--spec", str(spec), "--shard", f"{number}/2"])) for number in (1, 2)]


def _in(folder: Path, argv: list[str]) -> str:
    from pnp.cli import main

    before, out = os.getcwd(), io.StringIO()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            assert main(argv) == 0, argv
    finally:
        os.chdir(before)
    return out.getvalue()


def _translated(path: Path, code: str) -> bytes:
    """A catalog with every text translated: letters swapped in case outside the placeholders
    (so each keeps its source's), a plural entry in every form of the language."""
    from babel.messages.pofile import read_po, write_po

    with path.open("rb") as file:
        catalog = read_po(file, locale=code)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            message.string = tuple(_swapped(message.id[min(n, 1)]) for n in range(catalog.num_plurals))
        else:
            message.string = _swapped(message.id)
    out = io.BytesIO()
    write_po(out, catalog, width=100)
    path.write_bytes(out.getvalue())
    return out.getvalue()


def _swapped(text: str) -> str:
    depth, out = 0, []
    for char in text:
        depth += char == "{"
        out.append(char if depth else char.swapcase())
        depth -= char == "}" and depth > 0
    return "".join(out)


def _picture(kind: str) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 40, 40)).save(out, kind)
    return out.getvalue()


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 30" width="40mm" height="30mm">'
       '<g transform="translate(2 3) scale(1.5)"><path d="M0 0 L20 0 L10 15 Z" style="fill:#0072b2;stroke-width:0.5"/>'
       '<circle cx="20" cy="10" r="4" opacity="0.5"/></g></svg>')


# --- catalogs ----------------------------------------------------------------------------------------

PLURALS = ["nplurals=1000000; plural=n;", "nplurals=3; plural=n/0;", "nplurals=2; plural=n%0;", "nplurals=2; plural=n-5;",
           "nplurals=2; plural=__import__('os').getpid();", "nplurals=0; plural=0;", "nplurals=7; plural=n%7;",
           "nplurals=2; plural=" + "(" * 30 + "n" + ")" * 30 + ";", "nplurals=" + "9" * 5000 + "; plural=n;",
           "nplurals=2; plural=n > 500 ? 5 : 0;", "nplurals=2;", "plural=(n != 1);", "garbage", "nplurals=1; plural=0;",
           "nplurals=2; plural=n == 1 ? 0 : 1;", "nplurals=3; plural=n % 10 == 1 ? 0 : n % 10 < 5 ? 1 : 2;",
           "nplurals=2; plural=" + "n+" * 600 + "n;", "nplurals=2; plural=(n != 1)" + " " * 100_000 + ";"]
CHARSETS = ["charset=bogus-9", "charset=ISO-8859-1", "charset=utf-16", "charset=", "charset=UTF-8"]
PLACEHOLDERS = ["{n:>900000000}", "{n!r}", "{n.__class__}", "{0}", "{}", "{", "}", "{n}" * 1000, "{n:,d}", "{n:{n}}",
                "{nope}", "{n:plural:# a|# b}", "{n[0]}", "{vars[bonus]:>5000000}", "{vars[bonus].__class__}"]


def _catalog_mutant(base: Any, rng: random.Random) -> tuple[str, dict[str, bytes | str]]:
    code = rng.choice(("es", "ru"))
    path = f"locale/{code}/dash.po"
    text = base[code].decode("utf-8")
    lines = text.split("\n")
    how = rng.choice(("plural", "charset", "encoding", "format", "size", "structure", "kind"))
    if how == "plural":
        forms = rng.choice(PLURALS)
        found = next(i for i, line in enumerate(lines) if line.startswith('"Plural-Forms:'))
        end = next(i for i in range(found, len(lines)) if lines[i].endswith('\\n"'))
        lines[found:end + 1] = [f'"Plural-Forms: {forms}\\n"']
        return f"{path}: Plural-Forms {forms[:60]!r}", {path: "\n".join(lines).encode("utf-8", "surrogatepass")}
    if how == "charset":
        charset = rng.choice(CHARSETS)
        return f"{path}: {charset}", {path: text.replace("charset=utf-8", charset).encode()}
    if how == "encoding":
        return _encoding(path, text, rng)
    if how == "format":
        placeholder = rng.choice(PLACEHOLDERS + TEMPLATES + WALKS)
        strings = [i for i, line in enumerate(lines) if line.startswith("msgstr") and "{" in line]
        i = rng.choice(strings)
        head = lines[i].split(" ", 1)[0]
        lines[i] = f'{head} "{placeholder.replace(chr(34), chr(92) + chr(34))} x"'
        return f"{path}:{i + 1}: {head} {placeholder[:60]!r}", {path: "\n".join(lines).encode()}
    if how == "size":
        return _size(path, text, lines, rng)
    if how == "structure":
        return _structure(path, lines, rng)
    special = rng.choice(SPECIAL)
    return f"{path}: {special}", {path: special}


def _encoding(path: str, text: str, rng: random.Random) -> tuple[str, dict[str, bytes | str]]:
    data = text.encode()
    at = rng.randrange(len(data))
    at = data.rfind(b"\n", 0, at) + 1
    shapes = {"UTF-16": text.encode("utf-16"), "UTF-16 without BOM": text.encode("utf-16-le"),
              "Latin-1 bytes": data[:at] + "é señal".encode("latin-1") + data[at:], "a NUL": data[:at] + b"\0" + data[at:],
              "a BOM": b"\xef\xbb\xbf" + data, "CRLF": data.replace(b"\n", b"\r\n"), "CR": data.replace(b"\n", b"\r"),
              "lone surrogate": data[:at] + b"\xed\xa0\x80" + data[at:], "cut mid-character": "ñ".encode()[:1] + data}
    name = rng.choice(list(shapes))
    return f"{path}: {name}", {path: shapes[name]}


def _size(path: str, text: str, lines: list[str], rng: random.Random) -> tuple[str, dict[str, bytes | str]]:
    shape = rng.choice(("long msgstr", "many entries", "large file", "long line"))
    if shape == "long msgstr":
        size = rng.choice((10_000, 100_000, 1_000_000))
        i = rng.choice([i for i, line in enumerate(lines) if line.startswith("msgstr ")])
        lines[i] = 'msgstr "' + "x" * size + '"'
        return f"{path}: a msgstr of {size:,} characters", {path: "\n".join(lines).encode()}
    if shape == "many entries":
        count = rng.choice((5_000, 40_000))
        extra = "".join(f'\nmsgid "extra {n}"\nmsgstr "más {n}"\n' for n in range(count))
        return f"{path}: {count:,} more entries", {path: (text + extra).encode()}
    if shape == "large file":
        return f"{path}: 3 MB of comments", {path: (text + "# padding\n" * 300_000).encode()}
    return f"{path}: a line of 500,000 characters", {path: (text + "# " + "y" * 500_000 + "\n").encode()}


def _structure(path: str, lines: list[str], rng: random.Random) -> tuple[str, dict[str, bytes | str]]:
    i = rng.randrange(len(lines))
    shape = rng.choice(("garbage line", "line deleted", "quote removed", "entry twice", "form 7", "plural dropped",
                        "truncated", "obsolete", "context"))
    if shape == "garbage line":
        lines.insert(i, rng.choice(("this is garbage", "msgid", 'msgstr[', '"unterminated', "#~ msgid", "\\", "msgctxt")))
    elif shape == "line deleted":
        del lines[i]
    elif shape == "quote removed":
        lines[i] = lines[i].replace('"', "", 1)
    elif shape == "entry twice":
        start = next(j for j in range(i, len(lines)) if lines[j].startswith("msgid") or j == len(lines) - 1)
        lines[start:start] = lines[start:start + 3] + [""]
    elif shape == "form 7":
        j = next((j for j, line in enumerate(lines) if line.startswith("msgstr[1]")), i)
        lines.insert(j + 1, 'msgstr[7] "siete"')
    elif shape == "plural dropped":
        j = next((j for j, line in enumerate(lines) if line.startswith("msgid_plural")), i)
        del lines[j]
    elif shape == "truncated":
        text = "\n".join(lines).encode()
        return f"{path}: cut at byte {len(text) * i // max(1, len(lines)):,}", {path: text[:len(text) * i // max(1, len(lines))]}
    elif shape == "obsolete":
        lines.insert(i, '#~ msgid "{n:>900000000}"\n#~ msgstr "{n:>900000000}"')
    else:
        lines.insert(i, 'msgctxt "x"')
    return f"{path}:{i + 1}: {shape}", {path: "\n".join(lines).encode()}


def _catalog_argv(rng: random.Random, files: dict[str, bytes | str]) -> tuple[str, ...]:
    code = next(iter(files)).split("/")[1]
    return rng.choice((("validate", "components.yaml"), ("translate", "status", "--spec", "components.yaml"),
                       ("translate", "update", "--spec", "components.yaml", "--lang", code)))


# --- shard pairs -------------------------------------------------------------------------------------


def _shard_mutant(base: Any, rng: random.Random) -> tuple[str, dict[str, bytes | str]]:
    pair = copy.deepcopy(base)
    how = rng.choice(("value", "value", "both", "asked", "rules", "spec", "version", "text", "kind"))
    which = rng.randrange(2)
    if how in ("value", "both"):
        path = _pick(pair[which], rng)
        value = _new_value(_at(pair[which], path), rng)
        for n in ((0, 1) if how == "both" else (which,)):
            with contextlib.suppress(KeyError, IndexError, TypeError):
                _set(pair[n], path, copy.deepcopy(value))
        what = f"{'both' if how == 'both' else f'shard {which + 1}'}: {_shown(path)} = {_brief(value)}"
    elif how == "asked":
        key = rng.choice(("game", "games", "seed", "bots", "players"))
        value = rng.choice({"game": ["aktsioner", "nope", 3], "games": [100, 201, 0, -1, 10**12, 1.5],
                            "seed": [4, "3", None, 10**40], "bots": [["random", "greedy"], ["nope"], []],
                            "players": [[4], [3, 4], [], [0]]}[key])
        for n in rng.choice(((which,), (0, 1))):
            pair[n]["asked"][key] = value
        what = f"asked.{key} = {_brief(value)}"
    elif how == "rules":
        options = rng.choice(([["rounds", 3]], [["rounds", "x"]], [["nope", 1]], [["rounds", 3], ["rounds", 4]], "x",
                              [["start_cash", 10**30]]))
        for n in rng.choice(((which,), (0, 1))):
            pair[n]["runs"][0]["setups"][0]["options"] = options
        what = f"options = {_brief(options)}"
    elif how == "spec":
        spec = rng.choice(("/dev/zero", "/nonexistent/components.yaml", str(ROOT / "examples" / "tulips" / "components.yaml"),
                           "\x1b[31mred", "", "a" * 5000))
        for n in (0, 1):
            pair[n]["runs"][0]["setups"][0]["spec"] = spec
        what = f"spec = {spec[:40]!r}"
    elif how == "version":
        field, value = rng.choice((("pnp", "9.9"), ("format", "pnp-simulate-shard/1"), ("format", "x"), ("shard", [2, 2]),
                                   ("shard", [1, 3]), ("elapsed_s", float("nan"))))
        pair[which][field] = value
        what = f"shard {which + 1}: {field} = {_brief(value)}"
    files: dict[str, bytes | str] = {f"{n + 1}.json": json.dumps(pair[n]).encode() for n in (0, 1)}
    if how == "text":
        data = files["1.json"]
        assert isinstance(data, bytes)
        shape = rng.choice(("truncated", "nested", "not JSON", "huge"))
        files["1.json"] = {"truncated": data[:rng.randrange(len(data))], "nested": b"[" * 100_000 + b"]" * 100_000,
                           "not JSON": b"\xff\xfe garbage", "huge": b" " * 51_000_000 + data}[shape]
        what = f"shard 1: {shape}"
    elif how == "kind":
        special = rng.choice(SPECIAL)
        files["1.json"] = special
        what = f"shard 1: {special}"
    return what, files


# --- manifests ---------------------------------------------------------------------------------------

HOSTILE_IDS = ["<script>alert(1)</script>", "\x1b[31mred\x1b[0m", "a" * 100_000, "../x", "", "a/b", "con", "é", "a\nb"]
HOSTILE_PATHS = ["../../etc/passwd", "/etc/passwd", "a\x00b", "dash/../../x", "\\\\server\\share", "a" * 5000]


def _manifest_mutant(base: Any, rng: random.Random) -> tuple[str, dict[str, bytes | str]]:
    tree = copy.deepcopy(base)
    how = rng.choice(("value", "value", "id", "path", "delete", "text", "kind"))
    if how in ("value", "delete"):
        path = _pick(tree, rng)
        if how == "delete":
            del _at(tree, path[:-1])[path[-1]]
            what = f"del {_shown(path)}"
        else:
            value = _new_value(_at(tree, path), rng)
            _set(tree, path, value)
            what = f"{_shown(path)} = {_brief(value)}"
    elif how in ("id", "path"):
        key, field = rng.choice((("units", "id"), ("components", "id"), ("units", "game"), ("printed", "game"))
                                if how == "id" else (("files", "path"), ("faces", "thumbnail")))
        entries = tree.setdefault(key, [])
        if not entries:
            entries.append({"game": "dash", "stamp": "0", "units": []})
        value = rng.choice(HOSTILE_IDS if how == "id" else HOSTILE_PATHS)
        entries[rng.randrange(len(entries))][field] = value
        what = f"{key}[…].{field} = {value[:40]!r}"
    data = json.dumps(tree).encode()
    if how == "text":
        shape = rng.choice(("truncated", "nested", "not JSON", "huge", "NaN"))
        data = {"truncated": data[:rng.randrange(len(data))], "nested": b'{"units":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                "not JSON": b"\xff\xfe garbage", "huge": b" " * 21_000_000 + data,
                "NaN": data.replace(b'"pages": 1', b'"pages": NaN', 1)}[shape]
        what = shape
    files: dict[str, bytes | str] = {"since.json": data}
    if how == "kind":
        files["since.json"] = rng.choice(SPECIAL)
        what = str(files["since.json"])
    return what, files


# --- images -----------------------------------------------------------------------------------------

DIMENSIONS = [(0, 0), (1, 1), (64, 48), (13_000, 13_000), (100_000, 1), (2**31 - 1, 2**31 - 1), (7016, 9921),
              (7017, 9921), (30_000, 30_000), (6000, 6000), (1, 2**31 - 1)]
SVG_NUMBERS = ["NaN", "nan", "inf", "-inf", "Infinity", "1e400", "-1e309", "1e999", "1e12", "0", "-5", "1e-300", "9" * 400]


def _image_mutant(base: Any, rng: random.Random) -> tuple[str, dict[str, bytes | str]]:
    how = rng.choice(("dimensions", "png bytes", "jpeg", "svg", "svg", "kind"))
    if how == "dimensions":
        (width, height), depth, colour = rng.choice(DIMENSIONS), rng.choice((1, 8, 16)), rng.choice((0, 2, 3, 4, 6, 9))
        idat = rng.choice((zlib.compress(b"\0" * 64), b"garbage", zlib.compress(b"\0" * 1_000_000, 9)))
        return f"PNG {width:,} × {height:,}, depth {depth}, colour {colour}", {PICTURE: _png(width, height, depth, colour, idat)}
    if how == "png bytes":
        data = base["png"]
        at = rng.randrange(len(data))
        shape = rng.choice(("truncated", "byte changed", "IEND removed"))
        changed = {"truncated": data[:at], "byte changed": data[:at] + bytes([data[at] ^ 0x5A]) + data[at + 1:],
                   "IEND removed": data[:-12]}[shape]
        return f"PNG {shape} at {at}", {PICTURE: changed}
    if how == "jpeg":
        return _jpeg(base["jpeg"], rng)
    if how == "svg":
        return _svg(rng)
    special = rng.choice((*SPECIAL, "link:../outside.png"))
    return special, {PICTURE: special}


def _png(width: int, height: int, depth: int, colour: int, idat: bytes) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def _jpeg(data: bytes, rng: random.Random) -> tuple[str, dict[str, bytes | str]]:
    shape = rng.choice(("huge frame", "truncated", "no end", "no frame"))
    sof = next(i for i in range(2, len(data) - 1) if data[i] == 0xFF and data[i + 1] in (0xC0, 0xC2))
    if shape == "huge frame":
        height, width, components = rng.choice(((65535, 65535, 3), (0, 0, 3), (9000, 9000, 4), (48, 64, 255)))
        changed = data[:sof + 5] + struct.pack(">HHB", height, width, components) + data[sof + 10:]
        return f"JPEG frame {width} × {height} × {components}", {PICTURE: changed}
    cut = {"truncated": data[:rng.randrange(len(data))], "no end": data[:-2], "no frame": data[:sof] + data[-2:]}[shape]
    return f"JPEG {shape}", {PICTURE: cut}


def _svg(rng: random.Random) -> tuple[str, dict[str, bytes | str]]:
    number = rng.choice(SVG_NUMBERS)
    shape = rng.choice(("viewBox", "path", "transform", "circle", "style", "text", "link", "entities", "nesting", "size"))
    body = SVG
    if shape == "viewBox":
        body = SVG.replace('viewBox="0 0 40 30"', f'viewBox="0 0 {number} {rng.choice(("30", number))}"')
    elif shape == "path":
        body = SVG.replace("L20 0", f"L{number} 0")
    elif shape == "transform":
        body = SVG.replace("scale(1.5)", f"scale({number})")
    elif shape == "circle":
        body = SVG.replace('r="4"', f'r="{number}"')
    elif shape == "style":
        body = SVG.replace("stroke-width:0.5", f"stroke-width:{number}")
    elif shape == "text":
        body = SVG.replace("</g>", "<text>hello</text></g>")
    elif shape == "link":
        body = SVG.replace("</g>", '<image href="/etc/passwd" width="1" height="1"/></g>')
    elif shape == "entities":
        laughs = '<!ENTITY l0 "lol">' + "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 9}">' for n in range(1, 10))
        body = f'<?xml version="1.0"?><!DOCTYPE svg [{laughs}]>' + SVG.replace("</g>", "<desc>&l9;</desc></g>")
    elif shape == "nesting":
        depth = rng.choice((100, 10_000, 100_000))
        body = SVG.replace("</g>", "<g>" * depth + "</g>" * depth + "</g>")
    else:
        body = SVG.replace("</g>", '<path d="M0 0 L1 1"/>' * 200_000 + "</g>")
        shape, number = "size", f"{len(body):,} bytes"
    return f"SVG {shape}: {number}", {PICTURE: body.encode()}


# --- the tree helpers ------------------------------------------------------------------------------


def _paths(node: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node[:30]):
            yield from _paths(value, prefix + (index,))


def _pick(tree: Any, rng: random.Random) -> tuple:
    return rng.choice([path for path in _paths(tree) if path])


def _at(tree: Any, path: tuple) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def _set(tree: Any, path: tuple, value: Any) -> None:
    _at(tree, path[:-1])[path[-1]] = value


def _new_value(old: Any, rng: random.Random) -> Any:
    if isinstance(old, (int, float)) and not isinstance(old, bool) and rng.random() < 0.6:
        return rng.choice(NUMBERS + [old + 1, old - 1, -old, old * 1000])
    if isinstance(old, list) and old and rng.random() < 0.3:
        return old + [copy.deepcopy(old[0])] * rng.choice((1, 1000))
    return rng.choice(VALUES + HOSTILE_IDS[:3])


def _shown(path: tuple) -> str:
    return ".".join(str(step) for step in path)


def _brief(value: Any) -> str:
    return repr(value)[:60]


# --- mutants and answers -----------------------------------------------------------------------------

_MAKERS: dict[str, Callable[[Any, random.Random], tuple[str, dict[str, bytes | str]]]] = {
    "catalog": _catalog_mutant, "shard": _shard_mutant, "manifest": _manifest_mutant, "image": _image_mutant}


def mutant(base: Any, kind: str, seed: int, index: int) -> Mutant:
    """The `index`-th mutant of `kind` and `seed` of the kind's `base` (`make_base`)."""
    rng = random.Random(f"{kind}/{seed}/{index}")
    what, files = _MAKERS[kind](base, rng)
    if kind == "catalog":
        return Mutant(kind, what, files, _catalog_argv(rng, files), ("locale/", "components.yaml"))
    if kind == "shard":
        return Mutant(kind, what, files, ("simulate", "merge", "1.json", "2.json"), ("simulate merge: ",))
    if kind == "manifest":
        return Mutant(kind, what, files, ("build", "--spec", "components.yaml", "--out", "new", "--since", "since.json",
                                          "--component", "dash/aid", "-q"), ("--since since.json: ",))
    return Mutant(kind, what, files, ("validate", "components.yaml"), ("components.yaml:",))


def _place(folder: Path, files: dict[str, bytes | str]) -> None:
    """Each file of a mutant in the kind's folder, replacing what was there."""
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink() or path.is_file() or path.is_fifo():
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif content == "fifo":
            os.mkfifo(path)
        elif content == "folder":
            path.mkdir()
        elif content.startswith("link:"):
            target = content[len("link:"):]
            if target.startswith("../"):
                (folder.parent / target[3:]).write_bytes(b"\x89PNG outside")
            os.symlink(target, path)
        elif content == "empty":
            path.write_bytes(b"")


def problems(answer: Answer, located: tuple[str, ...]) -> list[str]:
    """What is wrong with an answer: an exit other than 0, 1 or 2, an internal error or a
    traceback, too long a message or too long a time, a refusal that does not say where."""
    found = []
    if answer.code not in (0, 1, 2) or "internal error" in answer.err or "Traceback" in answer.err:
        found.append(f"exit {answer.code}: {answer.err[:600]}")
    if len(answer.err) >= MAX_MESSAGE:
        found.append(f"a message of {len(answer.err):,} characters")
    if answer.seconds > MAX_SECONDS:
        found.append(f"{answer.seconds:.1f} s of CPU")
    first = answer.err.lstrip().split("\n", 1)[0]
    if answer.code == 2 and not first.startswith(located):
        found.append(f"not located: {answer.err[:300]}")
    return found


def run(kinds: tuple[str, ...], seed: int, start: int, count: int) -> Iterator[dict[str, Any]]:
    """Answer mutants `start`…`start + count - 1` of each kind and `seed`, each in its kind's folder."""
    with tempfile.TemporaryDirectory(prefix="pnp-fuzz-files-") as scratch:
        os.environ["PNP_CACHE"] = str(Path(scratch) / "cache")
        before = os.getcwd()
        try:
            for kind in kinds:
                folder = Path(scratch) / kind
                base = make_base(folder, kind)
                os.chdir(folder)
                for index in range(start, start + count):
                    made = mutant(base, kind, seed, index)
                    if kind == "catalog":  # the other catalog as it was (an update rewrites it)
                        _place(folder, {f"locale/{code}/dash.po": data for code, data in base.items()})
                    _place(folder, made.files)
                    result = command(list(made.argv))
                    yield {"kind": kind, "index": index, "what": made.what[:200], "code": result.code,
                           "seconds": round(result.seconds, 3), "chars": len(result.err),
                           "problems": problems(result, made.located), "first": result.err[:200]}
                os.chdir(before)
        finally:
            os.chdir(before)


def main(argv: list[str]) -> int:
    """`fuzz_files.py KIND|all SEED START COUNT`: JSON lines; `fuzz_files.py KIND SEED INDEX`: the mutant."""
    kind = argv[0]
    if len(argv) == 3:
        with tempfile.TemporaryDirectory(prefix="pnp-fuzz-files-") as scratch:
            made = mutant(make_base(Path(scratch) / kind, kind), kind, int(argv[1]), int(argv[2]))
        print(made.what, " ".join(made.argv), sep="\n")
        return 0
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    signal.signal(signal.SIGPROF, _give_up)
    seed, start, count = (int(value) for value in argv[1:4])
    for result in run(KINDS if kind == "all" else (kind,), seed, start, count):
        print(json.dumps(result, ensure_ascii=False), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"peak_bytes": peak}), flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    raise SystemExit(main(sys.argv[1:]))
