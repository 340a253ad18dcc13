"""What a build would refuse, found without building: every kit drawn and laid out, nothing rendered.

`lay_out_kits` draws each component of a game in each of its languages and puts it on sheets,
then the pages a build adds (the print plan opening the combined file, a reprint page naming
every unit); what cannot be laid out — text that does not fit its box, pieces larger than the
paper, a character the font lacks — is an `Issue` at the spec field that writes it (`located`),
once, saying which kits it happens in (`once`). A kit that lays out becomes a `LaidKit`, what
the other checks (`pnp.checks.CHECKS`) read. `pnp build` locates the components it cannot
draw with the same functions, so a spec that validates builds.
"""

from __future__ import annotations

import os.path
import re
from dataclasses import dataclass, replace
from string import Formatter
from typing import Any, Iterator, Sequence

from pnp import manifest
from pnp.cache import Cache
from pnp.components import Context
from pnp.errors import BuildError, BuildErrors, Issue
from pnp.i18n import Language, speaking
from pnp.layout.text import ICON_PATTERN as _ICON
from pnp.printfile import Unit, instruction_pages, plan_units, reprint_pages
from pnp.sheets import Laid, Made, lay_out, measures, sheets_of
from pnp.spec.model import AnyComponent, Game, Spec
from pnp.spec.source import PathKey
from pnp.spec.translation import Kit, kit, kits


def check_names(game_id: str, game: Game) -> None:
    """No component may take the name of a game's own files."""
    for suffix in ("all", "reprint"):
        if any(c.id == f"{game_id}-{suffix}" for c in game.components):
            raise BuildError(f"{game_id}: no component may be called {game_id}-{suffix}, the name of the "
                             f"{'combined print' if suffix == 'all' else 'reprint'} file")


@dataclass(frozen=True)
class GameLayout:
    """Every component of one game drawn and on sheets, and the combined file's print units;
    nothing rendered or cached."""

    game_id: str
    laid: tuple[Laid, ...]
    units: tuple[Unit, ...]


def lay_out_game(spec: Spec, game_id: str, language: str | None = None) -> GameLayout:
    """One game's components drawn and laid out afresh, in its default language or `language`,
    stamped as a build stamps them: what tests inspect."""
    made_kit = kit(game_id, spec.games[game_id], language or spec.games[game_id].language, spec.folder)
    game = made_kit.game
    check_names(game_id, game)
    context = Context(game_id, game, spec.print, spec.folder, made_kit, measures=measures())
    items = []
    with speaking(made_kit.language):
        for component in game.components:
            laid = lay_out(context, component)
            items.append(Made(game_id, component, "", laid.digest, laid.digest, sheets_of(laid, game), None, laid))
        units = plan_units(game, game_id, items, spec.print, (), None, lambda m: m)
    return GameLayout(game_id, tuple(m.laid for m in items if m.laid is not None), tuple(units))


@dataclass(frozen=True)
class LaidKit:
    """One kit of a game laid out without a problem: its components on sheets and its print units."""

    kit: Kit
    items: tuple[Made, ...]
    units: tuple[Unit, ...]


def layout_issues(spec: Spec, game_id: str, languages: Sequence[str] | None = None) -> list[Issue]:
    """What a build would refuse in one game of a valid spec (`lay_out_kits`)."""
    return lay_out_kits(spec, game_id, languages)[0]


