"""A kit never mixes languages unannounced (issue 39): after BOLSA-2.2's English is edited,
the Spanish kit prints it in English, and the build says so in one line per kit; after `pnp
translate update` the kit prints the old Spanish sentence, and the build says that. The
build's line and validate's warnings come from one function, `pnp.translate.untranslated`.
"""

from __future__ import annotations

from in_process import pnp_here
from pnp.rules import load_spec
from pnp.translate import kit_line, problems, untranslated
from spec_text import edit, write_spec

BEFORE = "BOLSA-2.2 Each player receives **{rules[start_cash]}** in money."
AFTER = "BOLSA-2.2 Each player receives **{rules[start_cash]}** in money from the bank."


def test_a_changed_text_is_announced_per_kit_then_its_old_translation(tmp_path, capsys):
    spec_file = write_spec(tmp_path, edit(BEFORE, AFTER))
    built = pnp_here(capsys, "build", "--game", "bolsa", "--component", "player_aid", "-q", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert "bolsa: es: 1 text in English (BOLSA-2.2, changed since translated)" in built.stdout.splitlines()
    spec = load_spec(spec_file)
    found = untranslated(spec, "bolsa", ("es",), printed_only=True)
    assert [u.kind for u in found] == ["new"] and found[0].changed and f"bolsa: {kit_line('es', found)}" in built.stdout
    line = spec_file.read_text(encoding="utf-8").splitlines().index(f'              - "{AFTER}"') + 1
    assert [(i.file, i.line) for i in problems(spec, "bolsa", ("es",))] == [(str(spec_file), line)]  # validate's

    assert pnp_here(capsys, "translate", "update", cwd=tmp_path).returncode == 0
    again = pnp_here(capsys, "build", "--game", "bolsa", "--component", "player_aid", "-q", cwd=tmp_path)
    assert "bolsa: es: 1 text in an old translation (its English changed since: BOLSA-2.2)" in again.stdout.splitlines()
    assert [(u.kind, u.issue.file.endswith("locale/es/bolsa.po")) for u in untranslated(load_spec(spec_file), "bolsa",
                                                                                       ("es",))] == [("fuzzy", True)]


def test_a_kit_that_prints_its_own_language_says_nothing(tmp_path, capsys):
    write_spec(tmp_path)
    built = pnp_here(capsys, "build", "--game", "bolsa", "--component", "player_aid", "-q", cwd=tmp_path)
    assert built.returncode == 0 and "text in English" not in built.stdout and "old translation" not in built.stdout
