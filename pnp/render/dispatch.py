"""One render dispatch: a table from display-list item types to a backend's drawing functions.

Each backend (PDF, SVG) fills a `Dispatch` with its own functions, one per item type of
`pnp.display`, instead of keeping its own `isinstance` ladder: adding an item type is one entry
per backend, and a backend that lacks one fails when its module is imported, not when a page
first holds such an item (reportlab's `Renderer.drawNodeDispatcher` keeps its one dispatch so).
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Mapping, TypeVar, get_args

from pnp.display import Item

ITEM_TYPES: tuple[type, ...] = get_args(Item)  # every kind of display item, in `Item`'s order

Renderer = TypeVar("Renderer")
Drawn = TypeVar("Drawn")


class Dispatch(Generic[Renderer, Drawn]):
    """A backend's drawing function for each item type, called as `dispatch(renderer, item)`.

    The functions take the backend's renderer (its canvas or document and the state it keeps)
    and an item of their type: unbound methods of the renderer's class read naturally here.
    """

    def __init__(self, drawers: Mapping[type, Callable[[Renderer, Any], Drawn]]) -> None:
        missing = [kind.__name__ for kind in ITEM_TYPES if kind not in drawers]
        unknown = [kind.__name__ for kind in drawers if kind not in ITEM_TYPES]
        if missing or unknown:
            raise TypeError(f"a render dispatch lacks {missing} and has no such item types as {unknown}")
        self.drawers = dict(drawers)

    def __call__(self, renderer: Renderer, item: Item) -> Drawn:
        try:
            draw = self.drawers[type(item)]
        except KeyError:
            raise TypeError(f"not a display item: {item!r}") from None
        return draw(renderer, item)
