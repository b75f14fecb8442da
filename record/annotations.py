"""The shape of an annotation record: what a game's annotation stream and a game file hold.

The service checks a new annotation with it, and so do the offline `replays` commands that
annotate a game file and the import of a file, without a server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

KINDS = ("comment", "mark", "highlight")
MARKS = ("!", "?", "!!", "??", "!?", "?!")
AUTHOR_KINDS = ("seat", "guest", "analysis")
MAX_TEXT = 2000
RECORD_FIELDS = (
    "layer", "author_kind", "seat", "version", "kind", "text", "mark", "islands", "lines", "audience", "at"
)  # fmt: skip


class AnnotationRefused(ValueError):
    """A record no annotation could be; `code` is stable, `members` name where (annotation=n)."""

    def __init__(self, code: str, message: str, **members: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.members = members


def check_record(
    record: Mapping[str, Any], last_version: int, board: Any | None, seats: int
) -> dict[str, Any]:
    """`record` checked against the game (versions, islands, lines), lines in stored order."""
    unknown = set(record) - set(RECORD_FIELDS)
    if unknown:
        raise AnnotationRefused("bad_annotation", f"unknown annotation fields {sorted(unknown)}")
    if not isinstance(record.get("layer"), str) or not record["layer"]:
        raise AnnotationRefused("bad_annotation", "an annotation needs its layer (the author's name)")
    if record.get("author_kind") not in AUTHOR_KINDS:
        raise AnnotationRefused("bad_annotation", f"author_kind is one of {list(AUTHOR_KINDS)}")
    seat = record.get("seat")
    if (record["author_kind"] == "seat") != ("seat" in record) or (
        "seat" in record and (type(seat) is not int or not 0 <= seat < seats)
    ):
        raise AnnotationRefused("bad_annotation", "a seat's annotation names its seat, and only a seat's")
    version = record.get("version")
    if type(version) is not int or not 0 <= version <= last_version:
        raise AnnotationRefused(
            "version_out_of_range", f"an annotation is attached to a version 0..{last_version}"
        )
    if not isinstance(record.get("at"), str):
        raise AnnotationRefused("bad_annotation", "an annotation carries the time it was written")
    audience = record.get("audience", [0])
    if (
        not isinstance(audience, list)
        or not audience
        or any(type(s) is not int or not 0 <= s < seats for s in audience)
        or audience != sorted(set(audience))
    ):
        raise AnnotationRefused("bad_annotation", "an audience is a non-empty sorted list of distinct seats")
    checked = dict(record)
    _check_content(checked, board)
    return checked


def _check_content(record: dict[str, Any], board: Any | None) -> None:
    kind = record.get("kind")
    if kind not in KINDS:
        raise AnnotationRefused("bad_annotation", f"kind is one of {list(KINDS)}")
    text = record.get("text")
    if text is not None and (not isinstance(text, str) or not 0 < len(text) <= MAX_TEXT):
        raise AnnotationRefused("bad_annotation", f"text has 1-{MAX_TEXT} characters")
    if kind == "comment" and text is None:
        raise AnnotationRefused("text_required", "a comment needs its text")
    if (kind == "mark") != ("mark" in record) or ("mark" in record and record["mark"] not in MARKS):
        raise AnnotationRefused("bad_mark", f"a mark (and only a mark) carries one of {' '.join(MARKS)}")
    shows = [name for name in ("islands", "lines") if name in record]
    if (kind == "highlight") != bool(shows):
        raise AnnotationRefused("bad_highlight", "a highlight (and only a highlight) names islands or lines")
    if "islands" in record:
        record["islands"] = _islands(record["islands"], board)
    if "lines" in record:
        record["lines"] = _lines(record["lines"], board)
    if kind == "highlight" and not (record.get("islands") or record.get("lines")):
        raise AnnotationRefused("bad_highlight", "a highlight names at least one island or line")


class HexCells:
    """A board of hexagonal cells (Nanuuk!'s board data: `cells` as axial [q, r]) as a highlight
    names it: a cell "q,r" in the place of an island, a line as a pair of neighbouring cells."""

    NEIGHBOURS = frozenset({(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)})

    def __init__(self, cells: Sequence[Sequence[int]]) -> None:
        self.cells = {(int(q), int(r)) for q, r in cells}
        self.names = {f"{q},{r}" for q, r in self.cells}

    def line_index(self, a: str, b: str) -> int | None:
        """Where the line a-b is found (its cells' order does not matter); None when it is none."""
        if a not in self.names or b not in self.names:
            return None
        (qa, ra), (qb, rb) = (tuple(int(v) for v in name.split(",")) for name in (a, b))
        return 0 if (qb - qa, rb - ra) in self.NEIGHBOURS else None


class HexGrid:
    """A map of hexes in offset columns (Conquest of Paradise's board data: `columns` × `rows`)
    as a highlight names it: a hex "col,row" in the place of an island. Its games join no hexes
    by lines, so a highlight of a line is none of this board's."""

    def __init__(self, columns: int, rows: int) -> None:
        self.names = {f"{col},{row}" for col in range(columns) for row in range(rows)}

    def line_index(self, a: str, b: str) -> int | None:
        return None


def _as_board(board: Any | None) -> Any | None:
    """An island board as it is; a hexagonal board's data as HexCells or HexGrid; None for board
    data of no shape a highlight can name (nothing then to check against)."""
    if not isinstance(board, Mapping):
        return board
    if "cells" in board:
        return HexCells(board["cells"])
    if isinstance(board.get("columns"), int) and isinstance(board.get("rows"), int):
        return HexGrid(board["columns"], board["rows"])
    return None


def _islands(value: Any, board: Any | None) -> list[str]:
    board = _as_board(board)
    if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
        raise AnnotationRefused("bad_highlight", "islands is a list of island names")
    if board is not None:
        unknown = [i for i in value if i not in board.names]
        if unknown:
            raise AnnotationRefused("unknown_island", f"{', '.join(unknown)}: not an island of this board")
    return list(value)


def _lines(value: Any, board: Any | None) -> list[list[str]]:
    board = _as_board(board)
    if not isinstance(value, list) or not all(_is_pair(line) for line in value):
        raise AnnotationRefused("bad_highlight", "lines is a list of island pairs")
    lines = [sorted(line) for line in value]
    if board is not None:
        unknown = [line for line in lines if board.line_index(*line) is None]
        if unknown:
            shown = ", ".join("-".join(line) for line in unknown)
            raise AnnotationRefused("unknown_line", f"{shown}: no bridge line of this board")
    return lines


def _is_pair(line: Any) -> bool:
    return isinstance(line, list) and len(line) == 2 and all(isinstance(i, str) for i in line)


def check_imported(records: Sequence[Mapping[str, Any]], last_version: int, board: Any, seats: int) -> None:
    """Every record of a game file is one the service could have written; AnnotationRefused if not."""
    for n, record in enumerate(records, start=1):
        try:
            checked = check_record(record, last_version, board, seats)
        except AnnotationRefused as error:
            raise AnnotationRefused(error.code, f"annotation {n}: {error.message}", annotation=n) from None
        if checked != dict(record):
            message = f"annotation {n}: lines are not in stored order"
            raise AnnotationRefused("bad_annotation", message, annotation=n)
