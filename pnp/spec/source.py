"""Safe YAML loading that remembers where every value came from.

PyYAML's safe loader silently accepts duplicate keys, expands alias bombs, recurses once per
level of nesting (a few thousand brackets crash it) and loses the line of each value once
constructed. We compose the node graph ourselves instead, from the parser's events and without
recursion: only plain data (mappings, sequences, strings, finite numbers, booleans, null) is
built, duplicate keys and foreign tags are rejected, nesting depth and alias expansion are
bounded, and every value keeps its line and column so that later validation can point at it.
Sequences become tuples: loaded data is immutable.
"""

from __future__ import annotations

import hashlib
import math
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, NoReturn, Protocol

import yaml

from pnp.disk import TooLarge, read_capped
from pnp.errors import Issue, brief, excerpt, shorten
from pnp.spec.syntax import explain

# libyaml is much faster when present (it depends on how PyYAML was built); marks are identical
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

PathKey = tuple[Any, ...]
MAX_NODES = 50_000  # values, aliases expanded: the bundled spec holds 1,200; composed in well under a second
MAX_BYTES = 5_000_000  # of a spec: a hundred times the bundled one
MAX_DEPTH = 100  # levels of nesting: a spec or a record uses about 8
TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep"  # said by the composer and for libyaml's own limit alike
MAX_DIGITS = 100  # of a number: far above any amount, far below a slow conversion
MAX_ISSUES = 50  # reported from one file, after which reading stops
SPEC_NAME = "components.yaml"


def bundled_spec_path() -> Path:
    """The spec bundled with the package: the three games as shipped (found beside this module,
    as `importlib.resources` would find it in an installed package, without importing it: a
    referee's start-up reads this path)."""
    return Path(__file__).resolve().parents[1] / "data" / SPEC_NAME


def default_spec_path() -> Path:
    """`./components.yaml` when there is one, else the copy bundled with the package."""
    local = Path.cwd() / SPEC_NAME
    if local.is_file():
        return local
    return bundled_spec_path()

_TAG = "tag:yaml.org,2002:"
_SCALARS = {"str", "int", "float", "bool", "null"}


class SourceError(Exception):
    """Raised with the located issues of an unreadable document."""

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        super().__init__("\n".join(map(str, issues)))


@dataclass(frozen=True)
class Source:
    """Plain data loaded from a YAML file, with the position of every value and key."""

    data: Any
    file: str
    values: Mapping[PathKey, tuple[int, int]] = field(default_factory=dict)
    keys: Mapping[PathKey, tuple[int, int]] = field(default_factory=dict)
    files: Mapping[PathKey, str] = field(default_factory=dict)  # parts read from other files (card lists)
    sha256: str = ""  # of the bytes read (the text's UTF-8 when given text): which content an answer used

    def position(self, path: PathKey, *, key: bool = False) -> tuple[int, int]:
        """1-based (line, col) of the value (or of its key) at `path`, else of its nearest parent."""
        path = tuple(path)
        while True:
            table = self.keys if key else self.values
            if path in table:
                return table[path]
            if path in self.values:
                return self.values[path]
            if not path:
                return (1, 1)
            path = path[:-1]

    def issue(self, path: PathKey, message: str, *, key: bool = False) -> Issue:
        line, col = self.position(path, key=key)
        return Issue(self.file_of(path), line, col, format_path(path), message)

    def file_of(self, path: PathKey) -> str:
        """The file the value at `path` was read from: this one, or a card list it names."""
        path = tuple(path)
        while path:
            if path in self.files:
                return self.files[path]
            path = path[:-1]
        return self.file

    def get(self, path: PathKey, default: Any = None) -> Any:
        node = self.data
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return default
        return node


def format_path(path: PathKey) -> str:
    """('games', 'bolsa', 'companies', 2, 'color') -> 'games.bolsa.companies[2].color'; a path
    deeper than 12 shows its first 8 and last 3 parts around an ellipsis."""
    if len(path) > 12:
        return f"{format_path(path[:8])}…{format_path(path[-3:])}"
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            part = shorten(str(part))
            text += f".{part}" if text else part
    return text


