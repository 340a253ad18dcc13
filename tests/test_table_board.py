"""The board a page draws: the spec's components (tracks, mats and zones, bills, counters) with
the spec's names, colours and symbols, every value the referee's, and no raw state key, engine
field name or `None` where a player reads — at positions of random games of every game."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest

from pnp.rules import GAMES
from pnp.table import files
from pnp.table.board import board
from pnp.table.game import TableGame
from pnp.table.looks import LABELS
from pnp.table.web import create_app
from table_helpers import SPEC, declare, phone, random_step

PLAYERS = ["Ana", "Ben", "Cris", "Dani"]


class Texts(HTMLParser):
    """The visible text of a page's parts (elements by id, none inside another), and the text of
    their labels (`.k`, headings, headers): one reading of the page for all of them."""

    def __init__(self, *parts: str):
        super().__init__()
        self.parts, self.part, self.depth = parts, None, 0
        self.text: dict[str, list[str]] = {part: [] for part in parts}
        self.labels: dict[str, list[str]] = {part: [] for part in parts}
        self._label = 0

    VOID = {"input", "br", "img", "meta", "link", "hr", "wbr", "source"}

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        values = dict(attrs)
        if self.part is None and values.get("id") in self.parts:
            self.part, self.depth = values["id"], 0
        if self.part is not None:
            self.depth += 1
            if tag in ("h4", "th") or "k" in (values.get("class") or "").split():
                self._label = self.depth

    def handle_endtag(self, tag):
        if self.part is not None:
            if self._label == self.depth:
                self._label = 0
            self.depth -= 1
            if self.depth == 0:
                self.part = None

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_data(self, data):
        if self.part is not None and data.strip():
            self.text[self.part].append(data.strip())
            if self._label:
                self.labels[self.part].append(data.strip())


def keys(value, found=None) -> set[str]:
    found = set() if found is None else found
    if isinstance(value, dict):
        for key, inner in value.items():
            found.add(str(key))
            keys(inner, found)
    elif isinstance(value, list):
        for inner in value:
            keys(inner, found)
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_the_board_reads_in_words_at_every_position_of_random_games(tmp_path, game):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, game, PLAYERS[:3] if game != "bolsa" else PLAYERS)
    tokens = files.seat_tokens(table.path, table.players)
    app = create_app(table, tokens)
    pages = {}
    for name, token in [("host", tokens.host), ("Ana", tokens.of("Ana")), ("board", tokens.board)]:
        pages[name] = phone(app, token)
    rng = random.Random(21)
    names = {*table.players, *(a.id for a in table.game.assets)}
    raw = {k for k in keys(table.state_json()) if k not in names} | {"to_act", "unsettled", "None"}
    seen_positions = 0
    for step in range(120):
        if table.to_move() is None:
            break
        random_step(table, rng)
        if step % 2:
            continue
        seen_positions += 1
        raw |= {k for k in keys(table.state_json()) if k not in names}
        for who, client in pages.items():
            if who == "board" and step % 4:
                continue  # the room's board: every other position checked (its parts are the seats' own)
            page = Texts("position", "next")
            page.feed(client.get("/").text)
            text, labels = " ".join(page.text["position"]), page.labels["position"]
            assert text and "None" not in text and not re.search(r"\w_\w", text), (who, text[:500])
            assert not [label for label in labels if label in raw or "_" in label], (who, labels)
            forms = " ".join(page.text["next"])
            assert not re.search(r"\b[a-z]+\.[A-Za-z]+\b", forms), forms[:500]
    assert seen_positions >= 5


def test_the_bolsa_board_is_the_spec_s_quote_board_mats_and_bills(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS)
    declare(table, "Ana", sell_IBE=1)
    declare(table, "Ben", buy_IBE=1)
    declare(table, "Cris", buy_SAN=2)
    declare(table, "Dani")
    state = table.state_json()
    drawn = board(state, table.game, "bolsa", table.players)
    quote = next(s for s in drawn.strips if s.title == "Share quotes")  # the board section's title
    assert quote.cells == tuple(str(n) for n in range(20)) and quote.start == 10
    san = next(r for r in quote.rows if r.label == "SAN")
    assert san.tokens[0].cell == state["prices"]["SAN"] == 12 and san.ident.colour == "#d55e00"
    assert san.ident.symbol == "square" and san.ident.ink == "#000000"
    ana = next(m for m in drawn.mats if m.name == "Ana")
    assert [(z.label, z.title) for z in ana.zones] == [("1", "Owned"), ("2", "Orders"), ("3", "Selling"), ("4", "Buying")]
    assert [c.count for c in ana.zones[1].counts] == ["3", "2", "2", "2", "2"]  # the sold IBE card, back to zone 2
    (cash,) = ana.money
    assert cash.total == "60" and [(b.label, b.count) for b in cash.bills] == [("50", 1), ("10", 1)]
    ben = next(m for m in drawn.mats if m.name == "Ben")  # the auction token passed on with the round (BOLSA-3.5.1)
    assert not ana.held and [(t.label, t.title) for t in ben.held] == [("S", "Auction token")]
    round_strip = next(s for s in drawn.strips if s.title == "Round")
    assert round_strip.rows[0].tokens[0].cell == 1  # round 2, on the second space
    assert len(round_strip.cells) == len(table.game.tracks["round"].cells) == 10


def test_the_round_track_ends_where_the_house_rules_end_the_game(tmp_path):
    """Under a 3-round house rule the round track shows rounds 1 to 3, not the printed 10."""
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS, {"rounds": 3})
    drawn = board(table.state_json(), table.game, "bolsa", table.players, options=table.options)
    round_strip = next(s for s in drawn.strips if s.title == "Round")
    assert round_strip.cells == ("1", "2", "3") and round_strip.rows[0].tokens[0].cell == 0


def test_a_bolsa_token_past_the_last_cell_shows_its_back_on_the_cell_it_counts_from(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS)
    state = {**table.state_json(), "prices": {"IBE": 23, "SAN": 19, "TEF": 0, "ITX": 10, "FER": 39}}
    quote = next(s for s in board(state, table.game, "bolsa", table.players).strips if s.title == "Share quotes")
    ibe, san, _, _, fer = (row.tokens[0] for row in quote.rows)
    assert (ibe.cell, ibe.flipped, ibe.label) == (3, True, "+20") and (san.cell, san.flipped) == (19, False)
    assert (fer.cell, fer.flipped) == (19, True)


def test_forex_pair_counters_sit_on_the_stronger_currency_s_track_reading_the_weaker(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "forex", PLAYERS[:3])
    state = table.state_json()
    drawn = board(state, table.game, "forex", table.players)
    (counters,) = [s for s in drawn.strips if len(s.rows) == 7]
    gbp = next(r for r in counters.rows if r.label == "GBP")
    assert sorted((t.cell, t.label) for t in gbp.tokens) == [(0, "USD"), (1, "CHF"), (1, "EUR"), (1, "JPY"), (2, "CAD"),
                                                               (6, "CNY")]
    assert counters.cells[:3] == ("1", "1.5", "2")
    ana = next(m for m in drawn.mats if m.name == "Ana")
    money = next(z for z in ana.zones if z.title == LABELS["money"])
    assert [(c.label, c.count, [(b.label, b.count) for b in c.bills]) for c in money.counts][0] == ("GBP", "2",
                                                                                                   [("2", 1)])
