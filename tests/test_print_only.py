"""A game with no rules engine: free `vars` in its templates, a build, and a referee that says
plainly that it cannot check it."""

from __future__ import annotations

import pytest

from pnp.cli import main
from pnp.components import Context, generate
from pnp.components.art import texts
from pnp.errors import SpecError
from pnp.rules import GAMES, loads_spec

DASH = """\
games:
  dash:
    title: Dash
    players: {min: 2, max: 4}
    companies:
      - {id: ORE, name: Ore Mining, color: "#8c564b", symbol: square}
      - {id: SUN, name: Sunrail, color: "#e69f00", symbol: circle}
    tracks:
      price: {from: 1, to: 12, start: 5}
    vars:
      start_cash: 30
      payouts: [1, 2, 4]
    components:
      - id: aid
        kind: aid
        name: Aid
        sections:
          - lines: ["Start with **{vars[start_cash]}** cash; dividends pay {vars[payouts][2]} at most;
                     prices reach {tracks[price].last}."]
      - id: shares
        kind: deck
        name: Shares
        cards:
          - {for_each: asset, count: 3, value: "{id}", title: "{name}", text: "worth {vars[start_cash]}"}
"""


def drawn_texts(text: str, component: str) -> list[str]:
    spec = loads_spec(text)
    game = spec.games["dash"]
    output = generate(Context("dash", game, spec.print), game.component(component))
    drawings = output.drawings if hasattr(output, "drawings") else [p.front for p in output.pieces]
    return [t.text for d in drawings for _, t in texts(d.items)]


def test_vars_reach_aid_lines_and_card_templates_without_a_rules_engine():
    aid = " ".join(drawn_texts(DASH, "aid"))
    assert "30" in aid and "4 at most" in aid and "reach 12" in aid
    card_texts = drawn_texts(DASH, "shares")
    assert card_texts.count("worth 30") == 6
    assert "{vars" not in " ".join(card_texts)


def test_an_unknown_var_is_a_located_error():
    with pytest.raises(SpecError) as caught:
        loads_spec(DASH.replace("**{vars[start_cash]}**", "**{vars[start_money]}**"))
    (issue,) = caught.value.issues
    line = next(n for n, text in enumerate(DASH.splitlines(), 1) if "**{vars" in text)
    assert (issue.line, issue.path) == (line, "games.dash.components[0].sections[0].lines[0]")
    assert "start_money" in issue.message


def test_rules_without_an_engine_point_to_vars():
    with pytest.raises(SpecError) as caught:
        loads_spec(DASH.replace("    vars:\n", "    rules: {start_cash: 30}\n    vars:\n"))
    (issue,) = caught.value.issues
    assert issue.path == "games.dash.rules" and "`vars:`" in issue.message


def write_spec(tmp_path):
    spec = tmp_path / "dash.yaml"
    spec.write_text(DASH, encoding="utf-8")
    return spec


def test_a_print_only_game_builds(tmp_path, capsys):
    spec = write_spec(tmp_path)
    assert main(["build", "--spec", str(spec), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "dash" / "dash-all.pdf").stat().st_size > 5000
    built = sorted(p.name for p in (tmp_path / "out" / "dash").glob("*.pdf"))
    assert built == ["aid.pdf", "dash-all.pdf", "shares.pdf"]


@pytest.mark.parametrize("verb", ["new", "check", "explain"])
def test_the_referee_says_a_print_only_game_has_no_engine_and_names_those_that_do(tmp_path, capsys, verb):
    spec = write_spec(tmp_path)
    record = tmp_path / "game.yaml"
    record.write_text("game: dash\nplayers: [Ana, Ben]\n", encoding="utf-8")
    args = ["new", "dash", "--players", "Ana,Ben"] if verb == "new" else [verb, str(record)]
    assert main(["referee", *args, "--spec", str(spec)]) == 2
    err = capsys.readouterr().err.strip()
    assert "dash is a print-only game" in err and "no rules engine" in err
    assert f"(games with one: {', '.join(GAMES)};" in err and "pnp --engine FILE.py" in err


def test_a_game_the_spec_does_not_have_is_still_unknown(tmp_path, capsys):
    spec = write_spec(tmp_path)
    assert main(["referee", "new", "dahs", "--players", "Ana,Ben", "--spec", str(spec)]) == 2
    assert 'unknown game "dahs"' in capsys.readouterr().err
