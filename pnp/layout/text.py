"""Text in a box, fitted from real font metrics: wrap, shrink, or fail by name.

Generators never guess how much text fits. They hand a box (mm, y down) and a preferred size
(pt) to `fit_text`, which wraps at spaces, shrinks in 0.5 pt steps down to `min_size` until the
text fits in both width and height, and returns a `Group` of `Text` lines ready for any
backend. If nothing fits, the build stops with a `BuildError` naming the component and the
text — a printed card never clips silently. A character the font lacks is an error too, never a
blank box.

Markup is deliberately tiny: `**bold**` switches to the bold font for a run (player aids bold
the numbers that matter), `\\n` forces a line break, and `:NAME:` draws the icon of that name
(an asset's logo or badge, when the generator hands its icons over) at the size of the text.
Spaces are the break points; a word too long for the box may also break after "·", "/" or
"—". Runs of spaces collapse to one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator, Mapping, NamedTuple

from pnp import fonts
from pnp.display import Group, Item, Text, compose, scale, translate
from pnp.errors import BuildError, shorten
from pnp.fonts import MM_PER_PT

SECONDARY_BREAKS = "·/—"  # a word wider than its box may break after these
SIZE_STEP = 0.5  # pt
_EPSILON = 1e-9  # mm: measured widths are sums of floats
ICON_EM = 1.0  # an inline icon's height: the type's size, from just above a capital to just below the baseline
ICON_TOP = 0.9  # em above the baseline where an icon's top sits
ICON_PAD = 0.06  # em of air either side of an icon
ICON_PATTERN = re.compile(r":([A-Za-z0-9][A-Za-z0-9_-]*):")  # an inline icon in a text: `:SA:`
_ICON = ICON_PATTERN


@dataclass(frozen=True)
class Icon:
    """Art set in a line of text at its size: `items` fill a `width` × `height` mm box."""

    items: tuple[Item, ...]
    width: float = 1.0
    height: float = 1.0

    @property
    def advance(self) -> float:
        """Width in em, air included."""
        return ICON_EM * self.width / self.height + 2 * ICON_PAD


@dataclass(frozen=True)
class Run:
    """A stretch of one line drawn in one font, or one icon (its `text` is the `:NAME:` markup)."""

    text: str
    font: str
    icon: Icon | None = None


@dataclass(frozen=True)
class Fitted:
    """The outcome of fitting: the size chosen and the lines, each a tuple of runs."""

    size: float  # pt
    lines: tuple[tuple[Run, ...], ...]
    leading: float
    font: str = "regular"  # the text's own font: its vertical metrics (and its bold's) measure the block

    def line_width(self, index: int) -> float:
        """Width in mm of line `index`."""
        return sum(_font_width(run, self.size) for run in self.lines[index])

    @property
    def height(self) -> float:
        """Height in mm from the first line's ascent to the last line's descent."""
        return block_height(len(self.lines), self.size, self.leading, self.font)


class _Token(NamedTuple):
    """A word (or a piece of one) and the gap before it, measured in em (a tuple: a build makes
    tens of thousands)."""

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
    icons: Mapping[str, Icon] | None = None,
) -> Group:
    """`text` wrapped and shrunk to fit the box (x, y, w, h) in mm, as a group of lines.

    `size` is the preferred size and `min_size` the smallest acceptable one, in points;
    `leading` is the baseline distance as a multiple of the size. `what` names the component
    in errors (e.g. "bolsa/shares card 3"); `icons` are the art `:NAME:` may draw. Raises
    `BuildError` if the text cannot fit even at `min_size` or uses a character the font cannot
    draw.
    """
    if align not in ("left", "center", "right"):
        raise ValueError(f"align must be left, center or right, not {align!r}")
    if valign not in ("top", "middle", "bottom"):
        raise ValueError(f"valign must be top, middle or bottom, not {valign!r}")
    fitted = fit_lines(
        text, w, h, size=size, min_size=min_size, font=font, leading=leading, what=what, icons=icons
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
    icons: Mapping[str, Icon] | None = None,
) -> Fitted:
    """The largest size (from `size` down to `min_size` in 0.5 pt steps) at which `text` fits
    a w × h mm box, with its lines; for generators that want one size across many boxes."""
    if not icons:
        try:
            return _fit_plain(text, w, h, size, min_size, font, leading)
        except BuildError:
            pass  # fitted again below, to say `what` does not fit
    return _fit(text, w, h, size, min_size, font, leading, what, icons)


@lru_cache(maxsize=16384)
def _fit_plain(text: str, w: float, h: float, size: float, min_size: float, font: str, leading: float) -> Fitted:
    """`fit_lines` of text without icons, remembered: a spec's cards and notes fit the same
    words in the same boxes again and again (about half of `pnp validate`'s fits repeat one),
    and `pnp watch` refits at each save the booklets of every kit, whose paragraphs mostly did
    not change (the bundled spec's nine kits fit 4,860 distinct texts: room for a few specs)."""
    return _fit(text, w, h, size, min_size, font, leading, "", None)


def _check_glyphs(text: str, paragraphs: list[list[Run]], what: str) -> None:
    """A BuildError naming the first letters a run's font cannot print (icons are drawn, not
    printed in a font): found before fitting, not as a box that never fits."""
    for run in (run for paragraph in paragraphs for run in paragraph if run.icon is None):
        missing = fonts.missing_glyphs(run.text, run.font)
        if missing:
            raise fonts.missing_glyph_error(text, missing, run.font, what)


def _fit(text: str, w: float, h: float, size: float, min_size: float, font: str, leading: float, what: str,
         icons: Mapping[str, Icon] | None) -> Fitted:
    if not text.strip():
        return Fitted(size, (), leading, font)
    paragraphs = _parse(text, font, icons or {})
    _check_glyphs(text, paragraphs, what)
    tokens = [_tokens(paragraph) for paragraph in paragraphs] if icons else _plain_tokens(text, font)
    for candidate in _sizes(size, min_size):
        lines = _wrap_all(tokens, w / (candidate * MM_PER_PT))
        if lines is not None:
            if block_height(len(lines), candidate, leading, font) <= h + _EPSILON:
                return Fitted(candidate, lines, leading, font)
    raise BuildError(_not_fitting(text, w, h, min(size, min_size), leading, tokens, what, font), text=text)


def fit_name(text: str, x: float, y: float, w: float, h: float, *, size: float, min_size: float = 6.0,
             **style: Any) -> Group:
    """A name fitted as `fit_text` fits it, or else abbreviated (`abbreviations`, longest first)
    before the build fails: "Chipworks" on a mini card's band becomes "Chipw." rather than an error.
    The error, when even the shortest form fails, says how much room the full name lacks."""
    try:
        return fit_text(text, x, y, w, h, size=size, min_size=min_size, **style)
    except BuildError as error:
        full = error
    shortest = text
    for short in abbreviations(text):
        shortest = short
        try:
            return fit_text(short, x, y, w, h, size=size, min_size=min_size, **style)
        except BuildError:
            continue
    if shortest == text:
        raise full
    raise BuildError(f"{full} — and abbreviated, down to {shortest!r}, it still does not fit") from None


def abbreviations(name: str) -> Iterator[str]:
    """Shorter forms of a name, longest first: later words cut to their initial ("Banco
    Santander" → "Banco S."), then the first word cut letter by letter to three ("Chipw.")."""
    words = name.split()
    if not words or "**" in name or "\n" in name:
        return
    for keep in range(len(words) - 1, 0, -1):
        yield " ".join(words[:keep] + [word[0] + "." for word in words[keep:]])
    initials = [word[0] + "." for word in words[1:]]
    for length in range(len(words[0]) - 1, 2, -1):
        yield " ".join([words[0][:length] + ".", *initials])


@lru_cache(maxsize=8192)
def text_width(text: str, font: str = "regular", size: float = 10.0) -> float:
    """Width in mm of `text` (its widest line; `**bold**` runs measured in bold) at `size` pt
    (remembered: a token's layout search measures its few words hundreds of times)."""
    return max(
        sum(_font_width(run, size) for run in paragraph) for paragraph in _parse(text, font)
    )


def line_height(size: float, leading: float = 1.2) -> float:
    """Distance in mm between two baselines at `size` pt with `leading`."""
    return size * leading * MM_PER_PT


def block_height(lines: int, size: float, leading: float = 1.2, font: str = "regular") -> float:
    """Height in mm of `lines` lines, from the first line's ascent to the last one's descent
    (in `font`: a spec's font has its own)."""
    if lines == 0:
        return 0.0
    ascent, descent = _vertical_metrics(font)
    return (ascent + descent) * size * MM_PER_PT + (lines - 1) * line_height(size, leading)


# --- parsing -------------------------------------------------------------------------------


def _parse(text: str, base_font: str, icons: Mapping[str, Icon] | None = None) -> list[list[Run]]:
    """Paragraphs (split at "\\n"), each a list of runs; `**` toggles bold, an unmatched
    trailing `**` stays literal; `:NAME:` is an icon run when `icons` has that name."""
    parts = text.split("**")
    if len(parts) % 2 == 0:  # an odd number of markers: the last one has no partner
        parts[-2:] = ["**".join(parts[-2:])]
    paragraphs: list[list[Run]] = [[]]
    bold = fonts.font(base_font).bold if len(parts) > 1 else base_font
    for index, part in enumerate(parts):
        run_font = bold if index % 2 else base_font
        for number, line in enumerate(part.split("\n")):
            if number:
                paragraphs.append([])
            if line:
                paragraphs[-1].extend(_icon_runs(line, run_font, icons or {}))
    return paragraphs


def _icon_runs(line: str, font: str, icons: Mapping[str, Icon]) -> Iterator[Run]:
    """The line as runs, each `:NAME:` of a known icon a run of its own."""
    start = 0
    for match in _ICON.finditer(line):
        icon = icons.get(match.group(1))
        if icon is None:
            continue
        if match.start() > start:
            yield Run(line[start : match.start()], font)
        yield Run(match.group(0), font, icon)
        start = match.end()
    if start < len(line):
        yield Run(line[start:], font)


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
                pieces.append(Run(chunk, run.font, run.icon))
    finish()
    return tokens


@lru_cache(maxsize=16384)
def _plain_tokens(text: str, font: str) -> list[list[_Token]]:
    """The words of each paragraph of a text without icons, measured (remembered: the same
    text is fitted at every size an aid tries, and in boxes of every size; never changed by
    the caller)."""
    return [_tokens(paragraph) for paragraph in _parse(text, font)]


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
                current.append(Run(piece.text[start : index + 1], piece.font, piece.icon))
                start = index + 1
                gap = token.gap if not fragments else Run("", piece.font)
                fragments.append(_token(tuple(current), gap))
                current = []
        if start < len(piece.text):
            current.append(Run(piece.text[start:], piece.font, piece.icon))
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
            if runs and runs[-1].font == run.font and runs[-1].icon is None and run.icon is None:
                runs[-1] = Run(runs[-1].text + run.text, run.font)
            elif run.text:
                runs.append(run)
    return tuple(runs)


# --- placing -------------------------------------------------------------------------------


def _place(
    fitted: Fitted, x: float, y: float, w: float, h: float, color: str, align: str, valign: str
) -> Iterator[Item]:
    size = fitted.size
    step = line_height(size, fitted.leading)
    slack = h - fitted.height
    top = y + {"top": 0.0, "middle": slack / 2, "bottom": slack}[valign]
    baseline = top + _vertical_metrics(fitted.font)[0] * size * MM_PER_PT
    for index, line in enumerate(fitted.lines):
        line_y = baseline + index * step
        if len(line) == 1 and line[0].icon is None:  # one run: let the backend anchor it, exact even with other metrics
            anchor, anchor_x = {"left": ("start", x), "center": ("middle", x + w / 2),
                                "right": ("end", x + w)}[align]
            yield Text(anchor_x, line_y, line[0].text, size, line[0].font, color, anchor)
            continue
        width = fitted.line_width(index)
        run_x = x + {"left": 0.0, "center": (w - width) / 2, "right": w - width}[align]
        for run in line:
            if run.icon is not None:
                yield _icon(run.icon, run_x, line_y, size)
            else:
                yield Text(run_x, line_y, run.text, size, run.font, color, "start")
            run_x += _font_width(run, size)


def _icon(icon: Icon, x: float, baseline: float, size: float) -> Group:
    """The icon's items scaled to the text size, sitting on the baseline like a capital."""
    em = size * MM_PER_PT
    factor = ICON_EM * em / icon.height
    return Group(icon.items, compose(translate(x + ICON_PAD * em, baseline - ICON_TOP * em), scale(factor)))


def _font_width(run: Run, size: float) -> float:
    if run.icon is not None:
        return run.icon.advance * size * MM_PER_PT
    return fonts.font(run.font).width(run.text, size)


@lru_cache(maxsize=None)
def _vertical_metrics(font: str = "regular") -> tuple[float, float]:
    """(ascent, descent) in em bounding every face a text in `font` may mix — every bundled
    face for a bundled font, a spec's font and its bold otherwise — so a block mixing regular
    and bold is measured by its tallest glyphs."""
    face = fonts.font(font)
    names = (face.name, face.bold) if face.added else tuple(fonts.FONT_FILES)
    faces = [fonts.font(name) for name in names]
    return max(face.ascent for face in faces), max(face.descent for face in faces)


def _not_fitting(
    text: str, w: float, h: float, size: float, leading: float, tokens: list[list[_Token]], what: str,
    font: str = "regular",
) -> str:
    """Why `text` does not fit at `size`, and by how much: the mm a designer has to find."""
    width_em = w / (size * MM_PER_PT)
    widest = max(
        ((fragment.width, "".join(piece.text for piece in token.pieces))
         for paragraph in tokens for token in paragraph for fragment in _fragments(token)),
        default=(0.0, ""),
    )
    if widest[0] > width_em + _EPSILON:
        missing = widest[0] * size * MM_PER_PT - w
        reason = f"the word {widest[1]!r} is {missing:.1f} mm wider than the box"
    else:
        lines = _wrap_all(tokens, width_em) or ()
        needed = block_height(len(lines), size, leading, font)
        reason = f"too many lines: {len(lines)} need {needed:.1f} mm, {needed - h:.1f} mm more than the box has"
    where = f"{what}: " if what else ""
    return f"{where}text {shorten(text)!r} does not fit in {w:g} × {h:g} mm even at {size:g} pt ({reason})"
