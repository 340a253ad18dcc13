"""Print-shop profiles (`pnp build --profile NAME`): each shop a row of data, one writer per kind
of file.

A profile says what a shop prints (card products: trim size, and the pixels it wants with the
bleed), how far its bleed runs, the PDF/X level its PDFs are (CMYK through the output profile
of `pnp.render.cmyk`; none: RGB), and how its files are laid out. Before anything is written
every component is checked against the profile and each misfit is named (the card size, a
missing bleed, SVG art a PDF/X file cannot hold in CMYK); then each deck's faces are fitted to
the product: the design's trim scaled onto the product's trim, the design's bleed stretched (or
squeezed) onto the product's — never cropped into the card, so the safe zone stays where the
designer put it.

The rows follow the shops' published specifications:

- The Game Crafter: PNG or JPG, RGB only ("CMYK images will be rejected"), 300 dpi, 1/8 in
  bleed: a poker card 2.5 × 3.5 in is 825 × 1125 px, a mini card 1.75 × 2.5 in 600 × 825 px,
  a bridge card 2.25 × 3.5 in 750 × 1125 px (thegamecrafter.com, product templates).
- MakePlayingCards: poker cards 822 × 1122 px at 300 dpi, the 2.5 × 3.5 in card with 36 px
  (0.12 in) of bleed a side (makeplayingcards.com, poker-size template).
- DriveThruCards: one PDF per deck, the back of card 1 then its front, the back of card 2 then
  its front…; PDF/X-1a:2003, CMYK at most 240 % ink; 1/8 in bleed on all four sides, so a poker
  card is a 2.75 × 3.75 in page; nothing important within 1/8 in of the cut; images not PNG
  (help.drivethrupartners.com, "Specifications for printed cards"; "Common card prep issues").
- offset: offset printers of games (Panda GM, MBPrint): every component, CMYK with a named
  output condition (FOGRA39), 3 mm bleed; PDF/X-1a:2003, which they all take.
- pdf-trim: any shop that takes PDFs: every component one piece a page at its own size and
  bleed, each page with its TrimBox and BleedBox (ISO 32000-1 §14.11.2, page boundaries); RGB,
  or PDF/X of the level `--pdfx` names (PrintSafari recommends PDF/X-3:2002).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, Sequence

from pnp import manifest
from pnp.display import Drawing, Group, Image, Item, Page, Rect, Style, compose, place, scale, translate
from pnp.errors import BuildError, UsageError
from pnp.export.faces import ComponentFaces, Face, Rasters
from pnp.render.cmyk import CONDITION, INK_LIMIT, LEVELS

MM_PER_IN = 25.4
SIZE_TOLERANCE = 0.02  # a deck may differ this much (per side) from a product and be scaled onto it
PDF_LARGEST_MM = 200 * MM_PER_IN  # the largest page a PDF viewer (Acrobat) handles at 1 unit = 1 pt


@dataclass(frozen=True)
class Product:
    """A card size a shop prints."""

    name: str
    trim_in: tuple[float, float]  # width, height of the cut card, inches

    @property
    def trim_mm(self) -> tuple[float, float]:
        return (self.trim_in[0] * MM_PER_IN, self.trim_in[1] * MM_PER_IN)


@dataclass(frozen=True)
class Profile:
    """One shop's requirements, as data."""

    name: str
    shop: str
    output: Literal["png", "pdf"]  # png: an image per distinct face; pdf: a page per printed face
    bleed_in: float | None = 0.125  # the shop's bleed a side; None: the design's own
    products: tuple[Product, ...] = ()  # the card sizes it prints; () takes any size
    kinds: tuple[str, ...] = ("deck",)  # the components it exports
    order: Literal["front-back", "back-front"] = "front-back"  # pages of one piece in a PDF
    pdfx: str | None = None  # its PDFs' PDF/X level (CMYK; `pnp.render.cmyk.LEVELS`); None: RGB
    dpi: int = 300

    @property
    def colour(self) -> Literal["RGB", "CMYK"]:
        return "CMYK" if self.pdfx else "RGB"

    def pixels(self, product: Product) -> tuple[int, int]:
        """The image a shop wants for a product: its trim plus the bleed, at the profile's dpi."""
        bleed = self.bleed_in or 0.0
        return (round((product.trim_in[0] + 2 * bleed) * self.dpi), round((product.trim_in[1] + 2 * bleed) * self.dpi))


