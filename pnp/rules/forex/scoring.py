"""Game end (FOREX-12): the strongest currency, converting all money to it, and the winners."""

from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import Any

from pnp.rules.base import ChoiceNeeded, Event, Log, evolve
from pnp.rules.forex import events as said
from pnp.rules.forex import refusals as refused
from pnp.rules.forex.board import strengths, value_in
from pnp.rules.forex.params import Params
from pnp.rules.forex.rulebook import BankruptPlayer, Conversion
from pnp.rules.forex.state import Result, State


def pick(tied: list[str], choice: str | None, rule: str, what: str, chooser: str, why: dict[str, Any]) -> str:
    """The one currency in `tied`, or the chooser's pick among several (`why`: the numbers that
    tie them, as the refusals word them). A pick where there is no tie, or outside the tie, is a
    Violation; no pick where there is one, ChoiceNeeded."""
    if len(tied) == 1:
        if choice not in (None, tied[0]):
            raise refused.NO_TIE(rule, player=chooser, value=choice, leader=tied[0], **why)
        return tied[0]
    if choice is None:
        reason = refused.tie_reason(why)
        raise ChoiceNeeded(rule, what, tuple(tied), f"{', '.join(tied)} are tied ({reason}); {chooser} must pick one")
    if choice not in tied:
        raise refused.OUTSIDE_TIE(rule, player=chooser, value=choice, tied=tied, **why)
    return choice


def strongest(state: State, p: Params, choice: str | None, chooser: str) -> tuple[str, Event]:
    """FOREX-12.1: most pairs won; then most certificates in hand; then the chooser picks."""
    counts = strengths(state.pairs, p)
    best = max(counts.values())
    tied = [c for c in p.currencies if counts[c] == best]
    held: dict[str, int] = {}
    if len(tied) > 1:
        held = {c: state.held(p.index(c)) for c in tied}
        tied = [c for c in tied if held[c] == max(held.values())]
    winner = pick(tied, choice, "FOREX-12.1", "strongest", chooser, {"pairs": best, "held": held})
    return winner, said.STRONGEST(currency=winner, pairs=best, held=held, picked_by=chooser if len(tied) > 1 else None)


def convert(state: State, p: Params, player: str, target: str) -> tuple[Fraction, list[dict[str, Any]]]:
    """FOREX-12.2: the player's money in `target`, rounded as `conversion_rounding` says: the
    total, and per currency the amount, its exact value in `target` and what it counts for."""
    money = state.holding(player).money
    parts: list[dict[str, Any]] = []
    counted = Fraction(0)
    for i, currency in enumerate(p.currencies):
        value = value_in(state.pairs, p, money[i], currency, target)
        keep = p.conversion_rounding is Conversion.TOTAL or (p.conversion_rounding is Conversion.BGA and currency == target)
        counts = value if keep else Fraction(floor(value))
        parts.append({"currency": currency, "amount": money[i], "value": value, "counted": counts})
        counted += counts
    return (Fraction(floor(counted)) if p.conversion_rounding is Conversion.TOTAL else counted), parts


def final_scores(state: State, p: Params, choice: str | None, chooser: str, events: Log) -> State:
    """Score the game (FOREX-12) and return the finished state with its `result`."""
    target, event = strongest(state, p, choice, chooser)
    scores = []
    if events is not None:
        events.append(event)
    for player in state.players:
        score, parts = convert(state, p, player, target)
        if events is not None:
            events.append(said.CONVERTED(player=player, currency=target, money=parts, rounding=p.conversion_rounding,
                                         score=score))
        if _last(state, p, player):
            if events is not None:
                events.append(said.BANKRUPT_LAST(player=player, would_have=score, currency=target))
            score = Fraction(0)
        scores.append(score)
    winners, event = _winners(state, p, target, scores)
    if events is not None:
        events.append(event)
    return evolve(state, result=Result(target, tuple(scores), winners))


def _winners(state: State, p: Params, target: str, scores: list[Fraction]) -> tuple[tuple[str, ...], Event]:
    """FOREX-12.3: most money; then most certificates of the strongest; then shared. Under
    `bankrupt_player = last` the bankrupt player cannot win (FOREX-12.4)."""
    can_win = [n for n in state.players if not _last(state, p, n)]
    best = max(scores[state.seat(n)] for n in can_win)
    top = [n for n in can_win if scores[state.seat(n)] == best]
    winners, certs = _tiebreak(state, p, target, top)
    return winners, said.WINNERS(winners=list(winners), tied=top, score=best, currency=target, certificates=certs)


def _tiebreak(state: State, p: Params, target: str, top: list[str]) -> tuple[tuple[str, ...], dict[str, int]]:
    """FOREX-12.3: of the players tied on money, those with the most certificates of the
    strongest currency (each one's count, when there is a tie to break)."""
    certs = {n: state.holding(n).certificates[p.index(target)] for n in top} if len(top) > 1 else {}
    return tuple(n for n in top if not certs or certs[n] == max(certs.values())), certs


def _last(state: State, p: Params, player: str) -> bool:
    """FOREX-12.4 under `bankrupt_player = last`: the bankrupt player scores nothing and
    cannot win."""
    return player == state.bankrupt and p.bankrupt_player is BankruptPlayer.LAST
