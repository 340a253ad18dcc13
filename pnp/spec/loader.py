"""components.yaml → validated `Spec`, or one `SpecError` listing every problem with its place.

Three passes, each reporting all it finds: the YAML itself (syntax, duplicate keys, tags), the
shape (pydantic, errors mapped back to line and column), then meaning (duplicate ids,
references to unknown ids, templates and — given the rulebooks — house-rule values, the tables
and what each engine needs, and the engine's own check that it can set the game up).

The spec layer knows no game: the rulebooks and the engine check come from above
(`pnp.rules.load_spec` passes them). Without rulebooks the games' `rules:` and table names are
kept as written, unchecked.
"""

from __future__ import annotations

import os
import typing
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from pydantic import BaseModel, ValidationError

from pnp.cache import file_digests, unchanged
from pnp.disk import write_atomically
from pnp.errors import Issue, SpecError, UsageError, display_name, shorten
from pnp.spec.bounds import extent_issues, pieces_issues, size_issues
from pnp.spec.elements import elements_at, placed_elements
from pnp.spec.faces import (
    ElsewhereError,
    Side,
    TemplateError,
    currency,
    deck_pieces,
    fill,
    game_context,
    game_texts,
    token_pieces,
)
from pnp.spec.images import ArtError, read_art
from pnp.spec.model import (
    ASSET_KEYS,
    MAX_SPEC_TEXT,
    AnyComponent,
    Back,
    Booklet,
    Deck,
    Game,
    Mat,
    Money,
    Spec,
    Tokens,
    check_id,
)
from pnp.spec.needs import needs_problems
from pnp.spec.options import Rulebook, check_values, unknown_key_message
from pnp.spec.sheets import expand_card_lists
from pnp.spec.source import (
    SPEC_NAME,
    PathKey,
    Source,
    SourceError,
    bundled_spec_path,
    default_spec_path,
    format_path,
    inputs,
    load_file,
    load_text,
    note_input,
)
from pnp.spec.templates import Unchecked, plain
from pnp.spec.typefaces import font_issues

# An engine's own look at one game (its id and model): the problems it finds, each a path
# inside the game and a sentence with the rule ID.
Check = Callable[[str, Game], Iterable[tuple[PathKey, str]]]
LayoutCheck = Callable[[Spec, str], Iterable[Issue]]  # what laying out one game's components finds


def _write_copy(target: Path, bundled: Path, schema: str | None) -> None:
    """The bundled spec copied to `target` (a link there replaced), the schema beside it and
    named by its first line when there is one; a UsageError when the folder cannot be written."""
    from pnp.spec.schema import SCHEMA_NAME, schema_comment

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        text = bundled.read_bytes()
        if schema is not None:
            write_atomically(target.parent / SCHEMA_NAME, schema.encode("utf-8"))
            text = schema_comment(SCHEMA_NAME).encode("utf-8") + text
        if target.is_symlink():
            target.unlink()
        write_atomically(target, text)
    except OSError as error:
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from None


def init(folder: Path, *, force: bool = False, schema: str | None = None) -> str:
    """Write an editable copy of the bundled spec to `folder/components.yaml`, and of its
    translation catalogs to `folder/locale/`; say what was done.

    With `schema` (the text of `pnp.spec.schema.schema_text`), it is written beside the copy as
    components.schema.json, and the copy opens with the line that points editors at it.
    A link to the bundled file (as in a checkout of pnp) is replaced by a copy, since editing
    through it would change pnp's default; any other file is kept unless `force`.
    """
    from pnp.spec.schema import SCHEMA_NAME

    target = folder / SPEC_NAME
    bundled = bundled_spec_path()
    linked = target.is_symlink() and target.resolve() == bundled.resolve()
    if (target.exists() or target.is_symlink()) and not (force or linked):
        raise UsageError(f"{target} already exists; edit it, or use --force to replace it with the bundled spec")
    _write_copy(target, bundled, schema)
    what = "replaced the link to the bundled spec with an editable copy" if linked else "wrote an editable copy of the bundled spec"
    copied = _copy_catalogs(bundled.parent / "locale", folder / "locale", force=force)
    also = f" and its schema {SCHEMA_NAME}, so an editor with the YAML language server checks it as you type" \
        if schema is not None else ""
    return f"{target}: {what}{also}{copied}; edit it, then run pnp validate and pnp build in {folder}"