POKER, MINI, BRIDGE = Product("poker", (2.5, 3.5)), Product("mini", (1.75, 2.5)), Product("bridge", (2.25, 3.5))
EVERY_KIND = ("deck", "tokens", "money", "board", "mat", "aid", "form", "booklet")
PROFILES = {p.name: p for p in (
    Profile("tgc", "The Game Crafter", "png", products=(POKER, MINI, BRIDGE)),
    Profile("mpc", "MakePlayingCards", "png", bleed_in=0.12, products=(POKER,)),
    Profile("dtc", "DriveThruCards", "pdf", products=(POKER,), order="back-front", pdfx="x1a"),
    Profile("offset", "offset printers (Panda GM, MBPrint)", "pdf", bleed_in=3 / MM_PER_IN, kinds=EVERY_KIND,
            pdfx="x1a"),
    Profile("pdf-trim", "any print shop taking PDFs", "pdf", bleed_in=None, kinds=EVERY_KIND),
)}  # fmt: skip


def profile_named(name: str, pdfx: str | None = None) -> Profile:
    """The profile called `name`, its PDFs of PDF/X level `pdfx` when one is given."""
    if name not in PROFILES:
        raise UsageError(f"--profile {name}: no such profile (known: {', '.join(PROFILES)}; "
                         "`--profile list` describes them)")
    profile = PROFILES[name]
    if pdfx and pdfx != "none":
        if profile.output != "pdf":
            raise UsageError(f"--pdfx {pdfx}: --profile {name} writes PNG images, not PDFs "
                             f"(PDF profiles: {', '.join(p.name for p in PROFILES.values() if p.output == 'pdf')})")
        profile = replace(profile, pdfx=pdfx)
    return profile


def built(name: str, pdfx: str) -> Profile:
    """The profile as a build writes it: its PDFs of the print settings' PDF/X level when one is
    set (`print.pdfx`; a PNG profile has none to set)."""
    profile = profile_named(name)
    return profile_named(name, pdfx) if profile.output == "pdf" else profile


def describe() -> str:
    """What `pnp build --profile list` prints: one line per profile."""
    lines = []
    for p in PROFILES.values():
        sizes = ", ".join(f"{q.name} {q.trim_in[0]:g}×{q.trim_in[1]:g} in"
                          + (f" = {'×'.join(map(str, p.pixels(q)))} px" if p.output == "png" else "")
                          for q in p.products) or "any size"
        bleed = "the design's bleed" if p.bleed_in is None else f"{p.bleed_in * MM_PER_IN:.4g} mm bleed"
        what = "decks" if p.kinds == ("deck",) else "every component"
        files = f"PNG per face at {p.dpi} dpi" if p.output == "png" else f"PDF per component, {p.order} pages"
        colour = (f"{LEVELS[p.pdfx].version}, CMYK for {CONDITION.identifier} ≤ {INK_LIMIT:g} % ink" if p.pdfx
                  else "RGB (--pdfx x1a|x3|x4: PDF/X)" if p.output == "pdf" else "RGB")
        lines.append(f"{p.name:<9} {p.shop}: {what}, {files}, {colour}, {bleed}; {sizes}")
    return "\n".join(lines)


# --- checks ---------------------------------------------------------------------------------


