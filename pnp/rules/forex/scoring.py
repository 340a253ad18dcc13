"""Game end (FOREX-12): the strongest currency, converting all money to it, and the winners."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import floor

from pnp.rules.base import ChoiceNeeded, Event, Violation
from pnp.rules.forex.board import strengths, value_in
from pnp.rules.forex.params import Params, show
from pnp.rules.forex.state import Result, State


def pick(tied: list[str], choice: str | None, rule: str, what: str, chooser: str, reason: str) -> str:
    """The one currency in `tied`, or the chooser's pick among several (`reason` says why they
    are tied). A pick where there is no tie, or outside the tie, is a Violation."""
    if len(tied) == 1:
        if choice not in (None, tied[0]):
            raise Violation(rule, f"{chooser} picks {choice}, but {tied[0]} leads alone ({reason}); there is no tie to break")
        return tied[0]
    if choice is None:
        raise ChoiceNeeded(rule, what, tuple(tied), f"{', '.join(tied)} are tied ({reason}); {chooser} must pick one")
    if choice not in tied:
        raise Violation(rule, f"{chooser} picks {choice}, but the tie is between {', '.join(tied)} ({reason})")
    return choice


def strongest(state: State, p: Params, choice: str | None, chooser: str) -> tuple[str, Event]:
    """FOREX-12.1: most pairs won; then most certificates in hand; then the chooser picks."""
    counts = strengths(state.pairs, p)
    best = max(counts.values())
    tied = [c for c in p.currencies if counts[c] == best]
    reason = f"stronger side of {best} pairs"
    if len(tied) > 1:
        held = {c: state.held(p.index(c)) for c in tied}
        reason = f"{', '.join(tied)} win {best} pairs each; certificates in hand: " + ", ".join(f"{c} {held[c]}" for c in tied)
        tied = [c for c in tied if held[c] == max(held.values())]
    winner = pick(tied, choice, "FOREX-12.1", "strongest", chooser, reason)
    text = f"strongest currency: {winner} ({reason})"
    if len(tied) > 1:
        text += f"; {chooser}, who ended the game, picks {winner}"
    return winner, Event("FOREX-12.1", text, {"strongest": winner})


def convert(state: State, p: Params, player: str, target: str) -> tuple[Fraction, str]:
    """FOREX-12.2: the player's money in `target`, rounded as `conversion_rounding` says."""
    money = state.holding(player).money
    values = [(c, money[i], value_in(state.pairs, p, money[i], c, target)) for i, c in enumerate(p.currencies)]
    if p.conversion_rounding == "total":
        exact = sum((v for _, _, v in values), Fraction(0))
        total = Fraction(floor(exact))
        parts = [f"{c} {show(m)}" for c, m, _ in values]
        return total, f"{' + '.join(parts)} = {_approx(exact)} {target} → {show(total)} {target}"
    parts, total = [], Fraction(0)
    for currency, amount, value in values:
        keep_own = p.conversion_rounding == "bga" and currency == target
        counted = value if keep_own else Fraction(floor(value))
        total += counted
        part = f"{currency} {show(amount)}"
        if currency != target and amount:
            part += f" = {_approx(value)} {target}"
        if counted != value:
            part += f" → {show(counted)}"
        parts.append(part)
    return total, f"{'; '.join(parts)}; total {show(total)} {target}"


def final_scores(state: State, p: Params, choice: str | None, chooser: str) -> tuple[State, list[Event]]:
    """Score the game (FOREX-12) and return the finished state with its `result`."""
    target, event = strongest(state, p, choice, chooser)
    events, scores = [event], []
    for player in state.players:
        score, working = convert(state, p, player, target)
        events.append(Event("FOREX-12.2", f"{player}: {working}", {"player": player, "score": score}))
        if player == state.bankrupt and p.bankrupt_player == "last":
            events.append(Event("FOREX-12.4", f"{player} is bankrupt: scores 0 and ranks last "
                                f"(would have {show(score)} {target})"))
            score = Fraction(0)
        scores.append(score)
    winners, event = _winners(state, p, target, scores)
    return replace(state, result=Result(target, tuple(scores), winners)), events + [event]


def _winners(state: State, p: Params, target: str, scores: list[Fraction]) -> tuple[tuple[str, ...], Event]:
    """FOREX-12.3: most money; then most certificates of the strongest; then shared. Under
    `bankrupt_player = last` the bankrupt player cannot win (FOREX-12.4)."""
    can_win = [n for n in state.players if not (n == state.bankrupt and p.bankrupt_player == "last")]
    best = max(scores[state.seat(n)] for n in can_win)
    top = [n for n in can_win if scores[state.seat(n)] == best]
    if len(top) == 1:
        return tuple(top), Event("FOREX-12.3", f"winner: {top[0]} with {show(best)} {target}")
    certs = {n: state.holding(n).certificates[p.index(target)] for n in top}
    winners = tuple(n for n in top if certs[n] == max(certs.values()))
    held = ", ".join(f"{n} {certs[n]}" for n in top)
    if len(winners) == 1:
        text = (f"{' and '.join(top)} tie at {show(best)} {target}; {winners[0]} holds the most {target} "
                f"certificates ({held}) and wins")
    else:
        text = (f"{' and '.join(winners)} tie at {show(best)} {target} with as many {target} certificates ({held}): "
                "they share the win")
    return winners, Event("FOREX-12.3", text)


def _approx(value: Fraction) -> str:
    text = show(value)
    return text if "/" not in text else f"{float(value):.2f}"
