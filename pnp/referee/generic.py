"""Records of a game with no record reader of its own: every action written as its template's
kind and field values, judged through the engine's `legal_actions`, so a designer's game (one
rules file, `docs/your-game.md`) is refereed with no referee code of its own.

    game: mygame
    players: [Ana, Ben]
    start: {...}          # the engine's Start as a mapping, when its deal is written out
    actions:
      - {player: Ana, kind: buy, company: RED, count: 2}
      - {kind: settle}    # a step the table takes (a template with no player)

An entry is what its template reads of the action (`Template.read`, the inverse of `build`), the
player and fixed values included; lists stand for tuples. An entry is built into the engine's
action by the template of its kind and player in the position it is played in, so reading a
record replays it (`steps`): entries from the first one that cannot be built on are kept as
they are written and refused when applied, with the position's rule. A tie the engine asks
about (`ChoiceNeeded`) is not part of a template, so a generic record cannot state one: an
engine meant for generic records breaks its ties itself (with the seed of its Start, say).
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from pnp.errors import RecordError
from pnp.referee.fields import Reader
from pnp.referee.record import Record, dump, scalar, where
from pnp.referee.steps import Step, seated
from pnp.rules import GAMES
from pnp.rules.base import ChoiceNeeded, Event, Malformed, Violation, plain
from pnp.rules.legal import Template, draw, unlisted

if TYPE_CHECKING:
    from pnp.rules.contract import AnyEngine
    from pnp.spec.model import Game

KEY = "actions"


@dataclass(frozen=True)
class Entry:
    """One action as the record writes it, not yet built into the engine's (see the module)."""

    player: str | None
    kind: str
    values: Mapping[str, Any]


_STARTS: dict[int, tuple[Any, Any]] = {}  # the last positions set up from a record's start, with that start


