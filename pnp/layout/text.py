"""Text in a box, fitted from real font metrics: wrap, shrink, or fail by name.

Generators never guess how much text fits. They hand a box (mm, y down) and a preferred size
(pt) to `fit_text`, which wraps at spaces, shrinks in 0.5 pt steps down to `min_size` until the
text fits in both width and height, and returns a `Group` of `Text` lines ready for any
backend. If nothing fits, the build stops with a `BuildError` naming the component and the
text — a printed card never clips silently. A character the font lacks is an error too, never a
blank box.

Markup is deliberately tiny: `**bold**` switches to the bold font for a run (player aids bold
the numbers that matter) and `\\n` forces a line break. Spaces are the break points; a word too
long for the box may also break after "·", "/" or "—". Runs of spaces collapse to one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from pnp.display import Group, Text
from pnp.errors import BuildError
from pnp.render import fonts
from pnp.render.fonts import MM_PER_PT

SECONDARY_BREAKS = "·/—"  # a word wider than its box may break after these
SIZE_STEP = 0.5  # pt
_EPSILON = 1e-9  # mm: measured widths are sums of floats


@dataclass(frozen=True)
class Run:
    """A stretch of one line drawn in one font."""

    text: str
    font: str


@dataclass(frozen=True)
class Fitted:
    """The outcome of fitting: the size chosen and the lines, each a tuple of runs."""

    size: float  # pt
    lines: tuple[tuple[Run, ...], ...]
    leading: float

    def line_width(self, index: int) -> float:
        """Width in mm of line `index`."""
        return sum(_font_width(run, self.size) for run in self.lines[index])

    @property
    def height(self) -> float:
        """Height in mm from the first line's ascent to the last line's descent."""
        return block_height(len(self.lines), self.size, self.leading)


@dataclass(frozen=True)
class _Token:
    """A word (or a piece of one) and the gap before it, measured in em."""

    pieces: tuple[Run, ...]
    gap: Run | None  # the space before the word (None at a paragraph's start; "" after · / —)
    width: float  # em
    gap_width: float  # em


def fit_text(
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    size: float,
    min_size: float = 6.0,
    font: str = "regular",
    color: str = "#000000",
    align: str = "center",
    valign: str = "middle",
    leading: float = 1.2,
    what: str = "",
) -> Group:
    """`text` wrapped and shrunk to fit the box (x, y, w, h) in mm, as a group of lines.

    `size` is the preferred size and `min_size` the smallest acceptable one, in points;
    `leading` is the baseline distance as a multiple of the size. `what` names the component
    in errors (e.g. "bolsa/shares card 3"). Raises `BuildError` if the text cannot fit even at
    `min_size` or uses a character the font cannot draw.
    """
    if align not in ("left", "center", "right"):
        raise ValueError(f"align must be left, center or right, not {align!r}")
    if valign not in ("top", "middle", "bottom"):
        raise ValueError(f"valign must be top, middle or bottom, not {valign!r}")
    fitted = fit_lines(
        text, w, h, size=size, min_size=min_size, font=font, leading=leading, what=what
    )
    return Group(tuple(_place(fitted, x, y, w, h, color, align, valign)))


def fit_lines(
    text: str,
    w: float,
    h: float,
    *,
    size: float,
    min_size: float = 6.0,
    font: str = "regular",
    leading: float = 1.2,
    what: str = "",
) -> Fitted:
    """The largest size (from `size` down to `min_size` in 0.5 pt steps) at which `text` fits
    a w × h mm box, with its lines; for generators that want one size across many boxes."""
    if not text.strip():
        return Fitted(size, (), leading)
    paragraphs = _parse(text, font)
    for run in (run for paragraph in paragraphs for run in paragraph):
        missing = fonts.missing_glyphs(run.text, run.font)
        if missing:
            raise fonts.missing_glyph_error(text, missing, run.font, what)
    tokens = [_tokens(paragraph) for paragraph in paragraphs]
    for candidate in _sizes(size, min_size):
        lines = _wrap_all(tokens, w / (candidate * MM_PER_PT))
        if lines is not None:
            if block_height(len(lines), candidate, leading) <= h + _EPSILON:
                return Fitted(candidate, lines, leading)
    raise BuildError(_not_fitting(text, w, h, min(size, min_size), tokens, what))


def text_width(text: str, font: str = "regular", size: float = 10.0) -> float:
    """Width in mm of `text` (its widest line; `**bold**` runs measured in bold) at `size` pt."""
    return max(
        sum(_font_width(run, size) for run in paragraph) for paragraph in _parse(text, font)
    )


def line_height(size: float, leading: float = 1.2) -> float:
    """Distance in mm between two baselines at `size` pt with `leading`."""
    return size * leading * MM_PER_PT


def block_height(lines: int, size: float, leading: float = 1.2) -> float:
    """Height in mm of `lines` lines, from the first line's ascent to the last one's descent."""
    if lines == 0:
        return 0.0
    ascent, descent = _vertical_metrics()
    return (ascent + descent) * size * MM_PER_PT + (lines - 1) * line_height(size, leading)


# --- parsing -------------------------------------------------------------------------------


def _parse(text: str, base_font: str) -> list[list[Run]]:
    """Paragraphs (split at "\\n"), each a list of runs; `**` toggles bold, an unmatched
    trailing `**` stays literal."""
    parts = text.split("**")
    if len(parts) % 2 == 0:  # an odd number of markers: the last one has no partner
        parts[-2:] = ["**".join(parts[-2:])]
    paragraphs: list[list[Run]] = [[]]
    for index, part in enumerate(parts):
        run_font = "bold" if index % 2 else base_font
        for number, line in enumerate(part.split("\n")):
            if number:
                paragraphs.append([])
            if line:
                paragraphs[-1].append(Run(line, run_font))
    return paragraphs


def _tokens(paragraph: list[Run]) -> list[_Token]:
    """The words of a paragraph, each with the space before it."""
    tokens: list[_Token] = []
    pieces: list[Run] = []
    gap: Run | None = None
    pending_gap: Run | None = None

    def finish() -> None:
        nonlocal pieces, gap
        if pieces:
            tokens.append(_token(tuple(pieces), gap if tokens else None))
            pieces, gap = [], None

    for run in paragraph:
        for number, chunk in enumerate(run.text.split(" ")):
            if number:  # a space came before this chunk
                finish()
                pending_gap = Run(" ", run.font)
            if chunk:
                if not pieces:
                    gap = pending_gap
                pieces.append(Run(chunk, run.font))
    finish()
    return tokens


def _token(pieces: tuple[Run, ...], gap: Run | None) -> _Token:
    width = sum(_font_width(piece, 1.0) for piece in pieces) / MM_PER_PT
    gap_width = _font_width(gap, 1.0) / MM_PER_PT if gap else 0.0
    return _Token(pieces, gap, width, gap_width)


def _fragments(token: _Token) -> list[_Token]:
    """A word split after each secondary break character, the first piece keeping the gap."""
    fragments: list[_Token] = []
    current: list[Run] = []
    for piece in token.pieces:
        start = 0
        for index, char in enumerate(piece.text):
            if char in SECONDARY_BREAKS and index + 1 < len(piece.text):
                current.append(Run(piece.text[start : index + 1], piece.font))
                start = index + 1
                gap = token.gap if not fragments else Run("", piece.font)
                fragments.append(_token(tuple(current), gap))
                current = []
        if start < len(piece.text):
            current.append(Run(piece.text[start:], piece.font))
    if current:
        gap = token.gap if not fragments else Run("", current[0].font)
        fragments.append(_token(tuple(current), gap))
    return fragments


# --- wrapping ------------------------------------------------------------------------------


def _sizes(size: float, min_size: float) -> Iterator[float]:
    """size, size − 0.5, … down to min_size (which is always tried last)."""
    candidate = size
    while candidate > min_size + _EPSILON:
        yield candidate
        candidate -= SIZE_STEP
    yield min(size, min_size) if candidate < min_size - _EPSILON else candidate


def _wrap_all(
    paragraphs: list[list[_Token]], width_em: float
) -> tuple[tuple[Run, ...], ...] | None:
    """Every paragraph wrapped greedily to `width_em`, or None if some word cannot fit."""
    lines: list[tuple[Run, ...]] = []
    for tokens in paragraphs:
        wrapped = _wrap(tokens, width_em)
        if wrapped is None:
            return None
        lines.extend(wrapped)
    return tuple(lines)


def _wrap(tokens: list[_Token], width_em: float) -> list[tuple[Run, ...]] | None:
    limit = width_em + _EPSILON
    expanded: list[_Token] = []
    for token in tokens:
        expanded.extend(_fragments(token) if token.width > limit else [token])
    lines: list[list[_Token]] = []
    used = 0.0
    for token in expanded:
        if token.width > limit:
            return None
        if lines and used + token.gap_width + token.width <= limit:
            lines[-1].append(token)
            used += token.gap_width + token.width
        else:
            lines.append([token])
            used = token.width
    return [_merge(line) for line in lines] or [()]


def _merge(line: list[_Token]) -> tuple[Run, ...]:
    """A line's runs with each word's gap put back (but not the first's) and same-font
    neighbours joined, so a backend draws one text item per font change."""
    runs: list[Run] = []
    for index, token in enumerate(line):
        for run in ((token.gap,) if index and token.gap else ()) + token.pieces:
            if runs and runs[-1].font == run.font:
                runs[-1] = Run(runs[-1].text + run.text, run.font)
            elif run.text:
                runs.append(run)
    return tuple(runs)


# --- placing -------------------------------------------------------------------------------


def _place(
    fitted: Fitted, x: float, y: float, w: float, h: float, color: str, align: str, valign: str
) -> Iterator[Text]:
    size = fitted.size
    step = line_height(size, fitted.leading)
    slack = h - fitted.height
    top = y + {"top": 0.0, "middle": slack / 2, "bottom": slack}[valign]
    baseline = top + _vertical_metrics()[0] * size * MM_PER_PT
    for index, line in enumerate(fitted.lines):
        line_y = baseline + index * step
        if len(line) == 1:  # one run: let the backend anchor it, exact even with other metrics
            anchor, anchor_x = {"left": ("start", x), "center": ("middle", x + w / 2),
                                "right": ("end", x + w)}[align]
            yield Text(anchor_x, line_y, line[0].text, size, line[0].font, color, anchor)
            continue
        width = fitted.line_width(index)
        run_x = x + {"left": 0.0, "center": (w - width) / 2, "right": w - width}[align]
        for run in line:
            yield Text(run_x, line_y, run.text, size, run.font, color, "start")
            run_x += _font_width(run, size)


def _font_width(run: Run, size: float) -> float:
    return fonts.font(run.font).width(run.text, size)


def _vertical_metrics() -> tuple[float, float]:
    """(ascent, descent) in em bounding every bundled face, so a block mixing regular and bold
    is measured by its tallest glyphs."""
    faces = [fonts.font(name) for name in fonts.FONT_FILES]
    return max(face.ascent for face in faces), max(face.descent for face in faces)


def _not_fitting(
    text: str, w: float, h: float, size: float, tokens: list[list[_Token]], what: str
) -> str:
    width_em = w / (size * MM_PER_PT)
    too_wide = [
        "".join(piece.text for piece in token.pieces)
        for paragraph in tokens
        for token in paragraph
        if any(fragment.width > width_em + _EPSILON for fragment in _fragments(token))
    ]
    reason = f"the word {too_wide[0]!r} is wider than the box" if too_wide else "too many lines"
    where = f"{what}: " if what else ""
    return f"{where}text {text!r} does not fit in {w:g} × {h:g} mm even at {size:g} pt ({reason})"
