"""From a game's events to its record: setup notes, turn lines, rewinds, scores and the end."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from domain.actor import Actor
from domain.ending import GAME_RESIGNED, result_endings
from domain.games import end_event
from replays.notation.builder import Builder, secret
from replays.notation.model import Item, Move, Record
from replays.notation.moves import MOVES

SETUP_ITEMS = frozenset(
    {
        "DeckShuffled",
        "GodsPlaced",
        "HandDealt",
        "ChoosingStarted",
        "FaceUpChosen",
        "FaceUpRevealed",
        "FaceUpLaid",
        "RoundStarted",
    }
)
TURN_ENDS = frozenset({"TurnEnded", "FinalTurnFinished", "FinalTurnDeferred"})
REWINDS = frozenset({"Undone", "Corrected"})
SILENT = frozenset({"ChoiceRequired", "ChoiceResolved", "ChoosingStarted", "RoundEnded"})


def record(events: Sequence[Mapping[str, Any]], viewer: str | None = None) -> Record:
    """The notation of `events` (a game from its GameCreated, as one viewer may see them)."""
    setup = dict(events[0].get("data") or {}) if events and events[0].get("type") == "GameCreated" else {}
    names = [str(s.get("name", f"seat {n}")) for n, s in enumerate(setup.get("seats", []))]
    builder = Builder(names, end=end_event(str(setup.get("game"))))
    for number, event in enumerate(events, start=1):
        version = event.get("version", number)
        _group(builder, event)
        _take(builder, event)
        builder.at_version[version] = (builder.count, _open_or_resume(builder))
    builder.close_turn()
    builder.close_setup()
    return Record(_tags(setup, events, viewer), tuple(builder.lines))


def _open_or_resume(b: Builder) -> tuple[int, int] | None:
    return (b.turn.number, b.turn.seat) if b.turn is not None else b.resume


def _group(b: Builder, event: Mapping[str, Any]) -> None:
    """Tracks whether the command an event belongs to drew a card (a turn ends with `end` if not).

    Without command ids, the events right before a TurnEnded tell: a draw (and its refill),
    unless Lono drew it (G-8).
    """
    kind, key = event.get("type"), event.get("command_id")
    if key is None:
        lono = b.turn is not None and bool(b.turn.moves) and b.turn.moves[-1] == Move("god", god="Lono")
        if kind != "TurnEnded":
            drew = kind == "DrawSkipped" or (kind == "CardDrawn" and not lono)
            b.group_drew = drew or (b.group_drew and kind == "FaceUpRefilled")
        return
    if key != b.group:
        # Cards wait for an action of their own command only (a stored O-11 card played alone).
        b.flush()
        b.group, b.group_drew = key, False
    if kind in ("CardDrawn", "DrawSkipped"):
        b.group_drew = True


def _tags(
    setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]], viewer: str | None
) -> tuple[tuple[str, str], ...]:
    return (*setup_tags(setup, events, viewer), ("Result", _result(setup, events)))


def setup_tags(
    setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]], viewer: str | None
) -> list[tuple[str, str]]:
    """The heading's tags before Result, the same in every grammar: Game, Date, one Seat<n>
    per seat, Mode, Options (when any) and Viewer (when the record is one seat's)."""
    tags: list[tuple[str, str]] = [("Game", str(setup.get("game", "?")))]
    at = str(events[0].get("at", "")) if events else ""
    if at:
        tags.append(("Date", at[:10]))
    for n, seat in enumerate(setup.get("seats", []), start=1):
        tags.append((f"Seat{n}", str(seat.get("name", ""))))
    tags.append(("Mode", str(setup.get("mode", "casual"))))
    options = _flat(setup.get("options") or {})
    if options:
        tags.append(("Options", " ".join(options)))
    if viewer is not None:
        tags.append(("Viewer", viewer))
    return tags


def _flat(options: Mapping[str, Any], prefix: str = "") -> list[str]:
    flat = []
    for key, value in sorted(options.items()):
        if isinstance(value, Mapping):
            flat += _flat(value, f"{prefix}{key}.")
        else:
            flat.append(f"{prefix}{key}={value if isinstance(value, str) else json.dumps(value)}")
    return flat


def _result(setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str:
    # The ends that give a result (an abort and a forfeit give none here).
    ends = result_endings(end_event(str(setup.get("game"))))
    ended = [e for e in events if e.get("type") in ends]
    if not ended:
        return "*"
    data = ended[-1].get("data") or {}
    winner, seats = data.get("winner"), setup.get("seats", [])
    if type(winner) is int and 0 <= winner < len(seats):
        return str(seats[winner].get("name", winner))
    shared = [w for w in data.get("winners") or () if type(w) is int and 0 <= w < len(seats)]
    if ended[-1].get("type") == GAME_RESIGNED and shared:  # the others share a resigned game's win
        return ",".join(str(seats[w].get("name", w)) for w in shared)
    return "draw"


def _actor_seat(event: Mapping[str, Any], data: Mapping[str, Any]) -> int:
    seat = Actor.seat_in(event.get("actor", ""))
    if seat is not None:
        return seat
    seat = data.get("seat")
    return seat if type(seat) is int else -1


def _take(b: Builder, event: Mapping[str, Any]) -> None:
    kind = str(event.get("type", ""))
    data: Mapping[str, Any] = event.get("data") or {}
    if b.played is not None and not _uses_cards(kind, data):
        b.flush()
    if kind == "GameCreated" or kind in SILENT:
        return
    if kind in SETUP_ITEMS or (kind == "FaceUpRefilled" and b.setup is not None):
        _setup_event(b, kind, event, data)
    elif kind in REWINDS:
        _rewind(b, kind, data)
    elif kind in NOTES:
        b.note(*NOTES[kind](b, data))
    elif kind == b.end:
        b.note(*_ended(b, data))
    elif kind in MOVES:
        seat = b.turn.seat if b.turn is not None else _actor_seat(event, data)
        b.open_turn(seat)
        MOVES[kind](b, seat, event, data)
        if kind in TURN_ENDS:
            b.close_turn()
    else:
        b.note(
            kind,
            [
                Item(k, (json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False),))
                for k, v in sorted(data.items())
            ],
        )


def _uses_cards(kind: str, data: Mapping[str, Any]) -> bool:
    """Whether this event is the action of the cards just played."""
    if kind in ("BridgePlaced", "ShipPlaced"):
        return True
    if kind == "BridgeRemoved":
        return data.get("cause") in ("attack", "swap", "taken_back")
    return kind == "ShipSunk" and data.get("cause") == "placed_on"


def _setup_event(b: Builder, kind: str, event: Mapping[str, Any], data: Mapping[str, Any]) -> None:
    if kind == "DeckShuffled":
        b.close_setup()
        b.round = int(data.get("round", b.round + 1)) - 1
        b.setup_item(Item("deck", (str(data.get("size", "?")),)))
    elif kind == "GodsPlaced":
        by_god: dict[str, list[str]] = {}
        for island, god in data.get("stones", {}).items():
            by_god.setdefault(str(god), []).append(str(island))
        for god, islands in sorted(by_god.items()):
            b.setup_item(Item("gods", tuple(islands), god))
    elif kind == "HandDealt":
        cards = secret(event, "cards")
        shown = tuple(cards) if cards is not None else (f"?{data.get('count', 0)}",)
        b.setup_item(Item("hand", shown, b.name(data.get("seat"))))
    elif kind == "FaceUpChosen":
        b.setup_item(Item("chose", (str(secret(event, "card") or "?"),), b.name(data.get("seat"))))
    elif kind in ("FaceUpRevealed", "FaceUpLaid"):
        b.setup_item(Item("up", tuple(data.get("cards", []))))
    elif kind == "FaceUpRefilled":
        b.setup_item(Item("refill", (str(data.get("card")),)))
    elif kind == "RoundStarted":
        b.setup_item(Item("first", (b.name(data.get("first")),)))
        b.round = int(data.get("round", b.round + 1))
        b.close_setup()


def _rewind(b: Builder, kind: str, data: Mapping[str, Any]) -> None:
    """Undone / Corrected: a note, and the turn numbers go back to those of `to_version`."""
    target = data.get("to_version")
    items = [Item("to", (str(target),))]
    if kind == "Undone":
        items.append(Item("by", (b.name(data.get("requested_by")),)))
        approved = [b.name(s) for s in data.get("approved_by") or []]
        if approved:
            items.append(Item("approved", tuple(approved)))
        label = "undo"
    else:
        items.append(Item("by", (str(data.get("organizer", "organizer")),)))
        items.append(Item("reason", (str(data.get("reason", "")),)))
        label = "correct"
    b.note(label, items)
    if type(target) is int and target in b.at_version:
        b.count, b.resume = b.at_version[target]


def _score(b: Builder, d: Mapping[str, Any]) -> tuple[str, list[Item]]:
    rows = zip(d.get("islands", []), d.get("points", []), d.get("totals", []), strict=False)
    items = [Item("score", (str(n), f"+{p}", str(t)), b.name(s)) for s, (n, p, t) in enumerate(rows)]
    return f"R{d.get('round', b.round)} score", items


def _final(b: Builder, d: Mapping[str, Any]) -> tuple[str, list[Item]]:
    return f"R{b.round} final", [Item("order", tuple(b.name(s) for s in d.get("order", [])))]


def _ended(b: Builder, d: Mapping[str, Any]) -> tuple[str, list[Item]]:
    winner = d.get("winner")
    items = [Item("winner", (b.name(winner),)) if winner is not None else Item("draw")]
    items.append(Item("reason", (str(d.get("reason", "?")),)))
    items.append(Item("totals", tuple(str(t) for t in d.get("totals", []))))
    if "round" in d:
        items.append(Item("round", (str(d["round"]),)))
    tournament = d.get("tournament")
    if isinstance(tournament, Mapping):
        for key in ("points", "island_points"):
            if key in tournament:
                items.append(Item(key, tuple(str(p) for p in tournament[key])))
    return "end", items


NOTES = {"RoundScored": _score, "FinalTurnsStarted": _final}
