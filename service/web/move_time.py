"""A casual game's time per move on the pages: the new-game form's choices, the lobby's words for
it, and the play page's line about whose clock runs and until when (service/move_clock.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.loaded import Loaded
from service.move_clock import clock_view, move_time

CHOICES = [("", "none"), ("60", "1 min"), ("300", "5 min"), ("3600", "1 hour"), ("86400", "1 day")]
"""The form's select: a value of POST /games' move_time (seconds) and its words."""
UNITS = [(86400, "day"), (3600, "hour"), (60, "min"), (1, "s")]


def duration_words(seconds: int) -> str:
    """`seconds` in the largest whole unit it fills: "5 min", "1 day", "2 hours", "90 s"."""
    for size, unit in UNITS:
        if seconds % size == 0:
            count = seconds // size
            plural = "s" if count != 1 and unit in ("day", "hour") else ""
            return f"{count} {unit}{plural}"
    return f"{seconds} s"  # unreachable: 1 divides everything


def per_move(summary: Mapping[str, Any]) -> str | None:
    """The lobby's words for a listed game's clock ("5 min per move"), None without one."""
    seconds = summary.get("move_time")
    return None if not isinstance(seconds, int) else f"{duration_words(seconds)} per move"


def form_move_time(form: Mapping[str, str]) -> int | str | None:
    """The form's time per move for POST /games: seconds, the raw text for its schema to
    refuse, or None (no clock)."""
    raw = form.get("move_time", "").strip()
    if raw in ("", "none"):
        return None
    return int(raw) if raw.isdigit() else raw


def clock_words(loaded: Loaded, names: list[str], seat: int | None) -> dict[str, Any] | None:
    """The play page's clock line: the time per move, whose time runs, the deadline (ISO, for
    the page's <time>) and the same as text; None when the game has no clock."""
    seconds = move_time(loaded.setup)
    if seconds is None:
        return None
    running = clock_view(loaded)
    line = f"Time per move: {duration_words(seconds)}."
    if running is None:
        return {"text": line, "deadline": None, "yours": False}
    yours = seat in running["seats"]
    who = "Your" if yours else " and ".join(names[s] for s in running["seats"]) + "'s"
    at = running["deadline"]
    shown = f"{at[:10]} {at[11:19]} UTC"
    return {"text": line, "who": who, "deadline": at, "shown": shown, "yours": yours}
