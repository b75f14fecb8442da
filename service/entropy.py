"""A seat's own entropy for the deal: recorded once per seat, mixed into every later draw.

The seed is committed before any seat adds entropy, so neither the operator (who cannot know
the entropy when it commits) nor a seat (who cannot know the seed) chooses what comes next.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.actor import Actor
from domain.core import Command, Event
from record.draws import ENTROPY_EVENT, is_entropy
from record.envelope import Envelope
from service.errors import Conflict, Unprocessable

ADD_ENTROPY = "AddEntropy"


def entropy_events(envelopes: Sequence[Envelope], ended: bool, command: Command) -> list[Event]:
    """EntropyAdded for the command's seat; Conflict when the game has no deal to mix it in
    (recorded before deals were committed), is over, or the seat added its entropy already."""
    entropy = command.args.get("entropy")
    if not is_entropy(entropy):
        message = "entropy is 16 to 64 bytes as lowercase hex"
        raise Unprocessable("invalid_entropy", message, errors={"entropy": [message]})
    if "deal" not in envelopes[0].data:
        raise Conflict("no_deal", "this game was created before deals were committed: it takes no entropy")
    if ended:
        raise Conflict("game_over", "the game is over: no draw is left to mix entropy into")
    seat = command.seat
    if any(e.type == ENTROPY_EVENT and Actor.seat_in(e.actor) == seat for e in envelopes):
        raise Conflict("entropy_added", f"seat {seat} added its entropy already")
    return [Event(ENTROPY_EVENT, {"seat": seat, "entropy": entropy})]
