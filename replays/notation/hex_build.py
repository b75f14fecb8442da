"""From the events of a game on hexagonal cells to its record (replays.notation.hex_cells)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.ending import result_endings
from domain.games import end_event
from replays.notation.build import setup_tags
from replays.notation.hex_cells import HexRecord, HexTurn, Step, cell_text, line_text, render
from replays.notation.model import Item, Note

Cell = tuple[int, int]


def _cell(value: Any) -> Cell:
    return int(value[0]), int(value[1])


def _line(value: Any) -> tuple[Cell, ...]:
    return tuple(sorted(_cell(c) for c in value))


def format(events: Sequence[Mapping[str, Any]], viewer: str | None = None) -> str:
    """The notation of a game's events."""
    return render(record(events, viewer))


def _steps_of(kind: str, d: Mapping[str, Any]) -> list[Step]:
    """The steps an event is told as (none for the events a turn line leaves out)."""
    inuk = "+inuk" if d.get("inuk") else ""
    if kind == "PiecePlaced":
        return [Step("place", int(d["piece"]), (_cell(d["cell"]),))]
    if kind == "PieceMoved":
        flags = "".join(
            flag for flag, key in (("k", "kayak"), ("s", "sled"), ("1", "one_crack")) if d.get(key)
        )
        return [Step("move", int(d["piece"]), (_cell(d["from"]), _cell(d["to"])), flags=flags)]
    if kind == "PieceStayed":
        return [Step("stay", int(d["piece"]), (_cell(d["cell"]),))]
    if kind == "CrackPlaced":
        return [Step("crack", cells=_line(d["crack"]), flags=str(d.get("kind", "")))]
    if kind == "EquipmentUsed":
        return [Step("equip", words=tuple(str(i) for i in d.get("items", [])))]
    if kind == "InukJoined":
        return [Step("join")]
    if kind in ("AnimalTaken", "AnimalLeft"):
        return [Step("take" if kind == "AnimalTaken" else "leave", words=(str(d["animal"]),))]
    if kind == "BearSent":
        return [Step("bear", int(d["bear"]), (_cell(d["from"]), _cell(d["to"])))]
    if kind == "HarpoonReturned":
        return [Step("harpoon")]
    if kind == "AnimalExchanged":
        bought = tuple(str(e) for e in d.get("equipment", []))
        return [Step("exchange", words=(str(d["animal"]), *bought), flags=inuk)]
    if kind == "AnimalBroughtIn":
        return [Step("bring", words=(str(d["animal"]),), flags=inuk)]
    if kind == "IglooVisitEnded":
        return [Step("home")]
    if kind == "HunterRetired":
        return [Step("retire", int(d["piece"]))]
    if kind == "TurnSkipped":
        return [Step("skip", words=(str(d.get("reason", "")),))]
    if kind == "StepsEnded":
        return [Step("stop")] if d.get("declined") else []
    if kind == "MoveSkipped":
        return [Step("pass", words=(str(d.get("reason", "")),))]
    if kind == "PieceOut":
        return [Step("out", int(d["piece"]), words=(str(d.get("reason", "")),))]
    return []


TURN_EVENTS = frozenset(
    {
        "PiecePlaced",
        "PieceMoved",
        "PieceStayed",
        "CrackPlaced",
        "EquipmentUsed",
        "InukJoined",
        "AnimalTaken",
        "AnimalLeft",
        "BearSent",
        "HarpoonReturned",
        "AnimalExchanged",
        "AnimalBroughtIn",
        "IglooVisitEnded",
        "HunterRetired",
        "TurnSkipped",
        "PieceOut",
        "StepsEnded",
        "MoveSkipped",
    }
)
SILENT = frozenset({"GameCreated", "MoveEnded"})
"""Events a turn line leaves out: the setup is in the tags; a move's end is the next token."""
TURN_ENDS = frozenset({"TurnEnded", "TurnSkipped"})
ICE_KINDS = ("whale", "inuk", "fish", "seal", "walrus")


@dataclass
class _Builder:
    names: list[str]
    end: str | None  # the event with which the game's rules end it (its module's)
    lines: list[HexTurn | Note] = field(default_factory=list)
    count: int = 0
    seat: int | None = None
    steps: list[Step] = field(default_factory=list)
    at_version: dict[int, int] = field(default_factory=dict)

    def name(self, seat: Any) -> str:
        return self.names[seat] if type(seat) is int and 0 <= seat < len(self.names) else str(seat)

    def step(self, seat: int, steps: list[Step]) -> None:
        if self.seat is not None and self.seat != seat:
            self.close()
        self.seat = seat
        self.steps += steps

    def close(self) -> None:
        if self.seat is not None:
            self.count += 1
            self.lines.append(HexTurn(self.count, self.name(self.seat), tuple(self.steps)))
        self.seat, self.steps = None, []

    def note(self, label: str, items: list[Item]) -> None:
        self.close()
        self.lines.append(Note(label, tuple(items)))


