"""The rules booklet: a rulebook a group can learn the game from, every number read from the
spec and the rules engine, over half-sheet pages (A5 on A4).

It is sections, in the order a group needs them: what the game is and how to win; the
components pictured with their counts (`components: true`); the setup drawn (`setup:`); the
turn or round on one page (`page: one`: the section must fit a page of its own); worked
examples the rules engine plays (`examples:`, see `teaching.worked_example`); then the full
reference, every rule with its ID. Lines are templates: they see what aid lines see
(`{tracks[quote].last}`, `{vars[...]}`) and, for a game with a rules engine, every house rule
with the value in effect (`{rules[start_cash]}`), the engine's parameters (`{params.rounds}`)
and each house rule's value in words (`{house[tiebreak]}`, from the booklet's `rules_words`),
so running text never prints a configuration key; the house-rules table (`house_rules: true`)
names each rule and its value in words too. Tables come from the rules module (`table:`) or
from a deck's cards (`cards:`), at the body size — a table too wide for the page turns a
quarter onto a page of its own.

Rule IDs in a line (`BOLSA-2.2 Each player …`) print in bold, so the table and the referee cite
the same numbers. Every problem of the booklet — a template, a table, an example the rules no
longer allow, a house rule without words — is reported at once, each at its field.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping

from pnp.components import Context
from pnp.components.tables import INK, SOFT_INK, Block, cards_table, column, heading, moved, paragraph, table
from pnp.components.teaching import Unseated, gallery, setup_diagram, worked_example
from pnp.display import BookPages, Drawing, Group, Item, Line, Style
from pnp.errors import BuildError, BuildErrors
from pnp.i18n import N_, _, ngettext
from pnp.layout.booklet import page_size
from pnp.layout.text import fit_text, text_width
from pnp.rules.base import Table
from pnp.rules.lookup import booklet_values, in_words, printed_value
from pnp.spec.faces import TemplateError, fill
from pnp.spec.model import Booklet, BookletSection
from pnp.spec.source import PathKey

BODY_PT = 9.5  # running text, tables, examples: never below 9 pt
HEADING_PT = 13.0  # its English subtitle at 0.7 of it: 9.1 pt
FOOTER_MM = 6.0  # the page number's band at the foot of each page
RULE_ID = re.compile(r"(?<![*\w-])([A-Z]{2,}-X?\d+(?:\.\d+)*)(?![*\w])")
RULE_GAP_MM = 2.0  # between a worked example's rule IDs and what happens
TIGHT_MM = 0.6  # between the lines of a list (a worked example's events)
HOUSE_RULES = (N_("Rule"), N_("House rule"), N_("In effect"))  # the house-rules table's header
DEFAULT = N_("(the default)")
DEFAULT_WAS = N_("(default: {value})")
SET_BY = N_("(as printed on {where})")


def booklet(context: Context, booklet: Booklet) -> BookPages:
    """The booklet's pages in reading order (layout pads and imposes them), as many as the
    longest of the game's languages takes (the others end with blank pages), so every kit of
    the game folds the same sheets."""
    what = f"{context.game_id}/{booklet.id}"
    width, height = page_size(context.settings.paper, context.settings.margin_mm)
    flowed = ("booklet pages", booklet.id)  # once a language: the other kits count them
    pages = list(context.once(flowed, lambda: _pages(context, context.component(booklet), width, height, what)))
    counted = ("booklet page count", booklet.id)
    context.remember(counted, booklet, len(pages))

    def count(other: Context) -> int:  # another language's pages: flowed for that kit, else measured
        if other.game is context.game:  # this kit's language: flowed above
            return len(pages)
        known = other.remembered(flowed)
        if known is not None:
            return len(known)
        try:
            if context.every_kit:  # that kit is laid out too: flowed as it flows it, and drawn as it draws
                return len(other.once(flowed, lambda: _pages(other, other.component(booklet), width, height, what)))
            return other.measured(counted, booklet, lambda: len(
                _pages(replace(other, counting=context), other.component(booklet), width, height, what)))
        except BuildError:  # reported by that language's kit
            return 0

    most = max(context.everywhere(count)) if context.kit is not None and context.kit.siblings else len(pages)
    pages += [()] * (most - len(pages))
    title = context.game.title
    drawings = tuple(Drawing(width, height, (*items, *_footer(title, n, width, height, what)))
                     for n, items in enumerate(pages, 1))
    return BookPages(drawings * booklet.copies)


def _pages(context: Context, booklet: Booklet, width: float, height: float, what: str) -> list[tuple[Item, ...]]:
    """The booklet's text flowed over pages in the current language, each page's items."""
    errors: list[BuildError] = []
    values = template_values(context, booklet, errors)
    flow: list[Flowing] = [(_title(context, booklet, width, what), False, "flow")]
    for number, section in enumerate(booklet.sections):
        at = ("sections", number)
        try:
            blocks = _section(context, booklet, section, values, width, f"{what} section {number + 1}", at, errors)
            flow += _paged(section, blocks, height, f"{what} section {number + 1}", at)
        except BuildError as error:
            errors.append(error if error.at else BuildError(str(error), text=error.text, at=at))
    if errors:
        raise errors[0] if len(errors) == 1 else BuildErrors(errors)
    return _paginate(flow, height - FOOTER_MM, what)


def template_values(context: Context, booklet: Booklet | None = None, errors: list[BuildError] | None = None,
                    ) -> dict[str, Any]:
    """What booklet lines may name (`pnp.rules.lookup.booklet_values`: the game's template
    context, and for a game with a rules engine `rules`, `params` and `house`), a house rule the
    booklet has no words for going to `errors`."""
    if _engine(context.game_id) is None:
        return booklet_values(context.game_id, context.game, None)
    in_effect = None
    if booklet is not None:
        in_effect = _in_effect(context)
        for rule in in_effect:
            _words(booklet, rule.name, rule.value, errors)
    return booklet_values(context.game_id, context.game, context.params(), booklet, in_effect)


def _engine(game_id: str) -> Any:
    from pnp.rules import engine

    try:
        return engine(game_id)
    except KeyError:
        return None


def _in_effect(context: Context) -> tuple[Any, ...]:
    from pnp.rules.lookup import house_rules as in_effect

    return in_effect(context.game_id, context.game)


def _title(context: Context, booklet: Booklet, width: float, what: str) -> Block:
    game = context.game
    subtitle = game.title_en if game.title_en and game.title_en != game.title else ""
    players = (_("{min}–{max} players").format(min=game.players.min, max=game.players.max)
               if game.players.min != game.players.max else
               ngettext("{n} player", "{n} players", game.players.min).format(n=game.players.min))
    name = booklet.name if not booklet.name_en or booklet.name_en == booklet.name else f"{booklet.name} · {booklet.name_en}"
    blocks = [heading(game.title, subtitle, width, size=18, what=what),
              paragraph(f"**{name}** · {players}", width, size=BODY_PT, what=what, color=SOFT_INK)]
    return column(blocks, gap=1.5)


Flowing = tuple[Block, bool, str]  # a block, whether it stays with the next (a heading), and "flow", "new",
# "alone" (a page to itself) or "tight" (the next line of a list: a narrow gap before it)


def _section(context: Context, booklet: Booklet, section: BookletSection, values: dict[str, Any], width: float,
             what: str, at: PathKey, errors: list[BuildError]) -> list[Flowing]:
    """The section's blocks, a heading kept with what follows it, a table turned a quarter
    alone on its page."""
    blocks: list[Flowing] = []
    shaded = not context.settings.ink_saver
    if section.heading:
        blocks.append((heading(section.heading, section.heading_en, width, size=HEADING_PT, what=what), True, "flow"))
    blocks += _lines(section, values, width, what, at, errors)
    if section.components:
        blocks += [(row, False, "flow") for row in gallery(context, booklet, width, BODY_PT, what)]
    if section.setup:
        page_h = page_size(context.settings.paper, context.settings.margin_mm)[1] - FOOTER_MM
        blocks += [(b, False, "flow") for b in setup_diagram(context, section.setup, values, width, page_h, BODY_PT, what,
                                                             at + ("setup",))]
    if section.table:
        blocks.append(_table(context.table(section.table), width, shaded, what))
    if section.cards:
        blocks.append(_table(cards_table(context.game, section.cards, what, at + ("cards",)), width, shaded, what))
    blocks += _examples(context, section, width, what, at, errors)
    if section.house_rules:
        for rule, name, shown in house_rules(context, booklet, errors).rows:
            blocks.append((paragraph(f"**{rule}** **{name}:** {shown}", width, size=BODY_PT, what=what), False, "flow"))
    return blocks


def _lines(section: BookletSection, values: Mapping[str, object], width: float, what: str, at: PathKey,
           errors: list[BuildError]) -> list[Flowing]:
    """The section's lines filled in, rule IDs in bold (a line that does not fill: its error
    added to `errors`, at its place)."""
    blocks: list[Flowing] = []
    for number, line in enumerate(section.lines):
        try:
            text = fill(line, values, "lines")
        except TemplateError as error:
            errors.append(BuildError(f"{what}: {error}", at=at + ("lines", number)))
            continue
        blocks.append((paragraph(_bold_id(text), width, size=BODY_PT, what=what), False, "flow"))
    return blocks


def _examples(context: Context, section: BookletSection, width: float, what: str, at: PathKey,
              errors: list[BuildError]) -> list[Flowing]:
    """The section's worked examples, each its title kept with its events (one the engine
    refuses: its error added to `errors`; one the game cannot set up: left out, the spec's check reports it)."""
    blocks: list[Flowing] = []
    for number, example in enumerate(section.examples):
        try:
            title, events = worked_example(context, example, at + ("examples", number))
        except BuildError as error:
            errors.append(error)
            continue
        except Unseated:
            continue
        blocks.append((paragraph(f"**{title}**", width, size=BODY_PT + 1, what=what), True, "flow"))
        blocks += [(row, False, "flow" if k == 0 else "tight") for k, row in enumerate(_events(events, width, what))]
    return blocks


