"""A game at the table: the record file, the position in it, and what may be entered next.

The record file is the truth. Every accepted step is written to it, as the game's own record
format (the referee's `record` and `dump`, which end a record in the middle of a round or a
turn as readily as between them), atomically, before anyone is told it was accepted; opening
the file again replays it, so stopping the table at any moment loses nothing and `pnp referee
check` on the file reaches the position the table shows. Only the secret entries of a sealed
phase in progress (Bolsa's declarations) wait beside it until the phase ends.

What may be entered comes from the engine alone (`to_move`, `legal_actions`), and whether an
entry is legal is decided by `apply` alone: a `Violation` changes nothing and is reported with
its rule. A step nobody decides (the only legal action, the table's, with nothing to choose:
Bolsa bringing up and settling a company) is taken at once and joins the entry before it, so
one undo takes back what one person entered.

Nothing here knows a game: a newly registered game is played at the table as it is.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pnp.errors import PnpError, RecordError, UsageError
from pnp.referee import record as records
from pnp.referee import game_params, replay
from pnp.referee.replay import GameReferee, StepViolation, referee_for
from pnp.rules import GAMES
from pnp.rules.base import ChoiceNeeded, Event, Malformed, ToMove, Violation
from pnp.rules.legal import Template
from pnp.spec.model import Game, Spec


class Stale(Exception):
    """The entry was made on a position that has changed since (another phone was quicker)."""


class Refused(Exception):
    """The engine refuses the entry: the rule it breaks (empty for an entry naming nothing
    that exists) and the engine's sentence. Nothing has changed."""

    def __init__(self, rule: str, message: str):
        self.rule, self.message = rule, message
        super().__init__(f"{rule}: {message}" if rule else message)


class NeedsChoice(Exception):
    """The rules let the player break a tie, and the entry did not say how (`ChoiceNeeded`):
    ask, then enter again with the choice."""

    def __init__(self, needed: ChoiceNeeded):
        self.needed = needed
        super().__init__(str(needed))


class BadEntry(ValueError):
    """A submission that no form of the page could have sent (an unknown action, a value
    that is not a number): the client's fault, not a rule's."""


