"""How a loaded game ended, and what a seat may do to end it, as the API and the play page show it."""

from __future__ import annotations

from typing import Any

from domain import resign
from domain.ending import GAME_ABORTED, GAME_FORFEITED, GAME_RESIGNED, ending
from service.loaded import Loaded

HOW = {GAME_FORFEITED: "forfeited", GAME_RESIGNED: "resigned", GAME_ABORTED: "aborted"}


def ending_view(loaded: Loaded) -> dict[str, Any] | None:
    """How the game ended (null while in play): by its rules, a forfeit, a resignation or an abort."""
    if not loaded.over:
        return None
    end = ending(loaded.trusted, loaded.rules.end_event)
    if end is None:  # a rules' end always has its end event; a fallback for an odd record
        return {"how": "rules", "version": loaded.version, "seat": None, "result": loaded.result}
    seat = end.data.get("seat") if end.type in HOW else None
    return {"how": HOW.get(end.type, "rules"), "version": end.version, "seat": seat, "result": loaded.result}


def finish_options(loaded: Loaded, seat: int | None) -> dict[str, bool]:
    """Whether `seat` may resign or abort now (neither for a spectator, after the end, or on a
    broken record)."""
    if seat is None or loaded.over or loaded.broken is not None:
        return {"resign": False, "abort": False}
    return {"resign": True, "abort": resign.may_abort(loaded.trusted, loaded.rules.end_event)}
