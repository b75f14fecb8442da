"""Tournaments over HTTP: create, register and withdraw, the organizer's commands, an entrant's
own game, and the tournament's events, live stream and view.

Tokens: the organizer's (from POST /tournaments) sends the organizer's commands and may
register AI entrants; an entrant's (from its registration) reads /me and withdraws that
entrant; anyone reads a tournament. Each entrant plays its games with the seat token /me
hands it, valid in that game only.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, url_for

from domain.actor import ORGANIZER, Actor
from domain.tournament_rules import AI, State, Table, entrant_id, rules
from record.deal import tournament_revealed
from record.receipts import TOURNAMENT
from record.redaction import redact
from service.api.account_context import SESSION_SECURITY, accounts, signed_in
from service.api.auth import BEARER_SECURITY, HEADER_FORM, presented_token
from service.api.blueprint import Blueprint
from service.api.context import signer, tournament_service
from service.api.games import IDEMPOTENCY_KEY, LAST_EVENT_ID, _last_event_id
from service.api.preconditions import idempotency_key, if_match_version, not_modified, version_headers
from service.api.rate_limits import command_limit, creation_limit
from service.api.schemas import AfterSchema
from service.api.tournament_schemas import (
    CreateTournamentSchema,
    MeSchema,
    RegisteredSchema,
    RegisterSchema,
    TournamentCommandSchema,
    TournamentCreatedSchema,
    TournamentEventsSchema,
    TournamentExecutedSchema,
)
from service.api.tournament_stream import follow_tournament, sse_response
from service.api.tournament_view_schemas import TournamentViewSchema
from service.errors import Forbidden, TournamentNotFound, Unauthorized
from service.players import Players, is_player_token
from service.seat_keys import checked_key
from service.tournaments import LoadedTournament, TournamentExecuted, TournamentService

blp = Blueprint("tournaments", __name__, description="Run tournaments: entrants, rounds, results.")

IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "schema": {"type": "string"},
    "description": 'The tournament version the command expects, as the ETag: "12".',
}


def tournament_actor(service: TournamentService, tournament_id: str) -> Actor | None:
    """Who the presented token speaks for: the organizer, an entrant (as seat n for entrant
    e<n>), or None without a token. A token that is neither is refused (401)."""
    token = presented_token()
    if token is None:
        if not service.store.exists(tournament_id):
            raise TournamentNotFound(tournament_id)
        return None
    if service.tokens.is_organizer(tournament_id, token):
        return ORGANIZER
    entrant = service.tokens.entrant_of(tournament_id, token)
    if entrant is not None:
        return Actor.of_seat(int(entrant[1:]))
    if not service.store.exists(tournament_id):
        raise TournamentNotFound(tournament_id)
    raise Unauthorized("invalid_token", "this token is neither the organizer's nor an entrant's here")


def required_actor(service: TournamentService, tournament_id: str) -> Actor:
    actor = tournament_actor(service, tournament_id)
    if actor is None:
        raise Unauthorized(
            "token_required", f"this needs the organizer's or an entrant's token: {HEADER_FORM}"
        )
    return actor


def executed_answer(executed: TournamentExecuted) -> dict[str, Any]:
    revealed = tournament_revealed(executed.loaded.envelopes)  # the lots' seed, once closed
    events = [redact(e, None, revealed) for e in executed.envelopes]
    answer = {"version": executed.version, "events": events, "duplicate": executed.duplicate}
    return {**answer, "receipt": receipt(executed)}


def receipt(executed: TournamentExecuted) -> dict[str, Any]:
    """The service's signed receipt of the tournament's version the change reached."""
    return signer().receipt(TOURNAMENT, executed.loaded.tournament_id, executed.envelopes[-1])


def tournament_view(loaded: LoadedTournament, viewer: Actor | None) -> dict[str, Any]:
    view = rules.view(loaded.state, viewer)
    broken = None if loaded.broken is None else {"version": loaded.broken}
    return {**view, "tournament_id": loaded.tournament_id, "version": loaded.version, "chain_broken": broken}


@blp.post("/tournaments")
@creation_limit
@blp.arguments(CreateTournamentSchema)
@blp.response(201, TournamentCreatedSchema)
def create_tournament(settings: dict[str, Any]) -> Any:
    """Create a tournament; the answer holds the organizer's token (shown only once)."""
    tournament_id, version, token = tournament_service().create(settings)
    headers = {
        "Location": url_for(".get_tournament", tournament_id=tournament_id),
        **version_headers(version),
    }
    return {"tournament_id": tournament_id, "version": version, "organizer_token": token}, headers


