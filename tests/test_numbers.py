"""Every printed number follows the spec.

Each numeric value of the bundled spec (numbers, and the signed numbers a card prints as its
`value` or `other`) is changed one at a time, as a designer would edit components.yaml; the
components whose inputs changed are drawn again, and on every card, token or bill face that
changed, the old number must be gone: a face cannot keep printing "−60" in its small print
once its value says "−61". The words are read from the display list the PDF is rendered from
(each text item is one string drawn in the PDF, `test_the_pdfs_print_the_display_list_words`
checks it on real files), which keeps the 150-odd edits fast.

What a single edit cannot show — a number typed into some other text (certificates saying
"pay 2" beside `certificate_price: 2`) — is caught by reading the texts themselves: a number
written in a card, aid, mat or board text must be a rule of the game, not a value the spec
holds, and those rule numbers are listed below with their reasons. The issue's stale texts
are then checked end to end in real PDFs.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from string import Formatter
from typing import Any, Iterator

import pytest

from pdf_text import pdf_words
from pnp.build import build
from pnp.components import Context, generate
from pnp.display import BookPages, Group, Panels, Pieces, Text
from pnp.errors import PnpError
from pnp.rules import loads_spec
from pnp.spec.faces import TEXT_FIELDS, game_texts, printed_inputs
from pnp.spec.model import Deck, Tokens
from pnp.spec.source import load_text
from spec_text import BUNDLED, edit, kit_of

SOURCE = load_text(BUNDLED, "components.yaml")
SIGNED = re.compile(r"[+\-−×÷]?(\d+)")
# values that cannot change alone: the edit also needs another field changed, which validation demands
TIED = {("games", "forex", "tracks", "rate", "values", 9): "the “8” space's label is keyed by that value"}


def leaves(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every numeric value in the spec data, with its path."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, path + (key,))
    elif isinstance(data, (list, tuple)):
        for index, value in enumerate(data):
            yield from leaves(value, path + (index,))
    elif isinstance(data, (int, float)) and not isinstance(data, bool):
        yield path, data
    elif isinstance(data, str) and path and path[-1] in ("value", "other") and SIGNED.fullmatch(data):
        yield path, data


def edited(path: tuple, new: Any) -> str:
    """The bundled spec text with the value at `path` replaced, everything else as written."""
    line, column = SOURCE.position(path)
    lines = BUNDLED.splitlines(keepends=True)
    row, start = lines[line - 1], column - 1
    if row[start] in "\"'":
        end, token = row.index(row[start], start + 1) + 1, f'"{new}"'
    else:
        end, token = start + re.match(r"[^,\]}\s#]+", row[start:]).end(), str(new)
    lines[line - 1] = row[:start] + token + row[end:]
    return "".join(lines)


def bumped(value: Any) -> list[Any]:
    """New values to try, in order: the first the spec accepts is used."""
    if isinstance(value, str):
        sign, digits = SIGNED.fullmatch(value)[0][:-len(SIGNED.fullmatch(value)[1])], SIGNED.fullmatch(value)[1]
        return [f"{sign}{int(digits) + 1}", f"{sign}{int(digits) - 1}"]
    if isinstance(value, float) and value != int(value):
        return [value + 0.25, value - 0.25]
    return [value + 1, value - 1, value * 2, value // 2]


def siblings(path: tuple) -> set[str]:
    """The other numbers of the card, token or bill entry holding `path`, as printed."""
    cut = max((i for i, step in enumerate(path) if step in ("cards", "tokens", "bills")), default=None)
    if cut is None:
        return set()
    entry = path[:cut + 2]
    return {as_printed(v) for p, v in leaves(SOURCE.get(entry), entry) if p != path}


def as_printed(value: Any) -> str:
    """The number as a face prints it: "−30" as written, 2 for 2.0."""
    return value if isinstance(value, str) else f"{value:g}"


def text_items(items: Any) -> list[str]:
    """The strings of every text item, in drawing order."""
    found: list[str] = []
    for item in items:
        if isinstance(item, Group):
            found += text_items(item.items)
        elif isinstance(item, Text):
            found.append(item.text)
    return found


def text_words(items: Any) -> list[str]:
    return " ".join(text_items(items)).split()


def faces(output: Pieces | Panels | BookPages) -> dict[Any, list[str]]:
    """The printed words of each face of each piece, or of each panel or page."""
    if isinstance(output, Pieces):
        return {(n, side): text_words(drawing.items) for n, piece in enumerate(output.pieces)
                for side, drawing in (("front", piece.front), ("back", piece.back)) if drawing is not None}
    drawings = output.drawings if isinstance(output, Panels) else output.pages
    return {n: text_words(drawing.items) for n, drawing in enumerate(drawings)}


def printed(spec: Any, which: set[tuple[str, str]] | None = None) -> dict[tuple[str, str], dict[Any, list[str]]]:
    found = {}
    for game_id, game in spec.games.items():
        context = Context(game_id, game, spec.print, spec.folder)
        for component in game.components:
            if which is None or (game_id, component.id) in which:
                found[(game_id, component.id)] = faces(generate(context, component))
    return found


def inputs(spec: Any) -> dict[tuple[str, str], str]:
    return {(g, c.id): json.dumps(printed_inputs(game, c), sort_keys=True)
            for g, game in spec.games.items() for c in game.components}


@pytest.fixture(scope="module")
def bundled():
    spec = loads_spec(BUNDLED)
    return spec, inputs(spec), printed(spec)


@pytest.mark.parametrize("every", [12, pytest.param(1, marks=pytest.mark.slow)], ids=["every-12th", "all"])
def test_every_numeric_value_reaches_the_faces_that_print_it_or_is_not_printed(bundled, every):
    """Cards, tokens and bills, face by face; what aids, mats and boards print is read from their
    texts below (a whole page holds too many small numbers to tell one from another). The fast
    lane edits every twelfth value of the spec's games, the slow lane all of them."""
    spec, base_inputs, base = bundled
    reached, untouched, stale, refused = [], [], [], []
    pieces = {c.id for game in spec.games.values() for c in game.components if c.kind in ("deck", "tokens", "money")}
    editable = [(path, value) for path, value in leaves(SOURCE.data) if path[0] == "games" and path not in TIED]
    for path, value in editable[::every]:
        for new in bumped(value):
            try:
                changed = loads_spec(edited(path, new))
            except PnpError:
                continue
            now_inputs = inputs(changed)  # the pieces whose inputs changed are drawn again
            affected = {key for key, text in now_inputs.items() if text != base_inputs.get(key) and key[1] in pieces}
            now = printed(changed, affected)
            old_number = re.compile(rf"(?<![\d.,]){re.escape(as_printed(value))}(?![\d]|[.,]\d)")
            shared = as_printed(value) in siblings(path)  # another field of the card prints the same number
            moved = False
            for key, drawn in now.items():
                before = Counter(tuple(words) for words in base[key].values())
                after = Counter(tuple(words) for words in drawn.values())
                moved = moved or before != after
                if not shared:  # a face new since the edit must not print the old number
                    stale += [(path, value, new, key, " ".join(face)) for face in after if face not in before
                              and any(old_number.search(word) for word in face)]
            (reached if moved else untouched).append(path)
            break
        else:
            refused.append(path)
    assert stale == []  # a card, token or bill changed by the edit still prints the old number
    assert refused == []  # every value can be edited alone, as a designer would
    assert len(reached) > 40 // every and len(untouched) > 20 // every  # the harness does see both kinds
    assert {path[1] for path in reached} == set(spec.games)  # in every game