class Generic:
    """The referee of one game's generic records (`pnp.referee.replay.GameReferee`)."""

    KEYS: tuple[str, ...] = (KEY,)

    def __init__(self, game: str):
        self.game = game

    @property
    def engine(self) -> AnyEngine:
        return GAMES[self.game].engine

    def setup(self, record: Record, params: Any) -> tuple[Any, Sequence[Event]]:
        """The standard setup, or the record's `start` (the engine's Start as a mapping)."""
        start = self._start(record)
        setup: tuple[Any, Sequence[Event]] = self.engine.setup(params, record.players, start)
        if start is not None:
            _STARTS[id(setup[0])] = (setup[0], start)
            while len(_STARTS) > 64:
                del _STARTS[next(iter(_STARTS))]
        return setup

    def steps(self, record: Record, params: Any) -> list[Step]:
        """One step an entry: built into the engine's action as far as the record replays
        (RecordError for an entry that is no action, or one whose tie the rules ask about)."""
        seated(record, self.engine.check_players, params)
        entries = _entries(record)
        built: list[Any] = list(entries)
        index = 0
        try:
            state, _ = self.setup(record, params)
            for index, entry in enumerate(entries):
                built[index] = self._built(state, entry, params)
                state, _ = self.engine.apply(state, built[index], params, False)
        except ChoiceNeeded as needed:
            raise RecordError([record.issue((KEY, index), f"the rules ask for a choice of {needed.what} here, "
                                                          "which a record of template values cannot state")]) from None
        except Malformed as error:
            raise RecordError([record.issue((KEY, index), str(error))]) from None
        except Violation:  # the setup's (no entry read) or an entry's, refused again where `replay` applies it
            built[index:index + 1] = entries[index:index + 1]
        return [Step(where((KEY, at)), record.line((KEY, at)), action) for at, action in enumerate(built)]

    def apply(self, state: Any, step: Step, params: Any) -> tuple[Any, Sequence[Event]]:
        action = self._built(state, step.action, params) if isinstance(step.action, Entry) else step.action
        applied: tuple[Any, Sequence[Event]] = self.engine.apply(state, action, params)
        return applied

    def actions(self, step: Step) -> tuple[Any, ...]:
        return () if isinstance(step.action, Entry) else (step.action,)

    def starter(self, game: Game, players: list[str], start: Any = None) -> str:
        """The record of no actions yet, with an action the first position allows as an example."""
        p = self.engine.params(game)
        state, _ = self.engine.setup(p, players, start)
        templates = self.engine.legal_actions(state, p)
        example = [f"#   - {scalar(_written(t, t.action(draw(t, random.Random(0)))))}" for t in templates[:1]]
        return "\n".join([
            f"# {game.title}: a game record. List every action under `actions`, as the rules' templates name",
            "# it (its kind, then its values), in the order played; then `pnp referee check` it. E.g.:",
            *example, dump(self.record(p, players, (), start=start)).rstrip(), ""])

    def record(self, params: Any, players: Sequence[str], actions: Iterable[Any],
               options: Mapping[str, Any] | None = None, start: Any = None) -> dict[str, Any]:
        """The record of `actions` played from `start` (the engine's Start, a position set up
        from one, or None), each written by the template of its position that admits it."""
        engine = self.engine
        start = self._start_of(start, params, players)
        state, _ = engine.setup(params, players, start)
        written: list[dict[str, Any]] = []
        for action in actions:
            template = next((t for t in engine.legal_actions(state, params) if t.admits(action)), None)
            if template is None:  # a caller's bug: only legal actions are written
                raise ValueError(f"{action!r}: no template of its position admits it, so no record can state it")
            written.append(_written(template, action))
            state, _ = engine.apply(state, action, params, False)
        data: dict[str, Any] = {"game": self.game, "players": list(players)}
        if options:
            data["options"] = {key: plain(value) for key, value in options.items()}
        if start is not None:
            laid = dataclasses.asdict(start) if dataclasses.is_dataclass(start) and not isinstance(start, type) else start
            data["start"] = plain(laid)
        data[KEY] = written
        return data

    def _start_of(self, start: Any, params: Any, players: Sequence[str]) -> Any:
        """The engine's Start to write for `start`: itself, or for a position (what the table
        asks about) the Start this referee set it up from; None for the standard setup."""
        if start is None or isinstance(start, self.engine.Start):
            return start
        kept = _STARTS.get(id(start))
        if kept is not None and kept[0] is start:
            return kept[1]
        if start == self.engine.setup(params, players)[0]:
            return None
        raise ValueError("a generic record states its start as the engine's Start, and this position was not set "
                         "up from one")

    def _start(self, record: Record) -> Any:
        written = record.get(("start",))
        if written is None:
            return None
        start = self.engine.Start
        if not isinstance(written, dict):
            raise RecordError([record.issue(("start",), "expected a mapping of the game's start")])
        names = [f.name for f in dataclasses.fields(start)] if dataclasses.is_dataclass(start) else []
        unknown = [key for key in written if key not in names]
        if unknown:
            raise RecordError([record.issue(("start", unknown[0]), f"unknown key (keys: {', '.join(names)})", key=True)])
        return start(**{key: _tuples(value) for key, value in written.items()})

    def _built(self, state: Any, entry: Entry, params: Any) -> Any:
        """The engine's action an entry writes, built by the template of its kind and player in
        `state` (the engine judges it when applied); when the position lists none of its kind
        and player, by one of its kind for another (the engine refuses it as it words a turn
        not one's own), else refused as the position's templates word an action none offers."""
        templates = self.engine.legal_actions(state, params)
        ours = [t for t in templates if t.kind == entry.kind]
        if not ours:
            raise unlisted(templates, entry.kind)
        template = next((t for t in ours if t.player == entry.player), ours[0])
        _check_names(template, entry)
        try:
            return template.action({**entry.values, "player": entry.player})
        except (KeyError, TypeError, ValueError) as error:
            raise Malformed(f"{entry.kind}: {error}") from None


def _check_names(template: Template, entry: Entry) -> None:
    """Malformed for a value the entry writes that its kind of action has not."""
    known = [f.name for f in template.fields] + [name for name in template.fixed if name != "player"]
    stray = [name for name in entry.values if name not in known]
    if stray:
        raise Malformed(f"{stray[0]} is not a value of {entry.kind} (its values: {', '.join(known)})")


def _written(template: Template, action: Any) -> dict[str, Any]:
    values = dict(template.read(action) or {}) if template.read else {"player": template.player, **template.fixed}
    player = values.pop("player", template.player)
    entry: dict[str, Any] = {"player": player} if player is not None else {}
    entry["kind"] = template.kind
    entry.update({name: plain(value) for name, value in values.items()})
    return entry


def _entries(record: Record) -> list[Entry]:
    reader, found = Reader(record), []
    for index, raw in enumerate(reader.sequence((KEY,))):
        path = (KEY, index)
        if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str):
            reader.fail(path, 'an action is a mapping with its "kind", e.g. {player: Ana, kind: buy, count: 1}')
            continue
        player = raw.get("player")
        if player is not None:
            player = reader.player(path + ("player",), player)
        values = {key: _tuples(value) for key, value in raw.items() if key not in ("player", "kind")}
        found.append(Entry(player, raw["kind"], values))
    reader.done()
    return found


def _tuples(value: Any) -> Any:
    """A value as the engine's actions hold it: lists as tuples, mappings' values too."""
    if isinstance(value, (list, tuple)):
        return tuple(_tuples(item) for item in value)
    if isinstance(value, dict):
        return {key: _tuples(item) for key, item in value.items()}
    return value
