"""A fair table: each seat enters and undoes only its own steps, sees only its own secrets, and
never has its entry of a sealed phase refused because another seat's came first; the host
enters for anyone, closes a sealed phase on purpose, and undoes what a seat may not."""

from __future__ import annotations

import random

import pytest

from pnp.rules import GAMES
from pnp.table import files, seats
from pnp.table.game import TableGame
from pnp.table.steps import HOST, Actor, Forbidden, Refused, Stale, Submission
from table_helpers import SPEC, checked, declare, enter, random_step

PLAYERS = ["Ana", "Ben", "Cris", "Dani", "Eva", "Fer"]


def version(table: TableGame, who: str | None) -> str:
    return seats.version(table, Actor(who) if who else HOST)


@pytest.fixture
def bolsa(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS[:4])
    yield table
    table.close()


def test_six_seats_declaring_at_the_same_moment_all_land_on_their_first_try(tmp_path):
    """Every seat's form carries its own version: another seat's sealed entry changes nothing a
    seat may see, so none of the six is stale (one global version refused 45 of 63 posts)."""
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "bolsa", PLAYERS)
    versions = {p: version(table, p) for p in PLAYERS}  # every page loaded before anyone declares
    host = version(table, None)
    for n, player in enumerate(PLAYERS):
        table.enter(Actor(player), versions[player], Submission(player, 0, {f"sell.{['IBE', 'SAN'][n % 2]}": 1}))
    assert [e.player for e in table.entries] == PLAYERS and table.public_count() == 6  # all in: revealed
    assert version(table, None) != host  # the reveal changed the record: every form is new now


def test_a_seat_enters_only_its_own_steps_and_the_table_s_are_the_host_s(bolsa):
    with pytest.raises(Forbidden):
        bolsa.enter(Actor("Ben"), version(bolsa, "Ben"), Submission("Ana", 0, {"sell.IBE": 1}))
    with pytest.raises(Forbidden):  # the table's step (revealing), by a seat
        bolsa.enter(Actor("Ben"), version(bolsa, "Ben"), Submission(None, 0))
    declare(bolsa, "Ana", actor=HOST, sell_IBE=1)  # the host enters for anyone: a phone passed around
    assert [(e.player, e.by) for e in bolsa.entries] == [("Ana", "host")]


def test_no_step_ends_a_sealed_phase_early_unless_the_host_closes_it(bolsa):
    declare(bolsa, "Ana", sell_IBE=1)
    declare(bolsa, "Ben", buy_IBE=1)
    reveal = Submission(None, 0)
    with pytest.raises(Refused) as refused:  # the table's own resolve step, while Cris and Dani have not declared
        bolsa.enter(HOST, version(bolsa, None), reveal)
    assert refused.value.rule.startswith("BOLSA-3.2") and "Cris, Dani" in refused.value.message
    assert bolsa.public_count() == 0 and len(bolsa.entries) == 2
    entry = bolsa.enter(HOST, version(bolsa, None), reveal, close=True)  # on purpose: the log says so
    assert entry.closed == ("Cris", "Dani") and bolsa.public_count() == 3
    line = files.read_log(bolsa.path)[-1]
    assert (line["op"], line["by"], line["waiting"]) == ("close", "host", ["Cris", "Dani"])
    state = checked(bolsa.path)["state"]
    assert state["players"]["Ben"]["shares"]["IBE"] == 2 and state["players"]["Cris"]["shares"]["IBE"] == 1


def test_each_seat_sees_its_own_sealed_entry_and_only_that_others_have_entered(bolsa):
    declare(bolsa, "Ana", sell_TEF=1, buy_SAN=2)
    ana, ben, host = (seats.view(bolsa, a) for a in (Actor("Ana"), Actor("Ben"), HOST))
    mine = bolsa.state_json(ana.state)["players"]["Ana"]
    assert (mine["offered"]["TEF"], mine["requested"]["SAN"]) == (1, 2)  # Ana's own mat shows her declaration
    for other in (ben, host):
        theirs = bolsa.state_json(other.state)["players"]["Ana"]
        assert theirs["offered"]["TEF"] == 0 and theirs["requested"]["SAN"] == 0 and other.own == ()
        assert other.hidden == ("Ana",)  # that she has declared, not what
    assert [o.player for o in ben.offers] == ["Ben"] and "Ana" not in {o.player for o in host.offers}
    assert ana.offers == () and [e.player for e in ana.own] == ["Ana"]