def load_text(text: str | bytes, file: str = "<string>", *, nfc: bool = False, max_nodes: int = MAX_NODES,
              max_text: int | None = None) -> Source:
    """Parse YAML text into a `Source` of at most `max_nodes` values; raise `SourceError` with
    located issues. With `nfc`, every text value is read in Unicode's composed form, so that
    names typed on different keyboards ("Zoë" as one letter or as e and a diaeresis) are the
    same name — escapes included (`"\\U0002F800"` is composed as its letter would be). With
    `max_text`, the texts together (keys and values, aliases expanded) hold at most that many
    characters."""
    digest = hashlib.sha256(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")).hexdigest()
    if isinstance(text, bytes):
        text = _decode(text, file)
    try:
        root = _compose(text, file, nfc, max_nodes)
    except yaml.MarkedYAMLError as error:
        raise SourceError([_yaml_issue(error, file, text)]) from None
    except yaml.YAMLError as error:  # reader errors (control characters) carry a position too
        line, col = _reader_position(error)
        character = getattr(error, "character", None)
        what = f"U+{character:04X}" if isinstance(character, int) else "a character"
        raise SourceError([located(file, line, col, "", f"not valid YAML: {what} is a control character, which a "
                                                        "text file cannot hold: delete it, or write it as an escape "
                                                        "in double quotes", text)]) from None
    if root is None:
        raise SourceError([Issue(file, 1, 1, "", "the file is empty")])
    builder = _Builder(file, max_nodes, text, max_text)
    data = builder.build(root, ())
    if builder.issues:
        raise SourceError(builder.issues)
    return Source(data, file, builder.values, builder.keys, sha256=digest)


def _yaml_issue(error: yaml.MarkedYAMLError, file: str, text: str) -> Issue:
    """The parser's error, located where the mistake was made and said as a person would."""
    if "nesting depth" in (error.problem or "") and error.problem_mark is not None:
        # libyaml's scanner looks ahead and meets its own depth limit (1,000) before the
        # composer meets ours: the same mistake, said as the composer says it
        mark = error.problem_mark
        return located(file, mark.line + 1, mark.column + 1, "", TOO_DEEP, text)
    mistake = explain(error, text)
    return located(file, mistake.line, mistake.col, "", f"not valid YAML: {mistake.message}", text)


MAX_VALUE_BYTES = 100_000  # of one value given on the command line


def read_value(text: str, option: str) -> Any:
    """A value given on the command line (`--set rules.rounds=6`, `--set rules.start_pairs={…}`)
    read as YAML with a spec's limits — depth, size, aliases, plain tags, finite numbers — so
    that what a spec refuses is refused here too, in one line naming `option` (UsageError).
    Lists come back as tuples, as in a loaded spec; nothing (`rules.x=`) is None."""
    from pnp.errors import UsageError

    if len(text.encode("utf-8", "surrogatepass")) > MAX_VALUE_BYTES:
        raise UsageError(f"{option}: a value of more than {MAX_VALUE_BYTES:,} bytes")
    if not text.strip():
        return None
    try:
        return load_text(text, option, max_nodes=10_000).data
    except SourceError as error:
        raise UsageError(f"{option}: {error.issues[0].message}") from None


_INPUTS: ContextVar[list[Path] | None] = ContextVar("pnp_spec_inputs", default=None)


def read_input(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a file a spec is made of (the spec itself, a card list, an image), at most
    `limit` of them (`read_capped`). Every file the spec layer reads comes through here or
    `note_input`, so `inputs()` can tell which files a loaded spec depends on (the
    engine-parameter cache, `pnp.rules.cache`, relies on it)."""
    note_input(path)
    return read_capped(path, limit)


def note_input(path: Path) -> None:
    """Count `path` among the inputs being recorded (for a reader that caches its own reads)."""
    recording = _INPUTS.get()
    if recording is not None:
        recording.append(Path(path).resolve())


@contextmanager
def inputs() -> Iterator[list[Path]]:
    """Record, in the list it yields, every file read inside the `with` block."""
    recording: list[Path] = []
    token = _INPUTS.set(recording)
    try:
        yield recording
    finally:
        _INPUTS.reset(token)


def load_file(path: str | Path, shown: str | None = None, *, max_bytes: int = MAX_BYTES, nfc: bool = False,
              max_nodes: int = MAX_NODES, max_text: int | None = None) -> Source:
    """Read and parse a YAML file of at most `max_bytes` (`nfc`, `max_nodes` as in
    `load_text`); a missing or unreadable file is a located issue too."""
    path = Path(path)
    name = shown or str(path)
    try:
        raw = read_input(path, max_bytes)
    except TooLarge:
        raise SourceError([Issue(name, 0, 0, "", f"file too large (more than {max_bytes:,} bytes)")]) from None
    except FileNotFoundError:
        raise SourceError([Issue(name, 0, 0, "", "no such file")]) from None
    except IsADirectoryError:
        raise SourceError([Issue(name, 0, 0, "", "is a folder, expected a YAML file")]) from None
    except OSError as error:
        raise SourceError([Issue(name, 0, 0, "", f"cannot read: {error.strerror}")]) from None
    return load_text(raw, name, nfc=nfc, max_nodes=max_nodes, max_text=max_text)


def _compose(text: str, file: str, nfc: bool = False, max_nodes: int = MAX_NODES) -> yaml.Node | None:
    """The node graph of the one document in `text` (None if there is none), composed from
    the parser's events with a stack of open collections rather than PyYAML's recursion, so
    that nesting deeper than MAX_DEPTH is a located error, not a crash; and at most
    `max_nodes` values written, so a huge file is refused before it is all composed."""
    composer = _Composer(text, file, nfc, max_nodes)
    parser: _Parser = _Loader(text)
    try:
        while True:
            event = parser.get_event()
            kind = type(event)
            if kind is yaml.StreamEndEvent:
                return composer.root
            if kind is yaml.DocumentStartEvent:
                composer.start_document(event)
            elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
                composer.close(event)
            elif kind is not yaml.StreamStartEvent and kind is not yaml.DocumentEndEvent:
                composer.add(event, kind)
    finally:
        parser.dispose()


class _Composer:
    """One composition under way: the collections still open (each with its key waiting for a
    value), the anchors met so far and the values counted against `max_nodes`."""

    def __init__(self, text: str, file: str, nfc: bool, max_nodes: int) -> None:
        self.text, self.file, self.nfc, self.max_nodes = text, file, nfc, max_nodes
        self.anchors: dict[str, yaml.Node] = {}
        self.stack: list[list[Any]] = []  # [collection node, its key waiting for a value]
        self.root: yaml.Node | None = None
        self.documents = 0
        self.written = 0

    def start_document(self, event: Any) -> None:
        self.documents += 1
        if self.documents > 1:
            raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                              "but found another document", event.start_mark)

    def close(self, event: Any) -> None:
        self.stack.pop()[0].end_mark = event.end_mark

    def add(self, event: Any, kind: type) -> None:
        """A scalar, an alias or the start of a collection, put in the innermost open collection
        (or made the root); a collection then stays open until its end event."""
        opens = kind is yaml.SequenceStartEvent or kind is yaml.MappingStartEvent
        if kind is not yaml.AliasEvent and not self._key_expected():
            self._count(event)  # values, as the builder counts them (keys aside)
        node: yaml.Node
        if kind is yaml.ScalarEvent:
            node = self._scalar(event)
        elif kind is yaml.AliasEvent:
            node = self._alias(event)
        else:
            node = self._collection(event, yaml.SequenceNode if kind is yaml.SequenceStartEvent else yaml.MappingNode)
        if kind is not yaml.AliasEvent and event.anchor is not None:
            self._anchor(event, node)
        self._place(node)
        if opens:
            self.stack.append([node, None])

    def _key_expected(self) -> bool:
        return bool(self.stack) and type(self.stack[-1][0]) is yaml.MappingNode and self.stack[-1][1] is None

    def _count(self, event: Any) -> None:
        self.written += 1
        if self.written > self.max_nodes:
            self._refuse(event, f"more than {self.max_nodes:,} values: far more than a game needs")

    def _refuse(self, event: Any, message: str) -> NoReturn:
        mark = event.start_mark
        raise SourceError([located(self.file, mark.line + 1, mark.column + 1, "", message, self.text)])

    def _scalar(self, event: Any) -> yaml.Node:
        value = event.value
        if self.nfc and not unicodedata.is_normalized("NFC", value):
            value = unicodedata.normalize("NFC", value)
        tag = event.tag if event.tag not in (None, "!") else _RESOLVER.resolve(yaml.ScalarNode, value, event.implicit)
        return yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, style=event.style)

    def _collection(self, event: Any, node_kind: type) -> yaml.Node:
        if len(self.stack) >= MAX_DEPTH:
            self._refuse(event, TOO_DEEP)
        tag = event.tag if event.tag not in (None, "!") else _RESOLVER.resolve(node_kind, None, event.implicit)
        node: yaml.Node = node_kind(tag, [], event.start_mark, None, flow_style=event.flow_style)
        return node

    def _alias(self, event: Any) -> yaml.Node:
        node = self.anchors.get(event.anchor)
        if node is None:
            raise yaml.composer.ComposerError(None, None, "found undefined alias", event.start_mark)
        return node

    def _anchor(self, event: Any, node: yaml.Node) -> None:
        if event.anchor in self.anchors:
            raise yaml.composer.ComposerError("found duplicate anchor; first occurrence",
                                              self.anchors[event.anchor].start_mark, "second occurrence",
                                              event.start_mark)
        self.anchors[event.anchor] = node

    def _place(self, node: yaml.Node) -> None:
        """`node` as the next item of the open list, the key or value of the open mapping, or the root."""
        if not self.stack:
            self.root = node
            return
        top = self.stack[-1]
        if type(top[0]) is yaml.SequenceNode:
            top[0].value.append(node)
        elif top[1] is None:
            top[1] = node
        else:
            top[0].value.append((top[1], node))
            top[1] = None


class _Parser(Protocol):
    """What `_compose` asks of PyYAML's parser, typed (PyYAML's stubs leave `get_event` untyped)."""

    def get_event(self) -> yaml.Event: ...

    def dispose(self) -> None: ...


class _Resolver(Protocol):
    """PyYAML's resolver of plain scalars' tags, typed (its stubs leave `resolve` untyped)."""

    def resolve(self, kind: type[yaml.Node], value: str | None, implicit: Any) -> str: ...


_RESOLVER: _Resolver = yaml.resolver.Resolver()


def _decode(raw: bytes, file: str) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        col = error.start - (before.rfind(b"\n") + 1) + 1
        raise SourceError([Issue(file, line, col, "", "not UTF-8 text (binary data?)")]) from None
    if "\x00" in text:
        offset = text.index("\x00")
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        raise SourceError([Issue(file, line, col, "", "contains a NUL byte (binary data?)")])
    return text


def located(file: str, line: int, col: int, path: str, message: str, text: str) -> Issue:
    """An issue at `line`:`col` of `text`, showing that line (`pnp.errors.excerpt`)."""
    shown, caret = excerpt(_line_of(text, line), col)
    return Issue(file, line, col, path, message, shown, caret)


def _line_of(text: str, line: int) -> str:
    """Line `line` (1-based) of `text` ("" if there is none)."""
    if line < 1 or not text:
        return ""
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    return text[start:end if end >= 0 else len(text)]


def _reader_position(error: yaml.YAMLError) -> tuple[int, int]:
    position = getattr(error, "position", None)
    text = getattr(error, "buffer", None) or ""
    if position is None or not isinstance(text, str):
        return (0, 0)
    line = text.count("\n", 0, position) + 1
    return line, position - (text.rfind("\n", 0, position) + 1) + 1


class _Builder:
    """Turns a composed node graph into plain, immutable data, collecting issues."""

    def __init__(self, file: str, max_nodes: int, text: str = "", max_text: int | None = None):
        self.file, self.max_nodes, self.text, self.max_text = file, max_nodes, text, max_text
        self.chars = 0  # of every text built, aliases expanded
        self.texts: set[int] = set()  # the text nodes built once: one built again is an alias's
        self.issues: list[Issue] = []
        self.values: dict[PathKey, tuple[int, int]] = {}
        self.keys: dict[PathKey, tuple[int, int]] = {}
        self.count = 0
        self.open: set[int] = set()  # nodes being built: an alias back into one is a cycle

    def _issue(self, node: yaml.Node, path: PathKey, message: str) -> None:
        mark = node.start_mark
        self.issues.append(located(self.file, mark.line + 1, mark.column + 1, format_path(path), message, self.text))
        if len(self.issues) >= MAX_ISSUES:  # enough to act on; the rest is not worth the time
            self.count = self.max_nodes + 2

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        self.count += 1
        if self.count > self.max_nodes:
            if self.count == self.max_nodes + 1:
                self._issue(node, path, f"document expands to more than {self.max_nodes:,} values (alias bomb?)")
            return None
        self.values.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)
        if id(node) in self.open:
            self._issue(node, path, "an alias refers to a list or mapping that contains it (endless recursion)")
            return None
        if len(path) >= MAX_DEPTH:  # aliases inside aliases nest deeper than the text
            self._issue(node, path, f"{TOO_DEEP} (through aliases)")
            self.count = self.max_nodes + 2  # nothing more is worth reading
            return None
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
            if node.tag != _TAG + "seq":
                self._issue(node, path, f"unsupported YAML tag {brief(node.tag)}")
            return tuple(self.build(item, path + (i,)) for i, item in enumerate(node.value))
        finally:
            self.open.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, path: PathKey) -> dict[Any, Any]:
        if node.tag != _TAG + "map":
            self._issue(node, path, f"unsupported YAML tag {brief(node.tag)}")
        result: dict[Any, Any] = {}
        for key_node, value_node in self._pairs(node):
            if self.count > self.max_nodes:
                break
            if not isinstance(key_node, yaml.ScalarNode):
                self._issue(key_node, path, "keys must be plain text, not a list or mapping")
                continue
            if key_node.tag in _TEXT_KEYS:
                key = key_node.value  # `yes:` or `1.5:` as a key means the text
            else:
                key = self._scalar(key_node, path)
            if key in result:
                first = self.keys.get(path + (key,), (0, 0))
                self._issue(key_node, path + (key,), f"the key {brief(key)} is given twice in this mapping "
                                                     f"(first at line {first[0]}): keep one of them")
                continue
            self.keys[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            result[key] = self.build(value_node, path + (key,))
        return result

    def _pairs(self, node: yaml.MappingNode, within: frozenset[int] = frozenset()) -> Iterator[tuple[yaml.Node, yaml.Node]]:
        """Mapping entries with YAML merge keys (`<<: *base`) expanded; explicit keys win.
        `within`: the mappings being merged into, which a merge cannot name again."""
        explicit = [(k, v) for k, v in node.value if k.tag != _TAG + "merge"]
        names = {k.value for k, _ in explicit if isinstance(k, yaml.ScalarNode)}
        within = within | {id(node)}
        for key_node, value_node in node.value:
            if key_node.tag != _TAG + "merge":
                continue
            sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
            for source in sources:
                if not isinstance(source, yaml.MappingNode):
                    self._issue(source, (), "a merge key (<<) needs a mapping")
                    continue
                if id(source) in within:
                    self._issue(source, (), "a merge key (<<) refers to a mapping it is merged into")
                    continue
                if len(within) >= MAX_DEPTH:
                    self._issue(source, (), f"merge keys (<<) nested more than {MAX_DEPTH} deep")
                    continue
                for k, v in self._pairs(source, within):
                    if isinstance(k, yaml.ScalarNode) and k.value not in names:
                        names.add(k.value)
                        yield k, v
        yield from explicit

    def _scalar(self, node: yaml.ScalarNode, path: PathKey) -> Any:
        kind = node.tag[len(_TAG):] if node.tag.startswith(_TAG) else None
        if kind == "timestamp" or (kind == "str"):
            self.chars += len(node.value)
            aliased = id(node) in self.texts
            self.texts.add(id(node))
            if self.max_text is not None and self.chars > self.max_text:
                why = "aliases repeat them (alias bomb?)" if aliased else "far more than a game prints"
                self._issue(node, path, f"the texts hold more than {self.max_text:,} characters: {why}")
                self.count = self.max_nodes + 2  # nothing more is worth reading
            return node.value  # dates stay text: nothing in a spec is a date
        if kind not in _SCALARS:
            self._issue(node, path, f"unsupported YAML tag {brief(node.tag)}")
            return None
        if kind in ("int", "float") and sum(map(str.isdigit, node.value)) > MAX_DIGITS:
            self._issue(node, path, f"a number of more than {MAX_DIGITS} digits: {brief(node.value)}")
            return None
        try:
            value = yaml.SafeLoader.yaml_constructors[node.tag](_SCALAR_LOADER, node)
        except (ValueError, yaml.YAMLError):
            self._issue(node, path, f"cannot read {brief(node.value)} as {kind}")
            return None
        if isinstance(value, float) and not math.isfinite(value):
            self._issue(node, path, f"{brief(node.value)} is not a finite number")
            return None
        return value


_SCALAR_LOADER = yaml.SafeLoader("")
_TEXT_KEYS = {_TAG + kind for kind in ("bool", "float", "null")}
