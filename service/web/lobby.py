"""The lobby: `/` lists the games, `/games/new` creates one through the API's own service.

A new game's page shows each seat's invite link once, with the token in the URL fragment
(`/play/<game>#token=...`): browsers never send a fragment, so no server log holds it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from flask import redirect, render_template, request, url_for
from marshmallow import ValidationError

from ai.policies import KINDS as AI_KINDS
from domain.decider import DomainError
from domain.games import GAMES
from domain.tournament_rules import AI_LEVELS
from service.accounts.store import Accounts
from service.api.account_context import accounts, seat_holder, signed_in
from service.api.context import game_service
from service.api.open_seat_schemas import OpenSeatRequestSchema
from service.api.problems import PROBLEM_JSON, SERVICE_STATUS
from service.api.rate_limits import client_address, command_limit, creation_limit
from service.api.schemas import DEFAULT_AI_LEVEL, CreateGameSchema
from service.errors import ServiceError
from service.games import GameService
from service.games_index import FINISHED, ONGOING, OPEN, STATUSES
from service.web.move_time import CHOICES as MOVE_TIME_CHOICES
from service.web.move_time import form_move_time, per_move
from service.web.option_fields import FormError, chosen_options, option_fields
from service.web.rules import option_words, pages

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
    open_seats: list[int]
    accounts: Mapping[int, str] = field(default_factory=dict)
    """The seats kept by an account, and its name: the others are guests'."""
    per_move: str | None = None

    @classmethod
    def of(cls, summary: Mapping[str, Any]) -> Listed:
        """The line of a games listing's summary (service.games_index)."""
        players = [_player(seat) for seat in summary["seats"]]
        finished = summary["status"] == FINISHED
        waiting = [n for n, seat in enumerate(summary["seats"]) if seat["kind"] == "open"]
        return cls(
            summary["game_id"],
            summary["game"],
            players,
            summary["version"],
            finished,
            summary["result"],
            waiting,
            per_move=per_move(summary),
        )


def _player(seat: Mapping[str, Any]) -> str:
    if seat["kind"] == "ai":
        return f"{seat['name']} (computer)"
    return "an open seat" if seat["kind"] == "open" else str(seat["name"])


@dataclass(frozen=True)
class Listing:
    """One list of the lobby: its lines and the cursor of the next page (None at the end)."""

    games: list[Listed]
    more: str | None


def recent_games(
    service: GameService, limit: int = LISTED, cursors: Mapping[str, str | None] | None = None
) -> dict[str, Listing]:
    """The open, the ongoing and the finished games, each newest activity first, a page of at most
    `limit` each (after `cursors[status]` when given), read from the games listing."""
    lists = {}
    for status in STATUSES:
        page = service.listings.page(limit, (cursors or {}).get(status), status=status)
        listed = [Listed.of(summary) for summary in page.items]
        held = Accounts(service.redis).seat_accounts([line.game_id for line in listed])
        lines = [replace(line, accounts=held.get(line.game_id, {})) for line in listed]
        lists[status] = Listing(lines, page.cursor)
    return lists


def index() -> Any:
    """The lobby page; ?open=, ?ongoing= and ?finished= page through each list (the cursor of its
    link)."""
    return _lobby(None, None)


def _lobby(problem: Mapping[str, Any] | None, taking: str | None) -> str:
    cursors = {status: request.args.get(status) or None for status in STATUSES}
    lists = recent_games(game_service(), LISTED, cursors)
    return render_template(
        "lobby.html",
        open_games=lists[OPEN],
        ongoing=lists[ONGOING],
        finished=lists[FINISHED],
        cursors=cursors,
        problem=problem,
        taking=taking,
    )


def _form_context(values: Mapping[str, str], problem: Mapping[str, Any] | None = None) -> dict[str, Any]:
    games = [
        (name, module.seat_counts(), module.min_seats, module.max_seats)
        for name, module in sorted(GAMES.items())
    ]
    return {
        "games": games,
        "option_fields": [field for _, module in sorted(GAMES.items()) for field in option_fields(module)],
        "option_words": option_words,
        "game_titles": {name: page.title for name, page in pages().items()},
        "ai_kinds": AI_KINDS,
        "levels": AI_LEVELS,
        "default_level": DEFAULT_AI_LEVEL,
        "form_seats": FORM_SEATS,
        "move_times": MOVE_TIME_CHOICES,
        "values": values,
        "problem": problem,
    }


