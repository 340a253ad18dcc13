"""Every stored game replayed by one generic test, as the 18xx engine replays its fixtures.

Each record under tests/records/ is checked with `pnp referee check RECORD --json`; the answer —
exit code, whether it is legal, the violation's rule and place, the options in effect, the
final state and every event's rule and data — must equal the record's stored expected answer
`RECORD.expect.json` beside it. Event and violation wordings are left out on purpose: they are
the catalogs' business (a few golden-text tests read them), and a record's numbers are what a
rules change must not move by accident.

After a deliberate rules change, rewrite the expected answers and review what moved:

    python tests/test_records.py          # rewrites every tests/records/**/*.expect.json
    git diff --stat tests/records          # then read the diff before committing it

A new record needs no edit here: drop it in, run the command above, commit both files.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

RECORDS = Path(__file__).parent / "records"
ALL = sorted(RECORDS.rglob("*.yaml"))
REGENERATE = "python tests/test_records.py"


def expected_path(record: Path) -> Path:
    return record.with_name(record.stem + ".expect.json")


def answer(record: Path) -> dict[str, Any]:
    """The referee's answer to `record`, without its wordings and the spec's hash."""
    from pnp.cli import main  # here, so that the script below imports this checkout's pnp

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["referee", "check", str(record), "--json"])
    raw = json.loads(out.getvalue())
    violation = raw["violation"]
    return {
        "exit": code,
        "ok": raw["ok"],
        "checked": raw["checked"],
        "violation": None if violation is None else {k: v for k, v in violation.items() if k != "message"},
        "options": raw["options"],
        "state": raw["state"],
        "events": [{"rule": event["rule"], "data": event["data"]} for event in raw["events"]],
    }


def test_every_record_has_a_stored_answer():
    assert len(ALL) >= 70
    missing = [str(r.relative_to(RECORDS)) for r in ALL if not expected_path(r).exists()]
    assert not missing, f"no stored answer for {missing}: run {REGENERATE}"
    stale = [str(p.relative_to(RECORDS)) for p in RECORDS.rglob("*.expect.json")
             if not p.with_name(p.name.removesuffix(".expect.json") + ".yaml").exists()]
    assert not stale, f"stored answers of no record: {stale}"


@pytest.mark.parametrize("record", ALL, ids=lambda path: str(path.relative_to(RECORDS)))
def test_a_record_replays_to_its_stored_answer(record):
    stored = json.loads(expected_path(record).read_text(encoding="utf-8"))
    got = answer(record)
    assert got["exit"] in (0, 1) and got["ok"] == (got["violation"] is None)
    assert got == stored, f"{record.name}: the answer moved; if the change is meant, run {REGENERATE} and review the diff"


def regenerate() -> int:
    for record in ALL:
        text = json.dumps(answer(record), indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        expected_path(record).write_text(text, encoding="utf-8")
    print(f"{len(ALL)} expected answers written under {RECORDS}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(regenerate())
