"""The For-Ex referee: a game record (REFEREE.md, forex) replayed through `pnp.rules.forex`.

A record lists `turns`; each names its `player` and exactly one action — `contract`, `invest`,
`divest` or `resolve` — optionally preceded by a `spot`. Amounts are exact: 4.5, or "1/3" as
text where the `any_one` spot rule makes thirds.

The end of the game. After the last dividend there are no more turns (FOREX-10.5.5): the
`resolve` that pays the last dividend also resolves the rest of the queue, front to back
(Loans created meanwhile included), reporting each item as events, and then scores the game.
Every choice those resolutions need is written on that one turn: `strengthen: X` for a tie
after the dividend, `strongest: X` when the final strongest currency is tied (FOREX-12.1: the
player whose Resolve ended the game picks), and, with `voluntary_default`, `default: [B]` for
the contracts whose owners default although they could pay. The same holds for the turn whose
Loan bankrupts its owner. A tie the record leaves unbroken is a record error (exit 2) naming
the tied currencies; a pick outside the tie is a violation. A turn after the end is a
violation of FOREX-11.1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pnp.errors import PnpError, RecordError
from pnp.referee.fields import Reader
from pnp.referee.record import Record, where
from pnp.referee.replay import Step, StepViolation
from pnp.rules import forex as engine
from pnp.rules.base import Event, Violation
from pnp.rules.forex.params import as_number, show
from pnp.rules.forex.resolve import queue_text
from pnp.spec.model import Game
from pnp.spec.options import unknown_key_message

KEYS = ("turns",)
ACTIONS = ("contract", "invest", "divest", "resolve")
_DIVIDEND = re.compile(r"^dividend (\d+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Play:
    """What the replay loop carries from step to step: the parameters and the position."""

    params: engine.Params
    state: engine.State


@dataclass(frozen=True)
class Turn:
    index: int
    kind: str  # the action's key: contract, invest, divest or resolve
    spot: engine.Spot | None
    action: engine.Action
    record: Record = field(repr=False, compare=False)  # to locate a violation inside the turn


# --- reading the record -----------------------------------------------------------------------


def _exact(reader: Reader, path: tuple) -> Fraction:
    """A non-negative exact amount: 3, 4.5, or "1/3" as text."""
    value = reader.get(path)
    try:
        if isinstance(value, bool):
            raise ValueError
        amount = Fraction(value) if isinstance(value, str) else Fraction(value).limit_denominator(1000)
    except (TypeError, ValueError, ZeroDivisionError):
        reader.fail(path, f"expected an amount such as 3, 4.5 or \"1/3\", got {value!r}")
        return Fraction(0)
    if amount < 0:
        reader.fail(path, f"an amount cannot be negative, got {value}")
        return Fraction(0)
    return amount


def _one_amount(reader: Reader, path: tuple, p: engine.Params) -> tuple[str, Fraction]:
    """{GBP: 1} → ("GBP", 1)."""
    value = reader.mapping(path, required=True)
    if len(value) != 1:
        if value or reader.get(path) is not None:
            reader.fail(path, "expected one currency and its amount, e.g. {GBP: 1}")
        return ("", Fraction(0))
    (currency,) = value
    reader.choice(path + (currency,), currency, p.currencies, "currency", key=True)
    return str(currency), _exact(reader, path + (currency,))


def _currency(reader: Reader, path: tuple, p: engine.Params, *, required: bool = True) -> str:
    value = reader.get(path)
    if value is None:
        if required:
            reader.fail(path[:-1], f'missing "{path[-1]}"')
        return ""
    return reader.choice(path, value, p.currencies, "currency") or ""


def _read_turns(record: Record, p: engine.Params) -> list[Turn]:
    """Every turn, read and checked against the spec's currencies and contract sets."""
    reader, turns = Reader(record), []
    for index, _ in enumerate(reader.sequence(("turns",))):
        base = ("turns", index)
        raw = reader.mapping(base, ("player", "spot") + ACTIONS)
        if not isinstance(reader.get(base), dict):
            continue
        player = reader.player(base + ("player",), raw.get("player")) if "player" in raw else None
        if "player" not in raw:
            reader.fail(base, 'missing "player"')
        kinds = [key for key in ACTIONS if key in raw]
        if len(kinds) != 1:
            reader.fail(base, f"a turn has exactly one action ({', '.join(ACTIONS)}), this one has "
                        f"{len(kinds) and ', '.join(kinds) or 'none'} (FOREX-5.2)")
            continue
        spot = _spot(reader, base + ("spot",), player or "", p) if "spot" in raw else None
        action = _ACTION_READERS[kinds[0]](reader, base + (kinds[0],), player or "", p)
        turns.append(Turn(index, kinds[0], spot, action, record))
    reader.done()
    return turns


