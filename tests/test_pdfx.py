"""PDF/X for print shops (`pnp build --profile dtc|offset|pdf-trim --pdfx x1a|x3|x4`), read back by
independent readers: pikepdf (qpdf) for the catalog, the Info dictionary, every page's boxes,
every font, colour operator and image; Ghostscript (installed by scripts/test) for a 150 dpi
CMYK render whose every pixel's ink is measured.

The fast lane writes PDF/X-1a and X-4 files of two of Bolsa's components straight from their
faces (the deck and the booklet: cards and running text); the slow lane builds all three
bundled games with each level through the command line and renders every file."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np
import pikepdf
import pypdf
import pytest
from PIL import Image

from pnp.cli import main
from pnp.export import faces_of
from pnp.export.profiles import built, write
from pnp.render.cmyk import INK_LIMIT, LEVELS, cmyk, cmyk_image
from spec_text import drawn, spec_of

RGB_OPERATORS = {"rg", "RG"}
INK_TOLERANCE = 100 / 255  # one step of an 8-bit channel


def pdfx_files(tmp_path: Path, level: str, game: str = "bolsa", ids=("shares", "rules_booklet")) -> list[Path]:
    spec = spec_of()
    comps = [faces_of(game, spec.games[game].component(c), drawn(game, c)) for c in ids]
    entries = write(tmp_path, built("pdf-trim", level), comps)
    return [tmp_path / e.path for e in entries]


def forms_and_streams(pdf: pikepdf.Pdf):
    """Every page's resources and content, and every form XObject's, each once: (resources,
    content-bearing object)."""
    seen: set[tuple[int, int]] = set()

    def visit(holder, resources):
        yield resources, holder
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.objgen in seen or xobject.get("/Subtype") != "/Form":
                continue
            seen.add(xobject.objgen)
            yield from visit(xobject, xobject.get("/Resources") or pikepdf.Dictionary())

    for page in pdf.pages:
        yield from visit(page, page.obj.get("/Resources") or pikepdf.Dictionary())


def check_pdfx(path: Path, level: str) -> dict[str, int]:
    """Everything PDF/X asks of the file that a reader can see, asserted; returns what was counted."""
    counts = {"pages": 0, "fonts": 0, "images": 0, "operators": 0}
    with pikepdf.open(path) as pdf:
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == "FOGRA39"
        profile = intent.DestOutputProfile
        icc = profile.read_bytes()
        assert int(profile.N) == 4 and icc[12:16] == b"prtr" and icc[16:20] == b"CMYK" and len(icc) > 10_000
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == LEVELS[level].version
        assert str(pdf.docinfo["/Trapped"]) == "/False"
        if level == "x4":
            with pdf.open_metadata() as xmp:
                assert xmp["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
        else:
            assert str(pdf.docinfo["/GTS_PDFXConformance"]) == LEVELS[level].version
        assert pdf.pdf_version == "{}.{}".format(*LEVELS[level].pdf_version)
        for page in pdf.pages:
            media, bleed, trim = ([float(v) for v in page.obj[key]] for key in ("/MediaBox", "/BleedBox", "/TrimBox"))
            assert _inside(trim, bleed) and _inside(bleed, media), (path.name, trim, bleed, media)
            counts["pages"] += 1
        for resources, holder in forms_and_streams(pdf):
            for font in (resources.get("/Font") or {}).values():
                assert _embedded(font), (path.name, font.get("/BaseFont"))
                counts["fonts"] += 1
            for xobject in (resources.get("/XObject") or {}).values():
                if xobject.get("/Subtype") == "/Image":
                    counts["images"] += 1
                    assert xobject.ColorSpace == "/DeviceCMYK" and "/SMask" not in xobject
            for state in (resources.get("/ExtGState") or {}).values():
                assert float(state.get("/ca", 1)) == 1 and float(state.get("/CA", 1)) == 1 or level == "x4"
            for operands, operator in pikepdf.parse_content_stream(holder):
                name = str(operator)
                counts["operators"] += 1
                assert name not in RGB_OPERATORS, (path.name, name, operands)
                if name in ("cs", "CS"):
                    assert str(operands[0]) in ("/DeviceCMYK", "/DeviceGray", "/Pattern"), (path.name, operands)
    return counts


def _inside(inner: list[float], outer: list[float]) -> bool:
    return (inner[0] >= outer[0] - 1e-6 and inner[1] >= outer[1] - 1e-6 and inner[2] <= outer[2] + 1e-6
            and inner[3] <= outer[3] + 1e-6)


def _embedded(font) -> bool:
    if font.Subtype == "/Type0":
        font = font.DescendantFonts[0]
    if font.Subtype == "/Type3":
        return True  # glyphs drawn in the file itself
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


@lru_cache(maxsize=None)
def ghostscript() -> str:
    found = shutil.which("gs")
    assert found, "Ghostscript renders the CMYK proof: scripts/test installs it (apt-get install ghostscript)"
    return found


def most_ink(path: Path, tmp_path: Path) -> float:
    """The most ink (%) any pixel takes in a 150 dpi CMYK render of every page (Ghostscript)."""
    out = tmp_path / f"{path.stem}-%03d.tif"
    subprocess.run([ghostscript(), "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", "-r150",
                    f"-sOutputFile={out}", str(path)], check=True, capture_output=True, timeout=600)
    most = 0.0
    renders = sorted(tmp_path.glob(f"{path.stem}-*.tif"))
    assert renders
    for render in renders:
        inks = np.asarray(Image.open(render), dtype=np.int32)
        assert inks.shape[-1] == 4
        most = max(most, float(inks.sum(axis=-1).max()) * 100 / 255)
        render.unlink()
    return most


@pytest.mark.parametrize("level", ["x1a", "x4"])
def test_pdfx_files_declare_their_standard_and_keep_to_it(tmp_path, level):
    """PDF/X-1a and X-4 files of Bolsa's deck and rules booklet: the catalog's OutputIntent with
    the embedded CMYK output profile, GTS_PDFXVersion, every font embedded, TrimBox ⊂ BleedBox ⊂
    MediaBox on every page, no RGB colour operator or image, and at most 240 % ink at every
    pixel of a 150 dpi CMYK render of the booklet (the slow lane renders every component)."""
    paths = pdfx_files(tmp_path, level)
    assert [p.stem for p in paths] == ["shares", "rules_booklet"]
    total = {"pages": 0, "fonts": 0, "images": 0, "operators": 0}
    for path in paths:
        for key, value in check_pdfx(path, level).items():
            total[key] += value
    assert total["pages"] > 190 and total["fonts"] >= 3 and total["operators"] > 10_000
    assert INK_LIMIT - 60 < most_ink(paths[1], tmp_path) <= INK_LIMIT + INK_TOLERANCE  # its darkest: 182 %


def test_colours_and_images_go_through_the_profile_with_the_ink_limit_kept():
    """Greys print in black ink alone; saturated and dark colours stay within 240 %; a PNG with
    see-through pixels becomes CMYK with those pixels keyed out (400 %, a value no converted
    pixel takes)."""
    assert cmyk("#000000") == (0, 0, 0, 1) and cmyk("#1a1a1a")[:3] == (0, 0, 0)
    assert cmyk("#ffffff") == (0, 0, 0, 0)
    for colour in ("#000080", "#3b4a5a", "#7a5c2e", "#ff0000", "#00ff00", "#0000ff", "#101010", "#200010"):
        assert sum(cmyk(colour)) * 100 <= INK_LIMIT + 1e-6, colour
    rgba = Image.new("RGBA", (4, 2), (0, 0, 60, 255))
    rgba.putpixel((0, 0), (255, 0, 0, 0))
    import io
    buffer = io.BytesIO()
    rgba.save(buffer, "PNG")
    image, keyed = cmyk_image(buffer.getvalue())
    inks = np.asarray(image, dtype=np.int32)
    assert keyed and image.mode == "CMYK" and tuple(inks[0, 0]) == (255, 255, 255, 255)
    assert inks[1:, :].sum(axis=-1).max() * 100 / 255 <= INK_LIMIT and inks[1, 0].sum() > 0


def test_dtc_is_pdfx_1a_and_the_print_plan_names_the_standard(tmp_path):
    """`--profile dtc` writes PDF/X-1a:2003 without being asked; the combined file's print plan
    says which standard the shop's files meet."""
    out = tmp_path / "out"
    assert main(["build", "--game", "bolsa", "--out", str(out), "--profile", "dtc", "-q"]) == 0
    (deck,) = sorted((out / "bolsa" / "dtc").glob("*.pdf"))
    check_pdfx(deck, "x1a")
    text = pypdf.PdfReader(out / "bolsa" / "bolsa-all.pdf").pages[0].extract_text()
    assert "PDF/X-1a:2003" in text and "FOGRA39" in text and re.search(r"240\s*%", text)


