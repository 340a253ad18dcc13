"""The teaching parts of a rules booklet: the components pictured, the setup drawn, and worked
examples played by the rules engine.

A group learns a game from what they will hold, so every picture here is the real thing — the
component's own drawing, scaled down, never a sketch of it — in a thin grey frame (`FRAME`):
inside one, text is as small as the picture makes it; outside, the booklet's body size holds.
The setup diagram puts each asset's token on its row's start cell of the real board
(`boards.start_cells`) and shows what every player starts with. A worked example is a game
record: the rules engine plays it through the referee, and the booklet prints each event with
its rule ID, so a rule change in components.yaml changes the example's numbers too.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from pnp.components import Context, pictured
from pnp.components.tables import INK, SOFT_INK, Block, moved, paragraph
from pnp.display import BookPages, Drawing, Group, Item, Panels, Pieces, Rect, Style, compose, scale, translate
from pnp.errors import BuildError
from pnp.i18n import N_, N_plural, _, ngettext
from pnp.layout.text import fit_text
from pnp.rules.base import Table
from pnp.spec.faces import TemplateError, fill, piece_count, token_pieces
from pnp.spec.model import Board, Booklet, Money, SetupDiagram, Tokens, WorkedExample
from pnp.spec.source import PathKey

FRAME = Style(stroke="#b3b3b3", width=0.2)  # round every picture of a real component
PICTURE_MM = 20.0  # the height of a component's pictures in the gallery
PLAYER_MM = 34.0  # the height of what one player has, in the setup diagram
BOARD_SHARE = 0.55  # of the page's height, at most, for the board in the setup diagram
GAP = 2.5  # mm between pictures
NOUNS = {"deck": N_plural("{n} card", "{n} cards"), "tokens": N_plural("{n} token", "{n} tokens"),
         "money": N_plural("{n} bill", "{n} bills"), "board": N_plural("{n} board", "{n} boards"),
         "mat": N_plural("{n} mat", "{n} mats"), "aid": N_plural("{n} player aid", "{n} player aids"),
         "form": N_plural("{n} form", "{n} forms"), "booklet": N_plural("{n} page", "{n} pages")}
PIECES = N_plural("{n} piece", "{n} pieces")
EACH_PLAYER = N_("Each player")  # the label over what every player has in the setup diagram
EACH_CURRENCY = N_("Each player · the money in each of the {count} currencies")
EVENTS_HEADER = (N_("Rule"), N_("What happens"))
EXAMPLE_TITLE = N_("Example {id} — {title}")  # a worked example's heading


# --- pictures --------------------------------------------------------------------------------------


def picture(drawing: Drawing, x: float, y: float, height: float, widest: float = float("inf")) -> tuple[Group, float]:
    """The drawing `height` mm tall (never larger than it is: a token shows at its real size;
    nor wider than `widest`) with its top-left corner at (x, y), framed; and its width."""
    k = min(1.0, height / drawing.height, widest / drawing.width)
    height = drawing.height * k
    art = Group(drawing.items, compose(translate(x, y), scale(k)), Rect(0, 0, drawing.width, drawing.height, Style()))
    width = drawing.width * k
    return Group((art, Rect(x, y, width, height, FRAME))), width


def faces(output: Any, most: int = 3) -> list[Drawing]:
    """What pictures a component: a few distinct fronts and the first back of pieces, or the
    first drawing of panels and pages."""
    if isinstance(output, Pieces):
        backs = [p.back for p in output.pieces[:1] if p.back is not None]
        return (_distinct([p.front for p in output.pieces], max(0, most - len(backs))) + backs)[:most]
    if isinstance(output, Panels):
        return list(output.drawings[:1])
    if isinstance(output, BookPages):
        return list(output.pages[:1])
    return []


def _distinct(drawings: list[Drawing], most: int) -> list[Drawing]:
    """The first `most` distinct drawings, in order: compared only until they are found, since
    a deck's cards are many and comparing drawings by value walks all their items."""
    found: list[Drawing] = []
    for drawing in drawings:
        if len(found) >= most:
            break
        if not any(drawing is seen or drawing == seen for seen in found):
            found.append(drawing)
    return found


