"""A For-Ex position: the board, every player's money and certificates, the supply and the queue.

Everything is immutable (frozen dataclasses and tuples): the engine returns a new `State` for
every step, so a referee can keep the position in which an illegal action was tried. Money is
held per currency in currency order as exact `Fraction`s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Mapping, Sequence, Union

from pnp.errors import brief
from pnp.rules.base import Event, Malformed, by_identity, evolve, fast_init
from pnp.rules.forex import events as said
from pnp.rules.forex import refusals as refused
from pnp.rules.forex.board import Pair, start_pairs
from pnp.rules.forex.params import Params, show
from pnp.rules.legal import shuffle

if TYPE_CHECKING:
    import random

# --- the contract queue ----------------------------------------------------------------------


@dataclass(frozen=True)
class Dividend:
    """The Dividend stack; `number` is the dividend that resolves next (1 … len(dividends))."""

    number: int

    def label(self) -> str:
        return f"dividend {self.number}"


@dataclass(frozen=True)
class Contract:
    """A contract card in the queue; its terms lie in the display beside the third card."""

    set: str
    owner: str
    pay: tuple[str, Fraction]  # (currency, amount) the owner pays the bank
    receive: tuple[str, Fraction]  # (currency, amount) the bank pays the owner

    def label(self) -> str:
        return f"contract {self.set} {self.owner}"

    def terms(self) -> str:
        return f"pay {show(self.pay[1])} {self.pay[0]}, receive {show(self.receive[1])} {self.receive[0]}"


@dataclass(frozen=True)
class Loan:
    """A defaulted contract: one part per currency owed, paid all at once (FOREX-10.4)."""

    set: str
    owner: str
    owe: tuple[tuple[str, Fraction], ...]  # (currency, amount), in currency order

    def label(self) -> str:
        return f"loan {self.set} {self.owner}"

    def terms(self) -> str:
        return " + ".join(f"{show(amount)} {currency}" for currency, amount in self.owe)


Item = Union[Dividend, Contract, Loan]


# --- players and the position -----------------------------------------------------------------


@fast_init
@dataclass(frozen=True)
class Holding:
    """One player's money and certificates, per currency in currency order."""

    money: tuple[Fraction, ...]
    certificates: tuple[int, ...]

    def add_money(self, index: int, amount: Fraction) -> "Holding":
        money = list(self.money)
        money[index] += amount
        return evolve(self, money=tuple(money))

    def add_certificates(self, index: int, count: int) -> "Holding":
        certificates = list(self.certificates)
        certificates[index] += count
        return evolve(self, certificates=tuple(certificates))


@dataclass(frozen=True)
class Result:
    """The end of the game (FOREX-12): the strongest currency, a score per player, the winners."""

    strongest: str
    scores: tuple[Fraction, ...]  # per player, in seating order
    winners: tuple[str, ...]


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]  # seating, clockwise
    pairs: tuple[Pair, ...]  # in pair-key order
    holdings: tuple[Holding, ...]  # per player
    supply: tuple[int, ...]  # certificates left to buy, per currency
    removed: tuple[int, ...]  # certificates out of the game (setup and divested), per currency
    queue: tuple[Item, ...]  # front first
    mover: int | None = None  # whose turn it is; None before the first turn (FOREX-4.6)
    spot_made: bool = False  # the player to move has made this turn's Spot Transaction
    bankrupt: str | None = None
    result: Result | None = field(default=None)

    @property
    def over(self) -> bool:
        return self.result is not None

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def holding(self, player: str) -> Holding:
        return self.holdings[self.players.index(player)]

    def with_holding(self, player: str, holding: Holding) -> "State":
        holdings = list(self.holdings)
        holdings[self.players.index(player)] = holding
        return evolve(self, holdings=tuple(holdings))

    def display(self, p: Params) -> tuple[str, ...]:
        """FOREX-4.4 / 7.1: the contract sets not in the queue, in taking order."""
        used = {item.set for item in self.queue if not isinstance(item, Dividend)}
        return tuple(letter for letter in p.sets if letter not in used)

    def held(self, index: int) -> int:
        """Certificates of a currency in players' hands."""
        return sum(h.certificates[index] for h in self.holdings)