def _bold_id(text: str) -> str:
    """Every rule ID in bold: "BOLSA-3.4.1 Sold cards…" → "**BOLSA-3.4.1** Sold cards…"."""
    return RULE_ID.sub(r"**\1**", text)


def _table(data: Table, width: float, shaded: bool, what: str) -> Flowing:
    """A rules table at the body size; one too wide for the page turned a quarter, alone on its
    page (read with the booklet turned)."""
    block = table(data, size=BODY_PT, what=what, min_width=0.0, shaded=shaded, caption_size=BODY_PT)
    if block.width <= width + 1e-6:
        return block, False, "flow"
    left = max(0.0, (width - block.height) / 2)  # centred on its page
    turned = Group(block.items, (0.0, -1.0, 1.0, 0.0, left, block.width))  # a quarter turn anticlockwise
    return Block((turned,), width, block.width), False, "alone"


def _events(table: Table, width: float, what: str) -> list[Block]:
    """A worked example's events, a block each (they flow over pages): the rule ID in bold in a
    narrow column, what happens beside it."""
    column_w = max((text_width(rule, "bold", BODY_PT) for rule, _ in table.rows), default=0.0) + RULE_GAP_MM
    rows = []
    for rule, text in table.rows:
        words = paragraph(text, width - column_w, size=BODY_PT, what=what)
        label = fit_text(f"**{rule}**", 0, 0, column_w, words.height, size=BODY_PT, min_size=BODY_PT, color=INK,
                         align="left", valign="top", what=what)
        rows.append(Block((label, moved(words, column_w, 0)), width, words.height))
    return rows


