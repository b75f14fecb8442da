"""Rounds in play: pairing, the games the service opens, results, corrections, forfeits, byes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import domain.tournament.events as ev
from domain.actor import Actor
from domain.decider import Event, IllegalMove
from domain.tournament.evolve import evolve
from domain.tournament.points import bye_points, read_game_end, score_forfeit, score_game
from domain.tournament.schedule import next_pairing
from domain.tournament.standings import standings
from domain.tournament.state import RUNNING, Bye, State, Table

HASH = re.compile(r"^[0-9a-f]{64}$")
FORFEIT_REASONS = ("timeout", "no_show")
MAX_GAME_ID = 100


def completing(state: State, events: list[Event]) -> list[Event]:
    """`events`, and RoundCompleted when they give the round's last table its result."""
    after = state
    for event in events:
        after = evolve(after, event)
    tables = after.round_tables(after.round)
    if after.in_progress and all(t.result is not None for t in tables):
        return [*events, ev.round_completed(after.round)]
    return events


def pair(state: State) -> list[Event]:
    """RoundPaired with the engine's tables and byes, ByeGiven for each bye."""
    if state.phase != RUNNING:
        raise IllegalMove("not_started", "pairing starts once the tournament has started")
    if state.lots_due():
        raise IllegalMove("lots_pending", "the lots of the tie-break are still to be drawn")
    if state.in_progress:
        raise IllegalMove("round_unfinished", f"round {state.round} still has tables without a result")
    if state.rounds is not None and state.round >= state.rounds:
        raise IllegalMove("all_rounds_played", f"all {state.rounds} rounds are paired")
    if len(state.active()) < min(state.settings.table_sizes):
        raise IllegalMove("too_few_entrants", "too few entrants are left to pair a round")
    pairing, orphans = next_pairing(state)
    round_ = state.round + 1
    points = bye_points(state.settings)
    byes = [Bye(round_, e, points, 0, "pairing") for e in pairing.byes]
    byes += [Bye(round_, e, points, 0, "opponent_withdrawn") for e in orphans]
    paired = ev.round_paired(round_, pairing.tables, [b.entrant for b in byes])
    return completing(state, [paired, *(ev.bye_given(b) for b in byes)])


def current_table(state: State, args: Mapping[str, Any]) -> Table:
    index = args.get("table")
    tables = state.round_tables(state.round)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(tables):
        raise IllegalMove("unknown_table", f"round {state.round} has tables 0..{len(tables) - 1}", "table")
    return tables[index]


def assign(state: State, args: Mapping[str, Any]) -> list[Event]:
    """GameAssigned: the game the service opened for a table of the current round."""
    table = current_table(state, args)
    game_id = args.get("game_id")
    if not isinstance(game_id, str) or not 0 < len(game_id) <= MAX_GAME_ID:
        raise IllegalMove(
            "bad_game_id", f"game_id must be a text of 1 to {MAX_GAME_ID} characters", "game_id"
        )
    if table.game_id is not None:
        raise IllegalMove("game_already_assigned", f"table {table.index} plays game {table.game_id}")
    if state.table_of_game(game_id) is not None:
        raise IllegalMove("game_id_taken", f"game {game_id} belongs to another table", "game_id")
    return [ev.game_assigned(table, game_id)]


def game_table(state: State, args: Mapping[str, Any]) -> Table:
    game_id = args.get("game_id")
    table = state.table_of_game(game_id) if isinstance(game_id, str) else None
    if table is None:
        raise IllegalMove("game_not_in_tournament", f"game {game_id!r} is not a game of this tournament")
    return table


def final_hash(value: Any) -> str:
    if not isinstance(value, str) or not HASH.match(value):
        raise IllegalMove("bad_hash", "final_hash must be the game's last hash: 64 hex digits", "final_hash")
    return value