def _copy_catalogs(bundled: Path, target: Path, *, force: bool) -> str:
    """The bundled translation catalogs beside the copy (a link to the bundled ones, as in a
    checkout, becomes a copy; catalogs already there are kept unless `force`); what was done."""
    if not bundled.is_dir():
        return ""
    linked = target.is_symlink() and target.resolve() == bundled.resolve()
    try:
        if linked:
            target.unlink()
        for source in sorted(bundled.rglob("*.po*")):
            copy = target / source.relative_to(bundled)
            if copy.exists() and not force:
                continue
            copy.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(copy, source.read_bytes())
    except OSError as error:
        raise UsageError(f"cannot write {target}: {error.strerror or error}") from None
    return f", with its translation catalogs in {target}"


def load(path: str | Path | None = None, rulebooks: Mapping[str, Rulebook] | None = None,
         check: Check | None = None, layout: LayoutCheck | None = None) -> Spec:
    """Load and validate a spec file (default: `default_spec_path()`). `rulebooks` (a game
    missing from them has no rules engine) and `check` as in `validate`; without rulebooks the
    house rules are not checked — `pnp.rules.load_spec` is the loader that checks everything.
    Images and card lists are read from the file's folder.

    A spec loaded without `layout` is remembered for the rest of the process while every file
    it was made of keeps its bytes (`_remembered`): `pnp simulate`, `tune` and `ladder` read
    one spec for the command and again for each rule set they play, and a spec is immutable."""
    path = Path(path) if path is not None else default_spec_path()
    shown = display_name(path)
    name = (os.path.abspath(path), shown, id(check), tuple((g, id(book)) for g, book in (rulebooks or {}).items()))
    if layout is None:
        known = _remembered(name)
        if known is not None:
            return known
    with inputs() as read:
        try:
            source = load_file(path, shown, max_text=MAX_SPEC_TEXT)
        except SourceError as error:
            raise SpecError(error.issues) from None
        spec = validate(source, rulebooks, check, path.parent, layout)
    made_of = file_digests(read)
    for file in made_of:
        note_input(Path(file))  # for a caller recording what the spec was made of (`pnp.referee.params`)
    if layout is None:
        _LOADED[name] = (made_of, spec)
        for stale in list(_LOADED)[:-LOADED_KEPT]:
            _LOADED.pop(stale, None)
    return spec


LOADED_KEPT = 8  # specs a process remembers (`load`)
_LOADED: dict[tuple[Any, ...], tuple[dict[str, str | None], Spec]] = {}  # name → its files' digests, the spec


def _remembered(name: tuple[Any, ...]) -> Spec | None:
    """The spec `load` made under `name` if every file it was made of has the same bytes (each
    told to a caller recording inputs, as a load would), else None."""
    known = _LOADED.get(name)
    if known is None:
        return None
    made_of, spec = known
    if not unchanged(made_of):
        _LOADED.pop(name, None)
        return None
    for file in made_of:
        note_input(Path(file))
    return spec


def loads(text: str, rulebooks: Mapping[str, Rulebook] | None = None, file: str = SPEC_NAME,
          check: Check | None = None, folder: str | Path | None = None, layout: LayoutCheck | None = None) -> Spec:
    """Validate spec text (for tests and tools), as `load` does a file; relative paths start at
    `folder` (default: the working folder)."""
    try:
        source = load_text(text, file, max_text=MAX_SPEC_TEXT)
    except SourceError as error:
        raise SpecError(error.issues) from None
    return validate(source, rulebooks, check, Path(folder) if folder is not None else None, layout)


