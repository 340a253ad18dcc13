"""The bounds every reader of a file pnp did not write keeps (issue #42), and the paths and
arguments a command refuses before it writes: one line, exit 2, never a traceback or a hang.
The hostile files themselves are in tests/test_files_corpus.py and tests/test_files_fuzz.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from in_process import pnp_here
from pnp.disk import NotAFile, TooLarge, output_file, read_capped, read_regular
from pnp.errors import UsageError
from pnp.i18n import code_problem
from pnp.i18n.catalogs import MAX_PLURALS, PLURALS_CHECKED, fault, plural_problem

ROOT = Path(__file__).resolve().parents[1]


# --- the one reader of a file ------------------------------------------------------------------------


def test_a_regular_file_is_read_whole_within_its_bound_and_nothing_else_is_opened(tmp_path):
    text = tmp_path / "a.txt"
    text.write_bytes(b"x" * 1000)
    assert read_regular(text, 1000) == b"x" * 1000
    with pytest.raises(TooLarge):
        read_regular(text, 999)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    for path, refused in ((fifo, NotAFile), (Path("/dev/zero"), NotAFile), (tmp_path, IsADirectoryError)):
        with pytest.raises(refused):
            read_regular(path, 10)
    assert read_capped(fifo, 10) == b""  # a FIFO nobody writes to reads as empty, at once
    assert time.monotonic() - started < 1
    with pytest.raises(TooLarge):
        read_capped(Path("/dev/zero"), 10)


@pytest.mark.parametrize("name", ["", " ", ".", "..", "/", "out/", "/dev/null", "x" * 300, "nowhere/schema.json", "a\0b"])
def test_an_output_path_that_is_no_file_is_refused(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    with pytest.raises(UsageError) as refused:
        output_file(name, "-o")
    assert len(str(refused.value).splitlines()) == 1 and str(refused.value).startswith("-o")


@pytest.mark.parametrize("argv", [["schema", "-o", ""], ["schema", "-o", "."], ["schema", "-o", "/"],
                                  ["init", "x" * 300], ["translate", "update", "--lang", "a/b"],
                                  ["translate", "update", "--lang", "qps"], ["translate", "update", "--lang", "pt-BR"]])
def test_paths_and_codes_that_are_not_one_are_one_line_exit_2(argv, tmp_path, capsys):
    result = pnp_here(capsys, *argv, cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "internal error" not in result.stderr and not list(tmp_path.iterdir())  # nothing written


def test_a_spec_that_is_a_fifo_is_answered_at_once(tmp_path, capsys):
    os.mkfifo(tmp_path / "components.yaml")
    started = time.monotonic()
    result = pnp_here(capsys, "validate", "components.yaml", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.startswith("components.yaml:") and time.monotonic() - started < 5


@pytest.mark.parametrize("argv", [["simulate", "merge", "fifo.json", "fifo.json"],
                                  ["build", "--since", "fifo.json", "--component", "bolsa/tokens"]])
def test_a_shard_or_a_manifest_that_is_a_fifo_is_refused_unread(argv, tmp_path, capsys):
    os.mkfifo(tmp_path / "fifo.json")
    result = pnp_here(capsys, *argv, cwd=tmp_path)
    assert result.returncode == 2 and "fifo.json" in result.stderr and "FIFO" in result.stderr, result.stderr


# --- catalogs: plural forms, translations, codes -------------------------------------------------------


@pytest.mark.parametrize("forms, why", [
    ("nplurals=3; plural=n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2;", ""),
    ("nplurals=1; plural=0;", ""),
    ("nplurals=7; plural=n%7;", "1 to 6"),
    ("nplurals=2; plural=n/0;", "fails for n = 0"),
    ("nplurals=2; plural=n > 999 ? 2 : 0;", "gives form 2 for n = 1000"),
    ("nplurals=2; plural=n == 1 ? 0 - 1 : 0;", "gives form -1 for n = 1"),
    ("nplurals=2; plural=exec('x');", "is not an expression of n"),
    ("garbage", "nplurals=N; plural=EXPRESSION;"),
])
def test_plural_forms_are_evaluated_safely_for_every_n_to_1000(forms, why):
    assert MAX_PLURALS == 6 and PLURALS_CHECKED == 1000
    problem = plural_problem(forms)
    assert (why in problem and problem) if why else problem == ""


@pytest.mark.parametrize("msgid, strings, template, wrong", [
    (("{n} card", "{n} cards"), ("{n} carta", "{n} cartas"), False, ""),
    (("{n} card", "{n} cards"), ("{n} carta", "{n:>900000000} cartas"), False, 'adds "{n:>900000000}"'),
    ("Pays {n:g}", ("Paga {n}",), False, 'drops "{n:g}"'),
    ("Pays {n}", ("Paga {n!r}",), False, 'adds "{n!r}"'),
    ("Pays {n}", ("Paga {n.__class__}",), False, 'adds "{n.__class__}"'),
    ("Pays {n}", ("Paga {n",), False, "not a valid template"),
    ("Pays {n}", ("Paga " + "{n}" * 50,), False, "at most 3 times"),
    ("{rules[x]} shares", ("{rules[x]:plural:# acción|# acciones}",), True, ""),  # a spec text's plural forms
    ("{rules[x]} shares", ("{rules[x]:plural:# acción|# acciones}",), False, "other placeholders"),  # str.format's
    ("Pass", ("",), False, ""),  # untranslated, not at fault
])
def test_a_translation_has_its_sources_placeholders_and_format_specs(msgid, strings, template, wrong):
    found = fault(msgid, strings, template=template)
    assert (wrong in found and found) if wrong else found == ""


@pytest.mark.parametrize("code, ok", [("es", True), ("pt_BR", True), ("sr_Latn", True), ("es_419", True), ("qps", False),
                                      ("a/b", False), ("pt-BR", False), ("../x", False), ("", False), ("x" * 50, False)])
def test_a_catalog_is_for_a_language_code_and_never_the_pseudo_locale(code, ok):
    assert (code_problem(code) == "") is ok


# --- a killed simulation ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_killed_simulation_leaves_no_worker_behind(tmp_path):
    """SIGKILL, which no handler sees: the pool's workers die with the run (the parent-death
    signal), not minutes later (they used to play on)."""
    run = subprocess.Popen([sys.executable, "-m", "pnp", "simulate", "bolsa", "--games", "1000000", "--workers", "2"],
                           cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline:  # the pool started
        time.sleep(0.2)
        workers = _children(run.pid)
    assert len(workers) == 2
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    deadline = time.monotonic() + 3
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_the_docs_list_every_limit_as_the_code_states_it():
    """Each reader's limits are stated once, in its module; docs/design.md lists them (the
    spec's, art's included, are generated into docs/spec.md)."""
    from pnp import disk, manifest
    from pnp.i18n import catalogs
    from pnp.simulate import shards
    from pnp.spec import images

    text = " ".join((ROOT / "docs" / "design.md").read_text(encoding="utf-8").split())
    for number in (images.MAX_BYTES, images.MAX_PIXELS, images.MAX_DECODED, images.MAX_SVG_BYTES,
                   images.MAX_SVG_ELEMENTS, int(images.MAX_SVG_NUMBER), catalogs.MAX_BYTES, catalogs.MAX_TEXT,
                   catalogs.PLURALS_CHECKED, shards.MAX_BYTES, manifest.MAX_BYTES, manifest.MAX_SHEETS,
                   disk.PATH_MAX):
        assert f"{number:,}" in text, number
    for phrase in (f"1 to {catalogs.MAX_PLURALS} forms", f"{catalogs.LONGER} times its source's length plus "
                   f"{catalogs.SPARE} characters", f"at most {shards.MAX_DEPTH} deep", f"at most {manifest.MAX_DEPTH} deep",
                   f"over {disk.NAME_MAX} bytes", f"{images.MAX_DPI} dpi"):
        assert phrase in text, phrase
