"""Nanuuk! golden games against today's rules: what follows by itself at every turn's end
(turns skipped, pieces out, shut-in losses, the game's end) is what today's rules emit.

Events keep their shapes and folds, so every stored game still reads to its recorded end
(test_golden.py). A game stored under an older ruling may have ended where today's rules play
on: OLD_RULES names the files kept as such records, and this checks that they really differ.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.decider import Event
from domain.nanuuk.evolve import evolve
from domain.nanuuk.setup import initial_state
from domain.nanuuk.turns import Outcome, begin_turn, end_turn
from replays.archive import read

HERE = Path(__file__).parent
OLD_RULES = {
    "nanuuk-2-two-hunters-old-end": "N-10 before the ruling: two retirements ended a game of two "
    "hunters each while hunters could still move",
}
FILES = sorted(HERE.glob("nanuuk-*.jsonl"))


def _plain(events: list[Event]) -> list[tuple[str, Any]]:
    return [(e.type, json.loads(json.dumps(e.data))) for e in events]


def first_disagreement(path: Path) -> str | None:
    """Where today's end_turn/begin_turn would emit other events than the stored game, or None."""
    stored = [Event(e.type, e.data) for e in read(path.read_bytes()).envelopes]
    state = initial_state(stored[0].data)
    for n, event in enumerate(stored[1:], start=1):
        out: Outcome | None = None
        if event.type == "TurnEnded":
            out = Outcome(state)
            end_turn(out)
        elif event.type == "PiecePlaced" and len(state.to_place) == 1:  # the last placement
            out = Outcome(evolve(state, event))
            begin_turn(out)
            out.events.insert(0, event)
        if out is not None:
            today, then = _plain(out.events), _plain(stored[n : n + len(out.events)])
            if today != then:
                return f"event {n}: stored {then}, today {today}"
        state = evolve(state, event)
    return None


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_nanuuk_golden_game_follows_today_s_turn_ends(path: Path) -> None:
    found = first_disagreement(path)
    if path.stem in OLD_RULES:
        assert found is not None, f"{path.stem} is kept as a game of older rules, but agrees with today's"
    else:
        assert found is None, found


def test_the_records_of_older_rules_exist() -> None:
    assert {p.stem for p in FILES} >= set(OLD_RULES)