def validate(source: Source, rulebooks: Mapping[str, Rulebook] | None, check: Check | None = None,
             folder: Path | None = None, layout: LayoutCheck | None = None) -> Spec:
    """The spec, or a SpecError with every problem. With `rulebooks`, each game's house rules,
    tables and needs are checked against its engine's rulebook (a game without one may have no
    `rules:`); `check` then asks each game's engine about a game that passed everything else,
    and `layout` (`pnp validate`: the build's layout) lays out its components.
    Images and card lists (`cards_from`) are read from `folder` (default: the working folder)."""
    folder = folder if folder is not None else Path.cwd()
    if not isinstance(source.data, dict):
        raise SpecError([source.issue((), "expected a mapping with `print` and `games` at the top")])
    source = expand_card_lists(source, folder)
    try:
        spec = Spec.model_validate(source.data)
    except ValidationError as error:
        issues = shape_issues(source, error) + _issues_beside(source, error, rulebooks, check, folder)
        raise SpecError(sorted(issues, key=lambda i: (i.line, i.col))) from None
    spec._folder, spec._source = folder, source
    issues = list(_meaning_issues(source, spec, rulebooks, check, layout))
    if issues:
        raise SpecError(issues)
    return spec


def _issues_beside(source: Source, error: ValidationError, rulebooks: Mapping[str, Rulebook] | None,
                   check: Check | None, folder: Path) -> list[Issue]:
    """The meaning problems of everything whose shape is sound, so one run reports them with the
    shape problems: each broken component stands in as an empty aid, each game broken outside
    its components is left out, and what is found inside a stand-in is dropped; only the games
    with nothing broken are asked of their engine."""
    broken = _broken_items(source.data, error)
    if broken is None:
        return []
    try:
        spec = Spec.model_validate({"version": 1, "games": _sound_games(source.data["games"], broken)})
    except ValidationError:
        return []
    spec._folder, spec._source = folder, source
    stand_ins = [format_path(("games", g, key, i)) for g, places in broken.items() for key, i in places]

    def in_stand_in(path: str) -> bool:
        return any(path == s or path.startswith((f"{s}.", f"{s}[")) for s in stand_ins)

    def whole(game_id: str, game: Game) -> Iterable[tuple[PathKey, str]]:  # only games with nothing broken
        return () if check is None or game_id in broken else check(game_id, game)

    return [issue for issue in _meaning_issues(source, spec, rulebooks, whole) if not in_stand_in(issue.path)]


def _broken_items(data: Any, error: ValidationError) -> dict[str, set[tuple[str, int]]] | None:
    """game → (list, index) of each broken component or asset, ("game", -1) for a game broken
    elsewhere; None when something outside the games (and the print settings, which do not
    bear on meaning) is broken, so nothing can be checked beside it."""
    broken: dict[str, set[tuple[str, int]]] = {}
    for item in error.errors(include_url=False):
        loc = item["loc"]
        if loc[:1] == ("print",):
            continue
        if len(loc) < 2 or loc[0] != "games" or not isinstance(data.get("games"), dict):
            return None
        listed = len(loc) >= 4 and loc[2] in ("components", *ASSET_KEYS) and isinstance(loc[3], int)
        broken.setdefault(str(loc[1]), set()).add((str(loc[2]), int(loc[3])) if listed else ("game", -1))
    return broken


def _sound_games(games: dict[str, Any], broken: dict[str, set[tuple[str, int]]]) -> dict[str, Any]:
    """The games with each broken item replaced by its stand-in, and without the games broken
    outside their lists."""
    sound = {}
    for game_id, game in games.items():
        if ("game", -1) in broken.get(game_id, ()):
            continue
        for key in ("components", *ASSET_KEYS):
            if game_id in broken and isinstance(game, dict) and isinstance(game.get(key), (list, tuple)):
                game = {**game, key: [_stand_in(key, item, i) if (key, i) in broken[game_id] else item
                                      for i, item in enumerate(game[key])]}
        sound[game_id] = game
    return sound


