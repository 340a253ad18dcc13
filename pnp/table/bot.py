"""A bot in an empty seat: the simulator's bots (`pnp.bots`) playing a seat at the table the
way a phone does.

A bot seat sees what that seat's phone sees (`seats.view`: the position as the seat may know it,
its own sealed entries and nobody else's, its own hand), chooses among the steps offered to it
with the bot (`search`, `greedy`, a game's own), and enters its choice through the same checks
as a phone's post (`TableGame.enter` with the seat's version and a key of its own): its sealed
declarations wait in the journal, secret, like anyone's. It thinks for at least `THINK` seconds
where the pages can see it ("Bot is thinking…"), in a thread of its own, so the server keeps
answering meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from pnp.bots import games, roster
from pnp.bots.common import Bot, Decision
from pnp.rules.base import ToMove
from pnp.rules.legal import Field
from pnp.table import seats
from pnp.table.game import TableGame
from pnp.table.seats import Offer, SeatView
from pnp.table.steps import Actor, BadEntry, Forbidden, NeedsChoice, Refused, Repeated, Stale, Submission

THINK = 1.2  # seconds a bot takes at least before entering a step: long enough to be seen thinking
LOG = logging.getLogger("pnp.table")


class Bots:
    """The bots seated at one table, by player. `run` plays them until cancelled: whenever a
    change leaves a bot seat a step to take, that bot thinks and enters it. `told` is called
    with the players whose bots are thinking (the pages say so)."""

    def __init__(self, table: TableGame, seated: Mapping[str, str], told: Callable[[tuple[str, ...]], None],
                 think: float = THINK, rng: random.Random | None = None):
        self.table, self.told, self.think = table, told, think
        self.rng = rng or random.Random()
        self.seated: dict[str, str] = {}
        self._bots: dict[str, Bot] = {}
        self.thinking: tuple[str, ...] = ()
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        for player, name in seated.items():
            self.seat(player, name)
        table.listeners.append(lambda change: self.wake())

    def seat(self, player: str, name: str | None) -> None:
        """Seat the bot `name` (`search`, `search:200`, `greedy`, …) at `player`'s place, or take
        it away (None: the seat is a person's again). ValueError for a bot the game has not."""
        if name is None:
            self.seated.pop(player, None)
            self._bots.pop(player, None)
        else:
            bot = roster.bot_named(self.table.game_id, name)
            if bot is None or player not in self.table.players:
                raise ValueError(name)
            self.seated[player], self._bots[player] = name, bot
        self.wake()

    def wake(self) -> None:
        """Look again for a step a bot may take (from any thread)."""
        if self._loop is not None and self._wake is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    async def run(self) -> None:
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        self._wake.set()
        while True:
            await self._wake.wait()
            self._wake.clear()
            due = self._due()
            if due:
                await self._play(due)

    def _due(self) -> list[str]:
        """The bot seats with a step to take now: every one in a sealed phase (each enters its
        own), else the first the rules name who has a step offered."""
        who = self.table.to_move()
        if who is None:
            return []
        waiting = [p for p in who.players if p in self._bots and seats.view(self.table, Actor(p)).offers]
        return waiting if who.sealed else waiting[:1]

    async def _play(self, players: list[str]) -> None:
        self.thinking = tuple(players)
        self.told(self.thinking)
        began = time.monotonic()
        try:
            for player in players:
                seen = seats.view(self.table, Actor(player))
                chosen = await asyncio.to_thread(self._choose, player, seen)
                await asyncio.sleep(max(0.0, self.think - (time.monotonic() - began)))
                if chosen is not None:
                    await asyncio.to_thread(self._enter, player, seen, *chosen)
        finally:
            self.thinking = ()
            self.told(())

    def _choose(self, player: str, seen: SeatView) -> tuple[Offer, Submission, Any] | None:
        """The bot's step among those offered to its seat, as its phone would post it (None:
        the bot lets the next player act first)."""
        offers = [o for o in seen.offers if o.player == player]
        templates = tuple(o.template for o in offers)
        may_pass = _may_pass(seen.to_move, player)
        seat = self.table.players.index(player)
        decision = Decision(self.table.engine, self.table.params, games.probe(self.table.game_id, self.table.params),
                            seen.state, seat, templates, may_pass)
        action = self._bots[player](decision, self.rng)
        if action is None:
            return None
        offer = next((o for o in offers if o.template.admits(action)), offers[0])
        return offer, _submission(offer, action), action

    def _enter(self, player: str, seen: SeatView, offer: Offer, submission: Submission, action: Any) -> None:
        try:
            try:
                self.table.enter(Actor(player), seen.version, submission, key=secrets.token_urlsafe(12))
            except NeedsChoice as needed:  # a tie the rules let the player break: the bot's own pick, if it made one
                pick = getattr(action, needed.needed.what, None)
                options = list(needed.needed.options)
                choice = options.index(pick) if pick in options else 0
                self.table.enter(Actor(player), seen.version,
                                 Submission(submission.player, submission.n, submission.picks,
                                            {needed.needed.what: choice}),
                                 key=secrets.token_urlsafe(12))
        except (Stale, Repeated):
            pass  # another entry came first: the bot looks again at the next change
        except (Refused, Forbidden, BadEntry, NeedsChoice) as refused:
            LOG.warning("the bot at %s's seat was refused %s: %s", player, offer.template.kind, refused)
        self.wake()


def _may_pass(who: ToMove | None, player: str) -> bool:
    """A bot may let the next player act first in an open phase (not sealed) where a player
    acts after it."""
    later = who.players[who.players.index(player) + 1:] if who is not None and player in who.players else ()
    return bool(who and not who.sealed and later)


def _submission(offer: Offer, action: Any) -> Submission:
    """What a phone posts for `action` on `offer`'s form: a number for each number field, an
    option's place for a choice, the places of the options chosen for several."""
    template = offer.template
    values = dict(template.read(action) or {}) if template.read is not None else {}
    picks = {f.name: _pick(f, values.get(f.name)) for f in template.fields}
    return Submission(offer.player, offer.n, picks)


def _pick(f: Field, value: Any) -> int | tuple[int, ...]:
    """One field's value as its form posts it: the number, the option's place, or the places
    of the options chosen (a value the field does not offer: its least, its first option)."""
    if f.kind == "number":
        return f.low if value is None else int(value)
    options = list(f.options)
    if f.kind == "choice":
        return options.index(value) if value in options else 0
    return tuple(options.index(v) for v in value or () if v in options)
