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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from service.clock import iso_utc, utc_now
from service.errors import Conflict, Unauthorized, Unprocessable
from service.events import Clock, canonical_json
from service.games import Loaded
from service.store import annotations_key

KINDS = ("comment", "mark", "highlight")
MARKS = ("!", "?", "!!", "??", "!?", "?!")
AUTHOR_KINDS = ("seat", "guest", "analysis")
MAX_NAME = 60
MAX_TEXT = 2000
MAX_PER_GAME = 10_000
RECORD_FIELDS = (
    "layer", "author_kind", "seat", "version", "kind", "text", "mark", "islands", "lines", "audience", "at"
)  # fmt: skip


@dataclass(frozen=True)
class Author:
    """Who writes: a seat of the game (its name is the layer), a guest or an analysis program."""

    kind: str
    name: str
    seat: int | None = None


class Annotations:
    """Adds and lists a game's annotations in its annotation stream."""

    def __init__(self, client: redis.Redis, clock: Clock = utc_now) -> None:
        self._redis = client
        self._clock = clock

    def add(self, loaded: Loaded, author: Author, note: Mapping[str, Any]) -> dict[str, Any]:
        """Store one annotation of `author` on `loaded`'s game; the record, with its id."""
        ended = bool(loaded.rules.is_terminal(loaded.state))
        if author.kind != "seat" and not ended:
            raise Unauthorized(
                "token_required",
                "until the game ends only its seats annotate it (send a seat's token); "
                "anyone may once it has ended",
            )
        if self._redis.xlen(annotations_key(loaded.game_id)) >= MAX_PER_GAME:
            raise Conflict("too_many_annotations", f"a game holds at most {MAX_PER_GAME} annotations")
        record = build_record(loaded, author, note, iso_utc(self._clock()))
        entry_id = self._redis.xadd(annotations_key(loaded.game_id), {"annotation": canonical_json(record)})
        return {"id": _text(entry_id), **record}

    def list(self, game_id: str) -> list[dict[str, Any]]:
        """Every annotation of the game, oldest first, each with its stream id."""
        entries = self._redis.xrange(annotations_key(game_id))
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
    name = author.name if author.kind == "seat" else author.name.strip()
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
    return check_record(record, loaded.version, _board(loaded), len(names))


def check_record(
    record: Mapping[str, Any], last_version: int, board: Any | None, seats: int
) -> dict[str, Any]:
    """`record` checked against the game (versions, islands, lines), lines in stored order."""
    unknown = set(record) - set(RECORD_FIELDS)
    if unknown:
        raise Unprocessable("bad_annotation", f"unknown annotation fields {sorted(unknown)}")
    if not isinstance(record.get("layer"), str) or not record["layer"]:
        raise Unprocessable("bad_annotation", "an annotation needs its layer (the author's name)")
    if record.get("author_kind") not in AUTHOR_KINDS:
        raise Unprocessable("bad_annotation", f"author_kind is one of {list(AUTHOR_KINDS)}")
    seat = record.get("seat")
    if (record["author_kind"] == "seat") != ("seat" in record) or (
        "seat" in record and (type(seat) is not int or not 0 <= seat < seats)
    ):
        raise Unprocessable("bad_annotation", "a seat's annotation names its seat, and only a seat's")
    version = record.get("version")
    if type(version) is not int or not 0 <= version <= last_version:
        raise Unprocessable(
            "version_out_of_range", f"an annotation is attached to a version 0..{last_version}"
        )
    if not isinstance(record.get("at"), str):
        raise Unprocessable("bad_annotation", "an annotation carries the time it was written")
    audience = record.get("audience", [0])
    if (
        not isinstance(audience, list)
        or not audience
        or any(type(s) is not int or not 0 <= s < seats for s in audience)
        or audience != sorted(set(audience))
    ):
        raise Unprocessable("bad_annotation", "an audience is a non-empty sorted list of distinct seats")
    checked = dict(record)
    _check_content(checked, board)
    return checked


def _check_content(record: dict[str, Any], board: Any | None) -> None:
    kind = record.get("kind")
    if kind not in KINDS:
        raise Unprocessable("bad_annotation", f"kind is one of {list(KINDS)}")
    text = record.get("text")
    if text is not None and (not isinstance(text, str) or not 0 < len(text) <= MAX_TEXT):
        raise Unprocessable("bad_annotation", f"text has 1-{MAX_TEXT} characters")
    if kind == "comment" and text is None:
        raise Unprocessable("text_required", "a comment needs its text")
    if (kind == "mark") != ("mark" in record) or ("mark" in record and record["mark"] not in MARKS):
        raise Unprocessable("bad_mark", f"a mark (and only a mark) carries one of {' '.join(MARKS)}")
    shows = [name for name in ("islands", "lines") if name in record]
    if (kind == "highlight") != bool(shows):
        raise Unprocessable("bad_highlight", "a highlight (and only a highlight) names islands or lines")
    if "islands" in record:
        record["islands"] = _islands(record["islands"], board)
    if "lines" in record:
        record["lines"] = _lines(record["lines"], board)
    if kind == "highlight" and not (record.get("islands") or record.get("lines")):
        raise Unprocessable("bad_highlight", "a highlight names at least one island or line")


def _islands(value: Any, board: Any | None) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
        raise Unprocessable("bad_highlight", "islands is a list of island names")
    if board is not None:
        unknown = [i for i in value if i not in board.names]
        if unknown:
            raise Unprocessable("unknown_island", f"{', '.join(unknown)}: not an island of this board")
    return list(value)


def _lines(value: Any, board: Any | None) -> list[list[str]]:
    if not isinstance(value, list) or not all(_is_pair(line) for line in value):
        raise Unprocessable("bad_highlight", "lines is a list of island pairs")
    lines = [sorted(line) for line in value]
    if board is not None:
        unknown = [line for line in lines if board.line_index(*line) is None]
        if unknown:
            shown = ", ".join("-".join(line) for line in unknown)
            raise Unprocessable("unknown_line", f"{shown}: no bridge line of this board")
    return lines


def _is_pair(line: Any) -> bool:
    return isinstance(line, list) and len(line) == 2 and all(isinstance(i, str) for i in line)


def _board(loaded: Loaded) -> Any | None:
    rules = getattr(loaded.state, "rules", None)
    return getattr(rules, "board", None)


def _record(fields: Mapping[Any, Any]) -> dict[str, Any]:
    raw = fields.get(b"annotation", fields.get("annotation"))
    record: dict[str, Any] = json.loads(_text(raw))
    return record


def _text(value: str | bytes) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def check_imported(records: Sequence[Mapping[str, Any]], last_version: int, board: Any, seats: int) -> None:
    """Every record of a game file is one this service could have written; Unprocessable if not."""
    for n, record in enumerate(records, start=1):
        try:
            checked = check_record(record, last_version, board, seats)
        except Unprocessable as error:
            raise Unprocessable(error.code, f"annotation {n}: {error.message}", annotation=n) from None
        if checked != dict(record):
            message = f"annotation {n}: lines are not in stored order"
            raise Unprocessable("bad_annotation", message, annotation=n)
