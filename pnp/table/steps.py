"""What the table's pages and its API hand to the game, and what the game answers: who is
acting (a seat, the host or the room's board), a submission, the entries of the game, and the
ways an entry is refused. Plain values, shared by `game`, `seats`, `forms` and `web`; and the
face of a game at the table (`Table`) that `seats` reads, so the two need not import each
other."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pnp.rules.base import ChoiceNeeded, Event, ToMove
from pnp.rules.legal import Field, Template


@dataclass(frozen=True)
class Actor:
    """Who is at a page: a seat (`seat`, a player's name), the host (`seat` None: the person
    running the game, or one phone passed around the table), or the board (`board`: a laptop
    or a projector showing the room the public board, which enters nothing)."""

    seat: str | None = None
    board: bool = False

    @property
    def host(self) -> bool:
        return self.seat is None and not self.board

    @property
    def name(self) -> str:
        """As the log writes it: the player's name, "host" or "board"."""
        return "board" if self.board else "host" if self.seat is None else self.seat

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat} if self.seat is not None else {"board": True} if self.board else {"host": True}


HOST = Actor()
BOARD = Actor(board=True)


class Table(Protocol):
    """What `seats` reads of a game at the table (`game.TableGame`)."""

    players: tuple[str, ...]
    entries: tuple[Entry, ...]
    engine: Any
    params: Any

    def public_count(self) -> int: ...
    def public_state(self) -> Any: ...
    def to_move(self, state: Any = None) -> ToMove | None: ...
    def templates(self, state: Any = None) -> tuple[Template, ...]: ...
    def state_json(self, state: Any = None) -> dict[str, Any]: ...


# --- what is refused -------------------------------------------------------------------------------


class Stale(Exception):
    """The entry was made on a position that has changed since (another phone was quicker)."""


class Refused(Exception):
    """The engine refuses the entry, or the table does (a sealed phase not yet complete): the
    rule it breaks (empty for an entry naming nothing that exists) and the sentence. Nothing
    has changed."""

    def __init__(self, rule: str, message: str):
        self.rule, self.message = rule, message
        super().__init__(f"{rule}: {message}" if rule else message)