def house_rules(context: Context, booklet: Booklet, errors: list[BuildError] | None = None) -> Table:
    """Every house rule of the game's engine in words: its rule ID, its name, and the value in
    effect (the engine's own reading, so values set by a track show the track's number), saying
    whether that is the default, or what the default is."""
    if _engine(context.game_id) is None:
        raise BuildError(f"{context.game_id}: `house_rules` needs a rules engine; this game has none")
    rows = []
    for option in _in_effect(context):
        words = booklet.rules_words.get(option.name)
        name = words.name if words else option.name
        shown = _words(booklet, option.name, option.value, errors)
        if option.set_by:
            shown += " " + _(SET_BY).format(where=_set_by(context, option.set_by))
        elif printed_value(option.default) == printed_value(option.value):
            shown += " " + _(DEFAULT)
        else:
            shown += " " + _(DEFAULT_WAS).format(value=_words(booklet, option.name, option.default, None))
        rows.append((option.rule, name, shown))
    return Table(tuple(_(column) for column in HOUSE_RULES), tuple(rows))


def _set_by(context: Context, path: str) -> str:
    """Where components.yaml sets a house rule (`Option.set_by`), as the kit names what prints
    it: the board for a track, a component by its name ("components.dividends.pays": the
    Dividend cards)."""
    kind, _dot, rest = path.partition(".")
    if kind == "components":
        named = next((c for c in context.game.components if c.id == rest.split(".")[0]), None)
        return str(named.name) if named is not None else path  # a spec that renamed it: the setting as written
    return _("the board")