def new_game_form() -> Any:
    """The form that creates a game."""
    return render_template("lobby_new.html", **_form_context({}))


def setup_from(form: Mapping[str, str]) -> dict[str, Any]:
    """The body of POST /games the form stands for (checked afterwards by its schema)."""
    game = form.get("game", "")
    seats: list[dict[str, Any]] = []
    rows: dict[str, int] = {}  # the form's row -> the seat it becomes, rows of nobody left out
    for n in range(FORM_SEATS):
        kind = form.get(f"seat-{n}", "none")
        if kind == "none":
            continue
        rows[str(n)] = len(seats)
        if kind == "open":
            seats.append({"open": True})  # whoever takes it names it
            continue
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
    seconds = form_move_time(form)
    if seconds is not None:
        setup["move_time"] = seconds
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
        return refused(422, "bad_form", str(error), None)
    except ValidationError as error:
        return refused(422, "validation_failed", "the form does not describe a game", error.messages)
    except DomainError as error:
        return refused(422, error.code, error.message, None)
    except ServiceError as error:
        return refused(SERVICE_STATUS.get(type(error), 409), error.code, error.message, None)
    links = []
    for seat, (entry, token) in enumerate(zip(setup["seats"], created.tokens, strict=True)):
        link = (
            None
            if token is None
            else url_for("web.play", game_id=created.game_id, _external=True) + f"#token={token}"
        )
        links.append(
            {
                "seat": seat,
                "name": entry.get("name", ""),
                "ai": entry.get("ai"),
                "open": entry.get("open"),
                "link": link,
            }
        )
    mine = next((entry for entry in links if entry["link"]), None)
    creator = signed_in()
    if creator is not None and mine is not None:
        accounts().bind_seat(creator, created.game_id, mine["seat"], created.tokens[mine["seat"]])
    waiting = any(entry["open"] for entry in links)
    if mine is not None and sum(1 for entry in links if entry["link"]) == 1 and not waiting:
        # One person against the computer: straight to the board, the token in the fragment.
        return redirect(mine["link"], 303), NO_STORE
    page = render_template(
        "lobby_created.html", game_id=created.game_id, game=setup["game"], links=links, mine=mine
    )
    return page, 201, NO_STORE


@command_limit
def take_seat(game_id: str, seat: int) -> Any:
    """Take an open seat from the lobby under the form's name: straight to that seat's page, the
    token in the fragment as an invite link has it; the lobby again with the reason if refused."""
    name = request.form.get("name", "").strip()
    taking = f"{game_id}:{seat}"
    try:
        body = OpenSeatRequestSchema().load({"name": name})
        holder = seat_holder(body["name"])
        _, token = game_service().take_seat(game_id, seat, body["name"])
        if holder is not None:
            accounts().bind_seat(holder, game_id, seat, token)
    except ValidationError:
        problem = {"code": "bad_name", "detail": "a name is 1-64 characters, not all blank"}
        return _lobby(problem, taking), 422, NO_STORE
    except ServiceError as error:
        status = next((SERVICE_STATUS[c] for c in type(error).__mro__ if c in SERVICE_STATUS), 409)
        return _lobby({"code": error.code, "detail": error.message}, taking), status, NO_STORE
    link = url_for("web.play", game_id=game_id) + f"#token={token}"
    return redirect(link, 303), NO_STORE


def refused(status: int, code: str, detail: str, errors: Any) -> Any:
    """A refused form: problem+json for an API client, the form again with the reason for a person."""
    problem = {"type": "about:blank", "title": "Refused", "status": status, "code": code, "detail": detail}
    if errors:
        problem["errors"] = errors
    best = request.accept_mimetypes.best_match(["text/html", "application/json", PROBLEM_JSON], "text/html")
    if best != "text/html":
        return json.dumps(problem), status, {"Content-Type": PROBLEM_JSON}
    return render_template("lobby_new.html", **_form_context(request.form, problem)), status