def _stand_in(key: str, item: Any, index: int) -> dict[str, Any]:
    """A sound stand-in for a component (an empty aid) or an asset whose shape is broken,
    keeping its id when it can, so that what refers to it still finds it."""
    given = item.get("id") if isinstance(item, dict) else None
    try:
        item_id = check_id(given) if isinstance(given, str) else f"broken-{index}"
    except ValueError:
        item_id = f"broken-{index}"
    if key == "components":
        return {"id": item_id, "kind": "aid", "name": item_id, "sections": [{"lines": []}]}
    return {"id": item_id, "name": item_id, "color": "#000000", "symbol": "circle"}


# --- pass 2: shape ------------------------------------------------------------------------

_MESSAGES = {
    "missing": "required field is missing",
    "string_type": "expected text",
    "int_type": "expected a whole number",
    "int_from_float": "expected a whole number",
    "int_parsing": "expected a whole number",
    "float_type": "expected a number",
    "float_parsing": "expected a number",
    "bool_type": "expected true or false",
    "tuple_type": "expected a list",
    "list_type": "expected a list",
    "dict_type": "expected a mapping (key: value lines)",
    "model_type": "expected a mapping (key: value lines)",
    "model_attributes_type": "expected a mapping (key: value lines)",
}


def shape_issues(source: Source, error: ValidationError, root: type[BaseModel] = Spec,
                 noun: str = "field") -> list[Issue]:
    """Pydantic's errors about `source.data` validated as `root` (the spec, a game record), each
    in a reader's words at its file:line:col; an unknown key is called a `noun`."""
    issues, seen = [], set()
    for item in _as_written(source.data, error.errors(include_url=False)):
        path, model = _data_path(source.data, item["loc"], root)
        if item["type"] == "too_short" and len(source.get(path) or ()) >= item["ctx"]["min_length"]:
            continue  # pydantic also reports a list as too short when one of its items is invalid
        issue = _shape_issue(source, path, model, item, noun)
        if (issue.line, issue.col, issue.path) not in seen:  # unions repeat one error per member
            seen.add((issue.line, issue.col, issue.path))
            issues.append(issue)
    return sorted(issues, key=lambda i: (i.line, i.col))


def _as_written(data: Any, items: list[Any]) -> list[Any]:
    """Of the errors of a field that is a model or a word (`layout: {…}` or `layout: free`),
    those of the form it is written in: a mapping's are the model's, a word's the word's."""
    words = {item["loc"][:_word_step(item["loc"])] for item in items if _word_step(item["loc"]) is not None}
    kept = []
    for item in items:
        loc, step = item["loc"], _word_step(item["loc"])
        if step is not None and isinstance(_value_at(data, loc[:step]), dict):
            continue  # a mapping is no word: the model's errors say what is wrong with it
        if item["type"] in ("model_type", "model_attributes_type") and loc[:-1] in words:
            continue  # a word is no mapping: the word's error says which words there are
        kept.append(item)
    return kept


def _word_step(loc: tuple[int | str, ...]) -> int | None:
    """Where a union's word member (`literal['free']`) appears in an error's `loc`."""
    return next((i for i, step in enumerate(loc) if isinstance(step, str) and step.startswith("literal[")), None)


def _value_at(data: Any, loc: tuple[int | str, ...]) -> Any:
    """The input an error's `loc` points at (pydantic's own steps skipped), or None."""
    for step in loc:
        if isinstance(data, dict) and step in data:
            data = data[step]
        elif isinstance(data, (list, tuple)) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        elif not _pydantic_step(data, step):
            return None
    return data


def _pydantic_step(data: Any, step: int | str) -> bool:
    """Whether `step` is one of pydantic's own (a validator, a union's tag), not a place in the input."""
    return (isinstance(step, str) and step.startswith(("function-", "tagged-union", "nullable", "literal["))) \
        or (isinstance(data, dict) and data.get("kind") == step)


