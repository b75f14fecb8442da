"""Replays over HTTP: the game in steps, its file (export and import), its notation, annotations.

Every answer is built for the token's seat (or a spectator): a secret the viewer may not read
is never in an export, a notation or a description. After the end, with the log revealed
(the default), everyone gets everything.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Response, request, url_for
from marshmallow import ValidationError
from werkzeug.exceptions import UnsupportedMediaType

from record.redaction import redact
from replays import notation
from replays.archive import MEDIA_TYPE
from service import game_files
from service.annotations import Annotations, Author
from service.api.auth import BEARER_SECURITY, with_seat
from service.api.blueprint import Blueprint
from service.api.context import game_service, signer
from service.api.json_body import read_json
from service.api.preconditions import version_headers
from service.api.schemas import (
    AnnotationRequestSchema,
    AnnotationSchema,
    AnnotationsSchema,
    ImportedSchema,
    ImportRequestSchema,
    LayerSchema,
    ReplaySchema,
    VerifySchema,
)
from service.errors import Unprocessable

blp = Blueprint("replays", __name__, description="Replay, export, import and annotate games.")

IMPORT_BODY = {
    "required": True,
    "description": "The game file, as GET /games/{game_id}/export gives it: the JSON Lines "
    'text itself, or JSON {"jsonl": "<the text>"}. At most MAX_IMPORT_BYTES (4 MiB unless '
    "configured), else 413 body_too_large.",
    "content": {
        MEDIA_TYPE: {"schema": {"type": "string"}},
        "application/json": {"schema": ImportRequestSchema},
    },
}


def refuse_archived(view: Callable[..., Any]) -> Callable[..., Any]:
    """409 game_archived before anything else: an imported game takes no command at all."""

    @functools.wraps(view)
    def wrapper(*args: Any, game_id: str, **kwargs: Any) -> Any:
        game_files.refuse_archived(game_service(), game_id)
        return view(*args, game_id=game_id, **kwargs)

    return wrapper


def _notes() -> Annotations:
    return Annotations(game_service().redis)


@blp.get("/games/<game_id>/replay")
@blp.doc(security=[{}, *BEARER_SECURITY])
@blp.response(200, ReplaySchema)
@with_seat(required=False)
def get_replay(game_id: str, seat: int | None) -> Any:
    """The game command by command, each step described in words as this viewer may know it,
    with the annotations this viewer may read."""
    loaded = game_service().load(game_id)
    notes = game_files.visible_annotations(_notes(), loaded, seat)
    return game_files.replay(game_service(), loaded, seat, notes), version_headers(loaded.version)


@blp.get("/games/<game_id>/export")
@blp.doc(security=[{}, *BEARER_SECURITY])
@blp.response(
    200,
    content_type=MEDIA_TYPE,
    description="The game file (JSON Lines): a header, every event with its hashes, then the "
    "annotations. Complete after the end (with the log revealed); otherwise each secret this "
    "viewer may not read is null and its line is marked redacted.",
)
@with_seat(required=False)
def export_game(game_id: str, seat: int | None) -> Any:
    """The game as one self-contained file, built for the token's seat (or a spectator)."""
    content = game_files.export_game(game_service(), _notes(), game_id, seat, signer().key_set())
    headers = {"Content-Disposition": f'attachment; filename="{game_id}.jsonl"', "Vary": "Authorization"}
    return Response(content, mimetype=MEDIA_TYPE, headers=headers)


@blp.get("/games/<game_id>/verify")
@blp.doc(security=[{}, *BEARER_SECURITY])
@blp.response(200, VerifySchema)
@with_seat(required=False)
def verify_game(game_id: str, seat: int | None) -> Any:
    """Check the game's hash chain as the store holds it now, event by event (never a cached
    copy), then referee every stored command through the rules, and check its deal: once the
    seed is revealed (the game's end), every chance event is drawn again from it. Anyone may
    ask. A failure names the first event whose hash or link is wrong, or, when the stream ends
    before the last event its head vouches for, the first one missing (chain_truncated), or
    the first command at fault, or the first chance event that is not what the seed draws."""
    verified = game_service().verify(game_id)
    deal = verified.deal
    refereed = verified.refereed
    first_bad = verified.first_bad if deal is None or deal.ok else deal.first_bad
    answer = {
        "game_id": game_id,
        "ok": first_bad is None and (refereed is None or refereed.ok) and verified.first_bad is None,
        "first_bad_version": first_bad,
        "version": verified.version,
        "archived": game_files.is_archived(game_service(), game_id),
        "chain_truncated": truncated(verified.version, verified.vouched),
        "referee": None if refereed is None else refereed.answer(),
    }
    if deal is not None:
        answer["deal"] = deal.to_json()
    return answer


