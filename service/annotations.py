"""Annotations: comments, move marks and highlighted islands or bridges on any version of a game.

Each author writes its own layer (named after the author). They live in their own stream,
`game:{<id>}:annotations`, so annotating never changes a game's events or hashes. The seats
annotate their game at any time; anyone else (a named guest, or an analysis program) once
the game has ended. Until the end, a seat's annotations are shown to that seat only: a note
about one's own hand must not reach the opponents while the game is on. A record with an
`audience` (the computer's analysis, computed from one seat's hand) stays with those seats
until the game's log is revealed, which a game created with reveal_after_end false never is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import redis
from redis.cluster import RedisCluster

from domain.text import trimmed
from record.annotations import AUTHOR_KINDS, AnnotationRefused, check_record
from record.canonical import canonical_json
from record.envelope import Clock
from service.clock import iso_utc, utc_now
from service.errors import Conflict, Unauthorized, Unprocessable
from service.keys import layout_of
from service.loaded import Loaded
from service.store import annotations_key

MAX_NAME = 60
MAX_PER_GAME = 10_000


@dataclass(frozen=True)
class Author:
    """Who writes: a seat of the game (its name is the layer), a guest or an analysis program."""

    kind: str
    name: str
    seat: int | None = None


class Annotations:
    """Adds and lists a game's annotations in its annotation stream."""

    def __init__(self, client: redis.Redis | RedisCluster, clock: Clock = utc_now) -> None:
        self._redis = client
        self._layout = layout_of(client)
        self._clock = clock

    def add(self, loaded: Loaded, author: Author, note: Mapping[str, Any]) -> dict[str, Any]:
        """Store one annotation of `author` on `loaded`'s game; the record, with its id."""
        ended = loaded.over
        if author.kind != "seat" and not ended:
            raise Unauthorized(
                "token_required",
                "until the game ends only its seats annotate it (send a seat's token); "
                "anyone may once it has ended",
            )
        if self._redis.xlen(annotations_key(loaded.game_id, self._layout)) >= MAX_PER_GAME:
            raise Conflict("too_many_annotations", f"a game holds at most {MAX_PER_GAME} annotations")
        record = build_record(loaded, author, note, iso_utc(self._clock()))
        entry_id = self._redis.xadd(
            annotations_key(loaded.game_id, self._layout), {"annotation": canonical_json(record)}
        )
        return {"id": _text(entry_id), **record}

    def list(self, game_id: str) -> list[dict[str, Any]]:
        """Every annotation of the game, oldest first, each with its stream id."""
        entries = cast(
            list[tuple[bytes, dict[bytes, bytes]]], self._redis.xrange(annotations_key(game_id, self._layout))
        )
        return [{"id": _text(entry_id), **_record(fields)} for entry_id, fields in entries]


def visible(
    records: Iterable[Mapping[str, Any]], viewer: int | None, ended: bool, revealed: bool = False
) -> list[dict[str, Any]]:
    """The records `viewer` may read.

    Before the end another seat's records are hidden. A record with an `audience` (the
    analysis, computed from a seat's hand) is read by those seats only, and by everyone
    once the game's log is revealed.
    """
    return [
        dict(r)
        for r in records
        if (ended or r.get("author_kind") != "seat" or (viewer is not None and r.get("seat") == viewer))
        and (revealed or "audience" not in r or viewer in r["audience"])
    ]


def without_ids(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The records as an export carries them: stream ids are the store's, not the game's."""
    return [{k: v for k, v in r.items() if k != "id"} for r in records]


# --- validation --------------------------------------------------------------------------


def build_record(loaded: Loaded, author: Author, note: Mapping[str, Any], at: str) -> dict[str, Any]:
    """The stored record of a new annotation; Unprocessable naming what is wrong."""
    names = [seat["name"] for seat in loaded.setup["seats"]]
    name = author.name if author.kind == "seat" else trimmed(author.name)
    if author.kind not in AUTHOR_KINDS:
        raise Unprocessable("bad_author", f"an author is one of {list(AUTHOR_KINDS)}")
    if author.kind != "seat" and not 1 <= len(name) <= MAX_NAME:
        message = f"an annotation needs an author name of 1-{MAX_NAME} characters"
        raise Unprocessable("author_required", message)
    if author.kind != "seat" and name in names:
        raise Unprocessable("author_is_a_seat", f"{name!r} is a seat of this game: annotate with its token")
    record: dict[str, Any] = {"layer": name, "author_kind": author.kind}
    if author.kind == "seat":
        record["seat"] = author.seat
    fields = ("version", "kind", "text", "mark", "islands", "lines", "audience")
    record.update({k: note[k] for k in fields if k in note})
    record["at"] = at
    try:
        return check_record(record, loaded.version, _board(loaded), len(names))
    except AnnotationRefused as refused:
        raise unprocessable(refused) from None


def unprocessable(refused: AnnotationRefused) -> Unprocessable:
    """The service's answer to a record no annotation could be."""
    return Unprocessable(refused.code, refused.message, **refused.members)


def _board(loaded: Loaded) -> Any | None:
    """The board a highlight is checked against: the island rules keep it in their state; a
    game on hexes is checked against the board data its declaration hands out (Nanuuk!'s
    cells, Conquest of Paradise's columns and rows: record.annotations reads either)."""
    rules = getattr(loaded.state, "rules", None)
    board = getattr(rules, "board", None)
    if board is None:
        return loaded.rules.board(str(loaded.setup["game"]))
    return board


def _record(fields: Mapping[Any, Any]) -> dict[str, Any]:
    raw = fields.get(b"annotation", fields.get("annotation"))
    record: dict[str, Any] = json.loads(_text(raw))
    return record


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