def _shape_issue(source: Source, path: PathKey, model: Any, item: Mapping[str, Any], noun: str) -> Issue:
    kind = item["type"]
    ctx = item.get("ctx") or {}
    if kind == "extra_forbidden":
        known = list(_aliases(model)) if model else []
        return source.issue(path, unknown_key_message(path[-1], known, noun), key=True)
    if kind == "missing":
        return source.issue(path[:-1], f'required field "{path[-1]}" is missing')
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        tags = [t.strip(" '") for t in str(ctx.get("expected_tags", "")).split(",")]
        if kind == "union_tag_not_found":
            return source.issue(path, f'missing "kind" (one of: {", ".join(tags)})')
        return source.issue(path + ("kind",), unknown_key_message(ctx.get("tag"), tags, "kind"))
    return source.issue(path, _value_message(kind, item.get("input"), ctx, item["msg"]))


_RELATIONS = {"greater_than_equal": "at least", "greater_than": "more than", "less_than_equal": "at most",
              "less_than": "less than"}


def _value_message(kind: str, given: Any, ctx: Mapping[str, Any], said: str) -> str:
    """Pydantic's error of kind `kind` about a value, `given`, in a designer's words (`said`:
    pydantic's own, for the kinds not worded here)."""
    if kind == "value_error":
        return str(ctx.get("error", said))
    if kind == "literal_error":
        return f"expected one of {ctx.get('expected')}; got {_show(given)}"
    if kind in _RELATIONS:
        return f"must be {_RELATIONS[kind]} {_limit(next(iter(ctx.values())))}, got {_show(given)}"
    if kind in ("string_too_long", "string_too_short"):
        relation = "at most" if kind == "string_too_long" else "at least"
        limit = next(iter(ctx.values()), 0)
        length = len(given) if isinstance(given, str) else 0
        return f"{relation} {limit:,} characters, not {length:,}"
    if kind in ("too_short", "too_long"):
        return said.replace("Tuple", "List").replace("Dictionary", "Mapping")
    if kind in _MESSAGES:
        return _MESSAGES[kind] + f", got {_show(given)}"
    return said


def _limit(limit: Any) -> str:
    """A bound as a designer reads it: 10,000 and 0.5, not 10000.0."""
    if isinstance(limit, bool) or not isinstance(limit, (int, float)):
        return str(limit)
    return f"{int(limit):,}" if float(limit).is_integer() else f"{limit:g}"


def _data_path(data: Any, loc: tuple[int | str, ...], root: type[BaseModel]) -> tuple[PathKey, Any]:
    """Drop pydantic's union-tag steps from `loc`, and find the model the last key belongs to."""
    path: list[Any] = []
    node: Any = data
    model: Any = root
    owner: Any = None
    for step in loc:
        if isinstance(node, dict) and isinstance(step, str) and node.get("kind") == step \
                and _union_member(model, step) is not model:
            model = _union_member(model, step)  # the tagged-union step of a component (`tokens` is also a key)
        elif isinstance(node, dict) and step in node:
            path.append(step)
            owner, model = model, _field_type(model, step)
            node = node[step]
        elif isinstance(node, (list, tuple)) and isinstance(step, int) and 0 <= step < len(node):
            path.append(step)
            model = _item_type(model)
            node = node[step]
        elif isinstance(step, str) and step.startswith(("function-", "tagged-union", "nullable", "literal[")):
            continue
        elif isinstance(node, dict) and isinstance(step, int):
            model = _item_type(model)  # a list of one written as its item (a record's one trade)
        else:
            path.append(step)
            node = None
    owner = _model_in(owner)
    return tuple(path), owner


def _model_in(annotation: Any) -> type[BaseModel] | None:
    return next((t for t in _unwrap(annotation) if isinstance(t, type) and issubclass(t, BaseModel)), None)


def _aliases(model: type[BaseModel]) -> Iterable[str]:
    for name, info in model.model_fields.items():
        yield info.alias or name


