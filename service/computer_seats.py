"""Computer seats' decisions (the jobs are service.jobs; a finished game's analysis is
service.analysis).

A seat created as {"name": ..., "ai": "random" | "greedy" | "ismcts", "level": 1..5} has no
token: the service plays it. Whenever such a seat must act at version v (its turn, a
pending choice, its O-2 face-up choice, a takeback waiting for its answer), the AI queue
(service.queues) enqueues `ai_move(game, seat, v)` on the "ai" queue as job `ai-<game>-<seat>-<v>`
(unique: a second enqueue is refused). The job reads the game, does nothing unless the
seat must still act at exactly version v, builds the seat's knowledge from its view and
its redacted events (ai.knowledge), lets the player choose with a random.Random seeded
from (game, seat, v), and executes the command expecting version v. A stale job, or a
re-run after the command was appended, finds another version and appends nothing; the
command's own follow-up enqueues the next job. No job searches much longer than a slice
(MOVE_SLICE_SECONDS): a longer ismcts search goes on in jobs `ai-<game>-<seat>-<v>-<k>`
at the back of the queue (ai.slices), and an analysis slice waits behind queued moves, so
one game's search never holds up another game's move by more than one slice.
Takebacks: an AI seat accepts a request
that takes back none of its own commands, and declines any other, except in practice
against the computer, where it accepts every request (docs/ai.md).
"""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ai.ismcts import search
from ai.knowledge import SeatKnowledge, build
from ai.policies import budget_for, choose, commands
from ai.sim import seed_of
from ai.slices import Tally, best, next_budget, record
from domain import undo
from domain.actor import Actor
from domain.decider import Command
from record.open_seats import open_seats
from record.redaction import redact
from service.loaded import Loaded, takeback_answers, takeback_view

log = logging.getLogger("archipelago.ai")

DEFAULT_LEVEL = 2
MOVE_SLICE_SECONDS = 1.0
"""About how long one job of an ismcts move searches before the rest goes to the back of the
queue (ai.slices). ARCHIPELAGO_AI_SLICE_SECONDS overrides this and ANALYSIS_SLICE_SECONDS."""


def ai_seats(setup: Mapping[str, Any]) -> dict[int, tuple[str, int]]:
    """The computer seats of a game: seat -> (player kind, level)."""
    return {
        seat: (str(entry["ai"]), int(entry.get("level") or DEFAULT_LEVEL))
        for seat, entry in enumerate(setup.get("seats", ()))
        if isinstance(entry, Mapping) and entry.get("ai")
    }


def must_act(loaded: Loaded, seat: int) -> bool:
    """Whether the game waits for `seat`: a takeback answer or any legal command."""
    if loaded.over or open_seats(loaded.envelopes):
        return False  # nobody moves before the table is full
    return bool(takeback_answers(loaded, seat)) or bool(loaded.rules.legal_commands(loaded.state, seat))


# --- the move ------------------------------------------------------------------------------


def knowledge_for(loaded: Loaded, seat: int, upto: int | None = None, state: Any = None) -> SeatKnowledge:
    """What `seat` knows at version `upto` (default: the newest): its view and redacted events."""
    upto = loaded.version if upto is None else upto
    state = loaded.state if state is None else state
    events = [redact(e, seat, revealed=False) for e in loaded.envelopes[:upto]]
    takeback = takeback_view(loaded) if upto == loaded.version else None
    return build(seat, loaded.rules.view(state, seat), events, takeback)


def accepts_takeback(loaded: Loaded, seat: int) -> bool:
    """The AI seats' policy: accept a takeback that undoes none of their own commands.

    In practice against the computer the person may take back anything of theirs, the
    computer's replies included: a game that only practises has nothing to protect.
    """
    pending = loaded.takeback
    if pending is None:
        return False
    if undo.takeback_across_reveal(loaded.envelopes, pending.seat):
        return True
    crossed = [e for e in undo.live(loaded.envelopes) if e.version > pending.to_version]
    return not any(e.actor == str(Actor.of_seat(seat)) for e in crossed)


@dataclass(frozen=True)
class Player:
    """A computer seat as its game was created with it: the kind of player and its level."""

    seat: int
    kind: str
    level: int


def player_at(setup: Mapping[str, Any], seat: int) -> Player | None:
    """The computer that plays `seat`, or None when a person does."""
    found = ai_seats(setup).get(seat)
    return None if found is None else Player(seat, *found)


def slice_seconds(default: float, environ: Mapping[str, str] | None = None) -> float:
    """ARCHIPELAGO_AI_SLICE_SECONDS, else `default`: how long one job searches."""
    env = os.environ if environ is None else environ
    return float(env.get("ARCHIPELAGO_AI_SLICE_SECONDS") or default)


def next_step(
    loaded: Loaded, player: Player, tally: Tally | None = None, environ: Mapping[str, str] | None = None
) -> dict[str, Any] | Tally | None:
    """One slice of the seat's decision: the body it sends now, or the Tally of an ismcts search
    that goes on in another slice (ai.slices), or None when it need not act.

    The seat's legal commands are listed once per move, in the players' stable order
    (ai.policies.commands), and handed on as they are."""
    seat = player.seat
    if takeback_answers(loaded, seat):
        return {"type": undo.ANSWER_TAKEBACK, "accept": accepts_takeback(loaded, seat)}
    legal = commands(seat, loaded.rules.legal_commands(loaded.state, seat))
    if not legal:
        return None
    if player.kind != "ismcts" or len(legal) < 2:
        rng = random.Random(seed_of(loaded.game_id, seat, loaded.version))
        return choose(player.kind, knowledge_for(loaded, seat), legal, rng, budget_for(player.level, environ))
    return _searched(loaded, player, legal, tally or Tally(), environ)


def _searched(
    loaded: Loaded, player: Player, legal: list[Command], tally: Tally, environ: Mapping[str, str] | None
) -> dict[str, Any] | Tally:
    """The next slice of an ismcts search among `legal`: its Tally while the search goes on, the
    body of the best command once the level's whole budget is spent."""
    whole = budget_for(player.level, environ)
    cut = slice_seconds(MOVE_SLICE_SECONDS, environ)
    budget = next_budget(whole, tally, cut)
    if budget is not None:
        # The first slice draws what an unsliced search drew; each later one its own worlds.
        parts = (loaded.game_id, player.seat, loaded.version) + ((tally.slices,) if tally.slices else ())
        found = search(knowledge_for(loaded, player.seat), legal, random.Random(seed_of(*parts)), budget)
        tally = record(tally, found, budget)
        if next_budget(whole, tally, cut) is not None:
            return tally
    return best(tally, legal).to_json()
