"""Given/when/then for tournaments: every state is built by folding events.

`given(created(...), *facts)` folds a history; `.when(type, actor, **args)` returns the events
`decide` gives, `.rejects(...)` the refusal's code (the state untouched), `.then(...)` the
tournament after accepted commands. Facts written by hand (`paired`) place entrants at chosen
tables without asking a pairing engine, so tie-breaks can be worked out on paper.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from domain.actor import ORGANIZER, SYSTEM, Actor
from domain.decider import Command, Event, IllegalMove
from domain.tournament import module as tournament
from domain.tournament.standings import Line, standings
from domain.tournament.state import State

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu"]


def hash_of(n: int) -> str:
    """A final hash (64 hex digits) told apart by `n`."""
    return f"{n:064x}"


def created(**settings: Any) -> Event:
    """TournamentCreated: a Kahuna Swiss of 3 rounds unless told otherwise."""
    request = {"game": "kahuna", "format": "swiss", "rounds": 3, **settings}
    return tournament.created(request)


def stored(event: Event) -> Event:
    """The event as a store gives it back, through JSON."""
    raw = json.loads(json.dumps({"type": event.type, "data": event.data, "schema": event.schema}))
    return Event(raw["type"], raw["data"], schema=raw["schema"])


def refold(history: Sequence[Event]) -> State:
    state = tournament.initial_state(history[0].data)
    for event in history[1:]:
        state = tournament.evolve(state, event)
    return state


def paired(round_: int, *tables: Sequence[str], byes: Sequence[str] = ()) -> Event:
    """RoundPaired written by hand: these tables, in seat order."""
    return Event("RoundPaired", {"round": round_, "tables": [list(t) for t in tables], "byes": list(byes)})


def game_end(winner: int | None, *totals: int, reason: str | None = None, **extra: Any) -> dict[str, Any]:
    """A GameEnded's data as the island games write it."""
    told = reason or ("draw" if winner is None else "points")
    return {"winner": winner, "totals": list(totals), "reason": told, **extra}


@dataclass(frozen=True)
class Given:
    history: list[Event]
    state: State

    def when(self, type_: str, actor: Actor = ORGANIZER, **args: Any) -> list[Event]:
        return tournament.decide(self.state, Command(type_, None, args), actor)

    def rejects(self, type_: str, actor: Actor = ORGANIZER, **args: Any) -> str:
        before = self.state
        with pytest.raises(IllegalMove) as refusal:
            self.when(type_, actor, **args)
        assert self.state == before
        return refusal.value.code

    def then(self, type_: str, actor: Actor = ORGANIZER, **args: Any) -> Given:
        return self.plus(*self.when(type_, actor, **args))

    def plus(self, *events: Event) -> Given:
        state = self.state
        for event in events:
            state = tournament.evolve(state, event)
        return Given([*self.history, *events], state)

    def draw_lots(self, order: Sequence[int] | None = None) -> Given:
        """The lots the service owes, in registration order unless `order` says otherwise."""
        due = tournament.pending_system(self.state)
        assert due is not None
        size = due.permutations["order"]
        return self.then("DrawLots", SYSTEM, order=list(order if order is not None else range(size)))

    def play(self, table: int, end: dict[str, Any], game: str | None = None, final: int = 1) -> Given:
        """The current round's `table` given a game and that game's end."""
        game_id = game or f"g{self.state.round}-{table}"
        return self.then("AssignGame", table=table, game_id=game_id).then(
            "RecordResult", SYSTEM, game_id=game_id, result=end, final_hash=hash_of(final)
        )

    @property
    def standings(self) -> list[Line]:
        return standings(self.state)

    @property
    def ranking(self) -> list[str]:
        return [line.entrant for line in self.standings]

    def line(self, entrant: str) -> Line:
        return next(line for line in self.standings if line.entrant == entrant)


def given(*histories: Iterable[Event]) -> Given:
    events = [e for history in histories for e in history]
    return Given(events, refold(events))


def registered(count: int, **settings: Any) -> Given:
    """A tournament with `count` people registered: e1 Ada, e2 Bo, ..."""
    game = given([created(**settings)])
    for name in NAMES[:count]:
        game = game.then("RegisterEntrant", name=name)
    return game


def started(count: int, lots: Sequence[int] | None = None, **settings: Any) -> Given:
    """Started with `count` entrants and the lots drawn (registration order unless `lots`)."""
    return registered(count, **settings).then("StartTournament").draw_lots(lots)
