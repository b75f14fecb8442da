"""Invariants of every island game, recomputed from the board files, never read back from the engine.

Bridges and ships conserved, markers exactly where a seat holds absolute majority (ships
included), places, cards, hands, turns, scorings and results; with given.play_out, the stored
events refold to the live state, and with given.check_views no view shows what its seat may not know.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from given import (
    Check,
    Line,
    Sea,
    Table,
    cards_in_play,
    check_views,
    majority_holders,
    places_of,
    play_out,
)

from domain.decider import Command, Event
from domain.islands import engine
from domain.islands.state import State

MARKERS = 10  # stones, used as ships in the seafarer variation (S)


def pieces(table: Table, state: State) -> tuple[dict[Line, int], dict[Sea, int]]:
    """The bridges and ships on the board, by the board file's lines and sea spaces."""
    assert list(state.rules.board.lines) == table.board.lines
    bridges = {
        line: seat for line, seat in zip(table.board.lines, state.owners, strict=True) if seat is not None
    }
    seas = [tuple(sorted(sea)) for sea in state.rules.board.sea_spaces]
    assert sorted(seas) == table.board.seas
    ships = {sea: seat for sea, seat in zip(seas, state.ships, strict=False) if seat is not None}
    return bridges, ships


def check_material(table: Table, state: State) -> None:
    """K-1/I-1/O-1, F-4: every seat's bridges (and ships, S) are on the board or in its stock."""
    for seat in range(state.seats):
        assert state.owners.count(seat) + state.stock[seat] == table.bridges
        if "seafarers" in table.options:
            assert state.ships.count(seat) + state.ship_stock[seat] == MARKERS
        handicap = table.options.get("handicap", {})
        allowed = handicap.get("free_bridges", 0) if handicap.get("seat") == seat else 0
        assert 0 <= state.free_bridges[seat] <= allowed


def check_majorities(table: Table, state: State) -> None:
    """F-1..F-3, S-2/S-3: places are lines plus ships; a marker stands exactly where majority holds."""
    bridges, ships = pieces(table, state)
    won_early = state.result is not None and state.result["reason"] == "eleventh_island"
    holders = majority_holders(table.board, bridges, ships)
    for n, island in enumerate(table.board.islands):
        if ships or "seafarers" in table.options:  # without ships the places are the board's (K-1)
            assert state.places(island) == places_of(table.board, ships, island)
        holder, marker = holders[island], state.control[n]
        # O-10 ends the game in the middle of resolving a gain: later gains stay unmarked.
        assert marker == holder or (won_early and marker is None), island


def check_cards(table: Table, state: State) -> None:
    """Every card lies somewhere: hands, face-up row, stack or bag, either discard pile."""
    assert cards_in_play(state) == Counter(table.deck)


def check_hands(table: Table, command: Command, state: State) -> None:
    """K-5/I-3/I-8/O-5: a draw never fills a hand past its limit; only the gods (G-9) may."""
    for seat, hand in enumerate(state.hands):
        if not table.options.get("gods") or command.type == "DrawCard" and command.seat == seat:
            assert len(hand) <= state.hand_limit(seat)


def check_turns(table: Table, command: Command, events: list[Event], state: State) -> None:
    """A turn ends by drawing, abstaining (K-9) or EndTurn; the row is full while the stack lasts."""
    ended = [e.data for e in events if e.type == "TurnEnded"]
    if ended and command.seat is not None:
        assert command.type in ("DrawCard", "SkipDraw", "EndTurn")
        assert ended == [{"seat": command.seat, "next": (command.seat + 1) % state.seats}]
    if state.phase == "play" and state.stack:
        assert len(state.face_up) == state.rules.face_up


def expected_points(table: Table, before: State) -> list[int]:
    """K-7, I-5 or O-8 once more, from the markers and bridges the round ended with."""
    islands = [before.control.count(seat) for seat in range(before.seats)]
    if table.game == "arabana-opodopo":
        bridges, ships = pieces(table, before)
        big = before.round == before.rules.rounds
        points = [0] * before.seats
        for island, seat in zip(table.board.islands, before.control, strict=True):
            if seat is not None:
                own = sum(1 for line, owner in bridges.items() if owner == seat and island in line)
                points[seat] += places_of(table.board, ships, island) - own + big
        return points
    lead = islands[0] - islands[1]
    if table.game == "kahuna" and before.round < 3:
        won = before.round if lead else 0
    else:
        won = abs(lead)
    return [won, 0] if lead > 0 else [0, won]


