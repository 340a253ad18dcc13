"""Forms from the engine's templates, and submissions from forms — for any registered game.

A template (`pnp.rules.legal.Template`) says who acts, the rule, and each field's kind and
range; the page asks for exactly that: a small range or a few options as buttons to tap, a
longer one as a picker, several options as ordered pickers. Fields named `group.key`
("sell.IBE", "buy.IBE") that share their keys become a grid (a row per company, a column per
side). The ranges only guide the hand: legality is the engine's to judge, so a form never
refuses what the engine might accept.

Posted names: `p` whose step it is (a player's name; empty: the table's), `a` the number of
the step among that player's (`Submission.n`), `f.<field>` a number or an option number,
`g.<field>.<slot>` the options of a several field in the order chosen, `c.<what>` a
tie-break (`ChoiceNeeded`) option, `close` the host closing a sealed phase; with every form,
`v` the version it was drawn on, `k` its key (a form entered once, however often it is posted)
and `h` its host-bound token (`access.form_token`), and `confirm` once a question is answered.
Nothing posted is used as anything but a number or a key to look up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pnp.i18n import _, named
from pnp.rules.legal import AtMostOne, Budget, Different, Field, Template
from pnp.table.looks import word
from pnp.table.seats import Offer
from pnp.table.steps import Asked, BadEntry, Submission, key_of

BUTTONS = 11  # a range or a list this long or shorter is tapped; longer ones are picked


@dataclass(frozen=True)
class Option:
    value: str  # what the form posts
    label: str  # the engine's words ("-30 blue", "USD", "Ben: 1 GBP for 1.5 EUR")
    asset: str = ""  # an asset id, for its colour

    @property
    def shown(self) -> str:
        """The label in the page's language (a game's asset names are words of the catalog)."""
        return named(self.label)


@dataclass(frozen=True)
class Control:
    """One field as the page asks for it."""

    name: str  # the posted name, "f.sell.IBE"
    label: str  # "IBE" (in a grid) or "amount"
    kind: str  # number, choice or several
    options: tuple[Option, ...]
    picker: str  # "buttons" or "select"
    default: str  # the option posted when nothing is touched
    slots: int = 1  # several: how many pickers
    required: int = 1  # several: how many must be chosen


@dataclass(frozen=True)
class Grid:
    groups: tuple[str, ...]  # column headings: "sell", "buy"
    rows: tuple[tuple[str, tuple[Control, ...]], ...]  # (key, one control per group)


@dataclass(frozen=True)
class Form:
    """One legal action to enter."""

    n: int  # its number among its player's steps (what the form posts as `a`)
    player: str | None
    kind: str
    rule: str
    title: str  # "play +30 red", "divest GBP", in the page's language
    name: str  # the same in the engine's words, whatever the language: what scripts and tests name it by
    controls: tuple[Control, ...]  # those not in the grid
    grid: Grid | None
    notes: tuple[str, ...]  # the constraints, in words
    budget: tuple[tuple[tuple[str, float], ...], float] | None  # for the page's running total
    fixed: str = ""  # the values the step fixes, as the engine writes them ("+100 red": the card)
    face: str = ""  # the same in the page's language ("+100 красный")


    @property
    def key(self) -> str:
        """Names the form on the page (the live page keeps a form being filled in by it)."""
        return f"{self.player or ''}:{self.n}:{self.name}"


def forms(offers: Sequence[Offer], assets: Sequence[str]) -> list[Form]:
    """A form per legal action the page offers."""
    return [_form(o.n, o.template, assets) for o in offers]


def _form(index: int, template: Template, assets: Sequence[str]) -> Form:
    controls = _distinct_defaults(template, [_control(f, assets) for f in template.fields])
    grid = _grid(controls, template.fields)
    if grid is not None:
        gridded = {c.name for _, row in grid.rows for c in row}
        controls = [c for c in controls if c.name not in gridded]
    fixed = " ".join(_text(v) for k, v in template.fixed.items() if v is not None and k != "player")
    return Form(
        index, template.player, template.kind, template.rule, f"{word(template.kind)} {named(fixed)}".strip(),
        f"{template.kind} {fixed}".strip(), tuple(controls), grid,
        _notes(template.constraints), _budget(template), fixed, named(fixed),
    )


def one_choice(form: Form) -> bool:
    """A form that fixes something (a card) and asks one choice of a few options: each option
    is a step of its own, entered in one tap."""
    return bool(form.fixed) and form.grid is None and len(form.controls) == 1 and \
        form.controls[0].kind == "choice" and form.controls[0].picker == "buttons"


def _distinct_defaults(template: Template, controls: list[Control]) -> list[Control]:
    """The controls, those of fields that must differ starting on different options (the
    first on its first option, the second on its second, …), so the form starts legal."""
    for constraint in template.constraints:
        if isinstance(constraint, Different):
            names = [f"f.{name}" for name in constraint.names]
            ranks = {name: n for n, name in enumerate(names)}
            controls = [replace(c, default=str(ranks[c.name])) if c.name in ranks and ranks[c.name] < len(c.options)
                        else c for c in controls]
    return controls


def _budget(template: Template) -> tuple[tuple[tuple[str, float], ...], float] | None:
    """The template's budget as the page's running total reads it: each control's weight, the limit."""
    budget = next((c for c in template.constraints if isinstance(c, Budget)), None)
    if budget is None:
        return None
    return tuple((f"f.{name}", float(w)) for name, w in budget.weights), float(budget.limit)