@blp.get("/tournaments/<tournament_id>")
@blp.doc(security=[{}, *BEARER_SECURITY])
@blp.response(200, TournamentViewSchema)
def get_tournament(tournament_id: str) -> Any:
    """The tournament: settings, entrants, tables, byes and standings; `you` names the token's entrant."""
    service = tournament_service()
    viewer = tournament_actor(service, tournament_id)
    loaded = service.load(tournament_id)
    unchanged = not_modified(loaded.version) if loaded.broken is None else None
    if unchanged is not None:
        return unchanged
    return tournament_view(loaded, viewer), version_headers(loaded.version)


def registrant(service: TournamentService, tournament_id: str) -> tuple[Actor | None, str | None]:
    """Who registers and as which player: a player's token names the player (a person
    registering itself); any other token is the organizer's or an entrant's, as elsewhere.
    A player token no player holds is refused (401) before anything is written."""
    token = presented_token()
    if token is None or not is_player_token(token):
        return tournament_actor(service, tournament_id), None
    player = Players(service.redis).player_of(token)
    if player is None:
        raise Unauthorized("invalid_token", "no player holds this token: send one POST /players gave")
    if not service.store.exists(tournament_id):
        raise TournamentNotFound(tournament_id)
    return None, player


def _newcomer(state: State) -> Actor:
    """A person registering itself acts as the entrant it is about to become."""
    return Actor.of_seat(len(state.entrants) + 1)


@blp.post("/tournaments/<tournament_id>/entrants")
@blp.doc(security=[{}, *BEARER_SECURITY, *SESSION_SECURITY], parameters=[IDEMPOTENCY_KEY])
@command_limit
@blp.arguments(RegisterSchema)
@blp.response(201, RegisteredSchema)
def register(body: dict[str, Any], tournament_id: str) -> Any:
    """Register a person (anyone; the answer holds its entrant token, shown only once) or an
    AI entrant (the organizer's token only). A person who sends its player token (from POST
    /players) as the bearer token registers as that player, and its ratings follow it from
    tournament to tournament; so does a person registering with an account's session (the
    account's player, docs/accounts.md); without either, the entrant is a one-off player of this
    tournament alone. A retry with the same Idempotency-Key hands out a new entrant token: the one of
    the lost answer stops working."""
    service = tournament_service()
    actor, player = registrant(service, tournament_id)
    holder = signed_in() if player is None and actor != ORGANIZER and body["kind"] != AI else None
    if holder is not None:
        player = holder.player
    if body["kind"] == AI and actor != ORGANIZER:
        raise Forbidden("organizer_only", "only the organizer registers AI entrants")
    who = ORGANIZER if actor == ORGANIZER else _newcomer
    if "public_key" in body:
        body["public_key"] = checked_key(body["public_key"])
    command = {"type": "RegisterEntrant", **body, **({} if player is None else {"player": player})}
    executed = service.execute(tournament_id, who, command, if_match_version(), idempotency_key())
    registered = executed.envelopes[0].data
    if holder is not None:
        accounts().bind_entrant(holder, tournament_id, str(registered["entrant"]))
    answer = {
        "entrant": registered["entrant"],
        "player": registered.get("player"),
        "version": executed.version,
        "receipt": receipt(executed),
    }
    if registered["kind"] != AI:
        answer["token"] = service.tokens.issue_entrant(tournament_id, registered["entrant"])
    return answer, version_headers(executed.version)


@blp.post("/tournaments/<tournament_id>/entrants/<entrant>/withdraw")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY])
@blp.response(200, TournamentExecutedSchema)
def withdraw(tournament_id: str, entrant: str) -> Any:
    """Withdraw an entrant: the organizer any, an entrant itself; a game it plays is forfeited."""
    service = tournament_service()
    actor = required_actor(service, tournament_id)
    if actor.seat is not None and entrant_id(actor.seat) != entrant:
        # the token holds no right over another entrant: a matter of credentials, not of the rules
        raise Forbidden("not_your_entrant", "an entrant's token withdraws that entrant only")
    body = {"type": "WithdrawEntrant", "entrant": entrant}
    executed = service.execute(tournament_id, actor, body, if_match_version(), idempotency_key())
    return executed_answer(executed), version_headers(executed.version)