def standard_supply(p: Params) -> tuple[int, ...]:
    """FOREX-4.3: the certificates minus `removed_certificates`. At the table they are removed
    at random (`deal`, which a record states in `start.supply`); a setup given no supply, which
    cannot know which were removed, removes them one per currency in turn from the first, so
    that it stays deterministic."""
    supply = list(p.certificates)
    left = min(p.removed_certificates, sum(supply))
    while left:
        for index in range(len(supply)):
            if left and supply[index]:
                supply[index] -= 1
                left -= 1
    return tuple(supply)


@dataclass(frozen=True)
class Start:
    """A position to start from (a record's `start`); any part left out stays standard:
    pairs not named keep their start box, currencies not named keep 2 bucks (`start_money`)
    and 0 certificates; without `supply` the certificates held come out of the standard
    supply; without `queue` it holds the Dividend stack alone."""

    pairs: Mapping[str, tuple[str, int]] | None = None
    supply: Mapping[str, int] | None = None
    money: Mapping[str, Mapping[str, Fraction]] | None = None
    certificates: Mapping[str, Mapping[str, int]] | None = None
    queue: Sequence[Item] | None = None


def deal(p: Params, players: Sequence[str], rng: random.Random) -> Start:
    """FOREX-4.3 at a table: the certificates shuffled and `removed_certificates` of them
    taken out of the game at random (`legal.shuffle`'s first places, one draw each); the supply
    left, per currency, is the start. Nothing else of the setup is random (the first player,
    FOREX-4.6, is whoever the seating puts first)."""
    certificates = [c for c, count in zip(p.currencies, p.certificates, strict=True) for _ in range(count)]
    removed = min(p.removed_certificates, len(certificates))
    left = dict(zip(p.currencies, p.certificates, strict=True))
    for currency in shuffle(rng, certificates, removed)[:removed]:
        left[currency] -= 1
    return Start(supply=left)


def check_players(p: Params, count: int) -> None:
    """FOREX-1.10: the seats the spec gives (2–6)."""
    if not p.min_players <= count <= p.max_players:
        raise refused.SEATS(low=p.min_players, high=p.max_players, count=count)


def setup(p: Params, players: Sequence[str], start: Start | None = None) -> tuple[State, tuple[Event, ...]]:
    """The standard setup (FOREX-4), with any part replaced by the start's position. A position
    the rules cannot reach raises Violation."""
    start = start or _STANDARD
    if start.pairs is None and start.money is None and start.certificates is None and start.queue is None:
        standard, events = _standard(p, tuple(players))  # laid out once per rule set and seating; a deal
        if start.supply is None:  # changes only the supply: a simulation deals thousands of games
            return standard, events
        state = _with_supply(p, standard, start.supply)
        return state, _events(p, state)
    return _setup(p, players, start)


def _with_supply(p: Params, standard: State, given: Mapping[str, int]) -> State:
    """The standard position with the supply a deal gives (a currency it leaves out keeps its
    standard supply), the rest of each currency's certificates removed."""
    supply = tuple(given.get(c, n) for c, n in zip(p.currencies, standard.supply, strict=True))
    for currency, left, total in zip(p.currencies, supply, p.certificates, strict=True):
        if not 0 <= left <= total:
            raise refused.SUPPLY_RANGE(currency=currency, left=left, total=total)
    _check_removed(p, supply, (0,) * len(supply))
    return evolve(standard, supply=supply, removed=tuple(total - left for total, left in zip(p.certificates, supply, strict=True)))


_STANDARD = Start()


@by_identity(64)
def _standard(p: Params, players: tuple[str, ...]) -> tuple[State, tuple[Event, ...]]:
    return _setup(p, players, _STANDARD)


