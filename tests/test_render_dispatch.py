"""One render dispatch (issue 46): the PDF and SVG backends each fill one table from display-list
item types to their drawing functions, and each table covers every item type of `pnp.display`."""

from __future__ import annotations

import inspect
import typing

import pytest

from pnp import display
from pnp.display import Page, Rect
from pnp.render import pdf, svg
from pnp.render.dispatch import ITEM_TYPES, Dispatch

TABLES = {"pdf": pdf._DRAW, "svg": svg._ELEMENT}


def test_the_item_types_are_what_a_page_and_a_group_hold() -> None:
    for holder in (display.Page, display.Group):
        items = typing.get_type_hints(holder, vars(display))["items"]  # tuple[Item, ...]
        assert set(typing.get_args(typing.get_args(items)[0])) == set(ITEM_TYPES), holder
    assert len(ITEM_TYPES) == 7


@pytest.mark.parametrize("backend", sorted(TABLES))
def test_each_backend_draws_every_item_type_with_a_function_for_that_type(backend: str) -> None:
    drawers = TABLES[backend].drawers
    assert set(drawers) == set(ITEM_TYPES)
    for kind, draw in drawers.items():  # a table wired wrong (a Rect drawn as a Line) is caught here
        item_parameter = list(inspect.signature(draw).parameters.values())[1]
        assert item_parameter.annotation == kind.__name__, (backend, kind, draw)


def test_a_dispatch_lacking_an_item_type_fails_when_it_is_made() -> None:
    complete = dict(pdf._DRAW.drawers)
    del complete[display.Circle]
    with pytest.raises(TypeError, match=r"lacks \['Circle'\]"):
        Dispatch(complete)
    with pytest.raises(TypeError, match=r"no such item types as \['Page'\]"):
        Dispatch({**pdf._DRAW.drawers, Page: pdf._Painter.rect})


@pytest.mark.parametrize("backend", sorted(TABLES))
def test_a_thing_not_a_display_item_is_refused_by_name(backend: str) -> None:
    page = Page(100.0, 100.0, (Rect(1, 1, 5, 5), "a stray string"))  # type: ignore[arg-type]
    render = {"pdf": lambda: pdf.pdf_bytes([page]), "svg": lambda: svg.svg_bytes(page)}[backend]
    with pytest.raises(TypeError, match="not a display item: 'a stray string'"):
        render()
