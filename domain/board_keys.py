"""How a command names a place on a hex board in the renderer's attributes (`data-cell`,
`data-line`): the play page matches a click to a button by these, and a game's words may say
them too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def cell_key(command: Mapping[str, Any]) -> str:
    """A hexagonal cell as the renderer's `data-cell` names it: "q,r" ("" without one)."""
    cell = command.get("cell")
    return f"{cell[0]},{cell[1]}" if isinstance(cell, list | tuple) and len(cell) == 2 else ""


def crack_key(command: Mapping[str, Any]) -> str:
    """A line between two cells as the renderer's `data-line` names it: "q,r|q,r", in order."""
    crack = command.get("crack")
    if not isinstance(crack, list | tuple) or len(crack) != 2:
        return ""
    ends = sorted((int(c[0]), int(c[1])) for c in crack)
    return "|".join(f"{q},{r}" for q, r in ends)
