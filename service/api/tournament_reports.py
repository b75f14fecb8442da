"""A tournament's reports over HTTP: standings, crosstable and pairings (JSON, CSV, TRF), the
audit of every stream read afresh from the store, the bundle, and the ratings per game."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, request, url_for
from marshmallow import Schema

from domain.games import GAMES
from domain.tournament_rules import SWISS, rules
from record.envelope import Envelope
from replays import tournament_reports, tournament_trf
from replays.bundle import MEDIA_TYPE, write_bundle
from replays.tournament_audit import TOURNAMENT, AuditReport, BrokenPlace, assigned_games, audit, game_stream
from service.api.blueprint import Blueprint
from service.api.context import signer, tournament_service
from service.api.preconditions import version_headers
from service.api.tournament_schemas import AuditSchema, RatingsSchema, ReportQuerySchema
from service.api.tournament_view_schemas import (
    CrosstableReportSchema,
    PairingsReportSchema,
    StandingsReportSchema,
)
from service.errors import ChainBroken, ChainTruncated, Conflict, TournamentNotFound, UnknownGame
from service.ratings_projection import RatingsProjection
from service.tournaments import LoadedTournament

blp = Blueprint("tournament_reports", __name__, description="Tournament reports, audit, export and ratings.")

CSV, TRF = "text/csv", "text/plain"
View = Mapping[str, Any]


def _documented(json_description: str, schema: type[Schema], *other: str) -> dict[str, Any]:
    """The 200 answer of a report: JSON of `schema`, or the other media types `?format=` (or
    Accept) asks for."""
    content: dict[str, Any] = {"application/json": {"schema": schema}}
    content.update({media: {"schema": {"type": "string"}} for media in other})
    return {"responses": {"200": {"description": json_description, "content": content}}}


def _format(query: Mapping[str, Any]) -> str:
    """json, csv or trf: ?format= first, else Accept (text/csv), else json."""
    if query.get("format"):
        return str(query["format"])
    return "csv" if request.accept_mimetypes.best == CSV else "json"


def _view(tournament_id: str) -> tuple[LoadedTournament, View]:
    loaded = tournament_service().load(tournament_id)
    return loaded, rules.view(loaded.state, None)


def _report(
    tournament_id: str,
    query: Mapping[str, Any],
    as_json: Callable[[View], Any],
    as_csv: Callable[[View], str],
    as_trf: Callable[[View], str] | None = None,
) -> Any:
    loaded, view = _view(tournament_id)
    headers = version_headers(loaded.version)
    chosen = _format(query)
    if chosen == "csv":
        return Response(as_csv(view), mimetype=CSV, headers=headers)
    if chosen == "trf":
        if as_trf is None or loaded.state.settings.format != SWISS:
            raise Conflict("trf_swiss_only", "a FIDE TRF file is written for the pairings of a Swiss only")
        return Response(as_trf(view), mimetype=TRF, headers=headers)
    body = {
        "tournament_id": tournament_id,
        "version": loaded.version,
        **as_json(view),
        "games": links(loaded),
    }
    return Response(json.dumps(body), mimetype="application/json", headers=headers)


def links(loaded: LoadedTournament) -> dict[str, dict[str, str]]:
    """Each game of the tournament: its page (the game for a player) and its replay."""
    games = [t.game_id for t in loaded.state.tables if t.game_id is not None]
    return {
        g: {"game": url_for("games.get_game", game_id=g), "replay": url_for("replays.get_replay", game_id=g)}
        for g in games
    }


@blp.get("/tournaments/<tournament_id>/standings")
@blp.arguments(ReportQuerySchema, location="query")
@blp.doc(**_documented("The standings with every tie-break, first first.", StandingsReportSchema, CSV))
def standings(query: dict[str, Any], tournament_id: str) -> Any:
    """The standings: points, island points, Buchholz, Sonneborn-Berger, direct encounter, lot."""
    return _report(
        tournament_id, query, lambda v: {"standings": v["standings"]}, tournament_reports.standings_csv
    )


@blp.get("/tournaments/<tournament_id>/crosstable")
@blp.arguments(ReportQuerySchema, location="query")
@blp.doc(
    **_documented(
        "Each entrant's result against each opponent, with a link to each game.", CrosstableReportSchema, CSV
    )
)
def crosstable(query: dict[str, Any], tournament_id: str) -> Any:
    """The crosstable."""
    return _report(tournament_id, query, tournament_reports.crosstable, tournament_reports.crosstable_csv)


@blp.get("/tournaments/<tournament_id>/pairings")
@blp.arguments(ReportQuerySchema, location="query")
@blp.doc(
    **_documented(
        "Every round's tables and byes, each game's result and link.", PairingsReportSchema, CSV, TRF
    )
)
def pairings(query: dict[str, Any], tournament_id: str) -> Any:
    """The pairings per round; a Swiss's also as a FIDE TRF file (?format=trf)."""
    return _report(
        tournament_id,
        query,
        lambda v: {"rounds": tournament_reports.pairings(v)},
        tournament_reports.pairings_csv,
        tournament_trf.trf,
    )