def truncated(stored: int, vouched: int | None) -> dict[str, int] | None:
    """The chain_truncated member of a check: None unless the stream lost its tail."""
    return None if vouched is None else {"stored_version": stored, "vouched_version": vouched}


@blp.get("/games/<game_id>/notation")
@blp.doc(security=[{}, *BEARER_SECURITY])
@blp.response(200, content_type="text/plain", description="The game in the notation of docs/notation.md.")
@with_seat(required=False)
def get_notation(game_id: str, seat: int | None) -> Any:
    """The game as a readable record, one line per turn, as the token's seat may see it."""
    loaded = game_service().load(game_id)
    events = []
    for envelope in loaded.envelopes:
        shown = redact(envelope, seat, loaded.revealed)
        shown["command_id"] = envelope.command_id
        events.append(shown)
    names = [s["name"] for s in loaded.setup["seats"]]
    viewer = "all" if loaded.revealed else (names[seat] if seat is not None else "spectator")
    text = notation.format(events, viewer)
    headers = {**version_headers(loaded.version), "Content-Type": "text/plain; charset=utf-8"}
    return Response(text, headers=headers)


@blp.post("/games/import")
@blp.doc(requestBody=IMPORT_BODY)
@blp.response(201, ImportedSchema)
def import_game() -> Any:
    """Import a game file: its hash chain is verified and every event folded through the rules,
    then it becomes a new, read-only (archived) game. Only the complete file of a finished game
    can be imported; exporting the imported game gives the same bytes back."""
    imported = game_files.import_game(game_service(), _import_body())
    headers = {"Location": url_for("games.get_game", game_id=imported.game_id)}
    body = {"game_id": imported.game_id, "archived": True, "version": imported.version}
    return body, {**headers, **version_headers(imported.version)}


def _import_body() -> bytes | str:
    """The game file; its size limit (MAX_IMPORT_BYTES) is checked before: service/api/sizes.py."""
    if request.mimetype == "application/json":
        try:
            loaded = ImportRequestSchema().load(read_json(request.get_data(cache=False)) or {})
        except ValidationError as error:
            raise Unprocessable(
                "invalid_request", 'send {"jsonl": "<the game file>"}', errors=error.messages
            ) from None
        text: str = loaded["jsonl"]
        return text
    if request.mimetype in (MEDIA_TYPE, "application/jsonl", "text/plain"):
        return request.get_data(cache=False)
    raise UnsupportedMediaType(f"send the game file as {MEDIA_TYPE} (or JSON with jsonl)")


@blp.get("/games/<game_id>/annotations")
@blp.doc(security=[{}, *BEARER_SECURITY])
@blp.response(200, AnnotationsSchema)
@with_seat(required=False)
@blp.arguments(LayerSchema, location="query")
def list_annotations(query: dict[str, Any], game_id: str, seat: int | None) -> Any:
    """The annotations this viewer may read (of one layer with ?layer=), oldest first."""
    loaded = game_service().load(game_id)
    notes = game_files.visible_annotations(_notes(), loaded, seat, query.get("layer"))
    return {"version": loaded.version, "annotations": notes}


@blp.post("/games/<game_id>/annotations")
@blp.doc(security=[{}, *BEARER_SECURITY])
@blp.response(201, AnnotationSchema)
@with_seat(required=False)
@blp.arguments(AnnotationRequestSchema)
def post_annotation(note: dict[str, Any], game_id: str, seat: int | None) -> Any:
    """Annotate a version: a seat any time (its layer is its name); anyone, naming
    `author`, once the game has ended. Annotating never changes the game's events."""
    loaded = game_service().load(game_id)
    author_name = note.pop("author", None)
    author_kind = note.pop("author_kind", "guest")
    if seat is not None:
        if author_name is not None:
            raise Unprocessable("author_with_token", "a seat annotates under its own name: leave out author")
        author = Author("seat", loaded.setup["seats"][seat]["name"], seat)
    else:
        if author_name is None:
            message = "without a seat's token, name the author (1-60 characters)"
            raise Unprocessable("author_required", message)
        author = Author(author_kind, author_name)
    return _notes().add(loaded, author, note)
