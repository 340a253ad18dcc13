"""Issue 41: `pnp referee check --json` answers every exit code in JSON — a tool reading it never
meets a line of plain text: 0 and 1 the answer, 2 `{"error", "where": "file:line:col", "at"}`
(a record it cannot read, a spec, the command line), 3 an internal error. And the starter records
point to `pnp rules show ID`, not to files a user does not have."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.cli import main

LEGAL = "game: bolsa\nplayers: [Ana, Ben, Cris]\nrounds: []\n"
ILLEGAL = "game: bolsa\nplayers: [Ana, Ben, Cris]\nrounds:\n  - declare:\n      Ana: {buy: {TEF: 3}, sell: {TEF: 1}}\n"
UNKNOWN_PLAYER = "game: bolsa\nplayers: [Ana, Ben, Cris]\nrounds:\n  - declare:\n      Zed: {buy: {TEF: 1}}\n"
BAD_YAML = "game: bolsa\nplayers: [Ana, Ben\n"


def answered(capsys, tmp_path: Path, text: str, *extra: str) -> tuple[int, dict]:
    record = tmp_path / "record.yaml"
    record.write_text(text, encoding="utf-8")
    code = main(["referee", "check", str(record), "--json", *extra])
    out, err = capsys.readouterr()
    assert err == ""  # nothing beside the JSON
    return code, json.loads(out)


def test_a_legal_and_an_illegal_record_answer_in_json(capsys, tmp_path):
    code, answer = answered(capsys, tmp_path, LEGAL)
    assert code == 0 and answer["ok"] is True and answer["violation"] is None
    code, answer = answered(capsys, tmp_path, ILLEGAL)
    assert code == 1 and answer["ok"] is False and answer["violation"]["rule"].startswith("BOLSA-3.2")


@pytest.mark.parametrize("text, where, at, words", [
    (UNKNOWN_PLAYER, "record.yaml:5:7", "rounds[0].declare.Zed", 'unknown player "Zed"'),
    (BAD_YAML, "record.yaml:2:10", "", "not valid YAML"),
])
def test_a_record_that_cannot_be_read_answers_where_in_json(capsys, tmp_path, text, where, at, words):
    code, answer = answered(capsys, tmp_path, text)
    assert code == 2 and answer["where"].endswith(where) and answer["at"] == at and words in answer["error"]
    assert answer["errors"][0] == {"error": answer["error"], "where": answer["where"], "at": at} and answer["more"] == 0


def test_a_missing_file_a_missing_spec_and_a_bad_option_answer_in_json(capsys, tmp_path):
    code = main(["referee", "check", str(tmp_path / "nothere.yaml"), "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 2 and answer["where"].endswith("nothere.yaml") and answer["error"] == "no such file"
    code, answer = answered(capsys, tmp_path, LEGAL, "--spec", str(tmp_path / "nospec.yaml"))
    assert code == 2 and "nospec.yaml" in answer["where"] + answer["error"]
    code, answer = answered(capsys, tmp_path, LEGAL, "--lang", "xx")
    assert code == 2 and answer["where"] == "" and answer["error"].startswith("--lang xx")


def test_an_internal_error_answers_in_json(capsys, tmp_path, monkeypatch):
    import pnp.referee

    monkeypatch.delenv("PNP_DEBUG", raising=False)
    monkeypatch.setattr(pnp.referee, "check", lambda *args: 1 / 0)
    code, answer = answered(capsys, tmp_path, LEGAL)
    assert code == 3 and answer == {"error": "internal error: ZeroDivisionError: division by zero", "where": ""}


@pytest.mark.parametrize("game, rule", [("bolsa", "BOLSA-8"), ("aktsioner", "AKT-12"), ("forex", "FOREX-13")])
def test_starter_records_point_to_rules_show(capsys, game, rule):
    assert main(["referee", "new", game, "--players", "Ana,Ben,Cris"]) == 0
    comments = "\n".join(line for line in capsys.readouterr().out.splitlines() if line.startswith("#"))
    assert f"`pnp rules show {rule}`" in comments
    assert "REFEREE.md" not in comments and "rules/" not in comments and "docs/" not in comments
    assert main(["rules", "show", rule]) == 0 and "| key | values | rule |" in capsys.readouterr().out
