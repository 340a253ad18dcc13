"""A game at the table: the record file, the position in it, and every change to them.

The record file is the truth, an ordinary record (the referee's `record` and `dump`, which end
a record in the middle of a round or a turn as readily as between them) that `pnp referee
check` replays to the position the table shows. Beside it (`files`): the journal, the log of
who entered what, the seats' tokens and the lock that keeps a second server away.

Every change — an entry, an undo, a closed sealed phase, a position set — is one commit: the
journal first (the record's new text, the sealed entries still waiting, the change's log
lines), then the record, then the log, each flushed to disk before anyone is told the change
was accepted. Opening the record rolls a change the journal has and the record lacks forward,
so a crash at any instant loses no accepted step. The position is kept (every entry holds the
states after its actions), so a step costs the same late in a game as early.

What may be entered comes from the engine alone (`to_move`, `legal_actions`), and whether an
entry is legal is decided by `apply` alone: a `Violation` changes nothing and is reported with
its rule. Who may enter or undo what is `seats`' to say. A step nobody decides (the only legal
action, the table's, with nothing to choose: Bolsa bringing up and settling a company) is taken
at once and joins the entry before it.

Nothing here knows a game: a newly registered game is played at the table as it is.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pnp.errors import PnpError, RecordError, UsageError
from pnp.referee import game_params, replay
from pnp.referee import record as records
from pnp.referee.generic import Generic
from pnp.referee.replay import GameReferee, StepViolation, referee_for, state_json
from pnp.rules import GAMES
from pnp.rules.base import ChoiceNeeded, Event, Malformed, ToMove, Violation, plain
from pnp.rules.legal import Template
from pnp.spec.model import Game, Spec
from pnp.spec.options import check_values
from pnp.table import files, seats
from pnp.table.files import Journal, RecordLock
from pnp.table.steps import HOST, Actor, Change, Entry, NeedsChoice, Refused, Repeated, Stale, Submission, mine

HEADER = "# Written by `pnp table` step by step; `pnp referee check` replays it.\n"


class TableGame:
    """One record file being played. Thread-safe: every change happens under one lock, and the
    files are written before the change is visible. Opening or creating one holds the record's
    lock (`close` lets it go) unless `lock=False` (a reader beside a running table)."""

    def __init__(self, path: Path, spec_game: Game, record: records.Record, params: Any, first: Any,
                 setup_events: Sequence[Event], written_start: Any):
        self.path = path
        self.game = spec_game
        self.spec: Spec | None = None  # the spec read (its folder holds the game's catalogs)
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
        self.change = 0  # the number of the last change (the journal's and the log's)
        self.listeners: list[Callable[[Change], None]] = []  # told of every change, after it is written
        self.notes: list[str] = []  # what opening the record found worth saying
        self.last_change: Change | None = None  # the last change made since opening
        self.keys: dict[str, int] = {}  # each change's key (a form's, a client's) → the change it made
        self._written = b""  # the record file's bytes as last written
        self._record_sha = ""
        self._text = RecordText(self.referee, params, self.players, self.options)
        self._lock = threading.RLock()
        self._file_lock: RecordLock | None = None

    # --- opening ---------------------------------------------------------------------------

    @classmethod
    def create(cls, path: str | Path, spec: Spec, game_id: str, players: Sequence[str],
               settings: Mapping[str, Any] | None = None, lock: bool = True,
               deal: random.Random | None = None) -> TableGame:
        """A new record at `path` (which must not exist: a game in progress is never
        overwritten) with the standard setup, under the house rules `settings` (checked by the
        game's rulebook, as `--set` gives them). The record states every house rule in effect,
        so it replays the same with the spec or without it. `deal`: the table deals the
        setup's random part with it (the engine's `deal`: Акционер's hands, For-Ex's removed
        certificates), written in the record, so each phone shows its own hand and a bot can
        hold one; without, the standard setup (the cards dealt at the table, entered as played)."""
        path = Path(path)
        _check_new(path, spec, game_id, players)
        options = options_in_effect(game_id, spec.games[game_id], settings or {})
        referee = referee_for(game_id)
        params, start, first = _started(game_id, spec, options, players, deal)
        holder = _locked(path, lock)
        try:
            written = first if start is not None else None
            if start is not None and isinstance(referee, Generic):
                written = start  # a generic record states its start as the engine's own Start, not as a position
            table = cls._from_text(path, spec, records.dump(referee.record(params, players, (), options, start=written)))
            table._file_lock = holder
            files.seat_tokens(path, players, fresh=True)
            table.change = max((line.get("change", 0) for line in files.read_log(path)), default=0)
            table._commit((), [{"op": "new", "by": HOST.name}])
        except BaseException:
            if holder:
                holder.release()
            raise
        return table

    @classmethod
    def open(cls, path: str | Path, spec: Spec, lock: bool = True) -> TableGame:
        """The game in an existing record, replayed to its last step, with the sealed entries
        the journal keeps beside it. A record with an illegal step cannot be played on: the
        error says where (as `pnp referee check` would)."""
        path = Path(path)
        if not path.is_file():
            raise UsageError(f"{path}: no such record (start one with --new GAME --players A,B,C)")
        holder = _locked(path, lock)
        try:
            journal = files.read_journal(path)
            data = path.read_bytes()
            rolled = False
            if journal is not None and _sha(data) == journal.previous_sha256 != journal.record_sha256:
                data = journal.record.encode("utf-8")  # the change the journal has and the record lacks
                if lock:
                    files.write_atomically(path, data)
                rolled = True
            table = cls._from_text(path, spec, data.decode("utf-8", errors="replace"))
            table._file_lock = holder
            table._written, table._record_sha = data, _sha(data)
            if rolled and journal is not None:
                table.notes.append(f"{path.name}: the last change (number {journal.change}) was in the journal "
                                   "but not yet in the record: written now")
            table._resume(journal, write=lock)
        except BaseException:
            if holder:
                holder.release()
            raise
        return table

    def close(self) -> None:
        """Let the record's lock go (another table may serve it)."""
        if self._file_lock is not None:
            self._file_lock.release()
            self._file_lock = None

    def _resume(self, journal: Journal | None, write: bool) -> None:
        """The sealed entries the journal keeps, entered again, and the log brought up to the
        journal's change; then who entered each step, from the log."""
        log: list[files.LogLine] = list(files.read_log(self.path))
        logged = max((line.get("change", 0) for line in log), default=0)
        if journal is None or journal.record_sha256 != self._record_sha:
            if journal is not None and journal.pending:
                self.notes.append(f"{files.beside(self.path, 'journal').name} was written for another content of "
                                  f"{self.path.name}: its {len(journal.pending)} sealed entries are left out")
            self.change = max(logged, journal.change if journal else 0)
            self._attribute(log)
            return
        self.change = journal.change
        if write:
            log += self._logged_from(journal, logged)
        entries, kept = self._reentered(journal)
        self.entries = entries
        self._attribute(log)
        if kept < len(journal.pending):
            self.notes.append(f"{len(journal.pending) - kept} sealed entries no longer apply and are left out")
            if write:
                self._commit(entries, [{"op": "dropped", "by": HOST.name, "count": len(journal.pending) - kept}])

    def _logged_from(self, journal: Journal, logged: int) -> list[files.LogLine]:
        """The journal's log lines of changes after the log's last (`logged`), appended to the
        log: a change whose journal was written but whose log line was not."""
        missing = [line for line in journal.log if line.get("change", 0) > logged]
        if missing:
            files.append_log(self.path, missing)
        return missing

    def _reentered(self, journal: Journal) -> tuple[tuple[Entry, ...], int]:
        """The entries with the journal's sealed entries entered again, up to the first that is
        not a sealed step of the player who entered it or no longer applies; and how many were."""
        entries, kept = self.entries, 0
        for item, action in zip(journal.pending, self._sealed_actions(journal), strict=False):
            state = entries[-1].state if entries else self.first
            who = self._who(state)
            if getattr(action, "player", None) != item.get("player") or not (who and who.sealed
                                                                               and item.get("player") in who.players):
                break
            try:
                after, events = self.engine.apply(state, action, self.params)
            except (Violation, ChoiceNeeded, Malformed):
                break  # keep what was entered before the one that no longer applies
            entries += (Entry((action,), (after,), tuple(events), item.get("player"), self._kind(state, action),
                              True, by=str(item.get("by", "")), at=str(item.get("at", "")),
                              revealed=item.get("revealed") is True),)
            kept += 1
        return entries, kept

    def _sealed_actions(self, journal: Journal) -> list[Any]:
        """The sealed entries' actions, read back from the record the journal keeps with them
        (the referee's reader, the inverse of its writer): those after the record's own."""
        if not journal.pending:
            return []
        try:
            text = str(journal.pending[0]["record"])
            record = records.reads(text, {self.game_id: self.referee.KEYS}, "the journal")
            actions = [a for step in self.referee.steps(record, self.params) for a in self.referee.actions(step)]
        except (KeyError, RecordError, StepViolation, Violation):
            return []
        public = sum(len(e.actions) for e in self.entries)
        return actions[public:public + len(journal.pending)]

    def _attribute(self, log: Sequence[files.LogLine]) -> None:
        """Who entered each entry and when, and the step the page offered (one action may be two
        players' steps: Акционер's end of a turn is the next player's begin), as the log says
        (nothing, if the log does not match the record: a record written by hand, or played
        elsewhere); and the key of every change made (so none is made twice)."""
        self.keys = {line["key"]: line["change"] for line in log
                     if isinstance(line.get("key"), str) and isinstance(line.get("change"), int)}
        made = _makers(log)
        if made is not None and len(made) == len(self.entries):
            self.entries = tuple(replace(e, by=by, at=at, player=player if isinstance(player, str) else e.player,
                                         kind=kind or e.kind)
                                 for e, (by, at, player, kind) in zip(self.entries, made, strict=True))

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
        table.spec = spec
        actions = [action for step in referee.steps(record, params) for action in referee.actions(step)]
        table.entries = table._replay(actions)
        if table.state_json() != state_json(record.game, answer.state, params):
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
                secret = bool(sealed and sealed.sealed and player in sealed.players)
                entries.append(Entry((action,), (after,), events, player, self._kind(state, action), secret,
                                     revealed=secret))  # the record is for anyone to read
            state = after
        return tuple(entries)

    def _kind(self, state: Any, action: Any) -> str:
        """The kind of the template an action read from a record was taken from, as the page
        names it ("pass", not the "bid" it is made of): the template with nothing to choose
        whose action it is, else the one whose actions are of its type."""
        found = mine(self.engine.legal_actions(state, self.params), getattr(action, "player", None))
        for template in found:
            if not template.fields and template.action() == action:
                return template.kind
        for template in found:
            try:
                sample = template.action(_lowest(template))
            except Exception:  # noqa: BLE001 - a template that cannot build from its lowest values says nothing
                continue
            if type(sample) is type(action):
                return template.kind
        return type(action).__name__.lower()

    # --- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.entries[-1].state if self.entries else self.first

    def state_json(self, state: Any = None) -> dict[str, Any]:
        """The position as the referee's JSON answer writes it, for a state (default: now)."""
        return state_json(self.game_id, self.state if state is None else state, self.params)

    def to_move(self, state: Any = None) -> ToMove | None:
        return self._who(self.state if state is None else state)

    def templates(self, state: Any = None) -> tuple[Template, ...]:
        return self.engine.legal_actions(self.state if state is None else state, self.params)

    def public_count(self) -> int:
        """How many entries everyone may see: all but the secret ones of a sealed phase still
        open (those a correction of the record left open are seen)."""
        return _public(self.entries)

    def public_state(self) -> Any:
        """The position everyone may see: during a sealed phase, the one before its secret entries."""
        k = self.public_count()
        return self.entries[k - 1].state if k else self.first

    def start_form(self) -> dict[str, Any]:
        """The record's `start` for the position now written out: what the position form
        shows, to be edited."""
        data = self.referee.record(self.params, self.players, (), self.options, start=self.first)
        return dict(data.get("start", {}))

    # --- changing --------------------------------------------------------------------------

    def enter(self, actor: Actor, version: str, submission: Submission, close: bool = False,
              key: str | None = None) -> Entry:
        """Apply the legal action the submission chooses, then the table's own steps; write
        the files. Repeated, Stale, Forbidden, Refused, NeedsChoice or BadEntry, and nothing
        changes, otherwise. `close`: the host ends a sealed phase before every seat has entered
        (those who have not are taken to have entered nothing, as the engine's step says).
        `key`: the change's key (a form's, a client's): a change is made once per key."""
        with self._changing(actor, version, key):
            state = self.state
            template = seats.admitted(self, actor, submission)
            waiting = seats.check_entry(self, actor, template, close)
            entry = self._entry(state, template, submission)
            entry = replace(entry, by=actor.name, at=_now(), closed=waiting)
            op = "close" if waiting else "enter"
            line = {"op": op, "by": actor.name, "player": entry.player, "kind": entry.kind, "sealed": entry.sealed,
                    **({"waiting": list(waiting)} if waiting else {})}
            self._commit(self.entries + (entry,), [line], key)
            return entry

    def undo(self, actor: Actor, version: str, key: str | None = None) -> Entry:
        """Take back the entry `actor` may undo now (`seats.undo_target`), and the table's
        steps that followed it; the sealed entries after it (in the same phase) stay. Never a
        step whose undoing would hide again what a reveal showed: that is `correct`."""
        with self._changing(actor, version, key):
            index = seats.undo_target(self, actor)
            return self._take_back(actor, index, "undo", self.entries[:index] + self._rechain(index), key)

    def correct(self, actor: Actor, version: str, key: str | None = None) -> Entry:
        """The host corrects the record across a reveal: the step that revealed a sealed phase
        is taken back, and the phase's entries, which everyone has seen, stay public — on every
        page, and in the journal marked seen (the record states a sealed phase whole, so they
        join it when the phase completes) — while the phase is open again. Logged as such."""
        with self._changing(actor, version, key):
            index = seats.correction_target(self, actor)
            kept = tuple(replace(e, revealed=True) if e.sealed else e for e in self.entries[:index])
            return self._take_back(actor, index, "correct", kept, key)

    def _take_back(self, actor: Actor, index: int, op: str, entries: tuple[Entry, ...], key: str | None) -> Entry:
        taken = self.entries[index]
        line = {"op": op, "by": actor.name, "index": index, "player": taken.player, "kind": taken.kind,
                "sealed": taken.waiting}
        self._commit(entries, [line], key, () if taken.waiting else taken.events)
        return taken

    def _rechain(self, index: int) -> tuple[Entry, ...]:
        """The entries after `index` applied again without it: only sealed entries of one phase
        follow an entry taken back from the middle, each independent of the others."""
        state = self.entries[index - 1].state if index else self.first
        again: list[Entry] = []
        for entry in self.entries[index + 1:]:
            try:
                after, events = self.engine.apply(state, entry.actions[0], self.params)
            except (Violation, ChoiceNeeded, Malformed) as error:
                raise Refused(getattr(error, "rule", ""), f"the entries after it no longer apply ({error})") from None
            again.append(replace(entry, states=(after,), events=tuple(events)))
            state = after
        return tuple(again)

    def start_from(self, actor: Actor, version: str, start: Mapping[str, Any], key: str | None = None) -> None:
        """Play on from a position written as the record's `start` (the referee reads it and
        the engine's setup checks it; the hands dealt stay dealt), before any step has been
        entered. The host's."""
        with self._changing(actor, version, key):
            seats.check_host(actor)
            if self.entries:
                raise Refused("", "a position can be set only before the first step (undo every step first)")
            data = {"game": self.game_id, "players": list(self.players), "options": self.options, "start": start}
            dealt = self.referee.record(self.params, self.players, (), self.options, start=self.first).get("deal")
            if dealt is not None:
                data["deal"] = dealt
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
                self._commit((), [{"op": "start", "by": actor.name}], key)
            except BaseException:
                self.first, self.setup_events, self._start = previous
                raise

    @contextlib.contextmanager
    def _changing(self, actor: Actor, version: str, key: str | None) -> Iterator[None]:
        """A change under the table's lock: Repeated for a key already used (checked first: the
        retry of a change whose answer was lost carries the version it was made on), Stale for
        a form made on a position this actor no longer sees."""
        with self._lock:
            seats.check_may_change(actor)
            if key is not None and key in self.keys:
                raise Repeated(self.keys[key], self.keys[key] == self.change)
            if version != seats.version(self, actor):
                raise Stale()
            yield

    # --- inside ------------------------------------------------------------------------------

    def _who(self, state: Any) -> ToMove | None:
        return self.engine.to_move(state, self.params)

    def _entry(self, state: Any, template: Template, submission: Submission) -> Entry:
        who = self._who(state)
        try:
            action, after, events = self._apply(state, template.action(submission.values(template)),
                                                submission.choices)
        except Malformed as error:
            raise Refused("", str(error)) from None
        sealed = bool(who and who.sealed and template.player in who.players)
        entry = self._follow(Entry((action,), (after,), events, template.player, template.kind, sealed))
        return replace(entry, sealed=False) if entry.followed else entry  # the table's step reveals

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

    def _pending(self, sealed: tuple[Entry, ...], public: list[object]) -> list[dict[str, object]]:
        """The journal's lines for the sealed entries of a phase still open: who entered each,
        when, and the first with the record holding them too (the journal alone has it: the one
        writer of actions)."""
        pending: list[dict[str, object]] = [{"by": e.by, "at": e.at, "player": e.player, "revealed": e.revealed}
                                            for e in sealed]
        if pending:
            pending[0]["record"] = self._text.text(public + [e.actions[0] for e in sealed], self._start)
        return pending

    def _commit(self, entries: tuple[Entry, ...], lines: Sequence[Mapping[str, Any]], key: str | None = None,
                undone: tuple[Event, ...] = ()) -> None:
        """Make `entries` the game's: the journal, the record, the log, in that order, each on
        disk before the change is visible and the listeners hear of it. The record holds every
        entry but the sealed ones of a phase still open: each waits in the journal, as
        submitted, so nobody reads it in the record meanwhile. The change's `key` goes in its
        log line (the log is the owner's alone), so it is made once across restarts too;
        `undone`: what a public step taken back did, which the pages keep saying."""
        k = _recorded(entries)
        public = [a for entry in entries[:k] for a in entry.actions]
        text = HEADER + self._text.text(public, self._start)
        data = text.encode("utf-8")
        pending = self._pending(entries[k:], public)
        change, sha, at = self.change + 1, _sha(data), _now()
        keyed = [*lines[:-1], {**lines[-1], "key": key}] if key is not None else list(lines)
        stamped = tuple({"change": change, "at": at, **line, "entries": len(entries)} for line in keyed)
        files.write_journal(self.path, Journal(change, sha, self._record_sha, text, tuple(pending), stamped))
        if data != self._written:
            files.write_atomically(self.path, data)
        files.append_log(self.path, stamped)
        self.entries, self.change, self._written, self._record_sha = entries, change, data, sha
        if key is not None:
            self.keys[key] = change
        last = lines[-1]
        told = Change(change, str(last.get("op", "")), str(last.get("by", "")), last.get("player"),
                      str(last.get("kind", "")), bool(last.get("sealed", False)), undone)
        self.last_change = told
        for listener in tuple(self.listeners):
            listener(told)


