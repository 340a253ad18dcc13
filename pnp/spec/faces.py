"""Expanding card and token entries into concrete pieces, and filling text templates.

An entry such as `{for_each: asset, count: 18, value: "{id}"}` stands for 18 cards per
company. Generators draw the expanded pieces and rules engines count them, so a deck's
composition is read from one place. Text fields are Python format templates over the asset
(`{id}`, `{name}`, `{initial}`), the pair (`{a.id}`, `{b.name}`), the game's tracks
(`{tracks[quote].size}`), the game's `vars` and the entry's `data`. Aid lines and mat notes are templates over the
game too, so "quotes 0 to 39" follows the track when a designer lengthens it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations
from string import Formatter
from typing import Any, Iterator, Mapping

from pnp.spec.model import Asset, CardEntry, Deck, Face, Game, TokenEntry, Tokens

TEXT_FIELDS = ("value", "other", "title", "subtitle", "text", "corner")


class TemplateError(ValueError):
    """A template names a placeholder that does not exist; `field` is the face field."""

    def __init__(self, field_name: str, message: str, location: tuple = ()):
        self.field = field_name
        self.location = location  # e.g. ("cards", 2) or ("tokens", 0, "back"), set by the expanders
        super().__init__(message)

    def at(self, *location: Any) -> "TemplateError":
        return TemplateError(self.field, str(self), location)


@dataclass(frozen=True)
class Side:
    """One printed side with every template filled in."""

    asset: Asset | None
    value: str = ""
    other: str = ""
    title: str = ""
    subtitle: str = ""
    text: str = ""
    corner: str = ""
    image: str = ""  # an illustration file, relative to the spec's folder


@dataclass(frozen=True)
class Piece:
    """One physical card or token: its front, its own back (None = the deck's common back)."""

    front: Side
    back: Side | None
    data: Mapping[str, Any] = field(default_factory=dict)
    entry: int = 0  # index of the entry it came from, for error messages
    asset: Asset | None = None  # the asset of `for_each: asset`, if any


def game_context(game: Game) -> dict[str, Any]:
    """What every template may name: the game, its tracks (`{tracks[quote].last}`), its rules,
    the designer's free `vars` (`{vars[start_cash]}`, with or without a rules engine) and the
    assets' icons (`{icon[IBE]}`, the `:IBE:` markup that draws the logo or badge in text)."""
    icons = {a.id: f":{a.id}:" for a in game.assets}
    return {"game": game, "tracks": game.tracks, "rules": game.rules, "vars": game.vars, "icon": icons}


def contexts(game: Game, entry: CardEntry | TokenEntry) -> Iterator[tuple[dict[str, Any], Asset | None]]:
    """One template context per expansion of `for_each` (once when it is not set)."""
    base = {**game_context(game), **entry.data}
    if entry.for_each == "asset":
        for index, asset in enumerate(game.assets, 1):
            yield {**base, **asset.model_dump(), "asset": asset, "index": index}, asset
    elif entry.for_each == "pair":
        for index, (a, b) in enumerate(combinations(game.assets, 2), 1):
            yield {**base, "a": a, "b": b, "index": index}, None
    else:
        yield {**base, "index": 1}, None


def fill(template: str, context: Mapping[str, Any], field_name: str) -> str:
    try:
        return template.format_map(context)
    except KeyError as error:
        roots = {re.split(r"[.\[]", name)[0] for _, name, _, _ in Formatter().parse(template) if name}
        missing = sorted(root for root in roots if root not in context)
        if missing:
            known = ", ".join(sorted(k for k in context if not k.startswith("_")))
            raise TemplateError(field_name, f"unknown placeholder {{{missing[0]}}} (known: {known})") from None
        raise TemplateError(field_name, f"cannot fill template {template!r}: there is no {error.args[0]!r}") from None
    except (AttributeError, IndexError, ValueError, TypeError) as error:
        raise TemplateError(field_name, f"cannot fill template {template!r}: {error}") from None


def side(game: Game, face: Face, context: Mapping[str, Any], default_asset: Asset | None) -> Side:
    texts = {name: fill(getattr(face, name) or "", context, name) for name in TEXT_FIELDS}
    asset = default_asset
    if face.asset is not None:
        asset_id = fill(face.asset, context, "asset")
        asset = next((a for a in game.assets if a.id == asset_id), None)
        if asset is None:
            known = ", ".join(a.id for a in game.assets)
            raise TemplateError("asset", f'unknown asset "{asset_id}" (known: {known})')
    if not texts["corner"] and face.corner is None:
        texts["corner"] = texts["value"]
    image = getattr(face, "image", None)  # cards have illustrations; tokens do not
    return Side(asset=asset, image=fill(image, context, "image") if image else "", **texts)


def deck_pieces(game: Game, deck: Deck) -> tuple[Piece, ...]:
    """Every card of the deck, in entry order (copies adjacent)."""
    pieces = []
    for index, entry in enumerate(deck.cards):
        for context, asset in contexts(game, entry):
            try:
                front = side(game, entry, context, asset)
            except TemplateError as error:
                raise error.at("cards", index) from None
            pieces += [Piece(front, None, entry.data, index, asset)] * entry.count
    return tuple(pieces)


def token_pieces(game: Game, tokens: Tokens) -> tuple[Piece, ...]:
    pieces = []
    for index, entry in enumerate(tokens.tokens):
        for context, asset in contexts(game, entry):
            try:
                front = side(game, entry.front, context, asset)
            except TemplateError as error:
                raise error.at("tokens", index, "front") from None
            try:
                back = side(game, entry.back, context, asset) if entry.back else None
            except TemplateError as error:
                raise error.at("tokens", index, "back") from None
            pieces += [Piece(front, back, entry.data, index, asset)] * entry.count
    return tuple(pieces)


def printed_inputs(game: Game, component: Any) -> dict[str, Any]:
    """Everything of `game` that `component`'s printed sheets can show, as JSON-able data.

    That is its own fields; the game's title and assets (headers, badges, `for_each`); the game
    fields its templates name (`{tracks[quote].last}` → the tracks, `{vars[…]}` → the vars); the
    tracks when a section shows one; the players when a form has a column per player; and the
    whole game when a component prints what the rules engine computes (`table`, `marks`,
    `house_rules`) or its templates name anything else (`{game}`, `{counts[…]}`, `{params…}`).
    The build cache keys each component by this, so it must never leave out something a
    generator reads: when in doubt, widen it.
    """
    own = component.model_dump(mode="json", by_alias=True)
    scalars, roots = _scan(own)
    parts: dict[str, Any] = {"component": own, "title": [game.title, game.title_en, game.language],
                             "assets": [a.model_dump(mode="json") for a in game.assets]}
    local = _LOCAL | _data_keys(own)
    fields = set(Game.model_fields) - {"components"}
    if roots - local - fields or any(key in _ENGINE_KEYS and value not in (None, False) for key, value in scalars):
        parts["game"] = game.model_dump(mode="json", by_alias=True)
        return parts
    if any(key == "track" and value is not None for key, value in scalars):
        roots.add("tracks")
    if ("for_each", "player") in scalars:
        roots.add("players")
    for name in sorted(roots & fields):
        parts[name] = _json(getattr(game, name))
    return parts


_LOCAL = {"asset", "index", "a", "b", "player", *Asset.model_fields, *TEXT_FIELDS}  # names a template has of its own
_ENGINE_KEYS = ("table", "marks", "house_rules")  # fields whose values the rules engine computes from the whole game


def _data_keys(data: Any) -> set[str]:
    """The keys of every `data:` mapping (a card's own values, `{pays}`)."""
    if isinstance(data, dict):
        found = set(data["data"]) if isinstance(data.get("data"), dict) else set()
        return found.union(*(_data_keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(_data_keys(v) for v in data))
    return set()


def _scan(data: Any, key: Any = None) -> tuple[set[tuple[Any, Any]], set[str]]:
    """The (key, value) pairs of every scalar in `data`, and the roots of every placeholder
    in its text (`{tracks[quote].last}` → "tracks")."""
    scalars: set[tuple[Any, Any]] = set()
    roots: set[str] = set()
    if isinstance(data, dict):
        for name, value in data.items():
            more, names = _scan(value, name)
            scalars |= more
            roots |= names
    elif isinstance(data, list):
        for value in data:
            more, names = _scan(value, key)
            scalars |= more
            roots |= names
    else:
        scalars.add((key, data))
        if isinstance(data, str) and "{" in data:
            try:
                roots |= {re.split(r"[.\[]", name)[0] for _, name, _, _ in Formatter().parse(data) if name}
            except ValueError:
                pass  # not a template after all; validation reports it
    return scalars, roots


def _json(value: Any) -> Any:
    """A game field (a model, a mapping or tuple of models, a plain value) as JSON-able data."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


def piece_count(game: Game, component: Any) -> int:
    """How many physical pieces a component makes: 90 for a 90-card deck, 6 for six mats."""
    from pnp.spec.model import Form, Money

    if isinstance(component, Deck):
        count = len(deck_pieces(game, component))
    elif isinstance(component, Tokens):
        count = len(token_pieces(game, component))
    elif isinstance(component, Money):
        count = sum(b.count for b in component.bills) * (len(game.assets) if component.for_each else 1)
    elif isinstance(component, Form):
        count = max(1, len(component.players))
    else:
        count = 1
    return count * component.copies
