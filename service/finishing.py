"""How a loaded game ended, and what a seat may do to end it, as the API and the play page show it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain import resign
from domain.ending import GAME_ABORTED, GAME_FORFEITED, GAME_RESIGNED, ending
from domain.history import REWINDS
from record.envelope import Envelope
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
    return {"resign": True, "abort": may_abort(loaded)}


#: Games found past their abort, by id: (version, hash) of the newest event then.
_PAST_ABORT: dict[str, tuple[int, str]] = {}
_PAST_ABORT_LIMIT = 4096


def may_abort(loaded: Loaded) -> bool:
    """domain.resign.may_abort, which reads the whole record on every view, remembered once false.

    It is false for good as long as nothing rewinds: the mode never changes, an end stays on
    the record, and without an undo the seats that moved only grow. So a game found past its
    abort at some event stays so while its record still holds that event and nothing after
    it rewinds (an Undone or Corrected may take moves back: then it is asked again).
    """
    records = loaded.trusted
    known = _PAST_ABORT.get(loaded.game_id)
    if known is not None and _still_holds(records, *known):
        # Past its abort at the newest event too: the next look reads only what follows it.
        _PAST_ABORT[loaded.game_id] = (records[-1].version, records[-1].hash)
        return False
    answer = resign.may_abort(records, loaded.rules.end_event)
    if not answer:
        if len(_PAST_ABORT) >= _PAST_ABORT_LIMIT:
            _PAST_ABORT.clear()
        _PAST_ABORT[loaded.game_id] = (records[-1].version, records[-1].hash)
    return answer


def _still_holds(records: Sequence[Envelope], version: int, digest: str) -> bool:
    """Whether `records` hold the event (version, digest) and nothing after it rewinds."""
    if not 1 <= version <= len(records):
        return False
    at = records[version - 1]
    if at.version != version or at.hash != digest:
        return False
    return not any(r.type in REWINDS for r in records[version:])