def lay_out_kits(spec: Spec, game_id: str, languages: Sequence[str] | None = None) -> tuple[list[Issue], list[LaidKit]]:
    """What a build would refuse in one game of a valid spec, each at the spec field it comes
    from, once, with the kits it happens in — every component drawn and laid out in each of
    the game's languages (or `languages`), then the pages a build adds, nothing rendered —
    and the kits that laid out without a problem.

    Each kit is laid out whole, since any text may be longer in another language (a sheet's
    header too); what one language draws as another does is drawn once (a token face with the
    same words, a bill's guilloche), so a language costs what its own words cost."""
    game = spec.games[game_id]
    try:
        check_names(game_id, game)
    except BuildError as error:
        return [spec.issue(("games", game_id, "components"), str(error))], []
    codes = tuple(languages) if languages is not None else game.kit_languages
    found: list[tuple[Issue, str, str]] = []
    laid: list[LaidKit] = []
    drawn: dict[tuple[Any, ...], Any] = {}  # each language's drawings, once for every kit (`Context.once`)
    plans = Cache()  # in memory: which components share sheets, decided on their shapes, the same in every kit
    for code, made_kit in kits(game_id, game, codes, spec.folder).items():
        context = Context(game_id, made_kit.game, spec.print, spec.folder, made_kit, drawn, measures=measures(),
                          every_kit=set(game.kit_languages) <= set(codes))
        issues, items = [], []
        for component in made_kit.game.components:
            try:
                on_sheets = lay_out(context, component, stamped=False)
                with speaking(made_kit.language):
                    facts = sheets_of(on_sheets, made_kit.game, digests=False)
                items.append(Made(game_id, component, "", on_sheets.digest, on_sheets.digest, facts, None, on_sheets))
            except BuildError as error:  # a booklet reports every line, table and example at fault at once
                issues += located_all(spec, game_id, component, error, made_kit.language)
        units: list[Unit] = []
        if not issues:
            with speaking(made_kit.language):
                issues, units = print_file_issues(spec, game_id, made_kit.game, items, plans)
        if not issues:
            laid.append(LaidKit(made_kit, tuple(items), tuple(units)))
        found += [(issue, code, game.language) for issue in issues]
    return once(found), laid


def print_file_issues(spec: Spec, game_id: str, game: Game, items: list[Made], plans: Cache | None = None,
                      ) -> tuple[list[Issue], list[Unit]]:
    """What keeps a kit's own pages from being laid out — a component's name too long for the
    print plan's table, say — at the name's field (`game`: the kit's, in its language; `plans`
    keeps which components share sheets for the game's other kits); and its print units."""
    try:
        units = plan_units(game, game_id, items, spec.print, (), plans, lambda m: m)
        instruction_pages(game, game_id, units, spec.print)
        reprint_pages(game, units, [manifest.Change(game_id, u.id, "added", tuple(range(1, len(u.sheets.sheets) + 1)))
                                    for u in units], spec.print)
    except BuildError as error:
        named = [c for c in game.components if error.text and c.both_names in error.text] or list(game.components)
        fields = [(len(max(str(getattr(c, f) or "").split() or [""], key=len)), c, f)
                  for c in named for f in ("name_en", "name") if getattr(c, f, None)]
        if not fields:
            return [spec.issue(("games", game_id), str(error))], []
        _, component, field = max(fields, key=lambda found: found[0])  # the longest word is the one that does not fit
        return [spec.issue(("games", game_id, "components", game.components.index(component), field), str(error))], []
    return [], units


def located_all(spec: Spec, game_id: str, component: AnyComponent, error: BuildError,
                language: Language | None = None) -> list[Issue]:
    """Each problem `error` holds (a booklet reports all of its at once), at its field."""
    return [located(spec, game_id, component, e, language)
            for e in (error.errors if isinstance(error, BuildErrors) else (error,))]


def once(found: Sequence[tuple[Issue, str, str]]) -> list[Issue]:
    """Issues of several kits — each with its kit's language and its game's default one — once
    per place, the default kit's first, saying which kits of other languages have it: all of
    them, unless the default kit has the same issue there word for word (pieces too large for
    the paper are so in every language)."""
    places: dict[tuple[Any, ...], tuple[Issue, str, str, list[str]]] = {}
    for issue, code, default in sorted(found, key=lambda item: item[1] != item[2]):
        first, first_code, _default, codes = places.setdefault((issue.file, issue.line, issue.col, issue.path),
                                                               (issue, code, default, []))
        if code != default and not (first_code == default and issue.message == first.message):
            codes.append(code)
    return [_in_kits(issue, codes, also=first_code == default) for issue, first_code, default, codes in places.values()]


def _in_kits(issue: Issue, codes: Sequence[str], *, also: bool) -> Issue:
    if not codes:
        return issue
    named = f"the {codes[0]} kit" if len(codes) == 1 else f"the {', '.join(codes[:-1])} and {codes[-1]} kits"
    return replace(issue, message=f"{issue.message} ({'also ' if also else ''}in {named})")


