"""The spec layer: the bundled components.yaml loads; every class of error is located."""

from __future__ import annotations

import re

import pytest

from pnp.errors import SpecError
from pnp.rules import loads_spec
from pnp.spec.faces import deck_pieces, piece_count, token_pieces
from pnp.spec.model import Deck
from spec_text import BUNDLED, ROOT, edit


def errors_of(text: str) -> list[str]:
    """The issues' lines as printed, without the source lines shown under YAML mistakes."""
    with pytest.raises(SpecError) as caught:
        loads_spec(text)
    return [line for line in caught.value.lines() if not line.startswith(" ")]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


# --- the bundled spec ------------------------------------------------------------------------


def test_root_spec_is_the_bundled_spec():
    assert (ROOT / "components.yaml").read_text(encoding="utf-8") == BUNDLED


def test_bundled_spec_loads_with_the_counts_of_the_rules():
    spec = loads_spec(BUNDLED)
    assert list(spec.games) == ["bolsa", "aktsioner", "forex"]
    bolsa, akt, forex = spec.games["bolsa"], spec.games["aktsioner"], spec.games["forex"]
    assert [a.id for a in bolsa.assets] == ["IBE", "SAN", "TEF", "ITX", "FER"]
    assert piece_count(bolsa, bolsa.component("shares")) == 90  # BOLSA-1.7
    assert sum(b.value * b.count for b in bolsa.component("money").bills) == 1000  # BOLSA-1.8
    assert bolsa.tracks["quote"].cells == tuple(range(20)) and bolsa.tracks["quote"].start == 10
    assert piece_count(akt, akt.component("big_cards")) == 20  # AKT-1.4
    assert piece_count(akt, akt.component("small_cards")) == 32  # AKT-1.5
    assert akt.tracks["price"].cells == tuple(range(10, 251, 10))
    assert piece_count(forex, forex.component("contracts")) == 18  # FOREX-1.4
    assert piece_count(forex, forex.component("certificates")) == 56  # FOREX-1.6
    assert piece_count(forex, forex.component("pair_counters")) == 21  # FOREX-1.3
    assert forex.tracks["rate"].cells == (1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 8)


def test_small_cards_pair_numbers_sum_to_ninety():
    akt = loads_spec(BUNDLED).games["aktsioner"]
    for piece in deck_pieces(akt, akt.component("small_cards")):
        number = lambda text: abs(int(text.replace("−", "-")))  # noqa: E731
        assert number(piece.front.value) + number(piece.front.other) == 90


def test_templates_fill_per_asset_and_per_pair():
    spec = loads_spec(BUNDLED)
    bolsa, forex = spec.games["bolsa"], spec.games["forex"]
    quote = token_pieces(bolsa, bolsa.component("tokens"))[0]
    assert (quote.front.value, quote.back.value, quote.front.asset.id) == ("IBE", "+20", "IBE")
    counters = token_pieces(forex, forex.component("pair_counters"))
    assert counters[0].front.title == "GBP⁄EUR" and counters[0].front.asset.id == "EUR"  # a fraction slash
    assert counters[0].back.asset.id == "GBP"
    dividends = deck_pieces(forex, forex.component("dividends"))
    assert [p.data["pays"] for p in dividends] == [0, 2, 2, 2, 3]
    assert dividends[0].front.text == "Pays 0 per certificate"


def test_model_is_immutable():
    spec = loads_spec(BUNDLED)
    from pydantic import ValidationError

    with pytest.raises(ValidationError):  # frozen
        spec.print.paper = "letter"  # type: ignore[misc]
    assert isinstance(spec.games["bolsa"].assets, tuple)


# --- one test per class of error -------------------------------------------------------------


def test_bad_colour_names_file_line_column_and_path():
    text = edit('color: "#d55e00", symbol: square', 'color: "blu", symbol: square')
    line = line_of(text, '"blu"')
    col = text.splitlines()[line - 1].index('"blu"') + 1
    assert errors_of(text) == [
        f'components.yaml:{line}:{col}: games.bolsa.companies[1].color: expected a colour such as "#1f77b4", got "blu"'
    ]


def test_unknown_key_suggests_the_close_one():
    text = edit("  paper: a4 ", "  papr: a4 ")
    assert errors_of(text) == [f'components.yaml:{line_of(text, "papr")}:3: print.papr: unknown field "papr" (did you mean "paper"?)']


def test_unknown_key_inside_a_component_uses_that_kinds_fields():
    text = edit("        cell_mm: 16 ", "        cell_size: 16 ")
    (error,) = errors_of(text)
    assert "games.bolsa.components[0].cell_size" in error and 'did you mean "cell_mm"' in error


def test_wrong_type():
    text = edit("copies: 6", "copies: six")
    (error,) = errors_of(text)
    assert error.startswith(f"components.yaml:{line_of(text, 'copies: six')}:")
    assert 'player_mats' not in error and 'components[2].copies: expected a whole number, got "six"' in error


def test_negative_count_is_out_of_range():
    text = edit("count: 18", "count: -2")
    (error,) = errors_of(text)
    assert error.endswith("games.bolsa.components[3].cards[0].count: must be at least 1, got -2")


