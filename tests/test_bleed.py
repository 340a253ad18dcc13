"""Bleed made for art cut to the trim (`image: {file: …, bleed: extend}`): the art fills the trim
and each bleed strip mirrors the art's edge, so a cut off the line never shows white; the
manifest and the gallery say which faces got it."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from pnp.components.art import generated_bleed
from pnp.render.png import drawing_png
from pnp.rules import load_spec
from pnp.spec.faces import Side
from pnp.spec.model import Picture
from spec_text import edit, write_spec

DPI = 254  # 10 pixels a millimetre
PX_PER_MM = DPI / 25.4
TRIM = (63.0, 88.0)
SHARES_BACK = 'back: {title: Stock Exchange, subtitle: Share, color: "#3b4a5a", pattern: crosshatch}'


def trim_sized_art(folder) -> None:
    """A 63 × 88 mm picture at 300 dpi with nothing white in it: smooth ramps across and down,
    and a dark bar near the left edge, so a mirror shows."""
    w, h = round(TRIM[0] * PX_PER_MM), round(TRIM[1] * PX_PER_MM)
    x, y = np.meshgrid(np.linspace(0, 1, w), np.linspace(0, 1, h))
    art = np.stack([40 + 180 * x, 30 + 150 * y, 200 - 120 * x * y], axis=-1)
    art[:, 10:17] = (20, 60, 20)  # 1.0–1.7 mm in from the left edge: inside the 3 mm mirror
    Image.fromarray(art.astype(np.uint8), "RGB").save(folder / "art.png", dpi=(DPI, DPI))


def shares_back(tmp_path, bleed: str):
    """Bolsa's share cards with a back of nothing but the picture, marked `bleed`."""
    folder = tmp_path / bleed
    spec_file = write_spec(folder, edit(SHARES_BACK, f"back: {{image: {{file: art.png, bleed: {bleed}}}}}"))
    trim_sized_art(folder)
    from pnp.components import Context, generate
    from pnp.i18n import speaking
    from pnp.spec.translation import kit

    spec = load_spec(spec_file)
    game = spec.games["bolsa"]
    made = kit("bolsa", game, game.language, folder)
    with speaking(made.language):
        pieces = generate(Context("bolsa", made.game, spec.print, spec.folder, made), made.game.component("shares"))
    return spec, pieces


def render(drawing) -> np.ndarray:
    """A face at `DPI` (10 pixels a mm: the 3 mm bleed is 30 whole pixels), as RGB numbers."""
    return np.asarray(Image.open(io.BytesIO(drawing_png(drawing, DPI))).convert("RGB"), dtype=np.int32)


def test_art_cut_to_the_trim_gets_its_edges_mirrored_into_the_bleed(tmp_path):
    """The rendered back: every pixel of the 3 mm bleed equals the pixel mirrored about the
    nearest trim edge (or its neighbour: a sharp edge lands 0.1 mm either way), and none is
    white; the trim shows the art as drawn. Without `extend` the picture is enlarged over the
    bleed instead, and what lay near its edge is cut away."""
    spec, pieces = shares_back(tmp_path, "extend")
    back = pieces.pieces[0].back
    assert spec.games["bolsa"].component("shares").back.image == Picture(file="art.png", bleed="extend")
    image = render(back)
    edge = round(back.bleed * PX_PER_MM)
    h, w, _ = image.shape
    assert (edge, w, h) == (30, 690, 940)
    outward = np.arange(edge)  # bleed pixels counted from the trim line outward …
    inward = np.arange(edge)  # … and their mirror images, counted from it inward
    strips = {  # (bleed pixels, mirror images) as columns or rows of the picture
        "left": (image[:, edge - 1 - outward], image[:, edge + inward]),
        "right": (image[:, w - edge + outward], image[:, w - edge - 1 - inward]),
        "top": (image[edge - 1 - outward].swapaxes(0, 1), image[edge + inward].swapaxes(0, 1)),
        "bottom": (image[h - edge + outward].swapaxes(0, 1), image[h - edge - 1 - inward].swapaxes(0, 1)),
    }
    for side, (bleed_pixels, mirrored) in strips.items():
        # the same pixel across the trim, or its neighbour (a sharp edge lands a pixel, 0.1 mm, either way)
        shifted = [np.roll(mirrored, shift, axis=1) for shift in (-1, 0, 1)]
        difference = np.min([np.abs(bleed_pixels - m).sum(axis=-1) for m in shifted], axis=0)[:, 1:-1]
        assert difference.mean() < 2 and difference.max() < 24, (side, difference.mean(), difference.max())
        assert not (bleed_pixels.min(axis=-1) > 245).any(), side  # no white pixel in the bleed
    def dark(row: np.ndarray) -> int:
        return int((row.sum(axis=-1) < 200).sum())

    bar = slice(edge + 10, edge + 17)  # where the art has its dark bar: 1.0–1.7 mm inside the trim
    assert dark(image[h // 2, bar]) == 7 and dark(image[h // 2, edge - 17:edge - 10]) >= 6  # and mirrored out
    _, covered = shares_back(tmp_path, "cover")
    plain = render(covered.pieces[0].back)
    assert dark(plain[h // 2, bar]) == 0  # enlarged over the bleed, the art lost its bar to the cut


def test_the_manifest_and_gallery_mark_faces_with_made_bleed(tmp_path):
    """`generated_bleed` finds the mirrored picture; a build's manifest records it for the back
    alone (of the deck's six faces), and the gallery marks that face, and only it."""
    import json

    from pnp.cli import main

    spec, pieces = shares_back(tmp_path, "extend")
    assert generated_bleed(pieces.pieces[0].back.items) and not generated_bleed(pieces.pieces[0].front.items)
    _, plain = shares_back(tmp_path, "cover")
    assert not generated_bleed(plain.pieces[0].back.items)
    assert Side(asset=None).image_bleed == "cover"
    out = tmp_path / "out"
    assert main(["build", "--spec", str(tmp_path / "extend" / "components.yaml"), "--game", "bolsa",
                 "--component", "shares", "--out", str(out), "-q"]) == 0
    faces = [f for f in json.loads((out / "manifest.json").read_text(encoding="utf-8"))["faces"]
             if f["component"] == "shares"]
    assert len(faces) == 6 and [f["face"] for f in faces if f["bleed_generated"]] == ["back"]
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count('class="bleed-made"') == 1
