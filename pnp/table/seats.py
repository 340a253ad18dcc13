"""Who may see and do what at the table: one seat per player, and the host.

A seat's page and API answers show the position as that seat may know it (`view`): during a
sealed phase (`ToMove.sealed`, Bolsa's declarations) the position before the phase with only
the seat's own entries in it, and who else has entered, never what; hidden information the
engine keeps (a hand of cards) shown only to the seat that holds it. Everything a seat is
sent — the page, the API's answers, the version its forms carry — is made from that view and
from the record (which every seat may read), so nothing in it is derived from another seat's
secret.

The fair table's rules, in one place:
- A seat enters only its own steps; the table's own steps are the host's (a phone passed
  around, or the person running the game), who may enter anyone's.
- No step that would end a sealed phase is taken before every seat has entered its part,
  unless the host closes the phase explicitly (the log says so).
- A seat may undo its own last step while nothing has followed it (and, in a sealed phase, its
  own entry until the reveal: the others' entries are independent of it). A step others have
  acted on, or one the table followed with its own, is undone only by the host.
- No undo hides again what a reveal showed: the step that revealed a sealed phase is taken back
  only by the host's correction of the record, which keeps the phase's entries public.
- The board (the room's screen) sees what everyone may see, and enters nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pnp.i18n import _
from pnp.rules.base import ToMove
from pnp.rules.legal import Template
from pnp.table import words
from pnp.table.steps import Actor, Entry, Forbidden, Refused, Stale, Submission, Table, mine, signature


@dataclass(frozen=True)
class Offer:
    """A legal action this actor may enter, and the key a submission names it by: the `n`-th
    of `player`'s templates (None: the table's)."""

    player: str | None
    n: int
    template: Template


@dataclass(frozen=True)
class SeatView:
    """The game as one actor may see it now."""

    actor: Actor
    version: str  # what this actor's forms carry: a change it may see changes it, nothing else does
    state: Any  # the position it may know
    public: tuple[Entry, ...]  # the entries the record holds
    own: tuple[Entry, ...]  # this seat's entries of the sealed phase in progress
    hidden: tuple[str, ...]  # the players who have entered in the sealed phase (not what)
    to_move: ToMove | None
    offers: tuple[Offer, ...]
    undo: Entry | None  # what this actor's undo would take back now (None: nothing it may)
    closing: Offer | None  # the host, in a sealed phase not yet complete: the step that closes it
    correct: Entry | None = None  # the host: the step a correction of the record would take back (a reveal)


def view(table: Table, actor: Actor) -> SeatView:
    k = table.public_count()
    public, waiting = table.entries[:k], table.entries[k:]
    base = table.public_state()
    own = _own(waiting, actor)
    known = _with_own(table, base, own)
    who = table.to_move()
    hidden = tuple(dict.fromkeys(e.player for e in waiting if e.player is not None))
    offers, closing = _offers(table, actor, known, hidden, who)
    index, undo = _allowed(undo_target, table, actor)
    fixing, correct = _allowed(correction_target, table, actor)
    state = seat_state(table, known, actor)
    seen = [table.state_json(state), [[ev.as_json() for ev in e.events] for e in own],
            _turn_seen(who, actor),
            [list(map(str, signature(o.template))) for o in (*offers, *((closing,) if closing else ()))],
            None if undo is None else [index if actor.host else None, undo.player, undo.kind, len(undo.actions)],
            list(hidden) if actor.host else None, fixing]
    return SeatView(actor, _version(actor, seen), state, public, own, hidden, who, offers, undo, closing, correct)


def _own(waiting: Sequence[Entry], actor: Actor) -> tuple[Entry, ...]:
    """`SeatView.own`: a seat's entries among those the sealed phase holds back (the host and
    the board, no seat, have none)."""
    return tuple(e for e in waiting if e.player == actor.seat) if actor.seat is not None else ()


def _turn_seen(who: ToMove | None, actor: Actor) -> list[object] | None:
    """Whose turn it is as `actor` may know it: in a sealed phase a seat learns only whether it
    is still to enter, not who else is."""
    if who is None:
        return None
    return [who.phase, who.sealed, list(who.players) if actor.host or not who.sealed else actor.seat in who.players]


def _version(actor: Actor, seen: Sequence[object]) -> str:
    """`SeatView.version`: a digest of who the actor is and what its page shows (`seen`)."""
    who = actor.name if actor.seat is None else ["seat", actor.seat]
    return hashlib.sha256(json.dumps([who, seen], default=str).encode()).hexdigest()[:16]


def _allowed(target: Any, table: Table, actor: Actor) -> tuple[int, Entry] | tuple[None, None]:
    """The entry `target` (`undo_target`, `correction_target`) finds for `actor`, and its
    index; (None, None) when it may take back none."""
    try:
        found: int = target(table, actor)
    except (Forbidden, Refused):
        return None, None
    return found, table.entries[found]


def seat_state(table: Table, state: Any, actor: Actor) -> Any:
    """The one place a position is cut down to what a seat may see: the engine's `view`, where
    the engine keeps hidden information (a hand of cards), of the seat — or of nobody, for the
    host's page, which everyone may be looking at."""
    seat = None if actor.seat is None else table.players.index(actor.seat)
    return table.engine.view(state, table.params, seat)