@blp.post("/tournaments/<tournament_id>/commands")
@blp.doc(security=BEARER_SECURITY, parameters=[IF_MATCH, IDEMPOTENCY_KEY])
@blp.arguments(TournamentCommandSchema)
@blp.response(200, TournamentExecutedSchema)
def post_command(body: dict[str, Any], tournament_id: str) -> Any:
    """The organizer's commands: start, pair the next round, correct a result (with a reason),
    forfeit a seat, give a bye, withdraw an entrant, close."""
    service = tournament_service()
    if required_actor(service, tournament_id) != ORGANIZER:
        raise Forbidden("organizer_only", "only the organizer's token sends these commands")
    executed = service.execute(tournament_id, ORGANIZER, body, if_match_version(), idempotency_key())
    return executed_answer(executed), version_headers(executed.version)


def game_finished(service: TournamentService, game_id: str) -> bool:
    """Whether the game itself has ended: by its rules, or by a forfeit written on it (GameForfeited)."""
    game = service.games.load(game_id)
    return game.over


def forfeited_seat(table: Table) -> int | None:
    """The seat the tournament forfeited at this table (placed last alone), None without a forfeit."""
    result = table.result
    if result is None or result.how != "forfeit":
        return None
    return result.places.index(max(result.places))


@blp.get("/tournaments/<tournament_id>/me")
@blp.doc(security=BEARER_SECURITY)
@blp.response(200, MeSchema)
def me(tournament_id: str) -> Any:
    """The token's entrant: its game of the newest round it plays, with its seat token there."""
    service = tournament_service()
    actor = required_actor(service, tournament_id)
    if actor.seat is None:
        raise Forbidden("not_an_entrant", "the organizer is no entrant: send an entrant's token")
    token = presented_token()
    assert token is not None
    loaded = service.load(tournament_id)
    state = loaded.state
    mine = entrant_id(actor.seat)
    entrant = state.entrant(mine)
    assert entrant is not None
    tables = [t for t in state.tables if mine in t.seats and t.game_id is not None]
    game = None
    if tables:
        table = tables[-1]
        seat = table.seats.index(mine)
        assert table.game_id is not None
        game = {
            "game_id": table.game_id,
            "round": table.round,
            "table": table.index,
            "seat": seat,
            "seat_token": service.tokens.seat_token(token, table.game_id, seat),
            "url": url_for("games.get_game", game_id=table.game_id),
            "finished": game_finished(service, table.game_id),
            "forfeited_seat": forfeited_seat(table),
        }
    body = {
        "entrant": mine,
        "name": entrant.name,
        "round": state.round,
        "withdrawn": entrant.withdrawn is not None,
        "game": game,
        "bye": state.bye_of(state.round, mine) is not None,
    }
    return body, {"Vary": "Authorization"}


@blp.get("/tournaments/<tournament_id>/events")
@blp.response(200, TournamentEventsSchema)
@blp.arguments(AfterSchema, location="query")
def get_events(query: dict[str, Any], tournament_id: str) -> Any:
    """The tournament's events after `after`: every registration, pairing, result and correction."""
    loaded = tournament_service().load(tournament_id)
    revealed = tournament_revealed(loaded.envelopes)  # the lots' seed, once closed
    events = [redact(e, None, revealed) for e in loaded.envelopes[query["after"] :]]
    return {"version": loaded.version, "events": events}, version_headers(loaded.version)


@blp.get("/tournaments/<tournament_id>/stream")
@blp.doc(parameters=[LAST_EVENT_ID])
@blp.response(
    200,
    content_type="text/event-stream",
    description="One message per event (id: version, event: its type, data: the event as JSON) and, "
    "after each result, a `standings` message; closes when the tournament is closed or after "
    "SSE_MAX_SECONDS without events.",
)
@blp.arguments(AfterSchema, location="query")
def stream(query: dict[str, Any], tournament_id: str) -> Any:
    """Server-Sent Events of the tournament, live: pairings, results and standings."""
    after = _last_event_id(query["after"])
    service = tournament_service()
    loaded = service.load(tournament_id)
    config = current_app.config
    frames = follow_tournament(
        service, loaded, after, float(config["SSE_MAX_SECONDS"]), float(config["SSE_HEARTBEAT_SECONDS"])
    )
    return sse_response(frames)