class RecordText:
    """A record's text for a list of actions, as `records.dump` writes it, with each item of
    its list of rounds or turns dumped once and kept: a step rewrites the record, and dumping
    every round again made a step cost more the longer the game (the items are plain data, so
    an item equal to one dumped before has the same text)."""

    KEPT = 4096  # items kept; beyond, all are dropped and dumped again as they come

    def __init__(self, referee: GameReferee, params: Any, players: Sequence[str], options: Mapping[str, Any]):
        self.referee, self.params, self.players, self.options = referee, params, tuple(players), dict(options)
        self._items: dict[str, str] = {}

    def text(self, actions: Sequence[Any], start: Any) -> str:
        data = self.referee.record(self.params, self.players, actions, self.options, start=start)
        key = next(reversed(data))
        items = data[key]
        if not isinstance(items, list):
            return records.dump(data)
        head = self._dumped({k: v for k, v in data.items() if k != key})
        if not items:
            return head + records.dump({key: []})
        return head + f"{key}:\n" + "".join(self._item(key, item) for item in items)

    def _item(self, key: str, item: Any) -> str:
        return self._dumped({key: [item]}, lambda text: text.split("\n", 1)[1])

    def _dumped(self, data: dict[str, Any], cut: Callable[[str], str] = str) -> str:
        """`records.dump(data)` (cut), made once for equal data."""
        ident = json.dumps(data, default=str, ensure_ascii=False)
        text = self._items.get(ident)
        if text is None:
            if len(self._items) >= self.KEPT:
                self._items.clear()
            text = self._items[ident] = cut(records.dump(data))
        return text


