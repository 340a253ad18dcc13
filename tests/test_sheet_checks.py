"""What `pnp validate` warns about sheets (`pnp.printfile.sheet_findings`): one finding per
nearly empty sheet and per component with too little bleed, at its component's spec line,
with a fix that is true — and none on the bundled kits as they ship (A4, double-sided)."""

from __future__ import annotations

import pytest

from in_process import pnp_here
from spec_text import BUNDLED, edit, spec_of, write_spec

# nine tarot cards, four a sheet: the third sheet holds one (13 % of its paper); every text is
# one Акционер's catalogs already translate, so only the sheet is wrong
BONUS = """      - id: bonus_cards
        kind: deck
        name: Big cards
        size_mm: [70, 120]
        back: {title: Aktsioner, subtitle: Big card, color: "#5a3d2b", pattern: crosshatch}
        cards:
          - {count: 9, title: Hundred, value: "+100"}

"""
WITH_BONUS = edit("      - id: account_cards\n", BONUS + "      - id: account_cards\n")


def sheet_checks(spec, game):
    """The sheet findings of `pnp.checks`' list on the game's default kit."""
    from pnp.checks import verdict

    issues, found = verdict(spec, game, [spec.games[game].language])
    assert issues == []
    return [f for f in found if f.check in ("sheet-coverage", "sheet-bleed")]


@pytest.mark.parametrize("game", ["aktsioner", pytest.param("bolsa", marks=pytest.mark.slow),
                                  pytest.param("forex", marks=pytest.mark.slow)])
def test_the_bundled_kits_sheets_give_no_finding(game):
    assert sheet_checks(spec_of(), game) == []


def test_a_nearly_empty_sheet_is_one_finding_at_its_components_line():
    found = sheet_checks(spec_of(WITH_BONUS), "aktsioner")
    assert len(found) == 1
    (finding,) = found
    line = WITH_BONUS.splitlines().index("      - id: bonus_cards") + 1
    assert (finding.check, finding.severity, finding.file, finding.line) == ("sheet-coverage", "warning",
                                                                             "components.yaml", line)
    assert finding.component == "bonus_cards" and finding.game == "aktsioner"
    assert "sheet 3 of 3 goes out 13 % covered" in finding.message and "1 of the 4 places" in finding.message
    assert finding.fix.startswith("3 more fill it at no extra paper; 1 fewer save the sheet")


def test_validate_warns_and_strict_refuses_a_nearly_empty_sheet(tmp_path, capsys):
    write_spec(tmp_path, WITH_BONUS)
    ran = pnp_here(capsys, "validate", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    warned = [line for line in ran.stderr.splitlines() if "sheet-coverage" in line or "goes out" in line]
    line = WITH_BONUS.splitlines().index("      - id: bonus_cards") + 1
    assert len(warned) == 1 and warned[0].startswith(f"components.yaml:{line}:")
    assert pnp_here(capsys, "validate", "--strict", cwd=tmp_path).returncode == 1
    write_spec(tmp_path / "bundled", BUNDLED)
    assert pnp_here(capsys, "validate", "--strict", cwd=tmp_path / "bundled").returncode == 0


@pytest.mark.slow
def test_letter_cards_get_a_bleed_finding_whose_margin_gives_enough():
    """Letter leaves 5.4 mm for three rows of poker cards: 0.9 mm a side, which a stray cut or
    a duplex back passes; the finding says print.margin_mm 3.5 gives enough, and it does."""
    letter = edit("  paper: a4 ", "  paper: letter ")
    (finding,) = sheet_checks(spec_of(letter), "bolsa")
    assert finding.check == "sheet-bleed" and finding.component == "shares"
    assert "0.9 mm of art beyond the cuts at the sheet's edges" in finding.message
    assert "print.margin_mm: 3.5 gives enough" in finding.fix and "a4 paper gives enough" in finding.fix
    assert sheet_checks(spec_of(edit("  margin_mm: 5 ", "  margin_mm: 3.5 ", letter)), "bolsa") == []
