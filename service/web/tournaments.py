"""The tournament pages: `/t` lists the tournaments, `/t/<id>` shows one (entrants, pairings
with a link to each game, standings, crosstable) and takes a person's registration, with the
public key of the browser that registers when the person's moves are to be signed.

Everything shown is the public view the JSON API gives a reader without a token; a person's
entrant token lives in the browser only (the URL fragment, then `localStorage`), as a seat's does.
"""

from __future__ import annotations

import json
from typing import Any

from flask import redirect, render_template, request, url_for
from marshmallow import ValidationError

from domain.decider import DomainError
from domain.tournament_rules import CLOSED, RUNNING
from replays import tournament_reports
from service.api.account_context import accounts
from service.api.account_context import signed_in as current_account
from service.api.context import tournament_service
from service.api.problems import PROBLEM_JSON, SERVICE_STATUS
from service.api.rate_limits import command_limit
from service.api.tournament_schemas import MAX_ENTRANT_NAME, RegisterSchema
from service.api.tournaments import _newcomer, tournament_view
from service.errors import ServiceError, Unprocessable
from service.listing_index import Page
from service.players import Players, is_player_token
from service.seat_keys import checked_key
from service.tournaments import LoadedTournament, TournamentService
from service.web.tournament_words import entrant_state, phase_text, round_text

#: How many tournaments `/t` lists, newest activity first.
LISTED = 50
NO_STORE = {"Cache-Control": "no-store"}
MAX_KEY_TEXT = 1000
"""A P-256 JWK as WebCrypto exports it is under 200 characters."""


def recent_tournaments(service: TournamentService, limit: int = LISTED, cursor: str | None = None) -> Page:
    """A page of the tournaments with the newest activity, at most `limit`, from the listing."""
    return service.listings.page(limit, cursor)


def index() -> Any:
    """The list of tournaments; ?after= pages through it (the cursor of its link)."""
    page = recent_tournaments(tournament_service(), LISTED, request.args.get("after") or None)
    return render_template(
        "tournaments.html", tournaments=page.items, more=page.cursor, paged=bool(request.args.get("after"))
    )


def registration_open(view: dict[str, Any]) -> bool:
    """Whether a person may register now: before the start, or while running with late entry."""
    return view["phase"] != CLOSED and (view["phase"] != RUNNING or bool(view["late_entry"]))


def context(loaded: LoadedTournament) -> dict[str, Any]:
    """What the tournament page shows: the view and the reports made from it."""
    view = tournament_view(loaded, None)
    return {
        "t": view,
        "names": tournament_reports.names(view),
        "pairings": tournament_reports.pairings(view),
        "crosstable": tournament_reports.crosstable(view),
        "cell_text": tournament_reports.cell_text,
        "figure": tournament_reports.figure,
        "registration_open": registration_open(view),
        "max_name": MAX_ENTRANT_NAME,
        "phase_text": phase_text(view),
        "round_text": lambda round_: round_text(view, round_),
        "entrant_state": lambda entrant: entrant_state(view, entrant),
        "organizer": None,
    }


def page(tournament_id: str) -> Any:
    """One tournament's page."""
    loaded = tournament_service().load(tournament_id)
    return render_template("tournament.html", **context(loaded), problem=None, fields={}), NO_STORE


