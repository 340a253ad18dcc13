"""The hostile files of issue #42, one file each under tests/corpus/{catalog,image,manifest,shard},
its expected exit in its name (`plural_divides_by_zero.2.po`): each answered by the command that
reads it as the command line runs it — located, in seconds, never an internal error — and the
cases the issue lists are all there. A catalog is put in a small game's folder as its Spanish
catalog, an image as its art, a manifest given to `build --since`; a shard case is an edit of a
pair of real shards (`{"2": {"asked.seed": 4}}`: shard 2's seed set to 4; "both": each shard).
What is not a file (a folder, a FIFO, a link to /dev/zero or out of the spec's folder) is made
here, for each kind."""

from __future__ import annotations

import contextlib
import io
import json
import os
import time
from pathlib import Path

import pytest

from fuzz_files import PICTURE, make_base
from pnp.cli import main

CORPUS = Path(__file__).parent / "corpus"
MAX_SECONDS = 5.0  # CPU
ISSUE_CASES = {  # every hostile file the issue lists, by kind
    "catalog": {"translation_pads_to_900000000", "plural_divides_by_zero", "plural_negative_index", "plural_python_token",
                "nplurals_a_million", "garbage_line", "bogus_charset", "utf16", "latin1_bytes",
                "translation_of_100000_characters"},
    "image": {"png_169_megapixels_of_400_bytes", "png_16_bit_rgba_decoding_to_288_MB", "svg_nan_viewbox"},
    "manifest": {"nested_100000_deep", "unit_id_with_a_script"},
    "shard": {"rounds_3_claimed_for_default_games", "another_seed", "another_version", "games_not_the_chunks"},
}


def cases(kind: str) -> list[Path]:
    return sorted(path for path in (CORPUS / kind).iterdir() if path.is_file())


def expected(path: Path) -> int:
    return int(path.name.split(".")[-2])


def answer(folder: Path, *argv: str) -> tuple[int, str, float]:
    """`pnp ARGV` in `folder`, in this process: its exit, what it said on stderr, its CPU seconds."""
    before, err = os.getcwd(), io.StringIO()
    os.chdir(folder)
    started = time.process_time()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        os.chdir(before)
    return code, err.getvalue(), time.process_time() - started


def well_answered(code: int, err: str, seconds: float, located: tuple[str, ...]) -> None:
    assert "internal error" not in err and "Traceback" not in err and len(err) < 4000, err[:2000]
    assert seconds <= MAX_SECONDS
    if code == 2:
        assert err.startswith(located), err[:500]


@pytest.fixture(scope="module")
def bases(tmp_path_factory):
    scratch = tmp_path_factory.mktemp("bases")
    os.environ.setdefault("PNP_CACHE", str(scratch / "cache"))
    return scratch, {kind: make_base(scratch / kind, kind) for kind in ("catalog", "image", "manifest", "shard")}


def test_the_corpus_holds_every_case_of_the_issue():
    for kind, names in ISSUE_CASES.items():
        assert names <= {path.name.split(".")[0] for path in cases(kind)}, kind


# --- catalogs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("catalog"), ids=lambda p: p.name)
def test_each_hostile_catalog(case, bases):
    scratch, made = bases
    folder = scratch / "catalog"
    catalog = folder / "locale" / "es" / "dash.po"
    catalog.write_bytes(case.read_bytes())
    code, err, seconds = answer(folder, "validate", "components.yaml")
    assert code == expected(case), err[:1000]
    well_answered(code, err, seconds, ("locale/es/dash.po",))
    if code == 1:  # a translation that is not used: an error at its line of the catalog
        assert any(line.startswith("locale/es/dash.po:") and ": error: " in line for line in err.splitlines()), err
    code, err, seconds = answer(folder, "translate", "update", "--spec", "components.yaml", "--lang", "es")
    well_answered(code, err, seconds, ("locale/es/dash.po",))
    if expected(case) == 2:  # an unreadable catalog is refused and left as it was
        assert code == 2 and catalog.read_bytes() == case.read_bytes()
    else:
        assert code == 0
    catalog.write_bytes(made["catalog"]["es"])


def test_a_bad_translation_is_not_printed_and_the_build_says_where(bases):
    """`{n:>900000000} cartas` exited 3 with a MemoryError at 1.8 GB: now the kit prints the source
    text there and the build says so, at the catalog's line."""
    scratch, made = bases
    folder = scratch / "catalog"
    catalog = folder / "locale" / "es" / "dash.po"
    catalog.write_bytes((CORPUS / "catalog" / "translation_pads_to_900000000.1.po").read_bytes())
    try:
        code, err, _ = answer(folder, "build", "--spec", "components.yaml", "--out", "out", "--component", "dash/shares",
                              "-q")
    finally:
        catalog.write_bytes(made["catalog"]["es"])
    assert code == 0, err
    line = next(line for line in err.splitlines() if "900000000" in line)
    assert line.startswith("locale/es/dash.po:13:1: error: es: the translation of \"{n} card\"") and len(line) < 500