def _events(p: Params, state: State) -> tuple[Event, ...]:
    """The setup as the position has it: the pairs off their starting boxes and the players
    whose money or certificates are not the standard (FOREX-4.1, 4.2: a worked example states
    what it starts from), the supply, the display and the queue."""
    standard = {pair.key: (pair.stronger, pair.position) for pair in start_pairs(p)}
    moved = [{"stronger": pair.stronger, "weaker": pair.b if pair.stronger == pair.a else pair.a, "position": pair.position}
             for pair in state.pairs if (pair.stronger, pair.position) != standard[pair.key]]
    usual = Holding((p.start_money,) * len(p.currencies), (0,) * len(p.currencies))
    players = {name: {"money": dict(zip(p.currencies, h.money, strict=True)),
                      "certificates": dict(zip(p.currencies, h.certificates, strict=True))}
               for name, h in zip(state.players, state.holdings, strict=True) if h != usual}
    return (said.START_PAIRS(moved=moved), said.START_HOLDINGS(money=p.start_money, players=players),
            said.SUPPLY(players=len(state.players), supply=dict(zip(p.currencies, state.supply, strict=True))),
            said.DISPLAY(display=list(state.display(p)), queue=[item.label() for item in state.queue]))


def _setup(p: Params, players: Sequence[str], start: Start) -> tuple[State, tuple[Event, ...]]:
    players = tuple(players)
    check_players(p, len(players))
    board = _board(p, start.pairs)
    money, certificates = start.money or {}, start.certificates or {}
    holdings = tuple(_holding(p, name, money.get(name, {}), certificates.get(name, {})) for name in players)
    held = tuple(sum(h.certificates[i] for h in holdings) for i in range(len(p.currencies)))
    left = _supply_left(p, start.supply, held)
    _check_removed(p, left, held)
    removed = tuple(p.certificates[i] - left[i] - held[i] for i in range(len(p.currencies)))
    items = tuple(start.queue) if start.queue is not None else (Dividend(1),)
    _check_queue(p, players, items)
    state = State(players, board, holdings, left, removed, items)
    return state, _events(p, state)


def _board(p: Params, pairs: Mapping[str, tuple[str, int]] | None) -> tuple[Pair, ...]:
    """The pairs at the start: the standard ones, each moved where `pairs` puts it, on one of
    its own currencies and within the track's boxes."""
    board = tuple(
        evolve(pair, stronger=pairs[pair.key][0], position=pairs[pair.key][1]) if pairs and pair.key in pairs else pair
        for pair in start_pairs(p)
    )
    for pair in board:
        if pair.stronger not in (pair.a, pair.b) or not 1 <= pair.position <= p.boxes:
            raise refused.PAIR_OFF(pair=pair.key, stronger=pair.stronger, position=pair.position, a=pair.a, b=pair.b,
                                   boxes=p.boxes)
    return board


def _supply_left(p: Params, supply: Mapping[str, int] | None, held: tuple[int, ...]) -> tuple[int, ...]:
    """Each currency's certificates in the supply: as `supply` states it (never below none, nor
    more than the game has with those in hand), else the standard supply less those in hand."""
    standard = standard_supply(p)
    left = []
    for index, currency in enumerate(p.currencies):
        if supply is not None and currency in supply:
            left.append(supply[currency])
            if supply[currency] < 0:
                raise refused.SUPPLY_RANGE(currency=currency, left=supply[currency], total=p.certificates[index])
            if supply[currency] + held[index] > p.certificates[index]:
                raise refused.SUPPLY_AND_HELD(currency=currency, supply=supply[currency], held=held[index],
                                              sum=supply[currency] + held[index], total=p.certificates[index])
        else:
            left.append(standard[index] - held[index])
            if left[-1] < 0:
                raise refused.SUPPLY_SHORT(held=held[index], currency=currency, left=standard[index])
    return tuple(left)


def _check_removed(p: Params, supply: tuple[int, ...], held: tuple[int, ...]) -> None:
    """FOREX-4.3: the certificates in the supply and in hand are at most those left after the
    setup's removal, `removed_certificates` of the game's (divested ones leave the game too)."""
    total, left = sum(p.certificates), sum(supply) + sum(held)
    most = total - min(p.removed_certificates, total)
    if left > most:
        raise refused.SUPPLY_OVER(supply=sum(supply), held=sum(held), sum=left, removed=p.removed_certificates,
                                  total=total, most=most)