def _words(booklet: Booklet, name: str, value: Any, errors: list[BuildError] | None) -> str:
    """A house rule's value in the booklet's words (`rules_words`); a rule or value it has no
    words for is an error (when `errors` collects them) and prints as written meanwhile."""
    words = in_words(booklet, name, value)
    if words is not None:
        return words
    if errors is not None:
        known = booklet.rules_words.get(name) is not None
        missing = f"the value {printed_value(value)!r} of" if known else "the house rule"
        errors.append(BuildError(f"{booklet.id}: rules_words has no words for {missing} {name!r}",
                                 at=("rules_words", name) if known else ("rules_words",)))
    return printed_value(value)


def _paged(section: BookletSection, blocks: list[Flowing], height: float, what: str, at: PathKey) -> list[Flowing]:
    """The section's blocks as its `page` says: flowing on, from a new page, or as one block on a
    page of its own (a BuildError when it is taller than a page)."""
    if section.page == "one" and blocks:
        whole = column([block for block, _, _ in blocks], gap=BODY_PT * 0.3)
        if whole.height > height - FOOTER_MM + 1e-6:
            raise BuildError(f"{what} must fit one page but takes {whole.height:.0f} of {height - FOOTER_MM:.0f} mm",
                             at=at)
        return [(whole, False, "alone")]
    if section.page == "new" and blocks:
        return [(blocks[0][0], blocks[0][1], "new"), *blocks[1:]]
    return blocks


def _paginate(flow: list[Flowing], height: float, what: str) -> list[tuple[Item, ...]]:
    """Blocks stacked page after page: a block kept with the next (a heading) moves on with it,
    "new" starts a page, "alone" has a page to itself."""
    gap = BODY_PT * 0.3
    pages: list[list[Item]] = [[]]
    y, alone = 0.0, False
    for index, (block, keep, mode) in enumerate(flow):
        if block.height > height + 1e-6:
            raise BuildError(f"{what}: a block {block.height:.0f} mm tall does not fit a {height:.0f} mm booklet page")
        keep = keep and index + 1 < len(flow)
        before = (TIGHT_MM if mode == "tight" else gap * (4 if keep else 1)) if pages[-1] else 0.0
        need = block.height + (gap + flow[index + 1][0].height if keep else 0.0)
        if pages[-1] and (alone or mode in ("new", "alone") or y + before + need > height):
            pages.append([])
            y, before = 0.0, 0.0
        alone = mode == "alone"
        y += before
        pages[-1].append(moved(block, 0, y))
        y += block.height
    return [tuple(items) for items in pages]


def _footer(title: str, number: int, width: float, height: float, what: str) -> tuple[Item, ...]:
    y = height - FOOTER_MM
    return (Line(0, y + 1.0, width, y + 1.0, Style(stroke=SOFT_INK, width=0.2)),
            fit_text(f"{title} · {number}", 0, y + 1.5, width, FOOTER_MM - 1.5, size=BODY_PT, min_size=BODY_PT,
                     color=INK, align="center", what=what))