def options_in_effect(game_id: str, game: Game, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Every house rule in effect, as a record's `options` states them: the rulebook's
    defaults, the spec's `rules`, the values the spec sets elsewhere (a track's start, a
    deck's dividends), then `settings` (raw values, as `--set` reads them; UsageError for one
    the rulebook refuses)."""
    rulebook = GAMES[game_id].rulebook
    checked, problems = check_values(settings, rulebook, in_spec=False, game=game)
    if problems:
        key, message = problems[0]
        raise UsageError(f"--set rules.{key}: {message}")
    values = rulebook.defaults()
    values.update(check_values(game.rules, rulebook, in_spec=True, game=game)[0])
    derived = GAMES[game_id].engine.params(game)
    for option in rulebook.options:
        if option.set_by:
            try:
                values[option.name] = option.check(plain(getattr(derived, option.name)), game)
            except (AttributeError, ValueError):
                values.pop(option.name, None)  # the spec's own, which a record cannot state
    values.update(checked)
    return values


_Made = tuple[str, str, object, str]  # who entered an entry, when, for which player, as which kind of step


def _makers(log: Sequence[files.LogLine]) -> list[_Made] | None:
    """Who made each entry of the record, as the table's log tells it line by line; None when
    a line's count of entries says the log does not match."""
    made: list[_Made] = []
    for line in log:
        made = _after(made, line)
        if isinstance(line.get("entries"), int) and line["entries"] != len(made):
            return None
    return made


