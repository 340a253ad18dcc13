"""The hostile specs of issue #25, one file each under tests/corpus/spec with its expected exit
(`# expect: N — what it is`): `pnp validate` answers each (tests/test_referee_fuzz.py replays
them, located, in seconds); here `pnp build` answers each the same way — never an internal
error, never a traceback, a short message — and the cases the issue lists are all there."""

from __future__ import annotations

import contextlib
import io
import re
import time
from pathlib import Path

import pytest

from pnp.cli import main

CORPUS = Path(__file__).parent / "corpus" / "spec"
SPECS = sorted(CORPUS.glob("*.yaml"))
MAX_SECONDS = 5.0  # CPU


def expected(path: Path) -> int:
    return int(re.match(r"# expect: (\d)", path.read_text(encoding="utf-8"))[1])


def run(*argv: str) -> tuple[int, str, float]:
    err = io.StringIO()
    started = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, err.getvalue(), time.process_time() - started


def test_the_corpus_holds_every_case_of_the_issue():
    names = {path.stem for path in SPECS}
    assert {"card_mm_beyond_paper", "form_a_terametre_wide", "form_column_1e300_mm", "money_9e18_mm_tall",
            "tokens_1e9_mm_tall", "counter_1000_mm", "title_of_10000_letters", "title_of_100000_letters",
            "mail_form_for_300_players", "value_of_1000_combining_accents", "aktsioner_card_value_x",
            "aktsioner_card_other_braces", "template_reads_the_environment", "template_pads_to_900000000",
            "template_pads_to_5000000", "template_zero_pads_a_count", "pattern_of_100000_letters",
            "billion_laughs", "tab_indent", "unclosed_brace", "unclosed_quote", "duplicate_key",
            "bad_indentation"} <= names


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_build_answers_each_hostile_spec_as_validate_does(path, tmp_path):
    code, err, seconds = run("build", "--spec", str(path), "--out", str(tmp_path / "out"), "-q")
    assert code == expected(path), err[:2000]
    assert "internal error" not in err and "Traceback" not in err and len(err) < 4000
    assert seconds <= MAX_SECONDS and not (tmp_path / "out").exists()  # refused before anything is written


def test_a_letter_under_900_combining_accents_is_laid_out_and_built(tmp_path):
    """Text fitting measures a letter with a tower of accents as the letter (it used to divide by
    the width of accents alone, ZeroDivisionError)."""
    spec = tmp_path / "components.yaml"
    spec.write_text(
        "version: 1\ngames:\n  dash:\n    title: Dash\n    players: {min: 2, max: 4}\n"
        "    companies: [{id: AA, name: Alpha, color: \"#0072b2\", symbol: circle}]\n"
        "    components:\n      - id: shares\n        kind: deck\n        name: Shares\n        cards:\n"
        "          - {value: \"A\", title: Alpha, text: \"e" + "\u0301" * 900 + "\"}\n"
        "      - id: tokens\n        kind: tokens\n        name: Tokens\n        size_mm: [14, 14]\n"
        "        tokens: [{front: {value: \"e" + "\u0301" * 90 + "\"}}]\n", encoding="utf-8")
    assert run("validate", str(spec))[0] == 0
    code, err, _ = run("build", "--spec", str(spec), "--out", str(tmp_path / "out"), "-q")
    assert code == 0, err
    assert (tmp_path / "out" / "dash" / "shares.pdf").stat().st_size > 1000


CARD_LIST_SPEC = """version: 1
games:
  dash:
    title: Dash
    players: {min: 2, max: 4}
    companies: [{id: AA, name: Alpha, color: "#0072b2", symbol: circle}]
    components:
      - {id: market, kind: deck, name: Market, cards_from: LIST}
"""


@pytest.mark.parametrize("name, content, words", [
    ("rows.csv", "value,title\n" + "".join(f"{i},Card {i}\n" for i in range(1500)), "more than 1,000 rows"),
    ("wide.csv", ",".join(f"c{i}" for i in range(300)) + "\n" + ",".join("1" for _ in range(300)) + "\n",
     "more than 100 columns"),
    ("bomb.xlsx", None, "unpacks to"),
])
def test_a_card_list_is_read_within_bounds(tmp_path, name, content, words):
    import zipfile

    if content is None:  # a zip whose one member unpacks to 60 MB of zeros
        with zipfile.ZipFile(tmp_path / name, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("xl/worksheets/sheet1.xml", b"\0" * 60_000_000)
    else:
        (tmp_path / name).write_text(content, encoding="utf-8")
    spec = tmp_path / "components.yaml"
    spec.write_text(CARD_LIST_SPEC.replace("LIST", name), encoding="utf-8")
    code, err, seconds = run("validate", str(spec))
    assert code == 2 and words in err and err.startswith(f"{spec}:") and seconds <= MAX_SECONDS, err