def _spot(reader: Reader, path: tuple, player: str, p: engine.Params) -> engine.Spot:
    raw = reader.mapping(path, ("with", "give", "get"), required=True)
    other = reader.player(path + ("with",), raw.get("with")) if "with" in raw else None
    if "with" not in raw:
        reader.fail(path, 'missing "with" (the other player)')
    return engine.Spot(player, other or "", _one_amount(reader, path + ("give",), p),
                       _one_amount(reader, path + ("get",), p))


def _contract(reader: Reader, path: tuple, player: str, p: engine.Params) -> engine.MakeContract:
    reader.mapping(path, ("pay", "receive", "amount"), required=True)
    pay, receive = _currency(reader, path + ("pay",), p), _currency(reader, path + ("receive",), p)
    if reader.get(path + ("amount",)) is None:
        reader.fail(path, f'missing "amount" (the amount of the stronger currency, 1 to {p.contract_max})')
    return engine.MakeContract(player, pay, receive, _exact(reader, path + ("amount",)))


def _invest(reader: Reader, path: tuple, player: str, p: engine.Params) -> engine.Invest:
    if not isinstance(reader.get(path), tuple):
        reader.fail(path, "expected a list of one or two currencies, in buying order, e.g. [GBP, USD]")
        return engine.Invest(player, ())
    codes = reader.sequence(path)
    return engine.Invest(player, tuple(_currency(reader, path + (i,), p) for i in range(len(codes))))


def _divest(reader: Reader, path: tuple, player: str, p: engine.Params) -> engine.Divest:
    raw = reader.mapping(path, ("currency", "count", "others"), required=True)
    currency = _currency(reader, path + ("currency",), p)
    count = reader.count(path + ("count",)) if "count" in raw else 0
    if "count" not in raw:
        reader.fail(path, 'missing "count" (how many certificates the active player sells)')
    others = []
    for name in reader.mapping(path + ("others",)):
        if reader.player(path + ("others", name), name, key=True) is not None:
            others.append((name, reader.count(path + ("others", name))))
    return engine.Divest(player, currency, count, tuple(others))


def _resolve(reader: Reader, path: tuple, player: str, p: engine.Params) -> engine.Resolve:
    raw = reader.mapping(path, ("strengthen", "strongest", "default"))
    given = raw.get("default", ())
    letters = (given,) if isinstance(given, str) else given
    if not isinstance(letters, tuple):
        reader.fail(path + ("default",), "expected a contract letter or a list of them, e.g. [B]")
        letters = ()
    for i, letter in enumerate(letters):
        reader.choice(path + ("default",) + ((i,) if isinstance(given, tuple) else ()), letter, p.sets, "contract set")
    return engine.Resolve(
        player,
        strengthen=_currency(reader, path + ("strengthen",), p, required=False) or None,
        strongest=_currency(reader, path + ("strongest",), p, required=False) or None,
        default=tuple(str(letter) for letter in letters),
    )


_ACTION_READERS = {"contract": _contract, "invest": _invest, "divest": _divest, "resolve": _resolve}


def _params(record: Record, game: Game) -> engine.Params:
    """The record's options on the spec; a `start_pairs` option is checked against this game."""
    if "start_pairs" in record.options:
        try:
            engine.RULEBOOK.option("start_pairs").check(dict(record.options["start_pairs"]), game)
        except ValueError as error:
            raise RecordError([record.issue(("options", "start_pairs"), f"{error} (FOREX-2.3)")]) from None
    return engine.params(game, record.options)


def steps(record: Record, game: Game) -> list[Step]:
    """One step per turn: its spot, if any, then its action."""
    return [Step(where(("turns", t.index)), record.line(("turns", t.index)), t) for t in _read_turns(record, _params(record, game))]


