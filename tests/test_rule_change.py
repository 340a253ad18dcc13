"""A designer's rule change, end to end: edit components.yaml, rebuild, referee — no code change.

The Bolsa playtest change of issue 4: a sixth company and a quote track of 0–29. Everything is
read back from the built files and the referee's JSON answer, as a user would see it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdf_text import pages_text
from pnp.cli import main
from spec_text import edit, write_spec

SIXTH = '      - {id: REP, name: Repsol,     name_en: Repsol,     color: "#cc79a7", symbol: star}\n'


@pytest.fixture(scope="module")
def edited(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("designer")
    text = edit("quote: {from: 0, to: 19, start: 10}", "quote: {from: 0, to: 29, start: 10}")
    text = edit("    tracks:\n      round:", SIXTH + "\n    tracks:\n      round:", text)
    spec = str(write_spec(folder, text))  # with its catalogs: Bolsa's kit in Spanish, its own language
    read = ("shares", "tokens", "quote_board", "player_aid")  # what the tests read: no booklet, money or mats
    assert main(["build", "--spec", spec, "--game", "bolsa", "--out", str(folder / "output"),
                 *(f"--component={c}" for c in read)]) == 0
    return folder


def pdf_text(path: Path) -> str:
    return "\n".join(pages_text(path))


def test_the_manifest_counts_the_new_company(edited):
    manifest = json.loads((edited / "output" / "manifest.json").read_text())
    counts = {c["id"]: c["count"] for c in manifest["components"] if c["game"] == "bolsa"}
    assert counts["shares"] == 108  # 18 per company, six companies
    assert counts["tokens"] == 8  # six quote tokens, the round and the auction-order token


def test_the_board_has_a_repsol_row_running_to_29(edited):
    text = pdf_text(edited / "output" / "bolsa" / "quote_board.pdf")
    assert "REP" in text and "Repsol" in text
    assert "29" in text.split() and "30" not in text.split()


def test_tokens_flip_to_plus_thirty_and_cards_name_repsol(edited):
    tokens = pdf_text(edited / "output" / "bolsa" / "tokens.pdf")
    assert tokens.count("+30") == 6 and "+20" not in tokens and "REP" in tokens
    assert "Repsol" in pdf_text(edited / "output" / "bolsa" / "shares.pdf")


def test_the_player_aid_follows_the_track(edited):
    aid = pdf_text(edited / "output" / "bolsa" / "player_aid.pdf")
    assert "0 a 29" in aid and "+30" in aid


def test_the_referee_reads_the_same_spec(edited, capsys):
    record = edited / "rep.yaml"
    record.write_text(
        "game: bolsa\nplayers: [Ana, Ben, Cris]\nstart: {prices: {REP: 29}}\n"
        "rounds:\n  - declare:\n      Ana: {buy: {REP: 1}}\n",
        encoding="utf-8",
    )
    assert main(["referee", "check", str(record), "--json", "--spec", str(edited / "components.yaml")]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["state"]["prices"]["REP"] == 30  # one request, no offer: 29 + 1, past the last cell
    assert ("BOLSA-6.2", {"company": "REP", "from": 29, "to": 30, "cells": 30, "cell": 0}) in [  # the token flipped
        (event["rule"], event["data"]) for event in answer["events"]]
