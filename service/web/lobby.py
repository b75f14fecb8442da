"""The lobby: `/` lists the games, `/games/new` creates one through the API's own service.

A new game's page shows each seat's invite link once, with the token in the URL fragment
(`/play/<game>#token=...`): browsers never send a fragment, so no server log holds it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import redirect, render_template, request, url_for
from marshmallow import ValidationError

from ai.policies import KINDS as AI_KINDS
from domain.core import DomainError
from domain.games import GAMES
from domain.tournaments import AI_LEVELS
from service.api.context import game_service
from service.api.problems import PROBLEM_JSON, SERVICE_STATUS
from service.api.rate_limits import client_address, creation_limit
from service.api.schemas import DEFAULT_AI_LEVEL, CreateGameSchema
from service.errors import ServiceError
from service.games import GameService
from service.store import newest_first
from service.web.option_fields import FormError, chosen_options, option_fields

#: How many games each list of the lobby shows, newest activity first.
LISTED = 30
#: The form's seat rows; the rules say how many a game takes (min_seats..max_seats).
FORM_SEATS = 4
NO_STORE = {"Cache-Control": "no-store"}


@dataclass(frozen=True)
class Listed:
    """One line of the lobby's lists."""

    game_id: str
    game: str
    players: list[str]
    version: int
    finished: bool
    result: Mapping[str, Any] | None


def recent_games(service: GameService, limit: int = LISTED) -> tuple[list[Listed], list[Listed]]:
    """The ongoing and the finished games, each newest activity first, at most `limit` each."""
    ongoing: list[Listed] = []
    finished: list[Listed] = []
    for game_id in newest_first(service.store.read_pointers()):
        if len(ongoing) >= limit and len(finished) >= limit:
            break
        listed = _listed(service, game_id)
        if listed is not None:
            bucket = finished if listed.finished else ongoing
            if len(bucket) < limit:
                bucket.append(listed)
    return ongoing, finished


def _listed(service: GameService, game_id: str) -> Listed | None:
    try:
        loaded = service.load(game_id)
    except ServiceError:  # a broken record is listed nowhere; its own page says why
        return None
    players = [
        f"{seat['name']} (computer)" if seat.get("ai") else str(seat["name"])
        for seat in loaded.setup["seats"]
    ]
    done = loaded.rules.is_terminal(loaded.state)
    result = loaded.rules.result(loaded.state) if done else None
    return Listed(game_id, str(loaded.setup["game"]), players, loaded.version, done, result)


def index() -> Any:
    """The lobby page."""
    ongoing, finished = recent_games(game_service())
    return render_template("lobby.html", ongoing=ongoing, finished=finished)


def _form_context(values: Mapping[str, str], problem: Mapping[str, Any] | None = None) -> dict[str, Any]:
    games = [
        (name, module.seat_counts(), module.min_seats, module.max_seats)
        for name, module in sorted(GAMES.items())
    ]
    return {
        "games": games,
        "option_fields": [field for _, module in sorted(GAMES.items()) for field in option_fields(module)],
        "ai_kinds": AI_KINDS,
        "levels": AI_LEVELS,
        "default_level": DEFAULT_AI_LEVEL,
        "form_seats": FORM_SEATS,
        "values": values,
        "problem": problem,
    }


def new_game_form() -> Any:
    """The form that creates a game."""
    return render_template("lobby_new.html", **_form_context({}))


def setup_from(form: Mapping[str, str]) -> dict[str, Any]:
    """The body of POST /games the form stands for (checked afterwards by its schema)."""
    game = form.get("game", "")
    seats = []
    rows: dict[str, int] = {}  # the form's row -> the seat it becomes, rows of nobody left out
    for n in range(FORM_SEATS):
        kind = form.get(f"seat-{n}", "none")
        if kind == "none":
            continue
        rows[str(n)] = len(seats)
        name = form.get(f"name-{n}", "").strip() or (
            f"Computer {n + 1}" if kind != "human" else f"Player {n + 1}"
        )
        seat: dict[str, Any] = {"name": name}
        if kind != "human":
            seat["ai"] = kind
            level = form.get(f"level-{n}", str(DEFAULT_AI_LEVEL))
            if not level.isdigit():
                raise FormError(f"level-{n}: a computer's level is a whole number")
            seat["level"] = int(level)
        seats.append(seat)
    options = _options(game, form)
    setup: dict[str, Any] = {"game": game, "seats": seats, "options": options}
    if form.get("first_seat", "") not in ("", "random"):
        if form["first_seat"] not in rows:
            raise FormError("first_seat: the seat that starts must be one that somebody plays")
        setup["first_seat"] = rows[form["first_seat"]]
    return setup


def _options(game: str, form: Mapping[str, str]) -> dict[str, Any]:
    raw = form.get("options", "").strip()
    try:
        options = json.loads(raw) if raw else {}
    except json.JSONDecodeError as error:
        raise FormError(f"options: not JSON ({error.msg})") from None
    if not isinstance(options, dict):
        raise FormError("options: a JSON object, e.g. {}")
    module = GAMES.get(game)
    fields = option_fields(module) if module is not None else []
    # The JSON field wins: it is where a person types what the controls cannot say.
    for name, value in chosen_options(fields, form).items():
        options.setdefault(name, value)
    return options


@creation_limit
def create_game() -> Any:
    """Create the game the form describes; its page lists each seat's link, shown this once.

    A game with one person goes straight to that person's board instead."""
    try:
        setup = CreateGameSchema().load(setup_from(request.form))
        created = game_service().create(setup, client=client_address())
    except FormError as error:
        return _refused(422, "bad_form", str(error), None)
    except ValidationError as error:
        return _refused(422, "validation_failed", "the form does not describe a game", error.messages)
    except DomainError as error:
        return _refused(422, error.code, error.message, None)
    except ServiceError as error:
        return _refused(SERVICE_STATUS.get(type(error), 409), error.code, error.message, None)
    links = []
    for seat, (entry, token) in enumerate(zip(setup["seats"], created.tokens, strict=True)):
        link = (
            None
            if token is None
            else url_for("web.play", game_id=created.game_id, _external=True) + f"#token={token}"
        )
        links.append({"seat": seat, "name": entry["name"], "ai": entry.get("ai"), "link": link})
    mine = next((entry for entry in links if entry["link"]), None)
    if mine is not None and sum(1 for entry in links if entry["link"]) == 1:
        # One person against the computer: straight to the board, the token in the fragment.
        return redirect(mine["link"], 303), NO_STORE
    page = render_template(
        "lobby_created.html", game_id=created.game_id, game=setup["game"], links=links, mine=mine
    )
    return page, 201, NO_STORE


def _refused(status: int, code: str, detail: str, errors: Any) -> Any:
    """A refused form: problem+json for an API client, the form again with the reason for a person."""
    problem = {"type": "about:blank", "title": "Refused", "status": status, "code": code, "detail": detail}
    if errors:
        problem["errors"] = errors
    best = request.accept_mimetypes.best_match(["text/html", "application/json", PROBLEM_JSON], "text/html")
    if best != "text/html":
        return json.dumps(problem), status, {"Content-Type": PROBLEM_JSON}
    return render_template("lobby_new.html", **_form_context(request.form, problem)), status
