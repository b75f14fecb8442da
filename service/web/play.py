"""The play page: /play/<game_id>, and the panel its script swaps in after every event.

The panel is rendered here for the viewer the bearer token names (a spectator without one),
from the same rules and the same redaction as the JSON API, so the page shows no more than
that viewer may see and offers only the commands GET /games/{id}/legal lists.
"""

from __future__ import annotations

from typing import Any

from flask import render_template

from domain import undo
from domain.decider import Command, IllegalMove
from domain.ending import forfeit
from domain.turns import TERMINAL, Seats
from record.open_seats import open_seats, seat_names
from replays.render_svg import render_svg, round_words
from service import game_files
from service.api.auth import resolve_seat
from service.api.context import game_service
from service.computer_seats import ai_seats
from service.finishing import ending_view, finish_options
from service.loaded import Loaded, takeback_answers, takeback_view
from service.web.last_move import touched
from service.web.move_time import clock_words
from service.web.offered import offered
from service.web.refusals import refusals

NO_STORE = {"Cache-Control": "no-store"}
#: How the platform's ends say why (a resignation's result); the rules' own reasons are the
#: game's words (its module's `words.end_reasons`).
PLATFORM_REASONS = {"resigned": "by resignation"}
LOG_STEPS = 100
"""The newest steps the panel's log shows: it is sent again after every event, to phones too,
and a long Conquest of Paradise game has thousands (the replay shows them all)."""


def page(game_id: str) -> Any:
    """The board page; the spectator's panel until the script knows the seat's token."""
    loaded = game_service().load(game_id)
    return render_template("game.html", **panel(loaded, None)), NO_STORE


def panel_fragment(game_id: str) -> Any:
    """The panel for the token's seat (the spectator's without a token), as an HTML fragment."""
    seat = resolve_seat(game_service(), game_id, required=False)
    loaded = game_service().load(game_id)
    headers = {**NO_STORE, "Vary": "Authorization", "ETag": f'"{loaded.version}"'}
    return render_template("game_panel.html", **panel(loaded, seat)), headers


def legal(loaded: Loaded, seat: int | None) -> list[dict[str, Any]]:
    """What GET /games/{id}/legal lists for `seat`: nothing for a spectator or a broken chain."""
    if seat is None or loaded.broken is not None or loaded.over or open_seats(loaded.envelopes):
        return []
    commands = [c.to_json() for c in loaded.rules.legal_commands(loaded.state, seat)]
    return commands + takeback_answers(loaded, seat)


def refusal(loaded: Loaded, command: Command) -> IllegalMove | None:
    """Why the undo policy would refuse `command` now; None when it would take it."""
    try:
        undo.decide(loaded.envelopes, command, loaded.rules)
    except IllegalMove as refused:
        return refused
    return None


def takeback_target(loaded: Loaded, seat: int) -> int | None:
    """The version before `seat`'s last command that still counts; None when it made none."""
    groups = undo.batches(undo.live(loaded.envelopes))
    own = [n for n, group in enumerate(groups) if undo.seat_of(group[0].actor) == seat]
    if not own or own[-1] == 0:
        return None
    return groups[own[-1] - 1][-1].version


def undo_controls(loaded: Loaded, seat: int | None) -> dict[str, Any] | None:
    """The undo and takeback buttons: each enabled, or disabled with the policy's reason."""
    if seat is None or loaded.over:
        return None
    refused_undo = refusal(loaded, Command(undo.UNDO, seat, {"scope": "command"}))
    target = takeback_target(loaded, seat)
    if target is None:
        refused_takeback: IllegalMove | None = IllegalMove("nothing_to_undo", "you have made no move yet")
    else:
        refused_takeback = refusal(loaded, Command(undo.REQUEST_TAKEBACK, seat, {"to_version": target}))
    return {
        "undo": _control(refused_undo),
        "takeback": {**_control(refused_takeback), "to_version": target},
    }


def _control(refused: IllegalMove | None) -> dict[str, Any]:
    if refused is None:
        return {"allowed": True, "reason": "", "code": ""}
    return {"allowed": False, "reason": refused.message, "code": refused.code}