def test_pdfx_with_a_png_profile_is_a_usage_error(tmp_path, capsys):
    spec = Path(__file__).resolve().parents[1] / "examples" / "tulips" / "components.yaml"
    assert main(["build", "--spec", str(spec), "--out", str(tmp_path / "o"), "--profile", "tgc", "--pdfx", "x1a"]) == 2
    assert "--pdfx x1a: --profile tgc writes PNG images, not PDFs" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("level", ["x1a", "x4"])
def test_every_bundled_kit_as_pdfx(tmp_path, level):
    """`pnp build --pdfx LEVEL` (every component as a print shop's PDF) on all three bundled games:
    every file keeps to the level, and none takes more than 240 % ink anywhere."""
    out = tmp_path / "out"
    assert main(["build", "--out", str(out), "--pdfx", level, "-q"]) == 0
    files = sorted(out.glob("*/pdf-trim/*.pdf"))
    assert {p.parts[-3] for p in files} == {"bolsa", "aktsioner", "forex"}
    for path in files:
        check_pdfx(path, level)
        assert most_ink(path, tmp_path) <= INK_LIMIT + INK_TOLERANCE, path


def test_pdfx_3_is_built_on_pdf_1_3_and_png_art_goes_in_cmyk_with_a_colour_key(tmp_path):
    """PDF/X-3:2002 is a PDF 1.3 file; a deck whose back is a PNG with see-through pixels is
    written with that image in DeviceCMYK, its clear pixels keyed out by a /Mask of 400 % ink
    (no soft mask, no transparency)."""
    from pnp.components import Context, generate
    from pnp.i18n import speaking
    from pnp.rules import load_spec
    from pnp.spec.translation import kit
    from spec_text import edit, write_spec

    folder = tmp_path / "spec"
    spec_file = write_spec(folder, edit('back: {title: Stock Exchange, subtitle: Share, color: "#3b4a5a", pattern: crosshatch}',
                                        "back: {image: art.png}"))
    art = Image.new("RGBA", (63, 88), (30, 90, 160, 255))
    art.paste((0, 0, 0, 0), (20, 20, 40, 60))
    art.save(folder / "art.png")
    spec = load_spec(spec_file)
    game = spec.games["bolsa"]
    made = kit("bolsa", game, game.language, folder)
    with speaking(made.language):
        pieces = generate(Context("bolsa", made.game, spec.print, spec.folder, made), made.game.component("shares"))
    (entry,) = write(tmp_path / "out", built("pdf-trim", "x3"), [faces_of("bolsa", game.component("shares"), pieces)])
    path = tmp_path / "out" / entry.path
    counts = check_pdfx(path, "x3")
    assert counts["images"] == 1 and open(path, "rb").read(9) == b"%PDF-1.3\n"
    with pikepdf.open(path) as pdf:
        (image,) = _images(pdf)
        assert [int(v) for v in image.Mask] == [255] * 8 and image.ColorSpace == "/DeviceCMYK"


def _images(pdf: pikepdf.Pdf) -> list:
    found = {}
    for resources, _ in forms_and_streams(pdf):
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.get("/Subtype") == "/Image":
                found[xobject.objgen] = xobject
    return list(found.values())
