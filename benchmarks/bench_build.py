"""`pnp build` speed, incremental rebuilds, the live preview, and the size of vector PDFs
against the same cards as images: every figure issue 44 holds a build to, as ratios measured in
one run (the machine is shared: the load average when it began is printed first).

Figures: the wall time of building all three games as PDF (in process, best of three, and
once as a fresh `pnp build` command, imports included); a cold `pnp build` command against the
floor — as many pages of cards drawn straight with reportlab (`floor_reportlab.py`) — side by
side in one run, as CPU time (the build's render workers included) and as wall time, best of
two each (target ≤ 10×); where such a build's CPU goes, stage by stage, in one process
(`build_stages.py`, the pre-flight checks apart), and the whole against the rendering of the
kit's own pages in it (target ≤ 2×), the rendering against the floor; the gallery's pictures
made with `--gallery` against a plain build; a rebuild after one card value changed (a For-Ex
dividend's payout), as a fresh command into the same folder, against the cold build of that
run, CPU and wall (target ≤ 1/4); every kit's cold build (`--lang all`) against one language's
(target ≤ 2.5×); `pnp watch --serve`: from a save to the open page told of the new build
(target ≤ 1 s); the pages and bytes written; how many times larger the Bolsa share deck
becomes as 300-dpi images in a PDF (target ≥ 10×); `pnp validate` on the bundled spec as a
fresh command, in CPU seconds (best of three): with nothing of the spec remembered (every
game laid out in every language; target ≤ 1 s) and again; `pnp referee check` on a starter
record against `python -c "import yaml"` (`timing.start_up_ratios`: target ≤ 3×); and for a
spec of 3,000 distinct faces, each stage's CPU per face against a spec of 300
(`scale.py`: target ≤ 1.5×, every stage growing no faster than the faces).

Nothing here reads or writes the caller's user cache (`$PNP_CACHE`, `pnp.cache.user_folder`):
the builds in this process and every command use folders of the scratch folder, each cold
command an empty one, so "cold" is a first build on a fresh machine (the engines' parameters
and the program's texts to translate worked out too) whatever the caller built before.
"""

from __future__ import annotations

import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from scale import per_face_growth
from timing import start_up_ratios

RUNS = 3
DPI = 300
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's pnp; `env` adds a user cache


def main() -> list[tuple[str, float, str]]:
    from pnp.build import build
    from pnp.rules import load_spec

    load = os.getloadavg()[0]
    spec = load_spec(None)
    games = tuple(spec.games)
    with tempfile.TemporaryDirectory() as scratch, _user_cache(Path(scratch) / "in-process"):
        times, summary = [], None
        for run in range(RUNS):
            started = time.perf_counter()
            summary = build(spec, Path(scratch) / f"out{run}", games, ("pdf",))
            times.append(time.perf_counter() - started)
        out = Path(scratch) / "out0"
        pdf_bytes = sum(p.stat().st_size for p in out.rglob("*.pdf"))
        cold = _command(Path(scratch) / "cold")
        edited = Path(scratch) / "edited.yaml"
        edited.write_text(_one_card_value(), encoding="utf-8")
        (Path(scratch) / "locale").symlink_to(_bundled_locale())  # the kits' catalogs, found beside the spec
        incremental = _command(Path(scratch) / "cold", "--spec", str(edited))
        vector, raster = _vector_vs_raster(out / "bolsa" / "shares.pdf")
        floor, build_cold = _side_by_side(Path(scratch), summary.pages)
        one, every = _languages(Path(scratch))
        gallery = _timed([sys.executable, "-m", "pnp", "build", "-q", "--gallery", "--out", str(Path(scratch) / "gallery")],
                         Path(scratch) / "gallery-user-cache")
        stages = _stages(Path(scratch))
        preview = _preview(Path(scratch))
        validate_cold, validate_warm = _validate(Path(scratch))
    referee_warm, referee_cold = start_up_ratios(_small_record())
    growth = per_face_growth(300, 3000)
    return [
        ("load average (1 min) when the benchmark began", load, "processes"),
        ("build 3 games, PDF (best of 3)", min(times), "s"),
        ("pnp build command, fresh process", cold[1], "s"),
        (f"floor: {summary.pages} pages of cards straight with reportlab, CPU", floor[0], "s"),
        ("cold pnp build command, CPU (workers included)", build_cold[0], "s"),
        ("cold build / floor, CPU (target ≤ 10)", build_cold[0] / floor[0], "×"),
        ("cold build / floor, wall", build_cold[1] / floor[1], "×"),
        *((f"cold build in one process, CPU: {stage}", seconds, "s") for stage, seconds in stages.items()),
        ("cold build / rendering its own pages, CPU in one process (target ≤ 2)",
         stages["in all"] / stages["rendering the sheets"], "×"),
        ("rendering the sheets alone / floor, CPU", stages["rendering the sheets"] / floor[0], "×"),
        ("cold build with --gallery (every face pictured beside it) / plain, CPU", gallery[0] / build_cold[0], "×"),
        ("watch --serve: save → page told of the new build", preview, "s"),
        ("same command after one card value changed, CPU", incremental[0], "s"),
        ("one card value changed / cold, CPU (target ≤ 0.25)", incremental[0] / cold[0], "×"),
        ("one card value changed / cold, wall", incremental[1] / cold[1], "×"),
        ("cold build of every kit, --lang all, CPU", every, "s"),
        ("--lang all / one language's build, CPU (target ≤ 2.5)", every / one, "×"),
        ("pages to print", float(summary.pages), "pages"),
        ("PDF bytes written", pdf_bytes / 1e6, "MB"),
        ("bolsa shares.pdf, vector", vector / 1e3, "kB"),
        (f"bolsa shares as {DPI}-dpi images", raster / 1e3, "kB"),
        ("images / vector", raster / vector, "×"),
        ("pnp validate command, nothing of the spec remembered, CPU (target ≤ 1)", validate_cold, "s"),
        ("pnp validate command, same spec again, CPU", validate_warm, "s"),
        ("pnp referee check, small record / python -c 'import yaml', wall (target ≤ 3)", referee_warm, "×"),
        ("the same, the spec seen for the first time", referee_cold, "×"),
        *((f"3,000 distinct faces: {stage}, per face / at 300 faces, CPU (target ≤ 1.5)", ratio, "×")
          for stage, (_, _, ratio) in growth.items()),
        *((f"3,000 distinct faces: {stage}, CPU per face", at_large, "ms") for stage, (_, at_large, _) in growth.items()),
    ]