def _holding(p: Params, name: str, money: Mapping[str, Fraction], certificates: Mapping[str, int]) -> Holding:
    for currency, count in certificates.items():
        if count > p.cert_cap:
            raise refused.CAPPED(player=name, count=count, currency=currency, cap=p.cert_cap)
        if count < 0:
            raise refused.NEGATIVE_CERTIFICATES(player=name, count=count, currency=currency)
    for currency, amount in money.items():
        if amount < 0:
            raise refused.NEGATIVE_MONEY(player=name, amount=amount, currency=currency)
    return Holding(
        tuple(Fraction(money.get(c, p.start_money)) for c in p.currencies),
        tuple(certificates.get(c, 0) for c in p.currencies),
    )


def _check_queue(p: Params, players: tuple[str, ...], items: tuple[Item, ...]) -> None:
    """A queue the game can produce: one Dividend stack, still to pay one of its dividends; each
    contract set of the game once, owned by a player; a contract's terms as a rate of the track
    makes them; one Loan per player, owing at least what the smallest contract and its
    interest make in each currency."""
    _check_stack(p, items)
    for item in items:
        if not isinstance(item, Dividend):
            _check_item(p, players, item)
    _check_once(items)


def _check_once(items: tuple[Item, ...]) -> None:
    """Each contract set in the queue once, and one Loan per player."""
    letters = [item.set for item in items if not isinstance(item, Dividend)]
    for letter in letters:
        if letters.count(letter) > 1:
            raise refused.SET_TWICE(set=letter, count=letters.count(letter))
    owners = [item.owner for item in items if isinstance(item, Loan)]
    for owner in owners:
        if owners.count(owner) > 1:
            raise refused.LOANS_TWICE(owner=owner, count=owners.count(owner))


def _check_stack(p: Params, items: tuple[Item, ...]) -> None:
    """One Dividend stack in the queue, still to pay one of the game's dividends."""
    dividends = [item for item in items if isinstance(item, Dividend)]
    if len(dividends) != 1:
        raise refused.STACKS(count=len(dividends))
    if not 1 <= dividends[0].number <= len(p.dividends):
        raise refused.DIVIDEND_RANGE(number=dividends[0].number, dividends=len(p.dividends))


def _check_item(p: Params, players: tuple[str, ...], item: Contract | Loan) -> None:
    """A contract or a loan of one of the game's sets, owned by a player, on terms the game makes."""
    if item.set not in p.sets:
        raise refused.UNKNOWN_SET(item=item.label(), sets=p.sets)
    if item.owner not in players:
        raise Malformed(f"{item.label()}: {brief(item.owner)} is not playing ({', '.join(players)})")
    if isinstance(item, Contract):
        _check_terms(p, item)
    else:
        _check_loan(p, item)


def _check_terms(p: Params, contract: Contract) -> None:
    """FOREX-7.2, 7.3: two currencies; the smaller amount k, a whole number 1 … contract_max, is
    the stronger side's, and the other k × a rate of the track."""
    (pay, x), (receive, y) = contract.pay, contract.receive
    if pay == receive:
        raise refused.TERMS_SAME(set=contract.set, currency=pay)
    k, other = min(x, y), max(x, y)
    if k <= 0 or Fraction(k).denominator != 1 or k > p.contract_max or other / k not in p.rates:
        raise refused.TERMS(set=contract.set, pay=contract.pay, receive=contract.receive, most=p.contract_max)


def _check_loan(p: Params, loan: Loan) -> None:
    """FOREX-10.2: a Loan owes a contract's pay amount (1 or more) and the interest, per
    currency once (10.2.2)."""
    currencies = [currency for currency, _ in loan.owe]
    if not loan.owe or len(set(currencies)) != len(currencies):
        raise refused.LOAN_PARTS(item=loan.label(), owe=loan.owe)
    least = 1 + p.loan_interest
    for currency, amount in loan.owe:
        if amount < least:
            raise refused.LOAN_SMALL(item=loan.label(), amount=amount, currency=currency, interest=p.loan_interest,
                                     least=least)
