"""A compact, readable notation for the island games: tag pairs, then one line per turn.

    [Game "kahuna"]
    [Seat1 "Ana"]
    [Seat2 "Ben"]

    R1: deck(24) hand(Ana:ALOA,BARI,LALE) hand(Ben:?3) up(DUDA,ELAI,LALE) first(Ana)
    1. Ana: +BARI-ELAI(BARI) <ELAI ^JOJO
    2. Ben: xKAHU-LALE(LALE,LALE) ~LALE/Ana d2 <?

`format(events)` writes the events of a game (as one viewer may see them: a secret that was
withheld shows as `?`) and `parse(text)` reads the text back into the same `Record`, so
`parse(format(events)) == record(events)` and `render(parse(text)) == text`. It is a record
for reading; the JSON Lines file (replays/archive.py) stays the authoritative archive. The
grammar, in EBNF, is in docs/notation.md.

One module per concern: `model` (the data), `build` (events to a record, with `builder`
and `moves`), `render` (a record to text) and `parse` (text to a record). Conquest of
Paradise has its own grammar, written by `paradise` and read by `paradise_parse`; the games
on hexagonal cells (Nanuuk!, whose board the registry hands out as cells) have theirs in
`hex_cells` and `hex_build`; `format` and `parse` choose the grammar by the game. The words
all of them read and write (names, tags, notes, items, quoting) are in `lexicon`.
"""

from __future__ import annotations

from replays.notation.build import record
from replays.notation.model import Item, Line, Move, NotationError, Note, Record, Turn
from replays.notation.parse import parse, parse_move
from replays.notation.render import format, move_text, render

__all__ = [
    "Item",
    "Line",
    "Move",
    "NotationError",
    "Note",
    "Record",
    "Turn",
    "format",
    "move_text",
    "parse",
    "parse_move",
    "record",
    "render",
]