def record(state: State, args: Mapping[str, Any]) -> list[Event]:
    """ResultRecorded from the game's GameEnded data and final hash."""
    table = game_table(state, args)
    if table.result is not None:
        raise IllegalMove("result_already_recorded", f"game {table.game_id} has its result already")
    end = read_game_end(args.get("result"), len(table.seats))
    result = score_game(state.settings, end, final_hash(args.get("final_hash")), "played")
    return completing(state, [ev.result_recorded(table, result, args["result"])])


def correct(state: State, actor: Actor, args: Mapping[str, Any]) -> list[Event]:
    """ResultCorrected: the organizer's new result for a game, with a reason."""
    reason = args.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise IllegalMove("reason_required", "a correction says why", "reason")
    table = game_table(state, args)
    if table.result is None:
        raise IllegalMove("no_result_to_correct", f"game {table.game_id} has no result yet")
    end = read_game_end(args.get("result"), len(table.seats))
    hash_ = final_hash(args["final_hash"]) if args.get("final_hash") is not None else table.result.final_hash
    result = score_game(state.settings, end, hash_, "corrected")
    if replace(result, how=table.result.how) == table.result:
        raise IllegalMove("correction_changes_nothing", "the corrected result is the recorded one")
    return [ev.result_corrected(table, result, args["result"], reason.strip(), str(actor))]


def forfeit(state: State, args: Mapping[str, Any]) -> list[Event]:
    """SeatForfeited: a seat that ran out of time (with the clock facts) or did not show up."""
    table = game_table(state, args)
    if table.result is not None:
        raise IllegalMove("result_already_recorded", f"game {table.game_id} has its result already")
    seat = args.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
        raise IllegalMove("bad_seat", f"seat must be 0..{len(table.seats) - 1}", "seat")
    reason = args.get("reason")
    if reason not in FORFEIT_REASONS:
        raise IllegalMove("bad_forfeit_reason", f"reason must be one of {list(FORFEIT_REASONS)}", "reason")
    clock = args.get("clock")
    if reason == "timeout":
        check_clock(state, clock)
    return completing(state, [forfeited(state, table, seat, reason, clock)])


def forfeited(state: State, table: Table, seat: int, reason: str, clock: Any) -> Event:
    result = score_forfeit(state.settings, len(table.seats), seat)
    return ev.seat_forfeited(table, seat, reason, result, clock if isinstance(clock, Mapping) else None)


def check_clock(state: State, clock: Any) -> None:
    """A timeout names the limit in force and a wait beyond it; the service read the clock."""
    limit = state.settings.move_time_limit
    if limit is None:
        raise IllegalMove("no_time_limit", "this tournament sets no move time limit", "reason")
    ok = (
        isinstance(clock, Mapping)
        and clock.get("limit") == limit
        and isinstance(clock.get("waited"), int | float)
        and not isinstance(clock.get("waited"), bool)
        and clock["waited"] >= limit
    )
    if not ok:
        raise IllegalMove(
            "bad_clock", f"a timeout's clock gives the limit ({limit} s) and a wait of at least it", "clock"
        )


def give_bye(state: State, entrant_id: str) -> list[Event]:
    """ByeGiven by the organizer to an entrant left out of the current round (a late entrant)."""
    if state.round == 0:
        raise IllegalMove("no_round", "no round is paired yet")
    if state.seat_of(state.round, entrant_id) or state.bye_of(state.round, entrant_id):
        raise IllegalMove("already_paired", f"{entrant_id} has a table or a bye in round {state.round}")
    bye = Bye(state.round, entrant_id, bye_points(state.settings), 0, "organizer")
    return [ev.bye_given(bye)]


def close(state: State) -> list[Event]:
    """TournamentClosed with the final ranking; never while a round is unfinished."""
    if state.in_progress:
        raise IllegalMove("round_unfinished", f"round {state.round} still has tables without a result")
    return [ev.tournament_closed([line.entrant for line in standings(state)], state.completed)]