def count_words(kind: str, count: int) -> str:
    """"90 cards", "1 board"."""
    one, many = NOUNS.get(kind, PIECES)
    return ngettext(one, many, count).format(n=count)


def gallery(context: Context, booklet: Booklet, width: float, size: float, what: str) -> list[Block]:
    """A row per component (the booklet itself aside): its pictures, its name and how many."""
    rows = []
    for component in context.game.components:
        if component.kind == "booklet":
            continue
        items: list[Item] = []
        x = 0.0
        try:
            output = pictured(context, component)
        except BuildError:  # reported at the component itself; the booklet names it without a picture
            output = None
        for face in faces(output) if output is not None else ():
            if x and x + face.width * PICTURE_MM / face.height > width * 0.62:
                break
            group, w = picture(face, x, 0.0, PICTURE_MM, width * 0.62)
            items.append(group)
            x += w + GAP
        name = component.name if not component.name_en or component.name_en == component.name else \
            f"{component.name} · {component.name_en}"
        label = f"**{name}**\n{count_words(component.kind, piece_count(context.game, component))}"
        text = paragraph(label, width - x - GAP, size=size, what=what)
        items.append(moved(text, x + GAP, max(0.0, (PICTURE_MM - text.height) / 2)))
        rows.append(Block(tuple(items), width, max(PICTURE_MM, text.height)))
    return rows


# --- the setup ---------------------------------------------------------------------------------------


def named(context: Context, component_id: str, at: PathKey) -> Any:
    """The game's component of that id, or a BuildError at the field naming it (a renamed or
    deleted component is refused where the booklet names it)."""
    found = next((c for c in context.game.components if c.id == component_id), None)
    if found is None:
        known = ", ".join(c.id for c in context.game.components)
        raise BuildError(f"{context.game_id}: the booklet names no component {component_id!r} (known: {known})", at=at)
    return found


def setup_diagram(context: Context, spec: SetupDiagram, values: dict[str, Any], width: float, height: float,
                  size: float, what: str, at: PathKey = ()) -> list[Block]:
    """The board with the tokens on their start cells (at most `BOARD_SHARE` of the page's
    `height`), then what each player starts with; `at` is the setup's place in the spec."""
    game = context.game
    _check_named(context, spec, at)
    blocks: list[Block] = []
    if spec.board:
        blocks.append(_board(context, spec, width, height * BOARD_SHARE, size, what))
    items: list[Item] = []
    x = 0.0
    for component in (game.component(c) for c in spec.each_player):
        face = faces(pictured(context, component), 1)[0]
        group, w = picture(face, x, 0.0, PLAYER_MM, width / 2)
        items.append(group)
        x += w + GAP
    right: list[tuple[Drawing, str]] = []
    if spec.money:
        right += _money(context, spec, values, what, at + ("money",))
    right += _hands(context, spec, values, what, at)
    items += _pile(right, x, width - x, size, what)
    if items:
        currencies = len(game.assets) if spec.money and getattr(game.component(spec.money.component), "for_each", None) else 0
        words = _(EACH_CURRENCY).format(count=currencies) if currencies > 1 else _(EACH_PLAYER)
        label = fit_text(f"**{words}**", 0, 0, width, size * 0.5, size=size, min_size=size, color=SOFT_INK,
                         align="left", what=what)
        blocks.append(Block((label, Group(tuple(items), translate(0, size * 0.5 + 1.0))), width,
                            PLAYER_MM + size * 0.5 + 1.0))
    return blocks


