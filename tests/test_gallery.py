"""The gallery, `output/index.html`: every face of every component with its quantity and what
the checks found on it (`pnp.checks`, the list `pnp validate` prints), the print plan, links, and marks on what the last build changed — a
static page that opens from the file system. Checked in a real browser (Playwright driving
Debian's chromium) on examples/tulips, built, edited and built again.

A screenshot of the page goes to $PNP_SCREENSHOTS (default: the test's temporary folder).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from pnp.cli import main

ROOT = Path(__file__).resolve().parents[1]
TULIPS = ROOT / "examples" / "tulips"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Tulips built with every face pictured — its market cards' small print set at 6 pt, below
    body text's 7 — then built again after an edit to the bulbs' back: the market cards come from
    the build cache, with the findings the first build made on their faces."""
    folder = tmp_path_factory.mktemp("gallery")
    spec = folder / "tulips"
    shutil.copytree(TULIPS, spec)
    text = (spec / "components.yaml").read_text(encoding="utf-8")
    (spec / "components.yaml").write_text(text.replace("footer_pt: [6.5, 9]", "footer_pt: [6, 6]"), encoding="utf-8")
    out = folder / "output"
    assert main(["build", "--gallery", "--spec", str(spec / "components.yaml"), "--out", str(out)]) == 0
    text = (spec / "components.yaml").read_text(encoding="utf-8")
    (spec / "components.yaml").write_text(text.replace("back: {title: Bulb,", "back: {title: Bulbs,"), encoding="utf-8")
    assert main(["build", "--gallery", "--spec", str(spec / "components.yaml"), "--out", str(out)]) == 0
    return out


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def changed_components(data: dict) -> set[str]:
    return {name for entry in data.get("changed", []) if entry.get("status") in ("added", "changed")
            for name in entry.get("components", [entry.get("component")])}


def test_every_build_writes_a_self_contained_page(built):
    page = (built / "index.html").read_text(encoding="utf-8")
    assert "<script" not in page and "@import" not in page
    links = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert links and not [link for link in links if re.match(r"[a-z]+:", link) and not link.startswith("#")]
    for link in links:
        if not link.startswith("#"):
            assert (built / link).is_file(), link  # relative, and there


def test_every_face_has_its_picture_quantity_and_findings(built, capsys):
    data = manifest(built)
    faces = [f for f in data["faces"] if f["game"] == "tulips"]
    page = (built / "index.html").read_text(encoding="utf-8")
    assert page.count('<figure class="face"') == len(faces)
    for face in faces:
        assert (built / face["thumbnail"]).is_file()
        assert f'data-face="{face["face"]}" data-quantity="{face["quantity"]}"' in page
    found = data["findings"]  # the market cards' 6 pt small print, carried from the first build
    assert "market" not in changed_components(data) and len(found) > 1
    assert {(f["check"], f["component"]) for f in found} == {("small-text", "market")}
    assert all(f["file"].endswith("market.csv") and f["path"].startswith("games.tulips.components[2].cards")
               for f in found)  # at the spreadsheet's row that writes the text (rows alike but for an icon: the sheet)
    assert {f["line"] for f in found} == {1, 18}
    for face in faces:
        on_it = [f for f in found if (f["component"], f["face"]) == (face["component"], face["face"])]
        assert f'data-face="{face["face"]}" data-quantity="{face["quantity"]}"' in page
        assert page.count(f'data-findings="{len(on_it)}"') >= 1
    assert f'data-findings="{len(found)}"' in page  # the kit's count
    assert main(["validate", "--json", str(built.parent / "tulips" / "components.yaml")]) == 0
    assert json.loads(capsys.readouterr().out)["findings"] == found  # the list validate gives
    assert [row["name"] for row in data["plan"]] == ["Market cards + Markers", "Bulbs", "Guilders", "The bulb market",
                                                     "How to play"]  # the markers fill the market cards' last sheet


