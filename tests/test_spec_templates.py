"""Templates that reach nothing but the spec (issue #25): a placeholder walks only into the
spec's plain values, a format spec only asks for what a card needs, and no environment
variable, file or object of the program can reach a printed face."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.cli import main
from pnp.errors import SpecError
from pnp.rules import loads_spec
from pnp.spec.templates import MAX_FILLED, Record, TemplateError, Unchecked, Values, fill, plain

SECRET = "pnp-secret-7f3a9c21"  # set as an environment variable while a spec is built

SPEC = """version: 1
games:
  dash:
    title: Dash
    players: {min: 2, max: 4}
    companies:
      - {id: AA, name: Alpha, color: "#0072b2", symbol: circle}
      - {id: BB, name: Beta, color: "#d55e00", symbol: square}
    tracks:
      price: {from: 1, to: 12, start: 3}
    vars: {cash: 1250.5, home: "HOME"}
    components:
      - id: shares
        kind: deck
        name: Shares
        cards:
          - {for_each: asset, count: 2, value: "{id}", title: "TITLE", text: "{index:03d} of {counts[shares]}",
             data: {pays: 2}}
      - id: aid
        kind: aid
        name: Aid
        sections:
          - lines: ["Prices {tracks[price].first}–{tracks[price].last:>3}; cash {vars[cash]:,.2f}",
                    "Cards {components[shares].value: / }; pays {components[shares].pays}; {game.players.max} seats"]
"""


def spec_with(title: str) -> str:
    return SPEC.replace('"TITLE"', '"' + title.replace('"', '\\"') + '"')


def answer(text: str, tmp_path: Path, *command: str) -> tuple[int, str]:
    path = tmp_path / "components.yaml"
    path.write_text(text, encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main([*(command or ("validate",)), "--spec", str(path), *(("--out", str(tmp_path / "out"), "-q")
                                                                        if command == ("build",) else ())])
    return code, err.getvalue()


ESCAPES = [
    "{asset.__class__.__init__.__globals__[sys].modules[os].environ[PNP_TEMPLATE_SECRET]}",  # attribute walks
    "{name.__class__.__mro__}", "{game.__dict__}", "{asset._source}", "{counts.__class__}", "{icon.__len__}",
    "{game.model_config}", "{game.model_fields}", "{asset.model_dump}", "{name.upper}", "{index.real}",  # no methods
    "{tracks[price].__class__}", "{components[shares]._game}", "{game.components[0].model_post_init}",
    "{name:>900000000}", "{name:>5000000}", "{index:0100000000}", "{index:.999999999}",  # format-spec bombs
    "{index:c}", "{index:x}", "{index:#d}", "{index:n}", "{index:e}", "{name:" + "9" * 5000 + "}", "{index:d}{" * 300,
    "{name:{id}}", "{name:{{}}}", "{a[{id}]}", "{{{name",  # nested braces
    "{name!r}", "{0}", "{}", "{", "}",  # conversions, numbered fields, lone braces
    "{game}", "{tracks}", "{counts}",  # whole groups
]


@pytest.mark.parametrize("title", ESCAPES)
def test_each_escape_is_a_located_error(title, tmp_path):
    code, err = answer(spec_with(title), tmp_path)
    assert code == 2, err
    assert err.startswith(f"{tmp_path / 'components.yaml'}:") and "games.dash.components[0].cards[0].title" in err
    assert len(err) < 1000 and SECRET not in err


def test_no_face_of_a_build_holds_an_environment_variable(tmp_path, monkeypatch):
    """A spec that tries to print the environment is refused; the spec that builds prints its
    own values only: no file of the build holds the variable's value."""
    monkeypatch.setenv("PNP_TEMPLATE_SECRET", SECRET)
    code, err = answer(spec_with(ESCAPES[0]), tmp_path, "build")
    assert code == 2 and not (tmp_path / "out").exists()
    code, err = answer(spec_with("{name} {vars[home]}"), tmp_path, "build")
    assert code == 0, err
    files = [path for path in (tmp_path / "out").rglob("*") if path.is_file()]
    assert any(path.suffix == ".pdf" for path in files)
    for path in files:
        assert SECRET.encode() not in path.read_bytes(), path
        if path.suffix == ".pdf":
            text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True).stdout
            assert SECRET not in text and os.environ.get("HOME", "/nonexistent") not in text, path
    aid = subprocess.run(["pdftotext", str(tmp_path / "out" / "dash" / "aid.pdf"), "-"], capture_output=True,
                         text=True).stdout
    assert "Prices 1– 12; cash 1,250.50" in aid and "Cards AA / BB; pays 2, 2; 4 seats" in aid


# --- what a template may do -------------------------------------------------------------------


def game():
    return loads_spec(SPEC).games["dash"]