# --- the starting position --------------------------------------------------------------------


def setup(record: Record, game: Game) -> tuple[Play, list[Event]]:
    """The standard setup with the record's `start` laid over it."""
    p = _params(record, game)
    reader = Reader(record)
    start = reader.mapping(("start",), ("pairs", "supply", "players", "queue"))
    pairs = _start_pairs(reader, p) if "pairs" in start else None
    supply = reader.counts(("start", "supply"), p.currencies, "currency") if "supply" in start else None
    money, certificates = _start_players(reader, p)
    queue = _start_queue(reader, p) if "queue" in start else None
    reader.done()
    state = engine.setup(p, record.players, pairs=pairs, supply=supply, money=money,
                         certificates=certificates, queue=queue)
    counts = ", ".join(f"{c} {n}" for c, n in zip(p.currencies, state.supply))
    return Play(p, state), [
        Event("FOREX-4.3", f"{len(state.players)} players; {sum(state.supply)} certificates in the supply ({counts})"),
        Event("FOREX-4.4", f"contract display {', '.join(state.display(p)) or 'empty'}; queue {queue_text(state)}"),
    ]


def _start_pairs(reader: Reader, p: engine.Params) -> dict[str, tuple[str, int]]:
    found = {}
    for key, entry in reader.mapping(("start", "pairs")).items():
        path = ("start", "pairs", key)
        a, _, b = str(key).partition("/")
        if a not in p.currencies or b not in p.currencies or p.index(a) >= p.index(b):
            hint = f'"{b}/{a}"' if a in p.currencies and b in p.currencies and a != b else "A/B"
            reader.fail(path, f'unknown pair "{key}": write {hint} with the currencies in the order '
                        f"{', '.join(p.currencies)}", key=True)
            continue
        raw = reader.mapping(path, ("stronger", "position"), required=True)
        if raw.get("stronger") not in (a, b):
            reader.fail(path + ("stronger",), f"stronger must be {a} or {b}, got {raw.get('stronger')!r}")
            continue
        position = reader.count(path + ("position",), minimum=1)
        if position > p.boxes:
            reader.fail(path + ("position",), f"position must be 1..{p.boxes}, got {position}")
        found[key] = (raw["stronger"], position)
    return found


def _start_players(reader: Reader, p: engine.Params) -> tuple[dict, dict]:
    money, certificates = {}, {}
    for name in reader.mapping(("start", "players")):
        path = ("start", "players", name)
        if reader.player(path, name, key=True) is None:
            continue
        raw = reader.mapping(path, ("money", "certificates"))
        money[name] = {}
        for currency in reader.mapping(path + ("money",)):
            if reader.choice(path + ("money", currency), currency, p.currencies, "currency", key=True):
                money[name][currency] = _exact(reader, path + ("money", currency))
        certificates[name] = reader.counts(path + ("certificates",), p.currencies, "currency") if "certificates" in raw else {}
    return money, certificates


def _start_queue(reader: Reader, p: engine.Params) -> list[engine.Item]:
    items: list[engine.Item] = []
    for index, raw in enumerate(reader.sequence(("start", "queue"))):
        path = ("start", "queue", index)
        if isinstance(raw, str) and _DIVIDEND.match(raw.strip()):
            number = int(_DIVIDEND.match(raw.strip()).group(1))
            if not 1 <= number <= len(p.dividends):
                reader.fail(path, f"there are dividends 1 to {len(p.dividends)}, not {number}")
            items.append(engine.Dividend(number))
        elif isinstance(raw, dict) and ("contract" in raw) != ("loan" in raw):
            item = _queue_contract(reader, path, p) if "contract" in raw else _queue_loan(reader, path, p)
            if item is not None:
                items.append(item)
        else:
            reader.fail(path, 'expected "dividend N", {contract: B, owner: Ana, pay: {GBP: 3}, receive: {EUR: 4.5}} '
                        "or {loan: A, owner: Ben, owe: {GBP: 4}}")
    return items