def record(events: Sequence[Mapping[str, Any]], viewer: str | None = None) -> HexRecord:
    """The notation of `events` (a game from its GameCreated)."""
    setup = dict(events[0].get("data") or {}) if events and events[0].get("type") == "GameCreated" else {}
    names = [str(s.get("name", f"seat {n}")) for n, s in enumerate(setup.get("seats", []))]
    b = _Builder(names, end_event(str(setup.get("game"))))
    for number, event in enumerate(events, start=1):
        _take(b, event)
        b.at_version[int(event.get("version", number))] = b.count
    b.close()
    return HexRecord(_tags(setup, events, viewer), tuple(b.lines))


def _take(b: _Builder, event: Mapping[str, Any]) -> None:
    kind = str(event.get("type", ""))
    d: Mapping[str, Any] = event.get("data") or {}
    if kind in SILENT:
        return
    if kind == "TurnEnded":
        b.close()
    elif kind in TURN_EVENTS:
        seat = d.get("seat")
        b.step(seat if type(seat) is int else -1, _steps_of(kind, d))
        if kind in TURN_ENDS:
            b.close()
    elif kind == "IceLaidOut":
        b.note("ice", _ice_items(d))
    elif kind in ("Undone", "Corrected"):
        b.note(*_rewind(b, kind, d))
    elif kind == b.end:
        b.note("end", _ended(b, d))
    else:
        items = [Item(k, (_json(v),)) for k, v in sorted(d.items())]
        b.note(kind, items)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _ice_items(d: Mapping[str, Any]) -> list[Item]:
    by_kind: dict[str, list[str]] = {}
    for token in d.get("tokens", []):
        by_kind.setdefault(str(token["kind"]), []).append(cell_text(token["cell"]))
    items = [Item(kind, tuple(sorted(by_kind.pop(kind)))) for kind in ICE_KINDS if kind in by_kind]
    items += [Item(kind, tuple(sorted(cells))) for kind, cells in sorted(by_kind.items())]
    if d.get("bears"):
        items.append(Item("bear", tuple(sorted(cell_text(c) for c in d["bears"]))))
    if d.get("cracks"):
        items.append(Item("cracks", tuple(sorted(line_text(_line(c)) for c in d["cracks"]))))
    return items


def _rewind(b: _Builder, kind: str, d: Mapping[str, Any]) -> tuple[str, list[Item]]:
    """Undone / Corrected: a note, and the turn numbers go back to those of `to_version`."""
    target = d.get("to_version")
    items = [Item("to", (str(target),))]
    if kind == "Undone":
        items.append(Item("by", (b.name(d.get("requested_by")),)))
        approved = tuple(b.name(s) for s in d.get("approved_by") or [])
        if approved:
            items.append(Item("approved", approved))
        label = "undo"
    else:
        items += [
            Item("by", (str(d.get("organizer", "organizer")),)),
            Item("reason", (str(d.get("reason", "")),)),
        ]
        label = "correct"
    b.close()
    if type(target) is int and target in b.at_version:
        b.count = b.at_version[target]
    return label, items


def _ended(b: _Builder, d: Mapping[str, Any]) -> list[Item]:
    winners = [w for w in d.get("winners") or ([] if d.get("winner") is None else [d["winner"]])]
    items = [Item("winners", tuple(b.name(w) for w in winners))] if winners else [Item("draw")]
    items.append(Item("reason", (str(d.get("reason", "?")),)))
    items.append(Item("totals", tuple(str(t) for t in d.get("totals", []))))
    if "points" in d:
        items.append(Item("points", tuple(str(p) for p in d["points"])))
    if "equipment" in d:
        items.append(Item("equipment", tuple(_count(e) for e in d["equipment"])))
    return items


def _count(value: Any) -> str:
    """Carried equipment at the end, as its count (N-11's tie-break)."""
    return str(len(value)) if isinstance(value, list | tuple) else str(value)


def _tags(
    setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]], viewer: str | None
) -> tuple[tuple[str, str], ...]:
    tags = setup_tags(setup, events, viewer)
    ends = result_endings(end_event(str(setup.get("game"))))
    ended = [e for e in events if e.get("type") in ends]
    result = "*"
    if ended:
        data = ended[-1].get("data") or {}
        winners = data.get("winners") or ([] if data.get("winner") is None else [data["winner"]])
        result = ",".join(_name_of(setup, w) for w in winners) or "draw"
    tags.append(("Result", result))
    return tuple(tags)


def _name_of(setup: Mapping[str, Any], seat: Any) -> str:
    seats = setup.get("seats", [])
    return str(seats[seat].get("name", seat)) if type(seat) is int and 0 <= seat < len(seats) else str(seat)
