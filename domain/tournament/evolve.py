"""evolve(state, event): the tournament after one more fact. Never refuses: decide did."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from domain.decider import Event
from domain.tournament.settings import Settings
from domain.tournament.state import CLOSED, RUNNING, Bye, Entrant, Result, State, Table


def initial_state(created: Mapping[str, Any]) -> State:
    """The tournament right after TournamentCreated: open for registration."""
    settings = Settings.from_data(created)
    return State(settings=settings, rounds=settings.rounds)


def _registered(state: State, d: Mapping[str, Any]) -> State:
    key = d.get("public_key")
    entrant = Entrant(
        d["entrant"],
        d["name"],
        d["kind"],
        d["level"],
        d["round"],
        player=d.get("player"),
        public_key=None if key is None else tuple(sorted(key.items())),
    )
    return replace(state, entrants=(*state.entrants, entrant))


def _withdrawn(state: State, d: Mapping[str, Any]) -> State:
    entrants = tuple(replace(e, withdrawn=d["round"]) if e.id == d["entrant"] else e for e in state.entrants)
    return replace(state, entrants=entrants)


def _started(state: State, d: Mapping[str, Any]) -> State:
    return replace(state, phase=RUNNING, rounds=d["rounds"], starters=tuple(d["entrants"]))


def _lots(state: State, d: Mapping[str, Any]) -> State:
    ratings = tuple((e, r) for e, r in d.get("ratings", {}).items())
    return replace(state, lots=(*state.lots, *d["entrants"]), ratings=(*state.ratings, *ratings))


def _paired(state: State, d: Mapping[str, Any]) -> State:
    round_ = d["round"]
    tables = tuple(Table(round_, n, tuple(seats)) for n, seats in enumerate(d["tables"]))
    return replace(state, round=round_, tables=state.tables + tables)


def _bye(state: State, d: Mapping[str, Any]) -> State:
    bye = Bye(d["round"], d["entrant"], d["points"], d["island_points"], d["reason"])
    return replace(state, byes=(*state.byes, bye))


def _update_table(state: State, round_: int, index: int, **changes: Any) -> State:
    tables = tuple(
        replace(t, **changes) if (t.round, t.index) == (round_, index) else t for t in state.tables
    )
    return replace(state, tables=tables)


def _assigned(state: State, d: Mapping[str, Any]) -> State:
    return _update_table(state, d["round"], d["table"], game_id=d["game_id"])


def _result(how: str) -> Callable[[State, Mapping[str, Any]], State]:
    def apply(state: State, d: Mapping[str, Any]) -> State:
        result = Result(
            tuple(d["places"]), tuple(d["points"]), tuple(d["island_points"]), d["final_hash"], how
        )
        return _update_table(state, d["round"], d["table"], result=result)

    return apply


def _completed(state: State, d: Mapping[str, Any]) -> State:
    return replace(state, completed=d["round"])


def _closed(state: State, d: Mapping[str, Any]) -> State:
    return replace(state, phase=CLOSED)


HANDLERS: dict[str, Callable[[State, Mapping[str, Any]], State]] = {
    "EntrantRegistered": _registered,
    "EntrantWithdrawn": _withdrawn,
    "TournamentStarted": _started,
    "LotsDrawn": _lots,
    "RoundPaired": _paired,
    "ByeGiven": _bye,
    "GameAssigned": _assigned,
    "ResultRecorded": _result("played"),
    "ResultCorrected": _result("corrected"),
    "SeatForfeited": _result("forfeit"),
    "RoundCompleted": _completed,
    "TournamentClosed": _closed,
}


def evolve(state: State, event: Event) -> State:
    """The state after `event`; an event of another kind leaves it as it was."""
    handler = HANDLERS.get(event.type)
    return state if handler is None else handler(state, event.data)