def _control(f: Field, assets: Sequence[str]) -> Control:
    label = _label(f.name)
    if f.kind == "number":
        options = tuple(Option(str(n), str(n)) for n in range(f.low, f.high + 1))
        return Control(f"f.{f.name}", label, "number", options, _picker(options), str(f.low))
    labels = f.labels or tuple(_text(o) for o in f.options)
    options = tuple(Option(str(i), text, text if text in assets else "") for i, text in enumerate(labels))
    if f.kind == "choice":
        return Control(f"f.{f.name}", label, "choice", options, _picker(options), "0")
    return Control(f"g.{f.name}", label, "several", options, "select", "", slots=f.high, required=f.low)


def _picker(options: Sequence[Option]) -> str:
    return "buttons" if len(options) <= BUTTONS else "select"


def _grid(controls: list[Control], fields: Sequence[Field]) -> Grid | None:
    """`sell.IBE`, `buy.IBE`, … as rows IBE… and columns sell, buy, when every group has the
    same keys."""
    groups: dict[str, dict[str, Control]] = {}
    for f, control in zip(fields, controls, strict=True):
        if "." in f.name and f.kind == "number":
            group, key = f.name.split(".", 1)
            groups.setdefault(group, {})[key] = control
    if len(groups) < 2 or len({tuple(g) for g in groups.values()}) != 1:
        return None
    keys = tuple(next(iter(groups.values())))
    return Grid(tuple(word(g) for g in groups), tuple((key, _in_a_row([groups[g][key] for g in groups])) for key in keys))


ROW_BUTTONS = 7  # buttons a grid's row holds on one line of a phone (390 px); a row of more picks its long ranges


def _in_a_row(row: list[Control]) -> tuple[Control, ...]:
    """A grid row's controls, those of more than two options picked from a list when the row's
    buttons would not fit one line of a phone."""
    if sum(len(c.options) for c in row) <= ROW_BUTTONS:
        return tuple(row)
    return tuple(replace(c, picker="select") if len(c.options) > 2 else c for c in row)


def _notes(constraints: Sequence[Any]) -> tuple[str, ...]:
    """The constraints in words; "sell or buy, not both" said once for the grid's every row."""
    rows = [c for c in constraints if isinstance(c, AtMostOne) and _grid_row(c)]
    sides = {tuple(side for side, _ in _grid_row(c)) for c in rows}
    said_once = len(rows) > 1 and len(sides) == 1  # every row of the grid the same choice
    notes = [_note(c) for c in constraints if not (said_once and c in rows)]
    if said_once:
        notes.insert(0, _("{sides} in each row, not both").format(sides=_or([word(s) for s in next(iter(sides))])))
    return tuple(note for note in notes if note)


def _grid_row(constraint: AtMostOne) -> list[list[str]]:
    """`sell.IBE`, `buy.IBE` → [[sell, IBE], [buy, IBE]] when they are one row of a grid."""
    groups = [name.split(".", 1) for name in constraint.names]
    return groups if all(len(g) == 2 for g in groups) and len({key for _, key in groups}) == 1 else []


def _note(constraint: Any) -> str:
    """A constraint in words, its fields named as the form labels them."""
    if isinstance(constraint, Budget):
        if any(w < 0 for _weight, w in constraint.weights):
            return _("costs at most {limit} (what is sold pays toward it)").format(limit=_text(constraint.limit))
        return _("costs at most {limit}").format(limit=_text(constraint.limit))
    if isinstance(constraint, AtMostOne):
        row = _grid_row(constraint)
        if row:
            return _("{key}: {sides}, not both").format(key=row[0][1], sides=_or([word(side) for side, _key in row]))
        return _("at most one of {fields}").format(fields=", ".join(_label(name) for name in constraint.names))
    if isinstance(constraint, Different):
        return _("{fields} differ").format(fields=_("{first} and {second}").format(
            first=", ".join(_label(name) for name in constraint.names[:-1]), second=_label(constraint.names[-1])))
    return ""


def _or(words: Sequence[str]) -> str:
    """"sell or buy": the last two joined by the language's "or"."""
    if len(words) < 2:
        return "".join(words)
    return _("{first} or {second}").format(first=", ".join(words[:-1]), second=words[-1])


def _label(name: str) -> str:
    return name.split(".", 1)[1] if "." in name else word(name).replace("_", " ")