def _after(made: list[_Made], line: files.LogLine) -> list[_Made]:
    """The entries' makers after one line of the log: a step entered or closed, one undone or
    corrected, all gone at a new start, the last dropped."""
    op = line.get("op")
    if op in ("enter", "close"):
        return [*made, (str(line.get("by", "")), str(line.get("at", "")), line.get("player"), str(line.get("kind", "")))]
    if op in ("undo", "correct") and isinstance(line.get("index"), int) and 0 <= line["index"] < len(made):
        return made[:line["index"]] + made[line["index"] + 1:]
    if op in ("start", "new"):
        return []
    if op == "dropped" and isinstance(line.get("entries"), int):
        return made[:line["entries"]]
    return made


def _check_new(path: Path, spec: Spec, game_id: str, players: Sequence[str]) -> None:
    """A new game's record, game and players as `TableGame.create` needs them, else one
    UsageError saying what to give instead."""
    if path.exists():
        raise UsageError(f"{path} exists: leave out --new to go on with that game, or name a new file")
    if game_id not in GAMES or game_id not in spec.games:
        known = ", ".join(g for g in GAMES if g in spec.games)
        raise UsageError(f'unknown game "{game_id}" (games the table plays: {known})')
    if not players or len(set(players)) != len(players) or not all(p.strip() for p in players):
        raise UsageError("--players needs distinct names, e.g. --players Ana,Ben,Cris")


