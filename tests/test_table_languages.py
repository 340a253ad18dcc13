"""The table in the players' language: each browser's page worded in the language it chose
with the page's switch (`?lang=`, then a cookie), else the best its `Accept-Language` names
among the game's, else the game's own; the live page's parts and the API's words in the same
language; the seats and the host each in their own; secrets and tokens as before.

What is compared is the catalogs' data — a text's translation present, its English absent — not
sentences written out here."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from pnp.i18n.catalogs import language
from pnp.rules.lookup import worded
from pnp.table import files
from pnp.table.game import TableGame
from pnp.table.middleware import LANGUAGE_COOKIE
from pnp.table.web import create_app
from pnp.translate import program_entries
from table_helpers import SPEC, declare, new_key, phone

PLAYERS = ["Ana", "Ben", "Cris"]
ON_THE_TABLE = "On the table"  # a heading every page shows (position.html)


class Phones:
    """A table and a client (a browser with cookies) per seat and the host."""

    def __init__(self, folder, game_id: str = "bolsa"):
        self.game = TableGame.create(folder / "r.yaml", SPEC, game_id, PLAYERS)
        self.tokens = files.seat_tokens(self.game.path, PLAYERS)
        self.app = create_app(self.game, self.tokens)
        self.clients = {name: self._client(token) for name, token in [("host", self.tokens.host), *self.tokens.seats]}

    def _client(self, token: str) -> TestClient:
        return phone(self.app, token)

    def __getitem__(self, name: str) -> TestClient:
        return self.clients[name]


@pytest.fixture
def phones(tmp_path):
    found = Phones(tmp_path)
    yield found
    found.game.close()


@pytest.fixture(scope="module")
def unchanged(tmp_path_factory):
    """One table for the tests that only ask for pages, each its language by its request's own
    headers (no step entered, no language chosen and kept in a cookie): made once, not per test."""
    found = Phones(tmp_path_factory.mktemp("unchanged"))
    yield found
    found.game.close()


def said(game: str, code: str, msgid: str) -> str:
    """`msgid` as the game's catalog words it in `code`."""
    words = language(SPEC.folder, game, code).gettext(msgid)
    assert code == "en" or words != msgid, f"{code} has no translation of {msgid!r}"
    return words