def _queue_head(reader: Reader, path: tuple, p: engine.Params, kind: str, keys: tuple) -> tuple[str | None, str | None]:
    raw = reader.mapping(path, (kind, "owner") + keys)
    for key in ("owner",) + keys:
        if key not in raw:
            reader.fail(path, f'missing "{key}"')
    letter = reader.choice(path + (kind,), raw.get(kind), p.sets, "contract set")
    owner = reader.player(path + ("owner",), raw.get("owner")) if "owner" in raw else None
    return letter, owner


def _amounts(reader: Reader, path: tuple, p: engine.Params) -> tuple[tuple[str, Fraction], ...]:
    found = []
    for currency in reader.mapping(path):
        if reader.choice(path + (currency,), currency, p.currencies, "currency", key=True):
            found.append((currency, _exact(reader, path + (currency,))))
    return tuple(sorted(found, key=lambda part: p.index(part[0])))


def _queue_contract(reader: Reader, path: tuple, p: engine.Params) -> engine.Contract | None:
    letter, owner = _queue_head(reader, path, p, "contract", ("pay", "receive"))
    pay, receive = _amounts(reader, path + ("pay",), p), _amounts(reader, path + ("receive",), p)
    for key, terms in (("pay", pay), ("receive", receive)):
        if len(terms) != 1 and reader.get(path + (key,)) is not None:
            reader.fail(path + (key,), "expected one currency and its amount, e.g. {GBP: 3}")
    if letter and owner and len(pay) == 1 and len(receive) == 1:
        return engine.Contract(letter, owner, pay[0], receive[0])
    return None


def _queue_loan(reader: Reader, path: tuple, p: engine.Params) -> engine.Loan | None:
    letter, owner = _queue_head(reader, path, p, "loan", ("owe",))
    owe = _amounts(reader, path + ("owe",), p)
    if not owe and reader.get(path + ("owe",)) is not None:
        reader.fail(path + ("owe",), "expected the amounts owed per currency, e.g. {GBP: 4}")
    return engine.Loan(letter, owner, owe) if letter and owner and owe else None


# --- replaying a turn -------------------------------------------------------------------------


def apply(play: Play, step: Step) -> tuple[Play, list[Event]]:
    """The turn's spot (if any), then its action; a violation names the part that broke."""
    turn: Turn = step.action
    base = ("turns", turn.index)
    state, events = play.state, []
    for part, action in (("spot", turn.spot), (turn.kind, turn.action)):
        if action is None:
            continue
        try:
            state, more = engine.apply(state, action, play.params)
        except engine.ChoiceNeeded as choice:
            message = (f"{choice.message} ({choice.rule}): write `{choice.what}: {choice.options[0]}` "
                       f"or another of {', '.join(choice.options)}")
            raise RecordError([turn.record.issue(base + (part,), message)]) from None
        except Violation as violation:
            path = _violation_path(base, part, violation)
            raise StepViolation(violation, where(path), turn.record.line(path), Play(play.params, state), events) from None
        events += more
    return Play(play.params, state), events


def _violation_path(base: tuple, part: str, violation: Violation) -> tuple:
    if violation.rule == "FOREX-5.3":  # not this player's turn
        return base + ("player",)
    if violation.rule == "FOREX-11.1":  # no turn at all after the end
        return base
    return base + (part,) + getattr(violation, "part", ())


# --- answers ----------------------------------------------------------------------------------


def state_json(play: Play) -> dict[str, Any]:
    p, state = play.params, play.state
    answer: dict[str, Any] = {
        "pairs": {pair.key: {"stronger": pair.stronger, "position": pair.position,
                             "rate": as_number(p.rate(pair.position))} for pair in state.pairs},
        "players": {
            name: {"money": {c: as_number(h.money[i]) for i, c in enumerate(p.currencies)},
                   "certificates": {c: h.certificates[i] for i, c in enumerate(p.currencies)}}
            for name, h in zip(state.players, state.holdings)
        },
        "supply": dict(zip(p.currencies, state.supply)),
        "queue": [item.label() for item in state.queue],
        "strength": engine.strengths(state.pairs, p),
        "over": state.over,
    }
    if state.result is not None:
        answer["scores"] = {name: as_number(score) for name, score in zip(state.players, state.result.scores)}
        answer["winners"] = list(state.result.winners)
    return answer


