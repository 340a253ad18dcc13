"""The program's texts to translate as the package ships them (`pnp/data/program-texts.json`,
read by `pnp.translate` instead of the code) are the code's: every literal marked `_`,
`ngettext` or `N_`, the file it is in, its translators' comment and flags.

After changing a marked text, `python tests/test_program_texts.py` rewrites the file — review
`git diff pnp/data/program-texts.json`, then `pnp translate update` carries it into the catalogs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[1] / "pnp" / "data" / "program-texts.json"


def test_the_shipped_texts_are_the_code_s() -> None:
    from pnp import translate

    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))
    extracted = json.loads(json.dumps(translate.program_texts()))  # tuples as JSON lists
    assert len(shipped) == len(extracted), "run: python tests/test_program_texts.py"
    assert shipped == extracted, "run: python tests/test_program_texts.py"
    assert len(extracted) > 300  # the sheets', the booklets', the engines' and the table's texts


def test_what_is_read_is_what_is_shipped() -> None:
    from pnp.translate import _program, program_entries

    entries = _program()
    assert len(entries) == len(json.loads(SHIPPED.read_text(encoding="utf-8")))
    owners = {owner for owner, _ in entries}
    assert owners == {None, "bolsa", "aktsioner", "forex"}
    bolsa = program_entries("bolsa")
    assert all(entry.locations[0][0].startswith("pnp/") and entry.locations[0][1] == 0 for entry in bolsa)
    assert not [e for e in bolsa if "/forex" in e.locations[0][0]]  # another game's engine is not Bolsa's to translate


def regenerate() -> int:
    from pnp import translate

    texts = translate.program_texts()
    SHIPPED.write_text("[\n" + ",\n".join(json.dumps(entry, ensure_ascii=False) for entry in texts) + "\n]\n",
                       encoding="utf-8")
    print(f"{SHIPPED}: {len(texts)} texts")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(regenerate())