@pytest.mark.parametrize("what", ["folder", "fifo", "link:/dev/zero"])
def test_a_catalog_that_is_not_a_file_is_refused_unread(what, bases):
    scratch, made = bases
    folder = scratch / "catalog"
    catalog = folder / "locale" / "es" / "dash.po"
    catalog.unlink(missing_ok=True)
    make(catalog, what)
    try:
        for argv in (("validate", "components.yaml"), ("translate", "status", "--spec", "components.yaml"),
                     ("translate", "update", "--spec", "components.yaml")):
            code, err, seconds = answer(folder, *argv)
            assert code == 2 and err.startswith("locale/es/dash.po: the catalog is ") and seconds < 2, (argv, err)
    finally:
        catalog.unlink() if not catalog.is_dir() or catalog.is_symlink() else catalog.rmdir()
        catalog.write_bytes(made["catalog"]["es"])


def make(path: Path, what: str) -> None:
    if what == "folder":
        path.mkdir()
    elif what == "fifo":
        os.mkfifo(path)
    else:
        os.symlink(what.split(":", 1)[1], path)


# --- images ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("image"), ids=lambda p: p.name)
def test_each_hostile_image(case, bases):
    scratch, _ = bases
    folder = scratch / "image"
    (folder / PICTURE).write_bytes(case.read_bytes())
    code, err, seconds = answer(folder, "validate", "components.yaml")
    assert code == expected(case), err[:1000]
    well_answered(code, err, seconds, ("components.yaml:",))
    if code == 2:  # refused where the spec names it, in plain words, as build refuses it
        assert PICTURE in err and "0x" not in err and "object at" not in err
        assert answer(folder, "build", "--spec", "components.yaml", "--out", "out", "-q")[0] == 2


@pytest.mark.parametrize("what", ["folder", "fifo", "link:/dev/zero", "link:/etc/hostname"])
def test_art_that_is_not_a_file_of_the_folder_is_refused_unread(what, bases):
    scratch, _ = bases
    folder = scratch / "image"
    picture = folder / PICTURE
    picture.unlink(missing_ok=True)
    make(picture, what)
    try:
        code, err, seconds = answer(folder, "validate", "components.yaml")
    finally:
        picture.unlink() if not picture.is_dir() or picture.is_symlink() else picture.rmdir()
        picture.write_bytes((CORPUS / "image" / "png_64_by_48.0.png").read_bytes())
    assert code == 2 and err.startswith("components.yaml:") and PICTURE in err and seconds < 2, err
    assert "hostname" not in err  # where a link leads is not printed


# --- manifests ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("manifest"), ids=lambda p: p.name)
def test_each_hostile_manifest(case, bases):
    scratch, _ = bases
    code, err, seconds = answer(scratch / "manifest", "build", "--spec", "components.yaml", "--out", "new", "--since",
                                str(case), "--component", "dash/aid", "-q")
    assert code == expected(case), err[:1000]
    well_answered(code, err, seconds, (f"--since {case}: ",))
    assert "\x1b" not in err and len(err.splitlines()) <= 1  # a value it quotes is quoted as written, escapes and all
    assert code == 0 or not (scratch / "manifest" / "new").exists()  # refused before anything is built


# --- shard pairs -------------------------------------------------------------------------------------


def edited(pair: list[dict], edit: dict) -> list[bytes]:
    """The two shards with `edit` made (see the module's docstring); "truncate" and "garbage"
    spoil the file's text."""
    pair = json.loads(json.dumps(pair))
    texts = [None, None]
    for which, changes in edit.items():
        for n in ((0, 1) if which == "both" else (int(which) - 1,)):
            if changes == "truncate":
                texts[n] = json.dumps(pair[n]).encode()[:500]
                continue
            if changes == "garbage":
                texts[n] = b"\xff\xfe not JSON"
                continue
            for path, value in changes.items():
                node = pair[n]
                steps = [int(step) if step.isdigit() else step for step in path.split(".")]
                for step in steps[:-1]:
                    node = node[step]
                node[steps[-1]] = float("nan") if value == "NaN" else value
    return [texts[n] or json.dumps(pair[n]).encode() for n in (0, 1)]


@pytest.mark.parametrize("case", cases("shard"), ids=lambda p: p.name)
def test_each_hostile_shard_pair(case, bases):
    scratch, made = bases
    folder = scratch / "shard"
    for n, data in enumerate(edited(made["shard"], json.loads(case.read_text(encoding="utf-8"))), 1):
        (folder / f"{n}.json").write_bytes(data)
    code, err, seconds = answer(folder, "simulate", "merge", "1.json", "2.json")
    assert code == expected(case), err[:1000]
    well_answered(code, err, seconds, ("simulate merge: ",))
    assert "\x1b" not in err and len(err.splitlines()) == (1 if code == 2 else 0)


def test_a_report_is_never_headed_by_house_rules_its_games_were_not_played_under(bases):
    """Both shards of default-rules games claiming rounds=3 (issue #42: a report headed
    "rounds=3"): the first game, played again under rounds=3, does not take the kept track."""
    scratch, made = bases
    folder = scratch / "shard"
    lying = edited(made["shard"], {"both": {"runs.0.setups.0.options": [["rounds", 3]]}})
    for n, data in enumerate(lying, 1):
        (folder / f"{n}.json").write_bytes(data)
    code, err, _ = answer(folder, "simulate", "merge", "1.json", "2.json")
    assert code == 2 and err.startswith("simulate merge: 1.json: runs[0].tallies[0]: the first game") and \
        "rounds=3" in err