def _check_named(context: Context, spec: SetupDiagram, at: PathKey) -> None:
    """Every component the setup names is one of the game's (a BuildError at the name's place)."""
    for field in ("board", "tokens"):
        if getattr(spec, field):
            named(context, getattr(spec, field), at + (field,))
    for index, component_id in enumerate(spec.each_player):
        named(context, component_id, at + ("each_player", index))
    if spec.money:
        named(context, spec.money.component, at + ("money", "component"))
    for index, hand in enumerate(spec.hands):
        named(context, hand.deck, at + ("hands", index, "deck"))


def _hands(context: Context, spec: SetupDiagram, values: Mapping[str, object], what: str,
           at: PathKey) -> list[tuple[Drawing, str]]:
    """Each hand a player is dealt: its deck's back and how many cards (a deck without backs
    shows none)."""
    shown = []
    for index, hand in enumerate(spec.hands):
        deck = context.game.component(hand.deck)
        back = next((p.back for p in pictured(context, deck).pieces if p.back is not None), None)  # type: ignore[union-attr]  # a deck draws Pieces
        try:
            count = fill(hand.count, values, "count")
        except TemplateError as error:
            raise BuildError(f"{what}: {error}", at=at + ("hands", index, "count")) from None
        if back is not None:
            shown.append((back, f"× {count}"))
    return shown


def _board(context: Context, spec: SetupDiagram, width: float, tallest: float, size: float, what: str) -> Block:
    """The board as wide as the page (or `tallest` mm tall), its asset tokens on their rows'
    start cells and its other tokens on the single tracks' start cells, then under it."""
    from pnp.components.boards import start_cells

    board = context.game.component(spec.board or "")
    drawn = pictured(context, board)
    if not isinstance(drawn, Panels):
        raise BuildError(f"{what}: the setup's board must name a board, mat, aid or form, not {board.id!r}")
    drawing = drawn.drawings[0]
    k = min(1.0, width / drawing.width, tallest / drawing.height)
    group, w = picture(drawing, 0.0, 0.0, drawing.height * k)
    items: list[Item] = [group]
    height = drawing.height * k
    if spec.tokens:
        tokens = context.game.component(spec.tokens)
        if not isinstance(tokens, Tokens):
            raise BuildError(f"{what}: the setup's tokens must name a tokens component, not {tokens.id!r}")
        pieces = pictured(context, tokens).pieces  # type: ignore[union-attr]  # tokens draw Pieces
        starts = start_cells(context, board) if isinstance(board, Board) else []
        spare = []
        for piece, art in zip(token_pieces(context.game, tokens), pieces, strict=True):
            owner = piece.asset.id if piece.asset else None
            cell = next((c for c in starts if c[0] == owner), None)
            if cell is None:
                spare.append(art.front)
                continue
            starts.remove(cell)
            cx, cy, cw, ch = cell[1]
            t = min(cw, ch) * 0.86 / max(art.front.width, art.front.height)
            cx, cy = (cx + cw / 2) * k, (cy + ch / 2) * k
            tw, th = art.front.width * t * k, art.front.height * t * k
            items.append(Group(art.front.items, compose(translate(cx - tw / 2, cy - th / 2), scale(t * k)),
                               Rect(0, 0, art.front.width, art.front.height, Style())))
        x = 0.0
        for face in spare:
            tall = 10.0
            group, w = picture(face, x, height + GAP, tall)
            items.append(group)
            x += w + GAP
        if spare:
            height += GAP + 10.0
    return Block(tuple(items), width, height)