def product_for(profile: Profile, faces: ComponentFaces) -> Product | None:
    """The product a component's pieces print as (None for a profile that takes any size)."""
    if not profile.products:
        return None
    w, h = faces.faces[0].size_mm
    for product in profile.products:
        pw, ph = product.trim_mm
        if abs(w - pw) <= SIZE_TOLERANCE * pw and abs(h - ph) <= SIZE_TOLERANCE * ph:
            return product
    return None


def check(profile: Profile, components: Sequence[ComponentFaces]) -> None:
    """Every reason the components cannot go to the profile's shop, at once (`BuildError`)."""
    problems = []
    for c in components:
        if c.component.kind not in profile.kinds or not c.faces:
            continue
        where = f"--profile {profile.name}: {c.game_id}/{c.id}"
        w, h = c.faces[0].size_mm
        if profile.products and product_for(profile, c) is None:
            sizes = ", ".join(f"{q.name} {q.trim_mm[0]:.1f} × {q.trim_mm[1]:.1f} mm" for q in profile.products)
            problems.append(f"{where}: cards are {w:g} × {h:g} mm; {profile.shop} prints {sizes} "
                            f"(±{SIZE_TOLERANCE:.0%} a side)")
        bleed = c.faces[0].drawing.bleed
        if profile.bleed_in and c.pieces and bleed <= 0:
            problems.append(f"{where}: the design has no bleed to stretch to {profile.shop}'s "
                            f"{profile.bleed_in * MM_PER_IN:.2f} mm (set print.bleed_mm)")
        for face in c.faces:
            if profile.output == "pdf" and max(face.size_mm) + 2 * face.drawing.bleed > PDF_LARGEST_MM:
                problems.append(f"{where} {face.name}: {max(face.size_mm):g} mm is larger than a PDF page can be "
                                f"({PDF_LARGEST_MM:g} mm)")
            if profile.pdfx:
                problems += _pdfx_problems(profile, face, where)
    if problems:
        raise BuildError("\n".join(dict.fromkeys(problems)))


def _pdfx_problems(profile: Profile, face: Face, where: str) -> list[str]:
    """SVG art a PDF/X file cannot hold in CMYK: a gradient, or a raster inside it (PNG and
    JPEG art, and every colour, are converted through the output profile)."""
    from pnp.components.art import walk

    problems = []
    for _, item in walk(face.drawing.items):
        if isinstance(item, Image) and item.format == "svg":
            text = item.data.decode("utf-8", "replace")
            if any(tag in text for tag in ("<linearGradient", "<radialGradient", "<image")):
                problems.append(f"{where}: {item.name or 'an SVG image'} has a gradient or an image inside, which "
                                f"{LEVELS[profile.pdfx or 'x1a'].version} for {profile.shop} cannot hold in CMYK: "
                                "flatten it, or give the art as PNG")
    return problems


# --- writing --------------------------------------------------------------------------------


def write(root: Path, profile: Profile, components: Sequence[ComponentFaces],
          rasters: Rasters | None = None) -> list[manifest.FileEntry]:
    """The profile's files for the components it takes, under `<game>/<profile>/` (checked first)."""
    rasters = rasters or Rasters()
    check(profile, components)
    files: list[manifest.FileEntry] = []
    for c in components:
        if c.component.kind not in profile.kinds:
            continue
        folder = root / c.game_id / profile.name
        product = product_for(profile, c)
        if profile.output == "png":
            assert product is not None
            target = folder / c.id
            target.mkdir(parents=True)
            for face in c.faces:
                path = target / c.file_name(face, "png")
                path.write_bytes(fitted_png(face.drawing, profile, product, rasters))
                files.append(manifest.file_entry(root, path, c.game_id, c.id, "png", 1))
        else:
            folder.mkdir(parents=True, exist_ok=True)
            from pnp.render.pdf import pdf_bytes

            pages = [_pdf_page(c.face(name).drawing, profile, product) for name in _page_order(profile, c)]
            path = folder / f"{c.id}.pdf"
            path.write_bytes(pdf_bytes(pages, title=f"{c.id} — {profile.shop}", subject=c.game_id, pdfx=profile.pdfx))
            files.append(manifest.file_entry(root, path, c.game_id, c.id, "pdf", len(pages)))
    return files