def test_the_browser_shows_every_face_and_the_changed_marks(built, browser, tmp_path):
    data = manifest(built)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("request", lambda request: None if request.url.startswith("file://") else problems.append(request.url))
    page.goto((built / "index.html").as_uri())
    page.wait_for_load_state("load")
    assert page.evaluate(LOADED) == 0  # a component's faces are folded until opened, then loaded as they are seen
    show_every_face(page)
    assert problems == []  # no console error, no request beyond the file system
    assert page.evaluate("() => document.querySelectorAll('.picture img').length") == len(data["faces"])
    assert page.locator("figure.face").count() == len(data["faces"])
    marked = set(page.eval_on_selector_all("article[data-changed=true]", "all => all.map(n => n.dataset.component)"))
    assert "bulbs" in changed_components(data)  # the edit changed the bulbs' back
    assert marked == changed_components(data)
    assert page.locator("article[data-changed=true] .mark").count() == len(marked)
    shots = Path(os.environ.get("PNP_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "gallery.png"), full_page=True)
    card = page.locator("article[data-component=bulbs] a.open").first
    small = card.locator(".picture img").bounding_box()
    card.click()  # a face opened large, no script: the overlay is the page's target
    large = page.locator(".large:target img")
    assert large.count() == 1 and large.bounding_box()["height"] > 2 * small["height"]
    page.screenshot(path=str(shots / "gallery-face-large.png"))
    page.locator(".large:target a.close").click(position={"x": 5, "y": 5})
    assert page.locator(".large:target").count() == 0
    page.locator("article[data-component=bulbs] >> text=open large").click()  # a component: all its faces
    assert page.locator(".large.all:target img").count() == page.locator("article[data-component=bulbs] figure").count() > 1
    page.close()


LOADED = "() => [...document.images].filter(i => i.complete && i.naturalWidth).length"


def show_every_face(page) -> None:
    """Open every component's faces and scroll to each picture until all are loaded."""
    for summary in page.locator("details.faces > summary").all():
        summary.click()
    for picture in page.locator(".picture img").all():
        picture.scroll_into_view_if_needed()
    page.wait_for_function("() => [...document.querySelectorAll('.picture img')].every(i => i.complete && i.naturalWidth)")


# --- pictures: made where they are looked at, once a face ---------------------------------------


@pytest.fixture
def picturing(monkeypatch, tmp_path):
    """An empty user cache of the test's own, and the faces pictured in this process, counted
    (a build with `--gallery` pictures in a forked worker: its `Summary.pictured` counts)."""
    from pnp.export import pictures

    monkeypatch.setenv("PNP_CACHE", str(tmp_path / "user-cache"))
    made: list[int] = []
    make = pictures.make
    monkeypatch.setattr(pictures, "make", lambda drawings: made.append(len(drawings)) or make(drawings))
    return made


def tulips_built(out: Path, mode: str = "kept"):
    """Tulips built in this process, the gallery's pictures as `mode` says (`pnp.export.pictures`)."""
    from pnp.build import build
    from pnp.export.pictures import Store
    from pnp.rules import load_spec

    spec = load_spec(TULIPS / "components.yaml")
    return build(spec, out, tuple(spec.games), source=TULIPS / "components.yaml", pictures=Store(mode))


def test_a_plain_build_pictures_no_face_and_names_each_in_its_place(picturing, tmp_path):
    summary = tulips_built(tmp_path / "out")
    data = manifest(tmp_path / "out")
    assert summary.pictured == 0 and picturing == []  # not one picture on the build's path
    assert not (tmp_path / "out" / "tulips" / "gallery").exists()
    assert all("thumbnail" not in face and len(face["picture"]) == 32 for face in data["faces"])
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert page.count('<span class="unpictured"') == 3 * len(data["faces"])  # in its place, opened large, with its own
    assert f'data-unpictured="{len(data["faces"])}"' in page and "<img" not in page


def test_a_build_into_a_new_folder_with_a_warm_user_cache_pictures_no_face(picturing, tmp_path):
    first = tulips_built(tmp_path / "a", "make")
    faces = manifest(tmp_path / "a")["faces"]
    assert first.pictured == len({face["picture"] for face in faces}) > 10  # each distinct face once
    picturing.clear()
    again = tulips_built(tmp_path / "b")
    assert again.pictured == 0 and picturing == []
    for face in manifest(tmp_path / "b")["faces"]:
        assert (tmp_path / "b" / face["thumbnail"]).read_bytes() == (tmp_path / "a" / face["thumbnail"]).read_bytes()
    assert "data-unpictured" not in (tmp_path / "b" / "index.html").read_text(encoding="utf-8")


def test_watch_serve_pictures_every_face_the_page_shows_and_keeps_it(picturing, browser, tmp_path):
    """The gallery as `pnp watch --serve` serves it (`pnp.preview`, the watch's store of the
    faces left waiting): every face shows once opened, each pictured when the page asks, and
    the next build into any folder has them all."""
    from pnp.export.pictures import SERVE, Store
    from pnp.preview import Preview

    store = Store(SERVE)
    from pnp.build import build
    from pnp.rules import load_spec

    spec = load_spec(TULIPS / "components.yaml")
    assert build(spec, tmp_path / "out", tuple(spec.games), pictures=store).pictured == 0
    faces = manifest(tmp_path / "out")["faces"]
    assert len(store.waiting) == len({face["picture"] for face in faces}) and picturing == []
    preview = Preview(tmp_path / "out", pictures=store)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(preview.start())
        assert page.evaluate(LOADED) == 0
        show_every_face(page)
        assert page.locator(".picture img").count() == len(faces)
    finally:
        page.close()
        preview.stop()
    assert sum(picturing) == len(store.waiting)  # each face pictured once, as it was shown
    assert tulips_built(tmp_path / "again").pictured == 0
    assert all("thumbnail" in face for face in manifest(tmp_path / "again")["faces"])
