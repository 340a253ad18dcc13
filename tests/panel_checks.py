"""What the panel tests (boards, mats, aids, forms) share: the bundled spec, contexts, and
measurements taken from display lists — text boxes, rectangles, text inside a rectangle."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.components import Context, Panels, generate
from pnp.components.art import walk
from pnp.display import Drawing, Matrix, Rect, Text, apply
from pnp.fonts import MM_PER_PT, font
from pnp.i18n import speaking
from pnp.layout.text import text_width
from pnp.spec.translation import kit
from spec_text import BUNDLED, ROOT, edit, spec_of  # noqa: F401 (edit is re-exported to the panel tests)

SPEC = spec_of()
BUNDLED_FOLDER = ROOT / "pnp" / "data"  # the bundled catalogs


def panels(game_id: str, component_id: str, spec_text: str | None = None, **settings) -> Panels:
    """The component drawn in the game's default kit (bolsa in Spanish, aktsioner in Russian)."""
    spec = spec_of(spec_text) if spec_text else SPEC
    game = spec.games[game_id]
    made = kit(game_id, game, game.language, BUNDLED_FOLDER)
    context = Context(game_id, made.game, spec.print.model_copy(update=settings), kit=made)
    with speaking(made.language):
        return generate(context, made.game.component(component_id))


@dataclass(frozen=True)
class Placed:
    """A text item where it lands on the drawing: its string, size, font and box (mm)."""

    text: str
    size: float
    font: str
    x0: float
    y0: float
    x1: float
    y1: float
    baseline: float

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2


def texts(drawing: Drawing) -> list[Placed]:
    """Every text item with its measured box (advance width × ascent + descent)."""
    found = []
    for matrix, item in walk(drawing.items):
        if isinstance(item, Text):
            found.append(_placed(matrix, item))
    return found


def _placed(matrix: Matrix, item: Text) -> Placed:
    width = text_width(item.text, item.font, item.size)
    face = font(item.font)
    left = item.x - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
    top, bottom = item.y - face.ascent * item.size * MM_PER_PT, item.y + face.descent * item.size * MM_PER_PT
    corners = [apply(matrix, p) for p in ((left, top), (left + width, bottom))]
    (x0, y0), (x1, y1) = corners
    _, baseline = apply(matrix, (item.x, item.y))
    return Placed(item.text, item.size, item.font, min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), baseline)


def rects(drawing: Drawing) -> list[Rect]:
    """Every rectangle, moved to drawing coordinates (panels only translate)."""
    found = []
    for matrix, item in walk(drawing.items):
        if isinstance(item, Rect):
            x, y = apply(matrix, (item.x, item.y))
            found.append(Rect(x, y, item.w, item.h, item.style, item.radius))
    return found


def inside(text: Placed, rect: Rect, tolerance: float = 0.01) -> bool:
    return (rect.x - tolerance <= text.x0 and text.x1 <= rect.x + rect.w + tolerance
            and rect.y - tolerance <= text.y0 and text.y1 <= rect.y + rect.h + tolerance)


def texts_in(drawing_texts: list[Placed], rect: Rect) -> list[str]:
    return [t.text for t in drawing_texts if inside(t, rect)]


def lines_of_text(found: list[Placed]) -> list[list[str]]:
    """Texts grouped into lines by baseline (top to bottom), each line left to right."""
    lines: dict[float, list[Placed]] = {}
    for t in found:
        lines.setdefault(round(t.baseline, 1), []).append(t)
    return [[t.text for t in sorted(line, key=lambda t: t.x0)] for _, line in sorted(lines.items())]


def assert_legible(drawing: Drawing, what: str) -> None:
    """Every text is at least 6 pt and lies wholly inside the drawing."""
    found = texts(drawing)
    assert found, f"{what}: no text at all"
    for t in found:
        assert t.size >= 6.0, f"{what}: {t.text!r} at {t.size} pt"
        assert -0.01 <= t.x0 and t.x1 <= drawing.width + 0.01, f"{what}: {t.text!r} sticks out sideways"
        assert -0.01 <= t.y0 and t.y1 <= drawing.height + 0.01, f"{what}: {t.text!r} sticks out vertically"
