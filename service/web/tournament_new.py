"""`/t/new`: the form that creates a tournament, every setting of docs/tournaments.md.

The form's body is checked by the same schema as POST /tournaments (CreateTournamentSchema)
and then by the rules; each refusal is shown next to the field it names. A created
tournament's organizer lands on its organizer's page with the organizer's token in the URL
fragment, which no browser sends to a server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import redirect, render_template, request, url_for
from marshmallow import ValidationError

from domain.decider import DomainError
from domain.games import GAMES
from service.api.context import tournament_service
from service.api.problems import PROBLEM_JSON, SERVICE_STATUS
from service.api.rate_limits import creation_limit
from service.api.tournament_schemas import FORMATS, MAX_ROUNDS, MAX_TIME_LIMIT, CreateTournamentSchema
from service.errors import ServiceError
from service.web.option_fields import chosen_options, option_fields

NO_STORE = {"Cache-Control": "no-store"}
#: The form's fields, by the setting they stand for, and the words of their labels.
LABELS = {
    "name": "Name",
    "game": "Game",
    "format": "Format",
    "rounds": "Rounds",
    "double": "Double round robin",
    "rated": "Rated",
    "move_time_limit": "Move time limit",
    "late_entry": "Late entries",
    "signed_moves": "Signed moves",
    "placement_points": "Placement points",
    "options": "Game options",
}
TABLE_SIZES = ("4", "3")


class FieldError(ValueError):
    """A form field that does not read as its setting."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _whole(form: Mapping[str, str], field: str) -> int | None:
    raw = form.get(field, "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise FieldError(field, "a whole number") from None


def _points(form: Mapping[str, str]) -> dict[str, list[int]] | None:
    given = {}
    for size in TABLE_SIZES:
        raw = form.get(f"points-{size}", "").strip()
        if raw:
            try:
                given[size] = [int(part) for part in raw.replace(",", " ").split()]
            except ValueError:
                raise FieldError(
                    "placement_points", f"a table of {size}: whole numbers, e.g. 6 4 2 0"
                ) from None
    return given or None


def _options(game: str, form: Mapping[str, str]) -> dict[str, Any]:
    raw = form.get("options", "").strip()
    try:
        options = json.loads(raw) if raw else {}
    except json.JSONDecodeError as error:
        raise FieldError("options", f"not JSON ({error.msg})") from None
    if not isinstance(options, dict):
        raise FieldError("options", "a JSON object, e.g. {}")
    module = GAMES.get(game)
    for name, value in chosen_options(option_fields(module) if module else [], form).items():
        options.setdefault(name, value)  # what the JSON names wins, as on the new-game form
    return options


def settings_from(form: Mapping[str, str]) -> dict[str, Any]:
    """The body of POST /tournaments the form stands for (checked afterwards by its schema)."""
    game = form.get("game", "")
    settings: dict[str, Any] = {
        "name": form.get("name", "").strip(),
        "game": game,
        "format": form.get("format", ""),
    }
    for field in ("rounds", "move_time_limit"):
        value = _whole(form, field)
        if value is not None:
            settings[field] = value
    # A checkbox left clear posts nothing: the form always posts `rated`'s state.
    settings["rated"] = form.get("rated") == "on"
    for flag in ("double", "late_entry", "signed_moves"):
        if form.get(flag) == "on":
            settings[flag] = True
    points = _points(form)
    if points is not None:
        settings["placement_points"] = points
    options = _options(game, form)
    if options:
        settings["options"] = options
    return settings


def _words(messages: Any) -> str:
    """A schema's messages for one field (a list, or a mapping for a nested field) as text."""
    if isinstance(messages, Mapping):
        return " ".join(f"{key}: {_words(inner)}" for key, inner in messages.items())
    if isinstance(messages, list):
        return " ".join(_words(m) for m in messages)
    return str(messages)


def field_errors(errors: Mapping[str, Any]) -> dict[str, str]:
    """{setting: words} for the form's fields, any other under "" (said with the reason)."""
    said: dict[str, list[str]] = {}
    for name, messages in errors.items():
        field = name.split(".")[0]
        key = field if field in LABELS else ""
        said.setdefault(key, []).append(
            _words(messages) if key or name == "_schema" else f"{name}: {_words(messages)}"
        )
    return {name: " ".join(texts) for name, texts in said.items()}


def _form_context(
    values: Mapping[str, str], problem: Mapping[str, Any] | None, fields: Mapping[str, str]
) -> dict[str, Any]:
    return {
        "games": sorted(GAMES),
        "formats": FORMATS,
        "option_fields": [field for _, module in sorted(GAMES.items()) for field in option_fields(module)],
        "values": values,
        "fresh": not values,
        "problem": problem,
        "fields": fields,
        "labels": LABELS,
        "max_rounds": MAX_ROUNDS,
        "max_time_limit": MAX_TIME_LIMIT,
    }


def new_tournament_form() -> Any:
    """The form that creates a tournament."""
    return render_template("tournament_new.html", **_form_context({}, None, {})), NO_STORE


@creation_limit
def create_tournament() -> Any:
    """Create the tournament the form describes; 303 to its organizer's page, the token in the fragment."""
    try:
        settings = CreateTournamentSchema().load(settings_from(request.form))
        tournament_id, _, token = tournament_service().create(settings)
    except FieldError as error:
        return _refused(422, "bad_form", "a field does not read", {error.field: [str(error)]})
    except ValidationError as error:
        messages = error.messages if isinstance(error.messages, dict) else {"_schema": error.messages}
        return _refused(422, "invalid_request", "the form does not describe a tournament", messages)
    except DomainError as error:
        # the rules name a setting, or a game's option by its own name
        field = error.field or "_schema"
        if field != "_schema" and field.split(".")[0] not in LABELS:
            field = "options"
        return _refused(422, error.code, error.message, {field: [error.message]})
    except ServiceError as error:
        return _refused(SERVICE_STATUS.get(type(error), 409), error.code, error.message, None)
    link = url_for("web.organize_tournament", tournament_id=tournament_id) + f"#organizer={token}"
    return redirect(link, 303), NO_STORE


def _refused(status: int, code: str, detail: str, errors: Mapping[str, Any] | None) -> Any:
    """A refused form: problem+json for an API client, the form again with each reason next to its field."""
    problem: dict[str, Any] = {
        "type": "about:blank",
        "title": "Refused",
        "status": status,
        "code": code,
        "detail": detail,
    }
    if errors:
        problem["errors"] = dict(errors)
    best = request.accept_mimetypes.best_match(["text/html", "application/json", PROBLEM_JSON], "text/html")
    if best != "text/html":
        return json.dumps(problem), status, {"Content-Type": PROBLEM_JSON}
    shown = render_template(
        "tournament_new.html", **_form_context(request.form, problem, field_errors(errors or {}))
    )
    return shown, status, NO_STORE
