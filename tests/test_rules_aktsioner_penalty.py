"""The penalty table aid (AKT-7.6, AKT-X8) is computed by the engine and equals the seed's table."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.i18n import speaking
from pnp.i18n.catalogs import language
from pnp.rules import load_spec, loads_spec
from pnp.rules.aktsioner.engine import params, penalty_per_share, tables

ROOT = Path(__file__).resolve().parents[1]

# AKT-7.6 as printed in the seed: rows are the decrease, columns the old price.
SEED_TABLE = """
10 | 10 — — — — —
20 | 20 10 — — — —
30 | 30 20 10 — — —
40 | 40 30 20 10 — —
50 | 50 40 30 20 10 —
60 | 60 50 40 30 20 10
"""


@pytest.fixture(scope="module")
def game():
    return load_spec(None).games["aktsioner"]


def test_penalty_table_equals_the_seed_table(game):
    with speaking(language(ROOT / "pnp" / "data", "aktsioner", "ru")):  # the Russian kit's, the seed's words
        russian = tables(params(game))["penalty"]
    assert russian.header == ("снижение \\ цена", "10", "20", "30", "40", "50", "60")
    table = tables(params(game))["penalty"]
    assert table.header == ("decrease \\ old", *russian.header[1:]) and table.rows == russian.rows
    expected = [tuple([label.strip(), *cells.split()]) for label, cells in (line.split("|") for line in SEED_TABLE.strip().splitlines())]
    assert [tuple(row) for row in table.rows] == expected


def test_penalty_table_cells_come_from_the_penalty_function(game):
    p = params(game)
    table = tables(params(game))["penalty"]
    for row in table.rows:
        for old, cell in zip(table.header[1:], row[1:], strict=True):
            value = penalty_per_share(int(old), int(row[0]), p)
            assert cell == (str(value) if value else "—")


def test_worked_example_x8(game):
    p = params(game)
    assert penalty_per_share(20, 50, p) == 40  # decrease 50 on old 20 → 40 per share
    assert penalty_per_share(30, 20, p) == 0  # new price exactly 10: no zeroing


def test_penalty_table_follows_the_printed_board():
    """A board starting at 20 (step 10) shifts the table: the formula is decrease + bottom − old."""
    text = (ROOT / "pnp" / "data" / "components.yaml").read_text(encoding="utf-8")
    text = text.replace("price: {from: 10, to: 250, step: 10, start: 100}", "price: {from: 20, to: 250, step: 10, start: 100}")
    game = loads_spec(text).games["aktsioner"]
    table = tables(params(game))["penalty"]
    assert table.header[1:] == ("20", "30", "40", "50", "60", "70")
    assert table.rows[0] == ("10", "10", "—", "—", "—", "—", "—")
    assert table.rows[-1] == ("60", "60", "50", "40", "30", "20", "10")
