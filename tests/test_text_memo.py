"""Text fitting remembers a text's words and its lines at a width (`pnp.layout.text`): what it
gives from memory is what it would work out afresh, icons or not, and a text it cannot set is
refused every time, naming the component that asked."""

from __future__ import annotations

import pytest

from pnp.display import Rect
from pnp.errors import BuildError
from pnp.layout import text
from pnp.layout.text import Icon, fit_lines

TEXTS = ["Each player draws **two** cards — then sells/buys at the quoted price · once",
         "Short", "line one\nline two is rather longer than the first", "  spaced   out  words  "]
BOXES = [(30.0, 20.0), (18.0, 40.0), (60.0, 8.0)]
ICONS = {"coin": Icon((Rect(0, 0, 1, 1),), 1.0, 1.0)}


def afresh(*args, **kwargs):
    text._plain_tokens.cache_clear()
    text._plain_lines.cache_clear()
    text._fit_plain.cache_clear()
    return fit_lines(*args, **kwargs)


@pytest.mark.parametrize("words", TEXTS)
def test_remembered_fits_equal_fresh_ones(words: str) -> None:
    for w, h in BOXES:
        fresh = afresh(words, w, h, size=10, min_size=6)
        for _ in range(2):
            assert fit_lines(words, w, h, size=10, min_size=6) == fresh
        # icons offered but none named: the same lines as without
        assert fit_lines(words, w, h, size=10, min_size=6, icons=ICONS) == fresh


def test_a_text_with_an_icon_is_set_with_it() -> None:
    fitted = fit_lines("pay 5 :coin: now", 40, 10, size=10, icons=ICONS)
    assert any(run.icon is not None for line in fitted.lines for run in line)
    assert fitted == afresh("pay 5 :coin: now", 40, 10, size=10, icons=ICONS)


def test_a_missing_character_is_refused_every_time_with_its_component() -> None:
    for what in ("bolsa/shares card 1", "bolsa/shares card 2"):
        with pytest.raises(BuildError, match=f"{what}.*U\\+6F22"):
            fit_lines("Yen 漢", 40, 10, size=10, what=what)