def status(loaded: Loaded, names: list[str], seat: int | None) -> str:
    """Whose turn it is, in words, as the viewer reads it."""
    to_act = loaded.rules.to_act(loaded.state)
    if loaded.broken is not None:
        return f"This game's record is broken at event {loaded.broken}: it takes no more moves."
    ended = ending_view(loaded)
    if ended is not None and ended["how"] in ("resigned", "aborted") and ended["seat"] is not None:
        who = "you" if ended["seat"] == seat else names[ended["seat"]]
        verb = "resigned" if ended["how"] == "resigned" else "called the game off: no result"
        return f"The game is over: {who} {verb}."
    if ended is not None and ended["how"] == "forfeited" and ended["seat"] is not None:
        who = "you" if ended["seat"] == seat else names[ended["seat"]]
        return f"The game is over: {who} {forfeit_words(loaded)}."
    if to_act is TERMINAL or loaded.over:
        return "The game is over."
    waiting = open_seats(loaded.envelopes)
    if waiting:
        return "Waiting for someone to take the open seat (the lobby lists this game under Open games)."
    if not isinstance(to_act, Seats):
        return "The game is dealing or scoring\u2026"
    if seat in to_act.seats:
        return "Your turn."
    return "Waiting for " + " and ".join(names[s] for s in to_act.seats) + "."


FORFEIT_WORDS = {"timeout": "ran out of time", "no_show": "did not show up", "withdrawal": "withdrew"}


def forfeit_words(loaded: Loaded) -> str:
    """Why the game was forfeited, in words."""
    end = forfeit(loaded.trusted)
    reason = None if end is None else end.data.get("reason")
    return FORFEIT_WORDS.get(str(reason), "forfeited")


def panel(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """Everything the panel template shows to `seat` (None: a spectator)."""
    view = loaded.rules.view(loaded.state, seat)
    for computer, (kind, level) in ai_seats(loaded.setup).items():
        view["seats"][computer].update(ai=kind, level=level)
    names = seat_names(loaded.envelopes)
    for n, shown in enumerate(view.get("seats", [])):
        if n < len(names):
            shown["name"] = names[n]  # a taken open seat is its taker's; the rules keep the setup's
    finished = loaded.over
    to_act = loaded.rules.to_act(loaded.state)
    return {
        "game_id": loaded.game_id,
        "version": loaded.version,
        "seat": seat,
        "view": view,
        "title": loaded.rules.words.title,
        "explain": loaded.rules.words.explain,
        "names": names,
        "status": status(loaded, names, seat),
        "finished": finished,
        "board": render_svg(view, standalone=False, interactive=True, caption=""),
        "commands": [offered(command, names, loaded.rules.words) for command in legal(loaded, seat)],
        "controls": undo_controls(loaded, seat),
        "takeback": takeback_view(loaded),
        **log_of(loaded, seat),
        # The rules' view holds their own result; a resignation's is the platform's.
        "result": view.get("result") or loaded.result if finished else None,
        "reasons": {**loaded.rules.words.end_reasons, **PLATFORM_REASONS},
        "ending": ending_view(loaded),
        "finish": finish_options(loaded, seat),
        "rematch": seat is not None and finished and loaded.setup.get("mode") != "tournament",
        "round_words": round_words(view),
        "your_turn": seat is not None
        and not loaded.over
        and not open_seats(loaded.envelopes)
        and seat in getattr(to_act, "seats", ())
        and loaded.broken is None,
        "refusals": refusals(to_act, view, names, seat),
        "last_move": touched(loaded.envelopes, loaded.rules.undo.turn_markers),
        "signing": signing(loaded, seat),
        "move_clock": clock_words(loaded, names, seat),
    }


def log_of(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """The panel's log: the newest LOG_STEPS steps, how many there are, how many are left out."""
    steps = game_files.replay(game_service(), loaded, seat, [])["steps"]
    shown = steps[-LOG_STEPS:]
    return {"log": shown, "log_total": len(steps), "log_earlier": len(steps) - len(shown)}


def signing(loaded: Loaded, seat: int | None) -> dict[str, Any] | None:
    """What the page needs to sign the seat's commands: the seat's recorded key (the page checks
    it is this browser's), and whether the seat may still register one (a casual game in play)."""
    if seat is None:
        return None
    key = loaded.seat_keys.get(seat)
    open_ = not loaded.over and loaded.broken is None
    casual = loaded.setup.get("mode") != "tournament"
    return {"signs": key is not None, "key": key, "offer": key is None and open_ and casual}
