"""Computer seats' decisions and the analysis of a finished game (the jobs are service.jobs).

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

After a casual game ends, `analyse(game)` (job `analysis-<game>`) writes the annotation
layer "analysis": for each seat decision with a choice, the win chance the search gives
the seat's best command and the command played, estimated from that seat's knowledge at
that moment, and a mark where the command lost more than DUBIOUS ("?") or BLUNDER ("??").
Each remark's audience is that seat: it is computed from the seat's hand and may name one of
its cards, so only a revealed log shows it to anyone else.
"""

from __future__ import annotations

import json
import logging
import os
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ai.ismcts import Budget, search
from ai.knowledge import SeatKnowledge, build
from ai.policies import budget_for, choose, commands
from ai.sim import key, seed_of
from ai.slices import Tally, best, next_budget, record
from domain import undo
from domain.actor import Actor
from domain.core import Command, IllegalMove
from domain.history import fold_history
from record.convert import to_event
from record.open_seats import open_seats
from record.redaction import redact
from service.games import Loaded, takeback_answers, takeback_view

log = logging.getLogger("archipelago.ai")

DEFAULT_LEVEL = 2
ANALYSIS_LAYER = "analysis"
DUBIOUS = 0.10
"""A command that lowers the seat's estimated win chance by more than this gets "?"."""
BLUNDER = 0.25
"""... and by more than this, "??"."""
ANALYSIS_SECONDS = 0.1
"""Search time per decision of the analysis (ARCHIPELAGO_ANALYSIS_SECONDS overrides)."""
ANALYSIS_SLICE_SECONDS = 1.0
"""About how long one analysis job searches before it hands the rest to a new job."""
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


# --- the analysis --------------------------------------------------------------------------


def analysis_budget(environ: Mapping[str, str] | None = None) -> Budget:
    """ARCHIPELAGO_ANALYSIS_SECONDS per decision, capped by ARCHIPELAGO_AI_MAX_ITERATIONS."""
    env = os.environ if environ is None else environ
    seconds = float(env.get("ARCHIPELAGO_ANALYSIS_SECONDS") or ANALYSIS_SECONDS)
    cap = env.get("ARCHIPELAGO_AI_MAX_ITERATIONS")
    return Budget(seconds=seconds, iterations=int(cap) if cap else None)


def mark_for(loss: float) -> str | None:
    """ "??" beyond BLUNDER, "?" beyond DUBIOUS, else no mark."""
    if loss > BLUNDER:
        return "??"
    if loss > DUBIOUS:
        return "?"
    return None


def _fingerprint(events: Sequence[Any]) -> str:
    return json.dumps(
        [[e.type, dict(e.data), None if e.secret is None else dict(e.secret)] for e in events],
        sort_keys=True,
        default=list,
    )


def _played(state: Any, rules: Any, legal: Sequence[Command], batch: Sequence[Any]) -> Command | None:
    """The legal command whose events are the recorded `batch`."""
    wanted = _fingerprint(batch)
    for command in legal:
        try:
            events = rules.decide(state, command)
        except IllegalMove:
            continue
        if _fingerprint(events) == wanted:
            return command
    return None


def _said(rules: Any, state: Any, command: Command, names: Sequence[str]) -> str:
    """The command in words, without any secret its events hold."""
    events = [{"type": e.type, "data": dict(e.data)} for e in rules.decide(state, command)]
    return str(rules.describe(events, names))


def analysis_notes(
    loaded: Loaded, budget: Budget, after: int = 0, slice_seconds: float | None = None
) -> tuple[list[dict[str, Any]], int | None]:
    """The analysis annotations of decisions after version `after` (not yet stored).

    With `slice_seconds`, stops once that much time is spent and also returns the version
    to go on after; None when every decision is done.
    """
    started = time.monotonic()
    rules = loaded.rules
    envelopes = loaded.envelopes
    states = fold_history(rules, envelopes[0].data, ((e.version, to_event(e)) for e in envelopes[1:]))
    names = [s["name"] for s in loaded.setup["seats"]]
    notes: list[dict[str, Any]] = []
    searched = 0
    for batch in undo.batches(undo.live(envelopes)):
        seat = undo.seat_of(batch[0].actor)
        if seat is None or batch[0].version <= after:
            continue
        spent = time.monotonic() - started
        if searched and slice_seconds is not None and spent > slice_seconds:
            return notes, batch[0].version - 1
        before = states[batch[0].version - 1]
        legal = commands(seat, rules.legal_commands(before, seat))
        if len(legal) < 2:
            continue
        played = _played(before, rules, legal, batch)
        if played is None:
            continue
        searched += 1
        knowledge = knowledge_for(loaded, seat, upto=batch[0].version - 1, state=before)
        rng = random.Random(seed_of(loaded.game_id, "analysis", batch[0].version))
        found = search(knowledge, legal, rng, budget)
        best, chance = found.best_chance, found.chances[key(played)]
        loss = max(0.0, best - chance)
        version = batch[-1].version
        text = (
            f"{names[seat]}: estimated win chance {best:.0%} with the best move, "
            f"{chance:.0%} after {_said(rules, before, played, names)}"
        )
        # Computed from the seat's knowledge (its hand): the seat's alone until the log is open.
        audience = [seat]
        notes.append({"version": version, "kind": "comment", "text": text[:2000], "audience": audience})
        mark = mark_for(loss)
        if mark is not None:
            preferred = _said(rules, before, found.command, names)
            why = f"{names[seat]} lost {loss:.0%} of win chance; the AI preferred: {preferred}"
            notes.append(
                {"version": version, "kind": "mark", "mark": mark, "text": why[:2000], "audience": audience}
            )
    return notes, None


def layer_name(loaded: Loaded) -> str:
    names = {s["name"] for s in loaded.setup["seats"]}
    return ANALYSIS_LAYER if ANALYSIS_LAYER not in names else f"{ANALYSIS_LAYER} (computer)"
