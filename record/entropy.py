"""A seat's own entropy for the deal, decided from the record alone: the service appends what
this decides, and the referee replay decides it again.

The seed is committed before any seat adds entropy, so neither the operator (who cannot know
the entropy when it commits) nor a seat (who cannot know the seed) chooses what comes next.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.actor import Actor
from domain.decider import Command, Event, IllegalMove
from record.draws import ENTROPY_EVENT, is_entropy
from record.envelope import Envelope

ADD_ENTROPY = "AddEntropy"
INVALID = "invalid_entropy"
"""The one refusal of the command's form; every other refusal is a conflict with the record."""


def entropy_events(envelopes: Sequence[Envelope], ended: bool, command: Command) -> list[Event]:
    """EntropyAdded for the command's seat; IllegalMove when the entropy is malformed, the game
    has no deal to mix it in (recorded before deals were committed), is over, or the seat
    added its entropy already."""
    entropy = command.args.get("entropy")
    if not is_entropy(entropy):
        raise IllegalMove(INVALID, "entropy is 16 to 64 bytes as lowercase hex", field="entropy")
    if "deal" not in envelopes[0].data:
        raise IllegalMove("no_deal", "this game was created before deals were committed: it takes no entropy")
    if ended:
        raise IllegalMove("game_over", "the game is over: no draw is left to mix entropy into")
    seat = command.seat
    if any(e.type == ENTROPY_EVENT and Actor.seat_in(e.actor) == seat for e in envelopes):
        raise IllegalMove("entropy_added", f"seat {seat} added its entropy already")
    return [Event(ENTROPY_EVENT, {"seat": seat, "entropy": entropy})]