def _unwrap(annotation: Any) -> list[Any]:
    """The concrete types inside Optional/Union/Annotated."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return [t for arg in typing.get_args(annotation) for t in _unwrap(arg)]
    return [annotation]


def _field_type(model: Any, key: Any) -> Any:
    for candidate in _unwrap(model):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            for name, info in candidate.model_fields.items():
                if key in (name, info.alias):
                    return info.annotation
        if typing.get_origin(candidate) is dict:
            return typing.get_args(candidate)[1]
    return None


def _item_type(model: Any) -> Any:
    for candidate in _unwrap(model):
        if typing.get_origin(candidate) in (tuple, list):
            return typing.get_args(candidate)[0]
    return None


def _union_member(model: Any, tag: str) -> Any:
    for candidate in _unwrap(model):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            kind = candidate.model_fields.get("kind")
            if kind is not None and tag in typing.get_args(kind.annotation):
                return candidate
    return model


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return f'"{shorten(value)}"'
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, float):
        return f"{value:g}"
    return shorten(str(value))


# --- pass 3: meaning ----------------------------------------------------------------------


def _meaning_issues(source: Source, spec: Spec, rulebooks: Mapping[str, Rulebook] | None,
                    check: Check | None, layout: LayoutCheck | None = None) -> Iterable[Issue]:
    whole = list(pieces_issues(source, spec))  # the spec's bound: then nothing is laid out
    yield from whole
    for game_id, game in spec.games.items():
        where = ("games", game_id)
        rulebook = rulebooks.get(game_id) if rulebooks is not None else None
        issues = list(_written_issues(source, spec, game_id, game, rulebooks))
        sound = not issues  # what follows reads the game as its engine and its components would
        if sound and rulebook is not None and check is not None:
            issues += _engine_issues(source, where, game_id, game, check)
        issues += _mat_issues(source, where, game)  # counts only: the engine may read the game meanwhile
        if not issues and not whole and layout is not None:  # laid out only when sound, as the engine reads it
            issues += layout(spec, game_id)
        yield from issues


def _written_issues(source: Source, spec: Spec, game_id: str, game: Game,
                    rulebooks: Mapping[str, Rulebook] | None) -> Iterable[Issue]:
    """What is wrong with one game as written — its id, duplicate ids, house rules and what its
    engine needs (when `rulebooks` are known), its components, extents, art and fonts — before
    its engine or its layout reads it."""
    where = ("games", game_id)
    try:
        check_id(game_id)
    except ValueError as error:
        yield source.issue(where, str(error), key=True)
    yield from _duplicates(source, where + (game.asset_key,), [a.id for a in game.assets], "id")
    yield from _duplicates(source, where + ("components",), [c.id for c in game.components], "id")
    rulebook = rulebooks.get(game_id) if rulebooks is not None else None
    if rulebooks is not None:
        yield from _rules_issues(source, where, game, rulebook)
    if rulebook is not None:
        yield from (source.issue(where + path, message, key=key)
                    for path, message, key in needs_problems(game_id, game, rulebook.needs))
    tables = None if rulebooks is None else rulebook.tables if rulebook else ()
    for index, component in enumerate(game.components):
        here = where + ("components", index)
        sized = list(size_issues(source, here, game, component))
        yield from sized
        if not sized:  # a component within its bounds: its templates and names can be read
            yield from _component_issues(source, here, game, component, tables, _booklet_names(rulebooks, game_id, game))
    yield from extent_issues(source, where, game, spec.print)
    yield from _image_issues(source, spec.folder, where, game)
    yield from font_issues(source, spec.folder, where, game)


def _mat_issues(source: Source, where: PathKey, game: Game) -> Iterable[Issue]:
    """A player mat for every player the game lists."""
    for index, component in enumerate(game.components):
        if isinstance(component, Mat) and component.copies < game.players.max:
            here = where + ("components", index)
            place = here + ("copies",) if source.get(here + ("copies",)) is not None else here
            short = game.players.max - component.copies
            yield source.issue(place, f"{component.copies} player mat{'s' if component.copies != 1 else ''} for up "
                                      f"to {game.players.max} players: a mat is one player's, add {short} "
                                      "(or lower players.max)")


def _engine_issues(source: Source, where: PathKey, game_id: str, game: Game, check: Check) -> Iterable[Issue]:
    """What the game's engine finds when it reads the game and sets it up (`Mismatch` from its
    params locates itself; a setup the rules forbid lands on `players`)."""
    for path, message in check(game_id, game):
        yield source.issue(where + tuple(path), message)


def _duplicates(source: Source, path: PathKey, ids: list[str], key: str) -> Iterable[Issue]:
    counts = Counter(ids)
    seen: set[str] = set()
    for index, value in enumerate(ids):
        if counts[value] > 1 and value in seen:
            first = ids.index(value)
            yield source.issue(path + (index, key), f'duplicate id "{value}" (also {format_path(path + (first,))})')
        seen.add(value)


def _rules_issues(source: Source, where: PathKey, game: Game, rulebook: Rulebook | None) -> Iterable[Issue]:
    if rulebook is None:
        if game.rules:
            yield source.issue(where + ("rules",), "this game has no rules engine, so `rules` cannot be checked; "
                                "install its engine's package or give its file (pnp --engine FILE.py; a spec never "
                                "loads code), or put free values under `vars:` instead")
        return
    _, problems = check_values(game.rules, rulebook, in_spec=True, game=game)
    for key, message in problems:
        yield source.issue(where + ("rules", key), message, key=message.startswith("unknown"))


def _component_issues(source: Source, where: PathKey, game: Game, component: AnyComponent,
                      tables: tuple[str, ...] | None, booklet: Mapping[str, Any] | None = None) -> Iterable[Issue]:
    """Templates, tracks and — when the engine's tables are known (None: rules unchecked) —
    the tables a component names."""
    try:
        if isinstance(component, Deck):
            deck_pieces(game, component)
        elif isinstance(component, Tokens):
            token_pieces(game, component)
        elif isinstance(component, Money):
            for asset in game.assets if component.for_each else (None,):
                currency(game, component, asset)
    except ElsewhereError:
        pass  # the component a card names reports its own template
    except TemplateError as error:
        yield _template_issue(source, where, component, error)
    yield from _text_template_issues(source, where, game, component, booklet)
    for index, section in enumerate(getattr(component, "sections", ())):
        yield from _section_issues(source, where + ("sections", index), game, section, tables)


def _section_issues(source: Source, here: PathKey, game: Game, section: Any,
                    tables: tuple[str, ...] | None) -> Iterable[Issue]:
    """The track, the engine's tables (when known) and the components an aid's or booklet's
    section names, each one the game has."""
    track = getattr(section, "track", None)
    if track is not None and track not in game.tracks:
        yield source.issue(here + ("track",), unknown_key_message(track, list(game.tracks), "track"))
    for name in ("table", "marks"):
        value = getattr(section, name, None)
        if value is not None and tables is not None and value not in tables:
            yield source.issue(here + (name,), unknown_key_message(value, list(tables), "table"))
    ids = [c.id for c in game.components]
    for path, named in _components_named(section):
        if named not in ids:
            yield source.issue(here + path, unknown_key_message(named, ids, "component"))


def _components_named(section: Any) -> Iterable[tuple[PathKey, str]]:
    """(path in the section, id) of each component an aid's or booklet's section names: the
    deck of its table of cards, and what its setup drawing shows."""
    cards, setup = getattr(section, "cards", None), getattr(section, "setup", None)
    if cards is not None:
        yield ("cards", "deck"), cards.deck
    if setup is None:
        return
    for field in ("board", "tokens"):
        if getattr(setup, field):
            yield ("setup", field), getattr(setup, field)
    for index, component_id in enumerate(setup.each_player):
        yield ("setup", "each_player", index), component_id
    if setup.money:
        yield ("setup", "money", "component"), setup.money.component
    for index, hand in enumerate(setup.hands):
        yield ("setup", "hands", index, "deck"), hand.deck


def _text_template_issues(source: Source, where: PathKey, game: Game, component: AnyComponent,
                          booklet: Mapping[str, Any] | None = None) -> Iterable[Issue]:
    """Board, mat, aid and booklet texts are templates over the game (`{tracks[quote].last}`);
    a booklet's also see `booklet` (`_booklet_names`)."""
    variables = game_context(game)
    if isinstance(component, Booklet):
        variables.update(booklet or {})
    for path, text in game_texts(component):
        try:
            fill(text, variables, str(path[-2] if isinstance(path[-1], int) else path[-1]))
        except ElsewhereError:
            continue  # the component it names reports its own template
        except TemplateError as error:
            yield source.issue(where + path, str(error))


