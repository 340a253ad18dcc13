"""Generators: a kind of component (deck, tokens, money, board, mat, aid, form, booklet) → drawings.

Generators know kinds, never games: everything game-specific comes from the spec (and, for
computed tables such as a penalty table, from the game's rules module). They return either
`Pieces` — same-size pieces that layout imposes on sheets with crop marks and duplex backs —
or `Panels` — drawings that layout puts one per page, tiling those larger than a page — or
`BookPages` — a booklet's pages, which layout imposes for folding.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import Any, Callable, TypeVar, Union, cast

from pnp.cache import Cache, code_version, key
from pnp.components.art import asset_badge, picture
from pnp.components.free import Stock
from pnp.display import BookPages, Panels, PieceArt, Pieces
from pnp.errors import BuildError
from pnp.i18n import Language, current, speaking
from pnp.layout.text import Icon
from pnp.spec.images import Art, ArtError, read_art
from pnp.spec.model import AnyComponent, Asset, Component, Game, Print
from pnp.spec.translation import Kit
from pnp.spec.typefaces import FontError, game_fonts

Output = Union[Pieces, Panels, BookPages]
__all__ = ["BookPages", "Context", "Output", "Panels", "PieceArt", "Pieces", "generate", "pictured"]
T = TypeVar("T")
Kind = TypeVar("Kind", bound=Component)  # a component, as the same kind in another language


@dataclass(frozen=True)
class Context:
    """What a generator may know besides its component: the game (in the kit's language), its
    id, the print settings, the folder the spec's images are read from, and the kit: the
    language and the game in each of its other languages, which geometry is measured in."""

    game_id: str
    game: Game
    settings: Print
    folder: Path = field(default_factory=Path.cwd)
    kit: Kit | None = None  # None: the spec as written, in English
    drawn: dict[tuple[Any, ...], Any] = field(default_factory=dict, compare=False, repr=False)  # see `once`
    counting: Context | None = field(default=None, compare=False, repr=False)  # see `pictured`
    measures: Cache | None = field(default=None, compare=False, repr=False)  # see `measured`
    every_kit: bool = False  # every kit of the game is laid out with this memo (`pnp validate`): see `booklet`

    @property
    def language(self) -> Language | None:
        return self.kit.language if self.kit is not None else None

    @property
    def name(self) -> str:
        """What the kit's folder, files and cache entries are named by: the game's id for its
        default language, `<game>.<language>` for another (`pnp.spec.translation.Kit.folder`)."""
        return self.kit.folder if self.kit is not None else self.game_id

    def everywhere(self, work: Callable[["Context"], T]) -> list[T]:
        """`work` done on this game in each of the kit's languages, each spoken in turn (just
        this one when it has no others): what a generator measures geometry on, so that every
        kit of a game puts its pieces, lines and pages in the same places."""
        if self.kit is None or not self.kit.siblings:
            return [work(self)]
        results = []
        for language, game in self.kit.siblings:
            with speaking(language.with_siblings(self.kit.language.siblings)):
                results.append(work(replace(self, game=game)))
        return results

    def everywhere_and_here(self, work: Callable[["Context"], T]) -> tuple[list[T], T]:
        """`everywhere`'s results, and this kit's language's among them: `work` is done once in
        it, not again (a booklet flowed over its pages is a quarter of a build's drawing)."""
        results = self.everywhere(work)
        if self.kit is None or not self.kit.siblings:
            return results, results[0]
        here = [result for (_, game), result in zip(self.kit.siblings, results, strict=True) if game is self.game]
        return results, here[0] if here else work(self)

    def once(self, what: tuple[Any, ...], make: Callable[[], T], *, every_language: bool = False) -> T:
        """`make()` in the language spoken now (or, `every_language`, for what is the same in
        all of them: a worked example's play), done once for every context sharing this one's
        memo (`drawn`: the sibling contexts `everywhere` makes, and the kits of a game a caller
        lays out together), its `BuildError` too. Geometry is measured in every language, so
        each kit would otherwise draw the others' components, pages and aid bodies again (and
        each of those measure every language in turn): a language costs what its own words cost."""
        name = (None if every_language else current().code, *what)
        if name not in self.drawn:
            try:
                self.drawn[name] = (True, make())
            except BuildError as error:
                self.drawn[name] = (False, error)
        made, result = self.drawn[name]
        if not made:
            raise result
        return cast(T, result)  # what `make` made under this name

    def remembered(self, what: tuple[Any, ...]) -> Any:
        """What `once(what, …)` made in the language spoken now, if it made it (else None)."""
        made, result = self.drawn.get((current().code, *what), (False, None))
        return result if made else None

    def measured(self, what: tuple[Any, ...], component: AnyComponent, measure: Callable[[], T]) -> T:
        """`measure()` — a measurement of `component`, as plain numbers, in the language spoken
        now: the page count of a booklet, the heights of an aid's blocks — remembered in the
        `measures` cache (the user's, `pnp.sheets.MEASURES`) under the component's inputs in this
        language, its catalog's digest, the print settings and pnp's code. A kit's geometry
        is measured in every language of its game, and the other languages' measurements are
        all it needs of them: once a language's are known, a kit is its own language's work."""
        if self.measures is None:
            return self.once(("measured", *what), measure)
        name = self.once(("measure key", component.id), lambda: self._inputs(component))
        return self.once(("measured", *what), lambda: self.measures.recall(  # type: ignore[union-attr]  # checked above
            self.game_id, "measured", key(name, what), measure))

    def remember(self, what: tuple[Any, ...], component: AnyComponent, value: Any) -> None:
        """A measurement made anyway (a kit's own booklet flowed), for the kits of other
        languages that would otherwise make it (`measured`)."""
        if self.measures is not None:
            name = self.once(("measure key", component.id), lambda: self._inputs(component))
            self.measures.put(self.game_id, "measured", key(name, what), value)
            self.drawn[(current().code, "measured") + what] = (True, value)

    def _inputs(self, component: AnyComponent) -> str:
        """What a measurement of `component` in the language spoken now depends on."""
        from pnp.spec.faces import printed_inputs
        from pnp.spec.loader import named_images

        art = {file: self.art(file).digest for file in sorted(named_images(self.game)) if file}
        return key(code_version(), self.settings.model_dump(mode="json"), current().code, current().digest, art,
                   printed_inputs(self.game, self.component(component)))

    def component(self, component: Kind) -> Kind:
        """This context's version of a component of any language's game (by its id)."""
        return cast(Kind, self.game.component(component.id))  # an id names the same kind in every language

    def art(self, file: str, bleed: str = "cover") -> Art:
        """An image the spec names (validation has checked it; a file changed since is an error),
        filling the bleed as `bleed` says (`Picture.bleed`)."""
        try:
            art = read_art(self.folder, file)
        except ArtError as error:
            raise BuildError(f"{self.game_id}: {error}") from None
        return replace(art, bleed=bleed) if bleed != art.bleed else art  # type: ignore[arg-type]  # Picture's values

    def fonts(self) -> dict[str, str]:
        """The game's font names (its `fonts` and the bundled ones) → their logical fonts."""
        try:
            return game_fonts(self.folder, self.game)
        except FontError as error:
            raise BuildError(f"{self.game_id}: {error}") from None

    def stock(self, identity: str) -> Stock:
        """What a free layout's elements draw with in this game; `asset` names `identity` on a
        face without an asset."""
        logos = {a.id: self.art(a.image) for a in self.game.assets if a.image}
        return Stock(self.fonts(), self.art, identity, self.icons(), logos, self.settings.ink_saver)

    def logo(self, asset: Asset | None) -> Art | None:
        """The asset's own image, if it has one."""
        return self.art(asset.image) if asset is not None and asset.image else None

    def icons(self) -> dict[str, Icon]:
        """What `:ID:` draws in text: each asset's logo (as wide as it is), or its badge."""
        icons = {}
        for asset in self.game.assets:
            logo = self.logo(asset)
            width = 10.0 * logo.aspect if logo else 10.0
            mark = picture(logo, 0.0, 0.0, width, 10.0) if logo else asset_badge(asset, 5.0, 5.0, 10.0)
            icons[asset.id] = Icon((mark,), width, 10.0)
        return icons

    def params(self) -> Any:
        """The game engine's parameters read from the game (once a language: every table, mark
        and booklet line of every kit asks, and reading them checks the whole spec)."""
        from pnp.rules import engine

        return self.once(("params",), lambda: engine(self.game_id).params(self.game))

    def table(self, name: str) -> Any:
        """A table computed by the game's engine (`tables(params)`), so printed aids and setup
        diagrams never disagree with the referee."""
        from pnp.rules import engine

        found = self.once(("tables",), lambda: engine(self.game_id).tables(self.params()))
        if name not in found:
            raise KeyError(f"{self.game_id} rules provide no table {name!r}")
        return found[name]

    def marks(self, name: str) -> Any:
        """Per-cell notes computed by the game's engine (`marks(params)`) — looked up apart from
        `table`, since a setup diagram's table and its board marks may share a name."""
        from pnp.rules import engine

        found = self.once(("marks",), lambda: engine(self.game_id).marks(self.params()))
        if name not in found:
            raise KeyError(f"{self.game_id} rules provide no marks {name!r}")
        return found[name]



# kind → "module:function" in this package, imported on demand
_GENERATORS = {
    "deck": "cards:deck",
    "tokens": "tokens:tokens",
    "money": "money:money",
    "board": "boards:board",
    "mat": "mats:mat",
    "aid": "aids:aid",
    "form": "forms:form",
    "booklet": "booklet:booklet",
}


def generate(context: Context, component: AnyComponent) -> Output:
    """Draw one component of `context.game` with the print settings — once per language for the
    contexts sharing a memo (`Context.once`): the rules booklet pictures the other components
    in every language, and a build then lays out the same drawings."""
    return context.once(("component", component.id, id(component)), lambda: _generate(context, component))


def pictured(context: Context, component: AnyComponent) -> Output:
    """A component as a booklet pictures it: drawn in the language spoken — or the kit's own
    drawing (`context.counting`) when the booklet is flowed in another language only to count
    its pages: every kit of a game has the same geometry, so its pictures take the same room,
    and the kit need not draw each component in every other language to count them."""
    kit = context.counting
    if kit is None or kit.kit is None:
        return generate(context, component)
    with speaking(kit.kit.language):
        return generate(kit, kit.component(component))


def _generate(context: Context, component: AnyComponent) -> Output:
    module, function = _GENERATORS[component.kind].split(":")
    output: Output = getattr(import_module(f"pnp.components.{module}"), function)(context, component)
    if context.settings.ink_saver:
        from pnp.components.toner import tone

        output = tone(output)
    return output
