"""pnp published like a Python tool: `python -m build` makes a wheel and an sdist of the
distribution `pnp-kit` (`pnp` on the package index is another project), and the wheel,
installed into a fresh virtual environment with its dependencies, runs `pnp build` and
`pnp referee check` from any folder — the bundled spec, fonts, catalogs and rules travel in it.

Slow: a build of the distribution and a fresh environment (about 40 s with pip's cache warm)."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import tomllib

import pnp

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "records" / "bolsa" / "x01_setup_4.yaml"


def test_the_distribution_has_a_free_name_and_one_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == "pnp-kit" and "version" not in project and project["dynamic"] == ["version"]
    assert project["scripts"] == {"pnp": "pnp.cli:main"}


@pytest.mark.slow
def test_the_wheel_installs_into_a_fresh_environment_and_builds(tmp_path):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)], check=True,
                   capture_output=True, timeout=600)
    wheel, = dist.glob("pnp_kit-*.whl")
    sdist, = dist.glob("pnp_kit-*.tar.gz")
    assert wheel.name == f"pnp_kit-{pnp.__version__}-py3-none-any.whl"
    inside = zipfile.ZipFile(wheel).namelist()
    for data in ("pnp/data/components.yaml", "pnp/data/locale/es/bolsa.po", "pnp/table/templates/page.html"):
        assert data in inside, data
    assert not [n for n in inside if n.startswith("tests/")]  # the package only
    with tarfile.open(sdist) as archive:
        assert f"pnp_kit-{pnp.__version__}/pnp/data/components.yaml" in archive.getnames()

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True, capture_output=True,
                   timeout=900)
    command = venv / "bin" / "pnp"
    work = tmp_path / "work"
    work.mkdir()
    where = subprocess.run([str(python), "-c", "import pnp; print(pnp.__file__)"], cwd=work, capture_output=True,
                           text=True, check=True).stdout
    assert where.startswith(str(venv))  # the installed package, not this checkout

    version = subprocess.run([str(command), "--version"], cwd=work, capture_output=True, text=True, timeout=60)
    assert version.stdout.strip() == f"pnp {pnp.__version__}"
    built = subprocess.run([str(command), "build", "--game", "bolsa", "-q"], cwd=work, capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0, built.stderr
    manifest = json.loads((work / "output" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["pnp"] == pnp.__version__
    assert (work / "output" / "bolsa" / "bolsa-all.pdf").stat().st_size > 100_000
    checked = subprocess.run([str(command), "referee", "check", str(RECORD), "--json"], cwd=work, capture_output=True,
                             text=True, timeout=120)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["ok"] is True
