"""The same spec prints the same bytes (issue 44): the PDFs, SVG pages, PNG faces and Tabletop
Simulator files of a build are what they were before the build was made faster, file by file.

`tests/same_bytes.json` holds the digests of every printed file of a few builds of the bundled
spec (a Tabletop Simulator save's own folder written as `file:///OUT`), taken with the code before issue 44 (pictures made at every build, the sibling languages
laid out at every build, the combined files joined by pypdf). The gallery (its pictures and
page) and the manifest are not printed, so not compared. A combined or reprint file is compared
page by page — each page's boxes, its content stream and every resource it draws with, as bytes
— since how its pages are put in one file changed (an object-level join instead of pypdf): its
pages are the very pages of the component files, and those are compared whole.

A change meant to change what is printed takes the digests again: `python tests/test_same_bytes.py`
(every case) or `python tests/test_same_bytes.py CASE …`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # this checkout's pnp when run as a script

from pnp.cli import main  # noqa: E402
from pnp.spec.source import bundled_spec_path  # noqa: E402

GOLDEN = HERE / "same_bytes.json"
DIVIDEND = '{value: "3", title: Dividend, text: "Pays {pays} per certificate", data: {pays: 2}}'
# name → (the command's options, an edit built after a first build: its change list and reprint file)
CASES: dict[str, tuple[tuple[str, ...], tuple[str, str] | None]] = {
    "aktsioner": (("--game", "aktsioner"), None),
    "aktsioner-svg-png": (("--game", "aktsioner", "--format", "pdf,svg,png"), None),
    "forex-reprint": (("--game", "forex"), (DIVIDEND, DIVIDEND.replace("pays: 2", "pays: 4"))),
    "build": ((), None),
    "lang-all": (("--lang", "all"), None),
    "pdf-png-tts": (("--format", "pdf,png,tts"), None),
}
FAST = ("aktsioner",)
JOINED = ("-all.pdf", "-reprint.pdf")  # files whose pages are compared, not their bytes


def built(case: str, folder: Path) -> dict[str, str]:
    """The digests of every printed file of `case`, built in `folder` (a user cache of its own)."""
    options, edit = CASES[case]
    spec = folder / "spec" / "components.yaml"
    spec.parent.mkdir(parents=True)
    text = bundled_spec_path().read_text(encoding="utf-8")
    spec.write_text(text, encoding="utf-8")
    (spec.parent / "locale").symlink_to(bundled_spec_path().parent / "locale")
    out = folder / "out"
    before = os.environ.get("PNP_CACHE")
    os.environ["PNP_CACHE"] = str(folder / "user-cache")
    try:
        assert main(["build", "-q", "--spec", str(spec), "--out", str(out), *options]) == 0
        if edit is not None:
            assert edit[0] in text, "the case's edit no longer matches the bundled spec"
            spec.write_text(text.replace(*edit), encoding="utf-8")
            assert main(["build", "-q", "--spec", str(spec), "--out", str(out), *options]) == 0
    finally:
        if before is None:
            del os.environ["PNP_CACHE"]
        else:
            os.environ["PNP_CACHE"] = before
    return digests(out)


def digests(out: Path) -> dict[str, str]:
    """Each printed file of an output folder by its path: the SHA-256 of its bytes, or of its
    pages for a combined or reprint file."""
    found = {}
    for path in sorted(out.rglob("*")):
        name = path.relative_to(out).as_posix()
        if not path.is_file() or name.startswith(".cache/") or "/gallery/" in name or "/" not in name:
            continue  # the manifest and the gallery are not printed
        data = path.read_bytes()
        if name.endswith(".json"):  # a Tabletop Simulator save names its images by where the folder is
            data = data.replace(out.as_uri().encode(), b"file:///OUT")
        found[name] = page_digest(data) if name.endswith(JOINED) else hashlib.sha256(data).hexdigest()
    return found


def page_digest(pdf: bytes) -> str:
    """The digest of a PDF's pages in order — each page's boxes, its content stream's bytes and
    every resource it draws with (fonts, forms, images: their dictionaries and stream bytes,
    whatever object numbers they have) — and of its outline's titles and pages."""
    import io

    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(pdf))
    numbers = {page.indirect_reference.idnum: n for n, page in enumerate(reader.pages)}  # type: ignore[union-attr]
    pages = [[[_plain(page.get(box)) for box in ("/MediaBox", "/TrimBox", "/BleedBox", "/Rotate")],
              _plain(page["/Contents"]), _plain(page["/Resources"])] for page in reader.pages]
    outline = [(item.title, numbers[item.page.idnum]) for item in reader.outline]  # type: ignore[union-attr]
    text = json.dumps([pages, outline], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(value: Any, seen: frozenset[int] = frozenset()) -> Any:
    """A PDF object as plain data: references followed (never back up a tree), streams as the
    digest of their encoded bytes."""
    import pypdf.generic as pdf

    if isinstance(value, pdf.IndirectObject):
        if value.idnum in seen:
            return "<loop>"
        return _plain(value.get_object(), seen | {value.idnum})
    if isinstance(value, pdf.StreamObject):
        return {"stream": hashlib.sha256(value._data).hexdigest(),
                **{k: _plain(v, seen) for k, v in value.items() if k != "/Length"}}
    if isinstance(value, dict):
        return {str(k): _plain(v, seen) for k, v in value.items() if k != "/Parent"}
    if isinstance(value, list):
        return [_plain(v, seen) for v in value]
    return repr(value) if isinstance(value, float) else value


def golden() -> dict[str, dict[str, str]]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))


