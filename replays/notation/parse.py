"""Reading the notation back: text to the record it holds, or NotationError naming the line."""

from __future__ import annotations

import json
import re
from typing import Any

from replays.notation.lexicon import NAME, NOTE, parse_item, read_tags, tokens, unname
from replays.notation.model import Line, Move, NotationError, Note, Record, Turn
from replays.renderers import renderer_of

_ISL = r"[A-Z]\w*"
_LINE = rf"{_ISL}-{_ISL}"
_SEA = rf"{_ISL}-{_ISL}-{_ISL}"
_CARD = rf"(?:{_ISL}|@|\?)"
_CARDS = rf"\(({_CARD}(?:,{_CARD})*)\)"
_GOD = r"[A-Z][a-z]+"

_MOVE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(pattern))
    for kind, pattern in [
        ("skip", r"skip"),
        ("end", r"end"),
        ("defer", r"defer"),
        ("free", rf"\+({_LINE})\(free\)"),
        ("place", rf"\+({_LINE})(?:{_CARDS})?"),
        ("remove", rf"x({_LINE}){_CARDS}"),
        ("swap", rf"s({_LINE}){_CARDS}"),
        ("play", _CARDS),
        ("take_back", rf"-({_LINE})(?:{_CARDS})?"),
        ("ship", rf"&({_SEA}){_CARDS}"),
        ("sail", rf"&({_SEA})>({_SEA})"),
        ("discard", rf"d(?:(\d+)|{_CARDS})"),
        ("take_card", rf"<({NAME}):({_ISL}|\?)"),
        ("give_card", rf">({NAME}):({_ISL}|\?)"),
        ("stack", rf"<\?({_ISL})?"),
        ("draw", rf"<({_ISL})"),
        ("refill", rf"\^({_ISL})"),
        ("relative", rf"%({_LINE})"),
        ("taken", rf"=({_ISL})(?:@({_GOD})(?:\+(\d+))?)?(?:/({NAME}))?"),
        ("lost", rf"~({_ISL})(?:/({NAME}))?"),
        ("sunk", rf"#({_SEA})(?:/({NAME}))?"),
        ("god", rf"@({_GOD})(?:\(({NAME})(?::({_CARD}(?:,{_CARD})*))?\))?"),
    ]
]
_TURN = re.compile(rf"(\d+)\. ({NAME}):(?: (.*))?")


_GAME_TAG = re.compile(r'\[Game ("(?:[^"\\]|\\.)*")\]')


def parse(text: str) -> Any:
    """The record a notation text holds, in the grammar of the game its Game tag names (its
    renderer's, replays/renderers.py: a ParadiseRecord for Conquest of Paradise, a HexRecord for
    a game on hexagonal cells); NotationError naming the first line it cannot read."""
    found = _GAME_TAG.match(text)
    if found is None:
        return parse_islands(text)
    return renderer_of(str(json.loads(found.group(1)))).parse(text)


def parse_islands(text: str) -> Record:
    """The record of an island game's notation text."""
    tags, lines = read_tags(text)
    body = [_parse_line(raw, n) for n, raw in lines]
    return Record(tuple(tags), tuple(body))


def _parse_line(raw: str, number: int) -> Line:
    turn = _TURN.fullmatch(raw)
    if turn is not None:
        moves = tuple(parse_move(token, number) for token in tokens(turn.group(3) or ""))
        return Turn(int(turn.group(1)), unname(turn.group(2)), moves)
    note = NOTE.fullmatch(raw)
    if note is None:
        raise NotationError(number, f"neither a turn nor a note: {raw!r}")
    items = tuple(parse_item(token, number) for token in tokens(note.group(2) or ""))
    return Note(note.group(1), items)


def parse_move(token: str, number: int = 0) -> Move:
    """One token of a turn line as its Move."""
    for kind, pattern in _MOVE_PATTERNS:
        found = pattern.fullmatch(token)
        if found is not None:
            return _move(kind, found.groups())
    raise NotationError(number, f"unknown move {token!r}")


def _move(kind: str, g: tuple[Any, ...]) -> Move:
    def split(value: str | None) -> tuple[str, ...] | None:
        return None if value is None else tuple(value.split(","))

    def who(value: str | None) -> str | None:
        return None if value is None else unname(value)

    if kind in ("skip", "end", "defer"):
        return Move(kind)
    if kind in ("free", "relative"):
        return Move(kind, tuple(g[0].split("-")))
    if kind in ("place", "remove", "swap", "ship", "take_back"):
        return Move(kind, tuple(g[0].split("-")), cards=split(g[1]))
    if kind == "play":
        return Move(kind, cards=split(g[0]))
    if kind == "sail":
        return Move(kind, tuple(g[0].split("-")), tuple(g[1].split("-")))
    if kind == "discard":
        return Move(kind, count=int(g[0])) if g[0] is not None else Move(kind, cards=split(g[1]))
    if kind in ("take_card", "give_card"):
        return Move(kind, seat=unname(g[0]), cards=None if g[1] == "?" else (g[1],))
    if kind == "stack":
        return Move(kind, cards=split(g[0]))
    if kind in ("draw", "refill"):
        return Move(kind, (g[0],))
    if kind == "taken":
        points = int(g[2]) if g[2] is not None else None
        return Move(kind, (g[0],), god=g[1], points=points, seat=who(g[3]))
    if kind in ("lost", "sunk"):
        return Move(kind, tuple(g[0].split("-")), seat=who(g[1]))
    return Move("god", god=g[0], seat=who(g[1]), cards=split(g[2]))
