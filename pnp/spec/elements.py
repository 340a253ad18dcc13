"""Where a spec's free layouts are written: every element a deck or tokens component places, the
fonts its faces name, and where the elements drawing one face of an entry come from — what
validation (`pnp.spec.bounds`, `pnp.spec.typefaces`, the loader's images) and the generators'
errors locate by.
"""

from __future__ import annotations

from typing import Iterator

from pnp.spec.model import AnyComponent, Deck, Element, Face, Tokens
from pnp.spec.source import PathKey


def _card_faces(deck: Deck) -> list[tuple[PathKey, Face]]:
    """Each card entry's face, and the face of its own back where it has one, with its path."""
    faces: list[tuple[PathKey, Face]] = []
    for i, entry in enumerate(deck.cards):
        faces.append((("cards", i), entry))
        if entry.back is not None and entry.back.face is not None:
            faces.append((("cards", i, "back", "face"), entry.back.face))
    return faces


def placed_elements(component: AnyComponent) -> Iterator[tuple[PathKey, Element]]:
    """Every element a deck's or tokens' free layouts place, with its path in the component: the
    deck's, each card entry's, each card's own back face's, each token face's."""
    faces: list[tuple[PathKey, Face]] = []
    if isinstance(component, Deck):
        yield from ((("elements", j), element) for j, element in enumerate(component.elements))
        faces = _card_faces(component)
    elif isinstance(component, Tokens):
        faces = [(("tokens", i, side), getattr(entry, side)) for i, entry in enumerate(component.tokens)
                 for side in ("front", "back") if getattr(entry, side) is not None]
    for path, face in faces:
        yield from ((path + ("elements", j), element) for j, element in enumerate(face.elements))


def named_fonts(component: AnyComponent) -> list[tuple[PathKey, str]]:
    """Each font a component names by name, with the path of the field naming it: its
    elements' and a deck's card layout's."""
    named = [(path + ("font",), element.font) for path, element in placed_elements(component) if element.font]
    if isinstance(component, Deck) and component.card_layout.font:
        named.append((("layout", "font"), component.card_layout.font))
    return named


def elements_at(component: Deck | Tokens, entry: int, side: str) -> PathKey:
    """Where the elements that draw one face of an entry ("front" or "back") are written, inside
    the component: on the face itself, or — a free deck's, for a face without its own — on the
    deck (the empty path)."""
    if isinstance(component, Tokens):
        return ("tokens", entry, side)
    card = component.cards[entry]
    face = card if side == "front" else card.back.face if card.back is not None else None
    if face is None or not face.elements:
        return ()
    return ("cards", entry) if side == "front" else ("cards", entry, "back", "face")