def test_missing_required_field():
    text = edit("      - {id: IBE, name: Iberdrola,  color: \"#009e73\", symbol: circle}",
                "      - {id: IBE, name: Iberdrola,  color: \"#009e73\"}")
    (error,) = errors_of(text)
    assert error.endswith('games.bolsa.companies[0]: required field "symbol" is missing')


def test_unknown_kind_suggests_one():
    (error,) = errors_of(edit("kind: mat", "kind: matt"))
    assert error.endswith('games.bolsa.components[2].kind: unknown kind "matt" (did you mean "mat"?)')


def test_duplicate_key_is_rejected_not_overwritten():
    text = edit("  paper: a4 ", "  paper: a4\n  paper: letter ")
    (error,) = errors_of(text)
    assert error == (f"components.yaml:{line_of(text, 'paper: letter')}:3: print.paper: the key 'paper' is given twice "
                     f"in this mapping (first at line {line_of(text, 'paper: a4')}): keep one of them")


def test_duplicate_ids():
    text = edit("{id: SAN, name: Santander", "{id: IBE, name: Santander")
    (error,) = errors_of(text)
    assert error.endswith('games.bolsa.companies[1].id: duplicate id "IBE" (also games.bolsa.companies[0])')


def test_reference_to_unknown_track():
    (error,) = errors_of(edit("track: quote, rows", "track: qoute, rows"))
    assert 'sections[1].track: unknown track "qoute" (did you mean "quote"?)' in error


def test_unknown_asset_in_a_template():
    (error,) = errors_of(edit('front: {asset: "{b.id}"', 'front: {asset: "XXX"'))
    assert "games.forex.components[1].tokens[0].front.asset: unknown asset \"XXX\"" in error


def test_unknown_placeholder():
    (error,) = errors_of(edit('value: "{id}"\n            title: "{name}"', 'value: "{idd}"\n            title: "{name}"'))
    assert "games.bolsa.components[3].cards[0].value: unknown placeholder {idd}" in error


def test_house_rule_value_and_name_are_checked_against_the_rules_module():
    text = edit("      rounds: 5\n", "      rounds: 50\n      roundz: 3\n")
    errors = errors_of(text)
    assert any(e.endswith("games.bolsa.rules.rounds: must be at most 10, got 50 (BOLSA-3.1)") for e in errors)
    assert any('games.bolsa.rules.roundz: unknown option "roundz" (did you mean "rounds"?)' in e for e in errors)


def test_option_set_by_a_track_cannot_be_set_twice():
    (error,) = errors_of(edit("      rounds: 5\n", "      rounds: 5\n      start_quote: 12\n"))
    assert "rules.start_quote: set by tracks.quote.start" in error


def test_track_start_must_be_a_cell():
    (error,) = errors_of(edit("quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 19, start: 25}"))
    assert "games.bolsa.tracks.quote: start 25 is not a cell of the track" in error


def test_unsafe_id_for_a_file_name():
    error, *named_elsewhere = errors_of(edit("- id: quote_board", "- id: ../board"))
    assert "games.bolsa.components[0].id: '../board' cannot be an id" in error
    assert [e.split(": ")[1] for e in named_elsewhere] == ["games.bolsa.components[6].sections[2].setup.board"]


def test_all_errors_are_reported_at_once_in_file_order():
    text = edit("  paper: a4 ", "  papr: a4 ")
    text = edit('color: "#d55e00"', 'color: "red"', text)
    text = edit("count: 18", "count: 0", text)
    errors = errors_of(text)
    assert len(errors) == 3
    lines = [int(e.split(":")[1]) for e in errors]
    assert lines == sorted(lines)


# --- hostile input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "the file is empty"),
        ("print: [a4\n", "not valid YAML"),
        ("a: !!python/object/apply:os.system ['ls']\n", "unsupported YAML tag"),
        ("a: !custom 1\n", "unsupported YAML tag"),
        ("a: &a [*a]\n", "endless recursion"),
        ("- 1\n- 2\n", "expected a mapping"),
        ("a: \x07\n", "not valid YAML"),
    ],
)
def test_hostile_documents_get_a_located_message(text, message):
    (error,) = errors_of(text)
    assert message in error and re.match(r"components\.yaml:\d+:\d+: ", error)


def test_alias_bomb_is_stopped():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    errors = errors_of("\n".join(lines) + "\n")
    assert any("alias bomb" in e for e in errors)


def test_binary_garbage():
    with pytest.raises(SpecError) as caught:
        loads_spec(bytes(range(256)).decode("latin-1"))  # text that is not YAML-safe
    assert caught.value.lines()[0].startswith("components.yaml:")


def test_deck_entries_expand_copies_per_asset():
    bolsa = loads_spec(BUNDLED).games["bolsa"]
    deck = bolsa.component("shares")
    assert isinstance(deck, Deck)
    pieces = deck_pieces(bolsa, deck)
    assert [p.front.value for p in pieces[::18]] == ["IBE", "SAN", "TEF", "ITX", "FER"]


def test_huge_tracks_and_counts_are_refused_not_expanded():
    (error,) = errors_of(edit("quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 19, step: 1.0e-300, start: 10}"))
    assert "games.bolsa.tracks.quote: a track has at most 500 cells" in error
    (error,) = errors_of(edit("count: 18", "count: 1000000000"))
    assert "cards[0].count: must be at most 1,000" in error
