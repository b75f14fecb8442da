"""The notation of Conquest of Paradise: tag pairs, then one line per command with what it did.

    [Game "conquest-of-paradise"]
    [Seat1 "Ann"]
    [Seat2 "Ben"]
    [Viewer "Ann"]
    [Result "*"]

    3. Ann: OrderChosen(clockwise=true;first=Ann;order=["Ann","Ben"];seat=Ann)
    5. Ann: ExplorerEntered(hex=5.7;penalty=0;seat=Ann)
    6. system: ChitDrawn(hex=5.7;kind="island";seat=Ann) TileFound(hex=5.7;seat=Ann){tile="Hiva"}
    8. Ben: ExplorerReturned(knots=2;seat=Ben) PhaseStarted(phase="move")
    T? move:
    9. Ben: PiecesMoved(count=2;how="move";path=5.4>4.4;seat=Ben){?}

A command line is `<version>. <actor>:` then one token per event of the command: its type,
its public data in parentheses (`key=value`, keys sorted, `;` between them) and its secret in
braces when the viewer may read it, `{?}` when it may not. A hex is `col.row`, a path its
hexes joined by `>`, a seat its player's name, a move's stops `@1-1+1` (at the path's hex 1,
one piece put ashore and one taken aboard; in the secret `@1-colony+band`); any other value is
JSON. A `T<n> <phase>:`
note follows the step that began a turn or a phase (`T?` when only the phase is known).
`format(events, viewer)` writes the events as one viewer may see them and `parse(text)` reads
them back: `parse(format(events))` holds every event's type, data and readable secret (the
grammar in EBNF is in docs/notation.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.actor import Actor
from domain.ending import result_endings
from domain.games import end_event

GAME = "conquest-of-paradise"
SEAT_KEYS = frozenset({"seat", "by", "attacker", "defender", "explorer", "winner", "first", "target"})
SEAT_LISTS = frozenset({"order", "winners", "seats"})
HIDDEN = "?"
STOPS = "stops"


@dataclass(frozen=True)
class Told:
    """One event as the notation tells it: its type, data and secret (HIDDEN when withheld)."""

    type: str
    data: Mapping[str, Any]
    secret: Mapping[str, Any] | str | None = None


@dataclass(frozen=True)
class Step:
    """`<version>. <actor>: <tokens>`: the events of one command (or of the system's draws)."""

    version: int
    actor: str
    told: tuple[Told, ...]


@dataclass(frozen=True)
class PhaseNote:
    """`T<turn> <phase>:` after the step that began a turn or a phase (`T?` when only the
    phase is known)."""

    turn: int | None
    phase: str


@dataclass(frozen=True)
class ParadiseRecord:
    tags: tuple[tuple[str, str], ...]
    lines: tuple[Step | PhaseNote, ...]

    def tag(self, name: str) -> str | None:
        return next((value for key, value in self.tags if key == name), None)

    @property
    def steps(self) -> list[Step]:
        return [line for line in self.lines if isinstance(line, Step)]


# --- writing -----------------------------------------------------------------------------------


def format(events: Sequence[Mapping[str, Any]], viewer: str | None = None) -> str:
    """The notation of a game's events, as redacted dicts ({type, data, secret?, actor?, ...})."""
    setup = dict(events[0].get("data") or {})
    names = [str(s.get("name", f"seat {n}")) for n, s in enumerate(setup.get("seats", []))]
    out = [f"[Game {json.dumps(GAME)}]"]
    out += [f"[Seat{n + 1} {json.dumps(name)}]" for n, name in enumerate(names)]
    if viewer is not None:
        out.append(f"[Viewer {json.dumps(viewer)}]")
    out += [f"[Result {json.dumps(_result(events, names))}]", ""]
    batch: list[Mapping[str, Any]] = []
    key: Any = None
    for event in events[1:]:
        group = (event.get("command_id"), event.get("actor"))
        if batch and group != key:
            out += _step_lines(batch, names)
            batch = []
        key = group
        batch.append(event)
    if batch:
        out += _step_lines(batch, names)
    return "\n".join(out) + "\n"


def _step_lines(batch: Sequence[Mapping[str, Any]], names: list[str]) -> list[str]:
    """The step's line, and a `T<n> <phase>:` note when it began a turn or a phase."""
    lines = [_step_text(batch, names)]
    turn, phase = None, None
    for event in batch:
        data = event.get("data") or {}
        if event.get("type") == "TurnStarted":
            turn, phase = int(data.get("turn", 0)), "order"
        elif event.get("type") == "PhaseStarted":
            phase = str(data.get("phase"))
    if phase is not None:
        lines.append(f"T{turn if turn is not None else '?'} {phase}:")
    return lines


def _result(events: Sequence[Mapping[str, Any]], names: list[str]) -> str:
    last = events[-1] if events else {}
    if last.get("type") not in result_endings(end_event(GAME)):
        return "*"
    winners = (last.get("data") or {}).get("winners") or []
    return "+".join(names[w] for w in winners) or "-"


def _step_text(batch: Sequence[Mapping[str, Any]], names: list[str]) -> str:
    actor = str(batch[0].get("actor") or "system")
    seat = Actor.seat_in(actor)
    if seat is not None and seat < len(names):
        actor = _name(names[seat])
    tokens = " ".join(_token(e, names) for e in batch)
    return f"{batch[-1].get('version', 0)}. {actor}: {tokens}"


def _token(event: Mapping[str, Any], names: list[str]) -> str:
    data = event.get("data") or {}
    body = ";".join(f"{k}={_value(k, v, names)}" for k, v in sorted(data.items()))
    text = f"{event.get('type')}({body})"
    if event.get("secret") is not None:
        secret = event["secret"]
        text += "{" + ";".join(f"{k}={_value(k, v, names)}" for k, v in sorted(secret.items())) + "}"
    elif event.get("redacted") or event.get("secret_digest"):
        text += "{" + HIDDEN + "}"
    return text


def _is_hex(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    )


def _stops_text(stops: Any) -> str | None:
    """A move's stops as `@<index>-<ashore>+<aboard>`, joined by commas: counts (`@1-1+2`) in
    the public data, kinds (`@1-colony+2band`, kinds joined by `&`) in the secret; a part with
    nothing is left out. None when `stops` is not a list of stops."""
    if not isinstance(stops, list) or not all(isinstance(s, Mapping) and "at" in s for s in stops):
        return None
    written = []
    for stop in stops:
        text = f"@{stop['at']}"
        for sign, part in (("-", stop.get("drop")), ("+", stop.get("take"))):
            if isinstance(part, Mapping) and any(part.values()):
                text += sign + "&".join(f"{n if n > 1 else ''}{k}" for k, n in sorted(part.items()) if n)
            elif isinstance(part, int) and part:
                text += f"{sign}{part}"
        written.append(text)
    return ",".join(written)


def _value(key: str, value: Any, names: list[str]) -> str:
    stops = _stops_text(value) if key == STOPS else None
    if stops is not None:
        return stops
    if (
        key in SEAT_KEYS
        and isinstance(value, int)
        and not isinstance(value, bool)
        and 0 <= value < len(names)
    ):
        return _name(names[value])
    if key in SEAT_LISTS and isinstance(value, list) and all(isinstance(v, int) for v in value):
        return json.dumps([names[v] if 0 <= v < len(names) else v for v in value], separators=(",", ":"))
    if _is_hex(value):
        return f"{value[0]}.{value[1]}"
    if isinstance(value, list) and len(value) >= 2 and all(_is_hex(v) for v in value):
        return ">".join(f"{v[0]}.{v[1]}" for v in value)
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _name(name: str) -> str:
    """A name as a token: bare when it is a word, else JSON-quoted."""
    return name if re.fullmatch(r"[A-Za-z][A-Za-z0-9_'-]*", name) else json.dumps(name, ensure_ascii=False)
