"""Colour for print shops: sRGB to CMYK through a CMYK output profile, the ink limit kept, and
what each PDF/X level asks of a file.

The profile is `pnp/data/icc/pnp-fogra39-240.icc` (CC0; `pnp/data/icc/README.md` says how it
was made): ArgyllCMS's profile of the FOGRA39 characterization data — coated paper, sheet-fed
offset to ISO 12647-2:2004, the condition European printers name — separated with maximum grey
component replacement and a total ink limit of `INK_LIMIT`, DriveThruCards' (which every offset
limit is above). Colours and images go through it with LittleCMS (Pillow's ImageCms), relative
colorimetric; then:

- a neutral grey (r = g = b) prints in black ink alone, so text and hairlines stay sharp however
  the plates register;
- the ink limit is kept exactly: the profile's tables interpolate up to a percent over it, so
  cyan, magenta and yellow are scaled down where the sum would pass it (black kept).

A PDF/X file declares the profile as its output intent (`CONDITION`), so the shop's RIP knows
what the CMYK numbers mean. `LEVELS` lists what each level needs: its version strings, the PDF
version it is built on, and whether it allows transparency (only PDF/X-4 does).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import ImageCms
    from PIL.Image import Image as PILImage

INK_LIMIT = 240.0  # % — the profile's own limit, and the most any colour or pixel here takes
PROFILE_FILE = "pnp-fogra39-240.icc"
KEY = (255, 255, 255, 255)  # 400 % ink: no converted pixel has it, so it marks the see-through ones


@dataclass(frozen=True)
class Condition:
    """The printing condition a PDF/X file is made for (its OutputIntent)."""

    identifier: str  # OutputConditionIdentifier: a name in the ICC's registry
    registry: str
    info: str


CONDITION = Condition("FOGRA39", "http://www.color.org",
                      "Coated FOGRA39 (ISO 12647-2:2004), total ink 240 %, profile pnp-fogra39-240 (CC0)")


@dataclass(frozen=True)
class Level:
    """A PDF/X level: what its file says it is, and what it allows."""

    name: str  # as `--pdfx` takes it
    version: str  # the Info dictionary's GTS_PDFXVersion
    conformance: str | None  # its GTS_PDFXConformance, where the level has one
    pdf_version: tuple[int, int]  # the PDF version the level is built on
    transparency: bool  # soft masks and alpha below 1 allowed


LEVELS = {level.name: level for level in (
    Level("x1a", "PDF/X-1a:2003", "PDF/X-1a:2003", (1, 4), False),  # ISO 15930-4: CMYK and spot only
    Level("x3", "PDF/X-3:2002", "PDF/X-3:2002", (1, 3), False),  # ISO 15930-3
    Level("x4", "PDF/X-4", None, (1, 6), True),  # ISO 15930-7: transparency kept live
)}  # fmt: skip


def profile_bytes() -> bytes:
    """The CMYK output profile, as embedded in every PDF/X file."""
    return resources.files("pnp").joinpath("data").joinpath("icc").joinpath(PROFILE_FILE).read_bytes()


@lru_cache(maxsize=1)
def _transform() -> "ImageCms.ImageCmsTransform":
    from PIL import ImageCms

    target = ImageCms.ImageCmsProfile(io.BytesIO(profile_bytes()))
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), target, "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


@lru_cache(maxsize=4096)
def cmyk(colour: str) -> tuple[float, float, float, float]:
    """"#rrggbb" as CMYK in 0…1 through the profile: a grey in black alone, the ink limit kept."""
    from PIL import Image

    value = colour.lstrip("#")
    rgb = tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))
    pixel = Image.new("RGB", (1, 1), (rgb[0], rgb[1], rgb[2]))
    c, m, y, k = _limited(Image.frombytes("CMYK", (1, 1), _apply(pixel))).getpixel((0, 0))  # type: ignore[misc]  # a CMYK pixel is four numbers
    if rgb[0] == rgb[1] == rgb[2]:
        c = m = y = 0
    return (round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4))


def _apply(image: "PILImage") -> bytes:
    from PIL import ImageCms

    converted = ImageCms.applyTransform(image, _transform())
    assert converted is not None  # a new image, not converted in place
    return converted.tobytes()


def _limited(image: "PILImage") -> "PILImage":
    """A CMYK image with cyan, magenta and yellow scaled down wherever the four inks would pass
    `INK_LIMIT` (black as it is)."""
    import numpy as np
    from PIL import Image

    inks = np.asarray(image, dtype=np.int32).copy()
    total = inks.sum(axis=-1)
    limit = int(INK_LIMIT / 100 * 255)
    over = total > limit
    if over.any():
        colour = inks[over][:, :3]
        room = limit - inks[over][:, 3]
        scale = room / np.maximum(colour.sum(axis=-1), 1)
        inks[over, :3] = np.floor(colour * scale[:, None]).astype(np.int32)
    return Image.fromarray(inks.astype(np.uint8), "CMYK")


def cmyk_image(data: bytes) -> tuple["PILImage", bool]:
    """A PNG or JPEG as a CMYK image through the profile, the ink limit kept; and whether it has
    see-through pixels (alpha below a half), which are set to `KEY` for a colour-key mask — the
    masking PDF/X-1a and X-3 allow, being no transparency."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as source:
        source.load()
        if source.mode == "CMYK":
            return _limited(source), False
        alpha = source.convert("RGBA").getchannel("A") if _has_alpha(source) else None
        rgb = source.convert("RGB")
    image = _limited(Image.frombytes("CMYK", rgb.size, _apply(rgb)))
    if alpha is None or alpha.getextrema()[0] >= 128:
        return image, False
    clear = alpha.point(lambda a: 255 if a < 128 else 0)
    image.paste(KEY, mask=clear)
    return image, True


def _has_alpha(image: "PILImage") -> bool:
    return image.mode in ("RGBA", "LA", "PA") or (image.mode in ("P", "L", "RGB") and "transparency" in image.info)