def stored_streams(tournament_id: str) -> tuple[list[Envelope], dict[str, list[Envelope]]]:
    """The tournament's events and every game it assigned, each read from the store now."""
    service = tournament_service()
    envelopes = service.store.read(tournament_id)
    if not envelopes:
        raise TournamentNotFound(tournament_id)
    return envelopes, {g: service.games.store.read(g) for g in assigned_games(envelopes)}


@blp.get("/tournaments/<tournament_id>/audit")
@blp.response(200, AuditSchema)
def audit_tournament(tournament_id: str) -> Any:
    """The audit of every stream, re-read from the store (never a cache): every hash chain, every
    fold, each recorded result against its game's own end; every correction; the first break,
    and `chain_truncated` when a stream ends before the last event the store vouches for."""
    return audit_report(tournament_id)


def audit_report(tournament_id: str) -> dict[str, Any]:
    """The audit's report (as JSON) of the tournament and its games, read from the store now."""
    try:
        tournament, games = stored_streams(tournament_id)
    except ChainTruncated as cut:
        stream = _stream_name(tournament_id, cut.stream_id)
        first_missing = cut.stored_version + 1
        reason = (
            f"chain_truncated: the store vouches for events up to {cut.vouched_version}, "
            f"the stream ends at {cut.stored_version}"
        )
        place = BrokenPlace(stream, first_missing, None, reason)
        about = {
            "stream": stream,
            "stored_version": cut.stored_version,
            "vouched_version": cut.vouched_version,
        }
        return AuditReport(False, 0, 0, broken=place, truncated=about).to_json()
    except ChainBroken as unreadable:
        stream = _stream_name(tournament_id, unreadable.game_id)
        place = BrokenPlace(stream, unreadable.version, None, "the stored entry does not read as an event")
        return AuditReport(False, 0, 0, broken=place).to_json()
    return audit(tournament, games).to_json()


def _stream_name(tournament_id: str, stream_id: str) -> str:
    """How the report names the tournament's own stream or one of its games'."""
    return TOURNAMENT if stream_id == tournament_id else game_stream(stream_id)


@blp.get("/tournaments/<tournament_id>/export")
@blp.doc(
    responses={
        "200": {
            "description": "The bundle: the tournament and every game as a spectator sees them (JSON Lines).",
            "content": {MEDIA_TYPE: {"schema": {"type": "string"}}},
        }
    }
)
def export(tournament_id: str) -> Any:
    """One bundle of the tournament and all its games, for `replays verify` offline."""
    tournament, games = stored_streams(tournament_id)
    headers = {"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.jsonl"'}
    return Response(
        write_bundle(tournament, games, None, signer().key_set()), mimetype=MEDIA_TYPE, headers=headers
    )


@blp.get("/ratings/<game>")
@blp.response(200, RatingsSchema)
def ratings(game: str) -> Any:
    """Every rated player of a game kind (players, one-off persons, computer entrants), best
    first, with history."""
    if game not in GAMES:
        raise UnknownGame(game)
    service = tournament_service()
    checkpoint, players = RatingsProjection(service.redis, service.store).ratings(game)
    return {"game": game, "checkpoint": checkpoint, "players": players}