@contextmanager
def _user_cache(folder: Path) -> Iterator[None]:
    """`folder` as this process's user cache inside the block (the caller's back after)."""
    before = os.environ.get("PNP_CACHE")
    os.environ["PNP_CACHE"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            del os.environ["PNP_CACHE"]
        else:
            os.environ["PNP_CACHE"] = before


def env(cache: Path) -> dict[str, str]:
    """The commands' environment with `cache` as their user cache (a new folder: a cold command)."""
    return {**ENV, "PNP_CACHE": str(cache)}


def _command(out: Path, *options: str) -> tuple[float, float]:
    """A `pnp build` command into `out`, with the user cache of `out`'s other commands: its
    CPU (workers included) and wall seconds."""
    return _timed([sys.executable, "-m", "pnp", "build", "--out", str(out), *options], out.parent / f"{out.name}-user-cache")


def _languages(scratch: Path) -> tuple[float, float]:
    """CPU seconds of a cold build of the three kits and of all nine (`--lang all`), each in
    an empty folder with an empty user cache, alternated twice: the best of each."""
    one, every = [], []
    for run in range(2):
        one.append(_timed([sys.executable, "-m", "pnp", "build", "-q", "--out", str(scratch / f"one{run}")],
                          scratch / f"one-user-cache{run}")[0])
        every.append(_timed([sys.executable, "-m", "pnp", "build", "-q", "--lang", "all", "--out",
                             str(scratch / f"every{run}")], scratch / f"every-user-cache{run}")[0])
    return min(one), min(every)


def _small_record() -> str:
    """A starter record of Bolsa for three: what a player checks at the table."""
    done = subprocess.run([sys.executable, "-m", "pnp", "referee", "new", "bolsa", "--players", "Ana,Ben,Cris"],
                          check=True, capture_output=True, text=True, cwd=ROOT, env=ENV)
    return done.stdout


def _timed(argv: list[str], cache: Path) -> tuple[float, float]:
    """(CPU seconds of the process and every child it waited for, wall seconds), with `cache` as
    the user cache."""
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, cwd=ROOT, env=env(cache))
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def _validate(scratch: Path) -> tuple[float, float]:
    """CPU seconds of `pnp validate` with nothing of the spec remembered — no game as laid out,
    no language's measurements (the engines' parameters cached, as after any earlier command) —
    then again: the best of three each."""
    from pnp.build import MEASURES

    cache = scratch / "validate-cache"
    cold, warm = [], []
    for times in [[]] + [cold, warm] * RUNS:  # the first run only fills the engine-parameter cache
        if times is cold:
            shutil.rmtree(cache / "validate", ignore_errors=True)
            shutil.rmtree(cache / MEASURES, ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "pnp", "validate"], check=True, capture_output=True, cwd=ROOT,
                       env=env(cache))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return min(cold), min(warm)