def _page_order(profile: Profile, c: ComponentFaces) -> list[str]:
    """The faces of every printed piece in the order the shop reads them: front then back, or
    (DriveThruCards) back then front; panels and pages one after another."""
    if not c.pieces:
        return [face.name for face in c.faces for _ in range(face.quantity)]
    names = []
    for kind in c.kinds:
        pair = [kind.front] + ([kind.back] if kind.back else [])
        names += (pair[::-1] if profile.order == "back-front" else pair) * kind.quantity
    return names


def fitted_png(drawing: Drawing, profile: Profile, product: Product, rasters: Rasters | None = None) -> bytes:
    """The face as the product's image: the design's trim resized onto the product's trim, each
    of the eight bleed strips stretched onto the product's bleed (nine slices), so the card is
    never cropped and only the bleed changes shape."""
    from PIL import Image as PILImage

    width, height = profile.pixels(product)
    trim_w, trim_h = round(product.trim_in[0] * profile.dpi), round(product.trim_in[1] * profile.dpi)
    w, h, b = drawing.width, drawing.height, drawing.bleed
    source = (rasters or Rasters()).image(drawing)
    k_x, k_y = source.width / (w + 2 * b), source.height / (h + 2 * b)
    from_x = (0.0, b * k_x, (b + w) * k_x, float(source.width))
    from_y = (0.0, b * k_y, (b + h) * k_y, float(source.height))
    left, top = (width - trim_w) // 2, (height - trim_h) // 2
    to_x, to_y = (0, left, left + trim_w, width), (0, top, top + trim_h, height)
    image = PILImage.new("RGB", (width, height), "white")
    for i in range(3):
        for j in range(3):
            size = (to_x[i + 1] - to_x[i], to_y[j + 1] - to_y[j])
            if min(size) <= 0 or from_x[i + 1] <= from_x[i] or from_y[j + 1] <= from_y[j]:
                continue
            box = (from_x[i], from_y[j], from_x[i + 1], from_y[j + 1])
            image.paste(source.resize(size, PILImage.Resampling.LANCZOS, box=box), (to_x[i], to_y[j]))
    assert image.size == (width, height) and image.mode == profile.colour
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(profile.dpi, profile.dpi))
    return buffer.getvalue()


def _pdf_page(drawing: Drawing, profile: Profile, product: Product | None) -> Page:
    """One printed face as a page of trim plus bleed, with its TrimBox and BleedBox. With a
    product the trim is scaled onto the product's and, where the shop's bleed is wider than the
    design's, a copy of the face enlarged to cover the page lies under it: the design's bleed
    runs on to the page's edge."""
    w, h, b = drawing.width, drawing.height, drawing.bleed
    trim_w, trim_h = product.trim_mm if product else (w, h)
    bleed = profile.bleed_in * MM_PER_IN if profile.bleed_in is not None else b
    page_w, page_h = trim_w + 2 * bleed, trim_h + 2 * bleed
    sx, sy = trim_w / w, trim_h / h
    face = Group((place(drawing, 0, 0),), compose(translate(bleed, bleed), scale(sx, sy)))
    items: tuple[Item, ...] = (face,)
    if b * min(sx, sy) < bleed - 1e-6 and b > 0:
        cover_x, cover_y = page_w / (w + 2 * b), page_h / (h + 2 * b)
        under = Group((place(drawing, b, b),), scale(cover_x, cover_y), Rect(0, 0, w + 2 * b, h + 2 * b, Style()))
        items = (under, face)
    return Page(page_w, page_h, items, trim=(bleed, bleed, trim_w, trim_h), bleed=(0.0, 0.0, page_w, page_h))

