"""The table's sentences that Python code says (the pages' own are in the templates), each
worded in the language of the request being answered (`pnp.i18n.speaking`, set by the web
app's guard), from the game's catalogs like every other text; and the rules' words as players
read them.

The engines' sentences (a refusal's reason, an event) are the engines' own and are not here;
they are worded in the same language, since they are made inside the same request.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from pnp.i18n import N_, SOURCE, Language, _
from pnp.rules.text import Rule
from pnp.spec.model import Booklet, Game, Spec

# --- the language a page speaks --------------------------------------------------------------------


class Languages:
    """The languages a table's pages speak: its game's (`kit_languages`, its own first), each
    with its catalog and the game translated (titles, names, zones), read once when the table
    opens; the rules' words in each, as that language's booklet prints them, when first asked.
    Each browser chooses its own (`choose`): the host's and every seat's, independently."""

    def __init__(self, game_id: str, game: Game, spec: Spec | None):
        from pnp.i18n.catalogs import autonym, language

        self.game_id, self.spec, self.default = game_id, spec, game.kit_languages[0]
        self.spoken: Mapping[str, Language] = {
            code: language(spec.folder, game_id, code) if spec is not None else Language(code)
            for code in game.kit_languages}
        self._game = game
        self._names = tuple((code, autonym(code)) for code in self.spoken)
        self.game = cache(self._translated)
        self._booklet = cache(self._worded)

    def choose(self, asked: str | None, accept_language: str) -> Language:
        """The language a request asked for (the page's switch, a cookie), else the best its
        browser accepts (Babel's negotiation over the header's languages by q-value), else the
        game's own."""
        if asked is not None and asked in self.spoken:
            return self.spoken[asked]
        from babel.core import negotiate_locale

        found = negotiate_locale(accepted(accept_language), list(self.spoken), sep="_")
        return self.spoken[found] if found is not None and found in self.spoken else self.spoken[self.default]

    def names(self) -> list[tuple[str, str]]:
        """Each language's code and its name in itself, as the switch lists them."""
        return list(self._names)

    def _translated(self, code: str) -> Game:
        from pnp.spec.translation import translated

        return translated(self._game, self.spoken[code])

    def rule_words(self, code: str, rule: Rule) -> tuple[str, bool]:
        """A rule's words for players in `code`: as that language's booklet prints them, else
        the rules file's English (`for_players`); and whether they are the booklet's."""
        spoken = self._booklet(code).get(rule.id)
        return (spoken, True) if spoken else (for_players(rule.plain), False)

    def house_lines(self, code: str, rule: Rule, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The house rules `rule` governs, each by its name and its value in the players' words
        as the game's booklet in `code` prints them ("Rounds: 3 rounds"); one without words, by
        its name and value as written."""
        from pnp.rules.lookup import governed, house_rules, in_words, printed_value

        game = self.game(code)
        booklet = next((c for c in game.components if isinstance(c, Booklet)), None)
        lines = []
        for house in governed(rule, house_rules(self.game_id, self._game, options)):
            said = booklet.rules_words.get(house.name) if booklet is not None else None
            value = (in_words(booklet, house.name, house.value) if booklet is not None else None) \
                or printed_value(house.value)
            lines.append(_("{name}: {value}").format(name=said.name if said else house.name.replace("_", " "),
                                                     value=value))
        return tuple(lines)

    def _worded(self, code: str) -> Mapping[str, str]:
        """Each rule ID's words as the game's booklet in `code` prints them (none for the source
        language: the rules file's own English is what the table quotes)."""
        from pnp.rules.lookup import worded

        if code == SOURCE or self.spec is None:
            return {}
        return worded(self.game_id, self.spec, code)


def accepted(header: str) -> list[str]:
    """An `Accept-Language` header's languages ("es-MX;q=0.9, ru;q=0.8") by q-value, best first,
    as Babel names them (es_MX); none it refuses (q=0). A header is the client's: bounded."""
    found = []
    for n, part in enumerate(header[:1000].split(",")[:32]):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if tag.strip() and weight > 0:
            found.append((-weight, n, tag.strip().replace("-", "_")))
    return [tag for _weight, _n, tag in sorted(found)]


# --- access --------------------------------------------------------------------------------------
# Each sentence marked for the catalogs here (`N_`) and worded where it is said (`_(words.NO_TOKEN)`),
# inside the request's language.


NO_TOKEN = N_("This table needs your seat's link: scan its QR code, or open the link the laptop shows "
              "(the same for a wrong link: nothing else is said).")
WRONG_HOST = N_("This server answers only under its own address.")
OTHER_SITE = N_("Posts come from the table's own page.")
TOO_LARGE = N_("Request too large.")
TOO_SLOW = N_("The request took too long to arrive.")
TOO_DEEP = N_("The body nests too deep.")


# --- who may do what -----------------------------------------------------------------------------


NOT_YOUR_STEP = N_("That step is another player's: each seat enters only its own.")
TABLE_STEP = N_("The table's own steps are entered by the host.")
HOST_ONLY = N_("Only the host may do that.")
NOTHING_TO_UNDO = N_("Nothing to undo: no step has been entered.")
UNDO_FOLLOWED = N_("The table has acted on that step (a reveal, a company settled): only the host may undo it.")
UNDO_REVEALED = N_("That step revealed the secret entries: undoing it would hide them again. The host may correct the "
                   "record instead, and the entries stay public.")
NOTHING_TO_CORRECT = N_("Nothing to correct: the last step revealed nothing (an undo takes it back).")
BOARD_ONLY_SHOWS = N_("The board shows the game; steps are entered on the players' phones.")


def undo_not_yours(player: str | None) -> str:
    if player is None:
        return _("The last step is the table's: a seat undoes only its own last step; the host may undo any.")
    return _("The last step is {player}'s: a seat undoes only its own last step; the host may undo any."
             ).format(player=player)


def sealed_waiting(players: Sequence[str]) -> str:
    return _("Still secret: waiting for {players} to enter theirs. The phase ends when every player has "
             "entered, or when the host closes it.").format(players=", ".join(players))


THE_TABLE = N_("the table")  # who takes the table's own steps, where a player's name would be


# --- answers ---------------------------------------------------------------------------------------


REPEATED_TITLE = N_("Already entered")


def repeated(change: int) -> str:
    return _("This form was entered already (change {change}); it is not entered again.").format(change=change)


CONFIRM_CLOSE_TITLE = N_("Close the phase now?")
CONFIRM_CORRECT_TITLE = N_("Correct the record?")
CONFIRM_CORRECT = N_("The step that revealed the secret entries is taken back, and the phase opens again for it; "
                     "the entries everyone has seen stay public, on every page and in the log.")


def confirm_close(players: Sequence[str]) -> str:
    return _("The secret phase ends now: {players} will be taken to have entered nothing, and every entry is "
             "revealed.").format(players=", ".join(players))


STALE_TITLE = N_("The position changed")
STALE = N_("Another device entered a step first. Nothing of yours was entered: here is the new position.")


def refused_title(rule: str) -> str:
    return _("Refused: {rule}").format(rule=rule) if rule else _("Refused")


CHOICE_TITLE = N_("The rules leave a choice")
NOT_UNDERSTOOD = N_("Not understood")
FORBIDDEN_TITLE = N_("Not yours to do")


# --- the rules as players read them ----------------------------------------------------------------

# The rules files mark where a sentence comes from ("[S]" the seed, "[BGA, PA]" other sources,
# "[S: “quoted words”]") and which choices are the designer's ("[D]", "[PnP]"): notes for whoever
# edits the rules, not for players.
_SOURCE = re.compile(r"\s*\[[A-Z][A-Za-z]{0,3}(?:[\s,;:“\"][^\]]*)?\]")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_DESIGN = ("Alternative", "Alternatives", "default ")


def for_players(text: str) -> str:
    """A rule's text without the rules file's editorial notes: the source marks, the designer's
    marks, and the sentences naming the alternatives not chosen."""
    paragraphs = []
    for paragraph in text.split("\n"):
        kept = [s for s in _SENTENCE.split(_SOURCE.sub("", paragraph).strip()) if s and not s.startswith(_DESIGN)]
        paragraphs.append(" ".join(kept).replace("`", ""))
    return "\n".join(p for p in paragraphs if p.strip())
