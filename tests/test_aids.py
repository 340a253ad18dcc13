"""Player aids, measured from their display lists: one page each, headings with English
subtitles, the numbers that matter in bold, and the penalty table equal both to what the
Aktsioner engine computes and to the seed's table AKT-7.6."""

from __future__ import annotations

from statistics import mode

import pytest

from panel_checks import SPEC, assert_legible, edit, lines_of_text, panels, texts
from pnp.errors import BuildError
from pnp.layout.sheet import content_size
from pnp.rules import engine, loads_spec
from spec_text import ROOT, spec_of

# AKT-7.6 as the seed prints it: rows = decrease, columns = old price 10…60, "—" = no zeroing
SEED_PENALTY = [
    ["10", "10", "—", "—", "—", "—", "—"],
    ["20", "20", "10", "—", "—", "—", "—"],
    ["30", "30", "20", "10", "—", "—", "—"],
    ["40", "40", "30", "20", "10", "—", "—"],
    ["50", "50", "40", "30", "20", "10", "—"],
    ["60", "60", "50", "40", "30", "20", "10"],
]


def printed_table(drawing, first_heading):
    """The rows of the table whose header row starts with `first_heading`, as printed."""
    lines = lines_of_text(texts(drawing))
    start = next(i for i, line in enumerate(lines) if line[0] == first_heading)
    return lines[start], lines[start + 1 :]


def _in_russian(work):
    from pnp.i18n import speaking
    from pnp.i18n.catalogs import language

    with speaking(language(ROOT / "pnp" / "data", "aktsioner", "ru")):  # the default kit's language
        return work()


def test_penalty_aid_prints_the_engine_table_which_is_the_seed_table():
    computed = _in_russian(lambda: engine("aktsioner").tables(engine("aktsioner").params(SPEC.games["aktsioner"]))["penalty"])
    (drawing,) = panels("aktsioner", "penalty_aid").drawings
    header, rows = printed_table(drawing, computed.header[0])
    assert header == list(computed.header)
    assert header[1:] == ["10", "20", "30", "40", "50", "60"]
    assert rows[: len(computed.rows)] == [list(row) for row in computed.rows]
    assert rows[:6] == SEED_PENALTY


def test_penalty_aid_follows_the_engine_when_the_price_scale_changes():
    text = edit("price: {from: 10, to: 250, step: 10, start: 100}", "price: {from: 20, to: 400, step: 20, start: 200}")
    game = loads_spec(text).games["aktsioner"]
    computed = _in_russian(lambda: engine("aktsioner").tables(engine("aktsioner").params(game))["penalty"])
    (drawing,) = panels("aktsioner", "penalty_aid", text).drawings
    header, rows = printed_table(drawing, computed.header[0])
    assert header == list(computed.header) and header[1] == "20"
    assert rows[: len(computed.rows)] == [list(row) for row in computed.rows]


@pytest.mark.parametrize("game_id, aid_id", [("bolsa", "player_aid"), ("aktsioner", "penalty_aid"), ("forex", "player_aid")])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_aid_is_one_legible_page(game_id, aid_id, paper):
    drawings = panels(game_id, aid_id, paper=paper).drawings
    w, h = content_size(paper, SPEC.print.margin_mm)
    assert len(drawings) == SPEC.games[game_id].component(aid_id).copies
    for drawing in drawings:
        assert drawing.width <= w + 1e-6 and drawing.height <= h + 1e-6
        assert_legible(drawing, f"{game_id}/{aid_id}")
        assert min(t.size for t in texts(drawing)) >= 6.5  # body text stays comfortably readable


def test_headings_are_in_the_kits_language_and_numbers_that_matter_are_bold():
    (drawing,) = panels("bolsa", "player_aid").drawings
    found = texts(drawing)
    words = [t.text for t in found]
    for heading_text in ("Fases de la ronda", "Subastas y límites"):  # the Spanish kit's, from its catalog
        heading = next(t for t in found if t.text == heading_text)
        assert heading.font == "bold"
    bold = [t.text for t in found if t.font == "bold"]
    assert "0 a 19" in bold and "+20" in bold  # filled from tracks.quote
    assert "Ayuda de juego" in words and "Juego de la Bolsa de Valores" in words
    assert "Round phases" not in words


def test_a_long_aid_is_set_smaller_and_one_too_long_for_a_page_is_an_error():
    line = '              - "**1** S = 0, B = 0: nothing changes."\n'
    (normal,) = panels("bolsa", "player_aid").drawings
    (longer,) = panels("bolsa", "player_aid", edit(line, line * 25)).drawings
    body = lambda drawing: mode(t.size for t in texts(drawing) if t.font == "regular")  # noqa: E731
    assert body(longer) < body(normal)
    with pytest.raises(BuildError, match="bolsa/player_aid"):
        panels("bolsa", "player_aid", edit(line, line * 90))


def test_aid_numbers_follow_the_track_they_describe():
    text = edit("quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 29, start: 10}")
    (drawing,) = panels("bolsa", "player_aid", text).drawings
    bold = [t.text for t in texts(drawing) if t.font == "bold"]
    assert "0 a 29" in bold and "+30" in bold


def test_an_unknown_placeholder_in_an_aid_line_is_a_located_spec_error():
    from pnp.errors import SpecError

    with pytest.raises(SpecError) as caught:
        spec_of(edit("The board runs from **{tracks[quote].first} to", "**{tracks[qoute].first} a"))
    (line,) = caught.value.lines()
    assert "games.bolsa.components[5].sections[2].lines[2]: cannot fill template" in line and "there is no 'qoute'" in line
