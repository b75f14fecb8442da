"""A tournament's events go into the same envelopes and hash chain as a game's (record package)."""

from __future__ import annotations

from dataclasses import replace

from tournament_given import game_end, paired, refold, started

from domain.actor import ORGANIZER
from domain.tournament.state import State
from record.chain import ZERO_HASH, seal, verify_chain
from record.convert import to_event
from record.envelope import NewEvent


def sealed_tournament() -> tuple[list[NewEvent], State]:
    game = started(4, rounds=1).plus(paired(1, ["e1", "e2"], ["e3", "e4"]))
    game = game.play(0, game_end(0, 5, 2), final=7).play(1, game_end(None, 3, 3), final=8)
    game = game.then("CloseTournament")
    records = [NewEvent.recording(e, n, str(ORGANIZER), "cmd") for n, e in enumerate(game.history)]
    return records, game.state


def test_a_sealed_tournament_verifies_and_refolds_to_the_same_state() -> None:
    records, state = sealed_tournament()
    chain = seal(records, 0, "2026-01-01T00:00:00+00:00", ZERO_HASH)
    assert verify_chain(chain) is None
    assert refold([to_event(envelope) for envelope in chain]) == state


def test_a_changed_result_breaks_the_chain_at_its_event() -> None:
    records, _ = sealed_tournament()
    chain = seal(records, 0, "2026-01-01T00:00:00+00:00", ZERO_HASH)
    recorded = next(e for e in chain if e.type == "ResultRecorded")
    forged = replace(recorded, data={**recorded.data, "points": [1, 3]})
    tampered = [forged if e.version == recorded.version else e for e in chain]
    assert verify_chain(tampered) == recorded.version
    # The game's final hash is part of the tournament's chain: changing it breaks the chain too.
    rehashed = replace(recorded, data={**recorded.data, "final_hash": "f" * 64})
    assert verify_chain([rehashed if e.version == recorded.version else e for e in chain]) == recorded.version