def _side_by_side(scratch: Path, pages: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The floor and a cold build (an empty output folder, an empty user cache), alternated
    twice; the best of each (CPU, wall)."""
    floors, builds = [], []
    for run in range(2):
        floors.append(_timed([sys.executable, str(HERE / "floor_reportlab.py"), str(pages), str(scratch / "floor.pdf")],
                             scratch / f"floor-user-cache{run}"))
        builds.append(_timed([sys.executable, "-m", "pnp", "build", "-q", "--out", str(scratch / f"side{run}")],
                             scratch / f"side-user-cache{run}"))
    return (min(f[0] for f in floors), min(f[1] for f in floors)), (min(b[0] for b in builds), min(b[1] for b in builds))


def _stages(scratch: Path) -> dict[str, float]:
    """Where a cold build's CPU goes (`build_stages.py`, an empty user cache each): the run
    whose build took least CPU of two."""
    runs = []
    for run in range(2):
        done = subprocess.run([sys.executable, str(HERE / "build_stages.py"), str(scratch / f"stages{run}")],
                              check=True, capture_output=True, cwd=ROOT, env=env(scratch / f"stages-user-cache{run}"))
        runs.append(json.loads(done.stdout))
    return min(runs, key=lambda stages: stages["in all"])


def _preview(scratch: Path) -> float:
    """`pnp watch --serve` on the example game, the bulbs' back edited: the best of three saves,
    from the write to the event that tells the open page of the new build (the page then
    fetches it)."""
    import urllib.request

    spec = scratch / "tulips.yaml"
    text = (ROOT / "examples" / "tulips" / "components.yaml").read_text(encoding="utf-8")
    spec.write_text(text, encoding="utf-8")
    os.symlink(ROOT / "examples" / "tulips" / "art", scratch / "art")
    os.symlink(ROOT / "examples" / "tulips" / "market.csv", scratch / "market.csv")
    watch = subprocess.Popen([sys.executable, "-m", "pnp", "watch", "-q", "--spec", str(spec), "--out",
                              str(scratch / "live"), "--serve", "--port", "0"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, cwd=ROOT, env=env(scratch / "live-user-cache"))
    try:
        address = next(line.split(": ", 1)[1].strip() for line in watch.stdout if line.startswith("live preview:"))
        versions: list[tuple[float, int]] = []

        def listen() -> None:
            with urllib.request.urlopen(address + "events") as stream:
                for line in stream:
                    if line.startswith(b"data: "):
                        versions.append((time.perf_counter(), json.loads(line[6:])["version"]))

        threading.Thread(target=listen, daemon=True).start()
        _wait(lambda: versions and versions[-1][1] >= 1)
        best = float("inf")
        for n in range(3):
            seen, saved = len(versions), time.perf_counter()
            spec.write_text(text.replace('back: {title: Bulb, color: "#2e7d32"}',
                                         f'back: {{title: Bulb {n}, color: "#2e7d32"}}', 1), encoding="utf-8")
            _wait(lambda seen=seen: len(versions) > seen)
            best = min(best, versions[seen][0] - saved)
        return best
    finally:
        watch.terminate()
        watch.wait(timeout=30)


def _wait(done, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("pnp watch --serve did not answer")
        time.sleep(0.01)


def _one_card_value() -> str:
    """The bundled spec with one For-Ex dividend card paying 4 instead of 2."""
    from pnp.spec.source import bundled_spec_path

    text = bundled_spec_path().read_text(encoding="utf-8")
    old = '{value: "3", title: Dividend, text: "Pays {pays} per certificate", data: {pays: 2}}'
    assert old in text, "the benchmark's edit no longer matches the bundled spec"
    return text.replace(old, old.replace("pays: 2", "pays: 4"))


def _bundled_locale() -> Path:
    from pnp.spec.source import bundled_spec_path

    return bundled_spec_path().parent / "locale"


def _vector_vs_raster(pdf: Path) -> tuple[int, int]:
    """The deck's PDF size, and the size of the same pages rasterised at 300 dpi into an image
    PDF with pillow (what a scanned or image-based print-and-play file would weigh)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    images = [document[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(len(document))]
    buffer = io.BytesIO()
    images[0].save(buffer, "PDF", resolution=DPI, save_all=True, append_images=images[1:])
    return pdf.stat().st_size, len(buffer.getvalue())
