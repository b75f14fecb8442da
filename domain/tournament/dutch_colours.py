"""Colours (seats) in the FIDE Dutch system: preferences (C.04.3 A.6), the absolute limits and
the allocation of a pair's seats (C.04.3 E). Seat 0 is white (moves first), seat 1 black.

A history is one entry per round: the seat held, or None for a round without a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WHITE, BLACK = 0, 1
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3
History = Sequence[int | None]


@dataclass(frozen=True)
class Preference:
    colour: int | None  # the seat wanted, None for no preference
    strength: int  # NONE, MILD, STRONG or ABSOLUTE
    difference: int  # games as white minus games as black


def played(history: History) -> list[int]:
    return [c for c in history if c is not None]


def preference(history: History) -> Preference:
    """A.6: absolute past a difference of one or after the same seat twice running; strong at a
    difference of one; mild (the other seat than last time) at zero; none before any game."""
    games = played(history)
    difference = games.count(WHITE) - games.count(BLACK)
    if not games:
        return Preference(None, NONE, 0)
    if abs(difference) > 1:
        return Preference(BLACK if difference > 0 else WHITE, ABSOLUTE, difference)
    if len(games) >= 2 and games[-1] == games[-2]:
        return Preference(1 - games[-1], ABSOLUTE, difference)
    if difference:
        return Preference(BLACK if difference > 0 else WHITE, STRONG, difference)
    return Preference(1 - games[-1], MILD, difference)


def allowed(history: History, colour: int) -> bool:
    """The absolute rules after a game in `colour`: a difference within two, never three running."""
    games = [*played(history), colour]
    if abs(games.count(WHITE) - games.count(BLACK)) > 2:
        return False
    return not (len(games) >= 3 and games[-1] == games[-2] == games[-3])


def compatible(a: History, b: History) -> bool:
    """Some seat order keeps both within the absolute rules."""
    return (allowed(a, WHITE) and allowed(b, BLACK)) or (allowed(a, BLACK) and allowed(b, WHITE))


def first_of(higher: History, lower: History, higher_number: int, initial: int = WHITE) -> bool:
    """Whether the higher-ranked entrant of a pair takes white, by E.1-E.5, within the absolute rules.

    E.1 both preferences when they differ; E.2 the stronger one (an absolute one with the wider
    difference first); E.3 the seats opposite to the last round they held different seats;
    E.4 the higher-ranked's preference; E.5 the higher-ranked gets the initial colour with an odd
    pairing number, the other one with an even number.
    """
    choice = _by_rules(higher, lower, higher_number, initial)
    if allowed(higher, WHITE if choice else BLACK) and allowed(lower, BLACK if choice else WHITE):
        return choice
    return not choice


def _by_rules(higher: History, lower: History, higher_number: int, initial: int) -> bool:
    p, q = preference(higher), preference(lower)
    if p.colour is not None and q.colour is not None and p.colour != q.colour:
        return p.colour == WHITE
    if p.colour is None and q.colour is not None:
        return q.colour == BLACK
    if q.colour is None and p.colour is not None:
        return p.colour == WHITE
    if p.colour is not None and q.colour is not None:
        if p.strength != q.strength:
            winner = p if p.strength > q.strength else q
            return (winner is p) == (p.colour == WHITE)
        if p.strength == ABSOLUTE and abs(p.difference) != abs(q.difference):
            wider = p if abs(p.difference) > abs(q.difference) else q
            return (wider is p) == (p.colour == WHITE)
        for mine, theirs in zip(reversed(higher), reversed(lower), strict=False):
            if mine is not None and theirs is not None and mine != theirs:
                return mine == BLACK
        return p.colour == WHITE
    return (higher_number % 2 == 1) == (initial == WHITE)