def test_print_settings_are_not_printed(bundled):
    """Templates cannot name the print settings; changing them all moves text, never its words."""
    spec, _, base = bundled
    text = BUNDLED
    for old, new in (("card_mm: [63, 88]", "card_mm: [64, 89]"), ("bleed_mm: 3\n", "bleed_mm: 2.5\n"),
                     ("safe_mm: 3.5", "safe_mm: 3"), ("back_offset_mm: [0, 0]", "back_offset_mm: [0.5, -0.5]")):
        text = edit(old, new, text)
    now = printed(loads_spec(text))
    for key, drawn in now.items():
        assert {f: Counter(w) for f, w in drawn.items()} == {f: Counter(w) for f, w in base[key].items()}, key


# --- numbers typed into texts -----------------------------------------------------------------

# Numbers a text may print that are rules of the game, not values of the spec: (game, words),
# in each of the bundled kits' languages (English, Spanish, Russian).
RULE_NUMBERS = {
    "bolsa": [
        (r"(?:(?:zonas?|zones?|зон[аыуе]?) )?[1-4]→[1-4]|(?:zonas?|zones?|зон[аыуе]?) [1-4](?: (?:y|and|и) [1-4])?",
         "zone numbers: the mat's four zones, named by their labels"),
        (r"^\*\*[1-6](?: [\w ]+)?\*\*", "the phases and the six cases, numbered as the rules number them"),
        (r"[SB] [=>] 0|\+1|round \+1", "the cases' conditions, and steps of one (BOLSA-3.5, BOLSA-5.3)"),
    ],
    "aktsioner": [
        (r"105 → \*\*110\*\*|или 100|o 100|or 100|10 ÷ 2|штраф 5|multa de 5|a penalty of 5|105 → 110|halving 10|"
         r"costs the others 5", "a worked example of rounding a halved price (AKT-5.1)"),
    ],
    "forex": [
        (r"1 buck|1 billete|1 единица|1 (?:or|o|или) 2|1:1|\*\*(?:1 to|de 1 a|от 1 до) ",
         "the rules' own quantities: one buck a spot deal, one or two certificates, even rates, contracts from one buck"),
    ],
}