def compare(case: str, folder: Path) -> None:
    expected, found = golden()[case], built(case, folder)
    assert sorted(found) == sorted(expected), "files written differ from the files before"
    differ = [name for name in expected if found[name] != expected[name]]
    assert differ == [], f"{len(differ)} of {len(expected)} printed files changed, e.g. {differ[:5]}"


@pytest.mark.parametrize("case", FAST)
def test_a_build_prints_the_bytes_it_printed_before(case, tmp_path):
    compare(case, tmp_path)


def test_a_kit_lays_out_only_its_own_language_once_the_others_are_measured(tmp_path, monkeypatch):
    """The booklet and aid measured in every language of their game (so the kits fold alike):
    a second build with the user cache of the first flows the booklet and sets the aid in its
    own language alone, counted, and prints the same bytes."""
    from pnp.components import aids, booklet
    from pnp.i18n import current

    flowed: list[str] = []  # what was flowed or set, in which language
    for module, function in ((booklet, "_pages"), (aids, "_blocks")):
        real = getattr(module, function)
        monkeypatch.setattr(module, function, lambda *args, real=real, name=function: flowed.append(
            f"{name} {current().code}") or real(*args))
    monkeypatch.setenv("PNP_CACHE", str(tmp_path / "user-cache"))
    spec = bundled_spec_path()
    only = ("--game", "aktsioner", "--component", "rules_booklet", "--component", "penalty_aid")
    assert main(["build", "-q", "--spec", str(spec), "--out", str(tmp_path / "first"), *only]) == 0
    assert {line.split()[1] for line in flowed} == {"ru", "en", "es"}  # Акционер's languages, measured
    flowed.clear()
    assert main(["build", "-q", "--spec", str(spec), "--out", str(tmp_path / "second"), *only]) == 0
    assert flowed and {line.split()[1] for line in flowed} == {"ru"}
    for name in ("aktsioner/rules_booklet.pdf", "aktsioner/penalty_aid.pdf"):
        assert digests(tmp_path / "second")[name] == golden()["aktsioner"][name]


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASES if c not in FAST])
def test_every_kit_and_format_prints_the_bytes_it_printed_before(case, tmp_path):
    compare(case, tmp_path)


if __name__ == "__main__":
    taken = golden() if GOLDEN.exists() else {}
    for case in sys.argv[1:] or list(CASES):
        with tempfile.TemporaryDirectory() as scratch:
            taken[case] = built(case, Path(scratch))
        print(f"{case}: {len(taken[case])} files", flush=True)
    GOLDEN.write_text(json.dumps(taken, indent=1, sort_keys=True) + "\n", encoding="utf-8")