def test_fields_by_name_and_index_format_as_a_card_needs():
    from pnp.spec.faces import game_context

    context = {**game_context(game()), "name": "Alpha", "price": 7, "rate": 1.25, "cash": 1234567}
    assert fill("{name:>8}|{name:*^9}|{price:03d}|{price:+}|{rate:.1f}|{cash:,}|{cash:_}|{rate:%}", context, "t") == \
        "   Alpha|**Alpha**|007|+7|1.2|1,234,567|1_234_567|125.000000%"
    assert fill("{tracks[price].last} {tracks[price].cells[2]} {game.players.min}", context, "t") == "12 3 2"
    assert fill("{components[shares].pays: + }|{components[shares].count}", context, "t") == "2 + 2|4"
    assert fill("{{literal}} {vars[cash]}", context, "t") == "{literal} 1250.5"


def test_the_context_holds_plain_values_only():
    from pnp.spec.faces import game_context

    for name, value in game_context(game()).items():
        assert isinstance(value, (str, Record)), name
    record = plain(game())
    assert isinstance(record["players"], Record) and isinstance(record["companies"], Values)
    assert set(record) >= {"title", "players", "tracks", "components", "assets"} and "model_config" not in record
    with pytest.raises(KeyError):
        record["__class__"]
    with pytest.raises(TypeError):
        plain(os)  # a module is no value of the spec


def test_a_fill_is_bounded():
    with pytest.raises(TemplateError, match="more than 4,000 characters"):
        fill("{x:>100}" * (MAX_FILLED // 100 + 1), {"x": "a"}, "text")
    with pytest.raises(TemplateError, match="separator"):
        fill("{x:" + "-" * 11 + "}", {"x": (1, 2)}, "text")


def test_engine_parameters_are_checked_later_but_never_walked_into():
    assert fill("{params.price_max:,} {params.anything[3]}", {"params": Unchecked()}, "lines") == "0 0"
    with pytest.raises(TemplateError):
        fill("{params.__class__}", {"params": Unchecked()}, "lines")


def test_a_booklet_line_is_a_template_checked_by_validate():
    from spec_text import edit

    with pytest.raises(SpecError) as caught:
        loads_spec(edit("BOLSA-1.7 {counts[shares]:plural", "BOLSA-1.7 {counts[sharez]:plural"))  # as the English source words it
    (line,) = [line for line in caught.value.lines() if not line.startswith(" ")]
    assert "games.bolsa.components[6].sections[5].lines[5]" in line and 'did you mean "shares"?' in line


def test_dataclass_parameters_are_read_by_field_and_property():
    """The booklet adds an engine's parameters (a dataclass) to the context: its fields and
    public properties are read, nothing else."""
    from pnp.rules import engine

    params = engine("aktsioner").params(loads_spec(__import__("spec_text").BUNDLED).games["aktsioner"])
    context = {"params": params}
    assert fill("{params.price_min}–{params.price_max} {params.big}+{params.small}", context, "lines") == "10–250 3+5"
    for walk in ("{params.deck_size}", "{params.__class__}", "{params.cards.__len__}"):
        with pytest.raises(TemplateError):
            fill(walk, context, "lines")


def test_the_command_line_refuses_an_escape_in_a_fresh_process(tmp_path):
    path = tmp_path / "components.yaml"
    path.write_text(spec_with(ESCAPES[0]), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pnp", "validate", str(path)], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[1], env={**os.environ, "PNP_TEMPLATE_SECRET": SECRET})
    assert result.returncode == 2 and SECRET not in result.stdout + result.stderr


def test_a_named_format_is_called_for_a_number_and_bounded(monkeypatch):
    """How the translations' plural forms plug in (`{rules[rounds]:plural:# round|# rounds}`)."""
    from pnp.spec import templates

    monkeypatch.setitem(templates.NAMED_FORMATS, "plural", lambda n, forms: forms.split("|")[n != 1].replace("#", str(n)))
    assert fill("{n:plural:# round|# rounds}, {m:plural:# round|# rounds}", {"n": 1, "m": 5}, "t") == "1 round, 5 rounds"
    for template, context in (("{s:plural:# a|# b}", {"s": "x"}), ("{n:plural:" + "x" * 201 + "}", {"n": 1}),
                              ("{n:nope:x}", {"n": 1})):
        with pytest.raises(TemplateError):
            fill(template, context, "t")


@pytest.mark.parametrize("template", ["{game.__dict__}", "{name:>900000000}", "{nope}", "{id!r}"])
def test_a_money_currency_is_a_template_checked_by_validate(template, tmp_path):
    """Bills print their currency from a template of their own, per asset (the slow lane's find:
    it was filled only when laid out, and an escape there was an internal error)."""
    text = SPEC + f'''      - id: money
        kind: money
        name: Money
        for_each: asset
        currency: "{template}"
        bills: [{{value: 1, count: 4, color: "#7f7f7f"}}]
'''
    code, err = answer(text, tmp_path)
    assert code == 2 and "games.dash.components[2].currency: " in err and err.startswith(str(tmp_path)), err