def _money(context: Context, spec: SetupDiagram, values: dict[str, Any], what: str,
           at: PathKey) -> list[tuple[Drawing, str]]:
    """Bills that make the starting amount (of the first currency, when the money prints one
    per currency): the largest bill no more than half of what is left, then smaller."""
    money = context.game.component(spec.money.component)  # type: ignore[union-attr]  # called only when spec.money is set
    if not isinstance(money, Money):
        raise BuildError(f"{what}: the setup's money must name a money component, not {money.id!r}")
    try:
        amount = float(fill(spec.money.amount, values, "amount"))  # type: ignore[union-attr]  # called only when spec.money is set
    except ValueError:
        raise BuildError(f"{what}: the setup's money amount is not a number", at=at + ("amount",)) from None
    printed = sum(bill.value for bill in _bills(money))
    if not 0 <= amount <= printed:  # NaN too: a player starts with some of the bank's bills
        raise BuildError(f"{what}: the setup's money amount {amount:g} is not between 0 and the {printed:g} "
                         f"the money component prints", at=at + ("amount",))
    output = pictured(context, money)
    first = {bill.value: art.front for bill, art in zip(_bills(money), output.pieces, strict=False)}  # type: ignore[union-attr]  # money draws Pieces
    bundle: dict[float, int] = {}
    left = amount
    while left > 1e-9:  # the largest bill at most half of what is left (change to trade with), else the largest that fits
        fits = [v for v in first if v <= left + 1e-9]
        if not fits:
            break
        value = max((v for v in fits if v <= left / 2 + 1e-9), default=max(fits))
        bundle[value] = bundle.get(value, 0) + 1
        left -= value
    return [(first[value], f"× {count}") for value, count in bundle.items()]


def _bills(money: Money) -> list[Any]:
    """The money's bills in the generator's order, one entry per printed bill (first currency)."""
    return [bill for bill in money.bills for _ in range(bill.count)]


def _pile(things: Sequence[tuple[Drawing, str]], x: float, width: float, size: float, what: str) -> list[Item]:
    """Pictures with their counts beside them, in rows of `PLAYER_MM` / 2 tall, from `x`."""
    items: list[Item] = []
    tall = PLAYER_MM / 2 - GAP
    left, top = x, 0.0
    for drawing, caption in things:
        w = drawing.width * tall / drawing.height
        label_w = 16.0
        if left + w + label_w > x + width and left > x:
            left, top = x, top + tall + GAP
        group, w = picture(drawing, left, top, tall)
        items.append(group)
        items.append(fit_text(caption, left + w + 1.0, top, label_w, tall, size=size, min_size=min(size, 6.0),
                              font="bold", color=INK, align="left", what=what))
        left += w + 1.0 + label_w + GAP
    return items


# --- worked examples ------------------------------------------------------------------------------


class Unseated(Exception):
    """A worked example the game cannot even set up (its players cannot be seated or dealt):
    the spec's own check reports that, so the booklet leaves the example out."""


def worked_example(context: Context, example: WorkedExample, at: PathKey) -> tuple[str, Table]:
    """The example's heading (its ID and title from the rules file) and a table of every event
    the rules engine makes of its record, with the rule behind each."""
    import yaml

    from pnp.errors import RecordError
    from pnp.referee import game_params, reads_record
    from pnp.referee.replay import replay
    from pnp.rules import text

    try:
        rule = text.rule(example.id, context.game_id)
    except KeyError:
        raise BuildError(f"{context.game_id}: no worked example {example.id} in its rules file", at=at + ("id",)) from None
    data = {"game": context.game_id, **example.record}
    where = f"the worked example {example.id}"

    def played() -> Any:  # the same play in every language (numbers and ids; the events word themselves)
        try:
            record = reads_record(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), where)
            return replay(record, game_params(context.game, record))
        except RecordError as error:
            raise BuildError(f"{where}: " + "; ".join(i.message for i in error.issues), at=at + ("record",)) from None

    answer = context.once(("worked example", at, repr(data)), played, every_language=True)
    if answer.violation is not None:
        v = answer.violation
        if v.at in ("players", "deal"):  # the game cannot seat them at all: the spec's own check says so, once
            raise Unseated(v.message)
        raise BuildError(f"{where} breaks {v.rule} at {v.at}: {v.message}", at=at + ("record",))
    rows = tuple((event.rule, event.text) for _, event in answer.events if event.rule not in example.quiet)
    return (_(EXAMPLE_TITLE).format(id=example.id, title=_(rule.title)),
            Table(tuple(_(column) for column in EVENTS_HEADER), rows))

