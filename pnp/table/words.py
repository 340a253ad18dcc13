"""The table's sentences that Python code says (the pages' own are in the templates), in one
place for the translations to come; and the rules' words as players read them.

The engines' sentences (a refusal's reason, an event) are the engines' own and are not here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# --- access --------------------------------------------------------------------------------------

NO_TOKEN = ("This table needs your seat's link: scan its QR code, or open the link the laptop shows "
            "(the same for a wrong link: nothing else is said).")
WRONG_HOST = "This server answers only under its own address."
OTHER_SITE = "Posts come from the table's own page."
TOO_LARGE = "Request too large."

# --- who may do what -----------------------------------------------------------------------------

NOT_YOUR_STEP = "That step is another player's: each seat enters only its own."
TABLE_STEP = "The table's own steps are entered by the host."
HOST_ONLY = "Only the host may do that."
NOTHING_TO_UNDO = "Nothing to undo: no step has been entered."
UNDO_FOLLOWED = ("The table has acted on that step (a reveal, a company settled): only the host may undo it.")


def undo_not_yours(player: str | None) -> str:
    whose = f"{player}'s" if player else "the table's"
    return f"The last step is {whose}: a seat undoes only its own last step; the host may undo any."


def sealed_waiting(players: Sequence[str]) -> str:
    return (f"Still secret: waiting for {', '.join(players)} to enter theirs. The phase ends when every player "
            "has entered, or when the host closes it.")


# --- answers ---------------------------------------------------------------------------------------

STALE_TITLE = "The position changed"
STALE = "Another device entered a step first. Nothing of yours was entered: here is the new position."
REFUSED_TITLE = "Refused"
CHOICE_TITLE = "The rules leave a choice"
NOT_UNDERSTOOD = "Not understood"
FORBIDDEN_TITLE = "Not yours to do"


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