def template_texts(component: Any) -> Iterator[tuple[tuple, str]]:
    """The texts of a card, token, aid, mat or board that a designer writes (not its values)."""
    yield from game_texts(component)
    if isinstance(component, Deck):
        for index, entry in enumerate(component.cards):
            for name in TEXT_FIELDS:
                if name not in ("value", "other", "corner") and getattr(entry, name):
                    yield ("cards", index, name), getattr(entry, name)
    if isinstance(component, Tokens):
        for index, entry in enumerate(component.tokens):
            for side in ("front", "back"):
                face = getattr(entry, side)
                for name in ("title", "subtitle", "text") if face else ():
                    if getattr(face, name):
                        yield ("tokens", index, side, name), getattr(face, name)


def test_texts_type_no_number_the_spec_holds(bundled):
    """In the spec's own (English) texts and in every kit's translations of them."""
    spec, _, _ = bundled
    typed = []
    for game_id, game in spec.games.items():
        for code in game.kit_languages:
            for component in kit_of(game_id, code=code).game.components:
                if component.kind == "booklet":
                    continue  # the rules themselves, numbered by rule IDs
                for path, text in template_texts(component):
                    literal = "".join(part for part, *_ in Formatter().parse(text))  # placeholders left out
                    for pattern, _reason in RULE_NUMBERS.get(game_id, ()):
                        literal = re.sub(pattern, "", literal)
                    if re.search(r"\d", literal):
                        typed.append((game_id, code, component.id, path, text))
    assert typed == []


def test_a_typed_number_is_caught():
    """The check above would have caught the texts issue 14 found."""
    spec = loads_spec(edit('text: "Invest: pay {rules[certificate_price]} {id}', 'text: "Invest: pay 2 {id}'))
    certificates = spec.games["forex"].component("certificates")
    literal = "".join(part for _, text in template_texts(certificates) for part, *_ in Formatter().parse(text))
    assert "pay 2" in literal


# --- the issue's stale texts, in real PDFs ----------------------------------------------------

STALE = {  # issue 14: an edit, and the component that used to keep printing the old number
    "a dividend pays 4": ('{value: "3", title: Dividend, text: "Pays {pays} per certificate", data: {pays: 2}}',
                          '{value: "3", title: Dividend, text: "Pays {pays} per certificate", data: {pays: 4}}',
                          "player_aid", "certificate 0 2 4 2 3", "certificate 0 2 2 2 3"),  # the aid's table of the cards
    "certificates cost 3": ("certificate_price: 2", "certificate_price: 3", "certificates", "pay 3 GBP", "pay 2 GBP"),
}


@pytest.fixture(scope="module")
def stale_builds(tmp_path_factory):
    folder = tmp_path_factory.mktemp("stale")
    texts = {name: edit(old, new) for name, (old, new, *_) in STALE.items()}
    cny = re.compile(r"\n      - \{id: CNY[^\n]*|\n        \w+/CNY: [^\n]*|\n        CNY/\w+: [^\n]*")
    texts["a currency removed"] = cny.sub("", BUNDLED)
    built = {}
    for name, text in texts.items():
        out = folder / name.replace(" ", "-")
        spec = loads_spec(text)
        build(spec, out, ["forex"], only={"forex": ["player_aid", "certificates", "currency_board"]})
        built[name] = (spec, out)
    return built


@pytest.mark.parametrize("name", sorted(STALE))
def test_the_issues_stale_texts_now_follow_the_spec(stale_builds, name):
    *_, component, now, before = STALE[name]
    _, out = stale_builds[name]
    words = pdf_words(out / "forex" / f"{component}.pdf")
    assert now in words and before not in words


def test_the_board_counts_the_pair_counters_after_a_currency_is_removed(stale_builds):
    spec, out = stale_builds["a currency removed"]
    assert len(spec.games["forex"].assets) == 6
    words = pdf_words(out / "forex" / "currency_board.pdf")
    assert "starting position of the 15 pair counters" in words and "21" not in words.split()


def test_the_pdfs_print_the_display_list_words(stale_builds):
    """What the edits above read from the display list is what the PDFs say: each text item of
    these components is in the PDF's extracted text, in drawing order (spaces aside)."""
    for name, (spec, out) in stale_builds.items():
        for component in ("player_aid", "certificates", "currency_board"):
            game = spec.games["forex"]
            output = generate(Context("forex", game, spec.print, spec.folder), game.component(component))
            pdf = "".join(pdf_words(out / "forex" / f"{component}.pdf").split())
            drawings = [face for piece in output.pieces for face in (piece.front, piece.back) if face] \
                if isinstance(output, Pieces) else output.drawings
            for drawing in drawings:
                at = 0
                for item in ("".join(text.split()) for text in text_items(drawing.items)):
                    at = pdf.find(item, at)
                    assert at >= 0, (name, component, item)
                    at += len(item)
