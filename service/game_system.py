"""The system's part of a game: the chance it waits for (appended at once), the scoring of a
round (a job), and what each new version starts (the listing, computer seats' moves, the
tournament's record of a result)."""

from __future__ import annotations

from typing import Any

from domain.actor import SYSTEM, WORKER
from domain.decider import fold
from domain.turns import Score
from record.draws import EntropyLog
from service.chance import Deal, Dice, deal_of, draw_source
from service.errors import ChainBroken, VersionConflict
from service.game_commands import CONFLICT_RETRIES, Step, batch
from service.game_parts import GameParts
from service.loaded import Loaded

MAX_SYSTEM_DRAWS = 256
"""Draws in a row with no seat's move between them; a longest battle has far fewer."""


def follow_up(service: GameParts, loaded: Loaded) -> None:
    """Start what the game now waits for: a shuffle at once, a scoring or AI moves on the worker."""
    if loaded.broken is not None:
        return
    loaded = _system_follow_up(service, loaded)
    service.listings.record(loaded)
    if service.ai is not None:
        service.ai.schedule(loaded)
    if service.tournaments is not None and loaded.ended_with_result:
        service.tournaments.game_ended(loaded)


def appended(service: GameParts, game_id: str) -> None:
    """List the game as it now is and enqueue the moves of computer seats the newest version
    waits for (and the analysis)."""
    loaded = service.load(game_id)
    if loaded.broken is None:
        service.listings.record(loaded)
        if service.ai is not None:
            service.ai.schedule(loaded)


def _system_follow_up(service: GameParts, loaded: Loaded) -> Loaded:
    """Schedule the scoring, or append the chance the game waits for; the game after that."""
    pending = None if loaded.over else loaded.rules.pending_system(loaded.state)
    if pending is None:
        return loaded
    if isinstance(pending, Score) and service.scoring is not None:
        service.scoring.schedule(loaded.game_id, pending.round, loaded.version)
    elif pending.immediate:
        deal = deal_of(loaded.envelopes[0])
        steps = system_steps(
            service.dice, loaded.rules, loaded.state, deal, loaded.marks.entropy, loaded.version + 1
        )
        try:
            result = service.store.append(
                loaded.game_id, loaded.version, batch(steps, str(SYSTEM), f"chance-{loaded.version}")
            )
        except VersionConflict:
            return loaded  # someone else moved the game on; their follow-up handles it
        return service.after_append(loaded, result)
    return loaded


def score_round(service: GameParts, game_id: str, round_: int) -> bool:
    """Append the scoring of `round_` (and the next deal); False when it is not due.

    Seats may append meanwhile (a takeback request or answer): the scoring is then
    decided again on the newer version, if it is still due there.
    """
    for _ in range(CONFLICT_RETRIES):
        loaded = service.load(game_id)
        if loaded.broken is not None:
            raise ChainBroken(game_id, loaded.broken)
        pending = None if loaded.over else loaded.rules.pending_system(loaded.state)
        if not isinstance(pending, Score) or pending.round != round_:
            return False
        command = pending.answer()
        events = loaded.rules.decide(loaded.state, command)
        state = fold(loaded.rules, loaded.state, events)
        deal = deal_of(loaded.envelopes[0])
        version = loaded.version + 1 + len(events)
        steps = [
            (command, events),
            *system_steps(service.dice, loaded.rules, state, deal, loaded.marks.entropy, version),
        ]
        try:
            service.store.append(game_id, loaded.version, batch(steps, str(WORKER), f"score-{round_}"))
        except VersionConflict:
            continue
        service.appended(game_id)
        if service.tournaments is not None:
            # The deal after the scoring may end the game too (a premature end, I-7).
            after = service.load(game_id)
            if after.rules.is_terminal(after.state):
                service.tournaments.game_ended(after)
        return True
    raise VersionConflict(game_id, loaded.version, service.store.version(game_id))


def system_steps(
    dice: Dice, rules: Any, state: Any, deal: Deal | None, entropy: EntropyLog, version: int
) -> list[Step]:
    """The random draws the game now waits for (a deal, Pele's picks), and those each draw
    leads to (a discovery chit, then its tile; a die, then the next), with their events.

    `version` is where the first of them will be stored: each draw is the deal's draw at
    the version of its first event, with the entropy recorded before it (`entropy`)."""
    found: list[Step] = []
    drawn = 0
    for _ in range(MAX_SYSTEM_DRAWS):
        pending = rules.pending_system(state)
        source = draw_source(deal, entropy, version + drawn)
        command = None if pending is None else dice.command(pending, source)
        if command is None:
            return found
        events = list(rules.decide(state, command))
        found.append((command, events))
        drawn += len(events)
        state = fold(rules, state, events)
    raise RuntimeError(f"more than {MAX_SYSTEM_DRAWS} draws in a row: the rules never stop drawing")