def located(spec: Spec, game_id: str, component: AnyComponent, error: BuildError, language: Language | None = None) -> Issue:
    """`error` at the field that causes it: the text at fault (`text_path`), the size of pieces
    too large for the paper, else the component."""
    here = component_path(spec, game_id, component.id)
    path: tuple[Any, ...] = here
    if error.at and spec.written(here + error.at) is not None:  # the generator knows the field
        path = here + error.at
    elif error.text:
        path = text_path(spec, game_id, component.id, error.text, language)
    elif error.size:
        path = next((p for p in (here + ("size_mm",), ("print", "card_mm")) if spec.written(p) is not None), here)
    return spec.issue(path, str(error))


def component_path(spec: Spec, game_id: str, component_id: str) -> tuple[Any, ...]:
    """The path of a component in the spec: `("games", game, "components", index)`."""
    index = next(i for i, c in enumerate(spec.games[game_id].components) if c.id == component_id)
    return ("games", game_id, "components", index)


def text_path(spec: Spec, game_id: str, component_id: str, text: str, language: Language | None = None,
              ) -> tuple[Any, ...]:
    """The field of a component that writes `text`: the template that writes it whole, else the
    first whose fixed words it holds in order (a line of it), in the kit's `language`; else the
    component itself."""
    here = component_path(spec, game_id, component_id)
    texts = [(here + p, language.gettext(template) if language is not None else template)
             for p, template in _texts(spec.written(here))]
    whole = [(len(_unspaced(_ICON.sub("", re.sub(r"\{[^{}]*\}", "", template)))), p) for p, template in texts
             if _writes(template, text, whole=True)]
    if whole:
        return _most_specific(whole)
    return next((p for p, template in texts if _writes(template, text, whole=False)), here)


def _most_specific(sized: list[tuple[int, PathKey]]) -> PathKey:
    """The path of the template with the most fixed letters; of several alike (`{id}`, `{name}`),
    the entry they share."""
    best = max(size for size, _ in sized)
    paths = [p for size, p in sized if size == best]
    return paths[0] if len(paths) == 1 else _common(paths)


def _common(paths: Sequence[tuple[Any, ...]]) -> tuple[Any, ...]:
    """The longest path every one of `paths` starts with."""
    return tuple(os.path.commonprefix([list(p) for p in paths]))


def _texts(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every text in a component's spec data, with its path."""
    if isinstance(data, dict):
        for field, value in data.items():
            yield from _texts(value, path + (field,))
    elif isinstance(data, (list, tuple)):
        for index, value in enumerate(data):
            yield from _texts(value, path + (index,))
    elif isinstance(data, str):
        yield path, data


def _writes(template: str, text: str, *, whole: bool) -> bool:
    """Whether `template` could have written `text`, its placeholders filled anyhow: all of
    `text` (`whole`), or a part of it holding all its fixed words in order (a line of it).
    Spacing aside (a text broken into lines, or round an inline icon), an icon (`:SA:`) is a
    placeholder too and `**bold**` marks print nothing."""
    try:
        parts = [(literal, field is not None) for literal, field, *_ in Formatter().parse(template)]
    except ValueError:  # not a template (a stray brace in a translation): its words as they are
        parts = [(template, False)]
    pieces: list[str | None] = []  # fixed words, and None for what a placeholder or an icon prints
    for literal, placeholder in parts:
        for n, piece in enumerate(_ICON.split(literal)[::2]):
            pieces += ([None] if n else []) + [_unspaced(piece)]
        pieces += [None] if placeholder else []
    text = _unspaced(text)
    if whole:
        return re.fullmatch("".join("(?s:.*?)" if p is None else re.escape(p) for p in pieces), text) is not None
    words = [p for p in pieces if p]
    return bool(words) and re.search("(?s:.*?)".join(map(re.escape, words)), text) is not None


def _unspaced(text: str) -> str:
    return re.sub(r"\s+", "", text.replace("**", ""))
