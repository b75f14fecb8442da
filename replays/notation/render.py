"""Writing the notation: a record as text, and a game's events as text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from replays.notation.lexicon import atom, named, quoted
from replays.notation.model import Item, Line, Move, Record, Turn
from replays.renderers import renderer_of


def format(events: Sequence[Mapping[str, Any]], viewer: str | None = None) -> str:
    """The notation of a game's events, as redacted dicts ({type, data, secret?, command_id?}),
    in the grammar of its game: its renderer's (replays/renderers.py; the island games' for a
    game that is not registered)."""
    first = events[0] if events else {}
    game = str((first.get("data") or {}).get("game", "")) if first.get("type") == "GameCreated" else ""
    return renderer_of(game).notation(events, viewer)


def render(rec: Record) -> str:
    """The text of a record: its tags, a blank line, then its lines."""
    out = [f"[{name} {quoted(value)}]" for name, value in rec.tags]
    out.append("")
    out += [_line_text(line) for line in rec.lines]
    return "\n".join(out) + "\n"


def _line_text(line: Line) -> str:
    if isinstance(line, Turn):
        body = " ".join(move_text(m) for m in line.moves)
        return f"{line.number}. {named(line.seat)}:" + (f" {body}" if body else "")
    body = " ".join(_item_text(i) for i in line.items)
    return f"{line.label}:" + (f" {body}" if body else "")


def _item_text(item: Item) -> str:
    who = f"{named(item.who)}:" if item.who is not None else ""
    return f"{item.key}({who}{','.join(atom(a) for a in item.args)})"


def move_text(m: Move) -> str:
    """One move as its token."""
    line, cards = "-".join(m.where), _cards(m.cards)
    other = f"/{named(m.seat)}" if m.seat is not None else ""
    simple = {"skip": "skip", "end": "end", "defer": "defer"}
    if m.kind in simple:
        return simple[m.kind]
    texts = {
        "place": lambda: f"+{line}{cards}",
        "free": lambda: f"+{line}(free)",
        "remove": lambda: f"x{line}{cards}",
        "swap": lambda: f"s{line}{cards}",
        "play": lambda: cards,
        "take_back": lambda: f"-{line}{cards}",
        "ship": lambda: f"&{line}{cards}",
        "sail": lambda: f"&{line}>{'-'.join(m.to)}",
        "discard": lambda: f"d{m.count}" if m.cards is None else f"d{cards}",
        "draw": lambda: f"<{m.where[0]}",
        "stack": lambda: "<?" + (m.cards[0] if m.cards else ""),
        "refill": lambda: f"^{m.where[0]}",
        "relative": lambda: f"%{line}",
        "taken": lambda: f"={line}{_god_suffix(m)}{other}",
        "lost": lambda: f"~{line}{other}",
        "sunk": lambda: f"#{line}{other}",
        "god": lambda: f"@{m.god}{_god_target(m)}",
        "take_card": lambda: f"<{named(m.seat or '?')}:{(m.cards or ('?',))[0]}",
        "give_card": lambda: f">{named(m.seat or '?')}:{(m.cards or ('?',))[0]}",
    }
    return texts[m.kind]()


def _god_suffix(m: Move) -> str:
    if m.god is None:
        return ""
    return f"@{m.god}" + (f"+{m.points}" if m.points is not None else "")


def _god_target(m: Move) -> str:
    if m.seat is None:
        return ""
    shown = f":{','.join(m.cards)}" if m.cards else ""
    return f"({named(m.seat)}{shown})"


def _cards(cards: tuple[str, ...] | None) -> str:
    return "" if cards is None else f"({','.join(cards)})"
