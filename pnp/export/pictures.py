"""The gallery's pictures: each distinct face as a small JPEG, made where it is looked at and
kept by what it shows.

A picture is named by its face's drawing (`pnp.display.fingerprint`) and pnp's code, and kept
in the user's cache (`pnp.cache.user_folder()/pictures`, the latest `KEEP`), so no face is
pictured twice, whatever folder, kit or build it turns up in. Who makes them (docs/exports.md):

- `pnp build` makes none (they were a quarter of a cold build's CPU, for a page nobody may
  open): the faces pictured before are written into the gallery from the cache, the others
  show their name and size until they are pictured;
- `pnp build --gallery` pictures every face not pictured yet, in a forked worker beside the
  build (`pnp.build.Pictures`), off the path of the PDFs;
- `pnp watch --serve` pictures a face when the open page asks for it (its images load as they
  are scrolled to, a component's when its faces are opened), keeps it, and the next build
  writes it into the gallery: faces looked at once show from the file system too.
"""

from __future__ import annotations

import threading
from typing import Sequence

from pnp.cache import Blob, Cache, FolderStore, code_version, key, user_folder
from pnp.display import Drawing, fingerprint

PICTURES = "pictures"  # the user cache's folder, and its entries' kind
KEEP = 6000  # pictures kept (about 30 kB each); the oldest go first
THUMB_DPI = 100  # a poker card 272 × 370 px with its bleed
THUMB_MOST_PX = 1600  # a board's longer side at most
MAKE, KEPT, SERVE = "make", "kept", "serve"  # what a build does about the pictures it lacks (`Store.mode`)
Picture = tuple[str, "bytes | None"]  # a face's picture name, and the picture when there is one


def name(drawing: Drawing, memo: dict[int, bytes] | None = None) -> str:
    """The picture's name: what the face draws, and the code that pictures it (`memo` as
    `fingerprint` takes it: a drawn component's sub-trees are digested already)."""
    return key(code_version(), fingerprint(drawing, memo=memo))


def make(drawings: Sequence[Drawing]) -> list[bytes]:
    """Each face as the gallery shows it with its bleed, a JPEG each (all from one PDF), at `dpi`."""
    from pnp.render.png import drawings_png

    if not drawings:
        return []
    return drawings_png(list(drawings), [dpi(d.width + 2 * d.bleed, d.height + 2 * d.bleed) for d in drawings], jpeg=True)


def dpi(width_mm: float, height_mm: float) -> float:
    """The resolution a face of this size (bleed included) is pictured at."""
    return min(THUMB_DPI, THUMB_MOST_PX * 25.4 / max(width_mm, height_mm))


class Store:
    """The pictures a process has at hand: those kept in the user's cache (none when it is
    off), and — for the live preview — the drawings of faces not pictured yet, by name, to
    picture when asked. `mode` says what a build does about the pictures it lacks: `KEPT`
    nothing, `MAKE` makes them, `SERVE` leaves their drawings here."""

    def __init__(self, mode: str = KEPT) -> None:
        folder = user_folder()
        self.mode = mode
        self.cache = Cache(FolderStore(folder / PICTURES, KEEP)) if folder is not None else None
        self.made: dict[str, bytes] = {}  # pictured in this process with the cache off
        self.waiting: dict[str, Drawing] = {}
        self._lock = threading.Lock()  # the preview pictures in its server's thread

    def kept(self, picture: str) -> bytes | None:
        """The picture, if it was made before (in this process, or kept in the cache)."""
        found = self.made.get(picture)
        if found is None and self.cache is not None:
            found = self.cache.get(PICTURES, PICTURES, picture)
        return found if isinstance(found, bytes) else None

    def keep(self, picture: str, data: bytes) -> None:
        if self.cache is None:
            self.made[picture] = data
        else:
            self.cache.put(PICTURES, PICTURES, picture, Blob(data, "jpg"))

    def wait(self, picture: str, drawing: Drawing) -> None:
        """A face this build did not picture, for whoever asks for it later (`asked`)."""
        self.waiting[picture] = drawing

    def has(self, picture: str) -> bool:
        """Whether the picture can be had without drawing its face again."""
        return picture in self.waiting or self.kept(picture) is not None

    def asked(self, picture: str) -> bytes | None:
        """The picture, made now from its waiting face when it was not kept (None: no face
        of that name was drawn in this process)."""
        with self._lock:
            found = self.kept(picture)
            if found is None and picture in self.waiting:
                (found,) = make([self.waiting[picture]])
                self.keep(picture, found)
            return found
