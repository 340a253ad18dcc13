"""The table's pages as drawn for one request: the templates (Jinja2, compiled once a process),
the page's parts for one actor, those alike for every actor drawn once (`Drawn`), the
`/api/state` answer with its parts, and each refusal as the notice a page shows.

Everything is drawn from the actor's view (`seats.view`) alone, in the request's language
(`i18n.current`, chosen by `middleware.Speaking`)."""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
from collections.abc import Callable, Iterable
from importlib import resources
from typing import Any

from jinja2 import Environment, FileSystemLoader, Template, select_autoescape
from markupsafe import Markup

from pnp import i18n
from pnp.i18n import _
from pnp.rules import text
from pnp.table import api, seats, words
from pnp.table.access import Access, form_token
from pnp.table.game import TableGame
from pnp.table.links import Links
from pnp.table.page import FILTERS, Notice, context, drawn_board
from pnp.table.steps import BOARD, Actor, BadEntry, Forbidden, NeedsChoice, Refused, Repeated, Stale

SECTIONS = ("status", "notice", "next", "position", "last", "history", "tools")  # the parts a live page replaces
SHARED = ("position", "last", "history")  # parts the same for every seat that sees the same: drawn once
REFUSALS = (Stale, Refused, Forbidden, BadEntry, Repeated)