@command_limit
def register(tournament_id: str) -> Any:
    """Register the person the form names; 303 to the page with the entrant token in the fragment."""
    service = tournament_service()
    try:
        body = RegisterSchema().load({"name": request.form.get("name", "").strip()})
        key = form_key(request.form.get("public_key", ""))
        if key is not None:
            body["public_key"] = key
        player = form_player(service, request.form.get("player_token", "").strip())
        signed_in = current_account()
        if player is None and signed_in is not None:
            player = signed_in.player  # the account's ratings follow it (docs/accounts.md)
        if player is not None:
            body["player"] = player
        executed = service.execute(tournament_id, _newcomer, {"type": "RegisterEntrant", **body})
    except ValidationError as error:
        return _refused(tournament_id, 422, "validation_failed", "the form names nobody", error.messages)
    except DomainError as error:
        message = KEY_REQUIRED if error.code == "key_required" else error.message
        about = None if error.field is None else {error.field: [message]}
        return _refused(tournament_id, 422, error.code, message, about)
    except ServiceError as error:
        about = getattr(error, "members", {}).get("errors")
        return _refused(tournament_id, SERVICE_STATUS.get(type(error), 409), error.code, error.message, about)
    entrant = executed.envelopes[0].data["entrant"]
    token = service.tokens.issue_entrant(tournament_id, entrant)
    if signed_in is not None:
        accounts().bind_entrant(signed_in, tournament_id, str(entrant))
    link = url_for("web.tournament", tournament_id=tournament_id) + f"#token={token}"
    return redirect(link, 303), NO_STORE


def form_player(service: TournamentService, token: str) -> str | None:
    """The player whose token the form gives (from POST /players), so that the person's ratings
    follow it from tournament to tournament; None when the field is empty (a one-off player).
    422 invalid_token, naming the field, for a token no player holds."""
    if not token:
        return None
    player = Players(service.redis).player_of(token) if is_player_token(token) else None
    if player is None:
        message = "no player holds this token: give the one POST /players gave you, or leave it empty"
        raise Unprocessable("invalid_token", message, errors={"player_token": [message]})
    return player


def form_key(text: str) -> dict[str, str] | None:
    """The public key the page's script put in the form's hidden field (the JWK as JSON), in its
    recorded form; None when the field is empty (no script, or a person who signs nothing). 422
    invalid_key when it is no P-256 or Ed25519 public JWK."""
    if not text.strip():
        return None
    value = None
    if len(text) <= MAX_KEY_TEXT:  # a deep nesting past this would be Python's RecursionError
        try:
            value = json.loads(text)
        except ValueError:
            value = None
    return checked_key(value)


#: The form's fields by the name a refusal gives them, and the words the page puts before them.
FORM_FIELDS = {"name": "Your name", "public_key": "Your signing key", "player_token": "Your player token"}
#: What a person without the page's script reads when a tournament needs a key (key_required).
KEY_REQUIRED = (
    "this tournament's moves are signed: registering takes a browser that runs this page's script "
    "with WebCrypto (over https), which makes the key that signs your moves"
)


def field_errors(errors: Any) -> dict[str, str]:
    """A refusal's `errors` ({field: [messages]}) in words, one sentence per field: the form's
    fields under their own names (shown next to them), any other under "" (shown with the reason)."""
    if not isinstance(errors, dict):
        return {}
    said: dict[str, list[str]] = {}
    for name, messages in errors.items():
        texts = messages if isinstance(messages, list) else [messages]
        words = " ".join(str(m) for m in texts)
        if name in FORM_FIELDS:
            said.setdefault(name, []).append(f"{FORM_FIELDS[name]}: {words}")
        else:
            said.setdefault("", []).append(words if name == "_schema" else f"{name}: {words}")
    return {name: " ".join(texts) for name, texts in said.items()}


def _refused(tournament_id: str, status: int, code: str, detail: str, errors: Any) -> Any:
    """A refused registration: problem+json for an API client, the page with the reason for a person."""
    problem: dict[str, Any] = {
        "type": "about:blank", "title": "Refused", "status": status, "code": code, "detail": detail,
    }  # fmt: skip
    if errors:
        problem["errors"] = errors
    best = request.accept_mimetypes.best_match(["text/html", "application/json", PROBLEM_JSON], "text/html")
    if best != "text/html":
        return json.dumps(problem), status, {"Content-Type": PROBLEM_JSON}
    loaded = tournament_service().load(tournament_id)
    shown = render_template(
        "tournament.html", **context(loaded), problem=problem, fields=field_errors(errors)
    )
    return shown, status, NO_STORE