class Forbidden(Exception):
    """The entry is another seat's to make, or only the host's (HTTP 403). Nothing has changed."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class NeedsChoice(Exception):
    """The rules let the player break a tie, and the entry did not say how (`ChoiceNeeded`):
    ask, then enter again with the choice."""

    def __init__(self, needed: ChoiceNeeded):
        self.needed = needed
        super().__init__(str(needed))


class Repeated(Exception):
    """A change whose key (a form's, a client's retry) was made before: nothing is done again.
    `change` is the change it made; `latest`, whether nothing has changed since (the retry of a
    change whose answer was lost: answered as that change was)."""

    def __init__(self, change: int, latest: bool):
        self.change, self.latest = change, latest
        super().__init__(f"change {change} was made with this key")


class BadEntry(ValueError):
    """A submission that no form of the page could have sent (an unknown action, a value
    that is not a number): the client's fault, not a rule's."""


# --- a submission --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Submission:
    """What a form or an API client sends: which legal action — the `n`-th of those `player`
    may take (None: the table's) —, a number for each number field and option numbers for
    choice and several fields (`picks`), and option numbers for the ties the engine asked
    about (`choices`). Plain numbers only: what a form or a JSON body holds."""

    player: str | None
    n: int
    picks: Mapping[str, int | tuple[int, ...]] = field(default_factory=dict)
    choices: Mapping[str, int] = field(default_factory=dict)

    def values(self, template: Template) -> dict[str, Any]:
        """The template's field values: numbers as given (the engine judges them), options by
        number; a field left out is its lowest value, or no option."""
        return {f.name: _value(f, self.picks.get(f.name)) for f in template.fields}


def _value(f: Field, pick: int | tuple[int, ...] | None) -> Any:
    """One field's value from what the form sent for it (None: nothing)."""
    if f.kind == "number":
        if isinstance(pick, tuple):
            raise BadEntry(f"{f.name}: expected a whole number")
        return f.low if pick is None else pick
    if f.kind == "choice":
        return f.options[option(f.options, pick if pick is not None else 0, f.name)]
    picks = pick if isinstance(pick, tuple) else () if pick is None else (pick,)
    return tuple(f.options[option(f.options, n, f.name)] for n in picks)


KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")  # a change's key: a form's, or a client's own random text


@dataclass(frozen=True)
class Asked:
    """A change a client asks for, as a page's form or a JSON body says it: the version it was
    made on, its key (each change is made once per key), and for a step the submission; `close`
    (the host closing a sealed phase) and `confirm` (the question asked first, answered)."""

    version: str
    key: str
    submission: Submission | None = None
    close: bool = False
    confirm: bool = False


def key_of(given: Any) -> str:
    """A change's key as posted: 8 to 64 letters, digits, - or _ (BadEntry otherwise)."""
    if not isinstance(given, str) or not KEY.fullmatch(given):
        raise BadEntry("key: every change carries a key of its own, 8 to 64 letters, digits, - or _ "
                       "(a retry sends the same key, and is made once)")
    return given


def option(options: Sequence[Any], number: Any, name: str) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(options):
        raise BadEntry(f"{name}: no option {str(number)[:20]!r} here")
    return number


def mine(templates: Sequence[Template], player: str | None) -> list[Template]:
    """The templates `player` may take (None: the table's), in the engine's order: what a
    submission's `n` counts."""
    return [t for t in templates if t.player == player]


def signature(template: Template) -> tuple[Any, ...]:
    """What a form shows of a template: a submission made on a form is entered only where the
    template at its place is still this one."""
    fields = tuple((f.name, f.kind, f.low, f.high, tuple(map(str, f.options)), tuple(f.labels)) for f in template.fields)
    fixed = tuple((k, str(v)) for k, v in template.fixed.items())
    return template.kind, template.player, template.rule, fixed, fields, tuple(map(repr, template.constraints))


# --- the game's entries ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One step as the table shows and undoes it: the action someone entered, then the
    table's own steps that followed by themselves (`actions[1:]`)."""

    actions: tuple[Any, ...]
    states: tuple[Any, ...]  # the position after each action
    events: tuple[Event, ...]
    player: str | None  # whose step it is (None: the table's)
    kind: str  # the template's kind: "declare", "bid", "resolve", …
    sealed: bool = False  # entered in secret (ToMove.sealed) and not revealed by the table's step after it
    by: str = ""  # who entered it: a seat's name or "host" ("" when the log does not say)
    at: str = ""  # when (ISO 8601, UTC), as the log has it
    closed: tuple[str, ...] = ()  # a sealed phase the host closed: the players taken to have entered nothing
    revealed: bool = False  # a secret entry everyone has seen, though its phase is open (in the record, or corrected)

    @property
    def state(self) -> Any:
        return self.states[-1]

    @property
    def waiting(self) -> bool:
        """Entered in secret and seen by nobody else yet: kept out of the record and of every
        other seat's view until the reveal."""
        return self.sealed and not self.revealed

    @property
    def followed(self) -> bool:
        """The table's own steps followed it (a reveal, a company settled)."""
        return len(self.actions) > 1


@dataclass(frozen=True)
class Change:
    """What every open page is told after each accepted change (never what a sealed entry
    holds): its number, what happened (enter, undo, close, start), who did it, and whose step."""

    number: int
    op: str
    by: str
    player: str | None
    kind: str
    sealed: bool

    undone: tuple[Event, ...] = ()  # a public step taken back: what it did, which everyone saw (stays said)

    def as_json(self) -> dict[str, Any]:
        return {"change": self.number, "op": self.op, "by": self.by, "player": self.player, "kind": self.kind,
                "sealed": self.sealed}
