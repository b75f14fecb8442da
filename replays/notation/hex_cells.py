"""The notation of the games on hexagonal cells (Nanuuk! and its learning games).

    [Game "nanuuk"]
    [Seat1 "Ana"]
    [Seat2 "Ben"]

    ice: whale(-2+1,+1+1) inuk(-1+0) fish(+1-1) seal(-1+1) walrus(+2-2) bear(+0+1)
    1. Ana: 0@+0-2
    2. Ben: 1@-2+2
    3. Ana: 0:+0-2>+1-2 C~+0-1|+1-1 +fish
    4. Ben: !husky,sled 1:-2+2>-1+2s d~-1+2|+0+2 1:-1+2>-1+1 C~-1+0|+0+1 +inuk

A cell is its axial coordinates, each signed: `+1-2` is q = 1, r = -2 (the board file's
[1, -2]); a line is its two cells joined by `|`, the smaller first. The grammar, in EBNF,
is in docs/notation.md. This module holds the record and its text (`render`, `parse`);
`hex_build` makes the record of a game's events, so `parse(format(events)) ==
record(events)` and `render(parse(text)) == text`. Nothing is hidden in these games: every
viewer reads the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from replays.notation.lexicon import NAME, NOTE, named, parse_item, quoted, read_tags, tokens, unname
from replays.notation.model import Item, NotationError, Note

Cell = tuple[int, int]

_COORD = r"[+-]\d+"
_CELL = rf"{_COORD}{_COORD}"
_LINE = rf"{_CELL}\|{_CELL}"
_WORD = r"[a-z_]+"
_WORDS = rf"{_WORD}(?:,{_WORD})*"
_TURN = re.compile(rf"(\d+)\. ({NAME}):(?: (.*))?")


@dataclass(frozen=True)
class Step:
    """One token of a turn line: `kind` with the piece, cells, line and words it names."""

    kind: str
    piece: int | None = None
    cells: tuple[Cell, ...] = ()
    words: tuple[str, ...] = ()
    flags: str = ""


@dataclass(frozen=True)
class HexTurn:
    number: int
    seat: str
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class HexRecord:
    tags: tuple[tuple[str, str], ...]
    lines: tuple[HexTurn | Note, ...]

    def tag(self, name: str) -> str | None:
        return next((value for key, value in self.tags if key == name), None)


def cell_text(cell: Sequence[Any]) -> str:
    """`[1, -2]` as `+1-2`."""
    return "".join(f"{'-' if int(v) < 0 else '+'}{abs(int(v))}" for v in cell)


def parse_cell(text: str) -> Cell:
    q, r = re.findall(_COORD, text)
    return int(q), int(r)


def line_text(cells: Sequence[Cell]) -> str:
    return "|".join(cell_text(c) for c in cells)


# --- steps as text -------------------------------------------------------------------------


def step_text(s: Step) -> str:
    """One step as its token."""
    cells = [cell_text(c) for c in s.cells]
    words = ",".join(s.words)
    texts: dict[str, Callable[[], str]] = {
        "place": lambda: f"{s.piece}@{cells[0]}",
        "move": lambda: f"{s.piece}:{cells[0]}>{cells[1]}{s.flags}",
        "stay": lambda: f"{s.piece}={cells[0]}",
        "crack": lambda: f"{s.flags}~{'|'.join(cells)}",
        "equip": lambda: f"!{words}",
        "join": lambda: "+inuk",
        "take": lambda: f"+{words}",
        "leave": lambda: f"-{words}",
        "bear": lambda: f"^{s.piece}:{cells[0]}>{cells[1]}",
        "harpoon": lambda: "*harpoon",
        "exchange": lambda: f"${s.words[0]}{s.flags}={','.join(s.words[1:])}",
        "bring": lambda: f"&{words}{s.flags}",
        "home": lambda: "leave",
        "retire": lambda: f"retire({s.piece})",
        "skip": lambda: f"skip({words})",
        "pass": lambda: f"pass({words})",
        "stop": lambda: "stop",
        "out": lambda: f"x{s.piece}({words})",
    }
    return texts[s.kind]()


_STEP_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (kind, re.compile(pattern))
    for kind, pattern in [
        ("place", rf"(\d+)@({_CELL})"),
        ("move", rf"(\d+):({_CELL})>({_CELL})(k?s?1?)"),
        ("stay", rf"(\d+)=({_CELL})"),
        ("crack", rf"([Cd]?)~({_LINE})"),
        ("equip", rf"!({_WORDS})"),
        ("join", r"\+inuk"),
        ("take", rf"\+({_WORD})"),
        ("leave", rf"-({_WORD})"),
        ("bear", rf"\^(\d+):({_CELL})>({_CELL})"),
        ("harpoon", r"\*harpoon"),
        ("exchange", rf"\$({_WORD})(\+inuk)?=({_WORDS})"),
        ("bring", rf"&({_WORD})(\+inuk)?"),
        ("home", r"leave"),
        ("retire", r"retire\((\d+)\)"),
        ("skip", rf"skip\(({_WORD})\)"),
        ("pass", rf"pass\(({_WORD})\)"),
        ("stop", r"stop"),
        ("out", rf"x(\d+)\(({_WORD})\)"),
    ]
]


def parse_step(token: str, number: int = 0) -> Step:
    """One token of a turn line as its Step; NotationError when it is none."""
    for kind, pattern in _STEP_PATTERNS:
        found = pattern.fullmatch(token)
        if found is not None:
            return _step(kind, found.groups())
    raise NotationError(number, f"unknown move {token!r}")


def _step(kind: str, g: tuple[Any, ...]) -> Step:
    if kind in ("place", "stay"):
        return Step(kind, int(g[0]), (parse_cell(g[1]),))
    if kind in ("move", "bear"):
        flags = g[3] if kind == "move" else ""
        return Step(kind, int(g[0]), (parse_cell(g[1]), parse_cell(g[2])), flags=flags)
    if kind == "crack":
        return Step(kind, cells=tuple(parse_cell(c) for c in g[1].split("|")), flags=g[0])
    if kind in ("equip", "take", "leave", "skip", "pass"):
        return Step(kind, words=tuple(g[0].split(",")))
    if kind == "exchange":
        return Step(kind, words=(g[0], *g[2].split(",")), flags=g[1] or "")
    if kind == "bring":
        return Step(kind, words=(g[0],), flags=g[1] or "")
    if kind == "retire":
        return Step(kind, int(g[0]))
    if kind == "out":
        return Step(kind, int(g[0]), words=(g[1],))
    return Step(kind)


# --- a record as text, and back --------------------------------------------------------------

_BARE = re.compile(rf"(?:{_LINE}|{_CELL}|[\w.'+?-]+)")


def _atom(value: str) -> str:
    return value if _BARE.fullmatch(value) else json.dumps(value, ensure_ascii=False)


def _item_text(item: Item) -> str:
    who = f"{named(item.who)}:" if item.who is not None else ""
    return f"{item.key}({who}{','.join(_atom(a) for a in item.args)})"


def render(rec: HexRecord) -> str:
    """The text of a record: its tags, a blank line, then its lines."""
    out = [f"[{name} {quoted(value)}]" for name, value in rec.tags]
    out.append("")
    for line in rec.lines:
        if isinstance(line, HexTurn):
            body = " ".join(step_text(s) for s in line.steps)
            out.append(f"{line.number}. {named(line.seat)}:" + (f" {body}" if body else ""))
        else:
            body = " ".join(_item_text(i) for i in line.items)
            out.append(f"{line.label}:" + (f" {body}" if body else ""))
    return "\n".join(out) + "\n"


def parse(text: str) -> HexRecord:
    """The record a notation text holds; NotationError naming the first line it cannot read."""
    tags, lines = read_tags(text)
    body: list[HexTurn | Note] = []
    for n, raw in lines:
        turn = _TURN.fullmatch(raw)
        if turn is not None:
            steps = tuple(parse_step(token, n) for token in tokens(turn.group(3) or ""))
            body.append(HexTurn(int(turn.group(1)), unname(turn.group(2)), steps))
            continue
        note = NOTE.fullmatch(raw)
        if note is None:
            raise NotationError(n, f"neither a turn nor a note: {raw!r}")
        body.append(Note(note.group(1), tuple(parse_item(token, n) for token in tokens(note.group(2) or ""))))
    return HexRecord(tuple(tags), tuple(body))