def test_a_seat_undoes_its_own_sealed_entry_until_the_reveal_the_others_stay(bolsa):
    declare(bolsa, "Ana", sell_IBE=1)
    declare(bolsa, "Ben", buy_IBE=1)
    declare(bolsa, "Cris", buy_IBE=2)
    ben = version(bolsa, "Ben")
    taken = bolsa.undo(Actor("Ana"), version(bolsa, "Ana"))  # hers, from the middle of the phase
    assert taken.player == "Ana" and [e.player for e in bolsa.entries] == ["Ben", "Cris"]
    assert version(bolsa, "Ben") == ben  # Ben's form still enters
    declare(bolsa, "Ana", sell_SAN=1)
    with pytest.raises(Forbidden):  # the last entry is Ana's: not Ben's to take back
        bolsa.undo(Actor("Dani"), version(bolsa, "Dani"))
    declare(bolsa, "Dani")  # the reveal
    for player in ("Ana", "Dani"):
        with pytest.raises(Forbidden):  # after the reveal, only the host
            bolsa.undo(Actor(player), version(bolsa, player))
    with pytest.raises(Forbidden):  # nor the host's undo: it would hide again what everyone has seen
        bolsa.undo(HOST, version(bolsa, None))


def test_the_hosts_correction_across_a_reveal_keeps_every_declaration_public(bolsa):
    """The host takes back the step that revealed the declarations (Dani's, the last) by a
    correction of the record: the phase is open again for Dani alone, and Ana's, Ben's and
    Cris's declarations, seen by everyone at the reveal, stay in the record and in every
    seat's view; the log says so; the next declaration reveals again."""
    declare(bolsa, "Ana", sell_IBE=1)
    with pytest.raises(Refused):  # nothing revealed yet: nothing to correct (Ana's entry is undone)
        bolsa.correct(HOST, version(bolsa, None))
    declare(bolsa, "Ben", buy_IBE=1)
    declare(bolsa, "Cris", buy_SAN=2)
    declare(bolsa, "Dani", buy_TEF=1)  # the reveal
    with pytest.raises(Forbidden):
        bolsa.correct(Actor("Dani"), version(bolsa, "Dani"))  # the host's alone
    taken = bolsa.correct(HOST, version(bolsa, None))
    assert taken.player == "Dani" and len(bolsa.entries) == 3 and bolsa.public_count() == 3
    assert checked(bolsa.path)["state"]["round"] == 1  # the record states a phase whole: they wait in the journal
    for player in ("Ben", "Dani", None):
        seen = seats.view(bolsa, Actor(player) if player else HOST)
        position = bolsa.state_json(seen.state)
        assert position["players"]["Ana"]["offered"]["IBE"] == 1 and position["players"]["Ben"]["requested"]["IBE"] == 1
        assert seen.hidden == ()
    assert seats.view(bolsa, Actor("Dani")).offers and not seats.view(bolsa, Actor("Ana")).offers
    assert [line["op"] for line in files.read_log(bolsa.path)][-1] == "correct"
    reopened = TableGame.open(bolsa.path, SPEC, lock=False)  # after a restart too
    assert reopened.public_count() == 3 and seats.view(reopened, Actor("Ben")).hidden == ()
    declare(bolsa, "Dani", buy_TEF=1)  # the reveal again
    assert checked(bolsa.path)["state"]["round"] == 2


def test_a_seat_undoes_its_last_step_while_nothing_follows_it(tmp_path):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, "aktsioner", PLAYERS[:3])
    enter(table, "Ana", "begin")
    with pytest.raises(Forbidden):
        table.undo(Actor("Ben"), version(table, "Ben"))
    table.undo(Actor("Ana"), version(table, "Ana"))
    assert table.entries == ()
    enter(table, "Ana", "begin")
    enter(table, "Ana", "play")
    enter(table, "Ben", "begin")  # Ben acted after Ana's card: hers is the host's to undo now
    with pytest.raises(Forbidden):
        table.undo(Actor("Ana"), version(table, "Ana"))
    with pytest.raises(Stale):  # a seat's version from before a change others made
        table.undo(Actor("Ben"), version(table, "Ana"))


def test_a_seats_version_is_made_from_what_it_may_see_alone(tmp_path):
    """Two positions that differ only in another seat's sealed entry give every other seat the
    same version and the same view (nothing of the entry can be recovered from them)."""
    first = TableGame.create(tmp_path / "a.yaml", SPEC, "bolsa", PLAYERS[:3])
    second = TableGame.create(tmp_path / "b.yaml", SPEC, "bolsa", PLAYERS[:3])
    declare(first, "Ana", sell_IBE=1)
    declare(second, "Ana", buy_TEF=2)
    for who in ("Ben", "Cris", None):
        a, b = (seats.view(t, Actor(who) if who else HOST) for t in (first, second))
        assert a.version == b.version and first.state_json(a.state) == second.state_json(b.state)
        assert [o.template.fields for o in a.offers] == [o.template.fields for o in b.offers]
    assert version(first, "Ana") != version(second, "Ana")


@pytest.mark.parametrize("game", list(GAMES))
def test_every_seat_is_offered_only_its_own_steps_in_random_play(tmp_path, game):
    table = TableGame.create(tmp_path / "r.yaml", SPEC, game, PLAYERS[:3])
    rng = random.Random(11)
    for _ in range(60):
        who = table.to_move()
        if who is None:
            break
        for player in PLAYERS[:3]:
            view = seats.view(table, Actor(player))
            assert {o.player for o in view.offers} <= {player}
            assert bool(view.offers) == (player in who.players and player not in view.hidden), (player, who)
        random_step(table, rng)
