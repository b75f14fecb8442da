"""The replay viewer: /replay/<game_id>, and the fragments its script swaps in step by step.

Anyone replays a finished game; a game still on is replayed only by its seats, each as that
seat saw it (the bearer token names the seat, as on the JSON API). Every fragment is built
for the token's viewer from the same views, redaction and annotation rules as the API's
/games/{id}?at=N, /games/{id}/replay and /games/{id}/annotations, so a spectator never reads
a card it may not see, in a board or in the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint, render_template, request

from replays.render_svg import render_svg
from service import game_files
from service.annotations import Annotations
from service.api.auth import resolve_seat
from service.api.context import game_service
from service.errors import Forbidden, Unprocessable
from service.loaded import Loaded

bp = Blueprint("web_replay", __name__)

NO_STORE = {"Cache-Control": "no-store"}
PRIVATE = {**NO_STORE, "Vary": "Authorization"}


@bp.get("/replay/<game_id>")
def page(game_id: str) -> Any:
    """The viewer at the first step; the spectator's steps and board when the game has ended
    (the script asks again with the seat's token when the browser holds one)."""
    loaded = game_service().load(game_id)
    game = loaded.setup["game"]
    context: dict[str, Any] = {"game_id": game_id, "game": game, "title": loaded.rules.words.title}
    context["finished"] = finished(loaded)
    if context["finished"]:
        context.update(log_context(loaded, None))
        context.update(frame_context(loaded, None, context["steps"][0]["version"], ()))
    return render_template("replay.html", **context), NO_STORE


@bp.get("/replay/<game_id>/log")
def log(game_id: str) -> Any:
    """The steps in words as the token's viewer may read them, with their notes' marks."""
    loaded, seat = viewer(game_id)
    return render_template("replay_log.html", **log_context(loaded, seat)), PRIVATE


@bp.get("/replay/<game_id>/frame")
def frame(game_id: str) -> Any:
    """The board, the step's words and the notes at ?version=N (default: the last), for the
    token's viewer; ?hide=<layer> (repeatable) leaves a layer's notes and highlights out."""
    loaded, seat = viewer(game_id)
    version = version_asked(loaded)
    hidden = tuple(request.args.getlist("hide"))
    return render_template("replay_frame.html", **frame_context(loaded, seat, version, hidden)), PRIVATE


def finished(loaded: Loaded) -> bool:
    return loaded.over


def viewer(game_id: str) -> tuple[Loaded, int | None]:
    """The game and the token's seat; 403 replay_after_end for a spectator of a game still on."""
    seat = resolve_seat(game_service(), game_id, required=False)
    loaded = game_service().load(game_id)
    if seat is None and not finished(loaded):
        raise Forbidden(
            "replay_after_end",
            "a game still being played is replayed only by its seats (send the seat's token); "
            f"watch it at /play/{game_id}",
        )
    return loaded, seat


def version_asked(loaded: Loaded) -> int:
    """?version=N as a number (the last version when absent); 422 when it is not one."""
    raw = request.args.get("version")
    if raw is None:
        return loaded.version
    if not raw.isdigit():
        message = f"version must be a whole number 1..{loaded.version}"
        raise Unprocessable("bad_version", message, errors={"version": [message]})
    return int(raw)


def notes_of(loaded: Loaded, seat: int | None) -> list[dict[str, Any]]:
    return game_files.visible_annotations(Annotations(game_service().redis), loaded, seat)


def log_context(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """The steps (as /games/{id}/replay describes them to `seat`), each with its notes' marks."""
    notes = notes_of(loaded, seat)
    steps = game_files.replay(game_service(), loaded, seat, [])["steps"]
    marked = []
    for index, step in enumerate(steps):
        here = in_step(notes, steps, index)
        # The shared step, copied: the marks are this viewer's.
        marked.append(
            {
                **step,
                "index": index,
                "marks": [n for n in here if n.get("kind") == "mark"],
                "noted": len(here),
            }
        )
    return {"steps": marked, "seat": seat, "names": names_of(loaded)}


def frame_context(loaded: Loaded, seat: int | None, version: int, hidden: Sequence[str]) -> dict[str, Any]:
    """The board at `version` with the notes of its step, for `seat` (None: a spectator)."""
    view = game_files.view_at(game_service(), loaded, version, seat)
    steps = game_files.replay(game_service(), loaded, seat, [])["steps"]
    index = step_index(steps, version)
    notes = notes_of(loaded, seat)
    layers = sorted({str(n["layer"]) for n in notes})
    shown = [n for n in in_step(notes, steps, index) if n["layer"] not in hidden]
    lit = [n for n in shown if n.get("kind") == "highlight"]
    board = render_svg(
        view,
        caption=f"step {index + 1} of {len(steps)}",
        highlight_islands=[i for n in lit for i in n.get("islands", [])],
        highlight_lines=[line for n in lit for line in n.get("lines", [])],
        standalone=False,
        interactive=True,
    )
    return {
        "version": version,
        "latest_version": loaded.version,
        "step": steps[index],
        "step_index": index,
        "steps_count": len(steps),
        "board": board,
        "notes": shown,
        "layers": [{"name": layer, "shown": layer not in hidden} for layer in layers],
        "seat": seat,
        "names": names_of(loaded),
        "finished": finished(loaded),
    }


def step_index(steps: Sequence[dict[str, Any]], version: int) -> int:
    """The step that appended `version` (version 0 and 1: the first)."""
    for index, step in enumerate(steps):
        if version <= step["version"]:
            return index
    return len(steps) - 1


def in_step(
    notes: Sequence[dict[str, Any]], steps: Sequence[dict[str, Any]], index: int
) -> list[dict[str, Any]]:
    """The notes on the versions step `index` appended (version 0 belongs to the first step)."""
    low = 0 if index == 0 else steps[index]["first_version"]
    return [n for n in notes if low <= int(n.get("version", 0)) <= steps[index]["version"]]


def names_of(loaded: Loaded) -> list[str]:
    return [str(seat["name"]) for seat in loaded.setup["seats"]]
