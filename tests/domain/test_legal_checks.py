"""legal_commands runs only the checks of the commands it lists, never their effects.

Listing SkipDraw, Kanaloa placements, ships or free bridges by deciding each candidate in
full applied its events once per candidate: in the gods' last round that made every command
cost about twice the first round's.
"""

from __future__ import annotations

import random

import pytest
from given import IKIBITI, KAHUNA, OPODOPO, Table, random_game

from domain.decider import Command, IllegalMove
from domain.islands import decide, engine, gods, legal, majority

HANDICAP = {"seat": 1, "free_bridges": 2, "extra_cards": 1, "hand_limit": 6}
CHECKED = {
    "SkipDraw",
    "EndTurn",
    "UseKanaloa",
    "UseLono",
    "SwapBridge",
    "PlaceFreeBridge",
    "PlaceShip",
    "MoveShip",
    "GiveCards",
}
TABLES = {
    "kahuna-thames-kosmos": KAHUNA.with_options(edition="thames-kosmos"),
    "opodopo-4-gods": OPODOPO.with_options(gods=True),
    "ikibiti-seafarers-handicap": IKIBITI.with_options(seafarers=True, handicap=HANDICAP),
}


def test_listing_thames_kosmos_commands_in_play_applies_no_event(monkeypatch: pytest.MonkeyPatch) -> None:
    applied = []
    states = [s for _, _, s in random_game(random.Random(7), TABLES["kahuna-thames-kosmos"])]
    monkeypatch.setattr(majority, "evolve_all", lambda state, events: applied.extend(events) or state)
    for state in states:
        if state.phase == "play" and state.stack and not state.pending:
            engine.legal_commands(state, state.active)
    assert applied == []


def test_listing_commands_with_gods_and_final_turns_applies_no_event(monkeypatch: pytest.MonkeyPatch) -> None:
    applied = []
    table = TABLES["opodopo-4-gods"]
    states = [s for seed in range(3) for _, _, s in random_game(random.Random(seed), table)]
    monkeypatch.setattr(majority, "evolve_all", lambda state, events: applied.extend(events) or state)
    listed = set()
    for state in states:
        if state.phase in ("play", "final") and not state.pending:
            listed |= {c.type for c in engine.legal_commands(state, state.active)}
    assert {"UseLono", "EndTurn"} <= listed
    assert applied == []


def _refusal(call) -> str | None:  # type: ignore[no-untyped-def]
    try:
        call()
    except IllegalMove as refused:
        return refused.code
    return None


@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
def test_a_commands_check_refuses_exactly_what_decide_refuses(table: Table) -> None:
    compared = 0
    for seed in range(6):
        for _, _, state in random_game(random.Random(seed), table):
            if engine.pending_system(state) is not None or engine.is_terminal(state):
                continue
            seat = state.active
            # The turn's ends are listed by their conditions: their checks still serve decide.
            ends = [Command(kind, seat, {}) for kind in ("EndTurn", "SkipDraw", "DeferFinalTurn")]
            candidates = (
                legal.answer_candidates(state, seat)
                if state.pending
                else [*legal.rarer_candidates(state, seat), *ends]
            )
            for command in candidates:
                if command.type not in CHECKED:
                    continue
                full = _refusal(lambda: engine.decide(state, command))  # noqa: B023
                assert _refusal(lambda: decide.check_command(state, command)) == full  # noqa: B023
                compared += 1
    assert compared > 0


def test_deciding_a_draw_applies_only_the_events_its_rules_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # The caller applies every event anyway; inside decide an event is applied only when a
    # later rule reads the state it leads to (the end of the round
    # reads the draw's state, not TurnEnded's).
    applied: list[str] = []
    real = majority.evolve_all
    states = [s for _, _, s in random_game(random.Random(3), KAHUNA)]
    monkeypatch.setattr(
        majority,
        "evolve_all",
        lambda state, events: applied.extend(e.type for e in events) or real(state, events),
    )
    draws = 0
    for state in states:
        if state.phase != "play" or len(state.hands[state.active]) >= state.hand_limit(state.active):
            continue
        for command in engine.legal_commands(state, state.active):
            if command.type == "DrawCard":
                engine.decide(state, command)
                draws += 1
    assert draws > 0
    assert "TurnEnded" not in applied


def test_listing_pele_returns_builds_no_outcome(monkeypatch: pytest.MonkeyPatch) -> None:
    # G-7's return offers every card for every victim: checking them all must stay cheap.
    table = TABLES["opodopo-4-gods"]
    states = [s for seed in range(12) for _, _, s in random_game(random.Random(seed), table)]
    returns = [s for s in states if s.pending and s.pending[0].kind == "pele_return"]
    monkeypatch.setattr(gods, "Outcome", None)
    for state in returns:
        assert engine.legal_commands(state, state.active)
    assert returns
