"""What the last turn touched, as the board's hooks name it, for the play page to highlight.

Read from the public data of the live events (never a secret): the lines, islands, cells and
hexes that the most recent seat's run of commands named. A line of islands is "A-B" (sorted),
a cell or hex "q,r", a crack "q,r|q,r" — the renderers' data-line, data-island, data-cell and
data-hex values.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set
from typing import Any

from domain import undo
from domain.game_module import Recorded

MOST = 12
"""Commands looked back over at most: a turn of the island games is a few commands."""


def _spots(key: str, value: Any) -> Iterator[str]:
    if isinstance(value, str) and value and key == "island":
        yield value
    elif isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, str) for v in value):
        yield "-".join(sorted(value))
    elif isinstance(value, list | tuple) and len(value) == 2 and all(type(v) is int for v in value):
        yield f"{value[0]},{value[1]}"
    elif key == "crack" and isinstance(value, list | tuple) and len(value) == 2:
        ends = sorted(tuple(c) for c in value if isinstance(c, list | tuple))
        yield "|".join(f"{c[0]},{c[1]}" for c in ends)
    elif key == "path" and isinstance(value, list | tuple):
        for step in value:
            yield from _spots("hex", step)


def touched(records: Sequence[Recorded], turn_markers: Set[str]) -> list[str]:
    """The hooks the last seat to act named in its last turn (live commands only): back from
    its latest command to the one after the last event that began a turn (`turn_markers`)."""
    mover: int | None = None
    found: list[str] = []
    for group in reversed(undo.batches(undo.live(records))[-MOST:]):
        seat = undo.seat_of(group[0].actor)
        if seat is None:
            continue
        if mover is not None and (seat != mover or any(r.type in turn_markers for r in group)):
            break
        mover = seat
        for record in group:
            for key, value in record.data.items():
                if key in ("line", "island", "cell", "from", "to", "hex", "path", "crack", "sea"):
                    found += [s for s in _spots(key, value) if s not in found]
    return found