def _with_own(table: Table, base: Any, own: tuple[Entry, ...]) -> Any:
    """The position before the sealed phase with this seat's own entries of it applied again
    (the real position holds the other seats' too)."""
    state = base
    for entry in own:
        for action in entry.actions:
            state, _ = table.engine.apply(state, action, table.params)
    return state


def _offers(table: Table, actor: Actor, known: Any, hidden: tuple[str, ...],
            who: ToMove | None) -> tuple[tuple[Offer, ...], Offer | None]:
    """A seat's own legal actions, from the position it knows; the host's, everyone's from the
    position everyone knows, but for the players who have entered in secret already, and the
    table's step apart while it would end a sealed phase early."""
    if who is None or actor.board:
        return (), None
    templates = table.templates(known)
    players = _players_offered(templates, actor)
    offers: list[Offer] = []
    closing = None
    sealed_open = bool(who.sealed and who.players)
    for player in players:
        if player in hidden and actor.host:
            continue
        for n, template in enumerate(mine(templates, player)):
            offer = Offer(player, n, template)
            if player is None and sealed_open:
                closing = offer
            else:
                offers.append(offer)
    return tuple(offers), closing


def _players_offered(templates: Sequence[Template], actor: Actor) -> list[str | None]:
    """Whose steps a page offers: a seat its own; the host everyone's, and the table's
    (None), in the engine's order."""
    return [actor.seat] if not actor.host else list(dict.fromkeys(t.player for t in templates))


def version(table: Table, actor: Actor) -> str:
    """What this actor's forms carry: a hash of everything it sees — the position as it may know
    it, its own sealed entries, who is to act, the steps it is offered, what its undo would take
    back (the host: who has entered in secret, too) — and of nothing else. A change it cannot see
    leaves it as it was: another seat's sealed entry changes no other seat's version, so entries
    of one sealed phase never conflict, and nothing of a secret can be recovered from it."""
    return view(table, actor).version


def admitted(table: Table, actor: Actor, submission: Submission) -> Template:
    """The template a submission names, if this actor may enter it: Forbidden for another
    seat's step or, to a seat, the table's; Stale where the form no longer matches."""
    if actor.board:
        raise Forbidden(_(words.BOARD_ONLY_SHOWS))
    if not actor.host and submission.player != actor.seat:
        raise Forbidden(_(words.TABLE_STEP) if submission.player is None else _(words.NOT_YOUR_STEP))
    offer = _answered(view(table, actor), submission)
    now = mine(table.templates(), submission.player)
    if not offer.n < len(now) or signature(now[offer.n]) != signature(offer.template):
        raise Stale()
    return now[offer.n]


def _answered(seen: SeatView, submission: Submission) -> Offer:
    """The offer of the actor's page that a submission answers; Stale when the page offers it
    no longer."""
    offered = [o for o in (*seen.offers, seen.closing) if o is not None]
    offer = next((o for o in offered if (o.player, o.n) == (submission.player, submission.n)), None)
    if offer is None:
        raise Stale()
    return offer


def check_entry(table: Table, actor: Actor, template: Template, close: bool) -> tuple[str, ...]:
    """Refused for a step that would end a sealed phase before every seat has entered, unless
    the host closes it (`close`): then the players taken to have entered nothing."""
    who = table.to_move()
    if who is not None and who.sealed and who.players and template.player not in who.players:
        if actor.host and close:
            return who.players
        rule = next((t.rule for t in table.templates() if t.player in who.players), template.rule)
        raise Refused(rule, words.sealed_waiting(who.players))
    return ()


def check_may_change(actor: Actor) -> None:
    """Forbidden to the board, which shows the game and changes nothing."""
    if actor.board:
        raise Forbidden(_(words.BOARD_ONLY_SHOWS))


def check_host(actor: Actor) -> None:
    if not actor.host:
        raise Forbidden(_(words.HOST_ONLY))


def undo_target(table: Table, actor: Actor) -> int:
    """The entry `actor` may take back now: the host, the last; a seat, its own entry of a
    sealed phase in progress, else its own last step while nothing has followed it. Never the
    step that revealed a sealed phase: undoing it would hide the entries everyone has seen."""
    entries = table.entries
    if not entries:
        raise Refused("", _(words.NOTHING_TO_UNDO))
    if actor.board:
        raise Forbidden(_(words.BOARD_ONLY_SHOWS))
    if actor.host:
        if reveals(entries, len(entries) - 1):
            raise Forbidden(_(words.UNDO_REVEALED))
        return len(entries) - 1
    for index in range(len(entries) - 1, table.public_count() - 1, -1):
        if entries[index].player == actor.seat:
            return index
    last = entries[-1]
    if last.player != actor.seat:
        raise Forbidden(words.undo_not_yours(last.player))
    if last.followed:
        raise Forbidden(_(words.UNDO_FOLLOWED))
    return len(entries) - 1


def reveals(entries: tuple[Entry, ...], index: int) -> bool:
    """Whether `entries[index]` is the step that revealed a sealed phase: taking it back alone
    would make the phase's entries before it secret again."""
    return not entries[index].sealed and index > 0 and entries[index - 1].sealed


def correction_target(table: Table, actor: Actor) -> int:
    """The entry the host's correction of the record takes back: the last, when it revealed a
    sealed phase (else an undo does). Forbidden to a seat, Refused when there is none."""
    check_host(actor)
    entries = table.entries
    if not entries or not reveals(entries, len(entries) - 1):
        raise Refused("", _(words.NOTHING_TO_CORRECT))
    return len(entries) - 1
