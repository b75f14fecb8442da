"""A tournament as one Decider: created, initial_state, decide, evolve, view, pending_system."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from domain.actor import Actor
from domain.tournament.decide import decide
from domain.tournament.entrants import entrant_of
from domain.tournament.evolve import evolve, initial_state
from domain.tournament.settings import created
from domain.tournament.standings import standings
from domain.tournament.state import CLOSED, Entrant, State
from domain.turns import Shuffle

__all__ = ["created", "decide", "evolve", "initial_state", "is_terminal", "pending_system", "view"]


def is_terminal(state: State) -> bool:
    return state.phase == CLOSED


def pending_system(state: State) -> Shuffle | None:
    """The lots the service must draw: a permutation of the entrants without one, as DrawLots{order}."""
    due = state.lots_due()
    return Shuffle({"order": len(due)}, "DrawLots") if due else None


def _entrant(entrant: Entrant) -> dict[str, Any]:
    key = entrant.public_key
    return {**asdict(entrant), "public_key": None if key is None else dict(key)}


def view(state: State, viewer: Actor | None) -> dict[str, Any]:
    """Everything about a tournament is public; an entrant viewer is told which entrant it is."""
    settings = state.settings.to_data()
    me = entrant_of(viewer) if viewer is not None else None
    return {
        **settings,
        "signed_moves": state.settings.signed_moves,
        "rounds": state.rounds,
        "phase": state.phase,
        "round": state.round,
        "completed": state.completed,
        "you": me if me is not None and state.entrant(me) is not None else None,
        "entrants": [_entrant(e) for e in state.entrants],
        "lots": list(state.lots),
        "pairing_order": state.pairing_order(),
        "lots_due": state.lots_due(),
        "tables": [_table(t) for t in state.tables],
        "byes": [asdict(b) for b in state.byes],
        "standings": [asdict(line) for line in standings(state)],
    }


def _table(table: Any) -> dict[str, Any]:
    seen = asdict(table)
    seen["seats"] = list(table.seats)
    if table.result is not None:
        seen["result"] = {k: list(v) if isinstance(v, tuple) else v for k, v in seen["result"].items()}
    return seen