def page_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def test_the_page_speaks_the_language_the_browser_asks_for(unchanged):
    page = unchanged["host"].get("/", headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    assert page.status_code == 200 and page.headers["content-language"] == "ru" and page_lang(page.text) == "ru"
    for msgid in (ON_THE_TABLE, "Close the phase now", "Start from a position", "Declare", "host"):
        assert said("bolsa", "ru", msgid) in page.text
    for msgid in (ON_THE_TABLE, "Close the phase now", "Start from a position"):
        assert msgid not in page.text
    assert said("bolsa", "ru", "The Stock Exchange Game") in page.text  # the spec's texts too: the title
    assert "BOLSA-3.2" in page.text  # rule IDs as they are


@pytest.mark.parametrize("header, expected", [
    ("es;q=0.9, ru;q=0.8", "es"),
    ("ru;q=0.8, es;q=0.9", "es"),  # by q-value, not by order
    ("de-DE, fr;q=0.9, ru;q=0.1", "ru"),  # the first the game offers
    ("en-GB", "en"),  # a region falls back to its language
    ("de, fr", "es"),  # none of the game's: the game's own (Bolsa's is Spanish)
    ("es;q=0, en;q=0.5", "en"),  # q=0: not acceptable
    ("", "es"),
    ("x" * 5000, "es"),
])
def test_the_best_of_the_games_languages_by_q_value(unchanged, header, expected):
    page = unchanged["Ana"].get("/", headers={"Accept-Language": header} if header else {})
    assert page.headers["content-language"] == expected and page_lang(page.text) == expected
    assert said("bolsa", expected, ON_THE_TABLE) in page.text


def test_a_game_without_the_asked_language_speaks_its_own(tmp_path):
    forex = Phones(tmp_path, "forex")
    try:
        page = forex["host"].get("/", headers={"Accept-Language": "de"})
        assert page_lang(page.text) == "en" and ON_THE_TABLE in page.text  # For-Ex's own language is English
        assert page_lang(forex["host"].get("/", headers={"Accept-Language": "ru"}).text) == "ru"
    finally:
        forex.game.close()


def test_the_switch_overrides_the_browser_and_is_remembered(phones):
    ana = phones["Ana"]
    english = {"Accept-Language": "en"}
    page = ana.get("/", headers=english)
    switch = re.search(r'<nav class="langs"[^>]*>(.*?)</nav>', page.text).group(1)
    assert re.findall(r'href="\?lang=(\w+)"', switch) == ["es", "ru"]  # the game's languages but the page's own
    assert "Español" in switch and "Русский" in switch
    assert re.search(r'<b [^>]*aria-current="true" data-lang="en" title="English">', switch)  # this page's own
    chosen = ana.get("/?lang=ru", headers=english)
    assert page_lang(chosen.text) == "ru"
    assert f"{LANGUAGE_COOKIE}=ru" in chosen.headers["set-cookie"] and "HttpOnly" in chosen.headers["set-cookie"]
    again = ana.get("/", headers=english)  # the cookie, over the browser's English
    assert page_lang(again.text) == "ru" and said("bolsa", "ru", ON_THE_TABLE) in again.text
    parts = ana.get("/api/state?fragments=1", headers=english).json()["fragments"]  # what the live page draws
    assert said("bolsa", "ru", ON_THE_TABLE) in parts["position"] and ON_THE_TABLE not in parts["position"]
    back = ana.get("/?lang=en", headers=english)
    assert page_lang(back.text) == "en" and page_lang(ana.get("/").text) == "en"


def test_a_language_the_game_does_not_offer_is_never_used_nor_written_back(phones):
    ana = phones["Ana"]
    for asked in ("de", "<script>", "ru\r\nSet-Cookie: x=1", "qps", "../en"):
        page = ana.get("/", params={"lang": asked}, headers={"Accept-Language": "en"})
        assert page.status_code == 200 and page_lang(page.text) == "en", asked
        assert LANGUAGE_COOKIE not in page.headers.get("set-cookie", "")
    ana.cookies.set(LANGUAGE_COOKIE, "<b>")
    assert page_lang(ana.get("/", headers={"Accept-Language": "ru"}).text) == "ru"


def test_the_switch_needs_the_seats_link_as_every_page_does(unchanged):
    stranger = TestClient(unchanged.app, follow_redirects=False)
    refused = stranger.get("/?lang=ru")
    assert refused.status_code == 403 and refused.headers["content-language"] == "ru"
    assert said("bolsa", "ru", "This table needs your seat's link: scan its QR code, or open the link the laptop "
                "shows (the same for a wrong link: nothing else is said).") == refused.text
    assert ON_THE_TABLE not in refused.text and "Ana" not in refused.text


def test_the_host_and_each_seat_choose_their_own(phones):
    phones["Ana"].get("/?lang=ru")
    phones["Ben"].get("/?lang=es")
    phones["host"].get("/?lang=en")
    for name, code in (("Ana", "ru"), ("Ben", "es"), ("host", "en"), ("Ana", "ru")):  # drawn parts are per language
        page = phones[name].get("/")
        assert page_lang(page.text) == code and said("bolsa", code, ON_THE_TABLE) in page.text
        assert phones[name].get("/api/state").json()["you"] == ({"seat": name} if name != "host" else {"host": True})


def test_sealed_declarations_in_spanish(phones):
    table = phones.game
    ana, ben, host = phones["Ana"], phones["Ben"], phones["host"]
    for client in (ana, ben, host):
        client.get("/?lang=es")
    declare(table, "Ana", sell_IBE=1)
    mine = ana.get("/").text
    assert said("bolsa", "es", "Yours, seen only by you until the reveal:") in mine
    offered = table.entries[-1].events[0]
    assert offered.rule in mine
    from pnp.i18n import speaking

    with speaking(language(SPEC.folder, "bolsa", "es")):
        spanish = offered.text
    assert spanish != offered.text and spanish in mine  # the event, worded in Spanish
    theirs = ben.get("/").text
    assert spanish not in theirs  # nothing of Ana's secret, in any language
    assert said("bolsa", "es", "The others' secret entries show once all are in.") in theirs
    assert "✓ Ana" in host.get("/").text and spanish not in host.get("/").text
    assert said("bolsa", "es", "Secret: each player's, on their phone or this one, seen by nobody until all are in."
                ) in host.get("/").text
    refused = ben.post("/api/step", json={"version": ben.get("/api/state").json()["version"], "player": "Ana", "n": 0,
                                          "key": new_key()})
    assert refused.status_code == 403 and refused.json()["message"] == said(
        "bolsa", "es", "That step is another player's: each seat enters only its own.")


def test_a_rule_in_the_language_of_the_booklet(tmp_path):
    akt = Phones(tmp_path, "aktsioner")
    try:
        spanish = worded("aktsioner", SPEC, "es")["AKT-6.2"]
        page = akt["Ana"].get("/rule/AKT-6.2", headers={"Accept-Language": "es"})
        assert page_lang(page.text) == "es" and spanish.replace("**", "") in page.text.replace("&gt;", ">")
        assert said("aktsioner", "es", "back to the table") in page.text
        english = akt["Ana"].get("/rule/AKT-6.2", headers={"Accept-Language": "en"})
        assert page_lang(english.text) == "en" and spanish not in english.text and "AKT-6.2" in english.text
    finally:
        akt.game.close()


def test_the_table_texts_are_in_every_catalog():
    found = {entry.msgid if isinstance(entry.msgid, str) else entry.msgid[0]: entry.locations[0][0]
             for entry in program_entries("bolsa") if entry.locations[0][0].startswith("pnp/table/")}
    assert found[ON_THE_TABLE] == "pnp/table/templates/position.html"  # from the templates, by Jinja's extractor
    assert found["{n} choice"] == "pnp/table/templates/next.html"  # a plural
    assert found["Only the host may do that."] == "pnp/table/words.py"
    assert len(found) > 100
    for game in ("bolsa", "aktsioner", "forex"):
        for code in ("es", "ru"):
            spoken = language(SPEC.folder, game, code)
            assert [msgid for msgid in found if spoken.gettext(msgid) == msgid and msgid not in ("no", "—", "{name}: {value}")] == []
    russian = language(SPEC.folder, "bolsa", "ru")
    assert [russian.ngettext("{n} choice", "{n} choices", n).format(n=n) for n in (1, 3, 5)] == [
        "1 вариант", "3 варианта", "5 вариантов"]
