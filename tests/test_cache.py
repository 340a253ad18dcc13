"""Incremental builds: the cache in `<out>/.cache` gives the bytes of a clean build, draws and
renders only what changed, distrusts damaged entries, and keeps an edit's undo."""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path

import pytest

from pnp import build as build_module
from pnp import sheets as sheets_module
from pnp.build import Progress, build
from pnp.cli import main
from spec_text import BUNDLED, edit, spec_of, write_spec

GAME = "aktsioner"
TWO_CARDS = [('value: "+30", other: "−60"', 'value: "+35", other: "−65"'),
             ('value: "−60", other: "+30"', 'value: "−65", other: "+35"')]


def edited(*changes: tuple[str, str]) -> str:
    text = BUNDLED
    for old, new in changes:
        text = edit(old, new, text)
    return text


def run(folder: Path, text: str, out: Path) -> int:
    spec = write_spec(folder, text)
    return main(["build", "--spec", str(spec), "--game", GAME, "--out", str(out), "-q"])


def files(out: Path) -> dict[str, bytes]:
    """The output as a user sees it: every file but the cache, the reprint file and the gallery
    page (which marks what changed), and the manifest without the change list (a clean build has
    nothing to compare with)."""
    found = {}
    for path in sorted(out.rglob("*")):
        name = path.relative_to(out).as_posix()
        if path.is_file() and not name.startswith(".cache/") and not name.endswith("-reprint.pdf"):
            found[name] = path.read_bytes()
    found.pop("index.html")
    manifest = json.loads(found.pop("manifest.json"))
    manifest.pop("changed")
    manifest["files"] = [f for f in manifest["files"] if not f["path"].endswith("-reprint.pdf")]
    manifest["spec"].pop("path")
    found["manifest.json"] = json.dumps(manifest, sort_keys=True).encode()
    return found


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """Aktsioner built from the bundled spec; tests copy it before building over it."""
    folder = tmp_path_factory.mktemp("base")
    assert run(folder, BUNDLED, folder / "output") == 0
    return folder / "output"


def copy_of(base: Path, tmp_path: Path) -> Path:
    out = tmp_path / "output"
    shutil.copytree(base, out)
    return out


class Recorder(Progress):
    def __init__(self) -> None:
        self.events: list[str] = []

    def doing(self, game: str, what: str) -> None:
        self.events.append(what)

    def of(self, verb: str) -> list[str]:
        return sorted(e.split(" ", 1)[1] for e in self.events if e.startswith(verb + " "))


def test_an_incremental_build_gives_the_bytes_of_a_clean_one(base, tmp_path):
    out = copy_of(base, tmp_path)
    text = edited(*TWO_CARDS)
    assert run(tmp_path, text, out) == 0
    assert run(tmp_path, text, tmp_path / "clean") == 0
    incremental, clean = files(out), files(tmp_path / "clean")
    assert incremental.keys() == clean.keys() and len(clean) > 8
    assert [name for name in clean if incremental[name] != clean[name]] == []
    assert (out / GAME / f"{GAME}-reprint.pdf").is_file() and not (tmp_path / "clean" / GAME / f"{GAME}-reprint.pdf").exists()


def test_only_what_changed_is_drawn_and_only_what_looks_different_is_rendered(base, tmp_path, monkeypatch):
    out = copy_of(base, tmp_path)
    record = Recorder()
    build(spec_of(edited(*TWO_CARDS)), out, [GAME], progress=record)
    # the cards, and what the rules engine computes from the whole game (the penalty table, the
    # booklet's deal tables): nothing else is drawn or rendered again
    assert record.of("drawing") == record.of("rendering") == ["penalty_aid", "rules_booklet", "small_cards"]

    record = Recorder()  # a house-rule value: the penalty table is drawn again but comes out the same
    build(spec_of(edited(*TWO_CARDS, ("rounding: up", "rounding: down"))), out, [GAME], progress=record)
    assert record.of("drawing") == ["penalty_aid", "rules_booklet"] and record.of("rendering") == ["rules_booklet"]


def test_a_stand_in_generator_never_reads_the_real_ones_entries(base, tmp_path, monkeypatch):
    out = copy_of(base, tmp_path)
    calls = []
    real = build_module.generate

    @functools.wraps(real)
    def counted(context, component):
        calls.append(component.id)
        return real(context, component)

    def generator(function):  # the build's: what it draws with (`pnp.sheets.draw`) and names in its keys
        monkeypatch.setattr(build_module, "generate", function)
        monkeypatch.setattr(sheets_module, "generate", function)

    generator(counted)
    build(spec_of(), out, [GAME])
    assert calls == []  # the same function (wrapped): the cache holds

    generator(lambda context, component: counted(context, component))
    build(spec_of(), out, [GAME])
    assert len(calls) == len(spec_of().games[GAME].components)  # another function: everything drawn


def test_a_damaged_cache_entry_is_drawn_again_not_trusted(base, tmp_path):
    out = copy_of(base, tmp_path)
    for path in (out / ".cache").glob("*.pdf"):
        path.unlink()  # a hard link: writing into it would change the base folder too
        path.write_bytes(b"%PDF-1.4 damaged")
    before = files(base)
    assert run(tmp_path, BUNDLED, out) == 0
    assert files(out) == before


def test_an_edit_and_its_undo_are_both_cached_older_entries_go(base, tmp_path):
    out = copy_of(base, tmp_path)
    title = "name: Player account"  # the source text (the Russian kit prints its translation, an edited one as written)
    texts = [edited((title, f"name: Account {n}")) for n in range(3)]
    both = ["account_cards", "rules_booklet"]  # the rulebook pictures every component under its name
    for text, rendered in ((texts[0], both), (BUNDLED, []), (texts[0], []), (texts[1], both), (texts[2], both),
                           (BUNDLED, both)):
        record = Recorder()
        build(spec_of(text), out, [GAME], progress=record)
        assert record.of("rendering") == rendered
    entries = {p.name for p in (out / ".cache").iterdir()}
    assert len(entries) < 2 * len({p.name for p in (base / ".cache").iterdir()})  # nothing piles up