@functools.cache
def templates() -> Environment:
    """The pages' templates, compiled once a process (a tenth of a second: every app, a test's
    table or a restarted server's, asks for the same)."""
    folder = resources.files("pnp.table")
    env = Environment(loader=FileSystemLoader(str(folder / "templates")), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters.update(FILTERS)
    env.globals.update(_=_say, ngettext=_say_plural)
    return env


@functools.cache
def template(name: str) -> Template:
    return templates().get_template(name)


class Views:
    """The pages and answers of one table."""

    def __init__(self, table: TableGame, access: Access, languages: words.Languages,
                 links: Callable[[], Links | None], thinking: Callable[[], tuple[str, ...]] = tuple):
        self.table, self.access, self.languages, self.links, self.thinking = table, access, languages, links, thinking
        self.drawn = Drawn()
        self._secret = (access.tokens.host if access.tokens else "").encode() or hashlib.sha256(
            str(table.path.resolve()).encode() + b"pnp-table").digest()

    # --- what one request sees -------------------------------------------------------------------

    def values(self, seen: seats.SeatView, request: Any, notice: Notice | None = None,
               choice: dict[str, Any] | None = None) -> dict[str, Any]:
        """The page's values in the request's language, for the actor of `seen`."""
        code = i18n.current().code
        actor, state = seen.actor, getattr(request, "scope", {}).get("state", {})
        host = request.headers.get("host", "") if request is not None else ""
        token = state.get("token", "")
        held = [self.access.actor_at(page) for page in state.get("held", ()) if page != state.get("page")]
        return {**context(self.table, seen, self.links(), notice, choice, self.languages.game(code)),
                "lang": code, "languages": self.languages.names(), "form_token": form_token(token, host),
                "key": functools.partial(self.key, actor), "thinking": list(self.thinking()),
                "also_here": [a.seat or a.name for a in held if a is not None and not a.board],
                "page": state.get("page", "")}

    def key(self, actor: Actor, form: str) -> str:
        """A form's key: one per actor, change and form, so a form posted twice (a retry, a
        replay, a double tap) is entered once, while the same step drawn again after an undo
        (a later change) is a new form."""
        said = f"{actor.name}\0{self.table.change}\0{form}".encode()
        return hmac.new(self._secret, said, hashlib.sha256).hexdigest()[:24]

    def page(self, request: Any, status: int = 200, notice: Notice | None = None,
             choice: dict[str, Any] | None = None) -> str:
        values = self.values(seats.view(self.table, viewer(request)), request, notice, choice)
        name = "board.html" if values["board_view"] else "page.html"
        return template(name).render(**values, **{f"drawn_{part}": Markup(drawn) for part, drawn
                                                  in self.fragments(values, SHARED).items()})

    def fragments(self, values: dict[str, Any], only: Iterable[str] = SECTIONS) -> dict[str, str]:
        """The page's parts for one actor; those every actor seeing the same draws alike, drawn once."""
        found = {}
        for name in only:
            if name in SHARED:
                key, anchor = shared_key(name, values)
                found[name] = self.drawn.get(key, anchor, functools.partial(self._draw_shared, name, values))
            else:
                own = "next_board" if name == "next" and values["board_view"] else name
                found[name] = template(f"{own}.html").render(**values)
        return found

    def _draw_shared(self, name: str, values: dict[str, Any]) -> str:
        extra = ({"board": drawn_board(self.table, values, self.languages.game(values["lang"]))}
                 if name == "position" else {})
        return template(f"{name}.html").render(**values, **extra)

    def state(self, request: Any, notice: Notice | None = None, choice: dict[str, Any] | None = None,
              parts: bool | None = None) -> dict[str, Any]:
        """The actor's `/api/state` answer, with the page's parts drawn from it when asked."""
        seen = seats.view(self.table, viewer(request))
        answer = api.state_answer(self.table, seen)
        if parts if parts is not None else bool(request.query_params.get("fragments")):
            answer["fragments"] = self.fragments(self.values(seen, request, notice, choice))
        return answer

    def notice_parts(self, request: Any, notice: Notice, choice: dict[str, Any] | None = None) -> dict[str, Any]:
        """The notice alone, drawn for the page, when the request asks for parts."""
        if not request.query_params.get("fragments"):
            return {}
        values = self.values(seats.view(self.table, actor_of(request)), request, notice, choice)
        return {"fragments": self.fragments(values, ("notice",))}

    # --- refusals in words ------------------------------------------------------------------------

    def refusal(self, error: Exception) -> tuple[int, Notice]:
        """A refusal's status and notice, in the request's language."""
        if isinstance(error, Stale):
            return 409, Notice("stale", _(words.STALE_TITLE), _(words.STALE))
        if isinstance(error, Repeated):
            return 409, Notice("repeated", _(words.REPEATED_TITLE), words.repeated(error.change))
        if isinstance(error, Forbidden):
            return 403, Notice("forbidden", _(words.FORBIDDEN_TITLE), error.message)
        if isinstance(error, Refused):
            return 422, Notice("refused", words.refused_title(error.rule), error.message, error.rule,
                               self.rule_text(error.rule), self.house(error.rule))
        return 400, Notice("error", _(words.NOT_UNDERSTOOD), str(error))

    def choice(self, needed: NeedsChoice, posted: dict[str, str]) -> tuple[Notice, dict[str, Any]]:
        choice = {"posted": [(k, v) for k, v in posted.items() if not k.startswith("c.")],
                  "what": needed.needed.what, "options": [str(o) for o in needed.needed.options]}
        notice = Notice("choice", _(words.CHOICE_TITLE), needed.needed.message, needed.needed.rule,
                        self.rule_text(needed.needed.rule))
        return notice, choice

    def confirm(self, what: str, posted: dict[str, str]) -> tuple[Notice, dict[str, Any]]:
        """The question a page asks before a step that cannot be taken back lightly (closing a
        sealed phase early, correcting the record): the same form again, with `confirm`."""
        if what == "close":
            notice = Notice("confirm", _(words.CONFIRM_CLOSE_TITLE), words.confirm_close(still_to_enter(self.table)))
            where = {"action": "enter", "api": "api/step"}
        else:
            notice = Notice("confirm", _(words.CONFIRM_CORRECT_TITLE), _(words.CONFIRM_CORRECT))
            where = {"action": "correct", "api": "api/correct"}
        return notice, {"posted": [(k, v) for k, v in posted.items() if k != "confirm"], "confirm": where}

    def rule_text(self, rule_id: str) -> str:
        """The rule's words for players, in the request's language where its booklet words them."""
        if not rule_id:
            return ""
        try:
            found = text.rule(rule_id, self.table.game_id)
        except KeyError:
            return ""
        return self.languages.rule_words(i18n.current().code, found)[0]

    def house(self, rule_id: str) -> tuple[str, ...]:
        """The house rules a rule governs, each by its name and value in the players' words."""
        try:
            found = text.rule(rule_id, self.table.game_id)
        except KeyError:
            return ()
        return self.languages.house_lines(i18n.current().code, found, self.table.options)


def actor_of(request: Any) -> Actor:
    found: Actor = request.scope.get("state", {}).get("actor")
    return found


def viewer(request: Any) -> Actor:
    """Whose view a page or a state answer shows: the actor's, or the board's (`?view=board`,
    which anyone at the table may put on a screen: it shows what everyone may see)."""
    return BOARD if request.query_params.get("view") == "board" else actor_of(request)


def still_to_enter(table: TableGame) -> tuple[str, ...]:
    """The players a sealed phase still waits for (whom closing it takes to have entered nothing)."""
    who = table.to_move()
    return tuple(who.players) if who is not None and who.sealed else ()


def shared_key(name: str, values: dict[str, Any]) -> tuple[str, Any]:
    """What a shared part is drawn from, and an object it is anchored to: for the board, the
    position with who acts and the phase; for the last steps, the record's entries (immutable:
    the same last entry, the same steps); each in the page's language."""
    if name == "position":
        seen = [values["position"], values["acting"], values["sealed"], bool(values["own"]), values["lang"],
                values["board_view"]]
        return name + hashlib.sha256(json.dumps(seen, default=str).encode()).hexdigest(), None
    public = values["public"]
    return (f"{name}:{values['lang']}:{len(public)}:{id(public[-1]) if public else 0}:{len(values['setup_events'])}:"
            f"{values['board_view']}", public[-1] if public else None)


class Drawn:
    """Shared parts as drawn, by what they were drawn from (the latest few). An entry anchored
    to an object is used for that object only (kept, so its id is not another's meanwhile)."""

    KEPT = 32

    def __init__(self) -> None:
        self._kept: dict[str, tuple[Any, str]] = {}

    def get(self, key: str, anchor: Any, draw: Callable[[], str]) -> str:
        found = self._kept.pop(key, None)
        if found is None or found[0] is not anchor:
            found = (anchor, draw())
        self._kept[key] = found  # the latest last
        while len(self._kept) > self.KEPT:
            del self._kept[next(iter(self._kept))]
        return found[1]


def _say(msgid: str, /, **values: Any) -> str:
    """A template's `_("…", name=value)`: the text in the request's language, its placeholders
    filled (the values are escaped with the rest, as the template's output)."""
    said = i18n._(msgid)
    return said.format(**values) if values else said


def _say_plural(singular: str, plural: str, n: int, /, **values: Any) -> str:
    """A template's `ngettext("{n} choice", "{n} choices", n)`: the form for `n`, filled."""
    return i18n.ngettext(singular, plural, n).format(n=n, **values)
