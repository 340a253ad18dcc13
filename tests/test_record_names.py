"""One record writer for every game: whatever the players are called, the starter record that
`pnp referee new` writes reads back as the same names (in Unicode's composed form, NFC, as
every record is read) and checks clean."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.cli import main
from pnp.referee import check, reads_record, starter
from pnp.rules import GAMES, load_spec

SPEC = load_spec(None)
NAME = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=10).filter(lambda s: s.strip() == s)


@pytest.mark.parametrize("game", list(GAMES))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_any_unique_names_make_a_starter_that_checks_clean(game, data):
    seats = SPEC.games[game].players
    names = data.draw(st.lists(NAME, min_size=seats.min, max_size=seats.min, unique_by=_nfc), label="players")
    record = reads_record(starter(SPEC, game, names))
    assert list(record.players) == [_nfc(name) for name in names]
    answer = check(record, SPEC)
    assert answer.ok and answer.checked == 0, answer.violation


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)


@pytest.mark.parametrize("game", list(GAMES))
def test_names_yaml_would_misread_survive_the_command_line(game, tmp_path, capsys):
    """The issue's case: `Yes` and `Null` written unquoted came back as true and null."""
    names = ["Yes", "Null", "1", "Ana: B", "#x"][: SPEC.games[game].players.max]
    assert main(["referee", "new", game, "--players", ",".join(names)]) == 0
    (tmp_path / "r.yaml").write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["referee", "check", str(tmp_path / "r.yaml")]) == 0
