"""A game's own texts to translate, and the game as its kit in another language prints it.

The spec's texts are written in English, the source language, and are their own msgids: a
card's `text: "Pays {pays} per certificate"` is translated as that template, placeholders and
all, and filled afterwards, so every number still comes from the spec in every language. Which
fields are words is said once, here (`TEXT_KEYS`); a text with no letter outside its
placeholders (`"{id}"`, `"+{tracks[quote].size}"`, `"×2"`) is not a word to translate.

A kit (`Kit`) is a game in one language: the spec's texts translated (`translated`), the
language whose catalog words pnp's own texts, and the game in each of its other languages, on
which geometry is measured (see `pnp.i18n`). A second line under a name or a title (`name_en`,
`title_en`, `heading_en`, from the days of bilingual kits) is translated like any text: where it
says what its first line says, it is not printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from pnp.i18n import PSEUDO, SOURCE, Language
from pnp.i18n.catalogs import language as read_language
from pnp.spec.model import Game
from pnp.spec.source import PathKey

TEXT_KEYS = frozenset({"title", "name", "subtitle", "text", "value", "other", "corner", "heading", "lines", "notes",
                       "notes_title", "start_label", "label", "name_en", "title_en", "heading_en", "caption"})
WORDS_BY_VALUE = "values"  # of a booklet's `rules_words`: each value's words, under the value as written
LABELLED = "rows"  # of a table of cards: each label (a key) is a word, its template is not
LABEL = "#label"  # a path's last step naming a label (a key of `rows`) rather than a value
NOT_WORDS = frozenset({"data", "rules", "vars", "layout", "cards_from", "players"})  # values engines and layout read
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|:[A-Za-z0-9_-]+:")


def translatable(text: str) -> bool:
    """Whether `text` holds a word: a letter outside its placeholders and icons."""
    return any(c.isalpha() for c in _PLACEHOLDER.sub("", text))


def texts(game: Game) -> Iterator[tuple[PathKey, str]]:
    """Every text of `game` to translate, with its path inside the game, in spec order (a
    field left to its default, such as a track's `start_label: START`, included)."""
    yield from _walk(game.model_dump(by_alias=True), ())


def _texts_of(data: dict[str, Any]) -> list[tuple[PathKey, str]]:
    return list(_walk(data, ()))


def _walk(data: Any, path: PathKey, key: Any = None) -> Iterator[tuple[PathKey, str]]:
    if isinstance(data, dict):
        for name, value in data.items():
            if name not in NOT_WORDS:
                yield from _field(name, value, path)
    elif isinstance(data, (list, tuple)):
        for index, value in enumerate(data):
            yield from _walk(value, path + (index,), key)
    elif isinstance(data, str) and key in TEXT_KEYS and translatable(data):
        yield path, data


def _field(name: str, value: Any, path: PathKey) -> Iterator[tuple[PathKey, str]]:
    """The texts of one field: its value walked, except for the fields whose words are not
    their values (a track's cell labels, a table's row labels, a booklet's words by value)."""
    if name == "tracks" and not path:  # of a track, only its cells' labels are words
        yield from _track_labels(value)
    elif name == LABELLED and isinstance(value, dict):
        yield from ((path + (name, label, LABEL), label) for label in value if translatable(label))
    elif name == WORDS_BY_VALUE and isinstance(value, dict) and "rules_words" in path:
        yield from _words_by_value(value, path + (name,))
    else:
        yield from _walk(value, path + (name,), name)


def _track_labels(tracks: Mapping[str, Any]) -> Iterator[tuple[PathKey, str]]:
    """The game's tracks' cell labels that are words, each at its path."""
    for track, fields in tracks.items():
        for cell, label in (fields.get("labels") or {}).items():
            if translatable(label):
                yield ("tracks", track, "labels", cell), label


def _words_by_value(words_of: Mapping[str, object], path: PathKey) -> Iterator[tuple[PathKey, str]]:
    """A booklet's words by value (`path`): each value's words, where they are words."""
    return ((path + (key,), words) for key, words in words_of.items() if isinstance(words, str) and translatable(words))


def translated(game: Game, language: Language) -> Game:
    """`game` with every text of `texts` in `language` (the source language: as written)."""
    if language.code == SOURCE:
        return game
    data = game.model_dump(mode="json", by_alias=True)  # lists, to write into
    labels = []
    for path, text in _texts_of(data):
        if path[-1] == LABEL:
            labels.append((path[:-2], path[-2], language.template(text)))
            continue
        node = data
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = language.template(text)
    for where, label, words in labels:  # a label renamed in place, the table's rows in their order
        node = data
        for step in where:
            node = node[step]
        renamed = {words if key == label else key: value for key, value in node.items()}
        node.clear()
        node.update(renamed)
    return Game.model_validate(data)


@dataclass(frozen=True)
class Kit:
    """One game in one language: what a build prints in `<out>/<folder>/`."""

    game_id: str
    language: Language  # its siblings: the game's languages, which geometry is measured in
    game: Game  # translated
    siblings: tuple[tuple[Language, Game], ...]  # every listed language with the game in it
    default: bool  # the game's default language: its kit goes in the game's own folder

    @property
    def code(self) -> str:
        return self.language.code

    @property
    def folder(self) -> str:
        """What names its folder and files, and its entries in the manifest: the game's id for
        its default language (`bolsa/bolsa-all.pdf`), `<game>.<language>` for another
        (`bolsa.en/bolsa.en-all.pdf`); no id has a dot, so no kit takes another game's name."""
        return self.game_id if self.default else f"{self.game_id}.{self.code}"


def kit(game_id: str, game: Game, code: str, folder: Path) -> Kit:
    """The kit of `game` in language `code` (one of its languages, or the pseudo-locale),
    its catalogs read from the spec's `folder`."""
    return kits(game_id, game, (code,), folder)[code]


def kits(game_id: str, game: Game, codes: tuple[str, ...], folder: Path) -> dict[str, Kit]:
    """The kits of `game` in each language of `codes`, by code: each catalog read, and the
    game translated into each language, once for them all."""
    listed = game.kit_languages
    languages = {c: read_language(folder, game_id, c) for c in dict.fromkeys((*listed, *codes))}
    siblings = tuple(languages[c] for c in listed)
    games = {c: translated(game, languages[c]) for c in languages}
    measured = tuple((languages[c], games[c]) for c in listed)
    return {code: Kit(game_id, languages[code].with_siblings(siblings), games[code], measured, code == game.language)
            for code in codes}


def kit_codes(game: Game, wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The languages `--lang` asks of `game`: its default when none is given, every listed
    one for `all`, else those it lists (and the pseudo-locale), in the order given."""
    if not wanted:
        return (game.language,)
    codes: list[str] = []
    for code in wanted:
        for one in (game.kit_languages if code == "all" else (code,)):
            if (one in game.kit_languages or one == PSEUDO) and one not in codes:
                codes.append(one)
    return tuple(codes)