def starter(game: Game, players: list[str]) -> str:
    """A record with the standard setup written out (FOREX-4), ready for its turns."""
    p = engine.params(game)
    if not p.min_players <= len(players) <= p.max_players:
        raise PnpError(f"For-Ex is for {p.min_players}–{p.max_players} players, not {len(players)} (FOREX-1.10)")
    state = engine.setup(p, players)
    money = ", ".join(f"{c}: {show(p.start_money)}" for c in p.currencies)
    lines = [
        "# For-Ex game record: edit, then `pnp referee check` it (REFEREE.md, rules/forex.md).",
        "game: forex",
        f"players: [{', '.join(_yaml_text(n) for n in players)}]   # seating, clockwise; anyone may start",
        "options: {}                 # house rules (rules/forex.md section 13), e.g. {voluntary_default: true}",
        "start:",
        f"  pairs:                    # FOREX-2.3: the stronger currency and its box 1..{p.boxes}",
        *(f"    {pair.key}: {{stronger: {pair.stronger}, position: {pair.position}}}" for pair in state.pairs),
        f"  supply: {{{', '.join(f'{c}: {n}' for c, n in zip(p.currencies, state.supply))}}}"
        f"   # {p.removed_certificates} removed at random (FOREX-4.3): write what is left",
        "  players:",
        *(f"    {_yaml_text(name)}: {{money: {{{money}}}, certificates: {{}}}}" for name in players),
        "  queue: [dividend 1]       # front first",
        "turns: []",
        f"# - player: {_yaml_text(players[0])}",
        f"#   spot: {{with: {_yaml_text(players[-1])}, give: {{GBP: 1}}, get: {{CAD: 2}}}}   # optional",
        "#   contract: {pay: GBP, receive: CNY, amount: 3}   # or invest: [USD, CNY]",
        "#   # divest: {currency: JPY, count: 2, others: {Ben: 1}}",
        "#   # resolve: {}   (strengthen: X for a dividend tie, strongest: X for the final tie)",
        "",
    ]
    return "\n".join(lines)


def _yaml_text(name: str) -> str:
    plain = re.fullmatch(r"[A-Za-z][\w .'-]*", name) and name.lower() not in ("yes", "no", "on", "off", "true", "false", "null")
    return name if plain else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def record_text(players: tuple[str, ...], turns: list[tuple[engine.Action, ...]], options: dict[str, Any] | None = None) -> str:
    """A record of the given turns (each: an optional Spot, then one action), e.g. to store a
    game played with `pnp.rules.forex.playout` for benchmarks and tests."""
    lines = ["game: forex", f"players: [{', '.join(_yaml_text(n) for n in players)}]"]
    if options:
        lines.append("options: {" + ", ".join(f"{k}: {_yaml_value(v)}" for k, v in options.items()) + "}")
    lines.append("turns:" if turns else "turns: []")
    for actions in turns:
        lines.append(f"  - player: {_yaml_text(actions[-1].player)}")
        lines += [f"    {line}" for line in map(_action_text, actions)]
    return "\n".join(lines) + "\n"


def _action_text(action: engine.Action) -> str:
    if isinstance(action, engine.Spot):
        (gives, x), (gets, y) = action.give, action.get
        return f"spot: {{with: {_yaml_text(action.other)}, give: {{{gives}: {_amount(x)}}}, get: {{{gets}: {_amount(y)}}}}}"
    if isinstance(action, engine.MakeContract):
        return f"contract: {{pay: {action.pay}, receive: {action.receive}, amount: {_amount(action.amount)}}}"
    if isinstance(action, engine.Invest):
        return f"invest: [{', '.join(action.currencies)}]"
    if isinstance(action, engine.Divest):
        others = ", ".join(f"{_yaml_text(n)}: {c}" for n, c in action.others)
        return f"divest: {{currency: {action.currency}, count: {action.count}, others: {{{others}}}}}"
    choices = [f"{key}: {value}" for key, value in (("strengthen", action.strengthen), ("strongest", action.strongest)) if value]
    if action.default:
        choices.append(f"default: [{', '.join(action.default)}]")
    return f"resolve: {{{', '.join(choices)}}}"


def _amount(value: Fraction) -> str:
    text = show(value)
    return f'"{text}"' if "/" in text else text


def _yaml_value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)
