"""The account pages: sign up, sign in (password or passkey), the account page (add a passkey,
sign out) and a player's page (games, results, ratings per game, tournaments).

The forms post here and answer with a page; the passkey buttons talk to the JSON API
(service/api/accounts.py) through static/accounts.js, since a passkey ceremony is a script's.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

import service.api.account_context as current
from domain.games import GAMES
from service.accounts.sessions import COOKIE, clear_cookie, set_cookie
from service.accounts.store import Account
from service.api.context import game_service, tournament_service
from service.api.rate_limits import creation_limit
from service.errors import ServiceError
from service.games_index import FINISHED, summary_of
from service.ratings_projection import RatingsProjection

NO_STORE = {"Cache-Control": "no-store"}
SHOWN_GAMES = 20


def install(app: Flask) -> None:
    """Every page knows who is signed in (the navigation shows it)."""
    app.context_processor(lambda: {"account": current.signed_in()})


def _next_page() -> str:
    """Where to go after signing in: a path of this site only, never another site's address."""
    wanted = request.values.get("next", "")
    return wanted if wanted.startswith("/") and not wanted.startswith("//") else url_for("web.account")


def _signed_in_to(account: Account, status: int = 303) -> Response:
    before = request.cookies.get(COOKIE)
    if before:
        current.sessions().end(before)
    answer = redirect(_next_page(), status)
    set_cookie(answer, request, current.sessions().open(account.key))
    answer.headers.update(NO_STORE)
    return answer


def sign_up_form() -> Any:
    return render_template("sign_up.html", problem=None, name="")


@creation_limit
def sign_up() -> Any:
    name, password = request.form.get("name", ""), request.form.get("password", "")
    try:
        created = current.accounts().create(name, password)
    except ServiceError as error:
        status = 409 if error.code == "name_taken" else 422
        return render_template("sign_up.html", problem=error.message, name=name), status, NO_STORE
    return _signed_in_to(created)


def sign_in_form() -> Any:
    return render_template("sign_in.html", problem=None, name="", next=_next_page())


@creation_limit
def sign_in() -> Any:
    name, password = request.form.get("name", ""), request.form.get("password", "")
    try:
        found = current.accounts().signed_in(name, password)
    except ServiceError as error:
        status = 429 if error.code == "too_many_attempts" else 401
        page = render_template("sign_in.html", problem=error.message, name=name, next=_next_page())
        return page, status, NO_STORE
    return _signed_in_to(found)


def sign_out() -> Any:
    session_id = request.cookies.get(COOKIE)
    if session_id:
        current.sessions().end(session_id)
    answer = redirect(url_for("web.index"), 303)
    clear_cookie(answer, request)
    return answer


def account() -> Any:
    found = current.signed_in()
    if found is None:
        page = render_template("sign_in.html", problem=None, name="", next=url_for("web.account"))
        return page, 200, NO_STORE
    passkeys = len(current.passkeys().credential_ids(found))
    return render_template("account.html", me=found, passkeys=passkeys), 200, NO_STORE


def player(name: str) -> Any:
    """A player's page: the account's games (newest first), their results, its ratings per
    game kind and its tournaments."""
    found = current.accounts().get(name)
    if found is None:
        abort(404)
    return render_template(
        "player.html",
        player=found,
        games=_games(found),
        ratings=_ratings(found),
        tournaments=_tournaments(found),
    )


def _games(account: Account) -> list[dict[str, Any]]:
    service = game_service()
    shown = []
    for game_id, seat in current.accounts().seats(account, SHOWN_GAMES):
        try:
            summary = summary_of(service.load(game_id))
        except ServiceError:
            continue  # archived or gone: the page lists what can be opened
        names = [s["name"] for s in summary["seats"]]
        shown.append(
            {
                "game_id": game_id,
                "game": summary["game"],
                "seat": seat,
                "opponents": [n for i, n in enumerate(names) if i != seat],
                "outcome": _outcome(summary, seat),
            }
        )
    return shown


def _outcome(summary: dict[str, Any], seat: int) -> str:
    if summary["status"] != FINISHED:
        return "playing" if summary["status"] != "open" else "waiting for players"
    result = summary["result"] or {}
    winner = result.get("winner")
    if winner is None:
        return "ended without a winner"
    return "won" if winner == seat else "lost"


def _ratings(account: Account) -> list[dict[str, Any]]:
    service = tournament_service()
    projection = RatingsProjection(service.redis, service.store)
    rated = []
    for game in sorted(GAMES):
        _, players = projection.ratings(game)
        for entry in players:
            if entry.get("player") == account.player:
                rated.append({"game": game, **entry})
    return rated


def _tournaments(account: Account) -> list[dict[str, Any]]:
    service = tournament_service()
    shown = []
    for tournament_id, entrant in current.accounts().tournaments(account):
        try:
            settings = service.load(tournament_id).state.settings
        except ServiceError:
            continue
        shown.append({"id": tournament_id, "entrant": entrant, "name": settings.name, "game": settings.game})
    return shown