def _booklet_names(rulebooks: Mapping[str, Rulebook] | None, game_id: str, game: Game) -> dict[str, Any]:
    """What a booklet's lines see besides the game (`pnp.components.booklet`): with a rules
    engine, every house rule in effect (`{rules[start_cash]}`, defaults included) and the
    engine's parameters (`{params.price_max}`: known once the engine has read the game, so any
    name is taken here and the build's layout checks them), and `house`, each house rule in words
    (checked by the build, which has the booklet's words); without rulebooks, any rule too."""
    if rulebooks is None:
        return {"rules": Unchecked(), "params": Unchecked(), "house": Unchecked()}
    rulebook = rulebooks.get(game_id)
    if rulebook is None:
        return {}
    return {"rules": plain({**rulebook.defaults(), **game.rules}), "params": Unchecked(), "house": Unchecked()}


def _image_issues(source: Source, folder: Path, where: PathKey, game: Game) -> Iterable[Issue]:
    """Every image the game names exists and is a whole PNG, JPEG or SVG (each file once)."""
    for file, path in named_images(game, where).items():
        try:
            read_art(folder, file)
        except ArtError as error:
            yield source.issue(path, str(error))


def named_images(game: Game, where: PathKey = ()) -> dict[str, PathKey]:
    """Every image file the game names (card templates filled in), each with the spec path of
    the first field that names it (`where` + the path inside the game), for messages."""
    named: dict[str, PathKey] = {}
    for index, asset in enumerate(game.assets):
        named.setdefault(asset.image or "", where + (game.asset_key, index, "image"))
    for index, component in enumerate(game.components):
        here = where + ("components", index)
        named.setdefault(getattr(component, "image", None) or "", here + ("image",))
        if isinstance(component, Deck):
            named.setdefault(component.back.image.file if component.back.image else "", here + ("back", "image"))
        if isinstance(component, (Deck, Tokens)):
            named |= {file: here + path for file, path in _piece_images(game, component).items() if file not in named}
    named.pop("", None)
    return named


