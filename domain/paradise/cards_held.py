"""Q-2 for the reaction cards (Haka, Arioi, Severe Deforestation): who may be asked to play one
without the asking telling the others who holds it."""

from __future__ import annotations

from domain.paradise.state import State


def may_hold(state: State, seat: int, card: str) -> bool:
    """Whether, for all the others know, `seat` may hold a one-copy `card` unspent: it is
    neither spent nor shown by another seat. The rules ask such a seat whether it plays the
    card whether or not it holds it, so that being asked tells no one anything (Q-2)."""
    if seat < 0:
        return False
    if any(card in spent for spent in state.spent_cards):
        return False
    return not any(card in shown for other, shown in enumerate(state.revealed) if other != seat)