def expected_winner(table: Table, state: State) -> int | None:
    """Most points; a tie goes by O-9 (final-turn order) or K-9 (third scoring, then bridges)."""
    best = max(state.scores)
    leaders = [seat for seat, score in enumerate(state.scores) if score == best]
    if len(leaders) > 1 and table.game == "arabana-opodopo":
        leaders = [next(seat for seat in state.finished if seat in leaders)]
    if len(leaders) > 1 and table.options.get("edition") == "thames-kosmos":
        for key in (lambda s: state.scorings[-1][s], lambda s: state.owners.count(s)):
            top = max(key(s) for s in leaders)
            leaders = [s for s in leaders if key(s) == top]
    return leaders[0] if len(leaders) == 1 else None


def tournament(winner: int | None, totals: list[int], premature: int | None) -> dict[str, Any]:
    """I-9: 2:2, 3:1, 4:0 or 5:0, and the island points as a goal difference (+12 or +24)."""
    if winner is None:
        return {"points": [2, 2], "island_points": [0, 0]}
    match, bonus = {None: ([3, 1], 0), 3: ([4, 0], 12), 2: ([5, 0], 24)}[premature]
    diff = totals[winner] - totals[1 - winner] + bonus
    if winner == 0:
        return {"points": match, "island_points": [diff, -diff]}
    return {"points": match[::-1], "island_points": [-diff, diff]}


def check_scoring(table: Table, before: State, events: list[Event], state: State) -> None:
    """Each RoundScored and the GameEnded, recomputed."""
    for event in events:
        if event.type == "RoundScored":
            points = expected_points(table, before)
            totals = [t + p for t, p in zip(before.scores, points, strict=True)]
            islands = [before.control.count(seat) for seat in range(before.seats)]
            assert event.data == {
                "round": before.round,
                "islands": islands,
                "points": points,
                "totals": totals,
            }
        if event.type == "GameEnded":
            check_result(table, event.data, state)


def check_result(table: Table, result: Mapping[str, Any], state: State) -> None:
    """GameEnded: the winner by points and tie-break, by premature end (I-7) or by the 11th island (O-10)."""
    keys = {"winner", "totals", "reason"} | ({"tournament"} if table.game == "arabana-ikibiti" else set())
    assert set(result) == keys | ({"round"} if result["reason"] == "premature" else set())
    premature = None
    if result["reason"] == "premature":  # I-7
        bare = [seat for seat in range(state.seats) if state.owners.count(seat) == 0]
        assert bare and state.round >= 2 and result["round"] == state.round
        premature = state.round
        assert result["winner"] == (1 - bare[0] if len(bare) == 1 else None)
    elif result["reason"] == "eleventh_island":  # O-10
        assert state.control.count(result["winner"]) == MARKERS + 1
    else:
        assert result["winner"] == expected_winner(table, state)
        assert result["reason"] == ("draw" if result["winner"] is None else "points")
    assert result["totals"] == list(state.scores)
    if table.game == "arabana-ikibiti":
        assert result["tournament"] == tournament(result["winner"], result["totals"], premature)


def check_end(table: Table, history: list[Event], end: State) -> None:
    """The game ended after its last scoring, or early (I-7, O-10); nobody may act any more."""
    assert history[-1].type == "GameEnded"
    rounds = [e.data["round"] for e in history if e.type == "RoundScored"]
    if end.result is not None and end.result["reason"] in ("points", "draw"):
        assert rounds == list(range(1, end.rules.rounds + 1))
    else:
        assert rounds == list(range(1, len(rounds) + 1))
    assert engine.pending_system(end) is None
    assert all(engine.legal_commands(end, seat) == [] for seat in range(end.seats))


def invariants(table: Table, peek: random.Random) -> Check:
    """Every check above, after each command of a game of `table`; `peek` reshuffles secrets."""

    def check(before: State, command: Command, events: list[Event], state: State) -> None:
        check_material(table, state)
        check_majorities(table, state)
        check_cards(table, state)
        check_hands(table, command, state)
        check_turns(table, command, events, state)
        check_scoring(table, before, events, state)
        check_views(peek, state)

    return check


def check_random_game(table: Table, seed: int, start: list[Event] | None = None) -> None:
    """One random game of `table` (from `start`, a position) checked after every command."""
    history, end = play_out(
        random.Random(seed), table, invariants(table, random.Random(seed + 1)), start or ()
    )
    check_end(table, history, end)