def _started(game_id: str, spec: Spec, options: Mapping[str, object], players: Sequence[str],
             deal: random.Random | None) -> tuple[object, object, object]:
    """A new game's parameters, the start `deal` deals (None without one) and its first
    position, by the game's engine; what the rules refuse is a UsageError naming its rule."""
    engine = GAMES[game_id].engine
    try:
        params = engine.params(spec.games[game_id], options)
        start = engine.deal(params, tuple(players), deal) if deal is not None else None
        first, _ = engine.setup(params, tuple(players), start)
    except Violation as violation:
        raise UsageError(f"{violation.rule}: {violation.message}") from None
    except ValueError as error:
        raise UsageError(f"--set: {error}") from None
    return params, start, first


def _public(entries: Sequence[Entry]) -> int:
    """How many of `entries` everyone may see: all but the trailing ones still waiting in secret."""
    k = len(entries)
    while k and entries[k - 1].waiting:
        k -= 1
    return k


def _recorded(entries: Sequence[Entry]) -> int:
    """How many of `entries` the record holds: all but the trailing ones of a sealed phase still
    open (a record states a sealed phase whole; those seen already after a correction wait in
    the journal too, shown to everyone)."""
    k = len(entries)
    while k and entries[k - 1].sealed:
        k -= 1
    return k


def _lowest(template: Template) -> dict[str, Any]:
    """A template's fields at their lowest: the least number, the first option, the fewest."""
    return {f.name: f.least() for f in template.fields}


def _locked(path: Path, lock: bool) -> RecordLock | None:
    if not lock:
        return None
    holder = RecordLock(path)
    holder.acquire()
    return holder


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