def _piece_images(game: Game, component: Deck | Tokens) -> dict[str, PathKey]:
    """The images a deck's or tokens' pieces draw (templates filled), each with the path inside
    the component of the first field naming it: a card's illustration, its own back's art, a
    free layout's image elements."""
    if not _draws_images(component):
        return {}
    try:
        pieces = deck_pieces(game, component) if isinstance(component, Deck) else token_pieces(game, component)
    except TemplateError:
        return {}  # reported with the component
    kind = "cards" if isinstance(component, Deck) else "tokens"
    found: dict[str, PathKey] = {}
    for piece in pieces:
        found.setdefault(piece.front.image, (kind, piece.entry, "image"))
        for side, face in (("front", piece.front), ("back", piece.back)):
            for file, path in _face_images(component, kind, piece.entry, side, face):
                found.setdefault(file, path)
    return found


def _draws_images(component: Deck | Tokens) -> bool:
    """Whether any of the component's pieces may draw an image: a card's illustration or own
    back, or an image element of a free layout."""
    if isinstance(component, Deck) and any(entry.image or entry.back for entry in component.cards):
        return True
    return any(element.image for _, element in placed_elements(component))


def _face_images(component: Deck | Tokens, kind: str, entry: int, side: str,
                 face: Side | Back | None) -> Iterator[tuple[str, PathKey]]:
    """The images one side of a piece draws ("" for none), each with the path of the field
    naming it: a back's art, or the face's image elements."""
    if isinstance(face, Back):
        yield face.image.file if face.image else "", (kind, entry, "back", "image")
    elif face is not None:
        at = elements_at(component, entry, side)
        for j, element in enumerate(face.elements):
            yield element.image or "", at + ("elements", j, "image")


def _template_issue(source: Source, where: PathKey, component: AnyComponent, error: TemplateError) -> Issue:
    return source.issue(where + error.location + (error.field,), str(error))
