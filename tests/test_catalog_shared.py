"""A catalog parsed once for the kits' words and the check of its translations
(`pnp.i18n.catalogs.read_shared`): the same messages as a fresh `read`, and read anew when
its bytes change."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp.i18n.catalogs import catalog_path, language, read, read_shared
from pnp.spec.source import bundled_spec_path


def messages(catalog) -> list[tuple]:
    return [(m.id, m.string, m.fuzzy, m.lineno, tuple(m.previous_id or ())) for m in catalog]


def test_the_shared_catalog_is_the_one_read(tmp_path: Path) -> None:
    path = catalog_path(bundled_spec_path().parent, "bolsa", "es")
    shared = read_shared(path, "es")
    assert messages(shared) == messages(read(path, "es"))
    assert read_shared(path, "es") is shared  # parsed once for the same bytes
    assert language(bundled_spec_path().parent, "bolsa", "es").messages  # worded from the same parse


def test_an_edited_catalog_is_read_anew(tmp_path: Path) -> None:
    path = tmp_path / "bolsa.po"
    shutil.copy(catalog_path(bundled_spec_path().parent, "bolsa", "es"), path)
    before = read_shared(path, "es")
    path.write_bytes(path.read_bytes() + b'\nmsgid "a text added after"\nmsgstr ""\n')
    after = read_shared(path, "es")
    assert "a text added after" in [m.id for m in after] and "a text added after" not in [m.id for m in before]