def _text(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return " ".join(_text(v) for v in value) or _("none")
    return str(value)


# --- reading what a form posts ----------------------------------------------------------------


def submission(posted: Mapping[str, str]) -> Submission:
    """The submission a form posted; BadEntry for anything a form of the page cannot send."""
    n = _number(posted.get("a"), "action")
    player = posted.get("p", "")
    picks: dict[str, int | tuple[int, ...]] = {}
    slots: dict[str, dict[int, int]] = {}
    choices: dict[str, int] = {}
    for key, value in posted.items():
        if key.startswith("f."):
            picks[key[2:]] = _number(value, key[2:])
        elif key.startswith("g.") and value != "":
            name, _, slot = key[2:].rpartition(".")
            slots.setdefault(name, {})[_number(slot, name)] = _number(value, name)
        elif key.startswith("c."):
            choices[key[2:]] = _number(value, key[2:])
    for name, chosen in slots.items():
        picks[name] = tuple(chosen[slot] for slot in sorted(chosen))
    return Submission(player or None, n, picks, choices)


def asked(posted: Mapping[str, str], step: bool = False) -> Asked:
    """The change a page's form asks for: `v` the version, `k` the key, the step (`step`),
    `close` and `confirm`."""
    return Asked(posted.get("v", ""), key_of(posted.get("k")), submission(posted) if step else None,
                 posted.get("close") == "1", posted.get("confirm") == "1")


LARGEST = 10**9  # no form offers a number beyond this; a larger one is not a form's


def _number(value: Any, what: str) -> int:
    text = str(value).strip()
    if len(text) > 12 or not text.lstrip("+-").isdigit() or not text.isascii():
        raise BadEntry(f"{what}: expected a whole number, got {text[:20]!r}")
    number = int(text)
    if abs(number) > LARGEST:
        raise BadEntry(f"{what}: {text[:20]} is beyond any number a form offers")
    return number


# --- the position form: the record's `start`, written out and edited ---------------------------


@dataclass(frozen=True)
class Entry:
    """One value of the position: its place in `start` ("players / Ana / cash") and how it is
    entered (a number, a name from a list, or a list written as YAML)."""

    name: str  # "p.<n>": its number among the leaves, so nothing posted becomes a key
    path: tuple[str, ...]
    kind: str  # "number", "choice", "text" or "yaml"
    value: str
    options: tuple[str, ...] = ()


def position_form(start: Mapping[str, Any], players: Sequence[str], assets: Sequence[str]) -> list[Entry]:
    """The leaves of `start` in order; a player's or an asset's name is picked from its list."""
    entries: list[Entry] = []
    for n, (path, value) in enumerate(_leaves(start)):
        name = f"p.{n}"
        if isinstance(value, (bool, list, tuple)) or value is None:
            entries.append(Entry(name, path, "yaml", dump_inline(value)))
        elif isinstance(value, (int, float)):
            entries.append(Entry(name, path, "number", _text_number(value)))
        elif value in players or value in assets:
            entries.append(Entry(name, path, "choice", value, tuple(players if value in players else assets)))
        else:
            entries.append(Entry(name, path, "text", str(value)))
    return entries


def position_data(posted: Mapping[str, str], start: Mapping[str, Any]) -> dict[str, Any]:
    """`start` with the posted values in place of its leaves (BadEntry for a malformed one);
    lists are read by the spec layer's YAML reader, with its limits."""
    from pnp.spec.source import SourceError, load_text

    data: dict[str, Any] = _copy(start)
    for n, (path, value) in enumerate(_leaves(start)):
        text = posted.get(f"p.{n}")
        if text is None:
            continue
        if isinstance(value, (bool, list, tuple)) or value is None:
            try:
                new: Any = _lists(load_text(text, "the position").data) if text.strip() else None
            except SourceError:
                raise BadEntry(f"{' / '.join(path)}: not readable as a list, e.g. [dividend 1]") from None
        elif isinstance(value, (int, float)):
            try:
                new = float(text) if "." in text else int(text)
            except ValueError:
                raise BadEntry(f"{' / '.join(path)}: expected a number, got {text[:20]!r}") from None
        else:
            new = text.strip()
        _set(data, path, new)
    return data


def _lists(data: Any) -> Any:
    """YAML data as a record holds it: lists, not the reader's tuples."""
    if isinstance(data, (list, tuple)):
        return [_lists(item) for item in data]
    if isinstance(data, Mapping):
        return {key: _lists(value) for key, value in data.items()}
    return data


def _leaves(data: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    if isinstance(data, Mapping) and (data or not path):
        return [leaf for key, value in data.items() for leaf in _leaves(value, path + (str(key),))]
    return [(path, data)]


def _copy(data: Any) -> Any:
    return {k: _copy(v) for k, v in data.items()} if isinstance(data, Mapping) else data


def _set(data: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _text_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def dump_inline(value: Any) -> str:
    from pnp.referee.record import scalar

    return scalar(value)