@dataclass(frozen=True)
class Submission:
    """What a form sends: which of the legal actions (`index` into `legal_actions`), a number
    for each number field and option numbers for choice and several fields (`picks`), and
    option numbers for the ties the engine asked about (`choices`). Plain numbers only, so a
    pending entry is stored as JSON and entered again on restart."""

    index: int
    picks: Mapping[str, int | tuple[int, ...]] = field(default_factory=dict)
    choices: Mapping[str, int] = field(default_factory=dict)

    def values(self, template: Template) -> dict[str, Any]:
        """The template's field values: numbers as given (the engine judges them), options by
        number; a field left out is its lowest value, or no option."""
        values: dict[str, Any] = {}
        for f in template.fields:
            pick = self.picks.get(f.name)
            if f.kind == "number":
                values[f.name] = f.low if pick is None else pick
            elif f.kind == "choice":
                values[f.name] = f.options[_option(f.options, pick if pick is not None else 0)]
            else:
                picks = pick if isinstance(pick, tuple) else ()
                values[f.name] = tuple(f.options[_option(f.options, n)] for n in picks)
        return values

    def as_json(self) -> dict[str, Any]:
        return {"index": self.index, "picks": {k: list(v) if isinstance(v, tuple) else v for k, v in self.picks.items()},
                "choices": dict(self.choices)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Submission:
        picks = {k: tuple(v) if isinstance(v, list) else v for k, v in data["picks"].items()}
        return Submission(int(data["index"]), picks, dict(data["choices"]))


def _option(options: Sequence[Any], number: Any) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < len(options):
        raise BadEntry(f"no option {number!r} here")
    return number


@dataclass(frozen=True)
class Entry:
    """One step as the table shows and undoes it: the action someone entered, then the
    table's own steps that followed by themselves (`actions[1:]`)."""

    actions: tuple[Any, ...]
    states: tuple[Any, ...]  # the position after each action
    events: tuple[Event, ...]
    player: str | None  # who entered it (None: the table)
    kind: str  # the template's kind: "declare", "bid", "resolve", …
    sealed: bool = False  # entered in secret (ToMove.sealed) and not revealed by the table's step after it
    submission: Submission | None = None  # as entered at the table (None: read from the record)

    @property
    def state(self) -> Any:
        return self.states[-1]


class TableGame:
    """One record file being played. Thread-safe: every change happens under one lock, and
    the file is written before the change is visible."""

    def __init__(self, path: Path, spec_game: Game, record: records.Record, params: Any, first: Any,
                 setup_events: Sequence[Event], written_start: Any):
        self.path = path
        self.game = spec_game
        self.game_id = record.game
        self.players = record.players
        self.options = dict(record.options)
        self.referee: GameReferee = referee_for(record.game)
        self.engine = GAMES[record.game].engine
        self.params = params
        self.first = first  # the position before the first entry
        self.setup_events = tuple(setup_events)
        self._start = written_start  # the `start` the record writes (None: the standard setup)
        self.entries: tuple[Entry, ...] = ()
        self.version = ""
        self._written = b""  # the record file's bytes as last written
        self._lock = threading.Lock()

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | Path, spec: Spec, game_id: str, players: Sequence[str]) -> TableGame:
        """A new record at `path` (which must not exist: a game in progress is never
        overwritten) with the standard setup."""
        path = Path(path)
        if path.exists():
            raise UsageError(f"{path} exists: leave out --new to go on with that game, or name a new file")
        if game_id not in GAMES or game_id not in spec.games:
            known = ", ".join(g for g in GAMES if g in spec.games)
            raise UsageError(f'unknown game "{game_id}" (games the table plays: {known})')
        if not players or len(set(players)) != len(players) or not all(p.strip() for p in players):
            raise UsageError("--players needs distinct names, e.g. --players Ana,Ben,Cris")
        referee = referee_for(game_id)
        params = GAMES[game_id].engine.params(spec.games[game_id])
        try:
            GAMES[game_id].engine.setup(params, tuple(players))
        except Violation as violation:
            raise UsageError(f"{violation.rule}: {violation.message}") from None
        table = cls._from_text(path, spec, records.dump(referee.record(params, players, ())))
        table._save(())
        return table

    @classmethod
    def open(cls, path: str | Path, spec: Spec) -> TableGame:
        """The game in an existing record, replayed to its last step. A record with an illegal
        step cannot be played on: the error says where (as `pnp referee check` would)."""
        path = Path(path)
        if not path.is_file():
            raise UsageError(f"{path}: no such record (start one with --new GAME --players A,B,C)")
        data = path.read_bytes()
        table = cls._from_text(path, spec, data.decode("utf-8", errors="replace"))
        table._written = data
        table._resume(_version(data))
        return table

    def _resume(self, base: str) -> None:
        """Enter again the pending (sealed) entries of the record as it is (a pending file
        written for another content of the record is stale and left out)."""
        entries = self.entries
        path = pending_path(self.path)
        try:
            saved = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
        except (OSError, ValueError):
            saved = None
        if saved and saved.get("record") == base:
            try:
                for item in saved["entries"]:
                    entries += (self._entry(entries[-1].state if entries else self.first, Submission.from_json(item)),)
            except (Refused, NeedsChoice, BadEntry, KeyError, TypeError, ValueError):
                pass  # keep what was entered before the one that no longer applies
        if entries == self.entries:  # nothing pending: the file stays as it was written (comments and all)
            self.version = _stamp(self._written, [])
        else:
            self._save(entries)

    @classmethod
    def _from_text(cls, path: Path, spec: Spec, text: str) -> TableGame:
        record = records.reads(text, {game: referee_for(game).KEYS for game in GAMES}, str(path))
        if record.game not in spec.games:
            raise UsageError(f"{path}: the spec has no game {record.game!r}")
        spec_game = spec.games[record.game]
        params = game_params(spec_game, record)
        answer = replay(record, params)
        if answer.violation is not None:
            v = answer.violation
            raise PnpError(f"{path}:{v.line}: {v.at}: illegal — {v.rule}: {v.message}; "
                           "the table goes on only from a legal record (`pnp referee explain` it)")
        referee = referee_for(record.game)
        first, events = referee.setup(record, params)
        given = record.get(("start",)) is not None or record.get(("deal",)) is not None
        table = cls(path, spec_game, record, params, first, events, first if given else None)
        actions = [action for step in referee.steps(record, params) for action in referee.actions(step)]
        table.entries = table._replay(actions)
        if table.state_json() != referee.state_json(answer.state, params):
            raise AssertionError("the table and the referee disagree on the record's position")
        return table

    def _replay(self, actions: Sequence[Any]) -> tuple[Entry, ...]:
        """Entries for a record's actions: each action someone decided starts one."""
        entries: list[Entry] = []
        state = self.first
        for action in actions:
            automatic = entries and self._automatic(state) is not None
            sealed = self._who(state)
            after, events = self.engine.apply(state, action, self.params)
            if automatic:
                last = entries[-1]
                entries[-1] = replace(last, actions=last.actions + (action,), states=last.states + (after,),
                                      events=last.events + events, sealed=False)  # the table's step reveals
            else:
                player = getattr(action, "player", None)
                entries.append(Entry((action,), (after,), events, player, type(action).__name__.lower(),
                                     bool(sealed and sealed.sealed and player in sealed.players)))
            state = after
        return tuple(entries)

    # --- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.entries[-1].state if self.entries else self.first

    def state_json(self, state: Any = None) -> dict[str, Any]:
        """The position as the referee's JSON answer writes it, for a state (default: now)."""
        return self.referee.state_json(self.state if state is None else state, self.params)

    def to_move(self) -> ToMove | None:
        return self._who(self.state)

    def templates(self) -> tuple[Template, ...]:
        return self.engine.legal_actions(self.state, self.params)

    def shown(self) -> tuple[Any, tuple[Entry, ...]]:
        """The position everyone may see, and the entries it includes: during a sealed phase
        the position before its first entry (what each player entered stays hidden)."""
        entries = self.entries
        who = self.to_move()
        if who is not None and who.sealed:
            while entries and entries[-1].sealed:
                entries = entries[:-1]
        return (entries[-1].state if entries else self.first), entries

    # --- changing --------------------------------------------------------------------------

    def enter(self, version: str, submission: Submission) -> Entry:
        """Apply the legal action the submission chooses, then the table's own steps; write
        the record. Stale, Refused, NeedsChoice or BadEntry, and nothing changes, otherwise."""
        with self._lock:
            self._current(version)
            entry = self._entry(self.state, submission)
            self._save(self.entries + (entry,))
            return entry

    def _entry(self, state: Any, submission: Submission) -> Entry:
        templates = self.engine.legal_actions(state, self.params)
        if not 0 <= submission.index < len(templates):
            raise BadEntry(f"no action {submission.index} in this position")
        template = templates[submission.index]
        who = self._who(state)
        try:
            action, after, events = self._apply(state, template.action(submission.values(template)),
                                                submission.choices)
        except Malformed as error:
            raise Refused("", str(error)) from None
        sealed = bool(who and who.sealed and template.player in who.players)
        entry = self._follow(Entry((action,), (after,), events, template.player, template.kind, sealed, submission))
        return replace(entry, sealed=False) if len(entry.actions) > 1 else entry  # the table's step reveals

    def undo(self, version: str) -> Entry:
        """Take back the last entry (and the table's steps that followed it)."""
        with self._lock:
            self._current(version)
            if not self.entries:
                raise Refused("", "nothing to undo: no step has been entered")
            last = self.entries[-1]
            self._save(self.entries[:-1])
            return last

    def start_from(self, version: str, start: Mapping[str, Any]) -> None:
        """Play on from a position written as the record's `start` (the referee reads it and
        the engine's setup checks it), before any step has been entered."""
        with self._lock:
            self._current(version)
            if self.entries:
                raise Refused("", "a position can be set only before the first step (undo every step first)")
            data = {"game": self.game_id, "players": list(self.players), "options": self.options, "start": start}
            keys = {self.game_id: self.referee.KEYS}
            try:
                record = records.reads(records.dump(data), keys, "the position")
                first, events = self.referee.setup(record, self.params)
            except RecordError as error:
                raise Refused("", "; ".join(f"{i.path}: {i.message}" if i.path else i.message
                                            for i in error.issues)) from None
            except Violation as violation:
                raise Refused(violation.rule, violation.message) from None
            except StepViolation as stop:  # a setup rule, located at a part of the start
                raise Refused(stop.violation.rule, stop.violation.message) from None
            previous = (self.first, self.setup_events, self._start)
            self.first, self.setup_events, self._start = first, tuple(events), first
            try:
                self._save(())
            except BaseException:
                self.first, self.setup_events, self._start = previous
                raise

    def start_form(self) -> dict[str, Any]:
        """The record's `start` for the position now written out: what the position form
        shows, to be edited."""
        data = self.referee.record(self.params, self.players, (), self.options, start=self.first)
        return dict(data.get("start", {}))

    # --- inside ------------------------------------------------------------------------------

    def _who(self, state: Any) -> ToMove | None:
        return self.engine.to_move(state, self.params)

    def _current(self, version: str) -> None:
        if version != self.version:
            raise Stale()

    def _apply(self, state: Any, action: Any, choices: Mapping[str, int]) -> tuple[Any, Any, tuple[Event, ...]]:
        while True:
            try:
                after, events = self.engine.apply(state, action, self.params)
                return action, after, tuple(events)
            except ChoiceNeeded as needed:
                pick = choices.get(needed.what)
                if pick is None or not 0 <= pick < len(needed.options):
                    raise NeedsChoice(needed) from None
                action = replace(action, **{needed.what: needed.options[pick]})
            except Violation as violation:
                raise Refused(violation.rule, violation.message) from None

    def _automatic(self, state: Any) -> Template | None:
        """The one step only the table may take, with nothing to choose, if that is all."""
        who = self._who(state)
        if who is None or who.players:
            return None
        templates = self.engine.legal_actions(state, self.params)
        if len(templates) == 1 and templates[0].player is None and not templates[0].fields:
            return templates[0]
        return None

    def _follow(self, entry: Entry) -> Entry:
        """The entry with the table's automatic steps after it."""
        while (template := self._automatic(entry.state)) is not None:
            try:
                after, events = self.engine.apply(entry.state, template.action(), self.params)
            except (Violation, ChoiceNeeded):
                break  # left for the table to take by hand, where the page shows why
            entry = replace(entry, actions=entry.actions + (template.action(),), states=entry.states + (after,),
                            events=entry.events + tuple(events))
        return entry

    # --- the files ---------------------------------------------------------------------------

    def _save(self, entries: tuple[Entry, ...]) -> None:
        """Write the files for these entries, then make them the game's (files first).

        The record holds every entry but the secret ones of a sealed phase in progress: each
        waits, as submitted, in the pending file beside the record until the phase ends, so
        that nobody reads it there meanwhile; the record then reaches the position everyone
        sees (the one before the phase)."""
        k = len(entries)
        while k and entries[k - 1].sealed:
            k -= 1
        data = (HEADER + self._record_text(entries[:k])).encode("utf-8")
        if data != self._written:
            write_atomically(self.path, data)
            self._written = data
        pending = [entry.submission.as_json() for entry in entries[k:] if entry.submission is not None]
        if len(pending) != len(entries) - k:
            raise AssertionError("an entry read from the record cannot be pending")
        self._write_pending(_version(data), pending)
        self.entries = entries
        self.version = _stamp(data, pending)

    def _record_text(self, entries: Sequence[Entry]) -> str:
        actions = [action for entry in entries for action in entry.actions]
        return records.dump(self.referee.record(self.params, self.players, actions, self.options, start=self._start))

    def _write_pending(self, base: str, pending: list[dict[str, Any]]) -> None:
        path = pending_path(self.path)
        if not pending:
            path.unlink(missing_ok=True)
            return
        data = json.dumps({"record": base, "entries": pending}, indent=1).encode()
        write_atomically(path, data)


HEADER = "# Written by `pnp table` step by step; `pnp referee check` replays it.\n"


def pending_path(record: Path) -> Path:
    """Where the entries the record cannot take yet wait: beside it, hidden."""
    return record.with_name(f".{record.name}.pending")


def write_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that a reader, or a crash, sees the old file or the new
    one, never a part: a temporary file in the same folder, flushed to disk, renamed over."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    try:  # the rename itself, on disk
        folder = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _version(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _stamp(record: bytes, pending: list[dict[str, Any]]) -> str:
    """What every form carries: the record's content and the pending entries, hashed. A form
    made for another content is stale; the same content (after an undo and the same step
    again) is not."""
    return _version(record + json.dumps(pending).encode())
