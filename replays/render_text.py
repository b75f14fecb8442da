"""The board as plain text for `replays show`: a pure function of one viewer's view.

Kahuna · version 57 of 269 · seen by Ana
Round 2 of 3 · play · Ben to move

Seats
  0 Ana   12 points   14 bridges in stock · 3 cards · 2 islands
Islands   places  held by  god   bridges to (owner seat, - free)
  ALOA         3  Ana      -     BARI:0  DUDA:-  HUNA:1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.islands.board import Board
from replays.render_svg import board_of, seat_facts, seat_name, status_line
from replays.renderers import game_title, renderer_for


def show_text(view: Mapping[str, Any], board: Board | None = None, notes: Sequence[str] = ()) -> str:
    """The view as text: heading, status, the board as the renderer of the view's game tells it
    (replays/renderers.py), then the notes. `board` overrides an island game's own."""
    body = renderer_for(view).text(view, board)
    if notes:
        body += ["", "Annotations:", *(f"  {note}" for note in notes)]
    return "\n".join([_heading(view), status_line(view), "", *body]) + "\n"


def islands_text(view: Mapping[str, Any], board: Any = None) -> list[str]:
    """An island game's board as text: seats, islands with their bridges, ships, cards, the hand."""
    board = board or board_of(view)
    out = _seats(view)
    out += [""] + _islands(view, board)
    ships = view.get("ships")
    if ships is not None:
        out += ["", "Ships: " + (", ".join(_ship(view, s) for s in ships) or "none")]
    out += ["", *_cards(view)]
    return out


def _heading(view: Mapping[str, Any]) -> str:
    parts = [game_title(view)]
    if "version" in view:
        latest = view.get("latest_version")
        parts.append(f"version {view['version']}" + (f" of {latest}" if latest else ""))
    viewer = view.get("viewer")
    parts.append("seen by a spectator" if viewer is None else f"seen by {seat_name(view, int(viewer))}")
    return " · ".join(parts)


def _seats(view: Mapping[str, Any]) -> list[str]:
    seats = view.get("seats", [])
    width = max((len(str(s["name"])) for s in seats), default=4)
    out = ["Seats"]
    for seat in seats:
        mover = " ◀" if view.get("phase") in ("play", "final") and view.get("active") == seat["seat"] else ""
        facts = " · ".join(seat_facts(seat))
        islands = ", ".join(seat.get("islands", [])) or "no islands"
        out.append(
            f"  {seat['seat']} {str(seat['name']):<{width}}  {_points(seat.get('score', 0))}  {facts}{mover}"
        )
        out.append(f"    {'':<{width}}  holds: {islands}")
    return out


def _islands(view: Mapping[str, Any], board: Board) -> list[str]:
    control: Mapping[str, int] = view.get("control", {})
    gods: Mapping[str, str] = view.get("gods", {})
    owners = {tuple(sorted(b["line"])): int(b["seat"]) for b in view.get("bridges", [])}
    name_w = max([len(i.name) for i in board.islands] + [len("Island")])
    holder_w = max([len(seat_name(view, s)) for s in set(control.values())] + [7])
    god_w = 8 if "gods" in view else 0
    head = f"  {'Island':<{name_w}}  places  {'held by':<{holder_w}}  "
    head += f"{'god':<{god_w}}  " if god_w else ""
    out = [head + "bridges to (owner seat, - free)"]
    for island in board.islands:
        holder = control.get(island.name)
        row = f"  {island.name:<{name_w}}  {island.places:>6}  "
        row += f"{'-' if holder is None else seat_name(view, holder):<{holder_w}}  "
        if god_w:
            row += f"{gods.get(island.name, '-'):<{god_w}}  "
        links = []
        for n in board.lines_of(island.name):
            a, b = board.lines[n]
            other = b if a == island.name else a
            owner = owners.get((a, b))
            links.append(f"{other}:{'-' if owner is None else owner}")
        out.append(row + "  ".join(links))
    bridged = len(owners)
    out.append(f"  {bridged} of {len(board.lines)} bridge places taken")
    return out


def _ship(view: Mapping[str, Any], ship: Mapping[str, Any]) -> str:
    return f"{seat_name(view, int(ship['seat']))} at {'-'.join(ship['sea'])}"


def _cards(view: Mapping[str, Any]) -> list[str]:
    out = [
        "Face up: " + (", ".join(view.get("face_up", [])) or "none"),
        f"Stack: {view.get('stack_count', 0)} cards",
        "Discards: "
        + (", ".join(view.get("discard", [])) or "none face up")
        + f"; {view.get('hidden_discards', 0)} face down",
    ]
    viewer = view.get("viewer")
    if viewer is not None:
        out.append(
            f"Your hand ({seat_name(view, int(viewer))}): " + (", ".join(view.get("hand", [])) or "empty")
        )
    for seat, hand in enumerate(view.get("hands") or []):
        if seat != viewer:
            out.append(f"Hand of {seat_name(view, seat)}: " + (", ".join(hand) or "empty"))
    for pending in view.get("pending", []):
        who = seat_name(view, int(pending.get("seat", 0)))
        where = f" on {pending['island']}" if pending.get("island") else ""
        out.append(f"Waiting for {who}: {pending.get('kind')}{where}")
    return out


def _points(score: int) -> str:
    """The score right-aligned in its column, "1 point " lined up under "12 points"."""
    return f"{score:>3} point " if score == 1 else f"{score:>3} points"
