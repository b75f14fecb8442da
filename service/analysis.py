"""The analysis of a finished game by the computer (the job is service.jobs).

After a casual game ends, `analyse(game)` (job `analysis-<game>`) writes the annotation
layer "analysis": for each seat decision with a choice, the win chance the search gives
the seat's best command and the command played, estimated from that seat's knowledge at
that moment, and a mark where the command lost more than DUBIOUS ("?") or BLUNDER ("??").
Each remark's audience is that seat: it is computed from the seat's hand and may name one of
its cards, so only a revealed log shows it to anyone else.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ai.ismcts import Budget, search
from ai.policies import commands
from ai.sim import key, seed_of
from domain import undo
from domain.decider import Command, IllegalMove
from domain.history import fold_history
from record.convert import to_event
from service.computer_seats import knowledge_for
from service.loaded import Loaded

ANALYSIS_LAYER = "analysis"
DUBIOUS = 0.10
"""A command that lowers the seat's estimated win chance by more than this gets "?"."""
BLUNDER = 0.25
"""... and by more than this, "??"."""
ANALYSIS_SECONDS = 0.1
"""Search time per decision of the analysis (ARCHIPELAGO_ANALYSIS_SECONDS overrides)."""
ANALYSIS_SLICE_SECONDS = 1.0
"""About how long one analysis job searches before it hands the rest to a new job."""


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
